/**
 * Writes archive entries into a fresh folder (the staging folder), whatever the archive format.
 *
 * Safety: every entry goes through EntryIndex first; symlinks are created only in `finish()`,
 * after every file is written and every link checked, so no write can pass through a link.
 * Files are created with O_EXCL (`wx`): an existing path (an earlier duplicate, a hardlink) is
 * unlinked and created anew, never written through.
 *
 * Bounds: entries are counted, and file bytes twice: as declared before the content is read, and
 * as written. Past `maxBytes` or `maxEntries` the unpacking fails with SiteLimitError.
 *
 * Speed: small files are written in one call each, several at a time, while the archive reader
 * goes on; each folder is created once (the promise is cached).
 */
import fs, { createWriteStream } from 'node:fs'
import { link, lstat, mkdir, open, symlink, unlink } from 'node:fs/promises'
import { join } from 'node:path'
import { pipeline } from 'node:stream/promises'
import { foldPath } from '../common/file-names.js'
import type { Logger } from '../common/log.js'
import { formatBytes } from '../common/units.js'
import { EntryIndex, entryPath, fileMode } from './entry-safety.js'
import { type EntryStream, entryChunks, readEntry } from './entry-streams.js'
import { SiteLimitError, writeFailure } from './errors.js'

/** Files up to this size are read into memory and written in one call. */
const SMALL_FILE_BYTES = 1024 * 1024
/** Writes in flight at once: enough to keep the libuv pool busy, few enough to bound memory. */
const DEFAULT_MAX_IN_FLIGHT = 16
const STREAM_HIGH_WATER_MARK = 1024 * 1024
/**
 * The most entries an archive may hold: far above any real site (each entry costs an inode and
 * some memory in the index), far below what would exhaust either.
 */
export const MAX_SITE_ENTRIES = 1_000_000
/**
 * What an archive's own bytes may hold beyond its files' content: per entry, its header, long
 * name records and padding (16 KiB is more than a 4 KiB name and link take); once, the end
 * blocks and what a reader is handed ahead of the entry it is on.
 */
const ARCHIVE_BYTES_PER_ENTRY = 16 * 1024
const ARCHIVE_BYTES_AHEAD = 8 * 1024 * 1024

/** What an archive may unpack to. */
export interface SiteLimits {
  /** Bytes of file content in all (`max-site-size`). */
  maxBytes: number
  /** Entries of every kind; MAX_SITE_ENTRIES unless a test asks for fewer. */
  maxEntries?: number
}

/**
 * Sees what an unpacking writes, and reviews the staged site before it replaces the old one
 * (the site check of a deployment).
 */
export interface SiteInspector {
  /** A file written from memory (every file up to 1 MiB), with its content. */
  observe(path: string, content: readonly Buffer[]): void
  /** The whole staged site, before it is swapped in; a throw keeps the previous site. */
  review(root: string): Promise<void>
}

export class SiteWriter {
  private readonly index = new EntryIndex()
  /** Folder path -> its creation; '' is the root, which exists already. */
  private readonly directories = new Map<string, Promise<void>>([['', Promise.resolve()]])
  /** Folded path -> the last write started on it, so a later duplicate waits for the earlier one. */
  private readonly lastWriteAt = new Map<string, Promise<void>>()
  private inFlight = 0
  private readonly slotWaiters: Array<() => void> = []
  private readonly idleWaiters: Array<() => void> = []
  private failure: unknown
  private readonly maxEntries: number
  private entries = 0
  /** File bytes the entries so far declare, and the bytes written to disk. */
  private declaredBytes = 0
  private writtenBytes = 0
  /** Counts for the summary line. */
  readonly counts = { files: 0, directories: 0, symlinks: 0, hardlinks: 0, skipped: 0 }

  /** Entries taken so far, of every kind. */
  get entryCount(): number {
    return this.entries
  }

