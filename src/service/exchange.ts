/**
 * One HTTP exchange, for the API and the storage alike: the request through @actions/http-client's
 * agent (so HTTPS_PROXY and NO_PROXY apply, and no handler adds a header), with a signal that
 * ends it whether the headers or the body are still coming; and a body reader that always
 * settles. (http-client's own readBody listens only for 'data' and 'end': a connection cut in
 * the middle of a body leaves it pending for ever, and it copies the whole body at every chunk.)
 */
import { getProxyUrl } from '@actions/http-client/lib/proxy'
import http from 'node:http'
import https from 'node:https'
import type { IncomingMessage, OutgoingHttpHeaders } from 'node:http'
import type { LookupFunction } from 'node:net'
import type { HttpClient } from '@actions/http-client'
import { noop } from '../common/cancellation.js'

/** The User-Agent of every request, to the API and the storage alike. */
export const USER_AGENT = 'docs-admin-action/1'

export interface Exchange {
  url: URL
  method: 'GET' | 'POST'
  headers: OutgoingHttpHeaders
  body?: string | null | undefined
  /** Ends the exchange at once, at any stage. */
  signal: AbortSignal
  /** Resolves host names in place of the system's lookup (to refuse some addresses). */
  lookup?: LookupFunction | undefined
}

/** Sends the request; resolves once the answer's status and headers are in, whatever the status. */
export async function send(client: HttpClient, exchange: Exchange): Promise<IncomingMessage> {
  const { url } = exchange
  const headers: OutgoingHttpHeaders = { ...exchange.headers }
  if (client.userAgent) headers['user-agent'] = client.userAgent
  const { message } = await client.requestRaw(
    {
      parsedUrl: url,
      httpModule: url.protocol === 'https:' ? https : http,
      options: {
        host: connectHostOf(url),
        port: url.port === '' ? undefined : Number(url.port),
        path: `${url.pathname}${url.search}`,
        method: exchange.method,
        headers,
        agent: client.getAgent(url.href),
        signal: exchange.signal,
        ...(exchange.lookup === undefined ? {} : { lookup: exchange.lookup })
      }
    },
    exchange.body ?? null
  )
  return message
}

/**
 * The host to connect to: a URL writes an IPv6 address in brackets (`[::1]`), which a connection
 * would look up as a name; the Host header gets its brackets back from node. Through a proxy the
 * host only names the far end in `CONNECT host:port`, where an IPv6 address keeps its brackets.
 */
function connectHostOf(url: URL): string {
  return getProxyUrl(url) === undefined ? url.hostname.replace(/^\[(.*)\]$/, '$1') : url.hostname
}

/** A header's value, the first one when it came more than once. */
export function header(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value
}

/** A body that could not be read whole: the connection ended early, or it was too large. */
export class BodyError extends Error {
  override readonly name = 'BodyError'
  constructor(
    /** ECONNRESET (cut short) or ETOOLARGE. */
    readonly code: 'ECONNRESET' | 'ETOOLARGE',
    message: string
  ) {
    super(message)
  }
}

export interface ReadOptions {
  /** The most bytes read. */
  maxBytes: number
  /** `fail` (the default): a larger body is an error. `cut`: keep its first `maxBytes`. */
  larger?: 'fail' | 'cut'
  /** Ends the read at once; it then rejects with the signal's reason. */
  signal: AbortSignal
}

/**
 * Reads a whole body in linear time (the chunks are joined once). Rejects with a BodyError when
 * the connection ends before the body does, or the body passes `maxBytes`.
 */
export async function readBody(message: IncomingMessage, options: ReadOptions): Promise<Buffer> {
  const chunks: Buffer[] = []
  let bytes = 0
  await readChunks(message, options.signal, (chunk) => {
    if (bytes + chunk.length <= options.maxBytes) {
      bytes += chunk.length
      chunks.push(chunk)
      return undefined
    }
    if (options.larger !== 'cut')
      throw new BodyError('ETOOLARGE', `the answer is larger than ${options.maxBytes} bytes`)
    chunks.push(chunk.subarray(0, options.maxBytes - bytes))
    bytes = options.maxBytes
    return 'stop'
  })
  return Buffer.concat(chunks, bytes)
}

/**
 * The one reader of a body, for an answer read whole and a download streamed alike: hands each
 * chunk to `take` in order and waits for the promise it returns before reading on (the socket is
 * paused meanwhile); `'stop'` ends the read. Resolves with the bytes read. Rejects with what
 * `take` threw, with the signal's reason once it fires, or with a BodyError (ECONNRESET) when the
 * connection breaks off before the body ends. A body not read to its end is let go.
 */
export async function readChunks(
  message: IncomingMessage,
  signal: AbortSignal,
  take: (chunk: Buffer) => Promise<void> | 'stop' | undefined
): Promise<number> {
  signal.throwIfAborted()
  // A stop ends the read at once, also while `take` is busy (its wait may only end once the read has).
  let stop = (): void => undefined
  const aborted = new Promise<never>((_, reject) => {
    stop = (): void => {
      message.destroy()
      reject(signal.reason)
    }
  })
  aborted.catch(noop)
  signal.addEventListener('abort', stop, { once: true })
  let bytes = 0
  let stopped = false
  let failure: { error: unknown } | undefined
  try {
    for await (const chunk of message as AsyncIterable<Buffer>) {
      bytes += chunk.length
      try {
        const taken = take(chunk)
        if (taken === 'stop') {
          stopped = true
          break
        }
        if (taken !== undefined) await Promise.race([taken, aborted])
      } catch (error) {
        failure = { error }
        break
      }
    }
  } catch {
    // The connection broke off (or the signal destroyed the body): said below.
  } finally {
    signal.removeEventListener('abort', stop)
    // A body read only in part holds its connection: let it go.
    if (!message.complete) message.destroy()
  }
  if (failure !== undefined) throw failure.error
  signal.throwIfAborted()
  if (!stopped && !message.complete) {
    throw new BodyError('ECONNRESET', `the connection broke off after ${bytes} bytes of the answer`)
  }
  return bytes
}
