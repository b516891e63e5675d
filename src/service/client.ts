import type { IncomingMessage } from 'node:http'
import { HttpClient } from '@actions/http-client'
import { withTimeout } from '../common/cancellation.js'
import type { Clock } from '../common/clock.js'
import { type Budget, budget } from '../common/deadline.js'
import { ActionError, CancelledError, errorMessage, isAbortError, throwIfCancelled } from '../common/errors.js'
import { maskLinksIn, withoutLinkSecrets } from '../common/link-secrets.js'
import type { Logger } from '../common/log.js'
import type { Secrets } from '../common/secrets.js'
import { formatBytes, formatDuration, formatSeconds } from '../common/units.js'
import { cutShort, serviceText } from '../common/text.js'
import { NoStatusError } from './answer.js'
import { USER_AGENT, header, readBody, send } from './exchange.js'
import {
  type AttemptFailure,
  NOT_SENT,
  type RequestKind,
  type Feature,
  classify,
  describeAmbiguity,
  describeFailure,
  refusalAdvice
} from './failure.js'
import { AttemptError, DEFAULT_BACKOFF, askedWaitOf, describeWaitEnd, withRetries } from './retry.js'

/** Bound on one attempt, from sending to the whole answer (less when `timeout` is nearer). */
const REQUEST_TIMEOUT_MS = 60_000
/** The largest answer read: the documented ones are a few hundred bytes. */
const MAX_ANSWER_BYTES = 4 * 1024 * 1024

export interface ServiceClientOptions {
  /** Base address without a trailing slash, possibly with a path prefix. */
  baseUrl: string
  apiKey: string
  clock: Clock
  log: Logger
  /**
   * The run's secrets: every answer's links have theirs registered before anything reads the
   * answer, and every text of it is redacted before it is cut (see readAnswer).
   */
  secrets: Secrets
  signal?: AbortSignal | undefined
}

export interface ServiceRequest {
  method: 'GET' | 'POST'
  /** Path below the base address, each segment already encoded (see common/path-segment.ts). */
  path: string
  body?: unknown
  kind: RequestKind
  /** What the request does, for messages: "start the export of docs.acme.com". */
  what: string
  /** A feature of the organization's the request needs: a 403 may mean it is not enabled. */
  feature?: Feature | undefined
  /**
   * Absolute clock time after which no retry wait is started; each attempt also ends by then
   * (plus the short grace of common/deadline.ts).
   */
  deadline?: number | undefined
}

/** A request the service refused or that could not be completed, with what is known about it. */
export class ServiceError extends ActionError {
  constructor(
    message: string,
    readonly failure: AttemptFailure,
    /** The service's own `error` text, when it gave one. */
    readonly serviceError: string | undefined,
    readonly attempts: number,
    /** True when the retries stopped only because the step's timeout would pass. */
    readonly stoppedByDeadline: boolean,
    /** True when the service may have acted on the request despite the failure. */
    readonly mayHaveBeenProcessed: boolean
  ) {
    super(message)
  }

  get status(): number | undefined {
    return this.failure.kind === 'status' ? this.failure.status : undefined
  }

  /** The same failure, told differently. */
  withMessage(message: string): ServiceError {
    return new ServiceError(
      message,
      this.failure,
      this.serviceError,
      this.attempts,
      this.stoppedByDeadline,
      this.mayHaveBeenProcessed
    )
  }
}

/**
 * The one way the action talks to the service: it adds the bearer credential (only ever to the
 * base address's origin: redirects are not followed), sends and reads JSON, and retries through
 * the one retry loop with `Retry-After`.
 */
export class ServiceClient {
  private readonly http: HttpClient

  constructor(private readonly options: ServiceClientOptions) {
    // Redirects are refused so the key can never follow one to another origin; retries are ours.
    this.http = new HttpClient(USER_AGENT, [], {
      allowRedirects: false,
      allowRetries: false,
      keepAlive: true,
      socketTimeout: REQUEST_TIMEOUT_MS
    })
  }

