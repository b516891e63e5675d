/**
 * Takes one download attempt's bytes as they arrive and sends each chunk, without copies, to
 * three places at once: the sha256, the `<archive>.part` file, and the unpacker filling a staging
 * folder (tar, tar.gz, and zip from its local headers; a zip is checked against its central
 * directory, or unpacked from it, once the `.part` file is complete).
 * Each attempt gets a fresh receiver: fresh hash, fresh `.part`, fresh staging folder.
 */
import { createHash } from 'node:crypto'
import { once } from 'node:events'
import { createWriteStream } from 'node:fs'
import type { WriteStream } from 'node:fs'
import { mkdir, rm } from 'node:fs/promises'
import { collectMainThreadGarbage } from '../common/buffer-garbage.js'
import { CancelledError } from '../common/errors.js'
import type { Logger } from '../common/log.js'
import { CorruptArchiveError, NotAnArchiveError, writeFailure } from './errors.js'
import { type ArchiveFormat, type FormatVerdict, HeadSniffer, detectFormat } from './format.js'
import { SMALL_FILE_BYTES, type SiteInspector, type SiteLimits, SiteWriter } from './site-writer.js'
import { createStagingFolder, discardFolder, removeQuietly } from './staging.js'
import { TarUnpacker } from './tar.js'
import { ZipUnpacker } from './zip.js'

/**
 * A tar's pages up to this size are scanned for the site check beside the reader, larger ones on
 * the writer thread. Measured on 2 cores: with 30,000 pages of 0.5-6 KiB the writer thread (one
 * file creation each) is what the unpacking waits on, and scanning them here made it 12% faster;
 * with 3,000 pages of ~60 KiB the reader is, and scanning them here made it 4% slower.
 */
const OBSERVE_HERE_BYTES = 16 * 1024

/** The `.part` file is written in ~1 MiB writev calls instead of one call per network chunk. */
const PART_FILE_BATCH_BYTES = 1024 * 1024
const PART_FILE_HIGH_WATER_MARK = 2 * PART_FILE_BATCH_BYTES

export interface ReceiverOptions {
  partFile: string
  /** Where the site will go; the staging folder is made beside it. Undefined: keep the archive only. */
  siteDir: string | undefined
  log: Logger
  /**
   * Told at once when unpacking fails for a reason another download would not cure (an unsafe
   * entry, a full disk), so the download can stop rather than finish for nothing.
   */
  onFatal: (error: unknown) => void
  /** Stops the unpacking at once (cancellation), also while a zip is unpacked after the download. */
  signal?: AbortSignal | undefined
  /** What the archive may unpack to (when unpacking). */
  limits: SiteLimits
  /** Sees the files as they are written (when unpacking). */
  inspector?: SiteInspector | undefined
}

export interface ReceivedArchive {
  sha256: string
  sizeBytes: number
  format: ArchiveFormat
  /** The unpacked site, ready to be swapped in; undefined when not unpacking. */
  staging: string | undefined
  counts: SiteWriter['counts'] | undefined
  /** Entries of every kind taken from the archive. */
  entries: number
}

export class ArchiveReceiver {
  private readonly hash = createHash('sha256')
  private bytes = 0
  /** The first bytes, held until the format is known (a tar is recognised at offset 257). */
  private readonly head = new HeadSniffer<FormatVerdict>(detectFormat)
  private format: ArchiveFormat | undefined
  private tar: TarUnpacker | undefined
  private zip: ZipUnpacker | undefined
  /** Whether the `.part` stream is corked, and how much it holds since the last flush. */
  private corked = false
  private corkedBytes = 0
  /** Stops the unpacker and the writer: on the caller's signal, or when discarded. */
  private readonly stopper = new AbortController()
  private writer: SiteWriter | undefined

  private constructor(
    private readonly options: ReceiverOptions,
    private readonly part: WriteStream,
    private readonly staging: string | undefined
  ) {
    part.on('error', (error) => options.onFatal(writeFailure(error, `the bundle file ${options.partFile}`, this.bytes)))
    const { signal } = options
    if (signal?.aborted) this.stopper.abort(signal.reason)
    else signal?.addEventListener('abort', () => this.stopper.abort(signal.reason), { once: true })
  }

