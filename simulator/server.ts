// Local simulator of the documentation service: the admin API (export, agent, deploy routes), an
// "object storage" origin for presigned bundle links, and a small GitHub REST fake.
//
// Why two servers: bundle links must live on a different origin than the API, as they do in
// production, so clients are exercised on not leaking the API key to storage.
import { createServer } from 'node:http'
import type { IncomingMessage, Server, ServerResponse } from 'node:http'
import type { Socket } from 'node:net'
import { setTimeout as sleep } from 'node:timers/promises'
import { AgentService } from './agent.js'
import type { AgentJobRecord, AgentOptions } from './agent.js'
import { automationRoutes } from './automation.js'
import type { AutomationOptions, AutomationRunRecord } from './automation.js'
import { deployRoutes } from './deploy.js'
import { type PreviewOptions, previewRoutes } from './preview.js'
import type { DeploymentOptions, DeploymentRecord } from './deploy.js'
import { exportRoutes } from './export.js'
import type { ExportJobOptions, ExportJobRecord } from './export.js'
import { FaultQueue, isErrorFault } from './faults.js'
import type { Fault } from './faults.js'
import { GITHUB_API_ROOT, GitHubFake } from './github.js'
import type { GitHubOptions } from './github.js'
import { errorReply, findRoute, lowerCaseHeaders, parseJsonBody, readBody, writeReply } from './http.js'
import type { Reply, RequestContext, Route, RouteName } from './http.js'
import { RateWindow, limitedTogether } from './rate-limit.js'
import { BundleStore } from './storage.js'
import type { BundleOptions } from './storage.js'

export type { ArchiveEntry } from './archives.js'
export type { AgentJob, AgentJobRecord, AgentOptions } from './agent.js'
export { agentJobKey } from './agent.js'
export type { AutomationBehavior, AutomationOptions, AutomationRunRecord } from './automation.js'
export { SEEDED_AUTOMATIONS } from './automation.js'
export type {
  DeployedCommit,
  DeploymentBehavior,
  DeploymentOptions,
  DeploymentRecord,
  DeploymentView
} from './deploy.js'
export { DEFAULT_DEPLOYED_COMMIT, deploymentView } from './deploy.js'
export type { ExportJobBehavior, ExportJobOptions, ExportJobRecord, ExportJobView } from './export.js'
export { exportJobView } from './export.js'
export type { Fault } from './faults.js'
export type { GitHubComment, GitHubOptions, GitHubThread } from './github.js'
export { GitHubFake, TOKEN_USER } from './github.js'
export type { RouteName } from './http.js'
export type { PreviewOptions } from './preview.js'
export type { BundleOptions } from './storage.js'

export interface SimulatorOptions {
  /** Default 'dsk_test_simulator'; API requests need `Authorization: Bearer <apiKey>`. */
  apiKey?: string
  apiPort?: number
  storagePort?: number
  /** Default 127.0.0.1. */
  host?: string
  /** API routes are served under this prefix (models a gateway), e.g. '/docs-api'. */
  pathPrefix?: string
  exportJob?: ExportJobOptions
  bundle?: BundleOptions
  /** Clock for job progress and link expiry (tests may pass a fake). */
  now?: () => number
  agent?: AgentOptions
  /** Deployments: how long they take, how they end, the commit they deploy, their log. */
  deployment?: DeploymentOptions
  /** Previews: on the plan or not, their limit, their address. They deploy as `deployment` says. */
  preview?: PreviewOptions
  /** The GitHub fake: its server address, users' permissions, writable repositories. */
  github?: GitHubOptions
  /** Automations by project: active or not, on a custom schedule or not (default SEEDED_AUTOMATIONS). */
  automation?: AutomationOptions
  /**
   * The limit deployment and automation triggers share, as the reference gives it: at most `limit`
   * of them (default 10) in any `windowMs` (default 10 s), for the organization (the simulator).
   */
  triggerLimit?: { limit?: number; windowMs?: number }
}

export interface RecordedRequest {
  origin: 'api' | 'storage' | 'github'
  route: RouteName
  method: string
  /** Full request path (including any path prefix), without the query string. */
  path: string
  query: Record<string, string>
  /** Lower-case header names. */
  headers: Record<string, string>
  /** Parsed JSON when the body parses, otherwise the raw text ('' when empty). */
  body: unknown
  /** Response status; 0 while unanswered or when the socket was dropped without a response. */
  status: number
  /** `now()` when the request arrived. */
  at: number
}

