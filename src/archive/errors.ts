import { isNativeError } from 'node:util/types'
import { ActionError, CancelledError, errorMessage } from '../common/errors.js'
import { formatBytes } from '../common/units.js'

/**
 * An archive entry that would write outside the site folder, through a link, or somewhere it has
 * no business. Final: downloading the same archive again would give the same entry.
 */
export class UnsafeEntryError extends ActionError {
  override readonly name = 'UnsafeEntryError'
  constructor(
    /** The entry's name as the archive spells it. */
    readonly entryName: string,
    reason: string
  ) {
    super(
      `The bundle archive was refused: entry ${JSON.stringify(entryName)} ${reason}. Nothing was written outside the staging folder.`
    )
  }
}

/**
 * The archive's bytes cannot be unpacked (bad gzip data, broken tar header, unreadable zip).
 * Final for a download: TLS and the length checks stop a copy damaged on its way, so the link
 * serves these bytes; a kept copy that reads so was damaged on disk (it is downloaded instead).
 */
export class CorruptArchiveError extends ActionError {
  override readonly name = 'CorruptArchiveError'
}

/**
 * The bytes are no archive the action unpacks (an HTML page, JSON, a gzip of something else).
 * Final for a download: the link serves it; a kept copy that reads so was damaged.
 */
export class NotAnArchiveError extends ActionError {
  override readonly name = 'NotAnArchiveError'
}

/**
 * The archive is intact but uses what the action does not unpack: encryption, a compression method
 * other than stored and deflate, a zip split over several disks. Final: another download would
 * give the same bytes.
 */
export class UnsupportedArchiveError extends ActionError {
  override readonly name = 'UnsupportedArchiveError'
}

/** An entry the action does not unpack, though nothing says it is damaged: `what` it is. */
export function unsupportedEntry(entryName: string, what: string): UnsupportedArchiveError {
  return new UnsupportedArchiveError(
    `The bundle archive cannot be unpacked: entry ${JSON.stringify(entryName)} ${what}, which the action does not unpack.`
  )
}

/** Wraps what a decoder library threw, so the caller can tell corrupt data from our own failures. */
export function corrupt(error: unknown): CorruptArchiveError {
  if (error instanceof CorruptArchiveError) return error
  return new CorruptArchiveError(errorMessage(error), { cause: error })
}

/**
 * The unpacking would pass one of its bounds: `max-site-size`, the most entries an archive may
 * hold, or the tar data its entries account for. Final: the same archive would pass it again; the
 * previous site is left as it was.
 */
export class SiteLimitError extends ActionError {
  override readonly name = 'SiteLimitError'
}

/**
 * A failure while writing the site or the archive file, said in the user's terms: what was being
 * written, what went wrong, and (a full disk) how much had been written. Errors that are already
 * the user's (a refusal, corrupt data, a bound) and stops are returned as they are.
 */
export function writeFailure(error: unknown, what: string, writtenBytes?: number): unknown {
  // isNativeError, not instanceof: node's own errors may come from another realm (a vm context).
  if (
    !isNativeError(error) ||
    error instanceof ActionError ||
    error instanceof CancelledError ||
    error.name === 'AbortError'
  )
    return error
  const code = (error as NodeJS.ErrnoException).code
  const why = code === undefined ? error.message : `${WRITE_FAILURES[code] ?? error.message} (${code})`
  const full = code === 'ENOSPC' || code === 'EDQUOT'
  const written = full && writtenBytes !== undefined ? `, after ${formatBytes(writtenBytes)} had been written` : ''
  return new ActionError(`Could not write ${what}: ${why}${written}`, { cause: error })
}

const WRITE_FAILURES: Record<string, string> = {
  ENOSPC: 'the disk is full',
  EDQUOT: 'the disk quota is used up',
  ENAMETOOLONG: 'its name or path is too long for the file system',
  EACCES: 'permission denied',
  EPERM: 'the operation is not permitted',
  EROFS: 'the file system is read-only',
  EMFILE: 'too many files are open',
  ENFILE: 'too many files are open',
  EIO: 'the disk reported an input/output error',
  ENOTDIR: 'a part of its path is a file, not a folder',
  EISDIR: 'a folder is in the way',
  ELOOP: 'its path loops through symlinks'
}
