import { mkdir, rename, rm } from 'node:fs/promises'
import * as path from 'node:path'
import { type BundleLink, describeLink, maskLinkSecrets } from '../bundle/link.js'
import type { FlowContext } from '../context.js'
import { formatDuration } from '../duration.js'
import { ActionError } from '../errors.js'
import type { ApiClient } from '../http/api-client.js'
import type { ExportSettings } from '../inputs.js'
import { PollTimeoutError, pollUntilDone } from '../poll/poller.js'
import { EXPORT_KNOWN, EXPORT_TERMINAL, ExportApi, type ExportStatus } from './export-api.js'
import { helmValuesYaml, writeFileAtomically } from './helm-values.js'

/**
 * Static export, end to end: start (or reuse) a job, wait for it, generate the bundle link,
 * download and unpack the archive, write the Helm values. Outputs are set as each fact becomes
 * known, so a failure part-way still hands on the job id and the last status.
 */
export async function runExport(settings: ExportSettings, client: ApiClient, context: FlowContext): Promise<void> {
  const { clock, log, outputs, report } = context
  const api = new ExportApi(client)
  const startedAt = clock.now()
  const deadline = startedAt + settings.timeoutMs

  const jobId = await log.group('Start the export', async () => {
    if (settings.jobId !== undefined) {
      log.info(`Reusing export job ${settings.jobId}.`)
      return settings.jobId
    }
    const domain = settings.domain as string // inputs guarantee a domain when there is no job id
    const started = await api.start({ domain, version: settings.docsVersion, paths: settings.paths }, deadline)
    log.info(`Started export job ${started.jobId} for ${domain}.`)
    outputs.set('status', started.status ?? 'queued')
    return started.jobId
  })
  outputs.set('job-id', jobId)

  if (!settings.wait) {
    if (settings.jobId !== undefined) recordStatus(await api.status(jobId, deadline), context)
    report.notes.push('Not waiting for the job (`wait: false`).')
    return
  }

  const final = await log.group(`Wait for export job ${jobId}`, () => waitForExport(api, jobId, settings, context, startedAt))
  if (final.status === 'failed') {
    throw new ActionError(`Export job ${jobId} failed${final.error ? `: ${final.error}` : ' (the service gave no reason)'}.`)
  }

  const link = await log.group('Generate the bundle link', async () => {
    const fresh = await api.bundle(jobId, deadline)
    publishLink(fresh, settings, context)
    log.info(`Bundle link: ${describeLink(fresh.url)} (expires ${fresh.expiresAt?.toISOString() ?? 'at a time the service did not say'}).`)
    return fresh
  })

  let finalLink = link
  if (settings.download) {
    finalLink = await log.group('Download the bundle', () =>
      downloadBundle(jobId, link, settings, context, async () => {
        const fresh = await api.bundle(jobId, deadline)
        publishLink(fresh, settings, context)
        return fresh
      })
    )
  }

  if (settings.helmValuesFile !== undefined) {
    await writeFileAtomically(settings.helmValuesFile, helmValuesYaml(finalLink.url, settings.exportVersion))
    log.info(`Wrote the Helm values to ${settings.helmValuesFile}.`)
    report.rows.push(['Helm values', settings.helmValuesFile])
  }
}

