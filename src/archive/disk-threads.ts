/**
 * The file system work of one unpacking, done by threads of its own with plain blocking calls.
 *
 * Why threads: a site of many small files costs three calls per file (an exclusive open, a write,
 * a close). Made through node's asynchronous API, each call is a round trip through the libuv pool
 * and back to the main thread, and those round trips, not the bytes, were most of the time. A
 * thread that makes the calls one after another needs no round trips, and the main thread is left
 * with reading the archive. Several threads work side by side on different folders: each folder
 * belongs to one thread (by its folded path), so two creations in one folder never contend, and
 * everything written at one path happens in archive order (a later duplicate wins, as it must).
 *
 * What crosses to the threads: batches of operations, with the bytes of each batch copied once
 * into an arena of its own that is moved, not copied, to the thread. The bytes queued are bounded,
 * and the reader waits (room()) while they are past the bound: memory stays flat whatever the
 * archive's size.
 *
 * Safety stays with the caller (SiteWriter): every entry is checked before it is handed here, and
 * nothing here decides what may be written. Operations that must see the writes of every thread
 * before them (hardlinks, symlinks) wait for idle() first. A thread never writes through what is
 * there: files are created exclusively, and an existing file is unlinked first, a folder never.
 */
import { Worker } from 'node:worker_threads'
import { ActionError, errorMessage } from '../common/errors.js'
import { foldPath } from '../common/file-names.js'
import { parentOf } from './entry-safety.js'
import { CorruptArchiveError } from './errors.js'
import {
  CHMOD,
  CLOSE,
  DIRECTORY,
  FILE,
  HARDLINK,
  INFLATE,
  type InflatedFiles,
  OPEN,
  type Operation,
  REMOVE,
  type Reply,
  SYMLINK,
  type ThreadFailure,
  WRITE,
  threadSource
} from './writer-thread.js'

/** A batch's bytes go into one arena of at least this size. */
const ARENA_BYTES = 256 * 1024
/** Arenas kept for reuse once their batch is done. */
const SPARE_ARENAS = 4
/** A batch is sent at this many operations even when its arena has room. */
const BATCH_OPERATIONS = 512
/** Bytes handed over but not yet written, across threads, beyond which room() waits. */
const QUEUED_BYTES = 2 * 1024 * 1024
const QUEUED_OPERATIONS = 8192
/**
 * A thread's heap holds its batch's operations and (when observing) what its observer keeps; its
 * young generation, little more than a batch's worth: 2 MiB instead of 4 took the 30,000-file
 * zip's peak RSS from 114-121 to 111-113 MiB (5 alternating runs), its time within the noise.
 */
const THREAD_LIMITS = { maxYoungGenerationSizeMb: 2, maxOldGenerationSizeMb: 256, stackSizeMb: 4 }

class Shard {
  readonly worker: Worker
  ops: Operation[] = []
  arena: Buffer | undefined
  used = 0
  /** Batches sent and not yet answered. */
  pending = 0
  /** Bytes and operations of each batch in flight, in order. */
  readonly inFlight: Array<{ bytes: number; ops: number }> = []
  /** Whether any file was shown to the thread's observer: one that saw none has nothing to say. */
  observed = false
  /** Resolvers of collect messages, in order. */
  readonly collecting: Array<(observed: unknown) => void> = []

  constructor(source: string, workerData: unknown) {
    this.worker = new Worker(source, {
      eval: true,
      workerData,
      resourceLimits: THREAD_LIMITS,
      stdout: false,
      stderr: false
    })
    // An idle thread never keeps the process alive; one with work does (see send()).
    this.worker.unref()
  }
}

export interface DiskThreadsOptions {
  /** Threads to use (1 unless said). */
  threads?: number | undefined
  /**
   * The source of a function, run on each thread, that makes an observer of the files written
   * from memory (`observe(path, content)`) and says what it found (`result()`, structured-cloneable).
   */
  observer?: string | undefined
  /**
   * Told of the first failure of any thread: an operation's (its error says which entry, see
   * failedEntry()), or a thread's end while it was needed (an ActionError, about no entry).
   */
  onFailure: (error: Error) => void
  /** Shown each file inflated with `observe: 'here'`, once its thread has written it. */
  onInflated?: ((path: string, content: Buffer) => void) | undefined
}

/** A large file being written in pieces: which thread, and its id there. */
export interface StreamedFile {
  readonly shard: number
  readonly id: number
  readonly name: string
}

