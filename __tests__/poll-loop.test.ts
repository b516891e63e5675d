import { describe, expect, test } from '@jest/globals'
import { realClock, virtualClock } from '../src/clock.js'
import { CancelledError } from '../src/errors.js'
import { type PollObservation, type PollOptions, PollTimeoutError, pollUntilDone } from '../src/poll/poller.js'

const S = 1000
const settings = { initialIntervalMs: 5 * S, maxIntervalMs: 60 * S, timeoutMs: 30 * 60 * S }

interface Status {
  status: string
  progress?: unknown
}
const read = (s: Status) => ({
  status: s.status,
  progress: s.progress as number | undefined,
  done: s.status === 'completed' || s.status === 'failed'
})

/** A job as a function of virtual time, polled on a virtual clock; records every check. */
function harness(job: (t: number) => Status, overrides: Partial<PollOptions<Status>> = {}) {
  const sleeps: number[] = []
  const clock = virtualClock(0, (ms) => void sleeps.push(ms))
  const checks: number[] = []
  const observations: { value: Status; observation: PollObservation; polls: number }[] = []
  const options: PollOptions<Status> = {
    check: async () => {
      checks.push(clock.now())
      return job(clock.now())
    },
    read,
    settings,
    clock,
    random: () => 0.5,
    onObservation: (value, observation, polls) => void observations.push({ value, observation, polls }),
    ...overrides
  }
  return { clock, sleeps, checks, observations, run: () => pollUntilDone(options) }
}

describe('pollUntilDone on a virtual clock', () => {
  test('checkFirst: an already finished job is seen on the first check, without any wait', async () => {
    const h = harness(() => ({ status: 'completed' }), { checkFirst: true })
    const result = await h.run()
    expect(result).toEqual({ value: { status: 'completed' }, polls: 1, elapsedMs: 0 })
    expect(h.sleeps).toEqual([])
  })

  test('a job just started is first checked after initialIntervalMs', async () => {
    const h = harness((t) => ({ status: t >= 5 * S ? 'failed' : 'running' }))
    const result = await h.run()
    expect(h.checks).toEqual([5 * S])
    expect(result.value.status).toBe('failed') // 'failed' ends the poll too: the caller decides
  })

  test('unknown statuses keep polling until read() says done', async () => {
    const sequence = ['queued', 'warming-up', '???', 'running', 'completed']
    let i = 0
    const h = harness(() => ({ status: sequence[i++] ?? 'completed' }), { checkFirst: true })
    const result = await h.run()
    expect(result.polls).toBe(5)
    expect(result.value.status).toBe('completed')
    expect(h.observations.map((o) => o.observation.status)).toEqual(sequence)
  })

  test('onObservation sees every poll, in order, with the time and cleaned-up progress', async () => {
    const progress: unknown[] = [undefined, 10, NaN, 'x', 40]
    let i = 0
    const h = harness(() => (i < progress.length ? { status: 'running', progress: progress[i++] } : { status: 'completed' }))
    const result = await h.run()
    expect(h.observations.map((o) => o.polls)).toEqual([1, 2, 3, 4, 5, 6])
    expect(h.observations.map((o) => o.observation.at)).toEqual(h.checks)
    expect(h.observations.map((o) => o.observation.progress)).toEqual([undefined, 10, undefined, undefined, 40, undefined])
    expect(h.observations.at(-1)?.value).toBe(result.value)
    expect(result.elapsedMs).toBe(h.checks.at(-1))
  })

  test('timeout: polls once more exactly at the deadline, then throws with the last value', async () => {
    let n = 0
    const h = harness(() => ({ status: 'running', n: ++n }) as Status, {
      settings: { ...settings, timeoutMs: 100 * S }
    })
    const error = await h.run().then(
      () => undefined,
      (e: unknown) => e
    )
    expect(error).toBeInstanceOf(PollTimeoutError)
    const timeout = error as PollTimeoutError<Status & { n: number }>
    // Blind backoff 5, 10, 20, 40 -> checks at 5, 15, 35, 75; 75 + 60 would pass 100: check at 100.
    expect(h.checks).toEqual([5 * S, 15 * S, 35 * S, 75 * S, 100 * S])
    expect(timeout.polls).toBe(5)
    expect(timeout.elapsedMs).toBe(100 * S)
    expect(timeout.last?.n).toBe(5)
    expect(h.clock.now()).toBe(100 * S)
  })

  test('a job that completes right at the deadline is still seen (never gives up early)', async () => {
    const h = harness((t) => ({ status: t >= 100 * S ? 'completed' : 'running' }), {
      settings: { ...settings, timeoutMs: 100 * S }
    })
    await expect(h.run()).resolves.toMatchObject({ elapsedMs: 100 * S, polls: 5 })
  })

  test('follows progress: a 3-min linear job is seen within a few seconds, in about 5 checks', async () => {
    const polls: number[] = []
    for (let seed = 1; seed <= 5; seed++) {
      let state = seed
      const random = (): number => (state = (state * 48271) % 2147483647) / 2147483647
      const end = 180 * S
      const h = harness(
        (t) => (t >= end ? { status: 'completed' } : { status: 'running', progress: Math.floor((100 * t) / end) }),
        { random, startedAt: 0 }
      )
      const result = await h.run()
      // The blind backoff alone would check at 5, 15, 35, 75, 135, 195 s: 6 checks, 15 s late.
      expect(result.elapsedMs - end).toBeLessThanOrEqual(6 * S)
      expect(result.polls).toBeLessThanOrEqual(6)
      polls.push(result.polls)
    }
    expect(polls.filter((n) => n <= 5).length).toBeGreaterThanOrEqual(3)
  })

  test('startedAt: a fast first reading brings the second check forward', async () => {
    // 10 %/s since it was started at 0: at most 5 s to go at the first check (5 s, 50 %).
    const job = (t: number): Status => (t >= 10 * S ? { status: 'completed' } : { status: 'running', progress: t / 100 })
    const known = harness(job, { startedAt: 0 })
    await known.run()
    expect(known.checks).toEqual([5 * S, 10 * S])
    const unknown = harness(job)
    await unknown.run()
    expect(unknown.checks).toEqual([5 * S, 15 * S]) // blind backoff
  })

  test('errors of check() and read() propagate, nothing is retried here', async () => {
    const boom = new Error('HTTP 500 after retries')
    const h = harness(() => {
      throw boom
    })
    await expect(h.run()).rejects.toBe(boom)
    expect(h.checks).toHaveLength(1)
    const bad = new TypeError('unexpected body')
    const r = harness(() => ({ status: 'running' }), {
      read: () => {
        throw bad
      }
    })
    await expect(r.run()).rejects.toBe(bad)
    expect(r.checks).toHaveLength(1)
  })
})

