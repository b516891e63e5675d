import v8 from 'node:v8'
import vm from 'node:vm'
import { describe, expect, test } from '@jest/globals'
import { bufferCollector } from '../src/common/buffer-garbage.js'

/**
 * A vm whose gc() counts the collections the collector asks for, young and full, and still runs
 * each: V8 may start collections of its own at any moment in a process that ran other tests
 * before, and on a loaded machine node reports its collections late, so the collections node
 * reports cannot tell the collector's apart.
 */
function countingVm(): { vm: typeof vm; young: () => number; full: () => number } {
  let young = 0
  let full = 0
  const counting = {
    runInNewContext: (code: string) => {
      const gc = vm.runInNewContext(code) as (options?: { type: 'minor' }) => void
      return (options?: { type: 'minor' }) => {
        if (options === undefined) full++
        else young++
        gc(options)
      }
    }
  } as unknown as typeof vm
  return { vm: counting, young: () => young, full: () => full }
}

describe('bufferCollector', () => {
  test('collects the young generation once the bytes reach the budget, and not before', () => {
    const counting = countingVm()
    const collect = bufferCollector(v8, counting.vm, 1000, Number.MAX_SAFE_INTEGER)
    const youngCollectionsIn = (step: () => void): number => {
      const before = counting.young()
      step()
      return counting.young() - before
    }
    expect(youngCollectionsIn(() => Array.from({ length: 999 }, () => collect(1)))).toBe(0)
    expect(youngCollectionsIn(() => collect(1))).toBe(1)
    // The count starts again from zero.
    expect(youngCollectionsIn(() => collect(999))).toBe(0)
    expect(youngCollectionsIn(() => collect(1))).toBe(1)
    expect(counting.full()).toBe(0)
  })

  test('runs a full collection once the buffers held outgrow what the last one left by the budget, and not before', () => {
    const MiB = 1024 * 1024
    const counting = countingVm()
    const collect = bufferCollector(v8, counting.vm, 1, 8 * MiB)
    const hold = (mib: number): Buffer[] => Array.from({ length: mib }, () => Buffer.alloc(MiB))
    const fullCollectionsIn = (step: () => void): number => {
      const before = counting.full()
      step()
      return counting.full() - before
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
