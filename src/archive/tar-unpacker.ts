/**
 * Unpacks a tar or tar.gz into the staging folder as its bytes arrive: Node's zlib gunzips (on
 * its thread pool, beside the download), GNU tar writes, and the ledger judges every member GNU
 * tar announces as it writes it. Modes a site cannot live with (a page its owner cannot read) are
 * mended once GNU tar is done. zlib, not GNU tar's gzip: the same work in less time
 * (docs/benchmarks.md).
 */
import { chmod, lstat } from 'node:fs/promises'
import type { Writable } from 'node:stream'
import { finished } from 'node:stream/promises'
import zlib from 'node:zlib'
import { noop } from '../common/cancellation.js'
import { decodeSitePath } from '../common/site-paths.js'
import { UMASK } from '../common/umask.js'
import { formatBytes } from '../common/units.js'
import { SiteLimitError } from '../site/errors.js'
import type { SiteLedger } from '../site/ledger.js'
import { CorruptArchiveError, NotAnArchiveError } from './errors.js'
import { HeadSniffer, TAR_BLOCK_BYTES, describeBytes, looksLikeTar } from './format.js'
import { GnuTarExtraction } from './gnu-tar.js'
import type { TarMember } from './tar-listing.js'

export interface TarUnpackerOptions {
  tar: string
  gzip: boolean
  staging: string
  /** A file for GNU tar's listing, outside the staging folder (see GnuTarOptions). */
  listingFile: string
  ledger: SiteLedger
  /**
   * The most plain tar bytes a tar.gz may hold (archiveBound): what GNU tar skips or never reads (after the
   * archive's end) is seen by no member's size, and a gzip of zeros inflates a thousandfold.
   */
  maxTarBytes: number
  /** Told at once when the unpacking fails for a reason another download would not cure. */
  onFatal: (error: unknown) => void
}

const SPECIAL_KINDS: Record<string, string> = { b: 'block device', c: 'character device', p: 'fifo', s: 'socket' }
/** The pieces zlib hands on: the default 16 KiB would wake GNU tar's pipe four times as often. */
const GUNZIP_CHUNK_BYTES = 64 * 1024

/**
 * A gzip's content must read as a tar from its first block: GNU tar takes anything shorter than a
 * block (an error page, gzipped) for an empty archive.
 */
function judgeGzipContent(head: Buffer, complete: boolean): NotAnArchiveError | 'tar' | undefined {
  if (head.length < TAR_BLOCK_BYTES && !complete) return undefined
  if (looksLikeTar(head) || (head.length < TAR_BLOCK_BYTES && head.every((byte) => byte === 0))) return 'tar'
  return new NotAnArchiveError(
    `The bundle is a gzip file, but its content is not a tar archive: it looks like ${describeBytes(head)}`
  )
}

export class TarUnpacker {
  private readonly extraction: GnuTarExtraction
  /** A tar.gz's gunzipping, and the judge of its first plain bytes. */
  private readonly gunzip: zlib.Gunzip | undefined
  private readonly gzipContent = new HeadSniffer(judgeGzipContent)
  private gzipFailure: CorruptArchiveError | undefined
  private tarBytes = 0
  private fatal: unknown
  /** Members GNU tar writes with modes their owner cannot read or write through. */
  private readonly modesToMend: Array<{ name: Buffer; mode: number }> = []

  constructor(private readonly options: TarUnpackerOptions) {
    this.extraction = new GnuTarExtraction({
      tar: options.tar,
      into: options.staging,
      listingFile: options.listingFile,
      onMember: (member) => this.member(member),
      onFailure: (error) => this.failFatally(error)
    })
    if (!options.gzip) return
    const gunzip = zlib.createGunzip({ chunkSize: GUNZIP_CHUNK_BYTES })
    gunzip.on('data', (plain: Buffer) => {
      const wait = this.toTar(plain)
      if (wait === undefined) return
      gunzip.pause()
      // A refusal is GNU tar's failure, told through onFailure already (failFatally stops the gunzipping).
      void wait.then(
        () => gunzip.resume(),
        () => undefined
      )
    })
    gunzip.on('error', (error) => {
      this.gzipFailure ??= new CorruptArchiveError(`its gzip data cannot be read (${error.message})`)
      void this.extraction.stop()
    })
    this.gunzip = gunzip
  }

