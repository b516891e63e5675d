// Preview deployments ("Trigger preview deployment" of the public reference): a deployment of a
// branch, read back like any other through "Get update status", at most 5 triggers a minute.
import { type DeployDeps, newDeployment } from './deploy.js'
import { errorReply, json } from './http.js'
import { RateWindow } from './rate-limit.js'
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
}

export function previewRoutes(deps: PreviewDeps): Route[] {
  const window = new RateWindow(deps.preview?.perMinute ?? 5, 60_000, deps.now)
  return [
    {
      name: 'preview-trigger',
      method: 'POST',
      pattern: '/v1/project/preview/:projectId',
      handle: (ctx) => trigger(deps, window, ctx)
    }
  ]
}

function trigger(deps: PreviewDeps, window: RateWindow, ctx: RequestContext): Reply {
  const options = deps.preview ?? {}
  if (options.enabled === false) return errorReply(403, 'Preview deployments are not available on your current plan')
  const body = ctx.body !== null && typeof ctx.body === 'object' ? (ctx.body as { branch?: unknown }) : {}
  const branch = typeof body.branch === 'string' ? body.branch : ''
  if (branch === '') return errorReply(400, 'branch is required')
  const limited = window.refusal('Too many preview requests')
  if (limited !== undefined) return limited
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
