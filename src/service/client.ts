import { HttpClient, type HttpClientResponse } from '@actions/http-client'
import { untilCancelled } from '../common/cancellation.js'
import type { Clock } from '../common/clock.js'
import { ActionError, CancelledError, throwIfCancelled } from '../common/errors.js'
import type { Logger } from '../common/log.js'
import { type AttemptFailure, type RequestKind, classify, describeAmbiguity, describeFailure } from './failure.js'
import { AttemptError, DEFAULT_BACKOFF, withRetries } from './retry.js'

export const USER_AGENT = 'docs-admin-action/1'

/** Bound on one request, from sending to the whole answer. */
const REQUEST_TIMEOUT_MS = 60_000

export interface ServiceClientOptions {
  /** Base address without a trailing slash, possibly with a path prefix. */
  baseUrl: string
  apiKey: string
  clock: Clock
  log: Logger
  signal?: AbortSignal | undefined
}

export interface ServiceRequest {
  method: 'GET' | 'POST'
  /** Path below the base address, each segment already encoded (see `segment`). */
  path: string
  body?: unknown
  kind: RequestKind
  /** What the request does, for messages: "start the export of docs.acme.com". */
  what: string
  /** Absolute clock time after which no retry wait is started. */
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
    return new ServiceError(message, this.failure, this.serviceError, this.attempts, this.stoppedByDeadline, this.mayHaveBeenProcessed)
  }
}

/** Encodes one identifier as a single path segment. */
export function segment(value: string): string {
  return encodeURIComponent(value)
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
    this.http = new HttpClient(USER_AGENT, [], { allowRedirects: false, allowRetries: false, keepAlive: true, socketTimeout: REQUEST_TIMEOUT_MS })
  }

  /** Resolves with the answer's JSON body. */
  async request(request: ServiceRequest): Promise<unknown> {
    const { clock, log, signal } = this.options
    try {
      return await withRetries((attempt) => this.attempt(request, attempt), {
        kind: request.kind,
        policy: DEFAULT_BACKOFF,
        clock,
        signal,
        deadline: request.deadline,
        onRetry: ({ failure, delayMs, retry }) =>
          log.info(`Could not ${request.what} (${describeFailure(failure)}); retry ${retry} in ${(delayMs / 1000).toFixed(1)}s.`)
      })
    } catch (error) {
      if (error instanceof AttemptError) throw explain(request, error)
      throw error
    }
  }

  /** Releases kept-alive sockets so the process can end. */
  dispose(): void {
    this.http.dispose()
  }

  private async attempt(request: ServiceRequest, attempt: number): Promise<unknown> {
    throwIfCancelled(this.options.signal)
    const url = `${this.options.baseUrl}${request.path}`
    const headers: Record<string, string> = { Authorization: `Bearer ${this.options.apiKey}`, Accept: 'application/json' }
    let payload: string | null = null
    if (request.body !== undefined) {
      headers['Content-Type'] = 'application/json'
      payload = JSON.stringify(request.body)
    }
    this.options.log.debug(`${request.method} ${request.path} (attempt ${attempt})`)
    let response: HttpClientResponse
    let text: string
    try {
      response = await untilCancelled(this.http.request(request.method, url, payload, headers), this.options.signal)
      text = await untilCancelled(response.readBody(), this.options.signal)
    } catch (error) {
      if (error instanceof CancelledError) throw error
      throw new AttemptError(networkFailure(error))
    }
    const status = response.message.statusCode ?? 0
    const body = parseJson(text)
    if (status >= 200 && status < 300) {
      if (body === undefined) {
        throw new ActionError(`Could not ${request.what}: the service answered HTTP ${status} with something that is not JSON (${preview(text)}).`)
      }
      return body
    }
    const retryAfter = response.message.headers['retry-after']
    throw new AttemptError({ kind: 'status', status, retryAfter }, `HTTP ${status}`, serviceErrorText(body, text))
  }
}

/** The final error of a request, written for the user from the one classification of its failure. */
function explain(request: ServiceRequest, error: AttemptError): ServiceError {
  const { failure } = error
  const { mayHaveBeenProcessed } = classify(request.kind, failure)
  const said = error.detail ? `: ${error.detail}` : ''
  const tries = error.attempts > 1 ? ` after ${error.attempts} attempts` : ''
  let message: string
  if (failure.kind === 'status' && (failure.status === 401 || failure.status === 403)) {
    message = `Could not ${request.what}: the service refused the API key (HTTP ${failure.status}${said}). Check \`api-key\` and that it belongs to this organization.`
  } else if (error.stoppedByDeadline) {
    message = `Could not ${request.what}: ${describeFailure(failure)}${said}${tries}; the next retry would end after \`timeout\`.`
  } else if (request.kind === 'once' && mayHaveBeenProcessed) {
    message =
      `Could not ${request.what}: ${describeAmbiguity(failure)}${said}. The service may have processed the request, so it was not sent again ` +
      '(a second one could duplicate the work). Check the service before running again.'
  } else {
    message = `Could not ${request.what}: ${describeFailure(failure)}${said}${tries}.`
  }
  return new ServiceError(message, failure, error.detail, error.attempts, error.stoppedByDeadline, mayHaveBeenProcessed)
}

function networkFailure(error: unknown): AttemptFailure {
  const err = error as NodeJS.ErrnoException
  const message = err?.message ?? String(error)
  // @actions/http-client reports its own socket timeout as a plain Error.
  const code = err?.code ?? (message.startsWith('Request timeout') ? 'ETIMEDOUT' : undefined)
  return { kind: 'network', code, message }
}

function parseJson(text: string): unknown {
  if (text.trim() === '') return undefined
  try {
    return JSON.parse(text)
  } catch {
    return undefined
  }
}

/** The service's `error` text, or a short preview of a body that is not the documented Error shape. */
function serviceErrorText(body: unknown, text: string): string | undefined {
  if (body && typeof body === 'object' && typeof (body as { error?: unknown }).error === 'string') {
    return (body as { error: string }).error
  }
  return text.trim() === '' ? undefined : preview(text)
}

function preview(text: string): string {
  const oneLine = text.replace(/\s+/g, ' ').trim()
  return oneLine.length > 120 ? `${oneLine.slice(0, 120)}…` : oneLine || '(empty)'
}
