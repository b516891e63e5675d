/**
 * One download attempt of a bundle link: the GET (every hop judged by the link policy), the
 * status, the body streamed chunk by chunk into a consumer with backpressure, and the ways it can
 * go wrong turned into AttemptErrors for the retry policy. Ends by the step's deadline whatever
 * the storage does. Knows nothing of archives.
 */
import type { IncomingMessage } from 'node:http'
import { HttpClient } from '@actions/http-client'
import { getProxyUrl } from '@actions/http-client/lib/proxy'
import { untilCancelled, withTimeout } from '../common/cancellation.js'
import type { Clock } from '../common/clock.js'
import { budget } from '../common/deadline.js'
import { ActionError, errorMessage } from '../common/errors.js'
import { serviceText } from '../common/text.js'
import { formatBytes, formatDuration } from '../common/units.js'
import { BodyError, USER_AGENT, header, readBody, readChunks, send } from '../service/exchange.js'
import { AttemptError } from '../service/retry.js'
import {
  type LinkPolicy,
  RefusedAddressError,
  describeLink,
  guardedLookup,
  refuseLink,
  refuseNameForProxy
} from './link.js'

export interface DownloadOptions {
  url: string
  /** Takes each chunk; a returned promise pauses the body until it settles. Its errors end the download as they are. */
  onChunk: (chunk: Buffer) => Promise<void> | undefined
  /** Called once the response headers are in. */
  onResponse?: (info: { contentLength: number | undefined }) => void
  /** Aborting it stops the download at once; the download then rejects with `signal.reason`. */
  signal: AbortSignal
  /** No byte (nor headers) for this long: the attempt is abandoned as stalled. */
  stallTimeoutMs: number
  clock: Clock
  /** The size the bundle operation announced: fewer bytes is a truncation, more is a mismatch. */
  expectedSize?: number | undefined
  /**
   * The most bytes the body may have, whatever it announces or does not: past it (announced, or as
   * it arrives) the download stops with `exceeded`'s error, which no retry repeats.
   */
  sizeBound?: { maxBytes: number; exceeded: (detail: string) => ActionError } | undefined
  /** Where the link and its redirects may lead. */
  policy: LinkPolicy
  /**
   * Masks the secrets of a link a redirect leads to, before anything may print it: a new
   * signature, which the storage's error body may echo.
   */
  maskLinkSecrets?: ((url: string) => void) | undefined
  /** Absolute clock ms: the step's deadline; the attempt ends by then (plus the grace), bytes still coming or not. */
  deadline: number
}

const MAX_REDIRECTS = 5
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308])
/** Enough of an error body to read the storage's error code. */
const ERROR_BODY_BYTES = 4096

/** Resolves once the whole body has gone to `onChunk`. */
export async function download(options: DownloadOptions): Promise<void> {
  const bound = budget(options.clock, options.deadline, Number.MAX_SAFE_INTEGER)
  const clients = new StorageClients()
  try {
    return await withTimeout(options.clock, bound.ms, undefined, (outOfTime) => attempt(options, clients, outOfTime))
  } finally {
    clients.dispose()
  }
}

/**
 * The HttpClients of one download, one per protocol, used only for their agents (which honour
 * HTTPS_PROXY/NO_PROXY): http-client keeps the agent of a client's first request for all later
 * ones, so a redirect from http to https (or back) needs a client of its own. No handler of theirs
 * ever runs: a presigned link must go out without an Authorization header (storage refuses both).
 */
class StorageClients {
  private readonly byProtocol = new Map<string, HttpClient>()

  for(url: URL): HttpClient {
    let client = this.byProtocol.get(url.protocol)
    if (client === undefined) this.byProtocol.set(url.protocol, (client = new HttpClient(USER_AGENT)))
    return client
  }

  dispose(): void {
    for (const client of this.byProtocol.values()) client.dispose()
  }
}