export interface Simulator {
  /** API base URL including the path prefix, no trailing slash. */
  apiUrl: string
  storageUrl: string
  /** Base URL of the GitHub REST fake (use as GITHUB_API_URL). */
  githubApiUrl: string
  apiKey: string
  requests: RecordedRequest[]
  count(route: RouteName): number
  addFault(fault: Fault): void
  clearFaults(): void
  setBundle(bundle: BundleOptions | undefined): void
  /** Every bundle link handed out, in order. */
  issuedLinks: readonly string[]
  /** Export jobs by jobId. */
  exportJobs: Map<string, ExportJobRecord>
  /** Agent jobs by `${projectId}/${id}` (see agentJobKey). */
  agentJobs: Map<string, AgentJobRecord>
  /** Deployments by status id. */
  deployments: Map<string, DeploymentRecord>
  /** The automation runs queued, in order. */
  automationRuns: AutomationRunRecord[]
  /** The GitHub fake: its conversations, and the pull requests agent jobs opened. */
  github: GitHubFake
  /** Closes both servers and destroys open sockets, including stalled downloads. */
  close(): Promise<void>
}

interface Resolved {
  origin: RecordedRequest['origin']
  name: RouteName
  path: string
  params: Record<string, string>
  handle: (ctx: RequestContext) => Reply | Promise<Reply>
}

