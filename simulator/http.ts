// Small HTTP plumbing shared by the simulator's routes: request parsing and a response writer
// that can misbehave on purpose (truncate, stall) while still honouring backpressure.
import type { IncomingMessage, ServerResponse } from 'node:http'
import { setTimeout as sleep } from 'node:timers/promises'

/** What a route handler returns; the server writes it (or replaces it with a fault). */
export interface Reply {
  status: number
  headers?: Record<string, string>
  json?: unknown
  raw?: Buffer | string
  /** HEAD request: send the headers (with the real Content-Length) but no body. */
  headOnly?: boolean
}

/** A parsed request as route handlers see it. */
export interface RequestContext {
  method: string
  /** Path relative to the origin's route root (the API path prefix already removed). */
  path: string
  /** Full path as requested, before prefix removal. */
  fullPath: string
  params: Record<string, string>
  query: Record<string, string>
  headers: Record<string, string>
  /** Parsed JSON when the body parses, otherwise the raw text ('' when empty). */
  body: unknown
  rawBody: string
  /** True when the body was non-empty and not valid JSON. */
  bodyInvalid: boolean
}

export function json(status: number, value: unknown, headers?: Record<string, string>): Reply {
  return headers ? { status, json: value, headers } : { status, json: value }
}

export function errorReply(status: number, message: string, headers?: Record<string, string>): Reply {
  return json(status, { error: message }, headers)
}

// Bodies here are tiny JSON documents; the cap only protects a standalone simulator from abuse.
const MAX_BODY = 1024 * 1024

export async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of req) {
    size += (chunk as Buffer).length
    if (size > MAX_BODY) throw new Error('request body too large')
    chunks.push(chunk as Buffer)
  }
  return Buffer.concat(chunks).toString('utf8')
}

export function parseJsonBody(raw: string): { body: unknown; invalid: boolean } {
  if (raw.trim() === '') return { body: raw, invalid: false }
  try {
    return { body: JSON.parse(raw) as unknown, invalid: false }
  } catch {
    return { body: raw, invalid: true }
  }
}

