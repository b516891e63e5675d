/**
 * Unpacks a tar or tar.gz archive while it downloads: bytes are fed in as they arrive, gunzip
 * runs on the libuv pool, the tar reader below parses them where they are (no stream per entry),
 * SiteWriter writes. Backpressure runs all the way back to the socket, so memory stays flat
 * whatever the archive's size.
 */
import zlib from 'node:zlib'
import { formatBytes } from '../common/units.js'
import { ByteQueue } from './byte-queue.js'
import { CorruptArchiveError, NotAnArchiveError, corrupt, unsupportedEntry } from './errors.js'
import { FORMAT_SNIFF_BYTES, HeadSniffer, describeBytes, isTarHeader } from './format.js'
import { SMALL_FILE_BYTES, type SiteWriter } from './site-writer.js'
import { BLOCK, type Header, decodeHeader, decodePax, decodeStr } from './tar-headers.js'

/**
 * Gunzip works in steps on the libuv pool, one step per input chunk, and the next step starts
 * only when the main thread has taken the last one's output. Network chunks (~64 KiB) make
 * thousands of tiny steps; batching them into ~512 KiB steps lets gunzip run while the main thread
 * parses and writes, and cuts the per-step overhead. Why not larger: every step's input and output
 * is a fresh buffer of this size, and larger ones left more of malloc's heap behind. Against 1 MiB
 * (Node 20, 6-12 alternating rounds each), peak RSS went 118 -> 104-107 MiB for the 3,000-page
 * tar.gz, 134-135 -> 124-125 for the 30,000-file one (136 -> 128 on Node 24, 3,000 pages), with
 * wall time within the noise (0.98x-1.03x, one A/B at 1.09x); 256 KiB saved more memory but was
 * 9-10% slower on the 30,000-file and 1 GiB bundles.
 */
const GUNZIP_BATCH_BYTES = 512 * 1024
const GUNZIP_CHUNK_BYTES = 512 * 1024

export class TarUnpacker {
  private readonly reader: TarReader
  private readonly gunzip: zlib.Gunzip | undefined
  private failure: unknown
  private readonly wakeOnFailure: Array<() => void> = []
  /** Settles when every entry has been read (their writes may still be in flight in the writer). */
  private readonly entriesRead: Promise<void>
  private inputEnded!: () => void
  /** Decompressed bytes held back until we know they are a tar (gzip only). */
  private readonly innerHead = new HeadSniffer<boolean>((head, complete) =>
    complete || head.length >= FORMAT_SNIFF_BYTES ? isTarHeader(head) : undefined
  )
  /** Compressed bytes gathered into one gunzip step. */
  private batch: Buffer[] = []
  private batchBytes = 0
  /** Tar bytes handed to the reader (after gunzip). */
  private tarBytes = 0

  constructor(
    private readonly writer: SiteWriter,
    private readonly options: {
      gzip: boolean
      /** Told of the first failure at once (the caller may be waiting on the network, not on us). */
      onError?: (error: unknown) => void
      /** Stops the unpacking at once, with the signal's reason as the failure. */
      signal: AbortSignal
    }
  ) {
    this.reader = new TarReader(writer)
    const ended = new Promise<void>((resolve) => (this.inputEnded = resolve))
    this.entriesRead = ended.then(() => {
      if (this.failure !== undefined) throw this.failure
      return this.reader.end()
    })
    this.entriesRead.catch(() => undefined) // observed through end()
    if (options.gzip) {
      const gunzip = zlib.createGunzip({ chunkSize: GUNZIP_CHUNK_BYTES })
      this.gunzip = gunzip
      gunzip.on('data', (chunk: Buffer) => this.fromGunzip(chunk))
      gunzip.on('end', () => this.endOfTar())
      gunzip.on('error', (error) => this.fail(corrupt(error)))
    }
    const { signal } = options
    if (signal.aborted) this.fail(signal.reason)
    else signal.addEventListener('abort', () => this.fail(signal.reason), { once: true })
  }

