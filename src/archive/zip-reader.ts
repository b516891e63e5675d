/**
 * A finished zip file as yauzl reads it, with what Info-ZIP's unzip also accepts: bytes after the
 * end record (bsdtar pads a zip to its block size) and bytes before the first entry that the
 * offsets do not count (a zip appended to a program). Names are the bytes unzip would write.
 */
import { closeSync, fstatSync, openSync, readSync } from 'node:fs'
import { Readable } from 'node:stream'
import zlib from 'node:zlib'
import yauzl from 'yauzl'
import { UnsupportedArchiveError, corrupt } from './errors.js'

/** Reads of the file are served from blocks of this size (a directory's records come in a row). */
const BLOCK_BYTES = 1024 * 1024
const CACHED_BLOCKS = 4
const END_RECORD_BYTES = 22
const MAX_COMMENT_BYTES = 0xffff
const END_SIGNATURE = 0x06054b50
const ZIP64_LOCATOR_SIGNATURE = 0x07064b50
const ZIP64_LOCATOR_BYTES = 20
const CENTRAL_SIGNATURE = 0x02014b50
const CENTRAL_RECORD_BYTES = 46

/**
 * The file seen from `shift` on and up to `size` bytes (see zipWindow), read through a few cached
 * blocks: yauzl asks for each record apart, and a read of the disk for each cost more than the rest.
 */
class WindowReader extends yauzl.RandomAccessReader {
  private readonly blocks = new Map<number, Buffer>()

  constructor(
    private readonly fd: number,
    private readonly shift: number,
    private readonly size: number
  ) {
    super()
  }

  /** `length` bytes at `position` of the window into `target` (a throw: past its end). */
  copy(target: Buffer, offset: number, length: number, position: number): void {
    if (position < 0 || position + length > this.size) throw new Error('unexpected EOF')
    while (length > 0) {
      const index = Math.floor((position + this.shift) / BLOCK_BYTES)
      const block = this.block(index)
      const at = position + this.shift - index * BLOCK_BYTES
      const count = Math.min(length, block.length - at)
      if (count <= 0) throw new Error('unexpected EOF')
      block.copy(target, offset, at, at + count)
      offset += count
      length -= count
      position += count
    }
  }

  override read(
    buffer: Buffer,
    offset: number,
    length: number,
    position: number,
    callback: (error: Error | null, bytesRead?: number) => void
  ): void {
    try {
      this.copy(buffer, offset, length, position)
    } catch (error) {
      return callback(error as Error)
    }
    callback(null, length)
  }

  override _readStreamForRange(start: number, end: number): Readable {
    const { fd, shift } = this
    // A large entry's bytes, read in order and once: past the cache.
    return Readable.from(
      (function* () {
        for (let at = start; at < end;) {
          const chunk = Buffer.allocUnsafe(Math.min(BLOCK_BYTES, end - at))
          const read = readSync(fd, chunk, 0, chunk.length, at + shift)
          if (read === 0) throw new Error('unexpected EOF')
          at += read
          yield chunk.subarray(0, read)
        }
      })(),
      { objectMode: false }
    )
  }

  override close(callback: (error: Error | null) => void): void {
    // The file is its opener's to close (see openZip).
    setImmediate(callback, null)
  }

  private block(index: number): Buffer {
    const cached = this.blocks.get(index)
    if (cached !== undefined) return cached
    if (this.blocks.size >= CACHED_BLOCKS) this.blocks.delete(this.blocks.keys().next().value as number)
    const block = Buffer.allocUnsafe(BLOCK_BYTES)
    const read = readSync(this.fd, block, 0, BLOCK_BYTES, index * BLOCK_BYTES)
    this.blocks.set(index, block.subarray(0, read))
    return block.subarray(0, read)
  }
}

/** A zip's end record: where it is in the file, and what it says of the central directory. */
export interface EndRecord {
  at: number
  /** The file's bytes up to the end of the record's comment (bytes after it are padding). */
  end: number
  directoryOffset: number
  directoryBytes: number
  /** Zip64 keeps the true figures elsewhere: yauzl reads them, and the zip is taken as it comes. */
  zip64: boolean
}

