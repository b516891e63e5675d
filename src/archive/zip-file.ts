/**
 * The finished zip file, read at random: its end records, its central directory's entries, and its
 * entries' local headers and bytes, with reads ahead for records and entries that come in a row.
 */
import { type FileHandle, open } from 'node:fs/promises'
import { collectMainThreadGarbage } from '../common/buffer-garbage.js'
import { UnsupportedArchiveError, corrupt } from './errors.js'
import {
  CENTRAL_HEADER,
  CENTRAL_HEADER_BYTES,
  type CentralEntry,
  END_BYTES,
  END_OF_DIRECTORY,
  LOCAL_HEADER,
  LOCAL_HEADER_BYTES,
  LOCATOR_BYTES,
  type LocalEntry,
  MAX_COMMENT_BYTES,
  ZIP64_END_BYTES,
  ZIP64_END_OF_DIRECTORY,
  ZIP64_LOCATOR,
  centralRecordBytes,
  parseCentralHeader,
  parseLocalHeader,
  readUInt64
} from './zip-records.js'

/** Bytes read from the finished file at once (entries in a row come from one read). */
export const READ_BYTES = 1024 * 1024

/**
 * What reading one central directory entry leaves for the collector (the parsed entry, its name,
 * the batch's share): about 450 bytes, measured on the 30,000-entry benchmark zip (3.8 KiB when
 * each entry was read and yielded with promises of its own). It is counted so that the young
 * generation is collected after every MiB or so of it. Why: nothing downloads by then, so nothing
 * else counts, and V8 lets the young generation, grown to its full size during the download, fill
 * up before it collects it; the pages it touches stay resident. On the 30,000-file zip that was
 * 25 MiB more peak RSS at the very end (116 -> 141 MiB).
 */
const DIRECTORY_ENTRY_GARBAGE_BYTES = 512
/** Entries parsed in a row before the consumer takes them: a bound on what one batch holds. */
const DIRECTORY_BATCH_ENTRIES = 256

/** Where the central directory is and how many entries it lists. */
export interface Directory {
  count: number
  offset: number
  size: number
}

/** Bytes read ahead from a file, for records or entries in a row. */
class ReadAhead {
  private buffer = Buffer.alloc(0)
  private start = 0

  constructor(private readonly file: ZipFile) {}

  /** `length` bytes at `position`: valid only until the next read (copy what must live longer). */
  async read(position: number, length: number): Promise<Buffer> {
    await this.load(position, length)
    return this.buffer.subarray(position - this.start, position - this.start + length)
  }

  /** At least `length` bytes at `position` and whatever was read after them: valid only until the next read. */
  async readOn(position: number, length: number): Promise<Buffer> {
    await this.load(position, length)
    return this.buffer.subarray(position - this.start)
  }

  private async load(position: number, length: number): Promise<void> {
    if (position < this.start || position + length > this.start + this.buffer.length) {
      if (position + length > this.file.size)
        throw corrupt(new Error(`data runs past the end of the file (${position + length} > ${this.file.size})`))
      const bytes = Math.min(Math.max(length, READ_BYTES), this.file.size - position)
      const buffer =
        this.buffer.buffer.byteLength >= bytes
          ? Buffer.from(this.buffer.buffer, this.buffer.byteOffset, bytes)
          : Buffer.allocUnsafe(Math.max(bytes, READ_BYTES))
      await this.file.fill(buffer, position, bytes)
      this.buffer = buffer.subarray(0, bytes)
      this.start = position
    }
  }
}

/** The finished archive file: its end records, its central directory, and its entries' bytes. */
export class ZipFile {
  /** Entries' headers and small contents, read ahead. */
  private readonly entries = new ReadAhead(this)

  private constructor(
    private readonly handle: FileHandle,
    readonly size: number
  ) {}

  static async open(path: string): Promise<ZipFile> {
    const handle = await open(path, 'r')
    try {
      return new ZipFile(handle, (await handle.stat()).size)
    } catch (error) {
      await handle.close()
      throw error
    }
  }

  close(): Promise<void> {
    return this.handle.close()
  }