  constructor(
    /** Absolute path of the folder to fill; it must exist and be empty. */
    readonly root: string,
    private readonly log: Logger,
    /** Stops the extraction: nothing new starts, large-file streams end, the reason is the failure. */
    private readonly signal: AbortSignal,
    private readonly limits: SiteLimits,
    private readonly inspector?: SiteInspector | undefined,
    private readonly maxInFlight = DEFAULT_MAX_IN_FLIGHT
  ) {
    this.maxEntries = limits.maxEntries ?? MAX_SITE_ENTRIES
    const stop = (): void => {
      this.failure ??= signal.reason
      for (const wake of this.slotWaiters.splice(0)) wake()
    }
    if (signal.aborted) stop()
    else signal.addEventListener('abort', stop, { once: true })
  }

  /** How many entries the whole archive declares, when it says so first (zip's central directory). */
  checkDeclared(entries: number): void {
    this.throwIfFailed()
    if (entries > this.maxEntries) throw this.tooManyEntries(`the archive declares ${entries.toLocaleString('en-US')}`)
  }

  /**
   * The archive's own bytes so far, as its reader consumes them (tar: headers, padding, skipped
   * data). They may pass the content its files declared only by a margin per entry: an archive
   * of padding or zero blocks would otherwise keep the unpacking busy without end.
   */
  checkArchiveBytes(bytes: number): void {
    const allowance = this.declaredBytes + (this.entries + 1) * ARCHIVE_BYTES_PER_ENTRY + ARCHIVE_BYTES_AHEAD
    if (bytes <= allowance) return
    throw new SiteLimitError(
      `The bundle's tar data runs past ${formatBytes(allowance)}, far more than the ${this.entries.toLocaleString('en-US')} ${this.entries === 1 ? 'entry' : 'entries'} so far hold ` +
        `(${formatBytes(this.declaredBytes)} of files): the rest is padding or data that is never unpacked. The previous site was left as it was.`
    )
  }

  async directory(name: string): Promise<void> {
    this.throwIfFailed()
    this.countEntry(name)
    const path = this.index.addDirectory(name)
    this.counts.directories++
    if (path !== '') await this.schedule(name, [], () => this.ensureDirectory(path))
  }

  /**
   * A regular file of `size` bytes (as the archive declares it) read from `content`. A small one
   * is read into memory and its write scheduled: resolves once the write has started. A large
   * one is streamed: resolves once it is written. Either way `content` is consumed.
   */
  async file(name: string, mode: number | undefined, size: number, content: EntryStream): Promise<void> {
    this.throwIfFailed()
    this.countEntry(name)
    const path = this.index.addFile(name)
    this.claimBytes(name, size)
    this.counts.files++
    if (size <= SMALL_FILE_BYTES) {
      const chunks = await readEntry(content, size)
      this.inspector?.observe(path, chunks)
      await this.schedule(name, [path], () => this.writeFile(path, chunks, fileMode(mode)))
      return
    }
    const chunks = entryChunks(content)
    let written!: Promise<void>
    await this.schedule(name, [path], () => (written = this.streamFile(name, path, chunks, fileMode(mode))))
    await written
  }

  async hardlink(name: string, target: string): Promise<void> {
    this.throwIfFailed()
    this.countEntry(name)
    const { path, targetPath } = this.index.addHardlink(name, target)
    this.counts.hardlinks++
    // Waits for the target's write; a later rewrite of the target waits for the link.
    await this.schedule(name, [path, targetPath], () => this.createHardlink(path, targetPath))
  }

  /** Recorded only: symlinks are created by finish(), once every file is on disk. */
  symlink(name: string, target: string): void {
    this.throwIfFailed()
    this.countEntry(name)
    this.index.addSymlink(name, target)
    this.counts.symlinks++
  }

  /** Devices, fifos and unknown entry types are not extracted. */
  skip(name: string, kind: string): void {
    this.throwIfFailed()
    this.countEntry(name)
    entryPath(name)
    this.counts.skipped++
    this.log.warning(`Skipped the archive entry ${JSON.stringify(name)}: ${kind} entries are not extracted`)
  }

