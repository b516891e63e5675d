/**
 * Downloads a bundle and, when asked, unpacks it into the site folder, all or nothing. Retries go
 * through the one retry loop, with a fresh link when the old one is refused or has expired. The
 * transfer owns both staging folders: the archive's (its `.part` file, named by its format once the
 * bytes tell) and the site's. Each is swapped in whole, replacing whatever an earlier run left.
 *
 * In call order: transferBundle (or unpackLocalBundle) -> withArchiveStaging -> downloadInto ->
 * attempt -> receive -> finish.
 */
import { createReadStream } from 'node:fs'
import { rename } from 'node:fs/promises'
import { join } from 'node:path'
import { type ReceivedArchive, ArchiveReceiver } from '../archive/receiver.js'
import { SiteLimitError } from '../site/errors.js'
import { writeFailure } from '../common/write-failure.js'
import { MAX_SITE_ENTRIES } from '../site/entry-safety.js'
import type { ArchiveFormat } from '../archive/format.js'
import { ARCHIVE_OVERHEAD, type SiteLimits, archiveBound } from '../site/ledger.js'
import { createStagingFolder, discardFolder, removeQuietly, swapIntoPlace, sweepStaleFolders } from '../site/staging.js'
import type { Clock } from '../common/clock.js'
import { ActionError, CancelledError, errorMessage, throwIfCancelled } from '../common/errors.js'
import type { Logger } from '../common/log.js'
import { counted, formatBytes, formatSeconds } from '../common/units.js'
import type { BundleLink } from '../service/export-api.js'
import { type AttemptFailure, describeFailure } from '../service/failure.js'
import { AttemptError, type BackoffPolicy, withRetries } from '../service/retry.js'
import { download } from './download.js'
import { type LinkPolicy, describeLink, isExpired } from './link.js'
import { DownloadProgress } from './progress.js'

export interface TransferOptions {
  link: BundleLink
  /** Calls the bundle operation again for a fresh link (after a 403, or when `expiresAt` has passed). */
  refreshLink: () => Promise<BundleLink>
  /** The folder the archive is kept in, replaced whole by the one holding the new archive, `bundle.<format>`. */
  archiveFolder: string
  /** When set: unpack the archive here (absolute). When undefined: only keep the archive. */
  siteDir?: string | undefined
  /** What the archive may unpack to. */
  limits: SiteLimits
  /** Reviews the staged site (checked, whole) before it is swapped in; a throw keeps the previous site. */
  review?: ((stagedSite: string, files: readonly string[]) => Promise<void>) | undefined
  /**
   * Told once the whole archive is in `archiveFolder`, before the site is reviewed and swapped in:
   * a site check that fails still leaves the archive there, and its facts can be handed on.
   */
  onArchive?: ((archive: KeptArchive) => void) | undefined
  /**
   * Absolute clock ms: no wait is started that would end after it, and a download under way ends
   * by then (plus a short grace).
   */
  deadline: number
  /** Where the link and the download's redirects may lead. */
  policy: LinkPolicy
  /** Masks the secrets of a link the download is sent to (a redirect's new signature). */
  maskLinkSecrets?: ((url: string) => void) | undefined
  signal?: AbortSignal | undefined
  log: Logger
  clock: Clock
}

/** The whole archive, where it is kept. */
export interface KeptArchive {
  /** Absolute path of the archive: `<archiveFolder>/bundle.<zip|tar.gz|tar>`. */
  archiveFile: string
  sha256: string
  sizeBytes: number
  format: ArchiveFormat
}

export interface TransferResult extends KeptArchive {
  siteDir: string | undefined
  /** The link that served the bundle (a fresh one if it had to be renewed). */
  link: BundleLink
  attempts: number
}

const TRANSFER_RETRY: BackoffPolicy = { initialMs: 1000, maxMs: 15_000, maxAttempts: 4 }
/** No byte for this long = stalled: the attempt is abandoned and retried. */
const STALL_TIMEOUT_MS = 30_000
/** The archive's name without its extension. */
const ARCHIVE_NAME = 'bundle'
const EXTENSIONS: Record<ArchiveFormat, string> = { zip: 'zip', 'tar.gz': 'tar.gz', tar: 'tar' }
/** Reads of an archive on disk. */
const LOCAL_CHUNK_BYTES = 1024 * 1024