export class DiskThreads {
  private readonly shards: Shard[]
  private readonly stopFlag = new Int32Array(new SharedArrayBuffer(4))
  private readonly shardOfFolder = new Map<string, number>()
  private readonly spareArenas: ArrayBuffer[] = []
  private queuedBytes = 0
  private queuedOps = 0
  private flushScheduled = false
  private roomWaiters: Array<() => void> = []
  private idleWaiters: Array<() => void> = []
  private failed = false
  private terminated = false
  /** The threads' end, once terminate() has been called (a thread's death calls it too). */
  private ending: Promise<void> | undefined
  private nextStream = 0

  /** Failed or terminated: nothing more is handed to the threads (what push() and send() check). */
  private get closed(): boolean {
    return this.failed || this.terminated
  }

  constructor(
    root: string,
    private readonly options: DiskThreadsOptions
  ) {
    const count = Math.max(1, Math.min(options.threads ?? 1, 16))
    const source = threadSource(options.observer)
    this.shards = Array.from({ length: count }, () => new Shard(source, { root, stop: this.stopFlag }))
    for (const [index, shard] of this.shards.entries()) {
      shard.worker.on('message', (reply: Reply) => this.answered(index, reply))
      // A thread that dies (out of memory, an uncaught error, process.exit, ended from outside)
      // ends the unpacking: 'error' comes first when there is an error, then 'exit'.
      shard.worker.on('error', (error) => this.died(index, error, undefined))
      shard.worker.on('exit', (code) => this.died(index, undefined, code))
    }
  }

  /** Stops the threads' work at once: what they have not started is skipped. */
  stop(): void {
    Atomics.store(this.stopFlag, 0, 1)
  }

  directory(path: string, name: string): void {
    this.push(this.shardOf(path), [DIRECTORY, path, name === path ? null : name])
  }

  /** A file whose whole content is in `chunks`; `observe`: shown to the thread's observer. */
  file(
    path: string,
    name: string,
    mode: number,
    chunks: readonly Buffer[],
    size: number,
    observe: boolean,
    crc = -1
  ): void {
    const shard = this.shardOf(parentOf(path))
    const [start, end] = this.copy(shard, chunks, size)
    if (observe) (this.shards[shard] as Shard).observed = true
    this.push(shard, [FILE, path, name === path ? null : name, mode, start, end, observe ? 1 : 0, crc])
  }

  /**
   * A file whose content is `chunks` deflated (raw deflate): it must inflate to exactly `size`
   * bytes. `observe`: shown to the thread's observer, or once inflated and written, to onInflated
   * ('here'), or to neither.
   */
  deflated(
    path: string,
    name: string,
    mode: number,
    chunks: readonly Buffer[],
    compressedSize: number,
    size: number,
    observe: 'thread' | 'here' | false,
    crc = -1
  ): void {
    const shard = this.shardOf(parentOf(path))
    const [start, end] = this.copy(shard, chunks, compressedSize)
    if (observe === 'thread') (this.shards[shard] as Shard).observed = true
    this.push(shard, [
      INFLATE,
      path,
      name === path ? null : name,
      mode,
      start,
      end,
      size,
      observe === 'thread' ? 1 : observe === 'here' ? 2 : 0,
      crc
    ])
  }

  open(path: string, name: string, mode: number): StreamedFile {
    const shard = this.shardOf(parentOf(path))
    const id = this.nextStream++
    this.push(shard, [OPEN, path, name === path ? null : name, mode, id])
    return { shard, id, name }
  }

  write(file: StreamedFile, chunk: Buffer): void {
    if (chunk.length === 0) return
    const [start, end] = this.copy(file.shard, [chunk], chunk.length)
    this.push(file.shard, [WRITE, file.id, file.name, start, end])
  }

  close(file: StreamedFile): void {
    this.push(file.shard, [CLOSE, file.id, file.name])
  }

  /** Call after idle(): the target's writes on every thread must be done. */
  hardlink(path: string, name: string, targetPath: string): void {
    this.push(this.shardOf(parentOf(path)), [HARDLINK, path, name, targetPath])
  }

  /** Call after idle(), once every file is written. */
  symlink(path: string, name: string, target: string): void {
    this.push(this.shardOf(parentOf(path)), [SYMLINK, path, name, target])
  }

  /** Removes a file written earlier (on its thread, so after its write); none there is no failure. */
  remove(path: string, name: string): void {
    this.push(this.shardOf(parentOf(path)), [REMOVE, path, name])
  }

  /** Sets the mode of a file written earlier (on its thread, so after its write). */
  chmod(path: string, name: string, mode: number): void {
    this.push(this.shardOf(parentOf(path)), [CHMOD, path, name, mode])
  }

  /** Undefined when more may be handed over now; else resolves once the threads have caught up. */
  room(): Promise<void> | undefined {
    if (this.hasRoom || this.closed) return undefined
    this.flush()
    return new Promise((resolve) => this.roomWaiters.push(resolve))
  }

