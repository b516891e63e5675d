/**
 * Unpacks a zip bundle: while it downloads when the archive allows, from the finished file when
 * it does not.
 *
 * While it downloads: a zip's entries come one after another, each behind its local header, and
 * the central directory (the archive's own list of its entries, with their kinds and modes) comes
 * last. Entries are unpacked from their local headers as their bytes arrive: plain files (the
 * writer threads inflate them) and folders, with the default mode. Local headers can disagree with
 * the central directory (a known way to show one tool one archive and another tool another), so
 * once the download is complete the central directory is read from the file and every entry is
 * checked against what was unpacked: the same entries at the same offsets with the same raw name,
 * method, CRC and sizes, or the archive is refused; modes the directory gives are then set.
 *
 * From the file (the central directory first): when an entry cannot be unpacked from its local
 * header alone (sizes only in a data descriptor after the data, an encrypted or unknown method, a
 * symlink or special file that only the directory names as such, entries out of order, anything
 * that failed), the streamed folder is cleared and the archive is unpacked from the finished file
 * in the directory's order: the entry count and declared sizes checked against the bounds before
 * anything is written, each local header checked against the directory as it is read.
 *
 * Either way every entry goes through the SiteWriter (EntryIndex, bounds) as tar's do, declared
 * sizes are counted before the content is read and inflated bytes as they are written (an entry
 * must inflate to exactly what it declares), and a symlink's target is read only up to what a
 * path can hold. The format's records are decoded in zip-records.ts; the finished file is read in
 * zip-file.ts.
 */
import { once } from 'node:events'
import zlib from 'node:zlib'
import { foldPath } from '../common/file-names.js'
import { ByteQueue } from './byte-queue.js'
import { MAX_LINK_TARGET_BYTES, entryPath, fileMode } from './entry-safety.js'
import { CorruptArchiveError, UnsafeEntryError, corrupt, unsupportedEntry } from './errors.js'
import { SMALL_FILE_BYTES, type SiteWriter } from './site-writer.js'
import { type Directory, READ_BYTES, ZipFile } from './zip-file.js'
import {
  CENTRAL_HEADER,
  type CentralEntry,
  DEFLATED,
  END_OF_DIRECTORY,
  FLAG_ENCRYPTED,
  FLAG_STRONG_ENCRYPTION,
  LOCAL_HEADER,
  LOCAL_HEADER_BYTES,
  type LocalEntry,
  STORED,
  ZIP64_END_OF_DIRECTORY,
  disagreement,
  kindOf,
  parseLocalHeader,
  streamable
} from './zip-records.js'

/** The mode files are created with when their entry gives none. */
const DEFAULT_FILE_MODE = fileMode(undefined)
/** What deflate may add to a symlink's target at most (block headers; it stores what it cannot shrink). */
const LINK_DEFLATE_SLACK = 64

export interface ZipUnpackerOptions {
  /** The `.part` file the download writes; complete once end() is called. */
  file: string
  /** Clears what the streaming wrote and gives a fresh writer for the same folder. */
  restart: () => Promise<SiteWriter>
  signal: AbortSignal
}

/**
 * Takes the downloaded bytes as they come (write), and once the download is complete (end)
 * checks what was unpacked against the central directory, or unpacks the archive from the file.
 */
export class ZipUnpacker {
  private readonly stream: LocalStream
  private writer: SiteWriter

  constructor(
    writer: SiteWriter,
    private readonly options: ZipUnpackerOptions
  ) {
    this.writer = writer
    this.stream = new LocalStream(writer)
  }

  /** Downloaded bytes; a returned promise asks the caller to wait before the next ones. */
  write(chunk: Buffer): Promise<void> | undefined {
    return this.stream.write(chunk)
  }

  /** The download is complete and its file closed: the site is unpacked and checked, or this throws. */
  async end(): Promise<SiteWriter> {
    const { signal } = this.options
    await this.stream.settle()
    signal.throwIfAborted()
    const file = await ZipFile.open(this.options.file)
    try {
      const directory = await file.directory()
      if (this.stream.entries !== undefined) {
        const verdict = await this.matchStreamed(file, directory)
        if (verdict === 'match') return this.writer
      }
      signal.throwIfAborted()
      this.writer = await this.options.restart()
      await unpackFromDirectory(file, directory, this.writer, signal)
      return this.writer
    } finally {
      await file.close()
    }
  }