export function transferBundle(options: TransferOptions): Promise<TransferResult> {
  return withArchiveStaging(options, (archiveStaging) => downloadInto(archiveStaging, options))
}

/** What unpacking an archive already on disk needs: a transfer's options, less the link and the network. */
export type LocalOptions = Pick<
  TransferOptions,
  'archiveFolder' | 'siteDir' | 'limits' | 'review' | 'onArchive' | 'signal' | 'log'
>

/**
 * Unpacks an archive already on disk (a bundle kept in the tool cache) as a download would be:
 * the same receiver, checks, staging and swap, and the same archive file in `archiveFolder`.
 * A CorruptArchiveError says the copy is bad (the caller downloads instead).
 */
export function unpackLocalBundle(
  file: string,
  options: LocalOptions
): Promise<Omit<TransferResult, 'link' | 'attempts'>> {
  return withArchiveStaging(options, async (archiveStaging) => {
    const received = await receive(options, archiveStaging, async (receiver, stop) => {
      for await (const chunk of createReadStream(file, { highWaterMark: LOCAL_CHUNK_BYTES, signal: stop })) {
        await receiver.write(chunk as Buffer)
      }
    })
    options.log.info(`Read the bundle from ${file}: ${formatBytes(received.sizeBytes)}, sha256 ${received.sha256}`)
    return await finish(options, archiveStaging, received)
  })
}

/**
 * Sweeps what an earlier run left beside the archive's folder and the site, then runs `body` with
 * a fresh staging folder for the archive, which finish() swaps in; whatever else happens, it is
 * removed after.
 */
async function withArchiveStaging<T>(options: LocalOptions, body: (archiveStaging: string) => Promise<T>): Promise<T> {
  throwIfCancelled(options.signal)
  await sweepStaleFolders(options.archiveFolder, options.log, options.signal)
  if (options.siteDir !== undefined) await sweepStaleFolders(options.siteDir, options.log, options.signal)
  const archiveStaging = await createStagingFolder(options.archiveFolder).catch((error: unknown) => {
    throw writeFailure(error, `the folder ${options.archiveFolder} for the bundle`)
  })
  try {
    return await body(archiveStaging)
  } finally {
    // Gone already when swapped in.
    await removeQuietly(archiveStaging)
  }
}

/** The download attempts, each writing the archive into `archiveStaging`; then the swap of what the last received. */
async function downloadInto(archiveStaging: string, options: TransferOptions): Promise<TransferResult> {
  const { log, clock, signal } = options
  const state: TransferState = { link: options.link, linkRefused: false, attempts: 0, archiveStaging }
  const size = state.link.sizeBytes === undefined ? '' : ` (${formatBytes(state.link.sizeBytes)})`
  log.info(`Downloading the bundle from ${describeLink(state.link.url)}${size}`)
  let received: ReceivedArchive
  try {
    received = await withRetries(() => attempt(options, state), {
      kind: 'idempotent',
      policy: TRANSFER_RETRY,
      clock,
      signal,
      deadline: options.deadline,
      // A refused link (403) is worth another try: the next attempt asks for a fresh one.
      alsoRetry: isLinkRefused,
      onRetry: ({ retry, delayMs, error }) =>
        log.warning(
          `Bundle download attempt ${retry} failed (${describeAttemptError(error)}); trying again` +
            (delayMs > 0 ? ` in ${formatSeconds(delayMs)}` : '')
        )
    })
  } catch (error) {
    throw finalError(error, state)
  }
  return { ...(await finish(options, archiveStaging, received)), link: state.link, attempts: state.attempts }
}

interface TransferState {
  link: BundleLink
  /** The last attempt got a 403: the next one asks for a fresh link first. */
  linkRefused: boolean
  attempts: number
  /** Where each attempt writes the archive (see withArchiveStaging). */
  archiveStaging: string
}

