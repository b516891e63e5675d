/**
 * Takes one download attempt's bytes as they arrive: each chunk goes to the sha256, to the
 * `<archive>.part` file, and (a tar) to GNU tar filling a staging folder; a zip is unpacked from
 * the `.part` file once it is whole. Either way the tree written is checked before it is handed
 * on. Each attempt gets a fresh receiver: fresh hash, fresh `.part`, fresh staging folder.
 */
import { createHash } from 'node:crypto'
import { once } from 'node:events'
import { type WriteStream, createWriteStream } from 'node:fs'
import { open, rm } from 'node:fs/promises'
import { noop } from '../common/cancellation.js'
import type { Logger } from '../common/log.js'
import { CorruptArchiveError, NotAnArchiveError } from './errors.js'
import { writeFailure } from '../common/write-failure.js'
import { type ArchiveFormat, type FormatVerdict, HeadSniffer, detectFormat } from './format.js'
import { findGnuTar } from './gnu-tar.js'
import { SiteLedger, type SiteCounts, type SiteLimits, archiveBound } from '../site/ledger.js'
import { TarUnpacker } from './tar-unpacker.js'
import { checkStagedTree } from '../site/tree-check.js'
import { ZIP_TAIL_BYTES, findEndRecord } from './zip-reader.js'
import { unpackZip } from './zip-unpacker.js'

export interface ReceiverOptions {
  partFile: string
  /** The empty folder to unpack into (its creator removes it). Undefined: keep the archive only. */
  into: string | undefined
  log: Logger
  /**
   * Told at once when unpacking fails for a reason another download would not cure (an unsafe
   * entry, a bound), so the download can stop rather than finish for nothing.
   */
  onFatal: (error: unknown) => void
  /** Stops the unpacking at once (cancellation), also while a zip is unpacked after the download. */
  signal?: AbortSignal | undefined
  limits: SiteLimits
}

export interface ReceivedArchive {
  sha256: string
  sizeBytes: number
  format: ArchiveFormat
  /** The unpacked site, checked and ready to be swapped in; undefined when not unpacking. */
  staging: string | undefined
  /** Its files and symlinks, as site paths. */
  files: string[] | undefined
  counts: SiteCounts | undefined
  /** Entries of every kind taken from the archive. */
  entries: number
}

// The `.part` file takes chunks as they arrive: the default 16 KiB would hold the download up at every chunk.
const BUFFERED_BYTES = 1024 * 1024
/** Heads that are no archive at all, whatever follows: an error page from the storage. */
const NEVER_AN_ARCHIVE = /HTML|XML|JSON|nothing at all/

export class ArchiveReceiver {
  private readonly hash = createHash('sha256')
  private bytes = 0
  /** The first bytes, held until the format is known. */
  private readonly head = new HeadSniffer<FormatVerdict>(detectFormat)
  /** Undefined until the head tells, and for a head that only the end can tell (a zip after a program). */
  private format: ArchiveFormat | undefined
  private unknownHead = ''
  /** GNU tar's unpacking: starting (GNU tar is looked for), then started. */
  private tar: Promise<TarUnpacker> | undefined
  private tarStarted: TarUnpacker | undefined
  private readonly ledger: SiteLedger
  private discarded = false

  private constructor(
    private readonly options: ReceiverOptions,
    private readonly part: WriteStream,
    private readonly staging: string | undefined
  ) {
    part.on('error', (error) => options.onFatal(writeFailure(error, `the bundle file ${options.partFile}`, this.bytes)))
    this.ledger = new SiteLedger(options.limits, options.log, staging)
  }

  static async open(options: ReceiverOptions): Promise<ArchiveReceiver> {
    // 'w' truncates: a retry never appends to what a failed attempt left.
    const part = createWriteStream(options.partFile, { flags: 'w', highWaterMark: BUFFERED_BYTES })
    try {
      await once(part, 'open')
    } catch (error) {
      part.destroy()
      throw writeFailure(error, `the bundle file ${options.partFile}`)
    }
    return new ArchiveReceiver(options, part, options.into)
  }

