// Static export jobs (spec 4.3-4.5). Job state is derived from the clock on every read rather
// than advanced by timers, so a fake `now` drives it deterministically and nothing leaks.
import { randomBytes } from 'node:crypto'
import { errorReply, json } from './http.js'
import type { Reply, RequestContext, Route } from './http.js'
import type { BundleStore } from './storage.js'

export interface ExportJobBehavior {
  /** Time from start to completed (ms), default 300. */
  durationMs?: number
  /** Time spent 'queued' before 'running' (ms), default 50. */
  queuedMs?: number
  /** The job ends 'failed' with this `error` instead of completing. */
  failWith?: string
  /** stall: stuck at 40 for the middle half, then jumps; absent: no progress field at all. */
  progress?: 'linear' | 'stall' | 'absent'
  /**
   * Reported instead of 'running' for the last 20% of the run (a status clients do not know). The job
   * does not end before one status read has shown it, so a client slowed down still sees it.
   */
  extraStatus?: string
  /** Final page count, default = number of HTML pages in the bundle. */
  pageCount?: number
}

export interface ExportJobOptions extends ExportJobBehavior {
  /** Per-domain overrides, merged over the defaults above. */
  byDomain?: Record<string, ExportJobBehavior>
}

export interface ExportJobRecord {
  jobId: string
  domain: string
  version?: string
  paths?: string[]
  createdAt: number
  behavior: Required<Omit<ExportJobBehavior, 'failWith' | 'extraStatus'>> &
    Pick<ExportJobBehavior, 'failWith' | 'extraStatus'>
  /** Set once a status read has shown `behavior.extraStatus`. */
  extraStatusShown?: boolean
}

export interface ExportJobView {
  jobId: string
  status: string
  progress?: number
  pageCount: number
  domain: string
  version?: string
  error?: string
}

/** The status document of a job at time `now`. */
export function exportJobView(job: ExportJobRecord, now: number): ExportJobView {
  const b = job.behavior
  const elapsed = now - job.createdAt
  const view = (status: string, fraction: number, progress: number): ExportJobView => {
    const out: ExportJobView = {
      jobId: job.jobId,
      status,
      ...(b.progress === 'absent' ? {} : { progress }),
      pageCount: Math.floor(b.pageCount * fraction),
      domain: job.domain
    }
    if (job.version !== undefined) out.version = job.version
    return out
  }
  if (elapsed >= b.durationMs && (b.extraStatus === undefined || job.extraStatusShown)) {
    if (b.failWith === undefined) return view('completed', 1, 100)
    // A failed job keeps the figures it had when it stopped.
    return { ...view('failed', 1, runningProgress(b.progress, 1)), error: b.failWith }
  }
  if (elapsed < b.queuedMs) return view('queued', 0, 0)
  const fraction = Math.min(0.99, (elapsed - b.queuedMs) / (b.durationMs - b.queuedMs))
  const status = b.extraStatus !== undefined && fraction >= 0.8 ? b.extraStatus : 'running'
  return view(status, fraction, runningProgress(b.progress, fraction))
}

/** Integer progress 0..99 while running (100 is reserved for completed). */
function runningProgress(mode: ExportJobBehavior['progress'], fraction: number): number {
  if (mode === 'stall') {
    if (fraction < 0.25) return Math.floor((fraction / 0.25) * 40)
    if (fraction < 0.75) return 40
    return Math.min(99, 80 + Math.floor(((fraction - 0.75) / 0.25) * 20))
  }
  return Math.min(99, Math.floor(fraction * 100))
}

export interface ExportDeps {
  jobs: Map<string, ExportJobRecord>
  now: () => number
  options: ExportJobOptions | undefined
  bundles: BundleStore
}

export function exportRoutes(deps: ExportDeps): Route[] {
  const find = (ctx: RequestContext): ExportJobRecord | undefined => deps.jobs.get(ctx.params.jobId ?? '')
  return [
    { name: 'export-start', method: 'POST', pattern: '/v1/static-export/jobs', handle: (ctx) => start(deps, ctx) },
    {
      name: 'export-status',
      method: 'GET',
      pattern: '/v1/static-export/jobs/:jobId',
      handle: (ctx) => {
        const job = find(ctx)
        if (!job) return errorReply(404, 'export job not found')
        const view = exportJobView(job, deps.now())
        if (view.status === job.behavior.extraStatus) job.extraStatusShown = true
        return json(200, view)
      }
    },
    {
      name: 'export-bundle',
      method: 'POST',
      pattern: '/v1/static-export/jobs/:jobId/bundle',
      // The body is ignored: empty, JSON or anything else is accepted.
      handle: async (ctx) => {
        const job = find(ctx)
        if (!job) return errorReply(404, 'export job not found')
        const { status } = exportJobView(job, deps.now())
        if (status !== 'completed')
          return errorReply(409, `export job is ${status}; a bundle can only be generated for a completed job`)
        return json(200, { jobId: job.jobId, ...(await deps.bundles.issue(job.jobId)) })
      }
    }
  ]
}

function start(deps: ExportDeps, ctx: RequestContext): Reply {
  if (ctx.bodyInvalid) return errorReply(400, 'request body must be valid JSON')
  const body = (typeof ctx.body === 'object' && ctx.body !== null ? ctx.body : {}) as Record<string, unknown>
  const { domain, version, paths } = body
  if (typeof domain !== 'string' || domain.trim() === '') return errorReply(400, 'domain is required')
  if (version !== undefined && version !== null && typeof version !== 'string')
    return errorReply(400, 'version must be a string')
  if (paths !== undefined && paths !== null && !(Array.isArray(paths) && paths.every((p) => typeof p === 'string'))) {
    return errorReply(400, 'paths must be an array of strings')
  }
  const { byDomain, ...defaults } = deps.options ?? {}
  const merged = { ...defaults, ...byDomain?.[domain] }
  const record: ExportJobRecord = {
    jobId: `exp_${randomBytes(8).toString('hex')}`,
    domain,
    createdAt: deps.now(),
    behavior: {
      durationMs: merged.durationMs ?? 300,
      queuedMs: merged.queuedMs ?? 50,
      progress: merged.progress ?? 'linear',
      pageCount: merged.pageCount ?? deps.bundles.htmlPageCount(),
      failWith: merged.failWith,
      extraStatus: merged.extraStatus
    }
  }
  if (typeof version === 'string') record.version = version
  if (Array.isArray(paths)) record.paths = paths as string[]
  deps.jobs.set(record.jobId, record)
  return json(202, { jobId: record.jobId, status: 'queued' })
}