async function attempt(options: DownloadOptions, clients: StorageClients, outOfTime: AbortSignal): Promise<void> {
  const stall = new StallWatch(options.clock, options.stallTimeoutMs)
  // A failure of the consumer stops the download with that failure as the reason: it passes
  // through as it is, never judged as a network failure.
  const consumer = new AbortController()
  const signal = AbortSignal.any([options.signal, stall.signal, consumer.signal, outOfTime])
  let bytes = 0
  try {
    const response = await get(options.url, options, clients, signal)
    const contentLength = parseContentLength(response.headers['content-length'])
    const expected = options.expectedSize
    if (expected !== undefined && contentLength !== undefined && contentLength !== expected) {
      response.destroy()
      if (contentLength > expected) throw sizeMismatch(contentLength, expected)
      throw truncated(contentLength, expected, 'the response announced only')
    }
    const bound = options.sizeBound
    if (bound !== undefined && contentLength !== undefined && contentLength > bound.maxBytes) {
      response.destroy()
      throw bound.exceeded(`the storage announced ${formatBytes(contentLength)}`)
    }
    options.onResponse?.({ contentLength })
    bytes = await streamBody(
      response,
      { ...options, signal },
      stall,
      (error) => consumer.abort(error),
      (count) => (bytes = count)
    )
    const whole = contentLength ?? expected
    if (whole !== undefined && bytes < whole) throw truncated(bytes, whole, 'the body ended after')
  } catch (error) {
    if (options.signal.aborted) throw options.signal.reason
    if (consumer.signal.aborted) throw consumer.signal.reason
    if (outOfTime.aborted)
      throw new AttemptError({
        kind: 'network',
        code: 'ETIMEDOUT',
        message: `\`timeout\` ran out after ${bytes} bytes of the download`
      })
    if (stall.fired)
      throw new AttemptError({
        kind: 'network',
        code: 'ESTALLED',
        message: `no data arrived for ${formatDuration(options.stallTimeoutMs)}`
      })
    if (error instanceof RefusedAddressError) throw new ActionError(`${error.message}.`)
    if (error instanceof AttemptError || error instanceof ActionError) throw error
    // Read as properties: node's own errors may come from another realm (a vm context), not instanceof Error here.
    const { code, message } = (error ?? {}) as Partial<NodeJS.ErrnoException>
    throw new AttemptError({
      kind: 'network',
      code,
      message: withoutQuery(message ?? errorMessage(error), options.url)
    })
  } finally {
    stall.stop()
  }
}

/** GET the link, following a few redirects, each hop judged by the policy; resolves on 200. */
async function get(
  url: string,
  options: DownloadOptions,
  clients: StorageClients,
  signal: AbortSignal
): Promise<IncomingMessage> {
  let target = new URL(url)
  for (let redirects = 0; ; redirects++) {
    const proxied = getProxyUrl(target) !== undefined
    const refused = await refuseHop(target, proxied, options.policy, signal)
    if (refused !== undefined) throw new ActionError(`${refused}.`)
    // A direct connection checks where the name leads as it connects; through a proxy, refuseHop did.
    const lookup = proxied ? undefined : guardedLookup(options.policy, describeLink(target.href))
    const message = await send(clients.for(target), {
      url: target,
      method: 'GET',
      headers: { accept: '*/*', 'accept-encoding': 'identity' },
      signal,
      lookup
    })
    const status = message.statusCode ?? 0
    if (status === 200) return message
    const location = message.headers.location
    if (REDIRECT_STATUSES.has(status) && location !== undefined && redirects < MAX_REDIRECTS) {
      // Its body is not wanted, and may never end: reading it to its end would hold the
      // connection (through a proxy, one no dispose() closes) and keep the process alive.
      message.destroy()
      target = new URL(location, target)
      options.maskLinkSecrets?.(target.href)
      continue
    }
    throw new AttemptError(
      { kind: 'status', status, retryAfter: header(message.headers['retry-after']) },
      `HTTP ${status}`,
      await storageErrorDetail(message, signal)
    )
  }
}

/** Why a hop may not be fetched: its address, and through a proxy where its name leads as this machine resolves it. */
async function refuseHop(
  target: URL,
  proxied: boolean,
  policy: LinkPolicy,
  signal: AbortSignal
): Promise<string | undefined> {
  const refused = refuseLink(target, policy)
  if (refused !== undefined || !proxied) return refused
  // A lookup cannot be stopped, only no longer waited for.
  return untilCancelled(refuseNameForProxy(target, policy), signal)
}

/**
 * Feeds the body to `onChunk` through the one body reader (readChunks), which pauses the socket
 * while the consumer is busy; resolves with the byte count. A stop (cancellation, stall, the
 * consumer's failure) destroys the body at once; download() then rejects with the stop's reason.
 */
