// After deleting a case's output for lack of space, the benchmark waits until creating files is
// back to its speed (a fixed minute was not always enough), and no longer than its bound.
import { mkdtemp, readdir, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, test } from '@jest/globals'
import { Scratch, type ScratchMachine } from '../../bench/scratch.js'

const GiB = 1024 ** 3
const roots: string[] = []
afterEach(async () => {
  await Promise.all(roots.splice(0).map((root) => rm(root, { recursive: true, force: true })))
})

/**
 * A machine whose clock moves only when slept on, whose probes take the given times, and whose disk has `free`
 * bytes.
 */
function fakeMachine(probes: number[], free: number): ScratchMachine & { slept: number[] } {
  let now = 0
  const slept: number[] = []
  return {
    slept,
    now: () => now,
    sleep: async (ms) => {
      slept.push(ms)
      now += ms
    },
    probe: async () => probes.shift() ?? 1_000,
    freeBytes: async () => free
  }
}

async function scratchOn(machine: ScratchMachine): Promise<{ scratch: Scratch; root: string }> {
  const root = await mkdtemp(join(tmpdir(), 'bench-scratch-'))
  roots.push(root)
  const scratch = new Scratch(root, machine)
  await scratch.settle()
  for (let i = 0; i < 3; i++) await scratch.probe()
  return { scratch, root }
}

/** One case whose folders are deleted when it is retired (free space is low), then the next case's settle(). */
async function caseDeletedThenSettle(scratch: Scratch): Promise<number> {
  await scratch.openCase('first')
  await scratch.fresh('action')
  await scratch.retireCase('1 GiB, tar.gz')
  return scratch.settle()
}

describe('the benchmark after deleting a case for lack of space', () => {
  test('waits a minute, then probes every 15 s until creating files takes at most 1.5x its fastest', async () => {
    // Yardstick probes 100, 90, 95 ms (fastest 90); after the delete 400, 200, then 120 (<= 135).
    const machine = fakeMachine([100, 90, 95, 400, 200, 120], 1 * GiB)
    const { scratch, root } = await scratchOn(machine)
    const waited = await caseDeletedThenSettle(scratch)
    expect(machine.slept).toEqual([60_000, 15_000, 15_000])
    expect(waited).toBe(90_000)
    expect(scratch.deletedEarly).toEqual([{ label: '1 GiB, tar.gz', waitedMs: 90_000 }])
    expect(scratch.fastestProbeMs).toBe(90)
    // The case's folder is gone; the probes' folders are kept until the end.
    expect((await readdir(root)).sort()).toEqual(
      Array.from({ length: 6 }, (_, i) => `probe-${i + 1}-${process.pid}`).sort()
    )
  })

  test('waits no longer than ten minutes when file creation stays slow', async () => {
    const machine = fakeMachine([90, 90, 90], 1 * GiB)
    const { scratch } = await scratchOn(machine)
    const waited = await caseDeletedThenSettle(scratch)
    expect(waited).toBe(10 * 60_000)
    expect(scratch.deletedEarly[0]?.waitedMs).toBe(10 * 60_000)
  })

  test('deletes nothing and waits for nothing while free space is ample', async () => {
    const machine = fakeMachine([90, 90, 90], 100 * GiB)
    const { scratch } = await scratchOn(machine)
    const waited = await caseDeletedThenSettle(scratch)
    expect(waited).toBe(0)
    expect(machine.slept).toEqual([])
    expect(scratch.deletedEarly).toEqual([])
  })

  test('deletes the finished cases before a case the free space cannot hold', async () => {
    const machine = fakeMachine([90, 90, 90, 90], 40 * GiB)
    const { scratch, root } = await scratchOn(machine)
    await scratch.openCase('small', 1 * GiB)
    await scratch.fresh('action')
    await scratch.retireCase('small')
    expect(scratch.deletedEarly).toEqual([])
    await scratch.openCase('1 GiB, tar.gz', 28 * GiB)
    await scratch.settle()
    expect(scratch.deletedEarly).toEqual([{ label: 'the cases before 1 GiB, tar.gz', waitedMs: 60_000 }])
    const left = await readdir(root)
    expect(left.filter((n) => n.startsWith('1-'))).toEqual([])
    expect(left.filter((n) => n.startsWith('2-'))).toHaveLength(1)
  })
})