  /**
   * Whether what was unpacked from the local headers is what the central directory lists: 'match'
   * (modes set), 'again' (unpack from the file instead), or a refusal when they disagree.
   */
  private async matchStreamed(file: ZipFile, directory: Directory): Promise<'match' | 'again'> {
    const streamed = this.stream.entries as LocalEntry[]
    if (directory.count !== streamed.length || directory.offset !== this.stream.endOfEntries) return 'again'
    // Files were created with the default mode: only the others are kept, and the last entry at
    // a path gives its mode (a later default one drops an earlier other one).
    const modes = new Map<string, { name: string; mode: number | undefined }>()
    let index = 0
    for await (const batch of file.centralEntries(directory)) {
      for (const entry of batch) {
        const local = streamed[index++] as LocalEntry
        if (entry.offset !== local.offset) return 'again'
        disagreement(entry, local)
        if (entry.name !== local.name) return 'again'
        const kind = kindOf(entry)
        const localKind = local.name.endsWith('/') ? 'directory' : 'file'
        if (kind.kind !== localKind) return 'again'
        if (kind.kind !== 'file') continue
        // (By folded path: a twin in another case is the same file, see EntryIndex.)
        if (fileMode(kind.mode) !== DEFAULT_FILE_MODE)
          modes.set(foldPath(entryPath(entry.name)), { name: entry.name, mode: kind.mode })
        else if (modes.size > 0) modes.delete(foldPath(entryPath(entry.name)))
      }
    }
    for (const { name, mode } of modes.values()) this.writer.setMode(name, mode)
    await this.writer.finish()
    return 'match'
  }
}

// --- unpacking while downloading -------------------------------------------------------------------

/**
 * The entries of a zip as its bytes arrive, from their local headers. Stops (and says so through
 * `entries` being undefined) at anything it cannot unpack from a local header alone, or at any
 * failure: the central directory then decides, from the file.
 */
class LocalStream {
  /** The entries unpacked so far, in file order; undefined once the streaming was given up. */
  entries: LocalEntry[] | undefined = []
  /** Where the central directory should start: the end of the last entry. */
  endOfEntries = -1
  private readonly held = new ByteQueue()
  private done = false
  /** The entry whose data is being read. */
  private current: Current | undefined
  /** Set while the work waits (the writer threads are behind, a large entry's writes): the caller waits too. */
  private waiting: Promise<void> | undefined

  constructor(private readonly writer: SiteWriter) {}

  /** Takes downloaded bytes; a returned promise asks the caller to wait before the next ones. */
  write(chunk: Buffer): Promise<void> | undefined {
    if (this.done) return undefined
    this.held.push(chunk)
    return this.waiting ?? this.run()
  }

  /** Resolves once the bytes written so far are handled; whatever entry is left unfinished ends the streaming. */
  async settle(): Promise<void> {
    await this.waiting
    if (!this.done) this.giveUp()
  }

  /** Works through the bytes held until more are needed, or until it must wait (then goes on after). */
  private run(): Promise<void> | undefined {
    let wait: Promise<void> | undefined
    try {
      wait = this.step()
    } catch {
      this.giveUp()
      return undefined
    }
    if (wait === undefined) return undefined
    const waiting: Promise<void> = wait.then(
      () => {
        this.waiting = undefined
        return this.done ? undefined : this.run()
      },
      () => {
        this.waiting = undefined
        this.giveUp()
      }
    )
    this.waiting = waiting
    return waiting
  }

  private giveUp(): void {
    this.done = true
    this.entries = undefined
    this.held.clear()
    this.current?.large?.abandon()
    this.current = undefined
  }

