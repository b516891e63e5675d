/**
 * Unpacks a tar or tar.gz archive while it downloads: bytes are fed in as they arrive, gunzip
 * runs on the libuv pool, tar-stream parses, SiteWriter writes. Backpressure runs all the way
 * back to the socket, so memory stays flat whatever the archive's size.
 */
import zlib from 'node:zlib'
import tarStream from 'tar-stream'
import { formatBytes } from '../common/units.js'
import { type EntryStream, skipEntry } from './entry-streams.js'
import { CorruptArchiveError, NotAnArchiveError, corrupt } from './errors.js'
import { FORMAT_SNIFF_BYTES, HeadSniffer, describeBytes, isTarHeader } from './format.js'
import type { SiteWriter } from './site-writer.js'

/**
 * Gunzip works in steps on the libuv pool, one step per input chunk, and the next step starts
 * only when the main thread has taken the last one's output. Network chunks (~64 KiB) make
 * thousands of tiny steps; batching them into ~1 MiB steps lets gunzip run while the main thread
 * parses and writes, and cuts the per-step overhead.
 */
const GUNZIP_BATCH_BYTES = 1024 * 1024
const GUNZIP_CHUNK_BYTES = 1024 * 1024

/** What gunzip (a node stream) and the tar parser (a streamx stream) have in common. */
interface Drainable {
  write(chunk: Buffer): boolean
  once(event: 'drain', listener: () => void): unknown
}

export class TarUnpacker {
  private readonly extract = tarStream.extract()
  private readonly gunzip: zlib.Gunzip | undefined
  /** Where downloaded bytes go in: the gunzip stream, or the parser for a plain tar. */
  private readonly input: Drainable
  private failure: unknown
  private readonly wakeOnFailure: Array<() => void> = []
  /** Settles when every entry has been read (their writes may still be in flight in the writer). */
  private readonly entriesRead: Promise<void>
  /** Decompressed bytes held back until we know they are a tar (gzip only). */
  private readonly innerHead = new HeadSniffer<boolean>((head, complete) => (complete || head.length >= FORMAT_SNIFF_BYTES ? isTarHeader(head) : undefined))
  /** Compressed bytes gathered into one gunzip step. */
  private batch: Buffer[] = []
  private batchBytes = 0
  /** The entry being read, to say where the data ended if it ends early. */
  private reading: tarStream.Header | undefined
  /** Tar bytes handed to the parser (after gunzip). */
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
    const parser = this.extract
    this.entriesRead = new Promise<void>((resolve, reject) => {
      parser.on('finish', () => resolve())
      parser.on('close', () => {
        if (this.failure !== undefined) reject(this.failure)
      })
    })
    this.entriesRead.catch(() => undefined) // observed through end()
    parser.on('error', (error: unknown) => this.fail(this.describeParseError(error)))
    this.extract.on('entry', (header, stream, next) => {
      this.reading = header
      // tar-stream's typings for its streamx streams do not line up with node's; the shape does.
      this.unpackEntry(header, stream as unknown as EntryStream).then(
        () => {
          this.reading = undefined
          next()
        },
        (error: unknown) => this.fail(error)
      )
    })

