/**
 * Static export, end to end: start (or reuse) a job, follow it, generate the bundle link,
 * download and unpack the archive, write the Helm values. Outputs are set as each fact becomes
 * known, so a failure part-way still hands on the job id and the last status.
 */
import { serviceJobBasics } from '../follow/service-job.js'
import { lstat, rm } from 'node:fs/promises'
import type { FlowContext } from '../action/context.js'
import type { ExportSettings } from '../action/settings.js'
import { CorruptArchiveError, NotAnArchiveError } from '../archive/errors.js'
import { startEarly } from '../common/cancellation.js'
import { ActionError, errorMessage } from '../common/errors.js'
import type { Logger } from '../common/log.js'
import { counted, formatFromNow, formatUtc } from '../common/units.js'
import { followJob } from '../follow/follow-job.js'
import type { ServiceClient } from '../service/client.js'
import { type BundleLink, EXPORT_KNOWN, EXPORT_TERMINAL, ExportApi, type ExportStatus } from '../service/export-api.js'
import { maskLinkSecrets } from '../common/link-secrets.js'
import { type LinkPolicy, describeLink, linkPolicy, refuseLink } from '../transfer/link.js'
import type { KeptArchive } from '../transfer/transfer.js'
import { recordExport } from './export-record.js'
import { expiryWarning, helmValuesYaml, writeFileAtomically } from './helm-values.js'
import {
  archiveFolderOf,
  archiveOutlivesRun,
  checkExportPath,
  checkHelmValuesFile,
  sweepDeadRunsArchives
} from './path-check.js'
import { siteVerifier } from './site-check.js'
import { sendOnce } from '../reply/comment-run.js'
import type { OnComment } from '../reply/job-reply.js'
import { commentCode } from '../common/text.js'

export async function runExport(
  settings: ExportSettings,
  client: ServiceClient,
  context: FlowContext,
  on: OnComment
): Promise<void> {
  const { clock, host, outputs, report, deadline } = context
  const { log } = host
  const api = new ExportApi(client)
  // Before any request: a `path` that may not be replaced, or a Helm values file that may not be
  // written, fails the run while nothing is started.
  await checkExportPath(settings, host)
  await checkHelmValuesFile(settings, host)

  // `started`: this run started the job (not `job-id`, nor an earlier attempt of the workflow run).
  const { jobId, started } = await log.group('Start the export', async () => {
    if (settings.jobId !== undefined) {
      log.info(`Reusing export job ${settings.jobId}.`)
      return { jobId: settings.jobId, started: false }
    }
    const { domain } = settings
    const sent = await sendOnce(
      on.run,
      {
        asked: 'start',
        scope: domain,
        words: {
          request: `start an export of ${domain}`,
          instead: 'Find the job on the dashboard and pick it up with `operation: export` and `job-id: <its id>`.'
        },
        asking: on.reply.askingText(`Starting a static export of ${commentCode(domain)}`),
        send: () => api.start({ domain, version: settings.docsVersion, paths: settings.paths }, deadline),
        jobOf: (answer) => answer.jobId
      },
      context
    )
    if (sent.kind === 'resumed') return { jobId: sent.job.jobId, started: false }
    log.info(`Started export job ${sent.answer.jobId} for ${domain}.`)
    // The job first: an output that cannot be written then fails a step that names it.
    outputs.set('job-id', sent.answer.jobId)
    outputs.set('status', sent.answer.status ?? 'queued')
    return { jobId: sent.answer.jobId, started: true }
  })
  outputs.set('job-id', jobId)
  on.reply.working({ jobId, status: outputs.get('status') })

  if (!settings.wait) {
    if (!started) publishStatus(await api.status(jobId, deadline), context, on)
    report.notes.push('Not waiting for the job (`wait: false`).')
    return
  }

  // The download's code loads while the job runs (the poller mostly waits), not after it.
  const transferModules = settings.download ? loadTransferModules() : undefined

  const { value: final } = await log.group(`Wait for export job ${jobId}`, () =>
    followJob<ExportStatus>({
      ...serviceJobBasics(settings, context),
      name: `Export job ${jobId}`,
      check: () => api.status(jobId, deadline),
      read: (status) => ({ status: status.status, summary: describeStatus(status) }),
      terminal: EXPORT_TERMINAL,
      known: EXPORT_KNOWN,
      onValue: (status) => publishStatus(status, context, on),
      // A job of an earlier run may be done already; one this run started is not.
      checkFirst: !started,
      resumeHint: `rerun with \`job-id: ${jobId}\` to pick it up`
    })
  )
  if (final.status === 'failed') {
    const failure = `Export job ${jobId} failed${final.error ? `: ${final.error}` : ' (the service gave no reason)'}.`
    await on.reply.end(false, { status: final.status, elapsedMs: jobTime(final), error: failure })
    throw new ActionError(failure)
  }

  // Judged before it is handed on: a link that leads somewhere it may not is no output either.
  const policy = await linkPolicy(settings.baseUrl)
  /** Generates a link and hands it on; the first one is logged, a fresh one replaces it silently. */
  const generateLink = async (): Promise<BundleLink> => {
    const link = await api.bundle(jobId, deadline)
    maskLinkSecrets(link.url, (secret) => context.secrets.add(secret))
    const refused = refuseLink(new URL(link.url), policy)
    if (refused !== undefined) throw new ActionError(`${refused}.`)
    publishLink(link, settings, context)
    return link
  }
  let link = await log.group('Generate the bundle link', async () => {
    const first = await generateLink()
    const at = first.expiresAt
    const expires =
      at === undefined ? 'at a time the service did not say' : `${formatUtc(at)}, ${formatFromNow(at, clock.now())}`
    log.info(`Bundle link: ${describeLink(first.url)} (expires ${expires}).`)
    return first
  })

  if (transferModules !== undefined) {
    link = await log.group('Download the bundle', () =>
      downloadBundle({ settings, context, jobId, link, generateLink, policy, transferModules })
    )
    // `path` is now this export's: the next one replaces it without a warning.
    await recordExport(settings.path, log)
  }

  if (settings.helmValuesFile !== undefined) {
    await writeFileAtomically(
      settings.helmValuesFile,
      helmValuesYaml(settings.helmBundleUrl ?? link.url, settings.exportVersion)
    )
    const address =
      settings.helmBundleUrl === undefined ? '' : `, with ${settings.helmBundleUrl} as the bundle's address`
    log.info(`Wrote the Helm values to ${settings.helmValuesFile}${address}.`)
    report.rows.push(['Helm values', settings.helmValuesFile])
    const expiring = settings.helmBundleUrl === undefined ? expiryWarning(link, clock.now()) : undefined
    if (expiring !== undefined) {
      log.warning(expiring)
      report.notes.push(expiring)
    }
  }
  await on.reply.end(true, { status: final.status, elapsedMs: jobTime(final), details: exportDetails(final, context) })
}

