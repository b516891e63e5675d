/**
 * The follower as it was before the lag bound and the heartbeat (docs/benchmarks.md of
 * 2026-11-22), kept as the polling part's "before" for jobs that report no progress: a blind
 * backoff from the first wait, doubling per status request up to the cap, +-10% jitter (the same
 * seeded stream as the action's virtual clock), and a line only when the status changes.
 */
import { seededRandom } from '../simulator/random.js'
import type { JobStatus, PollOutcome, PollSettings } from './action-poller.js'

const GROWTH = 2
const JITTER = 0.1

/**
 * Follows `job` (status as a function of time since its start, no progress) as the action did, having started it
 * at 0.
 */
export function pollAsBefore(job: (t: number) => JobStatus, settings: PollSettings, seed: number): PollOutcome {
  const random = seededRandom(seed)
  const floor = Math.max(1, settings.initialIntervalMs / 5)
  const lineAtMs: number[] = []
  let shown: string | undefined
  let t = Math.min(settings.initialIntervalMs, settings.timeoutMs)
  for (let requests = 1; ; requests++) {
    const { status } = job(t)
    if (status !== shown) {
      lineAtMs.push(t)
      shown = status
    }
    if (status === 'completed' || status === 'failed') return { requests, doneAtMs: t, lineAtMs }
    if (t >= settings.timeoutMs) return { requests, doneAtMs: undefined, lineAtMs }
    const base = Math.min(settings.maxIntervalMs, settings.initialIntervalMs * GROWTH ** Math.min(requests, 64))
    t = Math.min(settings.timeoutMs, t + Math.max(floor, base * (1 + JITTER * (2 * random() - 1))))
  }
}