/**
 * The last end record in `tail` (the last bytes of a file of `size`), as unzip finds it: the last
 * signature, its comment fitting in the file or not (`end` past `size`: see openZip).
 */
export function findEndRecord(tail: Buffer, size: number): EndRecord | undefined {
  const tailStart = size - tail.length
  for (let at = tail.length - END_RECORD_BYTES; at >= 0; at--) {
    if (tail.readUInt32LE(at) !== END_SIGNATURE) continue
    const end = at + END_RECORD_BYTES + tail.readUInt16LE(at + 20)
    const directoryBytes = tail.readUInt32LE(at + 12)
    const directoryOffset = tail.readUInt32LE(at + 16)
    const locator = at >= ZIP64_LOCATOR_BYTES && tail.readUInt32LE(at - ZIP64_LOCATOR_BYTES) === ZIP64_LOCATOR_SIGNATURE
    const zip64 = locator || directoryOffset === 0xffffffff || directoryBytes === 0xffffffff
    return { at: tailStart + at, end: tailStart + end, directoryOffset, directoryBytes, zip64 }
  }
  return undefined
}

/**
 * Where the zip lies in its file: from where its offsets count (0, or after a program the zip was
 * appended to, which unzip calls "extra bytes at beginning") to the end of its end record. The
 * central directory must end where the end record starts: bytes between the two are read by no
 * reader, and could hide anything.
 */
function zipWindow(fd: number, end: EndRecord): { shift: number; size: number } {
  if (end.zip64) return { shift: 0, size: end.end }
  const declaredEnd = end.directoryOffset + end.directoryBytes
  const actualStart = end.at - end.directoryBytes
  if (declaredEnd !== end.at) {
    const signature = Buffer.alloc(4)
    if (
      actualStart < 0 ||
      declaredEnd > end.at ||
      readSync(fd, signature, 0, 4, actualStart) !== 4 ||
      signature.readUInt32LE(0) !== CENTRAL_SIGNATURE
    ) {
      throw corrupt(
        new Error(`the central directory ends at byte ${declaredEnd}, but the end records start at byte ${end.at}`)
      )
    }
  }
  const shift = actualStart - end.directoryOffset
  return { shift, size: end.end - shift }
}

/** The last bytes of a file: where a zip's end record is. */
export const ZIP_TAIL_BYTES = END_RECORD_BYTES + MAX_COMMENT_BYTES + ZIP64_LOCATOR_BYTES

export interface OpenZip {
  zip: yauzl.ZipFile
  reader: { copy(target: Buffer, offset: number, length: number, position: number): void }
  entries: yauzl.Entry[]
  close(): void
}

/** Opens the zip in `file` and reads its central directory whole; throws the archive's errors (see errors.ts). */
export async function openZip(file: string): Promise<OpenZip> {
  const fd = openSync(file, 'r')
  try {
    const size = fstatSync(fd).size
    const tail = Buffer.alloc(Math.min(size, ZIP_TAIL_BYTES))
    readSync(fd, tail, 0, tail.length, size - tail.length)
    const end = findEndRecord(tail, size)
    if (end === undefined) throw corrupt(new Error('it has no end of central directory record'))
    // unzip reads on with a warning, yauzl refuses, and an earlier record would be another zip: refused.
    if (end.end > size) {
      throw corrupt(
        new Error(
          `its end record's comment of ${end.end - end.at - END_RECORD_BYTES} bytes runs past the end of the file ` +
            `(${size - end.at - END_RECORD_BYTES} bytes are there): the zip is cut short or damaged`
        )
      )
    }
    const window = zipWindow(fd, end)
    const reader = new WindowReader(fd, window.shift, window.size)
    const zip = await yauzl
      .fromRandomAccessReaderPromise(reader, window.size, {
        lazyEntries: true,
        decodeStrings: false,
        validateEntrySizes: true,
        autoClose: false
      })
      .catch(readFailure)
    const entries: yauzl.Entry[] = []
    try {
      for await (const entry of zip.eachEntry()) entries.push(entry)
    } catch (error) {
      throw readFailure(error)
    }
    checkDirectoryBytes(entries, end)
    return { zip, reader, entries, close: () => closeSync(fd) }
  } catch (error) {
    closeSync(fd)
    throw error
  }
}

