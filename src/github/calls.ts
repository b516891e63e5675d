/**
 * How the agent flow calls GitHub: reads it depends on, and the write of the reply's marker before
 * the service is asked, are retried like the service's GETs and fail when GitHub cannot answer;
 * everything else is best-effort, one short bounded try whose failure is a warning, never a failed
 * step, and while the job is followed not waited for (see Serial): a slow GitHub never costs the
 * job its wait.
 */
import type { FlowContext } from '../action/context.js'
import { GitHubAnswerError, GitHubApiError } from '../action/host.js'
import { withTimeout } from '../common/cancellation.js'
import { budget } from '../common/deadline.js'
import { CancelledError, errorMessage } from '../common/errors.js'
import type { AttemptFailure } from '../service/failure.js'
import { AttemptError, type BackoffPolicy, withRetries } from '../service/retry.js'

/** Bound on one GitHub request the run needs: a slow GitHub API must not hold up the step. */
const GITHUB_TIMEOUT_MS = 15_000
/**
 * Bound of a best-effort request of its own, whatever is left of `timeout`: the reply's edit, the
 * record, the reaction. Also what it may take past the step's `timeout`: the reply that says how
 * the run ended comes after the last status check, which may have used the deadline's whole
 * grace, and a reply left saying "working" misleads everyone who reads it.
 */
const BEST_EFFORT_MS = 5_000
/** Bound on reading a whole conversation, page after page (up to 50 pages of 100 comments). */
export const LISTING_TIMEOUT_MS = 120_000
/** What the reply of a cancelled run may take: the action ends itself 2.5 s after the signal (see cancelOnSignals). */
const CANCELLED_WORD_MS = 1500
const GITHUB_RETRY: BackoffPolicy = { initialMs: 1000, maxMs: 10_000, maxAttempts: 4, floorMs: 1000 }

/** Hint for a refused write on the workflow's own repository. */
export const WRITE_PERMISSION_HINT =
  'Check that `github-token` may write to issues and pull requests (`permissions: issues: write, pull-requests: ' +
  'write`).'
/** For a refused read: reading the comments of a pull request needs no more than read access. */
export const READ_PERMISSION_HINT =
  'Check that `github-token` may read issues and pull requests (`permissions: issues: read, pull-requests: ' +
  'read`, or their `write`).'

/**
 * A read the run cannot do without: retried on network errors, 408, 429 and 5xx within the
 * step's deadline; the last failure is thrown as a GitHubApiError that says how often it was tried.
 */
export async function readGitHub<T>(
  context: FlowContext,
  call: (signal: AbortSignal) => Promise<T>,
  timeoutMs = GITHUB_TIMEOUT_MS
): Promise<T> {
  return retried(context, () => attempt(context, call, timeoutMs))
}

/**
 * A write the run cannot go on without (the reply whose marker a rerun reads), retried as a read
 * is. A post is not made twice: after any failed try, `find` looks for what it wrote before the
 * next one, and what it finds is the result. Also after a failure that says nothing was written
 * (a 429, a 503): a thread read costs little, a second reply stays. An edit, which writes the same
 * again, needs no `find`.
 */
export async function writeGitHub<T>(
  context: FlowContext,
  call: (signal: AbortSignal) => Promise<T>,
  find?: () => Promise<T | undefined>
): Promise<T> {
  let tried = false
  return retried(context, async () => {
    const found = tried && find !== undefined ? await find() : undefined
    if (found !== undefined) return found
    tried = true
    return attempt(context, call, GITHUB_TIMEOUT_MS)
  })
}

/**
 * `tries` until one succeeds or the failure is final; the last failure as a GitHubApiError that
 * says how often it was tried, with GitHub's own status (a rate limit's 403 stays a 403).
 */
async function retried<T>(context: FlowContext, tries: () => Promise<T>): Promise<T> {
  const { clock, signal, deadline } = context
  try {
    return await withRetries(tries, { kind: 'idempotent', policy: GITHUB_RETRY, clock, signal, deadline })
  } catch (error) {
    if (!(error instanceof AttemptError)) throw error
    const tried = error.attempts > 1 ? ` (after ${error.attempts} attempts)` : ''
    const last = error instanceof GitHubAttemptError ? error.original : undefined
    if (last instanceof GitHubAnswerError) throw new GitHubAnswerError(last.status, `${last.message}${tried}`)
    if (last instanceof GitHubApiError)
      throw new GitHubApiError(last.status, `${last.message}${tried}`, last.rateLimited, last.retryAfter)
    throw new GitHubApiError(0, `${error.message}${tried}`)
  }
}

/** A failed try of a GitHub call, as the retry policy judges it, with GitHub's own error for the message. */
class GitHubAttemptError extends AttemptError {
  constructor(readonly original: unknown) {
    super(failureOf(original), errorMessage(original))
  }
}