  /**
   * The writer of the staging folder, once the format is known: one writer thread, which for a
   * zip inflates its entries too (unless it is behind: then this thread does, see
   * SiteWriter.fileInMemory). A second thread for a zip cost 15-20 MiB of peak RSS (a V8 isolate
   * and a malloc arena of its own), which took every zip of the benchmark past its 120 MiB bound,
   * and with this thread inflating while the one is behind it is no longer faster: in 5
   * alternating runs against two threads, 3,000-page zip 1.41 against 1.38 s, 30,000 files 1.67
   * against 1.77 s, 1 GiB 5.9 against 6.9 s, on a disk that made every time vary by a third.
   *
   * The site check scans pages where there is time to spare: a tar's small pages here, where
   * they are as they will be written (see OBSERVE_HERE_BYTES), and its larger ones too whenever
   * the writer thread is behind (a slow disk); every page of a zip here too, sent
   * back by the thread that inflated and wrote it, since a zip's writer thread is what its
   * unpacking waits on and this thread mostly waits for it.
   */
  private newWriter(staging: string): SiteWriter {
    const { log, limits, inspector } = this.options
    return new SiteWriter(staging, log, this.stopper.signal, limits, inspector, {
      threads: 1,
      observeHereUpTo: this.format === 'zip' ? SMALL_FILE_BYTES : OBSERVE_HERE_BYTES
    })
  }

  static async open(options: ReceiverOptions): Promise<ArchiveReceiver> {
    // 'w' truncates: a retry never appends to what a failed attempt left.
    const part = createWriteStream(options.partFile, { flags: 'w', highWaterMark: PART_FILE_HIGH_WATER_MARK })
    try {
      await once(part, 'open')
    } catch (error) {
      part.destroy()
      throw writeFailure(error, `the bundle file ${options.partFile}`)
    }
    let staging: string | undefined
    try {
      staging = options.siteDir === undefined ? undefined : await createStagingFolder(options.siteDir)
    } catch (error) {
      part.destroy()
      await removeQuietly(options.partFile)
      throw writeFailure(error, `a staging folder beside ${options.siteDir}`)
    }
    return new ArchiveReceiver(options, part, staging)
  }

  /** One chunk of the body; a returned promise asks the download to wait (backpressure). */
  write(chunk: Buffer): Promise<void> | undefined {
    this.hash.update(chunk)
    this.bytes += chunk.length
    // Every chunk received becomes garbage within milliseconds, and so do the batches, gunzip
    // output and pieces made of it: a young collection after each MiB received keeps them from
    // piling up (see bufferCollector for the figures).
    collectMainThreadGarbage(chunk.length)
    const fileWait = this.writePart(chunk) ? undefined : once(this.part, 'drain')
    const unpackWait = this.unpack(chunk)
    if (fileWait === undefined) return unpackWait
    return unpackWait === undefined ? fileWait.then(noop) : Promise.all([fileWait, unpackWait]).then(noop)
  }

  /**
   * The body is complete: closes the `.part` file and finishes unpacking. Throws
   * CorruptArchiveError (with the archive's size and sha256) when the bytes cannot be unpacked.
   */
  async complete(): Promise<ReceivedArchive> {
    if (this.head.pending) {
      // A body shorter than the sniffing window.
      const { verdict, head } = this.head.end()
      this.decideFormat(verdict)
      if (this.tar !== undefined) await this.tar.write(head)
    }
    const format = this.format!
    this.flushPart()
    this.part.end()
    await once(this.part, 'close')
    const sha256 = this.hash.digest('hex')
    if (this.writer !== undefined) {
      try {
        if (format === 'zip') this.writer = await this.zip!.end()
        else {
          await this.tar!.end()
          await this.writer.finish()
        }
      } catch (error) {
        if (!(error instanceof CorruptArchiveError)) throw error
        throw new CorruptArchiveError(
          `The bundle archive is corrupt (${format}, ${this.bytes} bytes, sha256 ${sha256}): ${error.message}`,
          { cause: error }
        )
      }
    }
    return {
      sha256,
      sizeBytes: this.bytes,
      format,
      staging: this.staging,
      counts: this.writer?.counts,
      entries: this.writer?.entryCount ?? 0
    }
  }

