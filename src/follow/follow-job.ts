/**
 * Following a job until it ends, for export and agent jobs and deployments alike: check, read,
 * report, sleep. The status request, the clock and the cancellation signal are handed in, so tests
 * and the benchmark run it on a virtual clock; when to check next is schedule.ts's pure decision,
 * and wait-log.ts keeps the log from going quiet, in the sleeps and in a slow status request.
 */
import { untilCancelled } from '../common/cancellation.js'
import type { Clock } from '../common/clock.js'
import { TimeoutError, errorMessage, throwIfCancelled } from '../common/errors.js'
import type { Logger } from '../common/log.js'
import { formatDuration } from '../common/units.js'
import { nextPollDelay } from './schedule.js'
import { WaitLog } from './wait-log.js'

/** What one status answer says, as the follower needs it. */
export interface JobReading {
  status: string
  /** For the log: `running, 40%, 120 pages`. A change of it is logged. */
  summary: string
}

export interface FollowOptions<T> {
  /** The job as the log names it: `Export job exp_123`. */
  name: string
  /** One status request (the service client does its own retries). */
  check: () => Promise<T>
  /**
   * Whether a failed check is a passing outage (the service unreachable or busy for the client's
   * few retries): the wait then goes on, checking again at the next interval, until the deadline.
   * Any other failure ends it. `earlier`: the checks failed since the last answer (see `failed`).
   */
  isPassing?: ((error: unknown, earlier: readonly unknown[]) => boolean) | undefined
  /**
   * Whether a failed check ran out of time: cut short by the deadline, or with no time left for
   * another try. The step's timeout, said as such (with what was last seen and how to go on).
   */
  isOutOfTime?: ((error: unknown) => boolean) | undefined
  /**
   * How long the service asked to wait (its `Retry-After`) in a failed check, in ms from `now`:
   * a passing outage is checked again no sooner. A wait past the deadline ends the follow at once.
   */
  askedWait?: ((error: unknown, now: number) => number | undefined) | undefined
  /** Checks that failed before the follow began (a first read that gave no status), for isPassing. */
  failed?: readonly unknown[] | undefined
  read: (value: T) => JobReading
  /** Statuses that end the wait. */
  terminal: ReadonlySet<string>
  /** Statuses the action knows; any other counts as still running, after one warning. */
  known: ReadonlySet<string>
  /** Called with every answer, first to last (outputs, a progress comment); a promise is waited for. */
  onValue?: (value: T) => void | Promise<void>
  /**
   * Whether a terminal answer may still show the job as it was before this run acted on it (the
   * effect of an agent message on `status` is left open by the spec, 3.1). Such an answer ends the
   * wait only at clock time `until` (or at the deadline), with a warning; until then the job is
   * checked again.
   */
  stale?: { is: (value: T) => boolean; until: number; what: string } | undefined
  /** An answer read already: it counts as the first check. */
  first?: T | undefined
  /** Whether the first check comes at once (the job may be done already) or after one interval. */
  checkFirst: boolean
  initialIntervalMs: number
  maxIntervalMs: number
  /** Clock time the step started: elapsed times count from here, and the timeout too. */
  startedAt: number
  timeoutMs: number
  /** How to pick the job up after a timeout: `rerun with \`job-id: x\``. */
  resumeHint: string
  clock: Clock
  log: Logger
  signal?: AbortSignal | undefined
}

export interface FollowResult<T> {
  value: T
  /** Status requests made, the one that gave `first` included. */
  polls: number
}

/**
 * Checks until the job reaches a terminal status, and resolves with that answer. Logs one line per
 * change (with when the next check comes), a line whenever the log would otherwise stay quiet for a
 * minute, and warns once per unknown status. It never gives up early: a wait that would pass the
 * deadline is cut short to check once more at the deadline; after that, it fails with an
 * TimeoutError that names the job, its last status and how to pick it up again. A check that
 * fails with a passing outage (see isPassing) is warned about and made again at the next interval,
 * as long as time is left. Rejects with CancelledError as soon as `signal` fires, and with any other
 * failure of `check`.
 */