export function lowerCaseHeaders(req: IncomingMessage): Record<string, string> {
  const out: Record<string, string> = {}
  for (const [key, value] of Object.entries(req.headers)) {
    if (value !== undefined) out[key.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value
  }
  return out
}

export interface WriteOptions {
  /** Send the full Content-Length, then only this many body bytes, then destroy the socket. */
  truncateAt?: number
  /** Send this many body bytes and then nothing more, leaving the socket open. */
  stallAt?: number
  /** Send the body one byte every this many ms. */
  trickleMs?: number
  /** After the body, filler without end (and no Content-Length), until the client goes away. */
  endless?: boolean | undefined
  /** After the body, this many bytes of filler (and no Content-Length). */
  trailingBytes?: number | undefined
  /** The Content-Length to announce, whatever the body. */
  contentLength?: number | undefined
  /** Called with the status as soon as the head is committed (for request recording). */
  onStatus?: (status: number) => void
}

const CHUNK = 64 * 1024

/** Writes a Reply in chunks, waiting for 'drain' so multi-MB bodies do not pile up in memory. */
export async function writeReply(res: ServerResponse, reply: Reply, options: WriteOptions = {}): Promise<void> {
  const payload = replyPayload(reply)
  const headers: Record<string, string> = { ...reply.headers }
  if (reply.json !== undefined) headers['content-type'] ??= 'application/json; charset=utf-8'
  const lengthUnknown = options.endless === true || options.trailingBytes !== undefined
  if (options.contentLength !== undefined || !lengthUnknown)
    headers['content-length'] = String(options.contentLength ?? payload.length)
  res.writeHead(reply.status, headers)
  options.onStatus?.(reply.status)
  if (reply.headOnly) {
    res.end()
    return
  }
  if (options.endless) return writeWithoutEnd(res, payload)

  const limit = options.truncateAt ?? options.stallAt
  const body = limit === undefined ? payload : payload.subarray(0, Math.max(0, limit))
  res.flushHeaders()
  let flushed: Promise<void> = Promise.resolve()
  const chunk = options.trickleMs === undefined ? CHUNK : 1
  for (let offset = 0; offset < body.length; offset += chunk) {
    if (res.destroyed) return
    if (options.trickleMs !== undefined && offset > 0) await sleep(options.trickleMs)
    if (res.destroyed) return
    let ok = true
    flushed = new Promise<void>((resolve) => {
      ok = res.write(body.subarray(offset, offset + chunk), () => resolve())
    })
    if (!ok && !(await drained(res))) return
  }
  if (options.truncateAt !== undefined) {
    // Let the partial body reach the socket, then cut the connection mid-body.
    await flushed
    res.socket?.destroy()
    return
  }
  if (options.stallAt !== undefined) return // keep the socket open until the client or close() ends it
  if (options.trailingBytes !== undefined && !(await writeFiller(res, options.trailingBytes))) return
  res.end()
}

/** Writes `bytes` of filler, minding backpressure; false when the client went away first. */
async function writeFiller(res: ServerResponse, bytes: number): Promise<boolean> {
  const filler = Buffer.alloc(CHUNK, 0x20)
  for (let left = bytes; left > 0; left -= CHUNK) {
    if (res.destroyed) return false
    if (!res.write(left < CHUNK ? filler.subarray(0, left) : filler) && !(await drained(res))) return false
  }
  return true
}

/** A pause between the chunks of filler: a client that reads it all does not busy the machine. */
const FILLER_PAUSE_MS = 5

/** Writes `start`, then chunks of filler, minding backpressure, until the response is destroyed. */
async function writeWithoutEnd(res: ServerResponse, start: Buffer): Promise<void> {
  const filler = Buffer.alloc(CHUNK, 0x20)
  for (let chunk = start; !res.destroyed; chunk = filler) {
    if (!res.write(chunk) && !(await drained(res))) return
    await sleep(FILLER_PAUSE_MS)
  }
}

function replyPayload(reply: Reply): Buffer {
  if (reply.raw !== undefined) return typeof reply.raw === 'string' ? Buffer.from(reply.raw, 'utf8') : reply.raw
  if (reply.json !== undefined) return Buffer.from(JSON.stringify(reply.json), 'utf8')
  return Buffer.alloc(0)
}

/** Resolves true on 'drain', false if the response closes first (client went away). */
function drained(res: ServerResponse): Promise<boolean> {
  return new Promise((resolve) => {
    const finish = (ok: boolean): void => {
      res.off('drain', onDrain)
      res.off('close', onClose)
      resolve(ok)
    }
    const onDrain = (): void => finish(true)
    const onClose = (): void => finish(false)
    res.once('drain', onDrain)
    res.once('close', onClose)
  })
}

/** Matches `/a/:x/b` style patterns; returns the params or undefined. */
export function matchPath(pattern: string, path: string): Record<string, string> | undefined {
  const want = pattern.split('/')
  const got = path.split('/')
  if (want.length !== got.length) return undefined
  const params: Record<string, string> = {}
  for (let i = 0; i < want.length; i++) {
    const w = want[i]!
    const g = got[i]!
    if (w.startsWith(':')) {
      if (g === '') return undefined
      try {
        params[w.slice(1)] = decodeURIComponent(g)
      } catch {
        return undefined
      }
    } else if (w !== g) return undefined
  }
  return params
}

/** Every request is classified into one of these for recording, counting and fault targeting. */
export type RouteName =
  | 'export-start'
  | 'export-status'
  | 'export-bundle'
  | 'download'
  | 'agent-get'
  | 'agent-message'
  | 'agent-create'
  | 'deploy-trigger'
  | 'deploy-status'
  | 'preview-trigger'
  | 'automation-trigger'
  | 'github-permission'
  | 'github-user'
  | 'github-issue'
  | 'github-comments'
  | 'github-review-comments'
  | 'github-comment'
  | 'github-comment-edit'
  | 'github-reaction'
  | 'github-review-of'
  | 'github-deployment'
  | 'github-deployment-status'
  | 'unknown'

/** A route table entry; `pattern` is matched against RequestContext.path. */
export interface Route {
  name: RouteName
  method: string | string[]
  pattern: string
  handle: (ctx: RequestContext) => Reply | Promise<Reply>
}

export function findRoute(
  routes: Route[],
  method: string,
  path: string
): { route: Route; params: Record<string, string> } | undefined {
  for (const route of routes) {
    const methods = Array.isArray(route.method) ? route.method : [route.method]
    if (!methods.includes(method)) continue
    const params = matchPath(route.pattern, path)
    if (params) return { route, params }
  }
  return undefined
}
