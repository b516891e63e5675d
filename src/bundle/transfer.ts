/**
 * Downloads a bundle and, when asked, unpacks it into the site folder: retries through the one
 * retry policy, a fresh link when the old one is refused or expired, one more download for a
 * corrupt archive, and an all-or-nothing result on disk (`.part` + staging, renamed when whole).
 */
import { mkdir, rename } from 'node:fs/promises'
import { dirname } from 'node:path'
import { HttpClient } from '@actions/http-client'
import { ArchiveReceiver, type ReceivedArchive } from '../archive/archive-receiver.js'
import { CorruptArchiveError } from '../archive/errors.js'
import type { ArchiveFormat } from '../archive/format.js'
import { removeQuietly, swapIntoPlace } from '../archive/staging.js'
import type { Clock } from '../clock.js'
import { ActionError, CancelledError, errorMessage, throwIfCancelled } from '../errors.js'
import { type AttemptFailure, type BackoffPolicy, describeFailure, isRetryable } from '../http/retry.js'
import { AttemptError, withRetries } from '../http/with-retries.js'
import type { Logger } from '../log.js'
import { formatBytes } from '../units.js'
import { DownloadProgress, download } from './download.js'
import { type BundleLink, describeLink, isExpired } from './link.js'

export type { ArchiveFormat } from '../archive/format.js'

export interface TransferOptions {
  link: BundleLink
  /** Calls the bundle operation again for a fresh link (after a 403, or when `expiresAt` has passed). */
  refreshLink: () => Promise<BundleLink>
  /** Absolute path where the archive is kept; written as `<file>.part` and renamed when whole. */
  archiveFile: string
  /** When set: unpack the archive here (absolute). When undefined: only keep the archive. */
  siteDir?: string | undefined
  signal?: AbortSignal
  log: Logger
  clock: Clock
  retry?: BackoffPolicy
  /** No byte for this long = stalled: the attempt is abandoned and retried. */
  stallTimeoutMs?: number
  /** Progress lines at most this often. */
  progressIntervalMs?: number
  random?: () => number
  /** Absolute clock ms; no wait is started that would end after it. */
  deadline?: number
}

export interface TransferResult {
  archiveFile: string
  siteDir: string | undefined
  sha256: string
  sizeBytes: number
  format: ArchiveFormat
  /** The link that served the bundle (a fresh one if it had to be renewed). */
  link: BundleLink
  attempts: number
}

export const DEFAULT_TRANSFER_RETRY: BackoffPolicy = { initialMs: 1000, maxMs: 15_000, maxAttempts: 4 }
const DEFAULT_STALL_TIMEOUT_MS = 30_000
const DEFAULT_PROGRESS_INTERVAL_MS = 5000
/** A corrupt archive is downloaded once more; the same failure again is final. */
const DOWNLOADS_OF_A_CORRUPT_ARCHIVE = 2

export async function transferBundle(options: TransferOptions): Promise<TransferResult> {
  const { log, clock, signal } = options
  throwIfCancelled(signal)
  await mkdir(dirname(options.archiveFile), { recursive: true })
  const state: TransferState = { link: options.link, linkRefused: false, attempts: 0 }
  // Only its proxy-aware agent is used (see download.ts); no handler, so no Authorization header.
  const client = new HttpClient('docs-admin-action')
  log.info(`Downloading the bundle from ${describeLink(state.link.url)}${state.link.sizeBytes !== undefined ? ` (${formatBytes(state.link.sizeBytes)})` : ''}`)
  try {
    for (let downloads = 1; ; downloads++) {
      let received: ReceivedArchive
      try {
        received = await withRetries(() => attempt(options, state, client), {
          kind: 'idempotent',
          policy: options.retry ?? DEFAULT_TRANSFER_RETRY,
          clock,
          signal,
          deadline: options.deadline,
          random: options.random,
          // A refused link (403) is worth another try: the next attempt asks for a fresh one.
          isRetryable: (failure) => isLinkRefused(failure) || isRetryable('idempotent', failure),
          onRetry: ({ retry, delayMs, error }) =>
            log.warning(`Bundle download attempt ${retry} failed (${describeAttemptError(error)}); trying again${delayMs > 0 ? ` in ${(delayMs / 1000).toFixed(1)} s` : ''}`)
        })
      } catch (error) {
        if (error instanceof CorruptArchiveError && downloads < DOWNLOADS_OF_A_CORRUPT_ARCHIVE) {
          log.warning(`${error.message}. Downloading it once more.`)
          continue
        }
        throw finalError(error, state, downloads)
      }
      return await finish(options, state, received)
    }
  } finally {
    client.dispose()
  }
}

interface TransferState {
  link: BundleLink
  /** The last attempt got a 403: the next one asks for a fresh link first. */
  linkRefused: boolean
  attempts: number
}