  /** One step after another until more bytes are needed (undefined) or the work must wait (a promise). */
  private step(): Promise<void> | undefined {
    while (!this.done) {
      const current = this.current
      if (current !== undefined) {
        if (this.held.length === 0 && current.left > 0) return undefined
        const piece = this.held.takeUpTo(current.left)
        current.left -= piece.length
        let wait: Promise<void> | undefined
        if (current.large !== undefined) wait = piece.length > 0 ? current.large.write(piece) : undefined
        else if (!current.directory && piece.length > 0) current.chunks.push(piece)
        if (current.left === 0) wait = chain(wait, () => this.finishEntry(current))
        if (wait !== undefined) return wait
        continue
      }
      if (this.held.length < 4) return undefined
      const signature = this.held.peek(4).readUInt32LE(0)
      if (signature !== LOCAL_HEADER) {
        // The central directory (or the end record of an archive without entries) follows the
        // entries; anything else is for the directory to explain.
        if (signature !== CENTRAL_HEADER && signature !== END_OF_DIRECTORY && signature !== ZIP64_END_OF_DIRECTORY)
          throw new Error('unexpected bytes between entries')
        this.endOfEntries = this.held.position
        this.done = true
        this.held.clear()
        return undefined
      }
      if (this.held.length < LOCAL_HEADER_BYTES) return undefined
      const fixed = this.held.peek(LOCAL_HEADER_BYTES)
      const headerBytes = LOCAL_HEADER_BYTES + fixed.readUInt16LE(26) + fixed.readUInt16LE(28)
      if (this.held.length < headerBytes) return undefined
      const offset = this.held.position
      const entry = parseLocalHeader(this.held.take(headerBytes), 0, offset)
      if (!streamable(entry)) throw new Error('an entry that needs the central directory')
      ;(this.entries as LocalEntry[]).push(entry)
      const wait = this.begin(entry)
      if (wait !== undefined) return wait
    }
    return undefined
  }

  private begin(entry: LocalEntry): Promise<void> | undefined {
    const { writer } = this
    let wait: Promise<void> | undefined
    if (entry.name.endsWith('/')) {
      wait = writer.directory(entry.name)
      this.current = { entry, left: entry.compressedSize, chunks: [], large: undefined, directory: true }
    } else if (entry.compressedSize <= SMALL_FILE_BYTES && entry.size <= SMALL_FILE_BYTES) {
      this.current = { entry, left: entry.compressedSize, chunks: [], large: undefined, directory: false }
    } else {
      const large = new LargeContent(writer.largeFile(entry.name, undefined, entry.size), entry)
      this.current = { entry, left: entry.compressedSize, chunks: [], large, directory: false }
    }
    return wait
  }

  private finishEntry(current: Current): Promise<void> | undefined {
    this.current = undefined
    const { entry } = current
    if (current.directory) return undefined
    if (current.large !== undefined) return current.large.end()
    return this.writer.fileInMemory(
      entry.name,
      undefined,
      entry.size,
      current.chunks,
      entry.method === DEFLATED
        ? { deflated: true, size: entry.size, crc: entry.crc }
        : { deflated: false, crc: entry.crc }
    )
  }
}

interface Current {
  entry: LocalEntry
  /** Bytes of its data still to come. */
  left: number
  /** A small file's data (subarrays of the downloaded chunks). */
  chunks: Buffer[]
  large: LargeContent | undefined
  directory: boolean
}

/** `then` after `first` when there is one to wait for; else now. */
function chain(first: Promise<void> | undefined, then: () => Promise<void> | undefined): Promise<void> | undefined {
  return first === undefined ? then() : first.then(then)
}

/** A large entry's content on its way to the writer: as it is (stored), or inflated on the way. */
class LargeContent {
  private readonly inflate: zlib.InflateRaw | undefined
  private inflated = 0
  /** The CRC-32 of the content so far, checked against the entry's at the end. */
  private crc = 0
  private readonly finished: Promise<void> | undefined

