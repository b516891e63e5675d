/**
 * GNU tar, the reference every tar is judged against, unpacks tar archives here: it is fed the
 * plain tar as it arrives (the download overlaps the unpacking; tar-unpacker.ts gunzips a tar.gz)
 * and tells what it is about to write, member by member (see tar-listing.ts),
 * so the action's checks see every member as its content lands, and stop GNU tar on the first one
 * refused. The listing goes to a file read every LISTING_READ_MS and with every chunk fed: GNU tar
 * flushes each line, and through a pipe that woke the action once a member (a quarter more time on
 * 30,000 small files: docs/benchmarks.md). GNU tar keeps its own writing
 * inside the folder it is given: it strips leading `/`, skips `..` members, and makes a symlink
 * whose target is absolute or climbs only at the very end, so nothing is ever written through one.
 */
import { type ChildProcessByStdio, execFile, spawn } from 'node:child_process'
import { once } from 'node:events'
import { closeSync, openSync, readSync, rmSync } from 'node:fs'
import type { Readable, Writable } from 'node:stream'
import { join } from 'node:path'
import { noop } from '../common/cancellation.js'
import { ActionError } from '../common/errors.js'
import { decodeSitePath } from '../common/site-paths.js'
import { formatBytes } from '../common/units.js'
import { CorruptArchiveError } from './errors.js'
import { TAR_BLOCK_BYTES } from './format.js'
import { UnsafeEntryError } from '../site/errors.js'
import { writeFailure } from '../common/write-failure.js'
import { type TarMember, parseListingLine, readQuoted } from './tar-listing.js'

/** The longest listing line read: a name and a target of 4,096 bytes each, every byte an octal escape. */
const MAX_LINE_CHARACTERS = 64 * 1024
/** What is kept of GNU tar's messages for the error (it repeats itself on a broken archive). */
const MAX_MESSAGE_LINES = 50
// Bytes queued for GNU tar before the download is asked to wait: the pipe's 64 KiB alone makes them take turns.
const BUFFERED_BYTES = 1024 * 1024
/** How often the listing is read while GNU tar runs: what it writes of a refused member in that time is its lag. */
const LISTING_READ_MS = 25
const LISTING_READ_BYTES = 256 * 1024

const ARGUMENTS = [
  '-x',
  // Twice verbose: one listing line per member, written before the member is, led by the block
  // where its data starts (how a sparse member shows: see checkDataCovers).
  '-vv',
  '--block-number',
  '--quoting-style=c',
  '--numeric-owner',
  // As root too: the archive's owners and exact modes are not the site's (the umask applies).
  '--no-same-owner',
  '--no-same-permissions',
  '-f',
  '-'
]

/** Where GNU tar is: `tar` on Linux, Homebrew's `gtar` on macOS, Git for Windows' own tar. */
export function gnuTarCandidates(platform: NodeJS.Platform = process.platform, env = process.env): string[] {
  if (platform === 'darwin') return ['gtar', 'tar']
  if (platform !== 'win32') return ['tar', 'gtar']
  const programFiles = env['ProgramFiles'] ?? 'C:\\Program Files'
  return [join(programFiles, 'Git', 'usr', 'bin', 'tar.exe'), 'tar']
}

let found: Promise<string> | undefined

/** The first candidate that says it is GNU tar; the step fails naming what it needs when none is. */
export function findGnuTar(): Promise<string> {
  found ??= (async () => {
    for (const candidate of gnuTarCandidates()) {
      const version = await new Promise<string>((resolve) =>
        execFile(candidate, ['--version'], { timeout: 10_000 }, (error, stdout) => resolve(error ? '' : stdout))
      )
      if (version.includes('GNU tar')) return candidate
    }
    found = undefined
    throw new ActionError(
      `GNU tar is needed to unpack a tar bundle and none was found (tried ${gnuTarCandidates().join(', ')}). ` +
        'Linux runners have it as `tar`; on macOS install it with `brew install gnu-tar` (GitHub-hosted macOS ' +
        'runners have it); on Windows it comes with Git for Windows.'
    )
  })()
  return found
}

export interface GnuTarOptions {
  tar: string
  /** The folder it unpacks into (the staging folder). */
  into: string
  /** A file of the caller's folder for GNU tar's listing, outside `into`; removed when GNU tar is done. */
  listingFile: string
  /** Sees each member before GNU tar writes it; a throw stops GNU tar at once and is the unpacking's failure. */
  onMember: (member: TarMember) => void
  /** Told once, at once, when the unpacking stops for a member refused or a listing line not understood. */
  onFailure: (error: unknown) => void
}

/** One run of GNU tar over one archive. */
export class GnuTarExtraction {
  private readonly child: ChildProcessByStdio<Writable, null, Readable>
  private readonly exited: Promise<number | null>
  private readonly listingFd: number
  private readonly listingBuffer = Buffer.allocUnsafe(LISTING_READ_BYTES)
  /** How much of the listing has been read; -1 once the file is closed. */
  private listingRead = 0
  private readonly listingTimer: NodeJS.Timeout
  private pendingLine = ''
  private readonly messages: string[] = []
  /** Why the unpacking stopped before GNU tar was done: a member refused, or a line that could not be read. */
  private failure: unknown
  private exitCode: number | null | undefined
  /** The last member listed: a cut archive ends inside it. */
  private lastMember: TarMember | undefined
  /** Plain tar bytes handed to GNU tar. */
  private fedBytes = 0
  /** Members GNU tar may fail to make (devices and fifos, skipped): their names. */
  private readonly specials = new Set<string>()

