import { ActionError } from '../common/errors.js'
import { asObject, normalisedHttpLink, plain, statusMissing, text, timestamp } from './answer.js'
import { segment } from '../common/path-segment.js'
import { type ServiceClient, type ServiceRequest, ServiceError } from './client.js'
import { askedWaitOf, describeWaitEnd } from './retry.js'

/**
 * An agent job as read from an answer (spec 2.1). No field is marked required there, so every
 * field may be missing; `null` and wrong types read as undefined.
 */
export interface AgentJob {
  id: string | undefined
  status: string | undefined
  model: string | undefined
  sourceRepository: string | undefined
  sourceRef: string | undefined
  /** Only an http(s) address: the link ends up in a comment reply and the summary. */
  prLink: string | undefined
  /** As the service gave it; a number (epoch seconds or milliseconds) as ISO 8601. */
  createdAt: string | undefined
  archivedAt: string | undefined
  /** Not in the spec; shown when a service sends it along with `failed`. */
  error: string | undefined
}

/** The states that end a wait (spec 3.1). */
export const AGENT_TERMINAL: ReadonlySet<string> = new Set(['completed', 'archived', 'failed'])
export const AGENT_KNOWN: ReadonlySet<string> = new Set(['active', 'completed', 'archived', 'failed'])

/** The reference's limit on creating jobs, and apart from it on sending messages: uses per project and hour. */
const USES_PER_HOUR = 100

/** What a 429 of each limited operation says: which limit of the reference's is reached. */
function rateLimit(operation: string, projectId: string): string {
  return (
    `the service's limit on ${operation}, ${USES_PER_HOUR} uses an hour per project, ` +
    `is reached for project ${projectId}`
  )
}

/**
 * What a 404 or 405 to a create means: the reference has the operation, so the project is unknown
 * or the request went to something other than the admin API.
 */
const CREATE_REFUSED = {
  404:
    "the service knows no such project. Check `project-id` (the API keys page of the organization's settings shows " +
    "it), and that `base-url` leads to the service's admin API.",
  405:
    "the address does not take this request, though the service's admin API creates jobs with " +
    '`POST /v2/agent/{projectId}/job`. ' +
    'Check that `base-url` leads to the admin API, not to a proxy or another service.'
} as const

/** The agent operations (get, message and create) with their failures explained for a user. */
export class AgentApi {
  constructor(
    private readonly client: ServiceClient,
    /** Wall time, to say when a rate limit ends. */
    private readonly now: () => number
  ) {}

  /** Reads the job as it is (spec 4.1: no field is required). */
  async read(projectId: string, jobId: string, deadline?: number): Promise<AgentJob> {
    return readAgentJob(await this.readAnswer(projectId, jobId, deadline))
  }

  /** Reads the job for following it: an answer without a `status` gives nothing to follow (see statusMissing). */
  async get(projectId: string, jobId: string, deadline?: number): Promise<AgentJob & { status: string }> {
    const answer = await this.readAnswer(projectId, jobId, deadline)
    const job = readAgentJob(answer)
    if (job.status === undefined) throw statusMissing(answer, `read agent job ${jobId}`)
    return { ...job, status: job.status }
  }

  private readAnswer(projectId: string, jobId: string, deadline: number | undefined): Promise<unknown> {
    return this.call(
      { method: 'GET', path: jobPath(projectId, jobId), kind: 'idempotent', what: `read agent job ${jobId}`, deadline },
      { projectId, jobId }
    )
  }

  /** Sends a follow-up message: never repeated unless the service surely did not receive it. */
  async message(projectId: string, jobId: string, prompt: string, deadline?: number): Promise<AgentJob> {
    const body = await this.call(
      {
        method: 'POST',
        path: `${jobPath(projectId, jobId)}/message`,
        body: { prompt },
        kind: 'once',
        what: `send the message to agent job ${jobId}`,
        deadline
      },
      { projectId, jobId, rateLimit: rateLimit('sending messages', projectId) }
    )
    return readAgentJob(body)
  }

  /**
   * Creates a job: `POST /v2/agent/{projectId}/job` with `{prompt}`, 201 with the job (the
   * reference's "Create agent job"); its answer is read as loosely as the others.
   */
  async create(projectId: string, prompt: string, deadline?: number): Promise<AgentJob & { id: string }> {
    const what = `create an agent job in project ${projectId}`
    const body = await this.call(
      { method: 'POST', path: `/v2/agent/${segment(projectId)}/job`, body: { prompt }, kind: 'once', what, deadline },
      { projectId, rateLimit: rateLimit('creating agent jobs', projectId) }
    )
    const job = readAgentJob(body)
    if (job.id === undefined) {
      throw new ActionError(
        `The service accepted the request to ${what} but its answer carries no usable job \`id\` (none, blank, ` +
          `or with control characters or a workflow command mark), so the job cannot be followed. Look the job up ` +
          `on the dashboard; do not rerun blindly (it would create a second job).`
      )
    }
    return { ...job, id: job.id }
  }

