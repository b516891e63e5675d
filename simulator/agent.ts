// Agent jobs (spec 2.1, 3.1, 4.1, 4.2) plus a create operation for demos. Like export jobs,
// a job's progress is settled lazily from the clock when it is read, so no timers are needed.
import { randomBytes } from 'node:crypto'
import type { GitHubFake } from './github.js'
import { errorReply, json } from './http.js'
import type { Reply, RequestContext, Route } from './http.js'
import { RateWindow } from './rate-limit.js'

export interface AgentJob {
  id: string
  /** 'active' | 'completed' | 'archived' | 'failed', or an unknown status via `extraStatus`. */
  status: string
  source: { repository: string; ref: string | null }
  model: string
  prLink: string | null
  createdAt: string
  archivedAt: string | null
}

export interface AgentOptions {
  /** How long a job stays active after a message or create (ms), default 300. */
  durationMs?: number
  /** Accepted messages per project per rolling hour, default 100 (spec section 8). */
  messagesPerHour?: number
  /** Jobs to seed instead of the default proj_123/job_abc; projectId defaults to 'proj_123'. */
  jobs?: Array<AgentJob & { projectId?: string }>
  /**
   * Reported instead of 'active' for the last 20% of a run (a status clients do not know). A run
   * does not end before one read has shown it, so a client slowed down (a loaded machine) still sees it.
   */
  extraStatus?: string
  /**
   * How long after a message the job still shows itself as before it (ms), default 0: the spec
   * leaves open when a message changes `status` (3.1), and a busy service may take a while.
   */
  messageLagMs?: number
}

type Outcome = 'completed' | 'failed' | 'archived' | 'nochange'

export interface AgentJobRecord {
  projectId: string
  job: AgentJob
  /** Set while the agent works on the latest prompt; until `startedAt` the job shows `before` (see messageLagMs). */
  run?: { startedAt: number; endsAt: number; outcome: Outcome; before?: AgentJob; extraStatusShown?: boolean }
  prompts: string[]
  /** The job's pull request, once it opened one: later messages update it rather than open another. */
  pullRequest?: string
}

export const DEFAULT_PROJECT_ID = 'proj_123'
/** The repository agent jobs work on, on the simulated GitHub server. */
export const DEFAULT_REPO = 'acme/docs'
const HOUR_MS = 60 * 60 * 1000

export function agentJobKey(projectId: string, id: string): string {
  return `${projectId}/${id}`
}

/** The seeded job: completed, with pull request #42 of the simulated repository. */
export function defaultAgentJobs(github: GitHubFake): AgentJob[] {
  github.thread(DEFAULT_REPO, 42, { title: 'Docs: the first agent pull request', isPullRequest: true })
  return [
    {
      id: 'job_abc',
      status: 'completed',
      source: { repository: `${github.serverUrl}/${DEFAULT_REPO}`, ref: 'main' },
      model: 'sim-agent-1',
      prLink: `${github.serverUrl}/${DEFAULT_REPO}/pull/42`,
      createdAt: '2024-01-01T00:00:00.000Z',
      archivedAt: null
    }
  ]
}

export class AgentService {
  readonly jobs = new Map<string, AgentJobRecord>()
  /** Each project's window of accepted messages. */
  private readonly messageWindows = new Map<string, RateWindow>()

  constructor(
    private readonly options: AgentOptions,
    private readonly now: () => number,
    /** Where the jobs open their pull requests. */
    private readonly github: GitHubFake
  ) {
    for (const seed of options.jobs ?? defaultAgentJobs(github)) {
      const { projectId = DEFAULT_PROJECT_ID, ...job } = seed as AgentJob & { projectId?: string }
      this.jobs.set(agentJobKey(projectId, job.id), {
        projectId,
        job: { ...job, source: { ...job.source } },
        prompts: [],
        pullRequest: job.prLink ?? undefined
      })
    }
  }

  routes(): Route[] {
    return [
      { name: 'agent-get', method: 'GET', pattern: '/v2/agent/:projectId/job/:id', handle: (ctx) => this.get(ctx) },
      {
        name: 'agent-message',
        method: 'POST',
        pattern: '/v2/agent/:projectId/job/:id/message',
        handle: (ctx) => this.message(ctx)
      },
      { name: 'agent-create', method: 'POST', pattern: '/v2/agent/:projectId/job', handle: (ctx) => this.create(ctx) }
    ]
  }