describe('cancellation', () => {
  test('mid-sleep: rejects with CancelledError at once (real clock)', async () => {
    let checks = 0
    const started = Date.now()
    const promise = pollUntilDone({
      check: async () => (checks++, { status: 'running' }),
      read,
      settings: { initialIntervalMs: 10 * S, maxIntervalMs: 60 * S, timeoutMs: 60 * S },
      clock: realClock,
      signal: AbortSignal.timeout(50),
      checkFirst: true
    })
    await expect(promise).rejects.toBeInstanceOf(CancelledError)
    expect(Date.now() - started).toBeLessThan(1000) // not the 10 s sleep
    expect(checks).toBe(1)
  })

  test('mid-check: does not wait for a hanging status request', async () => {
    const controller = new AbortController()
    const promise = pollUntilDone({
      check: () => new Promise<Status>(() => undefined),
      read,
      settings,
      clock: realClock,
      signal: controller.signal,
      checkFirst: true
    })
    setTimeout(() => controller.abort(), 20)
    await expect(promise).rejects.toBeInstanceOf(CancelledError)
  })

  test('an already aborted signal: no check at all', async () => {
    let checks = 0
    const promise = pollUntilDone({
      check: async () => (checks++, { status: 'completed' }),
      read,
      settings,
      clock: virtualClock(0),
      signal: AbortSignal.abort(),
      checkFirst: true
    })
    await expect(promise).rejects.toBeInstanceOf(CancelledError)
    expect(checks).toBe(0)
  })
})