  private async call(
    request: ServiceRequest,
    about: { projectId: string; jobId?: string; rateLimit?: string }
  ): Promise<unknown> {
    try {
      return await this.client.request(request)
    } catch (error) {
      if (!(error instanceof ServiceError)) throw error
      const said = error.serviceError ? `: the service said "${error.serviceError}"` : ''
      if (error.status === 404 && about.jobId !== undefined) {
        throw new ActionError(
          `Agent job ${about.jobId} in project ${about.projectId} was not found (HTTP 404${said}). Check ` +
            `\`job-id\` and \`project-id\`.`,
          { cause: error }
        )
      }
      if ((error.status === 404 || error.status === 405) && about.jobId === undefined)
        throw new ActionError(
          `Could not ${request.what} (HTTP ${error.status}${said}): ${CREATE_REFUSED[error.status]}`,
          {
            cause: error
          }
        )
      if (error.status === 429 && about.rateLimit !== undefined)
        throw this.rateLimited(request.what, about.rateLimit, error, said)
      if (request.kind === 'once' && about.jobId !== undefined && error.mayHaveBeenProcessed) {
        throw error.withMessage(
          `${error.message} Read the job with \`operation: agent-status\` (job-id ${about.jobId}) before sending ` +
            `the message again.`
        )
      }
      throw error
    }
  }

  private rateLimited(what: string, limit: string, error: ServiceError, said: string): ActionError {
    const now = this.now()
    const waitMs = askedWaitOf(error.failure, now)
    const end = waitMs === undefined ? undefined : describeWaitEnd(waitMs, now)
    const when =
      end === undefined
        ? 'The service did not say when to try again; try again later.'
        : `Try again after ${end.at} (in ${end.after}).`
    const why = error.stoppedByDeadline ? ' Waiting for it would pass `timeout`, so it was not tried again.' : ''
    return new ActionError(`Could not ${what}: ${limit} (HTTP 429${said}).${why} ${when}`, { cause: error })
  }
}

function jobPath(projectId: string, jobId: string): string {
  return `/v2/agent/${segment(projectId)}/job/${segment(jobId)}`
}

/**
 * Reads an AgentJob from an answer. Tolerates a wrapper (`{"job": {...}}` or `{"data": {...}}`),
 * snake_case names, a `jobId` instead of `id`, and `source` given as the repository address.
 */
export function readAgentJob(body: unknown): AgentJob {
  let value = asObject(body)
  for (const key of ['job', 'data']) {
    const inner = asObject(value[key])
    if (!('id' in value) && !('status' in value) && ('id' in inner || 'status' in inner)) value = inner
  }
  const source = value.source
  const sourceFields = asObject(source)
  return {
    id: plain(value.id) ?? plain(value.jobId) ?? plain(value.job_id),
    status: text(value.status),
    model: text(value.model),
    sourceRepository:
      (typeof source === 'string' ? text(source) : undefined) ??
      text(sourceFields.repository) ??
      text(value.repository),
    sourceRef: text(sourceFields.ref) ?? text(sourceFields.branch),
    prLink: normalisedHttpLink(value.prLink ?? value.pr_link ?? value.prUrl),
    createdAt: time(value.createdAt ?? value.created_at),
    archivedAt: time(value.archivedAt ?? value.archived_at),
    error: text(value.error) ?? text(value.errorMessage)
  }
}

/** Text as the service gave it (ISO 8601 per the spec); epoch seconds/milliseconds as ISO 8601. */
function time(value: unknown): string | undefined {
  if (typeof value === 'number') return timestamp(value)?.toISOString()
  return text(value)
}

/**
 * Whether a failed message was refused because the job takes no more messages: a 409 (the job's
 * state conflicts with it) or a 410 (the job is gone for messages). Other refusals (400, 413,
 * 422, ...) are about the message itself. The job's own status says whether it ended (see
 * agent-flow.ts).
 */
export function refusesMessages(error: unknown): error is ServiceError {
  const status = error instanceof ServiceError ? error.status : undefined
  return status === 409 || status === 410
}
