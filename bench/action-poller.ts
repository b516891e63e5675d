/**
 * The one place the benchmark reaches into the sources: the action's own job follower, run on a
 * virtual clock (a 45-minute job takes microseconds). Everything else is measured through the
 * built dist/index.js. When the sources move, only the imports below change.
 */
import { ActionError } from '../src/common/errors.js'
import type { Logger } from '../src/common/log.js'
import { followJob } from '../src/follow/follow-job.js'
import { virtualClock } from '../test/support/clock.js'

export interface PollSettings {
  initialIntervalMs: number
  maxIntervalMs: number
  timeoutMs: number
  /** How long each status answer takes to come (a slow service), 0 unless given. */
  answerMs?: number
}

export interface JobStatus {
  status: string
  progress?: number
}

export interface PollOutcome {
  requests: number
  /** Virtual ms from start to the poll that saw the job done; undefined when the loop gave up. */
  doneAtMs: number | undefined
  /** Virtual ms of every visible line the follower printed (info, warning, notice, progress). */
  lineAtMs: number[]
}

const TERMINAL = new Set(['completed', 'failed'])
const KNOWN = new Set([...TERMINAL, 'queued', 'running', 'active'])

/** A logger that keeps only when each visible line was printed. */
function timingLogger(now: () => number, lineAtMs: number[]): Logger {
  const line = (): void => void lineAtMs.push(now())
  return { debug: () => {}, info: line, warning: line, notice: line, progress: line, group: (_title, fn) => fn() }
}

/** Polls `job` (status as a function of virtual time since its start) as the action would, having started it at 0. */
export async function pollLikeTheAction(
  job: (t: number) => JobStatus,
  settings: PollSettings,
  seed: number
): Promise<PollOutcome> {
  const clock = virtualClock({ seed })
  let requests = 0
  const lineAtMs: number[] = []
  try {
    await followJob({
      name: 'Export job bench',
      check: async () => {
        requests++
        if (settings.answerMs) await clock.sleep(settings.answerMs)
        return job(clock.now())
      },
      read: (s) => ({ status: s.status, summary: s.status }),
      terminal: TERMINAL,
      known: KNOWN,
      checkFirst: false,
      initialIntervalMs: settings.initialIntervalMs,
      maxIntervalMs: settings.maxIntervalMs,
      startedAt: 0,
      timeoutMs: settings.timeoutMs,
      resumeHint: '',
      clock,
      log: timingLogger(() => clock.now(), lineAtMs)
    })
    return { requests, doneAtMs: clock.now(), lineAtMs }
  } catch (error) {
    if (error instanceof ActionError) return { requests, doneAtMs: undefined, lineAtMs }
    throw error
  }
}
