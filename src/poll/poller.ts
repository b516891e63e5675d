/**
 * The polling loop: check, read, decide, sleep. It does no I/O of its own: the status request,
 * the clock and the cancellation signal are handed to it, so tests and the benchmark run it on a
 * virtual clock.
 */
import type { Clock } from '../clock.js'
import { untilCancelled } from '../cancellation.js'
import { CancelledError } from '../errors.js'
import { type PollObservation, type PollSettings, nextPollDelay, usableProgress } from './schedule.js'

export type { PollObservation, PollSettings } from './schedule.js'

export interface PollOptions<T> {
  /** One status request (the caller's client does the HTTP retries). */
  check: () => Promise<T>
  read: (value: T) => { status: string; progress?: number | undefined; done: boolean }
  settings: PollSettings
  clock: Clock
  signal?: AbortSignal
  random?: () => number
  /** Clock ms when the job was started by us, if we did (else unknown). */
  startedAt?: number
  /** true: check at once (an existing job may already be done); false: wait initialIntervalMs first. */
  checkFirst?: boolean
  onObservation?: (value: T, observation: PollObservation, polls: number) => void
}

export interface PollResult<T> {
  value: T
  polls: number
  elapsedMs: number
}

export class PollTimeoutError<T> extends Error {
  override readonly name = 'PollTimeoutError'
  readonly last: T | undefined
  readonly polls: number
  readonly elapsedMs: number

  constructor(last: T | undefined, polls: number, elapsedMs: number, lastStatus?: string) {
    const status = lastStatus === undefined ? '' : `; last status: ${lastStatus}`
    super(`The job did not finish within ${Math.round(elapsedMs / 1000)} s (${polls} status checks${status})`)
    this.last = last
    this.polls = polls
    this.elapsedMs = elapsedMs
  }
}

/**
 * Polls until `read` says done, and resolves with that value. Rejects with CancelledError as soon
 * as `signal` fires (also mid-sleep or mid-check), with whatever `check` or `read` throws, or
 * with PollTimeoutError once the deadline (start + timeoutMs) has passed. It never gives up
 * early: a wait that would pass the deadline is cut short to poll once more at the deadline.
 */
export async function pollUntilDone<T>(options: PollOptions<T>): Promise<PollResult<T>> {
  const { check, read, settings, clock, signal, startedAt, onObservation } = options
  const random = options.random ?? Math.random
  if (signal?.aborted) throw new CancelledError()
  const start = clock.now()
  const deadline = start + settings.timeoutMs
  const history: PollObservation[] = []
  let polls = 0
  let last: T | undefined

  const sleepAtMost = async (ms: number): Promise<void> => {
    const wait = Math.max(0, Math.min(ms, deadline - clock.now()))
    await clock.sleep(wait, signal)
  }

  if (options.checkFirst !== true) await sleepAtMost(settings.initialIntervalMs)
  for (;;) {
    const value = await untilCancelled(check(), signal)
    polls++
    last = value
    const reading = read(value)
    const now = clock.now()
    const observation: PollObservation = { at: now, status: reading.status, progress: usableProgress(reading.progress) }
    history.push(observation)
    onObservation?.(value, observation, polls)
    if (reading.done) return { value, polls, elapsedMs: now - start }
    if (now >= deadline) throw new PollTimeoutError(last, polls, now - start, reading.status)
    await sleepAtMost(nextPollDelay(history, settings, now, random, startedAt))
  }
}