/**
 * The records read must fill the directory the end record describes: an end record whose count
 * is short (one flipped bit) would otherwise leave entries out of the site without a word.
 */
function checkDirectoryBytes(entries: yauzl.Entry[], end: EndRecord): void {
  if (end.zip64) return
  let bytes = 0
  for (const entry of entries) {
    bytes += CENTRAL_RECORD_BYTES + entry.fileNameLength + entry.extraFieldLength + entry.fileCommentLength
  }
  if (bytes !== end.directoryBytes) {
    throw corrupt(
      new Error(
        `the central directory's ${entries.length} entries take ${bytes} bytes, but its end record says ` +
          `${end.directoryBytes}`
      )
    )
  }
}

/** What yauzl refuses: split zips and strong encryption are intact but unsupported; the rest is corrupt. */
function readFailure(error: unknown): never {
  const message = error instanceof Error ? error.message : String(error)
  if (/multi-disk/.test(message)) {
    throw new UnsupportedArchiveError('The bundle archive cannot be unpacked: it is a zip split over several disks.')
  }
  if (/strong encryption/.test(message)) {
    throw new UnsupportedArchiveError('The bundle archive cannot be unpacked: it uses strong encryption.')
  }
  throw corrupt(error)
}

/** Hosts whose names unzip reads as an OEM code page (process.c, Ext_ASCII_TO_Native). */
function oemNamed(entry: yauzl.Entry): boolean {
  const host = entry.versionMadeBy >> 8
  const version = entry.versionMadeBy & 0xff
  const unixModes = entry.externalFileAttributes >>> 16 !== 0
  if (host === 0) return !(unixModes && (version === 25 || version === 26 || version === 40))
  return host === 6 || (host === 11 && version === 50)
}

/**
 * Info-ZIP's OEM (code page 850) to ISO-8859-1 table for bytes 0x80-0xFF, as unzip applies it on
 * Linux: one latin-1 byte each ('' where it drops the byte).
 */
const OEM_TO_LATIN1 = Buffer.from(
  'c7fce9e2e4e0e5e7eaebe8efeeecc4c5c9e6c6f4f6f2fbf900d6dcf8a3d8d783e1edf3faf1d1aababfaeacbdbca1abbb' +
    'a6a6a6a6a6c1c2c0a9a6a62b2ba2a52b2b2d2d2b2d2be3c32b2b2d2da62d2ba4f0d0cacbc869cdcecf2b2ba65fa6ccaf' +
    'd3dfd4d2f5d5b5fededadbd9fdddafb4adb13dbeb6a7f7b8b0a8b7b9b3b2a6a0',
  'hex'
)
const DROPPED_OEM_BYTE = 0x98

/**
 * The bytes unzip (Info-ZIP, on Linux) writes for an entry's name: UTF-8 when flagged or given in
 * an Info-ZIP Unicode path field that matches the name, code page 850 read into latin-1 for names
 * made on DOS and Windows hosts (their `\` a separator), and the bytes as they are otherwise.
 */
export function entryNameBytes(entry: yauzl.Entry): Buffer {
  const raw = entry.fileNameRaw
  if ((entry.generalPurposeBitFlag & 0x800) !== 0) return raw
  const unicode = unicodePath(entry)
  if (unicode !== undefined) return unicode
  if (!oemNamed(entry)) return raw
  const bytes: number[] = []
  for (const byte of raw) {
    if (byte === 0x5c) bytes.push(0x2f)
    else if (byte < 0x80) bytes.push(byte)
    else if (byte !== DROPPED_OEM_BYTE) bytes.push(OEM_TO_LATIN1[byte - 0x80] as number)
  }
  return Buffer.from(bytes)
}

/** The Info-ZIP Unicode Path extra field (0x7075), version 1, when its CRC-32 is the raw name's. */
function unicodePath(entry: yauzl.Entry): Buffer | undefined {
  const field = entry.extraFields.find((extra) => extra.id === 0x7075)
  if (field === undefined || field.data.length < 5 || field.data[0] !== 1) return undefined
  return field.data.readUInt32LE(1) === zlib.crc32(entry.fileNameRaw) ? field.data.subarray(5) : undefined
}