  /** Waits for every write, checks the symlinks against the whole tree, then creates them. */
  async finish(): Promise<void> {
    await this.idle()
    this.throwIfFailed()
    for (const { path, target } of this.index.symlinksToCreate()) {
      await this.schedule(path, [path], () => this.createSymlink(path, target))
    }
    await this.idle()
    this.throwIfFailed()
  }

  /** Resolves when nothing is in flight: after a stop, the folder can then be removed safely. */
  settled(): Promise<void> {
    return this.idle()
  }

  // --- bounds -------------------------------------------------------------------------------------

  private countEntry(name: string): void {
    if (++this.entries > this.maxEntries) throw this.tooManyEntries(`the entry ${JSON.stringify(name)} is one more`)
  }

  /** Before a file's content is read: its declared size must fit. */
  private claimBytes(name: string, size: number): void {
    this.declaredBytes += size
    if (this.declaredBytes > this.limits.maxBytes) throw this.tooManyBytes(`the entry ${JSON.stringify(name)} (${formatBytes(size)}) takes it to ${formatBytes(this.declaredBytes)}`)
  }

  /** As bytes reach the disk: what is written must fit too, whatever was declared. */
  private countWritten(name: string, bytes: number): void {
    this.writtenBytes += bytes
    if (this.writtenBytes > this.limits.maxBytes) throw this.tooManyBytes(`the entry ${JSON.stringify(name)} took it past that while being written`)
  }

  private tooManyBytes(detail: string): SiteLimitError {
    return new SiteLimitError(
      `The bundle unpacks to more than ${formatBytes(this.limits.maxBytes)}, the bound set by \`max-site-size\`: ${detail}. ` +
        'Nothing was unpacked into the site folder, and the previous site was left as it was; raise `max-site-size` if the site really is this large.'
    )
  }

  private tooManyEntries(detail: string): SiteLimitError {
    return new SiteLimitError(
      `The bundle holds more than ${this.maxEntries.toLocaleString('en-US')} entries, the most the action unpacks: ${detail}. ` +
        'Nothing was unpacked into the site folder, and the previous site was left as it was.'
    )
  }

  // --- scheduling -------------------------------------------------------------------------------

  /**
   * Starts `operation` once a slot is free and the earlier writes on `paths` are done. Resolves
   * when it has started; a failure is kept and thrown by the next call.
   */
  private async schedule(entryName: string, paths: string[], operation: () => Promise<void>): Promise<void> {
    while (this.inFlight >= this.maxInFlight && !this.signal.aborted) await new Promise<void>((wake) => this.slotWaiters.push(wake))
    this.throwIfFailed()
    this.inFlight++
    // Folded: on a case-insensitive disk `A` and `a` are one file, and their writes must not race.
    const keys = paths.map(foldPath)
    const earlier = keys.map((key) => this.lastWriteAt.get(key)).filter((p) => p !== undefined)
    const run = (earlier.length === 0 ? operation() : Promise.all(earlier).then(() => (this.signal.aborted ? undefined : operation())))
      .catch((error: unknown) => {
        this.failure ??= error === this.signal.reason ? error : writeFailure(error, `the archive entry ${JSON.stringify(entryName)} into ${this.root}`, this.writtenBytes)
      })
      .finally(() => {
        for (const key of keys) if (this.lastWriteAt.get(key) === run) this.lastWriteAt.delete(key)
        this.inFlight--
        this.slotWaiters.shift()?.()
        if (this.inFlight === 0) for (const wake of this.idleWaiters.splice(0)) wake()
      })
    for (const key of keys) this.lastWriteAt.set(key, run)
  }

  private idle(): Promise<void> {
    return this.inFlight === 0 ? Promise.resolve() : new Promise((wake) => this.idleWaiters.push(wake))
  }

  private throwIfFailed(): void {
    if (this.failure !== undefined) throw this.failure
  }

  private absolute(path: string): string {
    return join(this.root, path)
  }

  // --- file system work ---------------------------------------------------------------------------