async function waitForExport(
  api: ExportApi,
  jobId: string,
  settings: ExportSettings,
  context: FlowContext,
  startedAt: number
): Promise<ExportStatus> {
  const { clock, log, signal, outputs } = context
  const warnedStatuses = new Set<string>()
  let last: ExportStatus | undefined
  try {
    const result = await pollUntilDone<ExportStatus>({
      check: () => api.status(jobId, startedAt + settings.timeoutMs),
      read: (value) => ({ status: value.status, progress: value.progress, done: EXPORT_TERMINAL.has(value.status) }),
      settings: { initialIntervalMs: settings.pollIntervalMs, maxIntervalMs: settings.maxPollIntervalMs, timeoutMs: settings.timeoutMs },
      clock,
      signal,
      random: context.random,
      startedAt: settings.jobId === undefined ? startedAt : undefined,
      checkFirst: settings.jobId !== undefined,
      onObservation: (value) => {
        if (!EXPORT_KNOWN.has(value.status) && !warnedStatuses.has(value.status)) {
          warnedStatuses.add(value.status)
          log.warning(`Export job ${jobId} reports the unknown status \`${value.status}\`; treating it as still running.`)
        }
        if (!last || last.status !== value.status || last.progress !== value.progress || last.pageCount !== value.pageCount) {
          log.info(`Export job ${jobId}: ${describeStatus(value)} after ${formatDuration(clock.now() - startedAt)}.`)
        }
        last = value
        recordStatus(value, context)
      }
    })
    log.info(`Export job ${jobId} ended \`${result.value.status}\` after ${formatDuration(result.elapsedMs)} and ${result.polls} status requests.`)
    return result.value
  } catch (error) {
    if (error instanceof PollTimeoutError) {
      const seen = last ? describeStatus(last) : 'no status seen'
      outputs.set('status', last?.status)
      throw new ActionError(
        `Export job ${jobId} did not finish within \`timeout\` (${formatDuration(settings.timeoutMs)}): last seen ${seen}, after waiting ${formatDuration(error.elapsedMs)}. The job may still finish: rerun with \`job-id: ${jobId}\` to pick it up.`
      )
    }
    throw error
  }
}

function recordStatus(value: ExportStatus, context: FlowContext): void {
  const { outputs } = context
  outputs.set('status', value.status)
  if (value.progress !== undefined) outputs.set('progress', value.progress)
  if (value.pageCount !== undefined) outputs.set('page-count', value.pageCount)
}

function describeStatus(value: ExportStatus): string {
  const parts = [value.status]
  if (value.progress !== undefined) parts.push(`${value.progress}%`)
  if (value.pageCount !== undefined) parts.push(`${value.pageCount} pages`)
  if (value.error !== undefined) parts.push(`error: ${value.error}`)
  return parts.join(', ')
}

/** Masks the link's signature before anything can print it, then hands it on. */
function publishLink(link: BundleLink, settings: ExportSettings, context: FlowContext): void {
  maskLinkSecrets(link.url)
  context.outputs.set('bundle-url', link.url)
  context.outputs.set('expires-at', link.expiresAt?.toISOString())
  context.outputs.set('helm-values', helmValuesYaml(link.url, settings.exportVersion))
}

const EXTENSION = { zip: 'zip', 'tar.gz': 'tar.gz', tar: 'tar' } as const

async function downloadBundle(
  jobId: string,
  link: BundleLink,
  settings: ExportSettings,
  context: FlowContext,
  refreshLink: () => Promise<BundleLink>
): Promise<BundleLink> {
  const { outputs, log, tuning } = context
  // Unpacked: the archive is a by-product kept in the runner's temp folder. Not unpacked: the
  // archive is the product and goes into `path`.
  const folder = settings.extract ? path.join(context.tempDir, `docs-export-${safeName(jobId)}`) : settings.path
  await mkdir(folder, { recursive: true })
  const downloaded = path.join(folder, 'bundle')
  // Loaded here, not at start-up: the archive code is not needed before the job is done.
  const { transferBundle } = await import('../bundle/transfer.js')
  const result = await transferBundle({
    link,
    refreshLink,
    archiveFile: downloaded,
    siteDir: settings.extract ? settings.path : undefined,
    signal: context.signal,
    log,
    clock: context.clock,
    retry: tuning?.retry,
    stallTimeoutMs: tuning?.stallTimeoutMs,
    progressIntervalMs: tuning?.progressIntervalMs,
    random: context.random
  })
  // The format is known only from the bytes, so the file gets its extension once they are in.
  const archiveFile = `${downloaded}.${EXTENSION[result.format]}`
  await rename(result.archiveFile, archiveFile)
  for (const other of Object.values(EXTENSION)) {
    if (`${downloaded}.${other}` !== archiveFile) await rm(`${downloaded}.${other}`, { force: true })
  }
  outputs.set('bundle-path', archiveFile)
  outputs.set('site-path', result.siteDir ?? '')
  outputs.set('bundle-sha256', result.sha256)
  outputs.set('bundle-size', result.sizeBytes)
  // The link that served the bundle: a fresh one if the first had expired.
  return result.link
}

/** A job id as part of a file name: service ids are opaque, so keep only harmless characters. */
function safeName(id: string): string {
  return id.replace(/[^A-Za-z0-9._-]/g, '_').slice(0, 80)
}