  /** Resolves with the answer's JSON body. */
  async request(request: ServiceRequest): Promise<unknown> {
    const { clock, log, signal } = this.options
    // Whether the service may have the request: from just before a send, until a failure the
    // service surely did not act on. A cancellation says so (a rerun may then send it again).
    const sent = { maybe: false }
    try {
      return await withRetries((attempt) => this.attempt(request, attempt, sent), {
        kind: request.kind,
        policy: DEFAULT_BACKOFF,
        clock,
        signal,
        deadline: request.deadline,
        onRetry: ({ failure, delayMs, retry }) => {
          if (!classify(request.kind, failure).mayHaveBeenProcessed) sent.maybe = false
          log.info(
            `Could not ${request.what} (${describeFailure(failure)}); retry ${retry} in ${formatSeconds(delayMs)}.`
          )
        }
      })
    } catch (error) {
      if (error instanceof AttemptError) throw explain(request, error, clock.now(), this.options.baseUrl)
      if (isAbortError(error) && !sent.maybe) throw new CancelledError(undefined, true)
      throw error
    }
  }

  /** Releases kept-alive sockets so the process can end. */
  dispose(): void {
    this.http.dispose()
  }

  private async attempt(request: ServiceRequest, attempt: number, sent: { maybe: boolean }): Promise<unknown> {
    const { clock, signal } = this.options
    throwIfCancelled(signal)
    const url = new URL(`${this.options.baseUrl}${request.path}`)
    const headers: Record<string, string> = {
      Authorization: `Bearer ${this.options.apiKey}`,
      Accept: 'application/json'
    }
    let payload: string | null = null
    if (request.body !== undefined) {
      headers['Content-Type'] = 'application/json'
      payload = JSON.stringify(request.body)
    }
    this.options.log.debug(`${request.method} ${request.path} (attempt ${attempt})`)
    const bound = budget(clock, request.deadline, REQUEST_TIMEOUT_MS)
    // Past the deadline's grace: not sent at all, so surely not processed (never "may have been").
    if (bound.ms <= 0) throw new AttemptError({ kind: 'network', code: NOT_SENT, message: 'it was not sent' })
    return withTimeout(clock, bound.ms, signal, async (stop) => {
      let response: IncomingMessage
      sent.maybe = true
      try {
        response = await send(this.http, { url, method: request.method, headers, body: payload, signal: stop })
      } catch (error) {
        // Whatever fails once `stop` fired failed because of it: the cancellation or the time bound.
        if (signal?.aborted) throw new CancelledError()
        throw new AttemptError(
          stop.aborted ? { kind: 'network', code: 'ETIMEDOUT', message: outOfTime(bound) } : networkFailure(error)
        )
      }
      const status = response.statusCode ?? 0
      const ok = status >= 200 && status < 300
      const failure: AttemptFailure = { kind: 'status', status, retryAfter: header(response.headers['retry-after']) }
      let raw: Buffer
      try {
        // An error body is only read for its message: its start is enough.
        raw = await readBody(response, { maxBytes: MAX_ANSWER_BYTES, signal: stop, larger: ok ? 'fail' : 'cut' })
      } catch (error) {
        if (signal?.aborted) throw new CancelledError()
        // An error status says enough without its body; a yes whose answer was lost is a failure of its own.
        if (!ok) throw new AttemptError(failure, `HTTP ${status}`)
        throw new AttemptError({
          kind: 'answer',
          status,
          problem: stop.aborted ? outOfTime(bound) : errorMessage(error)
        })
      }
      const answer = readAnswer(raw, this.options.secrets)
      if (!ok) throw new AttemptError(failure, `HTTP ${status}`, serviceErrorText(answer))
      if (answer.json === undefined)
        throw new AttemptError({ kind: 'answer', status, problem: `not JSON: ${preview(answer)}` })
      const body = answer.json
      return body
    })
  }
}