  constructor(private readonly options: GnuTarOptions) {
    this.listingFd = openSync(options.listingFile, 'w+')
    try {
      this.child = spawn(options.tar, ARGUMENTS, {
        cwd: options.into,
        // English messages, and every byte outside printable ASCII quoted as octal.
        env: { ...process.env, LC_ALL: 'C', LANG: 'C' },
        stdio: ['pipe', this.listingFd, 'pipe'],
        windowsHide: true
        // Node's types know no stdout that is a file: stdin and stderr are pipes, stdout is none of the child's.
      }) as ChildProcessByStdio<Writable, null, Readable>
    } catch (error) {
      this.removeListing()
      throw error
    }
    this.listingTimer = setInterval(() => this.readListing(), LISTING_READ_MS)
    this.exited = once(this.child, 'close').then(
      ([code]) => (this.exitCode = code as number | null),
      () => (this.exitCode = null)
    )
    void this.exited.then(() => {
      clearInterval(this.listingTimer)
      this.readListing()
      try {
        this.removeListing()
      } catch (error) {
        this.fail(error)
      }
    })
    // GNU tar stops reading at the archive's end: what follows is ignored, as by any tar.
    this.child.stdin.on('error', noop)
    this.child.stderr.setEncoding('latin1')
    let pendingMessage = ''
    this.child.stderr.on('data', (text: string) => {
      const lines = (pendingMessage + text).split('\n')
      pendingMessage = lines.pop() ?? ''
      for (const line of lines) if (this.messages.length < MAX_MESSAGE_LINES) this.messages.push(line)
    })
  }

  /** Feeds the tar's bytes; a returned promise asks the caller to wait. Nothing once GNU tar stopped reading. */
  write(plain: Buffer): Promise<void> | undefined {
    if (this.failure !== undefined) throw this.failure
    if (this.exitCode !== undefined || this.child.stdin.destroyed) return undefined
    this.fedBytes += plain.length
    this.readListing()
    if (this.failure !== undefined) throw this.failure
    if (this.child.stdin.write(plain) || this.child.stdin.writableLength < BUFFERED_BYTES) return undefined
    return Promise.race([once(this.child.stdin, 'drain').catch(noop), this.exited]).then(() => {
      if (this.failure !== undefined) throw this.failure
    })
  }

  /** No more bytes: waits for GNU tar to finish and says how it went. */
  async end(): Promise<void> {
    if (this.exitCode === undefined && !this.child.stdin.destroyed) this.child.stdin.end()
    await this.exited
    if (this.failure !== undefined) throw this.failure
    // GNU tar ends every line it writes: only a GNU tar stopped mid-line leaves a piece of one.
    if (this.pendingLine !== '' && this.exitCode === 0) this.line(this.pendingLine)
    // The last member's data ends where the archive's bytes do, at the latest.
    if (this.exitCode === 0 && this.lastMember !== undefined) {
      this.checkDataCovers(this.lastMember, Math.floor(this.fedBytes / TAR_BLOCK_BYTES))
    }
    const failure = this.exitCode === 0 ? undefined : this.failureFromMessages()
    if (failure !== undefined) throw failure
  }

  /** Stops GNU tar at once and waits until it can write nothing more. */
  async stop(): Promise<void> {
    if (this.exitCode === undefined) this.child.kill('SIGKILL')
    await this.exited
  }

  /** Reads what GNU tar has listed since the last read, and judges each line it completes. */
  private readListing(): void {
    if (this.listingRead < 0 || this.failure !== undefined) return
    const buffer = this.listingBuffer
    let text = ''
    try {
      for (;;) {
        const got = readSync(this.listingFd, buffer, 0, buffer.length, this.listingRead)
        if (got === 0) break
        text += buffer.toString('latin1', 0, got)
        this.listingRead += got
      }
    } catch (error) {
      return this.fail(error)
    }
    if (text !== '') this.listing(text)
  }

  /** Closes and removes the listing file (once). */
  private removeListing(): void {
    if (this.listingRead < 0) return
    this.listingRead = -1
    closeSync(this.listingFd)
    rmSync(this.options.listingFile, { force: true })
  }

  private listing(text: string): void {
    const lines = (this.pendingLine + text).split('\n')
    this.pendingLine = lines.pop() ?? ''
    try {
      for (const line of lines) this.line(line)
      if (this.pendingLine.length > MAX_LINE_CHARACTERS) {
        throw new UnsafeEntryError(
          `${this.pendingLine.slice(0, 200)}...`,
          'has a name or link target longer than any file system allows'
        )
      }
    } catch (error) {
      this.fail(error)
    }
  }