export async function followJob<T>(options: FollowOptions<T>): Promise<FollowResult<T>> {
  const { clock, signal, name, startedAt } = options
  const deadline = startedAt + options.timeoutMs
  const schedule = { initialIntervalMs: options.initialIntervalMs, maxIntervalMs: options.maxIntervalMs }
  const followedFrom = clock.now()
  const nextDelay = (now: number): number => nextPollDelay(now - followedFrom, schedule, () => clock.random())
  const warned = new Set<string>()
  let lastSummary: string | undefined
  let polls = 0
  /** Checks failed since the last answer (see isPassing). */
  let failed: unknown[] = [...(options.failed ?? [])]
  /** When the status request under way was sent, or when the next one is due: what the heartbeat says. */
  let asking: { since: number } | { next: number } = { next: clock.now() }
  const elapsed = (): string => formatDuration(clock.now() - startedAt)
  /** Where the follow stands, for the heartbeat's line. */
  const standing = (): string => {
    const now = clock.now()
    const doing =
      'since' in asking
        ? `its status request has waited ${formatDuration(now - asking.since)} for an answer`
        : `next check in ${formatDuration(Math.max(0, asking.next - now))}`
    const seen = lastSummary === undefined ? 'not checked yet' : `still ${lastSummary}`
    return `${name}: ${seen} after ${elapsed()}; ${doing}.`
  }
  const log = new WaitLog(options.log, clock, standing)
  const sleepAtMost = async (ms: number): Promise<void> => {
    const wait = Math.max(0, Math.min(ms, deadline - clock.now()))
    asking = { next: clock.now() + wait }
    await clock.sleep(wait, signal)
  }
  /** One status request, the heartbeat saying it is under way. */
  const check = async (): Promise<T> => {
    asking = { since: clock.now() }
    return untilCancelled(options.check(), signal)
  }
  // The heartbeat runs until the follow ends, however it ends.
  try {
    /** The timeout's failure: what was last seen, the read that failed at the end if one did, and how to go on. */
    const timedOut = (failedRead?: unknown): TimeoutError => {
      const seen = lastSummary === undefined ? 'no status read yet' : `last seen ${lastSummary}`
      const read = failedRead === undefined ? '' : `; the last status request failed (${errorMessage(failedRead)})`
      return new TimeoutError(
        `${name} did not finish within \`timeout\` (${formatDuration(options.timeoutMs)}): ${seen}${read}, after ` +
          `waiting ${elapsed()}. ` +
          `The job may still finish: ${options.resumeHint}.`,
        failedRead === undefined ? undefined : { cause: failedRead }
      )
    }

    throwIfCancelled(signal)
    const staleUntil = options.stale === undefined ? -Infinity : Math.min(options.stale.until, deadline)
    let value = options.first
    // The read that gave it was a status request too.
    if (value !== undefined) polls++
    if (value === undefined && !options.checkFirst) await sleepAtMost(options.initialIntervalMs)
    for (;;) {
      if (value === undefined) {
        polls++
        try {
          value = await check()
          failed = []
        } catch (error) {
          if (signal?.aborted) throw error
          const passing = options.isPassing?.(error, failed) === true
          failed.push(error)
          // Out of time (the deadline cut the read short, or left no time to try again), or at the
          // deadline with a read that would have been made again: the timeout's own message, with
          // what was last seen and how to go on. Any other failure is its own.
          if (options.isOutOfTime?.(error) === true || (passing && clock.now() >= deadline)) throw timedOut(error)
          if (!passing) throw error
          // The job goes on without us: a long wait should not end on a short outage, but the
          // service's own word on when to ask again is kept, also when `timeout` does not leave it.
          const asked = options.askedWait?.(error, clock.now())
          if (asked !== undefined && clock.now() + asked > deadline) throw timedOut(error)
          const delay = Math.max(asked ?? 0, nextDelay(clock.now()))
          const next = formatDuration(Math.min(delay, deadline - clock.now()))
          log.warning(
            `${name}: could not read its status (${errorMessage(error)}); still waiting, checking again in ${next}.`
          )
          await sleepAtMost(delay)
          continue
        }
      }
      const reading = options.read(value)
      const now = clock.now()
      if (!options.known.has(reading.status) && !warned.has(reading.status)) {
        warned.add(reading.status)
        log.warning(`${name} reports the unknown status \`${reading.status}\`; treating it as still running.`)
      }
      const terminal = options.terminal.has(reading.status)
      // Decided before the change line, which says when the next check comes (unless it may be the end).
      const delay = nextDelay(now)
      if (reading.summary !== lastSummary) {
        const next =
          terminal || now >= deadline ? '' : `; next check in ${formatDuration(Math.min(delay, deadline - now))}`
        log.info(`${name}: ${reading.summary} after ${elapsed()}${next}.`)
        lastSummary = reading.summary
      }
      await options.onValue?.(value)
      const stale = terminal && options.stale?.is(value) === true
      if (terminal && (!stale || now >= staleUntil)) {
        if (stale) {
          log.warning(
            `${name} still shows \`${reading.status}\` as it did before ${options.stale?.what}, ${elapsed()} ` +
              `later: taken as its end, though the service may not have taken it up yet.`
          )
        }
        log.info(`${name} ended \`${reading.status}\` after ${elapsed()} and ${polls} status requests.`)
        return { value, polls }
      }
      if (now >= deadline) throw timedOut()
      // A stale end is checked again no later than when it would be taken.
      await sleepAtMost(stale ? Math.min(delay, staleUntil - now) : delay)
      value = undefined
    }
  } finally {
    log.stop()
  }
}