  /** Feeds downloaded bytes; a returned promise asks the caller to wait before the next ones. */
  write(chunk: Buffer): Promise<void> | undefined {
    if (this.failure !== undefined) return undefined
    if (this.gunzip === undefined) return this.feed(chunk)
    this.batch.push(chunk)
    this.batchBytes += chunk.length
    return this.batchBytes >= GUNZIP_BATCH_BYTES ? this.flushBatch() : undefined
  }

  /** The download is complete: resolves once every entry has been read and handed to the writer. */
  end(): Promise<void> {
    if (this.failure === undefined) {
      if (this.gunzip) {
        void this.flushBatch()
        this.gunzip.end()
      } else this.inputEnded()
    } else this.inputEnded()
    return this.entriesRead
  }

  /** The first failure: CorruptArchiveError for bad data, anything else from the writer. */
  get error(): unknown {
    return this.failure
  }

  private flushBatch(): Promise<void> | undefined {
    if (this.batchBytes === 0 || this.gunzip === undefined) return undefined
    const batch = this.batch.length === 1 ? this.batch[0]! : Buffer.concat(this.batch, this.batchBytes)
    this.batch = []
    this.batchBytes = 0
    if (this.gunzip.write(batch)) return undefined
    return new Promise((resolve) => {
      this.gunzip!.once('drain', resolve)
      this.wakeOnFailure.push(resolve)
    })
  }

  private fail(error: unknown): void {
    if (this.failure !== undefined) return
    this.failure = error
    this.gunzip?.destroy()
    this.reader.stop()
    for (const wake of this.wakeOnFailure.splice(0)) wake()
    this.inputEnded()
    // A stop from outside is no failure of ours to report.
    if (!this.options.signal.aborted) this.options.onError?.(error)
  }

  /** Gunzip's output: the reader takes it; while it waits (the writer is behind), gunzip waits too. */
  private fromGunzip(chunk: Buffer): void {
    if (this.failure !== undefined) return
    if (this.innerHead.pending) {
      const judged = this.innerHead.push(chunk)
      if (judged === undefined || !this.holdsTar(judged)) return
      chunk = judged.head
    }
    const wait = this.feed(chunk)
    if (wait === undefined) return
    this.gunzip!.pause()
    void wait.then(() => this.gunzip?.resume())
  }

  private endOfTar(): void {
    if (this.innerHead.pending) {
      const judged = this.innerHead.end()
      if (judged.head.length > 0) {
        if (!this.holdsTar(judged)) return
        const wait = this.feed(judged.head)
        if (wait !== undefined) return void wait.then(() => this.inputEnded())
      }
    }
    this.inputEnded()
  }

  /** Tar bytes to the reader, counted against the bound first; failures end the unpacking. */
  private feed(chunk: Buffer): Promise<void> | undefined {
    if (this.failure !== undefined || !this.withinBound(chunk)) return undefined
    let wait: Promise<void> | undefined
    try {
      wait = this.reader.write(chunk)
    } catch (error) {
      this.fail(error)
      return undefined
    }
    return wait?.catch((error: unknown) => this.fail(error))
  }

  /**
   * Counts the tar bytes before the reader gets them: an archive of little but padding, zero
   * blocks or skipped data would keep gunzip and the reader busy without writing a byte.
   */
  private withinBound(chunk: Buffer): boolean {
    this.tarBytes += chunk.length
    try {
      this.writer.checkArchiveBytes(this.tarBytes)
      return true
    } catch (error) {
      this.fail(error)
      return false
    }
  }

  /** A gzip that holds something else than a tar gets a clear message, not "invalid header". */
  private holdsTar({ verdict, head }: { verdict: boolean; head: Buffer }): boolean {
    if (!verdict)
      this.fail(
        new NotAnArchiveError(
          `The bundle is a gzip file, but what it holds is not a tar archive: it looks like ${describeBytes(head)}`
        )
      )
    return verdict
  }
}

// --- the tar reader ---------------------------------------------------------------------------------

/** A pax or GNU long-name record larger than this is no real one. */
const MAX_LONG_HEADER_BYTES = 4 * 1024 * 1024