/** What a comment's reply says the export did: its pages, and where the site or the archive went. */
function exportDetails(final: ExportStatus, context: FlowContext): string[] {
  const { outputs } = context
  const details = final.pageCount === undefined ? [] : [counted(final.pageCount, 'page')]
  const site = outputs.get('site-path')
  const archive = outputs.get('bundle-path')
  if (site) details.push(`Site unpacked on the runner (\`site-path\`)`)
  else if (archive) details.push('Archive kept on the runner (`bundle-path`)')
  else details.push('Bundle link generated (`bundle-url`)')
  return details
}

/**
 * The download's modules, loaded on demand rather than at start-up: a run that only starts a job,
 * or an agent run, never needs them; they load while the job runs.
 */
function loadTransferModules(): Promise<TransferModules> {
  return startEarly(Promise.all([import('../transfer/transfer.js'), import('../transfer/bundle-cache.js')]))
}

type TransferModules = [typeof import('../transfer/transfer.js'), typeof import('../transfer/bundle-cache.js')]

interface DownloadStep {
  settings: ExportSettings
  context: FlowContext
  jobId: string
  /** The link generated for this run; `generateLink` makes a fresh one when it has expired. */
  link: BundleLink
  generateLink: () => Promise<BundleLink>
  policy: LinkPolicy
  transferModules: Promise<TransferModules>
}

/**
 * Puts the bundle in place: from the runner's tool cache when it kept this job's bundle, else
 * downloaded. Returns the link that served it (a fresh one when the first had expired).
 */
