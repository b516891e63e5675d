/**
 * A young-generation collection after every so many bytes of short-lived buffers, and a full one
 * when the buffers still held keep growing.
 *
 * Why: V8 collects a thread's garbage as its JavaScript heap fills, and a stream of buffers leaves
 * little there (a small object per buffer) and its bytes outside it. A download's dead chunks and
 * inflated pieces therefore wait for V8's external-memory trigger, which runs a full collection
 * after tens of MiB. Measured on the 3,000-page tar.gz benchmark bundle (main thread): about 16
 * full collections a run with the buffers swinging between 7 and 40 MiB, peak RSS 120-127 MiB; with
 * a young collection after every MiB downloaded, one full collection and 101-106 MiB. A young
 * collection of a heap this small takes well under a millisecond.
 *
 * A young collection frees only buffers that die young. One that waited a while (a chunk queued
 * for the `.part` file or the writer thread while the disk was behind) has moved to the old
 * generation, where only a full collection frees it, and V8 runs one only after tens of MiB of
 * them: on the 1 GiB zip the buffers held rose to 51 MiB near the end. So after a young collection
 * the collector looks at the bytes of buffers still held, and runs a full collection once they are
 * `fullAfterBytes` above what the last full one left. On the 1 GiB zip (two writer threads then),
 * a 16 MiB budget took peak RSS from 150-175 MiB to 140-146; with one thread, 8 MiB instead of
 * 16 took it from 117-122 to 109-117, for the same time. A full collection of these heaps takes a
 * few ms, and the budget keeps it rare.
 *
 * Self-contained: the writer threads run it from its source text (see DiskThreads), so it uses
 * nothing from outside its body but globals, and gets node's modules as arguments.
 */
import v8 from 'node:v8'
import vm from 'node:vm'

/**
 * The main thread's collector: counts the download's bytes, and whatever else leaves garbage in
 * bulk (see ZipFile). Every MiB is a trade of time for memory, and the memory bound decides it:
 * every 4 MiB made the 3,000-page zip ~10% faster (~100 fewer collections, ~75 ms less pause)
 * and raised its peak RSS by 11 MiB, the tar.gz's by 21 MiB (Node 20, 6 alternating runs).
 */
export const collectMainThreadGarbage = bufferCollector(v8, vm, 1024 * 1024, 8 * 1024 * 1024)

// A collection finds the dead buffers, and by default a background task frees their bytes later.
// With both cores busy unpacking, that task lags behind and the freed bytes pile up: on Node 24,
// what GitHub runs, peak RSS was 137-154 MiB on the 3,000-page zip and 163-188 MiB on the 1 GiB
// zip; freed within the collection, 126-131 and 136-143 MiB (Node 20's 1 GiB zip: 116-118 -> 110),
// for the same time. The setting is process-wide (the writer threads' collections too) and read at
// each collection, so setting it once, when this module loads (before any unpacking), is enough.
// Not every flag is safe to change once V8 runs: `--no-parallel-marking` (with the other parallel
// collection settings) set the same way made V8 abort while marking (Node 20). Any other one
// needs the whole suite and the benchmark on both Nodes before it is set here.
try {
  v8.setFlagsFromString('--no-concurrent-array-buffer-sweeping')
} catch {
  // A node without the setting frees buffers its own way.
}

export function bufferCollector(
  v8: typeof import('node:v8'),
  vm: typeof import('node:vm'),
  everyBytes: number,
  fullAfterBytes: number
): (bytes: number) => void {
  let since = 0
  /** The bytes of buffers held after the last full collection (none yet: nothing). */
  let heldAfterFull = 0
  /** null: not looked up yet; undefined: not available (then nothing is collected by hand). */
  let collect: ((options?: { type: 'minor' }) => void) | undefined | null = null
  return (bytes) => {
    since += bytes
    if (since < everyBytes) return
    since = 0
    if (collect === null) {
      try {
        // gc() is exposed to one new context only: the flag is set for the moment that takes.
        v8.setFlagsFromString('--expose-gc')
        try {
          collect = vm.runInNewContext('gc') as (options?: { type: 'minor' }) => void
        } finally {
          v8.setFlagsFromString('--no-expose-gc')
        }
      } catch {
        collect = undefined
      }
    }
    if (collect === undefined) return
    collect({ type: 'minor' })
    if (process.memoryUsage().arrayBuffers <= heldAfterFull + fullAfterBytes) return
    // gc() with no options is a full collection.
    collect()
    heldAfterFull = process.memoryUsage().arrayBuffers
  }
}