/** One attempt: a fresh `.part`, hash and staging folder; everything removed again if it fails. */
async function attempt(options: TransferOptions, state: TransferState, client: HttpClient): Promise<ReceivedArchive> {
  const { log, clock, signal } = options
  state.attempts++
  throwIfCancelled(signal)
  if (state.linkRefused || isExpired(state.link, clock.now())) {
    log.info(state.linkRefused ? 'The bundle link was refused (HTTP 403); asking for a fresh one' : 'The bundle link has expired; asking for a fresh one')
    state.link = await freshLink(options)
    state.linkRefused = false
  }

  // Stops this attempt: user cancellation, or an unpacking failure another download would not cure.
  const stop = new AbortController()
  const onCancel = (): void => stop.abort(new CancelledError())
  signal?.addEventListener('abort', onCancel, { once: true })
  let receiver: ArchiveReceiver | undefined
  try {
    throwIfCancelled(signal)
    receiver = await ArchiveReceiver.open({
      partFile: partFileOf(options.archiveFile),
      siteDir: options.siteDir,
      log,
      onFatal: (error) => stop.abort(error),
      signal: stop.signal
    })
    const opened = receiver
    const progress = new DownloadProgress(log, clock, options.progressIntervalMs ?? DEFAULT_PROGRESS_INTERVAL_MS, state.link.sizeBytes)
    await download({
      url: state.link.url,
      client,
      signal: stop.signal,
      stallTimeoutMs: options.stallTimeoutMs ?? DEFAULT_STALL_TIMEOUT_MS,
      expectedSize: state.link.sizeBytes,
      onResponse: ({ contentLength }) => progress.setTotal(contentLength),
      onChunk: (chunk) => {
        progress.add(chunk.length)
        return opened.write(chunk)
      }
    })
    const received = await receiver.complete()
    throwIfCancelled(signal)
    log.info(`Downloaded ${progress.summary()}, sha256 ${received.sha256}`)
    return received
  } catch (error) {
    // The reason we stopped for (cancellation, unsafe entry) wins over how the stop surfaced.
    const cause: unknown = stop.signal.aborted ? stop.signal.reason : error
    if (!stop.signal.aborted) stop.abort(cause)
    await receiver?.discard()
    if (cause instanceof AttemptError && isLinkRefused(cause.failure)) {
      state.linkRefused = true
      // Retry-After 0: no backoff is needed before asking for a fresh link.
      throw new AttemptError({ kind: 'status', status: 403, retryAfter: '0' }, cause.message, cause.detail)
    }
    throw cause
  } finally {
    signal?.removeEventListener('abort', onCancel)
  }
}

/** Renames the whole archive into place, then swaps the staged site in. */
async function finish(options: TransferOptions, state: TransferState, received: ReceivedArchive): Promise<TransferResult> {
  const { log, siteDir } = options
  const { staging, counts } = received
  try {
    throwIfCancelled(options.signal)
    await rename(partFileOf(options.archiveFile), options.archiveFile)
    if (siteDir !== undefined && staging !== undefined) await swapIntoPlace(staging, siteDir)
  } catch (error) {
    await Promise.all([removeQuietly(partFileOf(options.archiveFile)), staging === undefined ? undefined : removeQuietly(staging)])
    throw error
  }
  if (siteDir !== undefined && counts !== undefined) {
    const extras = [
      counts.symlinks ? `${counts.symlinks} symlinks` : '',
      counts.hardlinks ? `${counts.hardlinks} hardlinks` : '',
      counts.skipped ? `${counts.skipped} entries skipped` : ''
    ].filter(Boolean)
    log.info(`Unpacked the ${received.format} bundle into ${siteDir}: ${[`${counts.files} files`, `${counts.directories} folders`, ...extras].join(', ')}`)
  }
  return {
    archiveFile: options.archiveFile,
    siteDir,
    sha256: received.sha256,
    sizeBytes: received.sizeBytes,
    format: received.format,
    link: state.link,
    attempts: state.attempts
  }
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
function finalError(error: unknown, state: TransferState, downloads: number): unknown {
  const where = describeLink(state.link.url)
  if (error instanceof CorruptArchiveError) {
    return new ActionError(`${error.message}. It was downloaded ${downloads} times and could not be unpacked either time.`, { cause: error })
  }
  if (!(error instanceof AttemptError)) return error
  const tries = `${state.attempts} attempt${state.attempts === 1 ? '' : 's'}`
  const why = describeAttemptError(error)
  const hint = isLinkRefused(error.failure) ? ' The storage refused the link even after a fresh one was requested.' : ''
  const stopped = error.stoppedByDeadline ? ' Stopped retrying: the next wait would pass the step timeout.' : ''
  return new ActionError(`Could not download the bundle from ${where} (${tries}): ${why}.${hint}${stopped}`, { cause: error })
}

function partFileOf(archiveFile: string): string {
  return `${archiveFile}.part`
}