/** An entry's content on its way: kept in memory (small files), handed over in pieces (large ones), or dropped. */
interface Current {
  header: Header
  /** Content bytes still to come. */
  left: number
  /** Padding after the content. */
  padding: number
  how: 'memory' | 'large' | 'drop' | 'long'
  chunks: Buffer[]
  large: ReturnType<SiteWriter['largeFile']> | undefined
}

/**
 * Reads tar entries from the bytes as they come and hands each to the writer, without a stream
 * per entry: small files as the pieces of the chunks they arrived in, large ones piece by piece.
 * Headers are read as tar-stream reads them (tar-headers.ts: ustar and GNU formats, base-256
 * sizes, pax and GNU long names and links, checksums), so what an archive means did not change
 * with the reader.
 */
class TarReader {
  private readonly held = new ByteQueue()
  private current: Current | undefined
  /** Padding of a skipped or finished entry still to pass over. */
  private skip = 0
  /** The entry whose content is being read, to say where the data ended if it ends early. */
  private reading: Header | undefined
  private pax: Record<string, string> | undefined
  private paxGlobal: Record<string, string> | undefined
  private gnuLongPath: string | undefined
  private gnuLongLinkPath: string | undefined
  private waiting: Promise<void> | undefined
  private stopped = false
  /**
   * A block of zeros was read where a header goes: the archive's end. What follows is not read, as
   * GNU tar and Python's tarfile do not read it (without tar's -i): entries hidden there (after a
   * second gzip member, say) would be published without showing in `tar -tf`.
   */
  private ended = false

  constructor(private readonly writer: SiteWriter) {}

  /** Takes tar bytes; a returned promise asks the caller to wait (and rejects when the unpacking fails). */
  write(chunk: Buffer): Promise<void> | undefined {
    if (this.stopped || this.ended) return undefined
    this.held.push(chunk)
    return this.waiting ?? this.run()
  }

  /** No more bytes: resolves once every entry has been handed over; throws when the data ended early. */
  async end(): Promise<void> {
    await this.waiting
    if (this.current !== undefined || this.skip > 0 || this.held.length > 0) {
      const entry = this.current === undefined || this.current.how === 'long' ? undefined : this.reading
      const where =
        entry === undefined
          ? 'between two entries'
          : `inside the entry ${JSON.stringify(entry.name)} (${formatBytes(entry.size)} declared)`
      throw new CorruptArchiveError(`the tar data ends early, ${where}`)
    }
  }

  stop(): void {
    this.stopped = true
    this.held.clear()
  }

  private run(): Promise<void> | undefined {
    const wait = this.step()
    if (wait === undefined) return undefined
    const waiting: Promise<void> = wait.then(
      () => {
        this.waiting = undefined
        return this.stopped ? undefined : this.run()
      },
      (error: unknown) => {
        this.waiting = undefined
        this.stop()
        throw error
      }
    )
    this.waiting = waiting
    return waiting
  }

  /** Steps until more bytes are needed (undefined) or the writer asks to wait (a promise). */
  private step(): Promise<void> | undefined {
    while (!this.stopped) {
      if (this.skip > 0) {
        if (this.held.length === 0) return undefined
        this.skip -= this.held.takeUpTo(this.skip).length
        continue
      }
      const current = this.current
      if (current !== undefined) {
        if (current.how === 'long') {
          if (this.held.length < current.left) return undefined
          this.longHeader(current.header, this.held.take(current.left))
          this.current = undefined
          this.skip = current.padding
          continue
        }
        if (current.left > 0 && this.held.length === 0) return undefined
        const piece = this.held.takeUpTo(current.left)
        current.left -= piece.length
        let wait: Promise<void> | undefined
        if (current.how === 'memory') current.chunks.push(piece)
        else if (current.how === 'large' && piece.length > 0) wait = current.large!.write(piece)
        if (current.left === 0) {
          this.current = undefined
          this.skip = current.padding
          wait = wait === undefined ? this.finish(current) : wait.then(() => this.finish(current))
        }
        if (wait !== undefined) return wait
        continue
      }
      if (this.held.length < BLOCK) return undefined
      const header = decodeHeader(this.held.take(BLOCK))
      if (header === undefined) {
        this.ended = true
        this.held.clear()
        return undefined
      }
      const wait = this.begin(header)
      if (wait !== undefined) return wait
    }
    return undefined
  }

