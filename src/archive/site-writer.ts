/**
 * Writes archive entries into a fresh folder (the staging folder), whatever the archive format.
 *
 * Safety: every entry goes through EntryIndex first; symlinks are created only in `finish()`,
 * after every file is written and every link checked, so no write can pass through a link.
 * Files are created with O_EXCL (`wx`): an existing path (an earlier duplicate, a hardlink) is
 * unlinked and created anew, never written through.
 *
 * Speed: small files are written in one call each, several at a time, while the archive reader
 * goes on; each folder is created once (the promise is cached).
 */
import fs, { createWriteStream } from 'node:fs'
import { link, lstat, mkdir, open, symlink, unlink } from 'node:fs/promises'
import { join } from 'node:path'
import { pipeline } from 'node:stream/promises'
import type { Logger } from '../common/log.js'
import { EntryIndex, entryPath, fileMode } from './entry-safety.js'

/** Files up to this size are collected in memory by the readers and written in one call. */
export const SMALL_FILE_BYTES = 1024 * 1024
/** Writes in flight at once: enough to keep the libuv pool busy, few enough to bound memory. */
const DEFAULT_MAX_IN_FLIGHT = 16
const STREAM_HIGH_WATER_MARK = 1024 * 1024

export class SiteWriter {
  private readonly index = new EntryIndex()
  /** Folder path -> its creation; '' is the root, which exists already. */
  private readonly directories = new Map<string, Promise<void>>([['', Promise.resolve()]])
  /** Path -> the last write started on it, so a later duplicate waits for the earlier one. */
  private readonly lastWriteAt = new Map<string, Promise<void>>()
  private inFlight = 0
  private readonly slotWaiters: Array<() => void> = []
  private readonly idleWaiters: Array<() => void> = []
  private failure: unknown
  /** Counts for the summary line. */
  readonly counts = { files: 0, directories: 0, symlinks: 0, hardlinks: 0, skipped: 0 }

  constructor(
    /** Absolute path of the folder to fill; it must exist and be empty. */
    readonly root: string,
    private readonly log: Logger,
    /** Stops the extraction: nothing new starts, large-file streams end, the reason is the failure. */
    private readonly signal: AbortSignal,
    private readonly maxInFlight = DEFAULT_MAX_IN_FLIGHT
  ) {
    const stop = (): void => {
      this.failure ??= signal.reason
      for (const wake of this.slotWaiters.splice(0)) wake()
    }
    if (signal.aborted) stop()
    else signal.addEventListener('abort', stop, { once: true })
  }

  async directory(name: string): Promise<void> {
    this.throwIfFailed()
    const path = this.index.addDirectory(name)
    this.counts.directories++
    if (path !== '') await this.schedule([], () => this.ensureDirectory(path))
  }

  /** Schedules the write of `content` (the file's chunks, in order); returns once it has started. */
  async file(name: string, mode: number | undefined, content: Buffer[]): Promise<void> {
    this.throwIfFailed()
    const path = this.index.addFile(name)
    this.counts.files++
    await this.schedule([path], () => this.writeFile(path, content, fileMode(mode)))
  }

  /** For large files: resolves when `content` is consumed and written. */
  async fileFromStream(name: string, mode: number | undefined, content: AsyncIterable<Buffer>): Promise<void> {
    this.throwIfFailed()
    const path = this.index.addFile(name)
    this.counts.files++
    let written!: Promise<void>
    await this.schedule([path], () => (written = this.streamFile(path, content, fileMode(mode))))
    await written
  }

  async hardlink(name: string, target: string): Promise<void> {
    this.throwIfFailed()
    const { path, targetPath } = this.index.addHardlink(name, target)
    this.counts.hardlinks++
    // Waits for the target's write; a later rewrite of the target waits for the link.
    await this.schedule([path, targetPath], () => this.createHardlink(path, targetPath))
  }

  /** Recorded only: symlinks are created by finish(), once every file is on disk. */
  symlink(name: string, target: string): void {
    this.throwIfFailed()
    this.index.addSymlink(name, target)
    this.counts.symlinks++
  }

  /** Devices, fifos and unknown entry types are not extracted. */
  skip(name: string, kind: string): void {
    this.throwIfFailed()
    entryPath(name)
    this.counts.skipped++
    this.log.warning(`Skipped the archive entry ${JSON.stringify(name)}: ${kind} entries are not extracted`)
  }

  /** Waits for every write, checks the symlinks against the whole tree, then creates them. */
  async finish(): Promise<void> {
    await this.idle()
    this.throwIfFailed()
    for (const { path, target } of this.index.symlinksToCreate()) {
      await this.schedule([path], () => this.createSymlink(path, target))
    }
    await this.idle()
    this.throwIfFailed()
  }

  /** Resolves when nothing is in flight: after a stop, the folder can then be removed safely. */
  settled(): Promise<void> {
    return this.idle()
  }

  // --- scheduling -------------------------------------------------------------------------------

  /**
   * Starts `operation` once a slot is free and the earlier writes on `paths` are done. Resolves
   * when it has started; a failure is kept and thrown by the next call.
   */
  private async schedule(paths: string[], operation: () => Promise<void>): Promise<void> {
    while (this.inFlight >= this.maxInFlight && !this.signal.aborted) await new Promise<void>((wake) => this.slotWaiters.push(wake))
    this.throwIfFailed()
    this.inFlight++
    const earlier = paths.map((path) => this.lastWriteAt.get(path)).filter((p) => p !== undefined)
    const run = (earlier.length === 0 ? operation() : Promise.all(earlier).then(() => (this.signal.aborted ? undefined : operation())))
      .catch((error: unknown) => {
        this.failure ??= error
      })
      .finally(() => {
        for (const path of paths) if (this.lastWriteAt.get(path) === run) this.lastWriteAt.delete(path)
        this.inFlight--
        this.slotWaiters.shift()?.()
        if (this.inFlight === 0) for (const wake of this.idleWaiters.splice(0)) wake()
      })
    for (const path of paths) this.lastWriteAt.set(path, run)
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
  }

  private async streamFile(path: string, content: AsyncIterable<Buffer>, mode: number): Promise<void> {
    await this.parentReady(path)
    const target = this.absolute(path)
    const handle = await replacing(target, (file) => open(file, 'wx', mode))
    const output = createWriteStream(target, { fd: handle, highWaterMark: STREAM_HIGH_WATER_MARK })
    await pipeline(content, output, { signal: this.signal })
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
