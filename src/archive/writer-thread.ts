/**
 * The program of one writer thread (see DiskThreads, which starts them and feeds them), and what
 * crosses between it and the main thread: operations in batches, each batch's bytes in an arena
 * moved with it, and replies (the arena handed back, a failure, files shown to the main thread's
 * observer, what the thread's own observer found).
 */
import { bufferCollector } from '../common/buffer-garbage.js'

/**
 * A thread collects its young garbage after inflating this much (see bufferCollector). On the
 * 3,000-page zip, 2 MiB instead of 8 left the peak RSS at 141 instead of 152 MiB (median of 10
 * alternating runs) for the same wall time.
 */
const INFLATED_BYTES_PER_COLLECTION = 2 * 1024 * 1024
/** A thread's full collection once the buffers it holds grow by this much (see bufferCollector). */
const HELD_BYTES_PER_FULL_COLLECTION = 8 * 1024 * 1024
// Operation codes, the same in the thread's switch (diskThread runs from its source text and cannot refer to them).
export const DIRECTORY = 1
export const FILE = 2
export const INFLATE = 3
export const OPEN = 4
export const WRITE = 5
export const CLOSE = 6
export const HARDLINK = 7
export const SYMLINK = 8
export const CHMOD = 9
export const REMOVE = 10

/**
 * What a thread reports of a failed operation. `corrupt`: the archive's data is bad (a deflated
 * entry that does not inflate to its size); otherwise a file system error, with its code.
 */
export interface ThreadFailure {
  message: string
  code: string | undefined
  syscall: string | undefined
  corrupt: boolean
  /** The entry's name as the archive spells it. */
  entry: string
}

export type Operation = Array<string | number | null>

/**
 * The files of a batch a thread inflated and wrote, sent back for the main thread's observer: their
 * paths, and their bytes one after another in one buffer (file i ends at `ends[i]`). One buffer a
 * batch, not one a file: each buffer moved costs both threads the same whatever its size, and a
 * site of 30,000 small pages would move 30,000.
 */
export interface InflatedFiles {
  paths: string[]
  ends: Int32Array
  bytes: Uint8Array
}

export interface Reply {
  failure?: ThreadFailure
  /** The batch's arena, handed back. */
  arena?: ArrayBuffer
  /** Files of the batch inflated to be shown to the observer on the main thread, their bytes moved with the reply. */
  inflated?: InflatedFiles
  /** What the thread's observer collected (the reply to a collect message). */
  observed?: unknown
}

/**
 * A small entry's content as it may be written: deflated data inflated to exactly `inflatedSize`
 * bytes (-1: the data is stored as it is), then checked against the CRC-32 its archive gives (-1:
 * none to check); damaged data is never written. Throws an error marked `corrupt` whose message
 * completes "the entry <name> ...". Used by the writer threads and, while they are behind, beside
 * the reader (see SiteWriter.fileInMemory): self-contained, so that the threads can run it from its
 * source text, with node's zlib as an argument.
 */
export function checkedContent(
  zlib: typeof import('node:zlib'),
  data: Buffer,
  inflatedSize: number,
  crc: number
): Buffer {
  const corrupt = (message: string): Error => Object.assign(new Error(message), { corrupt: true })
  let content = data
  if (inflatedSize !== -1) {
    const size = inflatedSize
    try {
      // Never more than the entry declares: a bomb stops at its declared size plus one byte.
      // One output buffer of the declared size (plus the byte that tells a bomb): no pieces to join.
      content = zlib.inflateRawSync(data, { chunkSize: Math.max(64, size + 1), maxOutputLength: size + 1 })
    } catch (error) {
      if ((error as { code?: unknown }).code === 'ERR_BUFFER_TOO_LARGE')
        throw corrupt(`holds more than the ${size} bytes it declares`)
      throw corrupt(`does not inflate (${error instanceof Error ? error.message : String(error)})`)
    }
    if (content.length !== size)
      throw corrupt(
        `holds ${content.length > size ? 'more' : `${content.length} bytes, fewer`} than the ${size} bytes it declares`
      )
  }
  if (crc !== -1 && zlib.crc32(content) !== crc)
    throw corrupt('holds data that does not match its CRC-32 (the archive is damaged)')
  return content
}

/**
 * A thread's program, run from its source text: it may use nothing from outside its body, and
 * gets node's modules as arguments. `makeObserver` (or undefined) makes the thread's observer of
 * the files written from memory (see SiteInspector.threadObserver).
 */
