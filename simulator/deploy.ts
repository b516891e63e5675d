// Deployments ("Trigger deployment", "Get update status" of the public reference). Like export
// jobs, a deployment's state is derived from the clock on every read, so a fake `now` drives it.
import { randomBytes } from 'node:crypto'
import { errorReply, json } from './http.js'
import type { Reply, RequestContext, Route } from './http.js'

export interface DeployedCommit {
  sha: string
  ref: string
  message: string
  filesChanged: { added: string[]; modified: string[]; removed: string[] }
}

export interface DeploymentBehavior {
  /** Time from the trigger to the end (ms), default 300. */
  durationMs?: number
  /** Time spent `queued` before `in_progress` (ms), default 50. */
  queuedMs?: number
  /** The deployment ends `failure` with this `summary` instead of `success`. */
  failWith?: string
  /**
   * Reported instead of `in_progress` for the last 20% of the run (a status clients do not know).
   * The deployment does not end before one read has shown it.
   */
  extraStatus?: string
  /** The commit deployed, over the default one (fields given replace the default's). */
  commit?: Partial<DeployedCommit>
  /** The build's log lines, shown as the run goes on (default: a few lines of a docs build). */
  logs?: string[]
}

export interface DeploymentOptions extends DeploymentBehavior {
  /** Per-project overrides, merged over the defaults above. */
  byProject?: Record<string, DeploymentBehavior>
}

export interface DeploymentRecord {
  statusId: string
  projectId: string
  createdAt: number
  behavior: Required<Omit<DeploymentBehavior, 'failWith' | 'extraStatus' | 'commit'>> &
    Pick<DeploymentBehavior, 'failWith' | 'extraStatus'> & { commit: DeployedCommit }
  /** Set once a status read has shown `behavior.extraStatus`. */
  extraStatusShown?: boolean
}

/** The status document, with the fields the reference lists. */
export interface DeploymentView {
  _id: string
  projectId: string
  createdAt: string
  endedAt?: string
  status: string
  summary: string
  logs: string[]
  subdomain: string
  screenshot: string
  screenshotLight: string
  screenshotDark: string
  author: string
  commit: DeployedCommit
  source: 'api'
}

/** The head of the deployment branch the simulator deploys unless told otherwise. */
export const DEFAULT_DEPLOYED_COMMIT: DeployedCommit = {
  sha: '5d41402abc4b2a76b9719d911017c592ae4e1f07',
  ref: 'main',
  message: 'Docs: describe the deploy operation\n\nAnd link it from the quick start.',
  filesChanged: {
    added: ['docs/guides/deploy.mdx'],
    modified: ['docs/index.mdx', 'docs.json'],
    removed: ['docs/old/deploy.mdx']
  }
}

const DEFAULT_LOGS = [
  'Cloning the deployment branch',
  'Installing dependencies',
  'Building pages',
  'Uploading the site'
]

/** The status document of a deployment at time `now`. */
export function deploymentView(record: DeploymentRecord, now: number): DeploymentView {
  const b = record.behavior
  const elapsed = now - record.createdAt
  const view = (status: string, summary: string, logs: string[], endedAt?: number): DeploymentView => ({
    _id: record.statusId,
    projectId: record.projectId,
    createdAt: new Date(record.createdAt).toISOString(),
    ...(endedAt === undefined ? {} : { endedAt: new Date(endedAt).toISOString() }),
    status,
    summary,
    logs,
    subdomain: record.projectId.toLowerCase(),
    screenshot: `https://screenshots.example.com/${record.statusId}.png`,
    screenshotLight: `https://screenshots.example.com/${record.statusId}-light.png`,
    screenshotDark: `https://screenshots.example.com/${record.statusId}-dark.png`,
    author: 'docs-bot',
    commit: record.behavior.commit,
    source: 'api'
  })
  const queuedLine = `Queued a deployment of ${b.commit.ref} at ${b.commit.sha.slice(0, 7)}`
  if (elapsed >= b.durationMs && (b.extraStatus === undefined || record.extraStatusShown)) {
    const endedAt = record.createdAt + b.durationMs
    if (b.failWith === undefined) return view('success', 'Deployed', [queuedLine, ...b.logs, 'Deployed'], endedAt)
    return view('failure', b.failWith, [queuedLine, ...b.logs, `Error: ${b.failWith}`], endedAt)
  }
  if (elapsed < b.queuedMs) return view('queued', 'Waiting for a builder', [queuedLine])
  const fraction = Math.min(0.99, (elapsed - b.queuedMs) / Math.max(1, b.durationMs - b.queuedMs))
  const status = b.extraStatus !== undefined && fraction >= 0.8 ? b.extraStatus : 'in_progress'
  const shown = b.logs.slice(0, Math.max(1, Math.ceil(fraction * b.logs.length)))
  return view(status, 'Building the docs', [queuedLine, ...shown])
}

export interface DeployDeps {
  deployments: Map<string, DeploymentRecord>
  now: () => number
  options: DeploymentOptions | undefined
}

export function deployRoutes(deps: DeployDeps): Route[] {
  return [
    {
      name: 'deploy-trigger',
      method: 'POST',
      pattern: '/v1/project/update/:projectId',
      // No body is documented: whatever comes is ignored.
      handle: (ctx) => trigger(deps, ctx)
    },
    {
      name: 'deploy-status',
      method: 'GET',
      pattern: '/v1/project/update-status/:statusId',
      handle: (ctx) => {
        const record = deps.deployments.get(ctx.params.statusId ?? '')
        if (!record) return errorReply(404, 'update status not found')
        const view = deploymentView(record, deps.now())
        if (view.status === record.behavior.extraStatus) record.extraStatusShown = true
        return json(200, view)
      }
    }
  ]
}

function trigger(deps: DeployDeps, ctx: RequestContext): Reply {
  const record = newDeployment(deps, ctx.params.projectId ?? '')
  return json(202, { statusId: record.statusId })
}

/** A deployment of `projectId` queued now, with the project's behaviour (`commit` over its commit), kept in `deps`. */
export function newDeployment(
  deps: DeployDeps,
  projectId: string,
  commitOverride: Partial<DeployedCommit> = {}
): DeploymentRecord {
  const { byProject, ...defaults } = deps.options ?? {}
  const merged = { ...defaults, ...byProject?.[projectId] }
  const commit = { ...DEFAULT_DEPLOYED_COMMIT, ...merged.commit, ...commitOverride }
  const record: DeploymentRecord = {
    // Status ids look like the service's database ids: 24 hex digits.
    statusId: randomBytes(12).toString('hex'),
    projectId,
    createdAt: deps.now(),
    behavior: {
      durationMs: merged.durationMs ?? 300,
      queuedMs: merged.queuedMs ?? 50,
      failWith: merged.failWith,
      extraStatus: merged.extraStatus,
      commit: { ...commit, filesChanged: { ...commit.filesChanged } },
      logs: merged.logs ?? DEFAULT_LOGS
    }
  }
  deps.deployments.set(record.statusId, record)
  return record
}