  /** Creates the folder and its parents, each exactly once per extraction. */
  private ensureDirectory(path: string): Promise<void> {
    let created = this.directories.get(path)
    if (created === undefined) {
      const slash = path.lastIndexOf('/')
      const parent = slash < 0 ? '' : path.slice(0, slash)
      created = this.ensureDirectory(parent).then(() => this.mkdirOnce(path))
      this.directories.set(path, created)
    }
    return created
  }

  private async mkdirOnce(path: string): Promise<void> {
    this.signal.throwIfAborted()
    try {
      await mkdir(this.absolute(path))
    } catch (error) {
      if (errorCode(error) !== 'EEXIST') throw error
    }
  }

  private parentReady(path: string): Promise<void> {
    const slash = path.lastIndexOf('/')
    return this.ensureDirectory(slash < 0 ? '' : path.slice(0, slash))
  }

  private async writeFile(path: string, content: Buffer[], mode: number): Promise<void> {
    await this.parentReady(path)
    await replacing(this.absolute(path), (target) => writeNewFile(target, content, mode))
    this.countWritten(path, content.reduce((sum, chunk) => sum + chunk.length, 0))
  }

  private async streamFile(name: string, path: string, content: AsyncIterable<Buffer>, mode: number): Promise<void> {
    await this.parentReady(path)
    const target = this.absolute(path)
    const handle = await replacing(target, (file) => open(file, 'wx', mode))
    const output = createWriteStream(target, { fd: handle, highWaterMark: STREAM_HIGH_WATER_MARK })
    const counted = async function* (this: SiteWriter): AsyncGenerator<Buffer> {
      for await (const chunk of content) {
        this.countWritten(name, chunk.length)
        yield chunk
      }
    }
    await pipeline(counted.call(this), output, { signal: this.signal })
  }

  private async createHardlink(path: string, targetPath: string): Promise<void> {
    await this.parentReady(path)
    const existing = this.absolute(targetPath)
    await replacing(this.absolute(path), (target) => link(existing, target))
  }

  private async createSymlink(path: string, linkTarget: string): Promise<void> {
    await this.parentReady(path)
    // EntryIndex never lets a symlink replace a folder; an earlier file here is unlinked.
    await replacing(this.absolute(path), (target) => symlink(linkTarget, target))
  }
}

/**
 * Runs an exclusive create; when the path exists (a duplicate entry, a hardlink), removes it and
 * creates it anew instead of writing into whatever is there. Folders are never removed here.
 */
async function replacing<T>(target: string, create: (target: string) => Promise<T>): Promise<T> {
  try {
    return await create(target)
  } catch (error) {
    if (errorCode(error) !== 'EEXIST') throw error
  }
  const existing = await lstat(target)
  if (existing.isDirectory()) throw new Error(`Cannot replace the folder ${target} with a file`)
  await unlink(target)
  return create(target)
}

/**
 * open(O_EXCL) + writev + close with plain callbacks: for thousands of small files this costs a
 * fraction of fs/promises' writeFile (no FileHandle objects), and the chunks need no joining.
 */
function writeNewFile(target: string, chunks: Buffer[], mode: number): Promise<void> {
  return new Promise((resolve, reject) => {
    fs.open(target, 'wx', mode, (openError, fd) => {
      if (openError) return reject(openError)
      const finish = (error: Error | null): void => fs.close(fd, (closeError) => (error ?? closeError ? reject(error ?? closeError) : resolve()))
      const writeRest = (rest: Buffer[]): void => {
        if (rest.length === 0) return finish(null)
        fs.writev(fd, rest, null, (writeError, written) => (writeError ? finish(writeError) : writeRest(unwritten(rest, written))))
      }
      writeRest(chunks.filter((chunk) => chunk.length > 0))
    })
  })
}

/** What a short writev left: the chunks after the first `written` bytes. */
export function unwritten(chunks: Buffer[], written: number): Buffer[] {
  let index = 0
  while (index < chunks.length && written >= chunks[index]!.length) written -= chunks[index++]!.length
  if (index === chunks.length) return []
  return [chunks[index]!.subarray(written), ...chunks.slice(index + 1)]
}

function errorCode(error: unknown): string | undefined {
  return (error as NodeJS.ErrnoException | undefined)?.code
}
