import type { BundleLink } from '../bundle/link.js'
import { ActionError } from '../errors.js'
import { type ApiClient, segment } from '../http/api-client.js'

/** A status answer, read defensively: the spec leaves types and further fields open. */
export interface ExportStatus {
  status: string
  progress: number | undefined
  pageCount: number | undefined
  error: string | undefined
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
  constructor(private readonly client: ApiClient) {}

  /** Starts an export. Sent at most once unless the service surely did not receive it. */
  async start(request: StartRequest, deadline?: number): Promise<{ jobId: string; status: string | undefined }> {
    const body: Record<string, unknown> = { domain: request.domain }
    if (request.version !== undefined) body.version = request.version
    if (request.paths !== undefined) body.paths = request.paths
    const what = `start the export of ${request.domain}`
    const { body: answer } = await this.client.request<Record<string, unknown>>({
      method: 'POST',
      path: '/v1/static-export/jobs',
      body,
      kind: 'once',
      what,
      deadline
    })
    const jobId = answer?.jobId
    if (typeof jobId !== 'string' || jobId === '') {
      throw new ActionError(`Could not ${what}: the service's answer carries no \`jobId\`.`)
    }
    return { jobId, status: text(answer.status) }
  }

  async status(jobId: string, deadline?: number): Promise<ExportStatus> {
    const { body } = await this.client.request<Record<string, unknown>>({
      method: 'GET',
      path: `/v1/static-export/jobs/${segment(jobId)}`,
      kind: 'idempotent',
      what: `read the status of export job ${jobId}`,
      deadline
    })
    const status = text(body?.status)
    if (status === undefined) throw new ActionError(`The status of export job ${jobId} carries no \`status\`.`)
    return { status, progress: number(body.progress), pageCount: number(body.pageCount), error: text(body.error) }
  }

  /** Generates a fresh presigned link to the bundle. Safe to repeat: each call only makes a new link. */
  async bundle(jobId: string, deadline?: number): Promise<BundleLink> {
    const what = `generate the bundle link of export job ${jobId}`
    const { body } = await this.client.request<Record<string, unknown>>({
      method: 'POST',
      path: `/v1/static-export/jobs/${segment(jobId)}/bundle`,
      kind: 'idempotent',
      what,
      deadline
    })
    const url = text(body?.bundleUrl)
    if (url === undefined || !/^https?:\/\//i.test(url)) throw new ActionError(`Could not ${what}: the answer carries no usable \`bundleUrl\`.`)
    return { url, expiresAt: timestamp(body.expiresAt), sizeBytes: number(body.sizeBytes) }
  }
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined
}

/** A finite number, also from a numeric string (the spec does not fix the type). */
function number(value: unknown): number | undefined {
  const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : value
  return typeof n === 'number' && Number.isFinite(n) ? n : undefined
}

/** An ISO 8601 string, or epoch seconds / milliseconds (the spec only says "timestamp"). */
export function timestamp(value: unknown): Date | undefined {
  if (typeof value === 'number' && Number.isFinite(value)) return new Date(value < 1e12 ? value * 1000 : value)
  if (typeof value === 'string' && value.trim() !== '') {
    if (/^\d+(\.\d+)?$/.test(value.trim())) return timestamp(Number(value))
    const ms = Date.parse(value)
    return Number.isNaN(ms) ? undefined : new Date(ms)
  }
  return undefined
}
