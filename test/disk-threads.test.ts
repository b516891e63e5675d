/**
 * DiskThreads when a writer thread dies under it (out of memory, an uncaught error, process.exit,
 * ended from outside): the unpacking fails at once with why, and nothing waits for the dead
 * thread, now or later. What the caller (SiteWriter, ArchiveReceiver) then does is in
 * archive-extract.test.ts ('stopping').
 */
import { readdir } from 'node:fs/promises'
import type { Worker } from 'node:worker_threads'
import { afterEach, beforeEach, describe, expect, test } from '@jest/globals'
import { DiskThreads } from '../src/archive/disk-threads.js'
import { ActionError } from '../src/common/errors.js'
import { tempFolder } from './support/temp.js'

let work: { dir: string; remove: () => Promise<void> }
let threads: DiskThreads | undefined

beforeEach(async () => {
  work = await tempFolder('disk-threads-')
})
afterEach(async () => {
  await threads?.terminate()
  threads = undefined
  await work.remove()
})

/** Threads writing into the temp folder; `failures`: what onFailure was told. */
function diskThreads(options: { threads?: number; observer?: string } = {}): { disk: DiskThreads; failures: Error[] } {
  const failures: Error[] = []
  threads = new DiskThreads(work.dir, { ...options, onFailure: (error) => failures.push(error) })
  return { disk: threads, failures }
}

/** The test seam: the threads' workers (private to DiskThreads). */
function workersOf(disk: DiskThreads): Worker[] {
  return (disk as unknown as { shards: Array<{ worker: Worker }> }).shards.map((shard) => shard.worker)
}

/** `promise`, or a rejection after `ms`: a hang fails the test at once instead of at jest's timeout. */
function within<T>(promise: Promise<T>, ms = 1000): Promise<T> {
  let timer: NodeJS.Timeout | undefined
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`still waiting after ${ms} ms`)), ms)
  })
  return Promise.race([promise, late]).finally(() => clearTimeout(timer))
}

/** Enough folders on every thread that their batches are still in flight when one dies. */
function handOverFolders(disk: DiskThreads, count: number, prefix = 'd'): void {
  for (let i = 0; i < count; i++) disk.directory(`${prefix}${i}`, `${prefix}${i}`)
}

/** A thread observer that runs `body` (thread code) when shown the file `die.html`. */
const dyingObserver = (body: string): string =>
  `() => ({ observe(path) { if (path === 'die.html') { ${body} } }, result: () => null })`

/** A small page shown to the thread's observer. */
function page(disk: DiskThreads, path: string): void {
  disk.file(path, path, 0o644, [Buffer.from('<p>x</p>')], 8, true)
}

/** Whether the worker has ended (its 'exit' event came, or comes now). */
function ended(worker: Worker): Promise<void> {
  return worker.threadId === -1 ? Promise.resolve() : new Promise((resolve) => worker.once('exit', () => resolve()))
}

describe('a writer thread that dies', () => {
  test('ended from outside mid-unpacking: the waiters are released, the failure told once, the other thread ended, later calls do nothing', async () => {
    const { disk, failures } = diskThreads({ threads: 2 })
    const [first, second] = workersOf(disk) as [Worker, Worker]
    const secondEnded = ended(second)
    handOverFolders(disk, 4000)
    const waiting = disk.idle()
    await first.terminate()
    await within(waiting)
    expect(failures).toHaveLength(1)
    expect(failures[0]).toBeInstanceOf(ActionError)
    expect(failures[0]?.message).toMatch(
      /^Could not unpack the bundle: a writer thread ended unexpectedly \(exit code \d+\)$/
    )
    // The thread still alive is ended too.
    await within(secondEnded)
    // Later work is dropped, and later waits return at once.
    handOverFolders(disk, 2000, 'later')
    expect(disk.room()).toBeUndefined()
    await within(disk.idle(), 200)
    await expect(within(disk.collect(['x.html']), 200)).resolves.toEqual([])
    await within(disk.terminate(), 500)
    expect(failures).toHaveLength(1)
    expect((await readdir(work.dir)).filter((name) => name.startsWith('later'))).toEqual([])
  })

  test('an uncaught error in its program: the unpacking fails with that error, about no entry, and a later idle() resolves', async () => {
    const { disk, failures } = diskThreads({
      observer: dyingObserver("setImmediate(() => { throw new Error('the observer broke') })")
    })
    page(disk, 'a.html')
    page(disk, 'die.html')
    await disk.idle()
    // The thread dies once the batch is answered: work handed over meanwhile is never answered.
    for (let i = 0; failures.length === 0 && i < 200; i++) {
      page(disk, `p${i}.html`)
      await new Promise((resolve) => setTimeout(resolve, 5))
    }
    expect(failures.map((error) => [error.constructor, error.message])).toEqual([
      [ActionError, 'Could not unpack the bundle: a writer thread failed: the observer broke']
    ])
    expect((failures[0] as Error & { entry?: unknown }).entry).toBeUndefined()
    handOverFolders(disk, 100)
    await within(disk.idle(), 200)
  })

  test('process.exit in its program: the unpacking fails with its exit code', async () => {
    const { disk, failures } = diskThreads({ observer: dyingObserver('process.exit(7)') })
    page(disk, 'a.html')
    page(disk, 'die.html')
    handOverFolders(disk, 1000)
    await within(disk.idle())
    expect(failures.map((error) => error.message)).toEqual([
      'Could not unpack the bundle: a writer thread ended unexpectedly (exit code 7)'
    ])
    handOverFolders(disk, 100, 'later')
    await within(disk.idle(), 200)
  })

  test('out of memory: said in plain words', async () => {
    const { disk, failures } = diskThreads({
      observer: dyingObserver('const kept = []; for (;;) kept.push(new Array(1 << 20).fill(1.5))')
    })
    page(disk, 'die.html')
    await within(disk.idle(), 1500)
    expect(failures.map((error) => error.message)).toEqual([
      'Could not unpack the bundle: a writer thread ran out of memory (its limit is 256 MiB)'
    ])
    expect((failures[0]?.cause as { code?: unknown } | undefined)?.code).toBe('ERR_WORKER_OUT_OF_MEMORY')
    page(disk, 'later.html')
    await within(disk.idle(), 200)
  })
})