  private begin(header: Header): Promise<void> | undefined {
    const padding = overflow(header.size)
    switch (header.type) {
      case 'gnu-long-path':
      case 'gnu-long-link-path':
      case 'pax-global-header':
      case 'pax-header':
        if (!(header.size >= 0)) throw new CorruptArchiveError('Invalid header')
        if (header.size > MAX_LONG_HEADER_BYTES) throw new CorruptArchiveError('Header exceeds max size')
        this.current = { header, left: header.size, padding, how: 'long', chunks: [], large: undefined }
        return undefined
    }
    this.applyLongHeaders(header)
    if (!(header.size >= 0)) throw new CorruptArchiveError('Invalid header')
    if (header.type === 'gnu-sparse') {
      // Its content is a map of the data's pieces, not the file: writing it would publish a wrong file.
      throw unsupportedEntry(header.name, 'is a sparse file (tar --sparse)')
    }
    const { writer } = this
    const { name } = header
    switch (header.type) {
      case 'file':
      case 'contiguous-file': {
        this.reading = header
        const large = header.size > SMALL_FILE_BYTES ? writer.largeFile(name, header.mode, header.size) : undefined
        this.current = {
          header,
          left: header.size,
          padding,
          how: large === undefined ? 'memory' : 'large',
          chunks: [],
          large
        }
        return undefined
      }
      case 'directory':
        // tar-stream reads no content for a folder, whatever its header says.
        return writer.directory(name)
      default:
        this.reading = header
        this.current = { header, left: header.size, padding, how: 'drop', chunks: [], large: undefined }
        return undefined
    }
  }

  /** An entry's content is all in: the writer gets it (links and the rest once read past, as tar-stream's entries were). */
  private finish(current: Current): Promise<void> | undefined {
    const { header } = current
    const { writer } = this
    this.reading = undefined
    switch (header.type) {
      case 'file':
      case 'contiguous-file':
        if (current.how === 'large') return void current.large!.end()
        return writer.fileInMemory(header.name, header.mode, header.size, current.chunks, { deflated: false })
      case 'symlink':
        return writer.symlink(header.name, header.linkname ?? '')
      case 'link':
        return writer.hardlink(header.name, header.linkname ?? '')
      default:
        // Devices and fifos; pax and GNU long-name records are read above.
        writer.skip(header.name, String(header.type).replace(/-/g, ' '))
        return undefined
    }
  }

  private longHeader(header: Header, content: Buffer): void {
    switch (header.type) {
      case 'gnu-long-path':
        this.gnuLongPath = decodeStr(content, 0, content.length)
        break
      case 'gnu-long-link-path':
        this.gnuLongLinkPath = decodeStr(content, 0, content.length)
        break
      case 'pax-global-header':
        this.paxGlobal = decodePax(content)
        break
      case 'pax-header':
        this.pax = this.paxGlobal === undefined ? decodePax(content) : { ...this.paxGlobal, ...decodePax(content) }
        break
    }
  }

  private applyLongHeaders(header: Header): void {
    if (this.gnuLongPath !== undefined) header.name = this.gnuLongPath
    if (this.gnuLongLinkPath !== undefined) header.linkname = this.gnuLongLinkPath
    this.gnuLongPath = this.gnuLongLinkPath = undefined
    const pax = this.pax
    if (pax === undefined) return
    if (pax.path) header.name = pax.path
    if (pax.linkpath) header.linkname = pax.linkpath
    if (pax.size) header.size = parseInt(pax.size, 10)
    // GNU tar's pax sparse formats: the name in the header is a made-up one, the real one is here.
    if (Object.keys(pax).some((key) => key.startsWith('GNU.sparse.'))) {
      header.type = 'gnu-sparse'
      if (pax['GNU.sparse.name']) header.name = pax['GNU.sparse.name']
    }
    this.pax = undefined
  }
}

/** The padding after `size` bytes of content. */
function overflow(size: number): number {
  const over = size & 511
  return over && BLOCK - over
}