  /** The job as a client would see it now (settles a finished run first). */
  view(record: AgentJobRecord): AgentJob {
    const now = this.now()
    const run = record.run
    const extraStatus = this.options.extraStatus
    if (run && now >= run.endsAt && (extraStatus === undefined || run.extraStatusShown)) this.settle(record, run)
    const shown = record.run?.before !== undefined && now < record.run.startedAt ? record.run.before : record.job
    const job = { ...shown, source: { ...shown.source } }
    if (record.run && extraStatus !== undefined) {
      const span = record.run.endsAt - record.run.startedAt
      if (span <= 0 || (now - record.run.startedAt) / span >= 0.8) {
        job.status = extraStatus
        record.run.extraStatusShown = true
      }
    }
    return job
  }

  private settle(record: AgentJobRecord, run: NonNullable<AgentJobRecord['run']>): void {
    record.run = undefined
    const job = record.job
    switch (run.outcome) {
      case 'completed': {
        job.status = 'completed'
        const prompt = record.prompts.at(-1) ?? ''
        record.pullRequest ??= this.github.openPullRequest(
          DEFAULT_REPO,
          `Docs agent: ${prompt.split('\n')[0]?.slice(0, 60) ?? ''}`,
          prompt
        )
        job.prLink = record.pullRequest
        return
      }
      case 'nochange':
        job.status = 'completed'
        job.prLink = null
        return
      case 'failed':
        job.status = 'failed'
        return
      case 'archived':
        job.status = 'archived'
        job.archivedAt = new Date(run.endsAt).toISOString()
        return
    }
  }

  private lookup(ctx: RequestContext): AgentJobRecord | undefined {
    return this.jobs.get(agentJobKey(ctx.params.projectId ?? '', ctx.params.id ?? ''))
  }

  private get(ctx: RequestContext): Reply {
    const record = this.lookup(ctx)
    return record ? json(200, this.view(record)) : errorReply(404, 'job not found')
  }

  private message(ctx: RequestContext): Reply {
    const record = this.lookup(ctx)
    if (!record) return errorReply(404, 'job not found')
    // The spec leaves the refusal open; this simulator's choice: an archived job takes no more messages.
    if (this.view(record).status === 'archived') return errorReply(409, 'job is archived and takes no more messages')
    const prompt = readPrompt(ctx)
    if (typeof prompt !== 'string') return prompt
    const limited = this.rateLimit(record.projectId)
    if (limited) return limited
    this.startRun(record, prompt, this.options.messageLagMs ?? 0)
    return json(200, this.view(record))
  }

  private create(ctx: RequestContext): Reply {
    const prompt = readPrompt(ctx)
    if (typeof prompt !== 'string') return prompt
    const projectId = ctx.params.projectId ?? DEFAULT_PROJECT_ID
    const job: AgentJob = {
      id: `job_${randomBytes(6).toString('hex')}`,
      status: 'active',
      source: { repository: `${this.github.serverUrl}/${DEFAULT_REPO}`, ref: 'main' },
      model: 'sim-agent-1',
      prLink: null,
      createdAt: new Date(this.now()).toISOString(),
      archivedAt: null
    }
    const record: AgentJobRecord = { projectId, job, prompts: [] }
    this.jobs.set(agentJobKey(projectId, job.id), record)
    this.startRun(record, prompt)
    return json(201, this.view(record))
  }

  /** Rolling one-hour window per project; Retry-After says when the oldest message leaves it. */
  private rateLimit(projectId: string): Reply | undefined {
    const limit = this.options.messagesPerHour ?? 100
    let window = this.messageWindows.get(projectId)
    if (window === undefined) this.messageWindows.set(projectId, (window = new RateWindow(limit, HOUR_MS, this.now)))
    return window.refusal(`rate limit exceeded: at most ${limit} messages per hour per project`)
  }

  private startRun(record: AgentJobRecord, prompt: string, lagMs = 0): void {
    const startedAt = this.now() + lagMs
    const before = lagMs > 0 ? this.view(record) : undefined
    record.prompts.push(prompt)
    record.job.status = 'active'
    record.job.prLink = null
    record.job.archivedAt = null
    record.run = { startedAt, endsAt: startedAt + (this.options.durationMs ?? 300), outcome: outcomeOf(prompt), before }
  }
}

/** Magic words in the prompt choose how the run ends (whole words, upper case). */
function outcomeOf(prompt: string): Outcome {
  if (/\bFAIL\b/.test(prompt)) return 'failed'
  if (/\bARCHIVE\b/.test(prompt)) return 'archived'
  if (/\bNOCHANGE\b/.test(prompt)) return 'nochange'
  return 'completed'
}

function readPrompt(ctx: RequestContext): string | Reply {
  if (ctx.bodyInvalid) return errorReply(400, 'request body must be valid JSON')
  const prompt =
    typeof ctx.body === 'object' && ctx.body !== null ? (ctx.body as { prompt?: unknown }).prompt : undefined
  if (typeof prompt !== 'string' || prompt.trim() === '')
    return errorReply(400, 'prompt is required and must be a non-empty string')
  return prompt
}
