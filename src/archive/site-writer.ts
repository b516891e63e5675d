/**
 * Writes archive entries into a fresh folder (the staging folder), whatever the archive format.
 *
 * Safety: every entry goes through EntryIndex first; symlinks are created only in `finish()`,
 * after every file is written and every link checked, so no write can pass through a link.
 * Files are created with O_EXCL: an existing path (an earlier duplicate, a hardlink) is unlinked
 * and created anew, never written through.
 *
 * Bounds: entries are counted, and file bytes twice: as declared before the content is read, and
 * as written. Past `maxBytes` or `maxEntries` the unpacking fails with SiteLimitError.
 *
 * Speed: the writes are made by threads of their own (disk-threads.ts), with plain blocking calls,
 * while the archive reader goes on; the bytes handed to them are bounded, so the reader waits when
 * the disk falls behind.
 */
import zlib from 'node:zlib'
import { collectMainThreadGarbage } from '../common/buffer-garbage.js'
import type { Logger } from '../common/log.js'
import { UMASK } from '../common/umask.js'
import { formatBytes } from '../common/units.js'
import { DiskThreads, type StreamedFile, failedEntry } from './disk-threads.js'
import { EntryIndex, MAX_SITE_ENTRIES, entryPath, fileMode } from './entry-safety.js'
import { CorruptArchiveError, SiteLimitError, writeFailure } from './errors.js'
import { checkedContent } from './writer-thread.js'

/** Files up to this size are read into memory and written in one call. */
export const SMALL_FILE_BYTES = 1024 * 1024
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
  /**
   * The source text of a function that makes an observer of the files written from memory (every
   * file up to 1 MiB): `{ observe(path, content: Buffer): void; result(files: string[]): unknown }`.
   * It runs on the writer threads, each with an observer of its own, while the content is in
   * memory there; so it must be self-contained (nothing from outside its body but globals).
   * result() is asked once every file is written, with the site paths of all of them (so that
   * what the threads saw can be judged there); what it returns must survive a structured clone.
   */
  readonly threadObserver?: string | undefined
  /**
   * The same observer, made on the main thread, for the files whose content is there as it will
   * be written (see SiteWriter's `observeHereUpTo`).
   */
  observer?(): FileObserver
  /**
   * Whether the observers look at a file at this path at all (both sides alike). A file they would
   * not is shown to neither, so a thread shown none has nothing to judge and is not sent the site's
   * whole list at the end.
   */
  sees?(path: string): boolean
  /**
   * Called once the unpacking is complete: every file and link it created, as site paths, what
   * each thread's observer found, and which of the files no observer saw (large ones, links).
   */
  unpacked?(site: { files: ReadonlySet<string>; observed: unknown[]; unobserved: ReadonlySet<string> }): void
  /** The whole staged site, before it is swapped in; a throw keeps the previous site. */
  review(root: string): Promise<void>
}

/** Sees each file written from memory (up to SMALL_FILE_BYTES), and says what it found once every file is written. */
export interface FileObserver {
  observe(path: string, content: Buffer): void
  /** `files`: the site paths of every file created; the result must survive a structured clone. */
  result(files: string[]): unknown
}

/** How a file's bytes are stored; `crc`: the CRC-32 of its content, when the archive gives one (zip). */
export type StoredContent = ({ deflated: false } | { deflated: true; size: number }) & { crc?: number | undefined }

