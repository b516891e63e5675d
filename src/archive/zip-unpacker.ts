/**
 * Unpacks a finished zip into the staging folder as Info-ZIP's unzip would: entries in archive
 * order, the later of two at one path winning, symlinks made last. Every entry is judged by the
 * ledger from the central directory before anything is written, and each entry's bytes are
 * checked against what the directory declares as they are inflated: a zip cannot unpack to more
 * than it says.
 */
import { closeSync, futimesSync, lstatSync, mkdirSync, openSync, rmSync, symlinkSync, writeSync } from 'node:fs'
import { createWriteStream } from 'node:fs'
import { Transform } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import { setImmediate as setImmediatePromise } from 'node:timers/promises'
import zlib from 'node:zlib'
import type yauzl from 'yauzl'
import { errorMessage } from '../common/errors.js'
import { decodeSitePath } from '../common/site-paths.js'
import { MAX_LINK_TARGET_BYTES, fileMode } from '../site/entry-safety.js'
import { corrupt, unsupportedEntry } from './errors.js'
import { UnsafeEntryError } from '../site/errors.js'
import { writeFailure } from '../common/write-failure.js'
import type { SiteLedger } from '../site/ledger.js'
import { type OpenZip, entryNameBytes, openZip } from './zip-reader.js'

/** Entries up to this size are inflated in one call; larger ones are streamed to their file. */
const IN_ONE_PIECE_BYTES = 4 * 1024 * 1024
const YIELD_EVERY_ENTRIES = 256
const LOCAL_HEADER_BYTES = 30
const LOCAL_SIGNATURE = 0x04034b50
const UNIX_HOST = 3
const S_IFMT = 0o170000
const S_IFLNK = 0o120000
const SLASH = 0x2f
const DOT = 0x2e
const SEPARATOR = Buffer.from('/')

export interface ZipUnpackOptions {
  file: string
  staging: string
  ledger: SiteLedger
  signal?: AbortSignal | undefined
}

interface Planned {
  entry: yauzl.Entry
  name: string
  /** Below the staging folder, as unzip would name it. */
  path: Buffer
  kind: 'file' | 'directory' | 'symlink'
  target?: Buffer
  /** Where its data starts, after its local header (read before anything is written). */
  dataStart: number
  /** An earlier entry wrote a file at its path (which goes first), or a later one takes its path. */
  replacesEarlier: boolean
  replacedLater: boolean
}

export async function unpackZip(options: ZipUnpackOptions): Promise<void> {
  const zip = await openZip(options.file)
  try {
    const planned = await plan(zip, options)
    const prefix = Buffer.from(`${options.staging}/`)
    const folders = new FolderMaker()
    const compressed = new ReusedBuffer()
    for (const [i, item] of planned.entries()) {
      // Small entries are written without a turn of the event loop in between: one now and then
      // lets a cancellation (and the log) through.
      if (i % YIELD_EVERY_ENTRIES === 0) {
        await setImmediatePromise()
        options.signal?.throwIfAborted()
      }
      const path = Buffer.concat([prefix, item.path])
      try {
        if (item.kind === 'directory') folders.make(path)
        else if (item.kind === 'file') {
          folders.make(parentOf(path))
          // The later of two entries at a path wins, with its own mode.
          if (item.replacesEarlier) rmSync(path, { force: true })
          await writeEntry(zip, item, path, compressed, options.signal)
        }
      } catch (error) {
        throw writeFailure(error, `the archive entry ${JSON.stringify(item.name)} into ${options.staging}`)
      }
    }
    options.ledger.finish()
    for (const item of planned) {
      // A later entry at its path (a file, a folder) took its place.
      if (item.kind !== 'symlink' || item.replacedLater) continue
      const path = Buffer.concat([prefix, item.path])
      folders.make(parentOf(path))
      rmSync(path, { force: true })
      symlinkSync(item.target as Buffer, path)
    }
  } finally {
    zip.close()
  }
}