export async function startSimulator(options: SimulatorOptions = {}): Promise<Simulator> {
  const now = options.now ?? Date.now
  const apiKey = options.apiKey ?? 'dsk_test_simulator'
  const host = options.host ?? '127.0.0.1'
  const prefix = normalizePrefix(options.pathPrefix)
  const requests: RecordedRequest[] = []
  const faults = new FaultQueue()
  const closing = new AbortController()
  let storageUrl = ''

  const bundles = new BundleStore(options.bundle, now, () => storageUrl)
  const exportJobs = new Map<string, ExportJobRecord>()
  const deployments = new Map<string, DeploymentRecord>()
  const automationRuns: AutomationRunRecord[] = []
  const github = new GitHubFake(options.github)
  const agent = new AgentService(options.agent ?? {}, now, github)
  const limitTriggers = triggerLimit(options.triggerLimit, now)
  const apiRoutes = withApiAuth(
    [
      ...exportRoutes({ jobs: exportJobs, now, options: options.exportJob, bundles }),
      ...agent.routes(),
      ...limitTriggers(deployRoutes({ deployments, now, options: options.deployment })),
      ...limitTriggers(automationRoutes({ runs: automationRuns, now, options: options.automation })),
      ...previewRoutes({ deployments, now, options: options.deployment, preview: options.preview })
    ],
    apiKey
  )
  const ghRoutes = github.routes()
  const storageRoutes = bundles.routes()

  const resolve = (server: 'api' | 'storage', method: string, path: string): Resolved => {
    if (server === 'storage') return resolveIn(storageRoutes, 'storage', method, path, path, storageNotFound)
    if (path === GITHUB_API_ROOT || path.startsWith(`${GITHUB_API_ROOT}/`)) {
      return resolveIn(ghRoutes, 'github', method, path, path, () => ({ status: 404, json: { message: 'Not Found' } }))
    }
    const inPrefix = prefix === '' || path === prefix || path.startsWith(`${prefix}/`)
    const sub = inPrefix ? path.slice(prefix.length) : ''
    return resolveIn(inPrefix ? apiRoutes : [], 'api', method, path, sub, () => errorReply(404, 'not found'))
  }

  const handle = async (server: 'api' | 'storage', req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const url = new URL(req.url ?? '/', 'http://simulator.invalid')
    const method = (req.method ?? 'GET').toUpperCase()
    const rawBody = await readBody(req)
    const { body, invalid } = parseJsonBody(rawBody)
    const headers = lowerCaseHeaders(req)
    const query = Object.fromEntries(url.searchParams)
    const resolved = resolve(server, method, url.pathname)
    const record: RecordedRequest = {
      origin: resolved.origin,
      route: resolved.name,
      method,
      path: url.pathname,
      query,
      headers,
      body,
      status: 0,
      at: now()
    }
    requests.push(record)
    const ctx: RequestContext = {
      method,
      path: resolved.path,
      fullPath: url.pathname,
      params: resolved.params,
      query,
      headers,
      body,
      rawBody,
      bodyInvalid: invalid
    }
    const respond = (reply: Reply, fault?: Fault): Promise<void> =>
      writeReply(res, method === 'HEAD' ? { ...reply, headOnly: true } : reply, {
        truncateAt: fault?.truncateAt,
        stallAt: fault?.stallAt,
        trickleMs: fault?.trickleMs,
        endless: fault?.endless,
        trailingBytes: fault?.trailingBytes,
        contentLength: fault?.contentLength,
        onStatus: (status) => (record.status = status)
      })

    const fault = faults.take(resolved.name)
    if (fault?.delayMs) await sleep(fault.delayMs, undefined, { signal: closing.signal })
    if (fault?.hang) {
      if (fault.process) await resolved.handle(ctx)
      // No answer at all: the client's own bound, or close(), ends the exchange.
      return new Promise<void>((resolve) => {
        res.once('close', resolve)
        closing.signal.addEventListener('abort', () => resolve(), { once: true })
      })
    }
    if (fault && (fault.drop || isErrorFault(fault))) {
      // "Processed, but the answer was lost": perform the operation, then fail anyway.
      if (fault.process) await resolved.handle(ctx)
      if (fault.drop) {
        req.socket.destroy()
        return
      }
      // Of the ways to write a body, only `endless` applies to an error answer.
      return respond(faultReply(fault), { route: fault.route, endless: fault.endless })
    }
    const reply = await resolved.handle(ctx)
    if (fault?.patch !== undefined && reply.json !== null && typeof reply.json === 'object') {
      reply.json = { ...(reply.json as Record<string, unknown>), ...fault.patch }
    }
    return respond(fault === undefined ? reply : reshaped(reply, fault), fault)
  }

  const sockets = new Set<Socket>()
  const makeServer = (kind: 'api' | 'storage'): Server => {
    const server = createServer((req, res) => {
      handle(kind, req, res).catch((error: unknown) => {
        // Aborted by close(), a client that went away, or a bug: answer 500 if still possible.
        if (closing.signal.aborted || res.headersSent || res.destroyed) {
          res.destroy()
          return
        }
        writeReply(
          res,
          errorReply(500, `simulator error: ${error instanceof Error ? error.message : String(error)}`)
        ).catch(() => res.destroy())
      })
    })
    server.on('connection', (socket) => {
      sockets.add(socket)
      socket.on('close', () => sockets.delete(socket))
    })
    return server
  }

  const apiServer = makeServer('api')
  const storageServer = makeServer('storage')
  const close = async (): Promise<void> => {
    if (!closing.signal.aborted) closing.abort()
    const closed = [apiServer, storageServer]
      .filter((s) => s.listening)
      .map((s) => new Promise<void>((done) => s.close(() => done())))
    for (const socket of sockets) socket.destroy()
    await Promise.all(closed)
  }

  try {
    const apiPort = await listen(apiServer, options.apiPort ?? 0, host)
    const storagePort = await listen(storageServer, options.storagePort ?? 0, host)
    const apiOrigin = `http://${formatHost(host)}:${apiPort}`
    storageUrl = `http://${formatHost(host)}:${storagePort}`
    return {
      apiUrl: `${apiOrigin}${prefix}`,
      storageUrl,
      githubApiUrl: `${apiOrigin}${GITHUB_API_ROOT}`,
      apiKey,
      requests,
      count: (route) => requests.filter((r) => r.route === route).length,
      addFault: (fault) => faults.add(fault),
      clearFaults: () => faults.clear(),
      setBundle: (bundle) => bundles.setBundle(bundle),
      issuedLinks: bundles.issuedLinks,
      exportJobs,
      agentJobs: agent.jobs,
      deployments,
      automationRuns,
      github,
      close
    }
  } catch (error) {
    await close()
    throw error
  }
}