export class SiteWriter {
  private readonly index: EntryIndex
  private readonly disk: DiskThreads
  private failure: unknown
  private readonly maxEntries: number
  private entries = 0
  /** File bytes the entries so far declare, and the bytes handed to the disk. */
  private declaredBytes = 0
  private writtenBytes = 0
  /** Site paths of the files and links created (a later duplicate replaces the earlier one), and those not shown to an observer. */
  private readonly created = new Set<string>()
  private readonly unobserved = new Set<string>()
  /** The inspector's observer on the writer threads sees the files written from memory ... */
  private readonly observingOnThreads: boolean
  /**
   * ... but those up to `observeHereUpTo` bytes this one sees here: at once, or when deflated,
   * once their thread has inflated and written them.
   */
  private readonly observer: FileObserver | undefined
  private readonly observeHereUpTo: number
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
    options: {
      threads?: number | undefined
      /**
       * Files up to this size are shown to the inspector's observer here rather than on a writer
       * thread (0: none; deflated ones once their thread has inflated and written them, which
       * sends them back). Where to look at a file is a question of which thread has time to
       * spare: see ArchiveReceiver.newWriter.
       */
      observeHereUpTo?: number | undefined
    } = {}
  ) {
    this.maxEntries = limits.maxEntries ?? MAX_SITE_ENTRIES
    this.index = new EntryIndex({ paths: this.maxEntries })
    this.observeHereUpTo = options.observeHereUpTo ?? 0
    this.observer = this.observeHereUpTo > 0 ? inspector?.observer?.() : undefined
    // Every file in memory is seen here when the bound covers them all: the threads need no observer.
    this.observingOnThreads =
      inspector?.threadObserver !== undefined &&
      !(this.observer !== undefined && this.observeHereUpTo >= SMALL_FILE_BYTES)
    const observer = this.observer
    this.disk = new DiskThreads(root, {
      threads: options.threads,
      observer: this.observingOnThreads ? inspector?.threadObserver : undefined,
      onInflated: observer === undefined ? undefined : (path, content) => observer.observe(path, content),
      onFailure: (error) => {
        this.failure ??=
          error instanceof CorruptArchiveError
            ? error
            : writeFailure(
                error,
                `the archive entry ${JSON.stringify(failedEntry(error))} into ${root}`,
                this.writtenBytes
              )
      }
    })
    const stop = (): void => {
      this.failure ??= signal.reason
      this.disk.stop()
    }
    if (signal.aborted) stop()
    else signal.addEventListener('abort', stop, { once: true })
  }

  /** How many entries the whole archive declares, when it says so first (zip's central directory). */
  checkDeclared(entries: number, bytes?: number): void {
    this.throwIfFailed()
    if (entries > this.maxEntries) throw this.tooManyEntries(`the archive declares ${entries.toLocaleString('en-US')}`)
    if (bytes !== undefined && bytes > this.limits.maxBytes)
      throw this.tooManyBytes(`the archive's entries declare ${formatBytes(bytes)} in all`)
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

  /** Throws at once when the entry is refused; a returned promise asks the caller to wait (the threads are behind). */
  directory(name: string): Promise<void> | undefined {
    this.throwIfFailed()
    this.countEntry(name)
    const path = this.index.addDirectory(name)
    this.counts.directories++
    if (path !== '') this.disk.directory(path, name)
    return this.room()
  }

  /**
   * Which observer sees a file in memory of `size` bytes: the one here up to `observeHereUpTo`
   * (none when it would ignore the path), else the threads' when they have one, unless they are
   * behind: then this thread would only wait for them, and a file held here as it will be written
   * (`asWritten`: not deflated) is seen here at no cost to the unpacking. On a slow disk that
   * moves most of a tar's pages here; on a fast one, where the reader is what the unpacking waits
   * on, the threads keep them.
   */
  private observedWhere(path: string, size: number, asWritten: boolean): 'here' | 'thread' | false {
    if (this.inspector?.sees?.(path) === false) return false
    const here = size <= this.observeHereUpTo || (asWritten && this.observingOnThreads && this.disk.behind)
    if (this.observer !== undefined && here) return 'here'
    return this.observingOnThreads ? 'thread' : false
  }

  /**
   * A small file whose content is in memory (up to SMALL_FILE_BYTES either way): as it is, or
   * deflated, to be inflated to exactly `stored.size` bytes (more or fewer is a corrupt archive).
   * `size` is what the archive declares the file holds. The chunks are copied before this
   * returns; a returned promise asks the caller to wait.
   *
   * Who inflates: the writer thread, unless it is behind; then this thread, which would only wait
   * for it, does, and hands the thread the plain content to write (a zip of many small files waits
   * on the one thread's file creations and inflating both).
   */
  fileInMemory(
    name: string,
    mode: number | undefined,
    size: number,
    chunks: readonly Buffer[],
    stored: StoredContent
  ): Promise<void> | undefined {
    const path = this.claimFile(name, size)
    if (stored.deflated && !this.disk.behind) {
      this.countWritten(name, stored.size)
      this.disk.deflated(
        path,
        name,
        fileMode(mode),
        chunks,
        total(chunks),
        stored.size,
        this.observedWhere(path, stored.size, false),
        stored.crc
      )
    } else {
      const content = stored.deflated ? [this.inflate(name, chunks, stored.size, stored.crc)] : chunks
      const bytes = total(content)
      this.countWritten(name, bytes)
      const where = this.observedWhere(path, bytes, true)
      if (where === 'here')
        this.observer?.observe(path, content.length === 1 ? (content[0] as Buffer) : Buffer.concat(content, bytes))
      // (Inflated here, it was checked here.)
      this.disk.file(path, name, fileMode(mode), content, bytes, where === 'thread', stored.deflated ? -1 : stored.crc)
    }
    this.unobserved.delete(path)
    return this.room()
  }

  /** A deflated file's content, inflated on this thread to exactly `size` bytes and checked against `crc`. */
  private inflate(name: string, chunks: readonly Buffer[], size: number, crc: number | undefined): Buffer {
    const deflated = chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, total(chunks))
    let content: Buffer
    try {
      content = checkedContent(zlib, deflated, size, crc ?? -1)
    } catch (error) {
      throw new CorruptArchiveError(
        `the entry ${JSON.stringify(name)} ${error instanceof Error ? error.message : String(error)}`
      )
    }
    // Garbage once the thread's arena holds a copy (see bufferCollector).
    collectMainThreadGarbage(size)
    return content
  }

  /**
   * A large file handed over in pieces as they come (they are counted against the bounds as they
   * are handed over); `end()` once the last is in.
   */
  largeFile(
    name: string,
    mode: number | undefined,
    size: number
  ): { write(chunk: Buffer): Promise<void> | undefined; end(): void } {
    const path = this.claimFile(name, size)
    this.unobserved.add(path)
    const file: StreamedFile = this.disk.open(path, name, fileMode(mode))
    return {
      write: (chunk) => {
        this.throwIfFailed()
        this.countWritten(name, chunk.length)
        this.disk.write(file, chunk)
        return this.disk.room()
      },
      end: () => {
        this.throwIfFailed()
        this.disk.close(file)
      }
    }
  }

  /**
   * Sets the mode of a file written earlier (an archive that names it only after the content),
   * masked as creating the file with that mode would have masked it.
   */
  setMode(name: string, mode: number | undefined): void {
    this.throwIfFailed()
    const path = this.index.fileAt(name)
    if (path === undefined) throw new Error(`setMode: the entry ${JSON.stringify(name)} is not a file written earlier`)
    this.disk.chmod(path, name, fileMode(mode) & ~UMASK)
  }

  async hardlink(name: string, target: string): Promise<void> {
    this.throwIfFailed()
    this.countEntry(name)
    const { path, targetPath, replaces } = this.index.addHardlink(name, target)
    this.counts.hardlinks++
    if (replaces !== undefined) this.remove(replaces, name)
    // The target's write may be on another thread: all of them finish first, and the link is
    // made before anything after it (a later rewrite of the target must not show through it).
    await this.disk.idle()
    this.throwIfFailed()
    this.disk.hardlink(path, name, targetPath)
    this.created.add(path)
    this.unobserved.add(path)
    await this.disk.idle()
    this.throwIfFailed()
  }

  /**
   * Recorded only: symlinks are created by finish(), once every file is on disk. A file the
   * symlink replaces is removed now, and a returned promise waits for that: a later folder there
   * (made by any thread) must not find it in its way.
   */
  symlink(name: string, target: string): Promise<void> | undefined {
    this.throwIfFailed()
    this.countEntry(name)
    const { replaces } = this.index.addSymlink(name, target)
    this.counts.symlinks++
    if (replaces === undefined) return undefined
    this.remove(replaces, name)
    return this.disk.idle().then(() => this.throwIfFailed())
  }

  /** Devices, fifos and unknown entry types are not extracted. */
  skip(name: string, kind: string): void {
    this.throwIfFailed()
    this.countEntry(name)
    entryPath(name)
    this.counts.skipped++
    this.log.warning(`Skipped the archive entry ${JSON.stringify(name)}: ${kind} entries are not extracted`)
  }

  /**
   * Waits for every write, checks the symlinks against the whole tree, then creates them; tells
   * the inspector what was created, and ends the writer threads.
   */
  async finish(): Promise<void> {
    try {
      await this.disk.idle()
      this.throwIfFailed()
      for (const { path, target } of this.index.symlinksToCreate()) {
        this.disk.symlink(path, path, target)
        this.created.add(path)
        this.unobserved.add(path)
      }
      await this.disk.idle()
      this.throwIfFailed()
      // What the observers found, judged against every file created.
      const observed: unknown[] = []
      if (this.observingOnThreads || this.observer !== undefined) {
        const files = [...this.created]
        // The threads judge what they saw while this one judges its own: on a site of 30,000
        // files each takes 20-25 ms, at the very end, when nothing else is left to do.
        const onThreads = this.observingOnThreads ? this.disk.collect(files) : undefined
        const here = this.observer?.result(files)
        if (onThreads !== undefined) observed.push(...(await onThreads))
        if (this.observer !== undefined) observed.push(here)
      }
      this.throwIfFailed()
      // The threads' memory goes before the inspector takes in what they found.
      await this.disk.terminate()
      this.inspector?.unpacked?.({ files: this.created, observed, unobserved: this.unobserved })
    } finally {
      await this.disk.terminate()
    }
  }

  /** Stops whatever is under way, then as settled(): for a writer whose work is abandoned. */
  async stopAndSettle(): Promise<void> {
    this.disk.stop()
    await this.disk.idle()
    await this.disk.terminate()
  }

  /** Resolves when nothing is in flight and the threads have ended: after a stop, the folder can then be removed safely. */
  async settled(): Promise<void> {
    if (this.signal.aborted || this.failure !== undefined) this.disk.stop()
    await this.disk.idle()
    await this.disk.terminate()
  }

  // --- bounds -------------------------------------------------------------------------------------

  /** Checks a file entry and its declared size; returns its path. */
  private claimFile(name: string, size: number): string {
    this.throwIfFailed()
    this.countEntry(name)
    const { path, replaces } = this.index.addFile(name)
    this.claimBytes(name, size)
    this.counts.files++
    if (replaces !== undefined) this.remove(replaces, name)
    this.created.add(path)
    return path
  }

  /** An earlier file that the entry `name`, a twin of it in case or Unicode form, replaces. */
  private remove(path: string, name: string): void {
    this.created.delete(path)
    this.unobserved.delete(path)
    this.disk.remove(path, name)
  }

  private countEntry(name: string): void {
    if (++this.entries > this.maxEntries) throw this.tooManyEntries(`the entry ${JSON.stringify(name)} is one more`)
  }

  /** Before a file's content is read: its declared size must fit. */
  private claimBytes(name: string, size: number): void {
    this.declaredBytes += size
    if (this.declaredBytes > this.limits.maxBytes)
      throw this.tooManyBytes(
        `the entry ${JSON.stringify(name)} (${formatBytes(size)}) takes it to ${formatBytes(this.declaredBytes)}`
      )
  }

  /** As bytes go to the disk: what is written must fit too, whatever was declared. */
  private countWritten(name: string, bytes: number): void {
    this.writtenBytes += bytes
    if (this.writtenBytes > this.limits.maxBytes)
      throw this.tooManyBytes(`the entry ${JSON.stringify(name)} took it past that while being written`)
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

  /** Undefined when the threads have room; else resolves when they do (rejects on a failure meanwhile). */
  private room(): Promise<void> | undefined {
    const wait = this.disk.room()
    return wait?.then(() => this.throwIfFailed())
  }

  private throwIfFailed(): void {
    if (this.failure !== undefined) throw this.failure
  }
}

function total(chunks: readonly Buffer[]): number {
  let bytes = 0
  for (const chunk of chunks) bytes += chunk.length
  return bytes
}
