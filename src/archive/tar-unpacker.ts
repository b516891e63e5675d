/**
 * Unpacks a tar or tar.gz into the staging folder as its bytes arrive: GNU tar (and its gzip)
 * writing, and the ledger judging every member GNU tar announces as it writes it. Modes a
 * site cannot live with (a page its owner cannot read) are mended once GNU tar is done.
 */
import { chmod, lstat } from 'node:fs/promises'
import zlib from 'node:zlib'
import { decodeSitePath } from '../common/site-paths.js'
import { UMASK } from '../common/umask.js'
import type { SiteLedger } from '../site/ledger.js'
import { CorruptArchiveError, NotAnArchiveError } from './errors.js'
import { TAR_BLOCK_BYTES, describeBytes, looksLikeTar } from './format.js'
import { GnuTarExtraction, NoTarInside } from './gnu-tar.js'
import type { TarMember } from './tar-listing.js'

export interface TarUnpackerOptions {
  tar: string
  gzip: boolean
  staging: string
  /** A file for GNU tar's listing, outside the staging folder (see GnuTarOptions). */
  listingFile: string
  ledger: SiteLedger
  /** Told at once when the unpacking fails for a reason another download would not cure. */
  onFatal: (error: unknown) => void
}

const SPECIAL_KINDS: Record<string, string> = { b: 'block device', c: 'character device', p: 'fifo', s: 'socket' }
/**
 * The archive's first bytes, judged once they are in: GNU tar takes anything shorter than a block
 * (an error page, gzipped) for an empty archive, so the action tells a tar by its first block.
 */
const HEAD_BYTES = 4096

export class TarUnpacker {
  private readonly extraction: GnuTarExtraction
  private fatal: unknown
  private readonly head: Buffer[] = []
  private headBytes = 0
  private headJudged = false
  /** Members GNU tar writes with modes their owner cannot read or write through. */
  private readonly modesToMend: Array<{ name: Buffer; mode: number }> = []

  constructor(private readonly options: TarUnpackerOptions) {
    this.extraction = new GnuTarExtraction({
      tar: options.tar,
      gzip: options.gzip,
      into: options.staging,
      listingFile: options.listingFile,
      onMember: (member) => this.member(member),
      onFailure: (error) => this.failFatally(error)
    })
  }

  /** Bytes of the archive as downloaded; a returned promise asks the download to wait. */
  write(chunk: Buffer): Promise<void> | undefined {
    if (this.fatal !== undefined) throw this.fatal
    if (!this.headJudged) {
      this.head.push(chunk)
      this.headBytes += chunk.length
      if (this.headBytes >= HEAD_BYTES) this.judgeHead()
    }
    return this.extraction.write(chunk)
  }

  /** The whole archive is in: waits for GNU tar, judges the symlinks of the whole tree, mends modes. */
  async end(): Promise<void> {
    if (!this.headJudged) this.judgeHead()
    if (this.fatal !== undefined) {
      await this.extraction.stop()
      throw this.fatal
    }
    try {
      await this.extraction.end()
    } catch (error) {
      if (!(error instanceof NoTarInside)) throw error
      // A damaged tar whose first block still reads as one: corrupt, not something else.
      throw new CorruptArchiveError(`GNU tar could not read it: ${error.message}`)
    }
    this.options.ledger.finish()
    const prefix = Buffer.from(`${this.options.staging}/`)
    for (const { name, mode } of this.modesToMend) {
      // Only what GNU tar left there as a file or folder: a later member may have put a symlink in its place.
      const path = Buffer.concat([prefix, name])
      const stats = await lstat(path)
      if (stats.isFile() || stats.isDirectory()) await chmod(path, mode)
    }
  }

  /** Stops GNU tar at once; nothing is written after this resolves. */
  stop(): Promise<void> {
    return this.extraction.stop()
  }

  /** A gzip's first plain bytes must read as a tar (a plain tar was told so by its first bytes already). */
  private judgeHead(): void {
    this.headJudged = true
    if (!this.options.gzip) return
    let content: Buffer
    try {
      content = zlib.gunzipSync(Buffer.concat(this.head), { finishFlush: zlib.constants.Z_SYNC_FLUSH })
    } catch {
      // Broken gzip data: GNU tar's gzip says so.
      return
    }
    if (looksLikeTar(content) || (content.length < TAR_BLOCK_BYTES && content.every((byte) => byte === 0))) return
    this.head.length = 0
    const error = new NotAnArchiveError(
      `The bundle is a gzip file, but its content is not a tar archive: it looks like ${describeBytes(content)}`
    )
    this.failFatally(error)
    void this.extraction.stop()
  }

  /** One member GNU tar is about to write: judged and counted (a throw stops GNU tar). */
  private member(member: TarMember): void {
    if (member.kind === 'none' || member.implied) return
    const name = decodeSitePath(member.name)
    const target = member.target === undefined ? undefined : decodeSitePath(member.target)
    this.options.ledger.entry(member.kind, name, { size: member.size, target, special: SPECIAL_KINDS[member.type] })
    const ownerBits = member.kind === 'directory' ? 0o700 : 0o600
    if ((member.kind === 'file' || member.kind === 'directory') && (member.mode & ownerBits) !== ownerBits) {
      this.modesToMend.push({ name: member.name, mode: (member.mode & ~UMASK) | ownerBits })
    }
  }

  private failFatally(error: unknown): void {
    if (this.fatal !== undefined) return
    this.fatal = error
    this.options.onFatal(error)
  }
}
