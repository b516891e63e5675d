/**
 * Deployments of a project's deployment branch: trigger one, read its status (the reference's
 * "Trigger deployment" and "Get update status"). Answers are read defensively, every text made
 * safe for a log line where it enters, but not cut: the flow takes the API key out first.
 */
import { ActionError } from '../common/errors.js'
import { segment } from '../common/path-segment.js'
import { serviceText } from '../common/text.js'
import { asObject, httpLink, plain, statusMissing, text, timestamp, wholeText } from './answer.js'
import { type ServiceClient, ServiceError } from './client.js'

/** The paths a commit added, modified and removed; undefined: a list the answer did not carry. */
export interface ChangedFiles {
  added: string[] | undefined
  modified: string[] | undefined
  removed: string[] | undefined
}

export interface DeployedCommit {
  sha: string | undefined
  ref: string | undefined
  /** The whole message, its lines kept apart (each made safe on its own). */
  message: string[] | undefined
  filesChanged: ChangedFiles | undefined
}

/** An update status, as read from an answer. */
export interface Deployment {
  status: string
  /** The service's summary of the update's status. */
  summary: string | undefined
  /** The log, one entry a line. */
  logs: string[]
  commit: DeployedCommit | undefined
  createdAt: Date | undefined
  endedAt: Date | undefined
}

export const DEPLOY_TERMINAL: ReadonlySet<string> = new Set(['success', 'failure'])
export const DEPLOY_KNOWN: ReadonlySet<string> = new Set(['queued', 'in_progress', 'success', 'failure'])

/** What to do instead of triggering again a deployment that may be under way. */
export const FIND_AND_FOLLOW =
  'Find its status id on the dashboard and follow it with `operation: deploy` and `job-id: <its status id>`.'
/** What to do after a preview's trigger that may have been processed. */
const PREVIEW_FOLLOW_UP =
  'If it was, the preview is being deployed: find its status id on the dashboard and follow it with ' +
  '`operation: preview` and `job-id: <its status id>` rather than triggering it again.'
/** What to do after a trigger that may have been processed: follow that deployment rather than start another. */
const FOLLOW_UP =
  "If it was, a deployment of the project's deployment branch is under way: find its status id on the dashboard " +
  'and follow it with `operation: deploy` and `job-id: <its status id>` rather than triggering another.'

export class DeployApi {
  constructor(private readonly client: ServiceClient) {}

  /**
   * Triggers a deployment and resolves with its status id. Sent at most once unless the service
   * surely did not receive it: a second trigger would queue a second deployment.
   */
  async trigger(projectId: string, deadline?: number): Promise<string> {
    const what = `trigger a deployment of project ${projectId}`
    let answer: unknown
    try {
      answer = await this.client.request({
        method: 'POST',
        path: `/v1/project/update/${segment(projectId)}`,
        kind: 'once',
        what,
        deadline
      })
    } catch (error) {
      if (!(error instanceof ServiceError)) throw error
      if (error.mayHaveBeenProcessed) throw error.withMessage(`${error.message} ${FOLLOW_UP}`)
      throw error
    }
    const fields = asObject(answer)
    const statusId = plain(fields.statusId)
    if (statusId === undefined) {
      const which =
        fields.statusId === undefined || fields.statusId === null
          ? 'no `statusId`'
          : 'a `statusId` the action cannot use (blank, or with control characters or a workflow command mark)'
      throw new ActionError(
        `The service accepted the request to ${what}, but its answer carries ${which}, ` +
          'so the deployment cannot be followed. ' +
          'Find it on the dashboard and follow it with `operation: deploy` and `job-id: <its status id>`; ' +
          'do not rerun blindly (that would trigger another deployment).'
      )
    }
    return statusId
  }

  /**
   * Triggers a preview deployment of `branch` (an existing preview of it is redeployed): its
   * status id and, when the answer gives a usable one, its address. Sent at most once unless the
   * service surely did not receive it, as a deployment's trigger is.
   */
  async preview(
    projectId: string,
    branch: string,
    deadline?: number
  ): Promise<{ statusId: string; previewUrl: string | undefined }> {
    const what = `trigger a preview of branch ${branch} in project ${projectId}`
    let answer: unknown
    try {
      answer = await this.client.request({
        method: 'POST',
        path: `/v1/project/preview/${segment(projectId)}`,
        body: { branch },
        kind: 'once',
        what,
        feature: 'previews',
        deadline
      })
    } catch (error) {
      if (!(error instanceof ServiceError)) throw error
      if (error.mayHaveBeenProcessed) throw error.withMessage(`${error.message} ${PREVIEW_FOLLOW_UP}`)
      throw error
    }
    const fields = asObject(answer)
    const statusId = plain(fields.statusId)
    if (statusId === undefined)
      throw new ActionError(
        `The service accepted the request to ${what}, but its answer carries no \`statusId\` the action can use, ` +
          'so the preview cannot be followed. Find it on the dashboard; do not rerun blindly (that would trigger ' +
          'it again).'
      )
    return { statusId, previewUrl: httpLink(fields.previewUrl) }
  }

  async status(statusId: string, deadline?: number): Promise<Deployment> {
    const what = `read the status of deployment ${statusId}`
    const answer = await this.client.request({
      method: 'GET',
      path: `/v1/project/update-status/${segment(statusId)}`,
      kind: 'idempotent',
      what,
      deadline
    })
    const body = asObject(answer)
    const status = text(body.status)
    if (status === undefined) throw statusMissing(answer, what)
    return {
      status,
      summary: wholeText(body.summary),
      logs: lines(body.logs) ?? [],
      commit: readCommit(body.commit),
      createdAt: timestamp(body.createdAt),
      endedAt: timestamp(body.endedAt)
    }
  }
}

function readCommit(value: unknown): DeployedCommit | undefined {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return undefined
  const fields = asObject(value)
  const files = fields.filesChanged
  const changed = asObject(files)
  return {
    sha: text(fields.sha),
    ref: text(fields.ref),
    message: lines(fields.message),
    filesChanged:
      files === null || typeof files !== 'object' || Array.isArray(files)
        ? undefined
        : { added: paths(changed.added), modified: paths(changed.modified), removed: paths(changed.removed) }
  }
}

/**
 * Text given as one string or a list of them, as its lines (a line break inside an entry starts a
 * new one), each made safe, its indentation kept; blank lines at either end dropped. Undefined
 * when it is neither.
 */
function lines(value: unknown): string[] | undefined {
  const entries = typeof value === 'string' ? [value] : Array.isArray(value) ? value : undefined
  if (entries === undefined) return undefined
  const found = entries
    .filter((entry): entry is string => typeof entry === 'string')
    .flatMap((entry) => entry.split(/\r\n|\r|\n/))
    .map((line) => serviceText(line).trimEnd())
  while (found[0] === '') found.shift()
  while (found.at(-1) === '') found.pop()
  return found
}

/** A list of paths: its non-blank strings, each made safe. */
function paths(value: unknown): string[] | undefined {
  if (!Array.isArray(value)) return undefined
  return value.map((entry) => wholeText(entry)).filter((entry): entry is string => entry !== undefined)
}