async function streamBody(
  response: IncomingMessage,
  options: DownloadOptions,
  stall: StallWatch,
  consumerFailed: (error: unknown) => void,
  progress: (bytes: number) => void
): Promise<number> {
  let bytes = 0
  const failed = (error: unknown): never => {
    consumerFailed(error)
    throw error
  }
  try {
    return await readChunks(response, options.signal, (chunk) => {
      stall.touch()
      bytes += chunk.length
      progress(bytes)
      if (options.expectedSize !== undefined && bytes > options.expectedSize) {
        throw sizeMismatch(bytes, options.expectedSize, 'at least ')
      }
      const bound = options.sizeBound
      if (bound !== undefined && bytes > bound.maxBytes) {
        throw bound.exceeded(`more than ${formatBytes(bound.maxBytes)} arrived`)
      }
      let wait: Promise<void> | undefined
      try {
        wait = options.onChunk(chunk)
      } catch (error) {
        return failed(error)
      }
      if (wait === undefined) return undefined
      // Our side is busy (disk, unpacking): that is no stall of the server's.
      stall.pause()
      return wait.then(() => stall.touch(), failed)
    })
  } catch (error) {
    if (!(error instanceof BodyError)) throw error
    throw new AttemptError({ kind: 'network', code: error.code, message: `the connection closed after ${bytes} bytes` })
  }
}

/**
 * Fires when no byte arrived for `timeoutMs`, counting only while we wait for the server (not
 * while our own side applies backpressure). Chunks only note the time; one sleep on the clock at
 * a time checks it.
 */
class StallWatch {
  private readonly controller = new AbortController()
  private readonly stopped = new AbortController()
  private lastActivity: number
  private paused = false
  fired = false

  constructor(
    private readonly clock: Clock,
    private readonly timeoutMs: number
  ) {
    this.lastActivity = clock.now()
    void this.watch()
  }

  get signal(): AbortSignal {
    return this.controller.signal
  }

  touch(): void {
    this.paused = false
    this.lastActivity = this.clock.now()
  }

  pause(): void {
    this.paused = true
  }

  stop(): void {
    this.stopped.abort()
  }

  private async watch(): Promise<void> {
    try {
      for (;;) {
        const idle = this.clock.now() - this.lastActivity
        if (!this.paused && idle >= this.timeoutMs) {
          this.fired = true
          this.controller.abort(new Error('stalled'))
          return
        }
        await this.clock.sleep(this.paused ? this.timeoutMs : this.timeoutMs - idle, this.stopped.signal)
      }
    } catch {
      // Stopped: the download is over.
    }
  }
}

/** Some errors quote the request path (http-client's "Request timeout: <path>"): never the signed query. */
function withoutQuery(message: string, url: string): string {
  const { search } = new URL(url)
  return search === '' ? message : message.split(search).join('')
}

function parseContentLength(value: string | undefined): number | undefined {
  if (value === undefined || !/^\d+$/.test(value.trim())) return undefined
  return Number(value)
}

function truncated(bytes: number, whole: number, what: string): AttemptError {
  return new AttemptError({ kind: 'network', code: 'ETRUNCATED', message: `${what} ${bytes} of ${whole} bytes` })
}

function sizeMismatch(bytes: number, expected: number, prefix = ''): ActionError {
  return new ActionError(
    `The bundle download is ${prefix}${bytes} bytes, but the bundle operation said the archive has ${expected} ` +
      `bytes: the link serves a different file`
  )
}

/**
 * The storage's error code and message (S3-style XML), for the final error text. Only those two
 * elements: other ones (StringToSign, SignatureProvided) would echo the link's credentials.
 */
async function storageErrorDetail(response: IncomingMessage, signal: AbortSignal): Promise<string | undefined> {
  let body: string
  try {
    body = (await readBody(response, { maxBytes: ERROR_BODY_BYTES, larger: 'cut', signal })).toString('utf8')
  } catch {
    return undefined
  }
  const code = /<Code>([^<]{1,100})<\/Code>/.exec(body)?.[1]
  const message = /<Message>([^<]{1,300})<\/Message>/.exec(body)?.[1]
  if (code === undefined && message === undefined) return undefined
  return serviceText([code, message].filter(Boolean).join(': '))
}
