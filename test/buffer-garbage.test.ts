import { type PerformanceEntry, PerformanceObserver, constants, performance } from 'node:perf_hooks'
import v8 from 'node:v8'
import vm from 'node:vm'
import { afterEach, describe, expect, test } from '@jest/globals'
import { bufferCollector } from '../src/common/buffer-garbage.js'

/** Young-generation collections as node reports them, from the moment this is called. */
function watchMinorCollections(): { within(from: number, to: number): Promise<number>; stop(): void } {
  const entries: PerformanceEntry[] = []
  const observer = new PerformanceObserver((list) => entries.push(...list.getEntries()))
  observer.observe({ entryTypes: ['gc'] })
  return {
    async within(from, to) {
      // Entries arrive after the collection, on a later turn of the event loop.
      await new Promise((resolve) => setTimeout(resolve, 50))
      const minor = entries.filter((entry) => (entry as { detail?: { kind?: number } }).detail?.kind === constants.NODE_PERFORMANCE_GC_MINOR)
      return minor.filter((entry) => entry.startTime >= from && entry.startTime <= to).length
    },
    stop: () => observer.disconnect()
  }
}

describe('bufferCollector', () => {
  const watches: Array<{ stop(): void }> = []
  afterEach(() => watches.splice(0).forEach((watch) => watch.stop()))

  test('collects the young generation once the bytes reach the budget, and not before', async () => {
    const collections = watchMinorCollections()
    watches.push(collections)
    const collect = bufferCollector(v8, vm, 1000)
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

  test('leaves gc() unexposed: the flag is set only while the collector is looked up', () => {
    const collect = bufferCollector(v8, vm, 1)
    collect(1)
    expect(typeof (globalThis as { gc?: unknown }).gc).toBe('undefined')
    expect(vm.runInNewContext('typeof gc')).toBe('undefined')
  })
})