  /**
   * Sends everything handed over; resolves once the threads have done it, or at once when they
   * have failed (see onFailure) or been terminated: what is still under way is then abandoned.
   */
  idle(): Promise<void> {
    this.flush()
    if (this.closed || this.busy === 0) return Promise.resolve()
    return new Promise((resolve) => this.idleWaiters.push(resolve))
  }

  /**
   * What the observers of the threads that were shown files found; `files` is handed to them (a
   * thread that saw no file is not sent the site's whole list). Asked once idle() has resolved:
   * the threads are sent the list at once, so they judge while the caller does other work.
   */
  collect(files: string[]): Promise<unknown[]> {
    // After a failure there is nothing to judge (and a dead thread would never answer).
    if (this.closed) return Promise.resolve([])
    if (this.busy !== 0) throw new Error('collect() before the threads are idle')
    return Promise.all(
      this.shards
        .filter((shard) => shard.observed)
        .map(
          (shard) =>
            new Promise<unknown>((resolve) => {
              shard.collecting.push(resolve)
              shard.worker.ref()
              shard.worker.postMessage({ collect: files })
            })
        )
    )
  }

  /**
   * Ends the threads (after idle(), or after stop() when the work is abandoned); resolves once
   * every one has ended, however often it is called: nothing is written after that.
   */
  terminate(): Promise<void> {
    if (this.ending === undefined) {
      this.terminated = true
      this.wakeAll()
      this.ending = Promise.all(this.shards.map((shard) => shard.worker.terminate())).then(noop)
    }
    return this.ending
  }

  /**
   * Whether the threads are what the unpacking waits on: more than half the queue's bound is
   * handed over and not yet written. The reader then has time to spare (it will wait in room()).
   */
  get behind(): boolean {
    return this.queuedBytes > QUEUED_BYTES / 2 || this.queuedOps > QUEUED_OPERATIONS / 2
  }

  private get hasRoom(): boolean {
    return this.queuedBytes <= QUEUED_BYTES && this.queuedOps <= QUEUED_OPERATIONS
  }

  private get busy(): number {
    return this.shards.reduce((sum, shard) => sum + shard.pending + shard.collecting.length, 0)
  }

  /** The thread of a folder (a site path): by its folded path, so that case twins share one. */
  private shardOf(folder: string): number {
    if (this.shards.length === 1) return 0
    let shard = this.shardOfFolder.get(folder)
    if (shard === undefined) {
      const key = foldPath(folder)
      let hash = 0
      for (let i = 0; i < key.length; i++) hash = Math.imul(hash ^ key.charCodeAt(i), 0x01000193)
      shard = (hash >>> 0) % this.shards.length
      this.shardOfFolder.set(folder, shard)
    }
    return shard
  }

  /** Copies `chunks` (`size` bytes in all) into the shard's arena; returns where they are. */
  private copy(index: number, chunks: readonly Buffer[], size: number): [number, number] {
    const shard = this.shards[index] as Shard
    if (shard.arena !== undefined && shard.arena.length - shard.used < size) this.send(index)
    if (shard.arena === undefined) {
      const spare = size <= ARENA_BYTES ? this.spareArenas.pop() : undefined
      shard.arena = spare === undefined ? Buffer.allocUnsafeSlow(Math.max(ARENA_BYTES, size)) : Buffer.from(spare)
    }
    const start = shard.used
    for (const chunk of chunks) shard.used += chunk.copy(shard.arena, shard.used)
    return [start, shard.used]
  }

  private push(index: number, op: Operation): void {
    if (this.closed) return
    const shard = this.shards[index] as Shard
    shard.ops.push(op)
    this.queuedOps++
    if (shard.ops.length >= BATCH_OPERATIONS || (shard.arena !== undefined && shard.used >= shard.arena.length))
      this.send(index)
    else if (!this.flushScheduled) {
      this.flushScheduled = true
      setImmediate(() => this.flush())
    }
  }

  private flush(): void {
    this.flushScheduled = false
    for (let index = 0; index < this.shards.length; index++)
      if ((this.shards[index] as Shard).ops.length > 0) this.send(index)
  }

  private send(index: number): void {
    const shard = this.shards[index] as Shard
    if (shard.ops.length === 0 || this.closed) return
    const bytes = shard.used
    const arena = shard.arena === undefined ? undefined : (shard.arena.buffer as ArrayBuffer)
    const ops = shard.ops
    shard.ops = []
    shard.arena = undefined
    shard.used = 0
    shard.pending++
    shard.inFlight.push({ bytes, ops: ops.length })
    this.queuedBytes += bytes
    shard.worker.ref()
    shard.worker.postMessage({ ops, arena }, arena === undefined ? [] : [arena])
  }