/** Answers in a row without a `status` that a follower reads past; more are how the service answers, not a glitch. */
export const NO_STATUS_IN_A_ROW = 3

/**
 * Whether a status read failed for a moment: the service unreachable, busy or failing (what
 * classify retries for a read), or a job's answer without its `status` (up to NO_STATUS_IN_A_ROW
 * of them since the last answer with one, this one included; `earlier`: the reads failed since,
 * outages among them); not a refusal, not an answer that made no sense, and not the step's
 * timeout. A later read may well succeed.
 */
export function isPassingOutage(error: unknown, earlier: readonly unknown[] = []): boolean {
  if (error instanceof NoStatusError)
    return 1 + earlier.filter((failure) => failure instanceof NoStatusError).length <= NO_STATUS_IN_A_ROW
  return (
    error instanceof ServiceError &&
    !error.stoppedByDeadline &&
    error.failure.kind !== 'answer' &&
    classify('idempotent', error.failure).retry
  )
}

/** Whether the step's `timeout` left no time for a request, or for another try of it (before the deadline). */
export function isOutOfTime(error: unknown): boolean {
  return error instanceof ServiceError && error.stoppedByDeadline
}

/** How long a request that failed was asked to wait before the next (its `Retry-After`), in ms from `now`. */
export function askedWait(error: unknown, now: number): number | undefined {
  return error instanceof ServiceError ? askedWaitOf(error.failure, now) : undefined
}

/**
 * The final error of a request, written for the user from the one classification of its failure;
 * `baseUrl` (the input) for a 404 that its path explains.
 */
function explain(request: ServiceRequest, error: AttemptError, now: number, baseUrl: string): ServiceError {
  const { failure } = error
  const { mayHaveBeenProcessed } = classify(request.kind, failure)
  const said = error.detail ? `: ${error.detail}` : ''
  const tries = error.attempts > 1 ? ` after ${error.attempts} attempts` : ''
  let message: string
  if (failure.kind === 'status' && failure.status === 403 && error.detail && !STATUS_ONLY.test(error.detail)) {
    // The service's own reason is the likeliest cause: it comes first, the reference's causes after.
    message =
      `Could not ${request.what}: the service refused the request (HTTP 403), saying: ${error.detail}. ` +
      refusalAdvice(403, request, { afterReason: true })
  } else if (failure.kind === 'status' && (failure.status === 401 || failure.status === 403)) {
    const refused = failure.status === 401 ? 'did not accept the key' : 'refused the request'
    message =
      `Could not ${request.what}: the service ${refused} (HTTP ${failure.status}${said}). ` +
      refusalAdvice(failure.status, request)
  } else if (failure.kind === 'status' && failure.status === 404 && versionEnding(baseUrl) !== undefined) {
    const version = versionEnding(baseUrl) ?? ''
    message =
      `Could not ${request.what}: ${describeFailure(failure)}${said}. \`base-url\` (${baseUrl}) ends in ` +
      `\`${version}\`, and the action adds the API's version to every path itself (\`${request.path}\`): ` +
      `set \`base-url\` to ${baseUrl.slice(0, -version.length)}.`
  } else if (error.stoppedByDeadline) {
    // A wait the service asked for (429, 503) that `timeout` does not leave: say until when.
    const asked = askedWaitOf(failure, now)
    const end = asked === undefined ? undefined : describeWaitEnd(asked, now)
    const until = end === undefined ? '' : ` The service asked to wait until ${end.at} (${end.after}).`
    message =
      `Could not ${request.what}: ${describeFailure(failure)}${said}${tries}; no time is left within \`timeout\` ` +
      `for another try.${until}`
  } else if (request.kind === 'once' && mayHaveBeenProcessed) {
    message =
      `Could not ${request.what}: ${describeAmbiguity(failure)}${said}. The service may have processed the ` +
      `request, so it was not sent again ` +
      '(a second one could duplicate the work). Check the service before running again.'
  } else {
    message = `Could not ${request.what}: ${describeFailure(failure)}${said}${tries}.`
  }
  return new ServiceError(message, failure, error.detail, error.attempts, error.stoppedByDeadline, mayHaveBeenProcessed)
}