  constructor(
    private readonly file: ReturnType<SiteWriter['largeFile']>,
    private readonly entry: { name: string; size: number; method: number; crc: number }
  ) {
    if (entry.method !== DEFLATED) return
    // (node's zlib streams take stream options; @types/node's ZlibOptions does not list them.)
    const inflate = zlib.createInflateRaw({
      chunkSize: 256 * 1024,
      writableHighWaterMark: 1024 * 1024
    } as zlib.ZlibOptions)
    this.inflate = inflate
    this.finished = new Promise<void>((resolve, reject) => {
      inflate.on('data', (chunk: Buffer) => {
        this.inflated += chunk.length
        this.crc = zlib.crc32(chunk, this.crc)
        try {
          if (this.inflated > entry.size)
            throw corrupt(
              new Error(`the entry ${JSON.stringify(entry.name)} holds more than the ${entry.size} bytes it declares`)
            )
          const wait = file.write(chunk)
          if (wait === undefined) return
          inflate.pause()
          wait.then(
            () => inflate.resume(),
            (error: unknown) => inflate.destroy(error as Error)
          )
        } catch (error) {
          inflate.destroy(error as Error)
        }
      })
      inflate.on('end', () => {
        if (this.inflated === entry.size) resolve()
        else
          reject(
            corrupt(
              new Error(
                `the entry ${JSON.stringify(entry.name)} holds ${this.inflated} bytes, fewer than the ${entry.size} it declares`
              )
            )
          )
      })
      inflate.on('error', (error) =>
        reject(error instanceof CorruptArchiveError || !isZlibError(error) ? error : corrupt(error))
      )
    })
    // Observed through end(); a failure before then surfaces at the next write.
    this.finished.catch(() => undefined)
  }

  /** A returned promise asks the caller to wait before the next piece. */
  write(piece: Buffer): Promise<void> | undefined {
    if (this.inflate === undefined) {
      this.crc = zlib.crc32(piece, this.crc)
      return this.file.write(piece)
    }
    if (this.inflate.write(piece)) return undefined
    return Promise.race([once(this.inflate, 'drain').then(noop), this.finished as Promise<void>])
  }

  end(): Promise<void> | undefined {
    if (this.inflate === undefined) {
      checkCrc(this.crc, this.entry)
      return void this.file.end()
    }
    this.inflate.end()
    return (this.finished as Promise<void>).then(() => {
      checkCrc(this.crc, this.entry)
      this.file.end()
    })
  }

  abandon(): void {
    this.inflate?.destroy()
  }
}

function noop(): void {}

function isZlibError(error: unknown): boolean {
  return (
    typeof (error as { errno?: unknown } | undefined)?.errno === 'number' &&
    String((error as { code?: unknown }).code ?? '').startsWith('Z_')
  )
}

// --- unpacking from the finished file -------------------------------------------------------------

/**
 * Unpacks the whole archive from the file in the central directory's order: its entry count and
 * declared sizes are checked against the bounds before anything is written.
 */
async function unpackFromDirectory(
  file: ZipFile,
  directory: Directory,
  writer: SiteWriter,
  signal: AbortSignal
): Promise<void> {
  writer.checkDeclared(directory.count)
  // The directory's own bytes, once, for the declared total: a bomb fails before its first entry.
  // Its entries' data must also fit before it: records that point at the same bytes again and
  // again would have them read and inflated again for each (work without bound for a small file).
  let declared = 0
  let stored = 0
  for await (const batch of file.centralEntries(directory)) {
    for (const entry of batch) {
      if (kindOf(entry).kind === 'file') declared += entry.size
      stored += LOCAL_HEADER_BYTES + entry.rawName.length + entry.compressedSize
      if (stored > directory.offset) {
        throw corrupt(
          new Error(
            `the central directory's entries hold more data than the ${directory.offset} bytes before it (entries that share their data?)`
          )
        )
      }
    }
  }
  writer.checkDeclared(directory.count, declared)
  for await (const batch of file.centralEntries(directory)) {
    for (const entry of batch) {
      signal.throwIfAborted()
      await unpackEntry(file, entry, writer)
    }
  }
  await writer.finish()
}

