import { describe, expect, test } from '@jest/globals'
import { DownloadProgress } from '../src/transfer/progress.js'
import { type TestClock, virtualClock } from './support/clock.js'
import { recordingLogger } from './support/fake-host.js'

/** A wait the receiver asks for, that ends once `ms` of the clock have passed. */
function heldFor(clock: TestClock, ms: number): { wait: Promise<void>; release: () => void } {
  let release!: () => void
  const wait = new Promise<void>((resolve) => (release = resolve))
  return { wait, release: () => (clock.advance(ms), release()) }
}

describe('DownloadProgress', () => {
  test("the summary's time and rate are the download's own: waits the receiver asked for are given apart", async () => {
    const clock = virtualClock()
    const progress = new DownloadProgress(recordingLogger(), clock, 4 * 1024 * 1024)
    // 2 MiB received over 1 s, then the receiver holds the download back for 3 s ...
    clock.advance(1000)
    const { wait, release } = heldFor(clock, 3000)
    const held = progress.add(2 * 1024 * 1024, wait)
    release()
    await held
    // ... then 2 MiB more over 1 s; the zip check after the last byte does not count.
    clock.advance(1000)
    expect(progress.add(2 * 1024 * 1024)).toBeUndefined()
    progress.end()
    clock.advance(5000)
    expect(progress.summary()).toBe('4.0 MiB in 2.0 s (2.0 MiB/s; waited 3.0 s more for writing and unpacking)')
  })

  test('a download never held back says nothing of waiting, and a failed wait still fails the download', async () => {
    const clock = virtualClock()
    const progress = new DownloadProgress(recordingLogger(), clock, undefined)
    clock.advance(2000)
    progress.add(1024 * 1024)
    expect(progress.summary()).toBe('1.0 MiB in 2.0 s (512.0 KiB/s)')
    await expect(progress.add(1, Promise.reject(new Error('disk full')))).rejects.toThrow('disk full')
  })

  test('progress lines, at most every 5 s, give the rate without the held-back time', async () => {
    const clock = virtualClock()
    const log = recordingLogger()
    const progress = new DownloadProgress(log, clock, 10 * 1024 * 1024)
    const { wait, release } = heldFor(clock, 4000)
    const held = progress.add(1024 * 1024, wait)
    release()
    await held
    clock.advance(1000)
    progress.add(1024 * 1024)
    expect(log.lines).toEqual(['progress: Downloaded 2.0 MiB of 10.0 MiB (20%) at 2.0 MiB/s'])
  })
})