  /** The end of central directory record (and its zip64 form): as yauzl finds them. */
  async directory(): Promise<Directory> {
    const tailBytes = Math.min(this.size, LOCATOR_BYTES + END_BYTES + MAX_COMMENT_BYTES)
    const tail = await this.readFresh(this.size - tailBytes, tailBytes)
    for (let at = tailBytes - END_BYTES; at >= 0; at--) {
      if (tail.readUInt32LE(at) !== END_OF_DIRECTORY) continue
      const commentBytes = tail.readUInt16LE(at + 20)
      if (commentBytes !== tailBytes - at - END_BYTES)
        throw corrupt(new Error('the end of central directory record is not at the end of the file'))
      let disk = tail.readUInt16LE(at + 4)
      let count = tail.readUInt16LE(at + 10)
      let size = tail.readUInt32LE(at + 12)
      let offset = tail.readUInt32LE(at + 16)
      /** Where the end records start: the central directory ends there. */
      let endRecords = this.size - tailBytes + at
      if (at >= LOCATOR_BYTES && tail.readUInt32LE(at - LOCATOR_BYTES) === ZIP64_LOCATOR) {
        endRecords = readUInt64(tail, at - LOCATOR_BYTES + 8)
        const end64 = await this.readFresh(endRecords, ZIP64_END_BYTES)
        if (end64.readUInt32LE(0) !== ZIP64_END_OF_DIRECTORY)
          throw corrupt(new Error('invalid zip64 end of central directory record signature'))
        disk = end64.readUInt32LE(16)
        count = readUInt64(end64, 32)
        size = readUInt64(end64, 40)
        offset = readUInt64(end64, 48)
      }
      if (disk !== 0)
        throw new UnsupportedArchiveError(
          `The bundle archive cannot be unpacked: it is a zip split over several disks (this is disk ${disk}), which the action does not unpack.`
        )
      if (offset + size > this.size) throw corrupt(new Error('the central directory runs past the end of the file'))
      // Nothing between them: bytes there are read by no reader, and could be anything in any amount.
      if (offset + size !== endRecords) {
        throw corrupt(
          new Error(
            `the central directory ends at byte ${offset + size}, but the end records start at byte ${endRecords}`
          )
        )
      }
      return { count, offset, size }
    }
    throw corrupt(
      new Error('End of central directory record signature not found. Either not a zip file, or file is truncated.')
    )
  }

  /**
   * The central directory's entries, in its order, a batch at a time: parsed in a plain loop from
   * the bytes read ahead, not awaited one by one (two promises an entry were most of what reading
   * 30,000 of them cost, and most of their garbage).
   */
  async *centralEntries(directory: Directory): AsyncGenerator<CentralEntry[]> {
    const records = new ReadAhead(this)
    let at = directory.offset
    let index = 0
    /** The bytes the next record needs in the window: its fixed part, then (if it did not fit) all of it. */
    let need = CENTRAL_HEADER_BYTES
    // The end record gives both the count and the size: they must agree, or one of them is damaged
    // (a count one bit short would silently leave entries out of the site).
    const end = directory.offset + directory.size
    while (index < directory.count) {
      const window = await records.readOn(at, need)
      const batch: CentralEntry[] = []
      let used = 0
      need = CENTRAL_HEADER_BYTES
      while (
        index < directory.count &&
        batch.length < DIRECTORY_BATCH_ENTRIES &&
        used + CENTRAL_HEADER_BYTES <= window.length
      ) {
        const signature = window.readUInt32LE(used)
        if (signature !== CENTRAL_HEADER)
          throw corrupt(new Error(`invalid central directory file header signature: 0x${signature.toString(16)}`))
        const bytes = centralRecordBytes(window, used)
        if (at + used + bytes > end)
          throw corrupt(
            new Error(
              `the central directory holds more than the ${directory.size} bytes its end record gives for ${directory.count} entries`
            )
          )
        if (used + bytes > window.length) {
          need = bytes
          break
        }
        batch.push(parseCentralHeader(window, used))
        used += bytes
        index++
      }
      at += used
      collectMainThreadGarbage(batch.length * DIRECTORY_ENTRY_GARBAGE_BYTES)
      if (batch.length > 0) yield batch
    }
    if (at !== end)
      throw corrupt(
        new Error(
          `the central directory's ${directory.count} entries take ${at - directory.offset} bytes, but its end record gives ${directory.size}`
        )
      )
  }

  /** The local header at `offset`. */
  async localEntry(offset: number): Promise<LocalEntry> {
    const fixed = await this.read(offset, LOCAL_HEADER_BYTES)
    if (fixed.readUInt32LE(0) !== LOCAL_HEADER)
      throw corrupt(new Error(`invalid local file header signature: 0x${fixed.readUInt32LE(0).toString(16)}`))
    const header = await this.read(offset, LOCAL_HEADER_BYTES + fixed.readUInt16LE(26) + fixed.readUInt16LE(28))
    return parseLocalHeader(header, 0, offset)
  }

  /** `length` bytes of entries at `position`: valid only until the next read (copy what must live longer). */
  read(position: number, length: number): Promise<Buffer> {
    return this.entries.read(position, length)
  }

  /** `length` bytes at `position` in a buffer of their own. */
  async readFresh(position: number, length: number): Promise<Buffer> {
    if (position < 0 || position + length > this.size)
      throw corrupt(new Error(`data runs past the end of the file (${position + length} > ${this.size})`))
    const buffer = Buffer.allocUnsafe(length)
    await this.fill(buffer, position, length)
    return buffer
  }

  async fill(buffer: Buffer, position: number, length: number): Promise<void> {
    for (let done = 0; done < length;) {
      const { bytesRead } = await this.handle.read(buffer, done, length - done, position + done)
      if (bytesRead === 0) throw corrupt(new Error('unexpected end of file'))
      done += bytesRead
    }
  }
}
