/**
 * The one place the benchmark reaches into the sources: the action's pure polling loop, run on a
 * virtual clock (a 45-minute job takes microseconds). Everything else is measured through the
 * built dist/index.js. When the sources move, only the imports below change.
 */
import { virtualClock } from '../src/clock.js'
import { PollTimeoutError, pollUntilDone } from '../src/poll/poller.js'
import { seededRandom } from '../simulator/random.js'

export interface PollSettings {
  initialIntervalMs: number
  maxIntervalMs: number
  timeoutMs: number
}

export interface JobStatus {
  status: string
  progress?: number
}

export interface PollOutcome {
  requests: number
  /** Virtual ms from start to the poll that saw the job done; undefined when the loop gave up. */
  doneAtMs: number | undefined
}

/** Polls `job` (status as a function of virtual time since its start) as the action would, having started it at 0. */
export async function pollLikeTheAction(job: (t: number) => JobStatus, settings: PollSettings, seed: number): Promise<PollOutcome> {
  const clock = virtualClock(0)
  try {
    const result = await pollUntilDone({
      check: async () => job(clock.now()),
      read: (s) => ({ status: s.status, progress: s.progress, done: s.status === 'completed' || s.status === 'failed' }),
      settings,
      clock,
      random: seededRandom(seed),
      startedAt: 0,
      checkFirst: false
    })
    return { requests: result.polls, doneAtMs: result.elapsedMs }
  } catch (error) {
    if (error instanceof PollTimeoutError) return { requests: error.polls, doneAtMs: undefined }
    throw error
  }
}