  /** Bytes of the archive as downloaded; a returned promise asks the download to wait. */
  write(chunk: Buffer): Promise<void> | undefined {
    if (this.fatal !== undefined) throw this.fatal
    if (this.gunzip === undefined) return this.extraction.write(chunk)
    // Broken gzip data: the rest of the download is not unpacked (end() says why).
    if (this.gzipFailure !== undefined || this.gunzip.destroyed) return undefined
    if (this.gunzip.write(chunk)) return undefined
    return drainedOrClosed(this.gunzip)
  }

  /** The whole archive is in: waits for GNU tar, judges the symlinks of the whole tree, mends modes. */
  async end(): Promise<void> {
    if (this.gunzip !== undefined && this.fatal === undefined) {
      this.gunzip.end()
      await finished(this.gunzip).catch(noop)
      if (this.gzipFailure !== undefined) {
        await this.extraction.stop()
        throw this.gzipFailure
      }
      if (this.gzipContent.pending) this.judged(this.gzipContent.end())
    }
    if (this.fatal !== undefined) {
      await this.extraction.stop()
      throw this.fatal
    }
    await this.extraction.end()
    this.options.ledger.finish()
    const prefix = Buffer.from(`${this.options.staging}/`)
    for (const { name, mode } of this.modesToMend) {
      // Only what GNU tar left there as a file or folder: a later member may have put a symlink in its place.
      const path = Buffer.concat([prefix, name])
      const stats = await lstat(path)
      if (stats.isFile() || stats.isDirectory()) await chmod(path, mode)
    }
  }

  /** Stops gunzipping and GNU tar at once; nothing is written after this resolves. */
  stop(): Promise<void> {
    this.gunzip?.destroy()
    return this.extraction.stop()
  }

  /** A tar.gz's plain bytes, held until their first block is judged. */
  private toTar(plain: Buffer): Promise<void> | undefined {
    if (this.fatal !== undefined) return undefined
    this.tarBytes += plain.length
    if (this.tarBytes > this.options.maxTarBytes) {
      this.failFatally(
        new SiteLimitError(
          `The bundle's tar data runs past ${formatBytes(this.options.maxTarBytes)}, the most \`max-site-size\` ` +
            'allows an archive to hold. Nothing was unpacked into the site folder, and the previous site was left ' +
            'as it was; raise `max-site-size` if the site really is this large.'
        )
      )
      return undefined
    }
    try {
      if (!this.gzipContent.pending) return this.extraction.write(plain)
      const judged = this.gzipContent.push(plain)
      return judged === undefined ? undefined : this.judged(judged)
    } catch {
      // GNU tar stopped on a member refused: failFatally has it, and has stopped the gunzipping.
      return undefined
    }
  }

  private judged({ verdict, head }: { verdict: NotAnArchiveError | 'tar'; head: Buffer }): Promise<void> | undefined {
    if (verdict === 'tar') return this.extraction.write(head)
    this.failFatally(verdict)
    return undefined
  }

  /** One member GNU tar is about to write: judged and counted (a throw stops GNU tar). */
  private member(member: TarMember): void {
    if (member.kind === 'none' || member.kind === 'end' || member.implied) return
    const name = decodeSitePath(member.name)
    const target = member.target === undefined ? undefined : decodeSitePath(member.target)
    // GNU tar replaces a file with a later folder at its path (a Solaris tar's ACL entry is written as a file first).
    const details = { size: member.size, target, special: SPECIAL_KINDS[member.type], replacesFile: true }
    this.options.ledger.entry(member.kind, name, details)
    const ownerBits = member.kind === 'directory' ? 0o700 : 0o600
    if ((member.kind === 'file' || member.kind === 'directory') && (member.mode & ownerBits) !== ownerBits) {
      this.modesToMend.push({ name: member.name, mode: (member.mode & ~UMASK) | ownerBits })
    }
  }

  /** The unpacking cannot succeed: says so at once, and stops the gunzipping and GNU tar. */
  private failFatally(error: unknown): void {
    if (this.fatal !== undefined) return
    this.fatal = error
    this.options.onFatal(error)
    this.gunzip?.destroy()
    void this.extraction.stop()
  }
}

/** Until `stream` takes more, or is closed (stopped: it never drains then). */
function drainedOrClosed(stream: Writable): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      stream.off('drain', done)
      stream.off('close', done)
      resolve()
    }
    stream.on('drain', done)
    stream.on('close', done)
  })
}
