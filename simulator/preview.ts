// Preview deployments ("Trigger preview deployment" of the public reference): a deployment of a
// branch, read back like any other through "Get update status", at most 5 triggers a minute.
import { type DeployDeps, newDeployment } from './deploy.js'
import { errorReply, json } from './http.js'
import type { Reply, RequestContext, Route } from './http.js'

export interface PreviewOptions {
  /** Previews are on the organization's plan (default true); else every trigger is answered 403. */
  enabled?: boolean
  /** Triggers the organization may make in a minute (default 5, as the reference says). */
  perMinute?: number
  /** The preview's address for `branch` (default `https://<project>-<branch>.mintlify.app`). */
  url?: (projectId: string, branch: string) => string
}

export interface PreviewDeps extends DeployDeps {
  preview: PreviewOptions | undefined
  /** When each accepted trigger came, for the limit. */
  triggered: number[]
}

export function previewRoutes(deps: PreviewDeps): Route[] {
  return [
    {
      name: 'preview-trigger',
      method: 'POST',
      pattern: '/v1/project/preview/:projectId',
      handle: (ctx) => trigger(deps, ctx)
    }
  ]
}

function trigger(deps: PreviewDeps, ctx: RequestContext): Reply {
  const options = deps.preview ?? {}
  if (options.enabled === false) return errorReply(403, 'Preview deployments are not available on your current plan')
  const body = ctx.body !== null && typeof ctx.body === 'object' ? (ctx.body as { branch?: unknown }) : {}
  const branch = typeof body.branch === 'string' ? body.branch : ''
  if (branch === '') return errorReply(400, 'branch is required')
  const now = deps.now()
  const recent = deps.triggered.filter((at) => at > now - 60_000)
  if (recent.length >= (options.perMinute ?? 5)) {
    const wait = Math.max(1, Math.ceil(((recent[0] ?? now) + 60_000 - now) / 1000))
    return errorReply(429, 'Too many preview requests', { 'retry-after': String(wait) })
  }
  deps.triggered.splice(0, deps.triggered.length, ...recent, now)
  const projectId = ctx.params.projectId ?? ''
  // An existing preview of the branch is redeployed: the address stays the branch's.
  const record = newDeployment(deps, projectId, { ref: branch })
  const url = options.url?.(projectId, branch) ?? `https://${projectId}-${slug(branch)}.mintlify.app`
  return json(202, { statusId: record.statusId, previewUrl: url })
}

function slug(branch: string): string {
  return branch
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')
}
