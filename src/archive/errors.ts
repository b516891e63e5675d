import { ActionError, errorMessage } from '../common/errors.js'

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
    `The bundle archive cannot be unpacked: entry ${JSON.stringify(entryName)} ${what}, which the action does ` +
      `not unpack.`
  )
}

/** Wraps what a decoder library threw, so the caller can tell corrupt data from our own failures. */
export function corrupt(error: unknown): CorruptArchiveError {
  if (error instanceof CorruptArchiveError) return error
  return new CorruptArchiveError(errorMessage(error), { cause: error })
}
