import { describe, expect, test } from '@jest/globals'
import { ActionError, CancelledError } from '../src/common/errors.js'
import { type FollowOptions, followJob } from '../src/follow/follow-job.js'
import { acceleratedClock, virtualClock } from './support/clock.js'
import { recordingLogger } from './support/fake-host.js'

const S = 1000

interface Status {
  status: string
  progress?: unknown
  n?: number
}

const TERMINAL = new Set(['completed', 'failed'])
const KNOWN = new Set(['queued', 'running', 'completed', 'failed'])

/** A job as a function of virtual time, followed on a virtual clock; records every check. */
function harness(job: (t: number) => Status, overrides: Partial<FollowOptions<Status>> = {}) {
  // No jitter unless a test asks for it: every check time is exact.
  const clock = Object.assign(virtualClock(), { random: () => 0.5 })
  const log = recordingLogger()
  const checks: number[] = []
  const seen: Status[] = []
  const options: FollowOptions<Status> = {
    name: 'Export job j1',
    check: async () => {
      checks.push(clock.now())
      return job(clock.now())
    },
    read: (s) => ({
      status: s.status,
      progress: s.progress as number | undefined,
      summary: s.progress === undefined ? s.status : `${s.status}, ${String(s.progress)}%`
    }),
    terminal: TERMINAL,
    known: KNOWN,
    onValue: (value) => void seen.push(value),
    checkFirst: false,
    initialIntervalMs: 5 * S,
    maxIntervalMs: 60 * S,
    startedAt: 0,
    timeoutMs: 30 * 60 * S,
    resumeHint: 'rerun with `job-id: j1` to pick it up',
    clock,
    log,
    ...overrides
  }
  return { clock, log, checks, seen, run: () => followJob(options) }
}