function diskThread(
  fs: typeof import('node:fs'),
  zlib: typeof import('node:zlib'),
  port: import('node:worker_threads').MessagePort,
  setup: { root: string; stop: Int32Array },
  makeObserver: (() => { observe(path: string, content: Buffer): void; result(files: string[]): unknown }) | undefined,
  collectGarbage: (bytes: number) => void,
  contentOf: typeof checkedContent
): void {
  const { root, stop } = setup
  const observer = makeObserver?.()
  /** Folders (site paths) this thread knows to exist; '' is the root. */
  const made = new Set<string>([''])
  /** Open streamed files: id -> descriptor. */
  const streams = new Map<number, number>()
  let failed = false
  /** Inflated bytes of the batch under way: garbage once written (see bufferCollector). */
  let inflatedInBatch = 0
  /** Files of the batch under way inflated for the main thread's observer, and their paths. */
  let sendBack: Buffer[] = []
  let sendBackPaths: string[] = []

  /** Keeps an inflated file for the reply (packed with the batch's others, see InflatedFiles). */
  function giveBack(path: string, content: Buffer): void {
    sendBack.push(content)
    sendBackPaths.push(path)
  }

  /** The batch's files for the main thread's observer, in one buffer; undefined when there are none. */
  function packSendBack(): InflatedFiles | undefined {
    if (sendBack.length === 0) return undefined
    const ends = new Int32Array(sendBack.length)
    let at = 0
    for (let i = 0; i < sendBack.length; i++) ends[i] = at += (sendBack[i] as Buffer).length
    const bytes = new Uint8Array(at)
    for (let i = 0; i < sendBack.length; i++) bytes.set(sendBack[i] as Buffer, i === 0 ? 0 : (ends[i - 1] as number))
    const packed = { paths: sendBackPaths, ends, bytes }
    sendBack = []
    sendBackPaths = []
    return packed
  }

  const absolute = (path: string): string => (path === '' ? root : `${root}/${path}`)
  const parentOf = (path: string): string => path.slice(0, Math.max(0, path.lastIndexOf('/')))
  const codeOf = (error: unknown): string | undefined => (error as { code?: string } | undefined)?.code

  function ensureFolder(path: string): void {
    if (made.has(path)) return
    ensureFolder(parentOf(path))
    const target = absolute(path)
    try {
      fs.mkdirSync(target)
    } catch (error) {
      // Another thread made it (folders are shared by their files' threads); never anything else.
      if (codeOf(error) !== 'EEXIST' || !fs.lstatSync(target).isDirectory()) throw error
    }
    made.add(path)
  }

  /** An exclusive create; an existing file or link there is unlinked and the create made anew, a folder never. */
  function exclusive<T>(target: string, create: () => T): T {
    try {
      return create()
    } catch (error) {
      if (codeOf(error) !== 'EEXIST') throw error
    }
    if (fs.lstatSync(target).isDirectory()) throw new Error(`Cannot replace the folder ${target} with a file`)
    fs.unlinkSync(target)
    return create()
  }

  function writeAll(fd: number, bytes: Uint8Array): void {
    for (let done = 0; done < bytes.length;) done += fs.writeSync(fd, bytes, done, bytes.length - done)
  }

  function writeFile(path: string, mode: number, content: Buffer, observe: boolean): void {
    ensureFolder(parentOf(path))
    const target = absolute(path)
    const fd = exclusive(target, () => fs.openSync(target, 'wx', mode))
    try {
      writeAll(fd, content)
    } finally {
      fs.closeSync(fd)
    }
    if (observe) observer?.observe(path, content)
  }

  function run(op: Array<string | number | null>, data: Buffer | undefined): void {
    const code = op[0] as number
    const bytes = (start: number, end: number): Buffer => (data as Buffer).subarray(start, end)
    switch (code) {
      case 1: // DIRECTORY path name
        ensureFolder(op[1] as string)
        return
      case 2: {
        // FILE path name mode start end observe crc (-1: none to check)
        const content = contentOf(zlib, bytes(op[4] as number, op[5] as number), -1, op[7] as number)
        writeFile(op[1] as string, op[3] as number, content, op[6] === 1)
        return
      }
      case 3: {
        // INFLATE path name mode start end size observe (1: here, 2: on the main thread) crc
        const content = contentOf(zlib, bytes(op[4] as number, op[5] as number), op[6] as number, op[8] as number)
        inflatedInBatch += content.length
        writeFile(op[1] as string, op[3] as number, content, op[7] === 1)
        if (op[7] === 2) giveBack(op[1] as string, content)
        return
      }
      case 4: {
        // OPEN path name mode id
        const path = op[1] as string
        ensureFolder(parentOf(path))
        const target = absolute(path)
        streams.set(
          op[4] as number,
          exclusive(target, () => fs.openSync(target, 'wx', op[3] as number))
        )
        return
      }
      case 5: // WRITE id name start end
        writeAll(streams.get(op[1] as number) as number, bytes(op[3] as number, op[4] as number))
        return
      case 6: {
        // CLOSE id name
        const fd = streams.get(op[1] as number) as number
        streams.delete(op[1] as number)
        fs.closeSync(fd)
        return
      }
      case 7: {
        // HARDLINK path name target
        const path = op[1] as string
        ensureFolder(parentOf(path))
        const target = absolute(path)
        exclusive(target, () => fs.linkSync(absolute(op[3] as string), target))
        return
      }
      case 8: {
        // SYMLINK path name linkTarget
        const path = op[1] as string
        ensureFolder(parentOf(path))
        const target = absolute(path)
        exclusive(target, () => fs.symlinkSync(op[3] as string, target))
        return
      }
      case 9: // CHMOD path name mode (a file this unpacking created; no symlink exists yet)
        fs.chmodSync(absolute(op[1] as string), op[3] as number)
        return
      case 10: // REMOVE path name (a file this unpacking created, replaced by a twin of its name)
        try {
          fs.unlinkSync(absolute(op[1] as string))
        } catch (error) {
          // Gone already is as good: the point is that it is not there.
          if (codeOf(error) !== 'ENOENT') throw error
        }
        return
      default:
        throw new Error(`unknown operation ${code}`)
    }
  }

  function closeAll(): void {
    for (const fd of streams.values()) {
      try {
        fs.closeSync(fd)
      } catch {
        // Closing after a failure: the failure is what is reported.
      }
    }
    streams.clear()
  }

  port.on(
    'message',
    (message: { ops?: Array<Array<string | number | null>>; arena?: ArrayBuffer; collect?: string[] }) => {
      if (message.collect !== undefined) {
        port.postMessage({ observed: observer?.result(message.collect) })
        return
      }
      const data = message.arena === undefined ? undefined : Buffer.from(message.arena)
      let failure: unknown
      for (const op of message.ops ?? []) {
        if (failed || Atomics.load(stop, 0) !== 0) break
        try {
          run(op, data)
        } catch (error) {
          failed = true
          const entry = op[2] ?? op[1]
          failure = {
            message: error instanceof Error ? error.message : String(error),
            code: codeOf(error),
            syscall: (error as { syscall?: string }).syscall,
            corrupt: (error as { corrupt?: boolean }).corrupt === true,
            entry: typeof entry === 'string' ? entry : ''
          }
        }
      }
      if (failed || Atomics.load(stop, 0) !== 0) closeAll()
      // Packed first: the files' own buffers are then garbage for the collection.
      const inflatedFiles = packSendBack()
      collectGarbage(inflatedInBatch)
      inflatedInBatch = 0
      // The arena goes back for the next batch: no new memory per batch on either side.
      const transfer: ArrayBuffer[] =
        inflatedFiles === undefined
          ? []
          : [inflatedFiles.bytes.buffer as ArrayBuffer, inflatedFiles.ends.buffer as ArrayBuffer]
      if (message.arena !== undefined) transfer.push(message.arena)
      port.postMessage({ failure, arena: message.arena, inflated: inflatedFiles }, transfer)
    }
  )
}

/** The thread's whole program: node's modules, then diskThread (and the observer's maker) from their source. */
export function threadSource(observerSource: string | undefined): string {
  // `__name`: a transpiler may wrap named functions in a helper of that name (esbuild's keepNames).
  // `require` stays in this text (a bundler would rewrite it in code).
  return [
    'const __name = (target) => target;',
    "const { parentPort, workerData } = require('node:worker_threads');",
    `const collectGarbage = (${bufferCollector.toString()})(require('node:v8'), require('node:vm'), ${INFLATED_BYTES_PER_COLLECTION}, ${HELD_BYTES_PER_FULL_COLLECTION});`,
    `(${diskThread.toString()})(require('node:fs'), require('node:zlib'), parentPort, workerData, ${observerSource ?? 'undefined'}, collectGarbage, ${checkedContent.toString()});`
  ].join('\n')
}