    if (options.gzip) {
      const gunzip = zlib.createGunzip({ chunkSize: GUNZIP_CHUNK_BYTES })
      this.gunzip = gunzip
      this.input = gunzip
      gunzip.on('data', (chunk: Buffer) => this.feedParser(chunk))
      parser.on('drain', () => gunzip.resume())
      gunzip.on('end', () => this.endParser())
      gunzip.on('error', (error) => this.fail(corrupt(error)))
    } else {
      this.input = parser
    }
    const { signal } = options
    if (signal.aborted) this.fail(signal.reason)
    else signal.addEventListener('abort', () => this.fail(signal.reason), { once: true })
  }

  /** Feeds downloaded bytes; a returned promise asks the caller to wait before the next ones. */
  write(chunk: Buffer): Promise<void> | undefined {
    if (this.failure !== undefined) return undefined
    if (this.gunzip === undefined) return this.withinBound(chunk) ? this.writeInput(chunk) : undefined
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
      } else this.extract.end(undefined)
    }
    return this.entriesRead
  }

  private flushBatch(): Promise<void> | undefined {
    if (this.batchBytes === 0) return undefined
    const batch = this.batch.length === 1 ? this.batch[0]! : Buffer.concat(this.batch, this.batchBytes)
    this.batch = []
    this.batchBytes = 0
    return this.writeInput(batch)
  }

  private writeInput(chunk: Buffer): Promise<void> | undefined {
    if (this.input.write(chunk)) return undefined
    return new Promise((resolve) => {
      this.input.once('drain', resolve)
      this.wakeOnFailure.push(resolve)
    })
  }

  /** The first failure: CorruptArchiveError for bad data, anything else from the writer. */
  get error(): unknown {
    return this.failure
  }

  private fail(error: unknown): void {
    if (this.failure !== undefined) return
    this.failure = error
    this.gunzip?.destroy()
    this.extract.destroy()
    for (const wake of this.wakeOnFailure.splice(0)) wake()
    // A stop from outside is no failure of ours to report.
    if (!this.options.signal.aborted) this.options.onError?.(error)
  }

  /** tar-stream's "Unexpected end of data" becomes which entry was cut short. */
  private describeParseError(error: unknown): CorruptArchiveError {
    const entry = this.reading
    if (!(error instanceof Error) || error.message !== 'Unexpected end of data') return corrupt(error)
    const where = entry === undefined ? 'between two entries' : `inside the entry ${JSON.stringify(entry.name)} (${formatBytes(entry.size ?? 0)} declared)`
    return new CorruptArchiveError(`the tar data ends early, ${where}`, { cause: error })
  }

  private feedParser(chunk: Buffer): void {
    if (this.failure !== undefined) return
    if (this.innerHead.pending) {
      const judged = this.innerHead.push(chunk)
      if (judged === undefined || !this.holdsTar(judged)) return
      chunk = judged.head
    }
    if (!this.withinBound(chunk)) return
    if (!this.extract.write(chunk)) this.gunzip?.pause()
  }

  /**
   * Counts the tar bytes before the parser gets them: an archive of little but padding, zero
   * blocks or skipped data would keep gunzip and the parser busy without writing a byte.
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

  private endParser(): void {
    if (this.innerHead.pending) {
      const judged = this.innerHead.end()
      if (judged.head.length > 0) {
        if (!this.holdsTar(judged)) return
        this.extract.write(judged.head)
      }
    }
    this.extract.end(undefined)
  }

  /** A gzip that holds something else than a tar gets a clear message, not "invalid header". */
  private holdsTar({ verdict, head }: { verdict: boolean; head: Buffer }): boolean {
    if (!verdict) this.fail(new NotAnArchiveError(`The bundle is a gzip file, but what it holds is not a tar archive: it looks like ${describeBytes(head)}`))
    return verdict
  }

  private async unpackEntry(header: tarStream.Header, entry: EntryStream): Promise<void> {
    const { name } = header
    switch (header.type) {
      case 'file':
      case 'contiguous-file':
        await this.writer.file(name, header.mode, header.size ?? 0, entry)
        return
      case 'directory':
        await skipEntry(entry)
        await this.writer.directory(name)
        return
      case 'symlink':
        await skipEntry(entry)
        this.writer.symlink(name, header.linkname ?? '')
        return
      case 'link':
        await skipEntry(entry)
        await this.writer.hardlink(name, header.linkname ?? '')
        return
      default:
        // Devices and fifos; tar-stream consumes pax and GNU long-name records itself.
        await skipEntry(entry)
        this.writer.skip(name, String(header.type).replace(/-/g, ' '))
    }
  }
}
