import { type PerformanceEntry, PerformanceObserver, constants, performance } from 'node:perf_hooks'
import v8 from 'node:v8'
import vm from 'node:vm'
import { afterEach, describe, expect, test } from '@jest/globals'
import { bufferCollector } from '../src/common/buffer-garbage.js'

/** Collections of one kind (young or full) as node reports them, from the moment this is called. */
function watchCollections(kind: number): { within(from: number, to: number): Promise<number>; stop(): void } {
  const entries: PerformanceEntry[] = []
  const observer = new PerformanceObserver((list) => entries.push(...list.getEntries()))
  observer.observe({ entryTypes: ['gc'] })
  return {
    async within(from, to) {
      // Entries arrive after the collection, on a later turn of the event loop.
      await new Promise((resolve) => setTimeout(resolve, 50))
      const ofKind = entries.filter((entry) => (entry as { detail?: { kind?: number } }).detail?.kind === kind)
      return ofKind.filter((entry) => entry.startTime >= from && entry.startTime <= to).length
    },
    stop: () => observer.disconnect()
  }
}

describe('bufferCollector', () => {
  const watches: Array<{ stop(): void }> = []
  afterEach(() => watches.splice(0).forEach((watch) => watch.stop()))

  test('collects the young generation once the bytes reach the budget, and not before', async () => {
    const collections = watchCollections(constants.NODE_PERFORMANCE_GC_MINOR)
    watches.push(collections)
    const collect = bufferCollector(v8, vm, 1000, Number.MAX_SAFE_INTEGER)
    // Nothing here allocates: a collection inside either window can only be the collector's.
    let from = performance.now()
    for (let i = 0; i < 999; i++) collect(1)
    let to = performance.now()
    expect(await collections.within(from, to)).toBe(0)

    from = performance.now()
    collect(1)
    to = performance.now()
    expect(await collections.within(from, to)).toBe(1)

    // The count starts again from zero.
    from = performance.now()
    collect(999)
    to = performance.now()
    expect(await collections.within(from, to)).toBe(0)
  })

  test('runs a full collection once the buffers held outgrow what the last one left by the budget, and not before', () => {
    const MiB = 1024 * 1024
    // The collector's own full collections, counted as it asks for them (each is still run): V8 may
    // start one of its own at any moment in a process that ran other tests before, so the
    // collections node reports cannot tell the collector's apart.
    let full = 0
    const countingVm = {
      runInNewContext: (code: string) => {
        const gc = vm.runInNewContext(code) as (options?: { type: 'minor' }) => void
        return (options?: { type: 'minor' }) => {
          if (options === undefined) full++
          gc(options)
        }
      }
    } as unknown as typeof vm
    const collect = bufferCollector(v8, countingVm, 1, 8 * MiB)
    const hold = (mib: number): Buffer[] => Array.from({ length: mib }, () => Buffer.alloc(MiB))
    const fullCollectionsIn = (step: () => void): number => {
      const before = full
      step()
      return full - before
    }
    // The buffers stay held throughout, so what a full collection leaves is known.
    const held = [hold(16)]
    // Past the budget (nothing was collected in full yet): one full collection, whatever it frees.
    expect(fullCollectionsIn(() => collect(1))).toBe(1)
    // What it left is the new floor: within the budget above it, none.
    expect(fullCollectionsIn(() => collect(1))).toBe(0)
    held.push(hold(4))
    expect(fullCollectionsIn(() => collect(1))).toBe(0)
    // 4 + 6 MiB above the floor: past the budget.
    held.push(hold(6))
    expect(fullCollectionsIn(() => collect(1))).toBe(1)
    expect(held.flat()).toHaveLength(26)
  })

  test('leaves gc() unexposed: the flag is set only while the collector is looked up', () => {
    const collect = bufferCollector(v8, vm, 1, 0)
    collect(1)
    expect(typeof (globalThis as { gc?: unknown }).gc).toBe('undefined')
    expect(vm.runInNewContext('typeof gc')).toBe('undefined')
  })
})