  private answered(index: number, reply: Reply): void {
    // Ended: nothing waits for a reply any more (and a dead thread's batches were dropped).
    if (this.terminated) return
    const shard = this.shards[index] as Shard
    if ('observed' in reply) {
      shard.collecting.shift()?.(reply.observed)
    } else {
      shard.pending--
      if (reply.arena?.byteLength === ARENA_BYTES && this.spareArenas.length < SPARE_ARENAS)
        this.spareArenas.push(reply.arena)
      const batch = shard.inFlight.shift()
      this.queuedBytes -= batch?.bytes ?? 0
      this.queuedOps -= batch?.ops ?? 0
      if (reply.failure !== undefined) this.fail(rebuild(reply.failure))
      else if (reply.inflated !== undefined) this.showInflated(reply.inflated)
    }
    if (shard.pending === 0 && shard.collecting.length === 0) shard.worker.unref()
    if (this.hasRoom) for (const wake of this.roomWaiters.splice(0)) wake()
    if (this.busy === 0 && this.shards.every((s) => s.ops.length === 0))
      for (const wake of this.idleWaiters.splice(0)) wake()
  }

  /**
   * The files a thread inflated for onInflated, in the order it wrote them. They are garbage once
   * seen, young, and go with the collections the download makes (see ArchiveReceiver). This runs
   * in a thread's message handler: what the observer throws fails the unpacking, not the process.
   */
  private showInflated(inflated: InflatedFiles): void {
    const { onInflated } = this.options
    const { paths, ends, bytes } = inflated
    let i = 0
    try {
      for (let start = 0; i < paths.length; start = ends[i++] as number) {
        onInflated?.(
          paths[i] as string,
          Buffer.from(bytes.buffer, bytes.byteOffset + start, (ends[i] as number) - start)
        )
      }
    } catch (error) {
      // The page is on disk: what failed is looking at it, which no entry of the archive is to blame for.
      this.fail(
        new ActionError(
          `Could not check the page ${JSON.stringify(paths[i])} as it was unpacked: ${errorMessage(error)}`,
          { cause: error }
        )
      )
    }
  }

  /**
   * A thread ended while the unpacking needed it (not by terminate()): its batches will never be
   * answered, so they are dropped, the unpacking fails with why it ended, and the other threads are
   * ended too. Every waiter is released, now and later (idle() and room() return at once).
   */
  private died(index: number, error: Error | undefined, exitCode: number | undefined): void {
    if (this.terminated) return
    const shard = this.shards[index] as Shard
    for (const batch of shard.inFlight.splice(0)) {
      this.queuedBytes -= batch.bytes
      this.queuedOps -= batch.ops
    }
    shard.pending = 0
    this.fail(threadEnded(error, exitCode))
    // Resolves once every thread has ended (settled() waits for it before the folder is removed).
    this.terminate().catch(noop)
  }

  private fail(error: Error): void {
    if (!this.failed) {
      this.failed = true
      this.stop()
      this.options.onFailure(error)
    }
    this.wakeAll()
  }

  private wakeAll(): void {
    for (const wake of this.roomWaiters.splice(0)) wake()
    for (const wake of this.idleWaiters.splice(0)) wake()
    for (const shard of this.shards) for (const resolve of shard.collecting.splice(0)) resolve(undefined)
  }
}

/** Why a thread ended, in the user's terms: its own error when it had one, else its exit code. */
function threadEnded(error: Error | undefined, exitCode: number | undefined): ActionError {
  const code = (error as NodeJS.ErrnoException | undefined)?.code
  const why =
    error === undefined
      ? `ended unexpectedly (exit code ${exitCode})`
      : code === 'ERR_WORKER_OUT_OF_MEMORY'
        ? `ran out of memory (its limit is ${THREAD_LIMITS.maxOldGenerationSizeMb} MiB)`
        : `failed: ${error.message}`
  return new ActionError(
    `Could not unpack the bundle: a writer thread ${why}`,
    error === undefined ? undefined : { cause: error }
  )
}

function noop(): void {}

/** A thread's failure as the error the same call on the main thread would have thrown. */
function rebuild(failure: ThreadFailure): Error {
  if (failure.corrupt) return new CorruptArchiveError(`the entry ${JSON.stringify(failure.entry)} ${failure.message}`)
  const error = new Error(failure.message) as NodeJS.ErrnoException
  if (failure.code !== undefined) error.code = failure.code
  if (failure.syscall !== undefined) error.syscall = failure.syscall
  return Object.assign(error, { entry: failure.entry })
}

/** The name of the archive entry a thread's failure is about (the site path when the name was the same). */
export function failedEntry(error: unknown): string | undefined {
  const entry = (error as { entry?: unknown } | undefined)?.entry
  return typeof entry === 'string' ? entry : undefined
}