/** One attempt: a fresh `.part`, hash and staging folder (see receive); a refused link is asked anew next time. */
async function attempt(options: TransferOptions, state: TransferState): Promise<ReceivedArchive> {
  const { log, clock, signal } = options
  state.attempts++
  throwIfCancelled(signal)
  if (state.linkRefused || isExpired(state.link, clock.now())) {
    log.info(
      state.linkRefused
        ? 'The bundle link was refused (HTTP 403); asking for a fresh one'
        : 'The bundle link has expired; asking for a fresh one'
    )
    state.link = await freshLink(options)
    state.linkRefused = false
  }
  const bound = archiveBound(options.limits)
  if (state.link.sizeBytes !== undefined && state.link.sizeBytes > bound) {
    throw archiveTooLarge(options.limits, `the bundle operation says it has ${formatBytes(state.link.sizeBytes)}`)
  }
  const progress = new DownloadProgress(log, clock, state.link.sizeBytes)
  try {
    const received = await receive(options, state.archiveStaging, async (receiver, stop) => {
      await download({
        url: state.link.url,
        clock,
        signal: stop,
        stallTimeoutMs: STALL_TIMEOUT_MS,
        expectedSize: state.link.sizeBytes,
        sizeBound: { maxBytes: bound, exceeded: (detail) => archiveTooLarge(options.limits, detail) },
        policy: options.policy,
        maskLinkSecrets: options.maskLinkSecrets,
        deadline: options.deadline,
        onResponse: ({ contentLength }) => progress.setTotal(contentLength),
        onChunk: (chunk) => progress.add(chunk.length, receiver.write(chunk))
      })
      progress.end()
    })
    log.info(`Downloaded ${progress.summary()}, sha256 ${received.sha256}`)
    return received
  } catch (error) {
    if (error instanceof AttemptError && isLinkRefused(error.failure)) {
      state.linkRefused = true
      // Retry-After 0: no backoff is needed before asking for a fresh link.
      throw new AttemptError({ kind: 'status', status: 403, retryAfter: '0' }, error.message, error.detail)
    }
    throw error
  }
}

/**
 * One archive received whole, from the network or from disk: a fresh `.part`, hash and site
 * staging folder, filled by `fill` and completed. It stops on the user's cancellation or on a failure the
 * receiver reports (an unsafe entry, a full disk), and then the reason it stopped for is what it
 * throws, whatever way the stop surfaced; everything it wrote is removed first.
 */
async function receive(
  options: LocalOptions,
  archiveStaging: string,
  fill: (receiver: ArchiveReceiver, stop: AbortSignal) => Promise<void>
): Promise<ReceivedArchive> {
  const { signal } = options
  throwIfCancelled(signal)
  const stop = new AbortController()
  const onCancel = (): void => stop.abort(new CancelledError())
  signal?.addEventListener('abort', onCancel, { once: true })
  let receiver: ArchiveReceiver | undefined
  let siteStaging: string | undefined
  try {
    if (options.siteDir !== undefined) {
      siteStaging = await createStagingFolder(options.siteDir).catch((error: unknown) => {
        throw writeFailure(error, `a staging folder beside ${options.siteDir}`)
      })
    }
    receiver = await ArchiveReceiver.open({
      partFile: partFileIn(archiveStaging),
      into: siteStaging,
      log: options.log,
      onFatal: (error) => stop.abort(error),
      signal: stop.signal,
      limits: options.limits
    })
    await fill(receiver, stop.signal)
    const received = await receiver.complete()
    throwIfCancelled(signal)
    return received
  } catch (error) {
    const cause: unknown = stop.signal.aborted ? stop.signal.reason : error
    if (!stop.signal.aborted) stop.abort(cause)
    // The receiver first: it stops GNU tar, which could otherwise write into the folder removed.
    await receiver?.discard()
    if (siteStaging !== undefined) {
      const how = { cancelled: signal?.aborted === true, entries: receiver?.entries ?? 0 }
      await discardFolder(siteStaging, options.siteDir as string, how)
    }
    throw cause
  } finally {
    signal?.removeEventListener('abort', onCancel)
  }
}

/**
 * Names the whole archive by its format and swaps its folder in, then has the staged site reviewed
 * and swaps it in.
 */