describe('followJob on a virtual clock', () => {
  test('checkFirst: an already finished job is seen on the first check, without any wait', async () => {
    const h = harness(() => ({ status: 'completed' }), { checkFirst: true })
    const result = await h.run()
    expect(result).toEqual({ value: { status: 'completed' }, polls: 1 })
    expect(h.clock.sleeps).toEqual([])
    expect(h.log.lines).toEqual([
      'info: Export job j1: completed after 0ms.',
      'info: Export job j1 ended `completed` after 0ms and 1 status requests.'
    ])
  })

  test('a value read already counts as the first check', async () => {
    const h = harness((t) => ({ status: t >= 5 * S ? 'completed' : 'running' }), { first: { status: 'running' } })
    const result = await h.run()
    // After one reading the blind backoff has doubled once.
    expect(h.checks).toEqual([10 * S])
    // The read that gave the first value was a status request too: the log's count has it.
    expect(result.polls).toBe(2)
    expect(h.log.lines).toContain('info: Export job j1 ended `completed` after 10s and 2 status requests.')
    expect(h.seen.map((s) => s.status)).toEqual(['running', 'completed'])
  })

  test('a job just started is first checked after initialIntervalMs', async () => {
    const h = harness((t) => ({ status: t >= 5 * S ? 'failed' : 'running' }))
    const result = await h.run()
    expect(h.checks).toEqual([5 * S])
    expect(result.value.status).toBe('failed') // 'failed' ends the wait too: the caller judges it
  })

  test('unknown statuses count as running, with one warning each; a line per change of the summary', async () => {
    const sequence = ['queued', 'warming-up', 'warming-up', '???', 'running', 'completed']
    let i = 0
    const h = harness(() => ({ status: sequence[i++] ?? 'completed' }), { checkFirst: true })
    const result = await h.run()
    expect(result.polls).toBe(6)
    expect(h.seen.map((s) => s.status)).toEqual(sequence)
    expect(h.log.lines.filter((l) => l.startsWith('warning:'))).toEqual([
      'warning: Export job j1 reports the unknown status `warming-up`; treating it as still running.',
      'warning: Export job j1 reports the unknown status `???`; treating it as still running.'
    ])
    expect(h.log.lines.filter((l) => l.startsWith('info: Export job j1: warming-up after'))).toHaveLength(1)
    expect(h.log.lines.filter((l) => l.startsWith('info: Export job j1: '))).toHaveLength(5)
  })

  test('progress is cleaned up before the schedule sees it', async () => {
    const progress: unknown[] = [undefined, 10, NaN, 'x', 40]
    let i = 0
    const h = harness(() =>
      i < progress.length ? { status: 'running', progress: progress[i++] } : { status: 'completed' }
    )
    const result = await h.run()
    expect(result.polls).toBe(6)
    expect(h.seen.at(-1)).toBe(result.value)
  })

  test('timeout: checks once more exactly at the deadline, then fails naming the job, the last status and the way back', async () => {
    let n = 0
    const h = harness(() => ({ status: 'running', progress: 40, n: ++n }), { timeoutMs: 100 * S })
    const error = await h.run().catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ActionError)
    // Blind backoff (the progress is stuck) 5, 10, 20, 40 -> checks at 5, 15, 35, 75; 75 + 80 would pass 100: check at 100.
    expect(h.checks).toEqual([5 * S, 15 * S, 35 * S, 75 * S, 100 * S])
    expect((error as Error).message).toBe(
      'Export job j1 did not finish within `timeout` (1m 40s): last seen running, 40%, after waiting 1m 40s. The job may still finish: rerun with `job-id: j1` to pick it up.'
    )
    expect(h.seen.at(-1)?.n).toBe(5)
    expect(h.clock.now()).toBe(100 * S)
  })

  test('timeout during a read that fails (a status request cut short by the deadline): the same message, with the failed read and the way back', async () => {
    const cut = new Error('network error ETIMEDOUT; no time is left within `timeout`')
    const h = harness(
      (t) => {
        if (t >= 100 * S) throw cut
        return { status: 'running', progress: 40 }
      },
      { timeoutMs: 100 * S, isPassing: () => false, isOutOfTime: (error) => error === cut }
    )
    const error = await h.run().catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ActionError)
    expect((error as Error).message).toBe(
      'Export job j1 did not finish within `timeout` (1m 40s): last seen running, 40%; the last status request failed (network error ETIMEDOUT; no time is left within `timeout`), after waiting 1m 40s. The job may still finish: rerun with `job-id: j1` to pick it up.'
    )
    expect((error as Error).cause).toBe(cut)
    // Nothing read at all before the deadline.
    const never = harness(
      () => {
        throw cut
      },
      { timeoutMs: 3 * S, isPassing: () => true }
    )
    await expect(never.run()).rejects.toThrow(
      /within `timeout` \(3s\): no status read yet; the last status request failed/
    )
  })

  test('any other failure of the read at the deadline is its own (a job gone, a bug): not a timeout that says the job may still finish', async () => {
    for (const failure of [new ActionError('Agent job j1 was not found (HTTP 404).'), new TypeError('a bug')]) {
      const h = harness(
        (t) => {
          if (t >= 100 * S) throw failure
          return { status: 'running' }
        },
        { timeoutMs: 100 * S, isPassing: () => false, isOutOfTime: () => false }
      )
      await expect(h.run()).rejects.toBe(failure)
    }
  })

  test('isPassing is told the checks failed since the last answer (also those before the follow), afresh after an answer', async () => {
    const inARow: number[] = []
    const glitch = new Error('glitch')
    const h = harness(
      (t) => {
        // Fails at 5 s and 10 s, answers at 15 s, fails at 25 s, completes after.
        if (t === 5 * S || t === 10 * S || t === 25 * S) throw glitch
        return { status: t >= 30 * S ? 'completed' : 'running' }
      },
      {
        isPassing: (_, earlier) => (inARow.push(earlier.length), true),
        failed: [new Error('a first read without status')]
      }
    )
    await h.run()
    expect(inARow).toEqual([1, 2, 0])
  })

  test('the timeout counts from the start of the step, not from the first check', async () => {
    const h = harness(() => ({ status: 'running' }), { startedAt: -90 * S, timeoutMs: 100 * S })
    await expect(h.run()).rejects.toThrow(/after waiting 1m 40s/)
    expect(h.checks).toEqual([5 * S, 10 * S])
  })

  test('a job that completes right at the deadline is still seen (never gives up early)', async () => {
    const h = harness((t) => ({ status: t >= 100 * S ? 'completed' : 'running' }), { timeoutMs: 100 * S })
    await expect(h.run()).resolves.toMatchObject({ polls: 5 })
    expect(h.clock.now()).toBe(100 * S)
  })

  test('follows progress: a 3-min linear job is seen within a few seconds, in about 5 checks', async () => {
    const polls: number[] = []
    for (let seed = 1; seed <= 5; seed++) {
      const end = 180 * S
      const h = harness(
        (t) => (t >= end ? { status: 'completed' } : { status: 'running', progress: Math.floor((100 * t) / end) }),
        { jobStartedAt: 0 }
      )
      Object.assign(h.clock, { random: virtualClock({ seed }).random })
      const result = await h.run()
      // The blind backoff alone would check at 5, 15, 35, 75, 135, 195 s: 6 checks, 15 s late.
      expect(h.clock.now() - end).toBeLessThanOrEqual(6 * S)
      expect(result.polls).toBeLessThanOrEqual(6)
      polls.push(result.polls)
    }
    expect(polls.filter((n) => n <= 5).length).toBeGreaterThanOrEqual(3)
  })

  test('jobStartedAt: a fast first reading brings the second check forward', async () => {
    // 10 %/s since it was started at 0: at most 5 s to go at the first check (5 s, 50 %).
    const job = (t: number): Status =>
      t >= 10 * S ? { status: 'completed' } : { status: 'running', progress: t / 100 }
    const known = harness(job, { jobStartedAt: 0 })
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
  test('mid-sleep: rejects with CancelledError at once', async () => {
    const clock = acceleratedClock({ speed: 1 })
    let checks = 0
    const started = Date.now()
    const h = harness(() => (checks++, { status: 'running' }), {
      clock,
      startedAt: clock.now(),
      checkFirst: true,
      initialIntervalMs: 10 * S,
      signal: AbortSignal.timeout(50)
    })
    await expect(h.run()).rejects.toBeInstanceOf(CancelledError)
    expect(Date.now() - started).toBeLessThan(1000) // not the 10 s sleep
    expect(checks).toBe(1)
  })

  test('mid-check: does not wait for a hanging status request', async () => {
    const controller = new AbortController()
    const h = harness(() => ({ status: 'running' }), {
      check: () => new Promise<Status>(() => undefined),
      checkFirst: true,
      signal: controller.signal
    })
    setTimeout(() => controller.abort(), 20)
    await expect(h.run()).rejects.toBeInstanceOf(CancelledError)
  })

  test('an already aborted signal: no check at all', async () => {
    const h = harness(() => ({ status: 'completed' }), { checkFirst: true, signal: AbortSignal.abort() })
    await expect(h.run()).rejects.toBeInstanceOf(CancelledError)
    expect(h.checks).toHaveLength(0)
  })
})