  /** One chunk of the body; a returned promise asks the download to wait (backpressure). */
  write(chunk: Buffer): Promise<void> | undefined {
    this.hash.update(chunk)
    this.bytes += chunk.length
    const fileWait = this.part.write(chunk) ? undefined : once(this.part, 'drain')
    const unpackWait = this.unpack(chunk)
    if (fileWait === undefined) return unpackWait
    return Promise.all([fileWait, unpackWait]).then(noop)
  }

  /**
   * The body is complete: closes the `.part` file, finishes unpacking and checks what was written.
   * Throws CorruptArchiveError (with the archive's size and sha256) when the bytes cannot be unpacked.
   */
  async complete(): Promise<ReceivedArchive> {
    if (this.head.pending) {
      const { verdict, head } = this.head.end()
      const wait = this.decideFormat(verdict, head)
      if (wait !== undefined) await wait
    }
    this.part.end()
    await once(this.part, 'close')
    const sha256 = this.hash.digest('hex')
    const format = this.format ?? (await this.formatFromTheEnd())
    let files: string[] | undefined
    if (this.staging !== undefined) {
      try {
        if (format === 'zip') {
          await unpackZip({
            file: this.options.partFile,
            staging: this.staging,
            ledger: this.ledger,
            signal: this.options.signal
          })
        } else await (await this.tar!).end()
        files = await checkStagedTree(this.staging, (path) => this.ledger.judgedAt(path), this.options.signal)
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
      files,
      counts: this.staging === undefined ? undefined : this.ledger.counts,
      entries: this.ledger.entryCount
    }
  }

  /** Entries of every kind taken from the archive so far. */
  get entries(): number {
    return this.ledger.entryCount
  }

  /** Stops everything (GNU tar is gone when this resolves: nothing more is written) and removes the `.part` file. */
  async discard(): Promise<void> {
    this.discarded = true
    await this.tar?.then((tar) => tar.stop()).catch(noop)
    this.part.destroy()
    if (!this.part.closed) await once(this.part, 'close').catch(noop)
    await rm(this.options.partFile, { force: true })
  }

  private unpack(chunk: Buffer): Promise<void> | undefined {
    if (this.head.pending) {
      const judged = this.head.push(chunk)
      if (judged === undefined) return undefined
      return this.decideFormat(judged.verdict, judged.head)
    }
    return this.toTar(chunk)
  }

  /** Sets the format and starts GNU tar for a tar; `head` is every byte held until then. */
  private decideFormat(verdict: FormatVerdict, head: Buffer): Promise<void> | undefined {
    if ('unknown' in verdict) {
      if (NEVER_AN_ARCHIVE.test(verdict.unknown)) throw this.notAnArchive(verdict.unknown)
      this.unknownHead = verdict.unknown
      return undefined
    }
    this.format = verdict.format
    if (this.staging === undefined || verdict.format === 'zip') return undefined
    const staging = this.staging
    this.tar = findGnuTar().then((tar) => {
      this.tarStarted = new TarUnpacker({
        tar,
        gzip: verdict.format === 'tar.gz',
        staging,
        listingFile: `${this.options.partFile}.tar-listing`,
        ledger: this.ledger,
        maxTarBytes: archiveBound(this.options.limits),
        onFatal: this.options.onFatal
      })
      return this.tarStarted
    })
    return this.toTar(head)
  }

  private toTar(chunk: Buffer): Promise<void> | undefined {
    if (this.tarStarted !== undefined) return this.tarStarted.write(chunk)
    return this.tar?.then((tar) => (this.discarded ? undefined : tar.write(chunk)))
  }

  /** A head no format claims may still be a zip with a program before it: its end record tells. */
  private async formatFromTheEnd(): Promise<ArchiveFormat> {
    const file = await open(this.options.partFile, 'r')
    try {
      const tail = Buffer.alloc(Math.min(this.bytes, ZIP_TAIL_BYTES))
      await file.read(tail, 0, tail.length, this.bytes - tail.length)
      if (findEndRecord(tail, this.bytes) !== undefined) return (this.format = 'zip')
    } finally {
      await file.close()
    }
    throw this.notAnArchive(this.unknownHead)
  }

  private notAnArchive(what: string): NotAnArchiveError {
    return new NotAnArchiveError(
      `The downloaded bundle is not a zip, tar.gz or tar archive: its first bytes look like ${what}`
    )
  }
}