/** A 403's text that says no more than its status (`Forbidden`, `403 Forbidden`, `Access denied`). */
const STATUS_ONLY = /^(?:(?:http )?403\b\W*)?(?:forbidden|access denied|simulated 403)?\W*$/i

/**
 * The version `base-url`'s path ends in (`/v1`, `/v2`), as Mintlify's reference writes its server
 * (`https://api.mintlify.com/v1`): the action's paths start with it already.
 */
function versionEnding(baseUrl: string): string | undefined {
  return /\/v[12]\/?$/i.exec(baseUrl)?.[0]
}

function networkFailure(error: unknown): AttemptFailure {
  const err = error as NodeJS.ErrnoException
  const message = err?.message ?? String(error)
  // @actions/http-client reports its own socket timeout as a plain Error.
  const code = err?.code ?? (message.startsWith('Request timeout') ? 'ETIMEDOUT' : undefined)
  return { kind: 'network', code, message }
}

/** What cut an attempt short: the step's `timeout`, or the bound on one request. */
function outOfTime(bound: Budget): string {
  return bound.byDeadline
    ? 'no complete answer before `timeout` ran out'
    : `no complete answer within ${formatDuration(bound.ms)}`
}

/** An answer's body as the action reads it: its text with the secrets out, and its JSON when it is JSON. */
interface Answer {
  /** The body's text, every secret replaced by `***`. */
  text: string
  bytes: number
  /** The parsed body, every string in it redacted but links (see LINK_VALUE); undefined when empty or not JSON. */
  json: unknown
}

/** A string that is one link as a whole: kept as it is (a signed link must stay byte for byte). */
const LINK_VALUE = /^[a-z][a-z0-9+.-]{0,31}:\S*$/i

/**
 * Reads an answer's body. Before anything else, the secrets of every link in it are registered,
 * however it spells them (see maskLinksIn): a cut or escaped link in a broken answer included.
 * Then every secret is taken out of its text and of each string of its JSON, before any of it is
 * cut (a preview, a long `error`): a cut through a secret would leave a part that no masking knows.
 * A link's own string stays whole: it is what the action follows, and its secrets are masked.
 */
function readAnswer(raw: Buffer, secrets: Secrets): Answer {
  const text = raw.toString('utf8').replace(/^\ufeff/, '')
  maskLinksIn(text, (secret) => secrets.add(secret))
  let json: unknown
  if (text.trim() !== '') {
    try {
      json = JSON.parse(text, (_, value: unknown) =>
        typeof value === 'string' && !LINK_VALUE.test(value) ? secrets.redact(value) : value
      )
    } catch {
      json = undefined
    }
  }
  return { text: secrets.redact(text), bytes: raw.length, json }
}

/** The service's `error` text, or a short preview of a body that is not the documented Error shape. */
function serviceErrorText(answer: Answer): string | undefined {
  const { json } = answer
  if (json && typeof json === 'object' && typeof (json as { error?: unknown }).error === 'string') {
    const error = (json as { error: string }).error
    return preview({ text: error, bytes: Buffer.byteLength(error), json: undefined }, 300)
  }
  return answer.text.trim() === '' ? undefined : preview(answer)
}

/**
 * The start of a body (redacted already), on one line and unable to start a workflow command,
 * with the query and credentials of any link in it cut off: a broken answer may be a bundle
 * link's, cut through its signature.
 */
function preview(answer: Answer, length = 120): string {
  if (answer.bytes === 0) return '(empty)'
  const text = serviceText(withoutLinkSecrets(answer.text)).replace(/\s+/g, ' ').trim()
  if (text === '') return `${formatBytes(answer.bytes)} of blank or unprintable text`
  return cutShort(text, length)
}
