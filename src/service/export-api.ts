import { ActionError } from '../common/errors.js'
import { asObject, count, httpLink, percent, plain, statusMissing, text, timestamp } from './answer.js'
import { segment } from '../common/path-segment.js'
import type { ServiceClient } from './client.js'

/** A status answer, read defensively: the spec leaves types and further fields open. */
export interface ExportStatus {
  status: string
  progress: number | undefined
  pageCount: number | undefined
  error: string | undefined
  createdAt: Date | undefined
  updatedAt: Date | undefined
}

/** A presigned link to the bundle archive, as the bundle operation returns it. */
export interface BundleLink {
  url: string
  /** When the link stops working; undefined when the service did not say or said something unreadable. */
  expiresAt: Date | undefined
  /** The archive's size in bytes, when the service said. */
  sizeBytes: number | undefined
}

export const EXPORT_TERMINAL = new Set(['completed', 'failed'])
export const EXPORT_KNOWN = new Set(['queued', 'running', 'completed', 'failed'])

export interface StartRequest {
  domain: string
  version?: string | undefined
  paths?: string[] | undefined
}

/** The three static export operations (spec 4.3-4.5). */
export class ExportApi {
  constructor(private readonly client: ServiceClient) {}

  /** Starts an export. Sent at most once unless the service surely did not receive it. */
  async start(request: StartRequest, deadline?: number): Promise<{ jobId: string; status: string | undefined }> {
    const body: Record<string, unknown> = { domain: request.domain }
    if (request.version !== undefined) body.version = request.version
    if (request.paths !== undefined) body.paths = request.paths
    const what = `start the export of ${request.domain}`
    const answer = await this.client.request({
      method: 'POST',
      path: '/v1/static-export/jobs',
      body,
      kind: 'once',
      what,
      // The reference's 403 of a start: static export is not enabled for the organization.
      feature: 'static export',
      deadline
    })
    const fields = asObject(answer)
    const jobId = plain(fields.jobId)
    if (jobId === undefined) {
      const which =
        fields.jobId === undefined || fields.jobId === null
          ? 'no `jobId`'
          : 'a `jobId` the action cannot use (blank, or with control characters or a workflow command mark)'
      throw new ActionError(
        `Could not ${what}: the service's answer carries ${which}, so the job cannot be followed. Look it up on ` +
          `the dashboard before starting another.`
      )
    }
    return { jobId, status: text(fields.status) }
  }

  async status(jobId: string, deadline?: number): Promise<ExportStatus> {
    const answer = await this.client.request({
      method: 'GET',
      path: `/v1/static-export/jobs/${segment(jobId)}`,
      kind: 'idempotent',
      what: `read the status of export job ${jobId}`,
      deadline
    })
    const body = asObject(answer)
    const status = text(body.status)
    if (status === undefined) throw statusMissing(answer, `read the status of export job ${jobId}`)
    return {
      status,
      progress: percent(body.progress),
      pageCount: count(body.pageCount),
      error: text(body.error),
      createdAt: timestamp(body.createdAt),
      updatedAt: timestamp(body.updatedAt)
    }
  }

  /** Generates a fresh presigned link to the bundle. Safe to repeat: each call only makes a new link. */
  async bundle(jobId: string, deadline?: number): Promise<BundleLink> {
    const what = `generate the bundle link of export job ${jobId}`
    const answer = await this.client.request({
      method: 'POST',
      path: `/v1/static-export/jobs/${segment(jobId)}/bundle`,
      kind: 'idempotent',
      what,
      deadline
    })
    const body = asObject(answer)
    const url = httpLink(body.bundleUrl)
    if (url === undefined) throw new ActionError(`Could not ${what}: the answer carries no usable \`bundleUrl\`.`)
    return { url, expiresAt: timestamp(body.expiresAt), sizeBytes: count(body.sizeBytes) }
  }
}
