/**
 * A young-generation collection after every so many bytes of short-lived buffers.
 *
 * Why: V8 collects a thread's garbage as its JavaScript heap fills, and a stream of buffers leaves
 * little there (a small object per buffer) and its bytes outside it. A download's dead chunks and
 * inflated pieces therefore wait for V8's external-memory trigger, which runs a full collection
 * after tens of MiB. Measured on the 3,000-page tar.gz benchmark bundle (main thread): about 16
 * full collections a run with the buffers swinging between 7 and 40 MiB, peak RSS 120-127 MiB; with
 * a young collection after every MiB downloaded, one full collection and 101-106 MiB. A young
 * collection of a heap this small takes well under a millisecond.
 *
 * Self-contained: the writer threads run it from its source text (see DiskThreads), so it uses
 * nothing from outside its body and gets node's modules as arguments.
 */
export function bufferCollector(v8: typeof import('node:v8'), vm: typeof import('node:vm'), everyBytes: number): (bytes: number) => void {
  let since = 0
  /** null: not looked up yet; undefined: not available (then nothing is collected by hand). */
  let collect: ((options: { type: 'minor' }) => void) | undefined | null = null
  return (bytes) => {
    since += bytes
    if (since < everyBytes) return
    since = 0
    if (collect === null) {
      try {
        // gc() is exposed to one new context only: the flag is set for the moment that takes.
        v8.setFlagsFromString('--expose-gc')
        try {
          collect = vm.runInNewContext('gc') as (options: { type: 'minor' }) => void
        } finally {
          v8.setFlagsFromString('--no-expose-gc')
        }
      } catch {
        collect = undefined
      }
    }
    collect?.({ type: 'minor' })
  }
}
