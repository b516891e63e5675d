import { describe, expect, test } from '@jest/globals'
import { ActionError, CancelledError } from '../src/common/errors.js'
import { type FollowOptions, followJob } from '../src/follow/follow-job.js'
import { acceleratedClock, virtualClock } from './support/clock.js'
import { recordingLogger } from './support/fake-host.js'
import { seededRandom } from '../simulator/random.js'

const S = 1000

interface Status {
  status: string
  progress?: unknown
  n?: number
}

const TERMINAL = new Set(['completed', 'failed'])
const KNOWN = new Set(['queued', 'running', 'completed', 'failed'])

/** A job as a function of virtual time, followed on a virtual clock; records every check and when each line came. */
function harness(job: (t: number) => Status, overrides: Partial<FollowOptions<Status>> = {}) {
  // No jitter unless a test asks for it: every check time is exact.
  const clock = Object.assign(virtualClock(), { random: () => 0.5 })
  const log = recordingLogger()
  /** Clock time of every visible line. */
  const lineAt: number[] = []
  const timed = (print: (message: string) => void) => (message: string) => {
    print(message)
    lineAt.push(clock.now())
  }
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
    log: {
      ...log,
      info: timed(log.info),
      warning: timed(log.warning),
      notice: timed(log.notice),
      progress: timed(log.progress)
    },
    ...overrides
  }
  /** The longest time between two lines, from the start of the follow to its last line. */
  const longestSilence = (): number => Math.max(...lineAt.map((at, i) => at - (lineAt[i - 1] ?? 0)))
  return { clock, log, checks, seen, lineAt, longestSilence, run: () => followJob(options) }
}