  private line(line: string): void {
    const member = parseListingLine(line)
    if (member === undefined) {
      throw new ActionError(`Could not read GNU tar's account of a member it unpacks: ${JSON.stringify(line)}`)
    }
    if (member.kind === 'special') this.specials.add(member.name.toString('latin1'))
    if (member.implied) return this.options.onMember(member)
    // The next member's headers take a block at least; the archive's end takes none.
    if (this.lastMember !== undefined)
      this.checkDataCovers(this.lastMember, member.block - (member.kind === 'end' ? 0 : 1))
    this.lastMember = member.kind === 'end' ? undefined : member
    this.options.onMember(member)
  }

  /**
   * A file's data in the archive, from its block to `dataEnd`, must hold the size GNU tar lists:
   * only a sparse member stores less, and GNU tar writes it with holes (or, its map lying about
   * the size, past it). A site has no sparse files: refused whatever the flavour (GNU, pax 0.0,
   * 0.1, 1.0), as GNU tar reads them all the same way.
   */
  private checkDataCovers(member: TarMember, dataEnd: number): void {
    if (member.kind !== 'file' || member.block + Math.ceil(member.size / TAR_BLOCK_BYTES) <= dataEnd) return
    throw new UnsafeEntryError(
      decodeSitePath(member.name),
      `is a sparse file (its data in the archive is shorter than the ${formatBytes(member.size)} GNU tar lists), ` +
        'which a site never holds'
    )
  }

  private fail(error: unknown): void {
    if (this.failure !== undefined) return
    this.failure = error
    if (this.exitCode === undefined) this.child.kill('SIGKILL')
    this.options.onFailure(error)
  }

  /** GNU tar failed on its own: its first message that is not about a skipped device or fifo says why. */
  private failureFromMessages(): unknown {
    for (const message of this.messages) {
      const about = memberOf(message)
      if (about !== undefined && this.specials.has(about.name.toString('latin1'))) continue
      if (NOT_A_FAILURE.test(message)) continue
      if (about !== undefined) {
        const name = decodeSitePath(about.name)
        if (/Member name contains '\.\.'/.test(about.text)) return new UnsafeEntryError(name, 'has a ".." path segment')
        const code = errnoOf(about.text)
        if (code !== undefined) {
          const error = Object.assign(new Error(about.text), { code })
          return writeFailure(error, `the archive entry ${JSON.stringify(name)} into ${this.options.into}`)
        }
      }
      if (/Unexpected EOF/.test(message)) return new CorruptArchiveError(`the tar data ends early${this.inside()}`)
      return new CorruptArchiveError(`GNU tar could not read it: ${plainMessage(message)}`)
    }
    // Only skipped members failed.
    if (this.exitCode === 2 && this.messages.length > 0) return undefined
    return new CorruptArchiveError(
      `GNU tar stopped with ${this.exitCode === null ? 'a signal' : `exit code ${this.exitCode}`}`
    )
  }

  private inside(): string {
    const member = this.lastMember
    if (member === undefined || member.kind !== 'file') return ''
    return `, inside the entry ${JSON.stringify(decodeSitePath(member.name))} (${formatBytes(member.size)} declared)`
  }
}

/** `tar: "name": text`: the member a message is about. */
function memberOf(message: string): { name: Buffer; text: string } | undefined {
  const prefix = /^[^:]*tar(?:\.exe)?: /.exec(message)
  if (prefix === null || message[prefix[0].length] !== '"') return undefined
  const name = readQuoted(message, prefix[0].length)
  if (name === undefined || !message.startsWith(': ', name.end)) return undefined
  return { name: name.bytes, text: message.slice(name.end + 2) }
}

/** What GNU tar says besides a failure: its summary, and warnings about what it read anyway. */
const NOT_A_FAILURE = new RegExp(
  [
    'Exiting with failure status',
    'Error is not recoverable',
    'Removing leading',
    'implausibly old time stamp',
    'in the future',
    'A lone zero block',
    'Ignoring unknown extended header keyword'
  ].join('|')
)

/** The C library's words for the errors a write meets, as GNU tar prints them (LC_ALL=C). */
const ERRNO_TEXTS: Array<[RegExp, string]> = [
  [/No space left on device/, 'ENOSPC'],
  [/Disk quota exceeded/, 'EDQUOT'],
  [/File name too long/, 'ENAMETOOLONG'],
  [/Permission denied/, 'EACCES'],
  [/Operation not permitted/, 'EPERM'],
  [/Read-only file system/, 'EROFS'],
  [/Too many open files/, 'EMFILE'],
  [/Input\/output error/, 'EIO'],
  [/Not a directory/, 'ENOTDIR'],
  [/Is a directory/, 'EISDIR'],
  [/Too many levels of symbolic links/, 'ELOOP']
]

function errnoOf(text: string): string | undefined {
  return ERRNO_TEXTS.find(([pattern]) => pattern.test(text))?.[1]
}

/** GNU tar's own words, without its name in front. */
function plainMessage(message: string): string {
  return message.replace(/^[^:]*tar(?:\.exe)?: /, '')
}