async function downloadBundle(step: DownloadStep): Promise<BundleLink> {
  const { settings, context, jobId, link } = step
  const { host, outputs, clock, deadline } = context
  const { log } = host
  const [{ transferBundle, unpackLocalBundle }, { BundleCache }] = await step.transferModules
  // Unpacked, the archive is a by-product kept in the runner's temp folder; kept as it is, it is
  // the product and goes into `path`. Outside a runner the by-product goes with the run, so it is
  // never handed on as `bundle-path`.
  const archiveFolder = settings.extract ? archiveFolderOf(host, safeName(jobId)) : settings.path
  if (settings.extract) await sweepDeadRunsArchives(host, log)
  const archiveGoes = settings.extract && !archiveOutlivesRun(host)
  const destination = {
    archiveFolder,
    siteDir: settings.extract ? settings.path : undefined,
    limits: { maxBytes: settings.maxSiteBytes },
    review: siteVerifier(settings, context),
    signal: context.signal,
    log
  }
  // The archive's facts are handed on once it is kept whole, also when the site check then fails
  // (the archive stays for the workflow to look at).
  const publishArchive =
    (cacheHit: boolean) =>
    (archive: KeptArchive): void => {
      outputs.set('cache-hit', cacheHit)
      if (!archiveGoes) outputs.set('bundle-path', archive.archiveFile)
      outputs.set('bundle-sha256', archive.sha256)
      outputs.set('bundle-size', archive.sizeBytes)
    }
  try {
    const cache =
      host.toolCache === undefined ? undefined : new BundleCache(host.toolCache, settings.baseUrl, jobId, log)
    const cached = await cache?.find()
    if (cached !== undefined) {
      try {
        const unpacked = await unpackLocalBundle(cached, { ...destination, onArchive: publishArchive(true) })
        outputs.set('site-path', unpacked.siteDir ?? '')
        return link
      } catch (error) {
        // A kept copy that does not read as the bundle was damaged: the service still has it.
        if (!(error instanceof CorruptArchiveError || error instanceof NotAnArchiveError)) throw error
        log.warning(`The bundle kept in the tool cache cannot be used (${error.message}); downloading it again.`)
      }
    }
    const downloaded = await transferBundle({
      ...destination,
      onArchive: publishArchive(false),
      link,
      refreshLink: step.generateLink,
      deadline,
      policy: step.policy,
      maskLinkSecrets: (url) => maskLinkSecrets(url, (secret) => context.secrets.add(secret)),
      clock
    })
    await cache?.keep(downloaded.archiveFile)
    outputs.set('site-path', downloaded.siteDir ?? '')
    return downloaded.link
  } finally {
    if (archiveGoes) await removeArchiveFolder(archiveFolder, log)
  }
}

/** The job's own time, from its creation to its last update, when the service says both. */
function jobTime(status: ExportStatus): number | undefined {
  const { createdAt, updatedAt } = status
  return createdAt === undefined || updatedAt === undefined || updatedAt < createdAt
    ? undefined
    : updatedAt.getTime() - createdAt.getTime()
}

/** The status and its figures (the answer readers keep only sane ones: progress 0..100, a whole page count). */
function publishStatus(value: ExportStatus, context: FlowContext, on: OnComment): void {
  const { outputs } = context
  outputs.set('status', value.status)
  on.reply.working({ status: value.status })
  if (value.progress !== undefined) outputs.set('progress', value.progress)
  if (value.pageCount !== undefined) outputs.set('page-count', value.pageCount)
}

/** `running, 40%, 120 pages`. */
function describeStatus(value: ExportStatus): string {
  const parts = [value.status]
  if (value.progress !== undefined) parts.push(`${value.progress}%`)
  if (value.pageCount !== undefined) parts.push(counted(value.pageCount, 'page'))
  if (value.error !== undefined) parts.push(`error: ${value.error}`)
  return parts.join(', ')
}

/** Hands the link on (its secrets are masked already). */
function publishLink(link: BundleLink, settings: ExportSettings, context: FlowContext): void {
  context.outputs.set('bundle-url', link.url)
  context.outputs.set('expires-at', link.expiresAt?.toISOString())
  context.outputs.set('helm-values', helmValuesYaml(settings.helmBundleUrl ?? link.url, settings.exportVersion))
}

/** Removes the folder of an archive that does not outlive the run (see archiveOutlivesRun). */
async function removeArchiveFolder(folder: string, log: Logger): Promise<void> {
  try {
    if ((await lstat(folder).catch(() => undefined)) === undefined) return
    await rm(folder, { recursive: true, force: true, maxRetries: 2 })
    log.info(`Removed the archive's folder ${folder}: outside a runner nothing else would.`)
  } catch (error) {
    log.warning(`Could not remove the archive's folder ${folder} from the temp folder: ${errorMessage(error)}`)
  }
}

/** A job id as part of a file name: service ids are opaque, so keep only harmless characters. */
function safeName(id: string): string {
  return id.replace(/[^A-Za-z0-9._-]/g, '_').slice(0, 80)
}