  /**
   * Stops everything and removes the `.part` file and the staging folder. `cancelled`: the run is
   * ending, and a large staging folder is only renamed aside for a detached removal (see
   * discardFolder).
   */
  async discard(cancelled = false): Promise<void> {
    if (!this.stopper.signal.aborted) this.stopper.abort(new CancelledError('The unpacking was stopped'))
    this.part.destroy()
    // In-flight writes must settle first, or one could recreate a folder after the removal.
    await Promise.all([this.writer?.settled(), this.part.closed ? undefined : once(this.part, 'close').catch(noop)])
    await Promise.all([
      removeQuietly(this.options.partFile),
      this.staging === undefined
        ? undefined
        : discardFolder(this.staging, this.options.siteDir!, { cancelled, entries: this.writer?.entryCount ?? 0 })
    ])
  }

  /**
   * A fresh start of the unpacking in the same staging folder (a zip that must be unpacked from
   * its central directory): the writer's work is stopped, the folder emptied, a new writer made.
   */
  private async restartUnpacking(): Promise<SiteWriter> {
    const staging = this.staging as string
    const old = this.writer as SiteWriter
    await old.stopAndSettle()
    await rm(staging, { recursive: true, force: true, maxRetries: 2 })
    await mkdir(staging)
    this.writer = this.newWriter(staging)
    return this.writer
  }

  /**
   * Like `part.write`, but the chunks go to disk together, ~1 MiB per writev, without copies.
   * Never left corked while the caller waits for 'drain': a corked stream would not flush, and
   * 'drain' would never come. (The chunks held here outlive a young collection and need a full
   * one; copied into reused batch buffers instead, they die young, and the 3,000-page zip's
   * full collections went from 8-9 to 1-2, but neither its time nor its peak RSS moved in 8
   * alternating runs on Node 24: the copies are not worth it.)
   */
  private writePart(chunk: Buffer): boolean {
    if (!this.corked) {
      this.part.cork()
      this.corked = true
    }
    const roomLeft = this.part.write(chunk)
    this.corkedBytes += chunk.length
    if (!roomLeft || this.corkedBytes >= PART_FILE_BATCH_BYTES) this.flushPart()
    return roomLeft
  }

  private flushPart(): void {
    if (!this.corked) return
    this.corked = false
    this.corkedBytes = 0
    this.part.uncork()
  }

  private unpack(chunk: Buffer): Promise<void> | undefined {
    if (this.head.pending) {
      const judged = this.head.push(chunk)
      if (judged === undefined) return undefined
      this.decideFormat(judged.verdict)
      chunk = judged.head
    }
    if (this.zip !== undefined) return this.zip.write(chunk)
    // After a corrupt-data failure the tar unpacker is left behind; the download goes on so that
    // the error can tell the size and sha256 of what was served.
    if (this.tar === undefined || this.tar.error !== undefined) return undefined
    return this.tar.write(chunk)
  }

  /** Sets the format and, when unpacking, makes the writer and starts the streaming unpacker of that format. */
  private decideFormat(verdict: FormatVerdict): void {
    if ('unknown' in verdict) {
      throw new NotAnArchiveError(
        `The downloaded bundle is not a zip, tar.gz or tar archive: its first bytes look like ${verdict.unknown}`
      )
    }
    this.format = verdict.format
    if (this.staging === undefined) return
    this.writer = this.newWriter(this.staging)
    if (verdict.format === 'zip') {
      this.zip = new ZipUnpacker(this.writer, {
        file: this.options.partFile,
        restart: () => this.restartUnpacking(),
        signal: this.stopper.signal
      })
      return
    }
    this.tar = new TarUnpacker(this.writer, {
      gzip: verdict.format === 'tar.gz',
      onError: (error) => {
        if (!(error instanceof CorruptArchiveError)) this.options.onFatal(error)
      },
      signal: this.stopper.signal
    })
  }
}

function noop(): void {}