async function finish(
  options: LocalOptions,
  archiveStaging: string,
  received: ReceivedArchive
): Promise<Omit<TransferResult, 'link' | 'attempts'>> {
  const { log, siteDir, archiveFolder } = options
  const { staging, counts, files } = received
  const archiveName = `${ARCHIVE_NAME}.${EXTENSIONS[received.format]}`
  const archiveFile = join(archiveFolder, archiveName)
  const kept: KeptArchive = {
    archiveFile,
    sha256: received.sha256,
    sizeBytes: received.sizeBytes,
    format: received.format
  }
  try {
    throwIfCancelled(options.signal)
    await rename(partFileIn(archiveStaging), join(archiveStaging, archiveName))
    await swapIntoPlace(archiveStaging, archiveFolder, { entries: 1, signal: options.signal })
    options.onArchive?.(kept)
    if (siteDir !== undefined && staging !== undefined && files !== undefined) {
      await options.review?.(staging, files)
      await swapIntoPlace(staging, siteDir, { entries: received.entries, signal: options.signal })
    }
  } catch (error) {
    const how = { cancelled: options.signal?.aborted === true, entries: received.entries }
    // The archive's staging folder is its caller's to remove (see withArchiveStaging).
    if (staging !== undefined && siteDir !== undefined) await discardFolder(staging, siteDir, how)
    throw writeFailure(error, siteDir === undefined ? `the bundle file ${archiveFile}` : `the site into ${siteDir}`)
  }
  if (siteDir !== undefined && counts !== undefined) {
    const parts = [
      counted(counts.files, 'file'),
      counted(counts.directories, 'folder'),
      counts.symlinks ? counted(counts.symlinks, 'symlink') : '',
      counts.hardlinks ? counted(counts.hardlinks, 'hardlink') : '',
      counts.skipped ? `${counted(counts.skipped, 'entry', 'entries')} skipped` : ''
    ]
    log.info(`Unpacked the ${received.format} bundle into ${siteDir}: ${parts.filter(Boolean).join(', ')}`)
  }
  return { ...kept, siteDir }
}

/** The archive is larger than archiveBound allows (`detail`: how it showed). Final: a link serves the same bytes. */
function archiveTooLarge(limits: SiteLimits, detail: string): SiteLimitError {
  return new SiteLimitError(
    `The bundle archive is larger than ${formatBytes(archiveBound(limits))} (${detail}), the most ` +
      `\`max-site-size\` (${formatBytes(limits.maxBytes)}) allows: twice the site, 1 KiB for each of the ` +
      `${(limits.maxEntries ?? MAX_SITE_ENTRIES).toLocaleString('en-US')} entries it may hold, and ` +
      `${formatBytes(ARCHIVE_OVERHEAD)} for an archive's headers and padding. ` +
      'Nothing of it was kept, and `path` was left as it was; raise `max-site-size` if the site really is this large.'
  )
}

async function freshLink(options: TransferOptions): Promise<BundleLink> {
  try {
    const link = await options.refreshLink()
    throwIfCancelled(options.signal)
    return link
  } catch (error) {
    if (error instanceof CancelledError || error instanceof ActionError) throw error
    // Not an AttemptError any more: the bundle operation has had its own retries.
    throw new ActionError(`Could not get a fresh bundle link: ${errorMessage(error)}`, { cause: error })
  }
}

function isLinkRefused(failure: AttemptFailure): boolean {
  return failure.kind === 'status' && failure.status === 403
}

function describeAttemptError(error: AttemptError): string {
  return error.detail ? `${describeFailure(error.failure)}: ${error.detail}` : error.message
}

/** The error the step fails with, written for the user. */
function finalError(error: unknown, state: TransferState): unknown {
  const where = describeLink(state.link.url)
  if (!(error instanceof AttemptError)) return error
  const tries = `${state.attempts} attempt${state.attempts === 1 ? '' : 's'}`
  const why = describeAttemptError(error)
  const hint = isLinkRefused(error.failure) ? ' The storage refused the link even after a fresh one was requested.' : ''
  const stopped = error.stoppedByDeadline ? ' Stopped retrying: the next wait would pass the step timeout.' : ''
  return new ActionError(`Could not download the bundle from ${where} (${tries}): ${why}.${hint}${stopped}`, {
    cause: error
  })
}

function partFileIn(archiveStaging: string): string {
  return join(archiveStaging, `${ARCHIVE_NAME}.part`)
}