/** One bounded try of `call`, its failure as an AttemptError for the retry policy to judge. */
async function attempt<T>(
  context: FlowContext,
  call: (signal: AbortSignal) => Promise<T>,
  timeoutMs: number
): Promise<T> {
  try {
    return await bounded(context, call, 0, timeoutMs)
  } catch (error) {
    if (context.signal.aborted) throw new CancelledError()
    // An answer that cannot be whole is so on every try.
    if (error instanceof GitHubAnswerError && error.incomplete) throw error
    throw new GitHubAttemptError(error)
  }
}

/**
 * One best-effort try: at most `timeoutMs` (BEST_EFFORT_MS for one request), within what is left
 * of `timeout` but never less than BEST_EFFORT_MS, past it too. A failure is a warning (with
 * `hint` for a refusal) and gives undefined.
 */
export async function tryGitHub<T>(
  context: FlowContext,
  what: string,
  call: (signal: AbortSignal) => Promise<T>,
  hint = WRITE_PERMISSION_HINT,
  timeoutMs = BEST_EFFORT_MS
): Promise<T | undefined> {
  const { signal, host } = context
  if (signal.aborted) return undefined
  try {
    const result = await bounded(context, call, BEST_EFFORT_MS, timeoutMs)
    host.log.debug(`Did ${what}.`)
    return result
  } catch (error) {
    host.log.warning(`Could not ${what}: ${describeGitHubError(error, hint)}`)
    return undefined
  }
}

/**
 * Best-effort writes to one comment or conversation, one after the other, so that a later one is
 * never overtaken by an earlier: `soon` queues one and does not wait for it (the job is followed
 * meanwhile), `now` queues one and waits for it and all before it, `settled` waits for all.
 */
export class Serial {
  private last: Promise<unknown> = Promise.resolve()

  soon(write: () => Promise<unknown>): void {
    this.last = this.last.then(write).catch(() => undefined)
  }

  async now<T>(write: () => Promise<T>): Promise<T> {
    const done = this.last.then(write)
    this.last = done.catch(() => undefined)
    return done
  }

  async settled(): Promise<void> {
    await this.last
  }
}

/**
 * The one write a cancelled run still makes (the reply saying it was cancelled): a single try of
 * at most CANCELLED_WORD_MS, outside the cancellation, well inside the grace a cancelled run has
 * before it is ended (see cancelOnSignals). A failure is a debug line: the run is ending.
 */
export async function tryGitHubWhenCancelled(
  context: FlowContext,
  what: string,
  call: (signal: AbortSignal) => Promise<unknown>
): Promise<void> {
  try {
    // Real time, not the run's clock: what it must beat is the real timer that ends the process.
    await call(AbortSignal.timeout(CANCELLED_WORD_MS))
  } catch (error) {
    context.host.log.debug(`Could not ${what}: ${describeGitHubError(error)}`)
  }
}

export function describeGitHubError(error: unknown, hint = WRITE_PERMISSION_HINT): string {
  const message = errorMessage(error)
  if (!(error instanceof GitHubApiError) || error.status === 0 || error instanceof GitHubAnswerError) return message
  const limit = error.rateLimited ? " (GitHub's rate limit for the token)" : ''
  return (
    `HTTP ${error.status}${limit}: ` +
    `${message}.${error.refused && !error.rateLimited && hint !== '' ? ` ${hint}` : ''}`
  )
}

/**
 * One request, within its own bound and the step's `timeout` (a reply after a timeout still gets
 * the grace), and never less than `atLeastMs` (nor more than its own bound).
 */
function bounded<T>(
  context: FlowContext,
  call: (signal: AbortSignal) => Promise<T>,
  atLeastMs: number,
  timeoutMs: number
): Promise<T> {
  const ms = Math.min(timeoutMs, Math.max(atLeastMs, budget(context.clock, context.deadline, timeoutMs).ms))
  return withTimeout(context.clock, ms, context.signal, call)
}

function failureOf(error: unknown): AttemptFailure {
  // An answer that could not be read: another try may read one (a read), or find what a post made.
  if (error instanceof GitHubAnswerError) return { kind: 'answer', status: error.status, problem: error.message }
  // Asked to slow down, it is a 429 whatever the status said: retried, after what GitHub asked.
  // No answer (status 0: refused, reset, no such host, cut short) is a network failure, which a
  // read retries as it does a 5xx.
  if (error instanceof GitHubApiError && error.status > 0)
    return { kind: 'status', status: error.rateLimited ? 429 : error.status, retryAfter: error.retryAfter }
  return { kind: 'network', code: (error as NodeJS.ErrnoException)?.code, message: errorMessage(error) }
}