async function unpackEntry(file: ZipFile, entry: CentralEntry, writer: SiteWriter): Promise<void> {
  const kind = kindOf(entry)
  if (kind.kind === 'directory') return writer.directory(entry.name)
  if (kind.kind === 'special') return writer.skip(entry.name, kind.what)
  if ((entry.flags & FLAG_STRONG_ENCRYPTION) !== 0)
    throw unsupportedEntry(entry.name, 'is encrypted (strong encryption)')
  // Before the sizes: a stored encrypted entry's data holds its 12-byte encryption header too.
  if ((entry.flags & FLAG_ENCRYPTED) !== 0) throw unsupportedEntry(entry.name, 'is encrypted')
  if (entry.method === STORED && entry.compressedSize !== entry.size) {
    throw corrupt(
      new Error(`compressed/uncompressed size mismatch for stored file: ${entry.compressedSize} != ${entry.size}`)
    )
  }
  if (
    kind.kind === 'symlink' &&
    (entry.size > MAX_LINK_TARGET_BYTES || entry.compressedSize > MAX_LINK_TARGET_BYTES + LINK_DEFLATE_SLACK)
  ) {
    // The target is the entry's content: read only what a path can hold, never a bomb's worth.
    throw new UnsafeEntryError(
      entry.name,
      `is a symlink whose target is longer than ${MAX_LINK_TARGET_BYTES} bytes (it declares ${entry.size}, ${entry.compressedSize} compressed)`
    )
  }
  const local = await file.localEntry(entry.offset)
  disagreement(entry, local)
  if ((entry.flags & FLAG_ENCRYPTED) !== 0) throw unsupportedEntry(entry.name, 'is encrypted')
  if (entry.method !== STORED && entry.method !== DEFLATED)
    throw unsupportedEntry(entry.name, `is compressed with method ${entry.method} (neither stored nor deflate)`)
  if (local.dataStart + entry.compressedSize > file.size)
    throw corrupt(
      new Error(`file data overflows file bounds: ${local.dataStart} + ${entry.compressedSize} > ${file.size}`)
    )

  if (kind.kind === 'symlink') {
    const data = await file.readFresh(local.dataStart, entry.compressedSize)
    const target = entry.method === DEFLATED ? inflateSmall(data, entry) : data
    checkCrc(zlib.crc32(target), entry)
    return writer.symlink(entry.name, target.toString('utf8'))
  }
  if (entry.compressedSize <= SMALL_FILE_BYTES && entry.size <= SMALL_FILE_BYTES) {
    const data = await file.read(local.dataStart, entry.compressedSize)
    // The writer copies the bytes before it returns (the window may move after).
    await writer.fileInMemory(
      entry.name,
      kind.mode,
      entry.size,
      [data],
      entry.method === DEFLATED
        ? { deflated: true, size: entry.size, crc: entry.crc }
        : { deflated: false, crc: entry.crc }
    )
    return
  }
  const content = new LargeContent(writer.largeFile(entry.name, kind.mode, entry.size), entry)
  try {
    for (let at = 0; at < entry.compressedSize; at += READ_BYTES) {
      await content.write(await file.readFresh(local.dataStart + at, Math.min(READ_BYTES, entry.compressedSize - at)))
    }
    await content.end()
  } catch (error) {
    content.abandon()
    throw error
  }
}

/** The CRC-32 of a zip entry's content against the one its archive gives: damaged data is refused. */
function checkCrc(crc: number, entry: { name: string; crc: number }): void {
  if (crc !== entry.crc)
    throw corrupt(
      new Error(
        `the entry ${JSON.stringify(entry.name)} holds data that does not match its CRC-32 (the archive is damaged)`
      )
    )
}

/** A small deflated entry (a symlink's target), inflated here to exactly its declared size. */
function inflateSmall(data: Buffer, entry: CentralEntry): Buffer {
  let content: Buffer
  try {
    content = zlib.inflateRawSync(data, { maxOutputLength: entry.size + 1 })
  } catch (error) {
    throw corrupt(error)
  }
  if (content.length !== entry.size)
    throw corrupt(
      new Error(`the entry ${JSON.stringify(entry.name)} does not hold the ${entry.size} bytes it declares`)
    )
  return content
}