describe('followJob on a virtual clock', () => {
  test('checkFirst: an already finished job is seen on the first check, without any wait', async () => {
    const h = harness(() => ({ status: 'completed' }), { checkFirst: true })
    const result = await h.run()
    expect(result).toEqual({ value: { status: 'completed' }, polls: 1 })
    expect(h.clock.now()).toBe(0)
    expect(h.log.lines).toEqual([
      'info: Export job j1: completed after 0ms.',
      'info: Export job j1 ended `completed` after 0ms and 1 status requests.'
    ])
  })

  test('a value read already counts as the first check', async () => {
    const h = harness((t) => ({ status: t >= 5 * S ? 'completed' : 'running' }), { first: { status: 'running' } })
    const result = await h.run()
    // After one reading without progress: the blind wait, at its floor so early.
    expect(h.checks).toEqual([5 * S])
    // The read that gave the first value was a status request too: the log's count has it.
    expect(result.polls).toBe(2)
    expect(h.log.lines).toContain('info: Export job j1 ended `completed` after 5s and 2 status requests.')
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

  test('timeout: a last check exactly at the deadline, then fails naming job, last status and way back', async () => {
    let n = 0
    const h = harness(() => ({ status: 'running', progress: 40, n: ++n }), { timeoutMs: 100 * S })
    const error = await h.run().catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ActionError)
    // Blind (the progress is stuck): every 5 s, then 15% of the time followed once that is more
    // (35 s: 5.25 s). The wait after the last check before 100 s would pass it: check at 100 s.
    expect(h.checks.slice(0, 7)).toEqual([5 * S, 10 * S, 15 * S, 20 * S, 25 * S, 30 * S, 35 * S])
    for (let i = 7; i < h.checks.length - 1; i++) {
      expect((h.checks[i] ?? 0) - (h.checks[i - 1] ?? 0)).toBeCloseTo(0.15 * (h.checks[i - 1] ?? 0))
    }
    expect((h.checks.at(-2) ?? 0) * 1.15).toBeGreaterThan(100 * S)
    expect(h.checks.at(-1)).toBe(100 * S)
    expect((error as Error).message).toBe(
      'Export job j1 did not finish within `timeout` (1m 40s): last seen running, 40%, after waiting 1m 40s. ' +
        'The job may still finish: rerun with `job-id: j1` to pick it up.'
    )
    expect(h.seen.at(-1)?.n).toBe(h.checks.length)
    expect(h.clock.now()).toBe(100 * S)
  })

  test('timeout during a read that fails: the same message, with the failed read and the way back', async () => {
    // A status request cut short by the deadline.
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
      'Export job j1 did not finish within `timeout` (1m 40s): last seen running, 40%; ' +
        'the last status request failed (network error ETIMEDOUT; no time is left within `timeout`), ' +
        'after waiting 1m 40s. The job may still finish: rerun with `job-id: j1` to pick it up.'
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

  test('any other read failure at the deadline is its own: no timeout saying the job may still finish', async () => {
    // A job gone, a bug.
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

  test('isPassing is told the checks failed since the last answer, afresh after an answer', async () => {
    // Those before the follow too.
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
    await expect(h.run()).resolves.toMatchObject({ value: { status: 'completed' } })
    expect(h.clock.now()).toBe(100 * S)
    expect(h.checks.at(-2)).toBeLessThan(100 * S)
  })

  test('a job that reports progress is checked by the same rule: a sudden end seen within 15%', async () => {
    // A steady pace says nothing of a failure: a job at 1 %/s that fails at 70 % is seen as soon as at 100 %.
    for (const [end, status] of [
      [70 * S, 'failed'],
      [100 * S, 'completed'],
      [30 * 60 * S, 'completed']
    ] as const) {
      const h = harness((t) => (t >= end ? { status } : { status: 'running', progress: Math.floor(t / S) % 100 }))
      const result = await h.run()
      expect(result.value.status).toBe(status)
      expect(h.clock.now() - end).toBeLessThanOrEqual(Math.max(5 * S, 0.15 * end))
    }
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

/** Jobs as each flow follows them, minus the service: their names, statuses and ends. */
const KINDS = {
  export: {
    name: 'Export job exp_1',
    terminal: TERMINAL,
    known: KNOWN,
    // Queued, then stuck at 40 % for most of its 40 minutes: nothing changes for the log to say.
    job: (t: number): Status =>
      t >= 40 * 60 * S
        ? { status: 'completed' }
        : t < 2 * S
          ? { status: 'queued' }
          : { status: 'running', progress: 40 }
  },
  agent: {
    name: 'Agent job job_abc',
    terminal: new Set(['completed', 'failed', 'archived']),
    known: new Set(['active', 'completed', 'failed', 'archived']),
    job: (t: number): Status => ({ status: t >= 45 * 60 * S ? 'completed' : 'active' })
  },
  deploy: {
    name: 'Deployment dep_1',
    terminal: new Set(['success', 'failure']),
    known: new Set(['queued', 'in_progress', 'success', 'failure']),
    job: (t: number): Status => ({ status: t >= 20 * 60 * S ? 'success' : t < 10 * S ? 'queued' : 'in_progress' })
  }
} as const

describe('a wait that keeps talking', () => {
  test.each(Object.entries(KINDS))(
    '%s: a line at least every minute of a long wait, saying the status, the time waited and the next check',
    async (_kind, { name, terminal, known, job }) => {
      const h = harness(job, { name, terminal, known, timeoutMs: 60 * 60 * S })
      await h.run()
      expect(h.longestSilence()).toBeLessThanOrEqual(60 * S)
      const heartbeats = h.log.lines.filter((line) => line.startsWith('progress:'))
      // Minutes of waiting without a change: about one line a minute.
      expect(heartbeats.length).toBeGreaterThanOrEqual(Math.floor(h.clock.now() / (60 * S)) - 1)
      for (const line of heartbeats) {
        expect(line).toMatch(
          new RegExp(`^progress: ${name}: still [a-z_]+(, 40%)? after \\d+m \\d\\ds; next check in \\d+s\\.$`)
        )
      }
      // Each change of status says when the next check comes, too.
      expect(h.log.lines.find((line) => line.startsWith(`info: ${name}: `))).toMatch(/ after 5s; next check in 5s\.$/)
    }
  )

  test('the first heartbeat: 55 s after the last line, with the last status seen and the next check', async () => {
    const h = harness(KINDS.agent.job, { ...KINDS.agent, timeoutMs: 60 * 60 * S })
    await h.run()
    expect(h.log.lines.slice(0, 2)).toEqual([
      'info: Agent job job_abc: active after 5s; next check in 5s.',
      'progress: Agent job job_abc: still active after 1m 00s; next check in 1s.'
    ])
  })

  test('a wait longer than a minute (a long max-poll-interval, a long first wait) is split by lines', async () => {
    const h = harness(KINDS.agent.job, {
      ...KINDS.agent,
      timeoutMs: 60 * 60 * S,
      initialIntervalMs: 3 * 60 * S,
      maxIntervalMs: 10 * 60 * S
    })
    await h.run()
    expect(h.longestSilence()).toBeLessThanOrEqual(60 * S)
    expect(h.log.lines[0]).toBe('progress: Agent job job_abc: not checked yet after 55s; next check in 2m 05s.')
    // Waits of up to 10 minutes, still a line every minute.
    expect(h.checks.length).toBeLessThan(20)
  })

  test('status answers that take 58 s: still a line at least every minute, saying a request is under way', async () => {
    // As a slow service answers (the simulator's `delayMs`), on the clock: the heartbeat has a timer of its own.
    const h = harness(KINDS.agent.job, {
      ...KINDS.agent,
      timeoutMs: 60 * 60 * S,
      check: async () => {
        h.checks.push(h.clock.now())
        await h.clock.sleep(58 * S)
        return KINDS.agent.job(h.clock.now())
      }
    })
    const { value } = await h.run()
    expect(value.status).toBe('completed')
    expect(h.checks.length).toBeGreaterThan(20)
    expect(h.longestSilence()).toBeLessThanOrEqual(60 * S)
    expect(h.log.lines[0]).toBe(
      'progress: Agent job job_abc: not checked yet after 55s; its status request has waited 50s for an answer.'
    )
  })

  test('a status request that hangs until the deadline: a line every minute all along, then the timeout', async () => {
    const h = harness(KINDS.agent.job, {
      ...KINDS.agent,
      timeoutMs: 10 * 60 * S,
      check: async () => {
        h.checks.push(h.clock.now())
        // The client bounds an attempt by the deadline (plus its grace), then fails it as out of time.
        await h.clock.sleep(10 * 60 * S - h.clock.now())
        throw Object.assign(new Error('no answer before `timeout` ran out'), { outOfTime: true })
      },
      isOutOfTime: (error) => (error as { outOfTime?: boolean }).outOfTime === true
    })
    await expect(h.run()).rejects.toThrow(
      /did not finish within `timeout` \(10m 00s\): no status read yet; the last status request failed/
    )
    expect(h.checks).toEqual([5 * S])
    expect(h.lineAt.length).toBeGreaterThanOrEqual(10)
    expect(h.longestSilence()).toBeLessThanOrEqual(60 * S)
    // The heartbeat ends with the follow: no timer left behind.
    const lines = h.lineAt.length
    await h.clock.sleep(10 * 60 * S)
    expect(h.lineAt).toHaveLength(lines)
  })
})

describe('jobs without progress: the end noticed in time, the service asked little', () => {
  test('seconds to hours long: seen within max(5 s, 15% of its run time), one request per 5 s at most', async () => {
    const lengths = [3 * S, 12 * S, 40 * S, 100 * S, 10 * 60 * S, 45 * 60 * S, 2 * 3600 * S]
    for (const length of lengths) {
      for (let seed = 1; seed <= 10; seed++) {
        // Each seed its own jitter, and its own end between two checks.
        const end = length - seededRandom(1000 + seed)() * Math.min(10 * S, length / 4)
        const h = harness(KINDS.agent.job, {
          ...KINDS.agent,
          check: async () => (h.checks.push(h.clock.now()), { status: h.clock.now() >= end ? 'completed' : 'active' }),
          timeoutMs: 3 * 3600 * S
        })
        Object.assign(h.clock, { random: seededRandom(seed) })
        const { polls } = await h.run()
        expect(h.clock.now() - end).toBeLessThanOrEqual(Math.max(5 * S, 0.15 * end))
        expect(h.clock.now() / polls).toBeGreaterThanOrEqual(5 * S)
      }
    }
  })

  test('a stalled export is checked as any job: within 15% of the time followed, its end seen in time', async () => {
    // 0 -> 40 % in 60 s, stuck at 40 % until 10 min, then 40 -> 100 % in 60 s.
    const job = (t: number): Status => {
      if (t >= 11 * 60 * S) return { status: 'completed' }
      const p = t < 60 * S ? (40 * t) / (60 * S) : t < 10 * 60 * S ? 40 : 40 + (60 * (t - 10 * 60 * S)) / (60 * S)
      return { status: 'running', progress: Math.floor(p) }
    }
    const h = harness(job)
    await h.run()
    // Once a check has seen the stall (40 % twice), the next comes within 15% of the time followed.
    const waitsInStall = h.checks.flatMap((at, i) =>
      h.seen[i - 1]?.progress === 40 && h.seen[i]?.progress === 40 ? [[at, (h.checks[i + 1] ?? 0) - at]] : []
    )
    expect(waitsInStall.length).toBeGreaterThan(5)
    for (const [at = 0, wait = 0] of waitsInStall) expect(wait).toBeLessThanOrEqual(Math.max(5 * S, 0.15 * at) + 1)
    expect(h.clock.now() - 11 * 60 * S).toBeLessThanOrEqual(0.15 * 11 * 60 * S)
  })
})

describe("the service's word and the step's bound", () => {
  /** A passing outage whose answer asked to wait `retryAfterMs`. */
  const busy = (retryAfterMs: number): Error => Object.assign(new Error('HTTP 429'), { retryAfterMs })
  const askedWait = (error: unknown): number | undefined => (error as { retryAfterMs?: number }).retryAfterMs

  test('Retry-After: a passing outage is checked again no sooner than the service asked', async () => {
    const h = harness(
      (t) => {
        if (t === 10 * S) throw busy(30 * S)
        return { status: t >= 60 * S ? 'completed' : 'running' }
      },
      { isPassing: () => true, askedWait }
    )
    await h.run()
    expect(h.checks.slice(0, 3)).toEqual([5 * S, 10 * S, 40 * S])
    expect(h.log.lines).toContain(
      'warning: Export job j1: could not read its status (HTTP 429); still waiting, checking again in 30s.'
    )
  })

  test('Retry-After past the deadline ends the wait at once, as the timeout, with the failed read', async () => {
    const h = harness(
      (t) => {
        if (t === 10 * S) throw busy(10 * 60 * S)
        return { status: 'running' }
      },
      { isPassing: () => true, askedWait, timeoutMs: 120 * S }
    )
    await expect(h.run()).rejects.toThrow(
      'Export job j1 did not finish within `timeout` (2m 00s): last seen running; the last status request failed ' +
        '(HTTP 429), after waiting 10s. The job may still finish: rerun with `job-id: j1` to pick it up.'
    )
    expect(h.checks).toEqual([5 * S, 10 * S])
  })

  test('timeout: no wait and no line passes the deadline; the last check is at it', async () => {
    const h = harness(KINDS.agent.job, { ...KINDS.agent, timeoutMs: 10 * 60 * S })
    await expect(h.run()).rejects.toThrow(/did not finish within `timeout` \(10m 00s\): last seen active/)
    expect(h.checks.at(-1)).toBe(10 * 60 * S)
    expect(Math.max(...h.lineAt)).toBeLessThanOrEqual(10 * 60 * S)
    const next = h.log.lines.flatMap((line) => {
      const match = / after (\d+)m (\d\d)s; next check in (\d+)s\.$/.exec(line)
      return match ? [Number(match[1]) * 60 + Number(match[2]) + Number(match[3])] : []
    })
    expect(next.length).toBeGreaterThan(5)
    expect(Math.max(...next)).toBeLessThanOrEqual(10 * 60)
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