/** Every entry judged, and every symlink's target read, before anything is written. */
async function plan(zip: OpenZip, options: ZipUnpackOptions): Promise<Planned[]> {
  const planned: Planned[] = []
  const atPath = new Map<string, Planned>()
  let declared = 0
  for (const entry of zip.entries) {
    const bytes = entryNameBytes(entry)
    const name = decodeSitePath(bytes)
    if ((entry.generalPurposeBitFlag & 0x1) !== 0) throw unsupportedEntry(name, 'is encrypted')
    if (entry.compressionMethod !== 0 && entry.compressionMethod !== 8) {
      throw unsupportedEntry(name, `is compressed with method ${entry.compressionMethod} (neither stored nor deflate)`)
    }
    const unixMode = entry.versionMadeBy >> 8 === UNIX_HOST ? entry.externalFileAttributes >>> 16 : 0
    const kind = name.endsWith('/') ? 'directory' : (unixMode & S_IFMT) === S_IFLNK ? 'symlink' : 'file'
    if (kind === 'file') declared += entry.uncompressedSize
    const item: Planned = {
      entry,
      name,
      path: relativePath(bytes),
      kind,
      dataStart: 0,
      replacesEarlier: false,
      replacedLater: false
    }
    const key = item.path.toString('latin1')
    const earlier = atPath.get(key)
    if (earlier !== undefined) {
      earlier.replacedLater = true
      item.replacesEarlier = earlier.kind === 'file'
    }
    atPath.set(key, item)
    planned.push(item)
  }
  options.ledger.declared(declared)
  refuseSharedData(zip, planned)
  for (const item of planned) {
    if (item.kind === 'symlink') item.target = await readLinkTarget(zip, item)
    options.ledger.entry(item.kind, item.name, {
      size: item.entry.uncompressedSize,
      target: item.target === undefined ? undefined : decodeSitePath(item.target)
    })
  }
  return planned
}

/**
 * Two records whose data overlap unpack the same bytes many times over (the overlapping zip
 * bomb, which unzip refuses too): refused before any is read. An entry's data ends where its
 * local header says, name and extra field included (a large extra field could hide an entry).
 */
function refuseSharedData(zip: OpenZip, planned: Planned[]): void {
  const header = Buffer.alloc(LOCAL_HEADER_BYTES)
  const byOffset = planned
    .map((item) => {
      const at = item.entry.relativeOffsetOfLocalHeader
      try {
        zip.reader.copy(header, 0, LOCAL_HEADER_BYTES, at)
      } catch (error) {
        throw unreadable(item.name, error)
      }
      if (header.readUInt32LE(0) !== LOCAL_SIGNATURE) {
        throw unreadable(item.name, new Error(`no local file header at byte ${at}`))
      }
      item.dataStart = at + LOCAL_HEADER_BYTES + header.readUInt16LE(26) + header.readUInt16LE(28)
      return item
    })
    .sort((a, b) => a.entry.relativeOffsetOfLocalHeader - b.entry.relativeOffsetOfLocalHeader)
  for (let k = 1; k < byOffset.length; k++) {
    const before = byOffset[k - 1]!
    const after = byOffset[k]!
    if (before.dataStart + before.entry.compressedSize > after.entry.relativeOffsetOfLocalHeader) {
      throw corrupt(
        new Error(
          `the entries ${JSON.stringify(before.name)} and ${JSON.stringify(after.name)} ` +
            'overlap: their data would be unpacked more than once (unzip calls this a possible zip bomb)'
        )
      )
    }
  }
}

async function readLinkTarget(zip: OpenZip, item: Planned): Promise<Buffer> {
  const { entry, name } = item
  // A path is at most 4,096 bytes, and deflate never grows one by more than a few dozen.
  if (entry.uncompressedSize > MAX_LINK_TARGET_BYTES || entry.compressedSize > MAX_LINK_TARGET_BYTES + 64) {
    throw new UnsafeEntryError(
      name,
      `is a symlink whose target is longer than ${MAX_LINK_TARGET_BYTES} bytes ` +
        `(it declares ${entry.uncompressedSize}, ${entry.compressedSize} compressed)`
    )
  }
  return readWhole(zip, item)
}

/**
 * An entry's bytes, inflated in one call and checked against its declared size and CRC-32. Its
 * compressed bytes are read into `compressed` when given (a stored entry's result is then valid
 * only until the next read), or into a buffer of their own.
 */
function readWhole(zip: OpenZip, { entry, name, dataStart }: Planned, compressed?: ReusedBuffer): Buffer {
  const stored = compressed?.take(entry.compressedSize) ?? Buffer.allocUnsafe(entry.compressedSize)
  let data = stored
  try {
    zip.reader.copy(stored, 0, entry.compressedSize, dataStart)
    // Inflating stops past the declared size: a zip cannot unpack to more than it says. One output
    // piece of the declared size, not zlib's 16 KiB pieces joined: less garbage between collections.
    if (entry.compressionMethod === 8) {
      const declared = Math.max(1, entry.uncompressedSize)
      data = zlib.inflateRawSync(stored, { maxOutputLength: declared, chunkSize: Math.max(64, declared) })
    }
  } catch (error) {
    throw unreadable(name, error)
  }
  checkContent(entry, name, data.length, zlib.crc32(data))
  return data
}

