/**
 * Unpacks a tar or tar.gz into the staging folder as its bytes arrive: gunzip here (so that what
 * GNU tar is fed can be bounded), GNU tar writing, and the ledger judging every member GNU tar
 * announces before it writes it. Modes a site cannot live with (a page its owner cannot read) are
 * mended once GNU tar is done.
 */
import { once } from 'node:events'
import { chmod, lstat } from 'node:fs/promises'
import zlib from 'node:zlib'
import { decodeSitePath } from '../common/site-paths.js'
import { UMASK } from '../common/umask.js'
import { formatBytes } from '../common/units.js'
import { CorruptArchiveError, NotAnArchiveError } from './errors.js'
import { SiteLimitError } from '../site/errors.js'
import { HeadSniffer, TAR_BLOCK_BYTES, describeBytes, looksLikeTar } from './format.js'
import { GnuTarExtraction } from './gnu-tar.js'
import type { SiteLedger } from '../site/ledger.js'
import type { TarMember } from './tar-listing.js'

export interface TarUnpackerOptions {
  tar: string
  gzip: boolean
  staging: string
  ledger: SiteLedger
  /** The most plain tar bytes GNU tar is fed (what the archive may hold at most, see archiveBound). */
  maxTarBytes: number
  /** Told at once when the unpacking fails for a reason another download would not cure. */
  onFatal: (error: unknown) => void
}

const SPECIAL_KINDS: Record<string, string> = { b: 'block device', c: 'character device', p: 'fifo', s: 'socket' }

export class TarUnpacker {
  private readonly extraction: GnuTarExtraction
  private readonly gunzip: zlib.Gunzip | undefined
  private readonly head = new HeadSniffer<boolean>((head, complete) =>
    head.length >= TAR_BLOCK_BYTES || complete ? looksLikeTar(head) : undefined
  )
  private tarBytes = 0
  /** Corrupt gzip data: told at the end, once the whole archive's size and sha256 are known. */
  private corrupt: CorruptArchiveError | undefined
  private fatal: unknown
  /** Settles once the unpacking stops for a failure: no wait for gunzip's room outlives that. */
  private readonly halted: Promise<void>
  private halt: () => void = () => {}
  /** Members GNU tar writes with modes their owner cannot read or write through. */
  private readonly modesToMend: Array<{ name: Buffer; mode: number }> = []

  constructor(private readonly options: TarUnpackerOptions) {
    this.halted = new Promise((resolve) => (this.halt = resolve))
    this.extraction = new GnuTarExtraction({
      tar: options.tar,
      into: options.staging,
      onMember: (member) => this.member(member),
      onFailure: (error) => this.failFatally(error)
    })
    if (options.gzip) {
      const gunzip = zlib.createGunzip()
      gunzip.on('data', (plain: Buffer) => {
        const wait = this.plain(plain)
        if (wait !== undefined) {
          gunzip.pause()
          void wait.then(() => gunzip.resume())
        }
      })
      gunzip.on('error', (error) => {
        this.corrupt ??= new CorruptArchiveError(`its gzip data cannot be read (${error.message})`, { cause: error })
      })
      this.gunzip = gunzip
    }
  }

  /** Bytes of the archive as downloaded; a returned promise asks the download to wait. */
  write(chunk: Buffer): Promise<void> | undefined {
    if (this.fatal !== undefined) throw this.fatal
    const gunzip = this.gunzip
    if (gunzip === undefined) return this.plain(chunk)
    if (this.corrupt !== undefined || !this.extraction.reading) return undefined
    if (gunzip.write(chunk)) return undefined
    return Promise.race([once(gunzip, 'drain').then(noop, noop), this.halted])
  }

  /** The whole archive is in: waits for GNU tar, mends modes, and judges the symlinks of the whole tree. */
  async end(): Promise<void> {
    if (this.gunzip !== undefined && this.corrupt === undefined && this.extraction.reading) {
      this.gunzip.end()
      await Promise.race([once(this.gunzip, 'end').then(noop, noop), this.halted])
    }
    if (this.fatal !== undefined) throw this.fatal
    if (this.head.pending) {
      const judged = this.head.end()
      if (judged.head.length > 0) this.judgeHead(judged.verdict, judged.head)
      else if (this.corrupt === undefined) throw this.notATar(judged.head)
      await this.extraction.write(judged.head)
    }
    if (this.corrupt !== undefined) {
      await this.extraction.stop()
      throw this.corrupt
    }
    await this.extraction.end()
    this.options.ledger.finish()
    for (const { name, mode } of this.modesToMend) {
      // Only what GNU tar left there as a file or folder: a later member may have put a symlink in its place.
      const path = Buffer.concat([this.prefix, name])
      const stats = await lstat(path)
      if (stats.isFile() || stats.isDirectory()) await chmod(path, mode)
    }
  }

  /** Stops GNU tar and gunzip at once; nothing is written after this resolves. */
  async stop(): Promise<void> {
    this.halt()
    this.gunzip?.destroy()
    await this.extraction.stop()
  }

  private get prefix(): Buffer {
    return Buffer.from(`${this.options.staging}/`)
  }

  /** Plain tar bytes: counted, the first of them judged, then fed to GNU tar. */
  private plain(plain: Buffer): Promise<void> | undefined {
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
    if (this.head.pending) {
      const judged = this.head.push(plain)
      if (judged === undefined) return undefined
      this.judgeHead(judged.verdict, judged.head)
      plain = judged.head
    }
    try {
      return this.extraction.write(plain)?.catch((error: unknown) => this.failFatally(error))
    } catch (error) {
      this.failFatally(error)
      return undefined
    }
  }

  private judgeHead(isTar: boolean, head: Buffer): void {
    if (isTar) return
    const error = this.notATar(head)
    this.failFatally(error)
    throw error
  }

  private notATar(head: Buffer): NotAnArchiveError {
    const what = this.options.gzip ? 'The bundle is a gzip file, but' : 'The bundle'
    return new NotAnArchiveError(`${what} its content is not a tar archive: it looks like ${describeBytes(head)}`)
  }

  /** One member GNU tar is about to write: judged and counted (a throw stops GNU tar). */
  private member(member: TarMember): void {
    if (member.kind === 'none' || member.implied) return
    const name = decodeSitePath(member.name)
    const target = member.target === undefined ? undefined : decodeSitePath(member.target)
    this.options.ledger.entry(member.kind, name, {
      size: member.size,
      target,
      special: SPECIAL_KINDS[member.type]
    })
    const ownerBits = member.kind === 'directory' ? 0o700 : 0o600
    if ((member.kind === 'file' || member.kind === 'directory') && (member.mode & ownerBits) !== ownerBits) {
      this.modesToMend.push({ name: member.name, mode: (member.mode & ~UMASK) | ownerBits })
    }
  }

  private failFatally(error: unknown): void {
    if (this.fatal !== undefined) return
    this.fatal = error
    this.halt()
    this.gunzip?.destroy()
    void this.extraction.stop()
    this.options.onFatal(error)
  }
}

function noop(): void {}