function resolveIn(
  routes: Route[],
  origin: Resolved['origin'],
  method: string,
  fullPath: string,
  path: string,
  notFound: () => Reply
): Resolved {
  const found = findRoute(routes, method, path)
  if (found) return { origin, name: found.route.name, path, params: found.params, handle: found.route.handle }
  return { origin, name: 'unknown', path: fullPath, params: {}, handle: notFound }
}

/**
 * What puts routes under the one limit the reference gives deployment and automation triggers
 * together: every route passed to it shares its window. The key is checked first (a request
 * refused with 401 takes no place).
 */
function triggerLimit(limit: SimulatorOptions['triggerLimit'], now: () => number): (routes: Route[]) => Route[] {
  const window = new RateWindow(limit?.limit ?? 10, limit?.windowMs ?? 10_000, now)
  const message =
    `Too many requests: at most ${window.limit} deployment and automation triggers in ` +
    `${window.windowMs / 1000} s per organization`
  return (routes) => limitedTogether(routes, ['deploy-trigger', 'automation-trigger'], window, message)
}

/** Wraps API routes with the bearer-key check (spec section 5). */
function withApiAuth(routes: Route[], apiKey: string): Route[] {
  return routes.map((route) => ({
    ...route,
    handle: (ctx: RequestContext) => {
      const match = /^Bearer\s+(.+)$/i.exec(ctx.headers.authorization ?? '')
      if (match?.[1]?.trim() !== apiKey) {
        return errorReply(
          401,
          ctx.headers.authorization ? 'invalid API key' : 'missing Authorization: Bearer <API key>',
          { 'www-authenticate': 'Bearer' }
        )
      }
      return route.handle(ctx)
    }
  }))
}

function faultReply(fault: Fault): Reply {
  const status = fault.status ?? 503
  const headers: Record<string, string> = { ...fault.headers }
  if (fault.retryAfter !== undefined) headers['retry-after'] = fault.retryAfter
  if (typeof fault.body === 'string')
    return { status, headers: { ...headers, 'content-type': 'text/plain; charset=utf-8' }, raw: fault.body }
  return { status, headers, json: fault.body ?? { error: `simulated ${status}` } }
}

/** The normal answer with its body written otherwise (see Fault.answer and Fault.escapedJson). */
function reshaped(reply: Reply, fault: Fault): Reply {
  if (fault.answer === undefined && fault.escapedJson !== true) return reply
  const json = { 'content-type': 'application/json; charset=utf-8' }
  let text = reply.json === undefined ? String(reply.raw ?? '') : JSON.stringify(reply.json)
  if (fault.escapedJson === true)
    text = text.replace(/\//g, '\\/').replace(/[&<>]/g, (c) => `\\u00${c.charCodeAt(0).toString(16)}`)
  switch (fault.answer) {
    case 'cut':
      return {
        status: reply.status,
        headers: { ...reply.headers, ...json },
        raw: text.slice(0, fault.cutAt ?? Math.floor(text.length / 2))
      }
    case 'empty':
      return { status: reply.status, headers: { ...reply.headers, ...json }, raw: '' }
    case 'html':
      return {
        status: reply.status,
        headers: { ...reply.headers, 'content-type': 'text/html; charset=utf-8' },
        raw:
          '<!DOCTYPE html><html><head><title>Unicorn!</title></head>' +
          '<body>No server is currently available.</body></html>'
      }
    default:
      return { status: reply.status, headers: { ...reply.headers, ...json }, raw: text }
  }
}

function storageNotFound(): Reply {
  return {
    status: 404,
    headers: { 'content-type': 'application/xml' },
    raw:
      '<?xml version="1.0" encoding="UTF-8"?>\n' +
      '<Error><Code>NoSuchKey</Code><Message>The specified key does not exist.</Message></Error>'
  }
}

function normalizePrefix(prefix: string | undefined): string {
  const trimmed = (prefix ?? '').replace(/\/+$/, '')
  if (trimmed === '') return ''
  return trimmed.startsWith('/') ? trimmed : `/${trimmed}`
}

function formatHost(host: string): string {
  return host.includes(':') ? `[${host}]` : host
}

function listen(server: Server, port: number, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject)
    server.listen(port, host, () => {
      server.off('error', reject)
      const address = server.address()
      resolve(typeof address === 'object' && address ? address.port : port)
    })
  })
}