function checkContent(entry: yauzl.Entry, name: string, length: number, crc: number): void {
  const what = `the entry ${JSON.stringify(name)}`
  if (length !== entry.uncompressedSize) {
    throw corrupt(new Error(`${what} holds ${length} bytes where its record declares ${entry.uncompressedSize}`))
  }
  if (crc !== entry.crc32) throw corrupt(new Error(`${what} holds data that does not match its CRC-32`))
}

async function writeEntry(
  zip: OpenZip,
  item: Planned,
  path: Buffer,
  compressed: ReusedBuffer,
  signal?: AbortSignal
): Promise<void> {
  const { entry, name } = item
  const mode = fileMode(entry.versionMadeBy >> 8 === UNIX_HOST ? entry.externalFileAttributes >>> 16 : undefined)
  const modified = entry.getLastModDate()
  if (entry.uncompressedSize <= IN_ONE_PIECE_BYTES && entry.compressedSize <= IN_ONE_PIECE_BYTES) {
    const data = readWhole(zip, item, compressed)
    const fd = openSync(path, 'w', mode)
    try {
      writeSync(fd, data)
      futimesSync(fd, modified, modified)
    } finally {
      closeSync(fd)
    }
    return
  }
  // yauzl's stream fails past the declared size; the CRC-32 is checked as the bytes pass.
  const stream = await zip.zip.openReadStreamPromise(entry).catch((error) => {
    throw unreadable(name, error)
  })
  let crc = 0
  let length = 0
  const check = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      crc = zlib.crc32(chunk, crc)
      length += chunk.length
      done(null, chunk)
    }
  })
  const file = createWriteStream(path, { mode })
  try {
    await pipeline(stream, check, file, { signal })
  } catch (error) {
    if ((error as Error).name === 'AbortError' || (error as NodeJS.ErrnoException).syscall !== undefined) throw error
    throw unreadable(name, error)
  }
  checkContent(entry, name, length, crc)
}

/** An entry's name as a path below the staging folder: no empty or `.` segments (the ledger refused `..`). */
function relativePath(name: Buffer): Buffer {
  const plain = name[0] !== SLASH && name.indexOf('//') < 0 && name.indexOf('./') < 0
  if (plain) return name[name.length - 1] === SLASH ? name.subarray(0, -1) : name
  const segments: Buffer[] = []
  let start = 0
  for (let i = 0; i <= name.length; i++) {
    if (i < name.length && name[i] !== SLASH) continue
    const segment = name.subarray(start, i)
    if (segment.length > 0 && !(segment.length === 1 && segment[0] === DOT)) segments.push(segment)
    start = i + 1
  }
  return Buffer.concat(segments.flatMap((segment, i) => (i === 0 ? [segment] : [SEPARATOR, segment])))
}

function parentOf(path: Buffer): Buffer {
  return path.subarray(0, path.lastIndexOf(SLASH))
}

/** One buffer for the compressed bytes of entry after entry, grown as needed: not a buffer of garbage each. */
class ReusedBuffer {
  private bytes = Buffer.allocUnsafe(64 * 1024)

  /** `size` bytes of it, valid until the next take(). */
  take(size: number): Buffer {
    if (this.bytes.length < size) this.bytes = Buffer.allocUnsafe(Math.max(size, 2 * this.bytes.length))
    return this.bytes.subarray(0, size)
  }
}

/** Makes folders and their parents, each once; a file an earlier entry left where one goes (since replaced) goes. */
class FolderMaker {
  private readonly made = new Set<string>()
  /** Entries come folder by folder: most ask for the folder the one before asked for. */
  private last: Buffer | undefined

  make(path: Buffer): void {
    if (this.last?.equals(path)) return
    const key = path.toString('latin1')
    if (!this.made.has(key)) {
      try {
        mkdirSync(path, { recursive: true })
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST' || lstatSync(path).isDirectory()) throw error
        rmSync(path)
        mkdirSync(path)
      }
      this.made.add(key)
    }
    this.last = path
  }
}

/** What yauzl or zlib said of an entry's bytes, naming the entry. */
function unreadable(name: string, error: unknown): Error {
  return corrupt(new Error(`the entry ${JSON.stringify(name)}: ${errorMessage(error)}`))
}
