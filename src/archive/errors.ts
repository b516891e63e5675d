import { ActionError } from '../common/errors.js'

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
    super(`The bundle archive was refused: entry ${JSON.stringify(entryName)} ${reason}. Nothing was written outside the staging folder.`)
  }
}

/**
 * The archive's bytes cannot be unpacked (bad gzip data, broken tar header, unreadable zip).
 * Worth one more download: the copy may have been damaged on its way.
 */
export class CorruptArchiveError extends ActionError {
  override readonly name = 'CorruptArchiveError'
}

/** Wraps what a decoder library threw, so the caller can tell corrupt data from our own failures. */
export function corrupt(error: unknown): CorruptArchiveError {
  if (error instanceof CorruptArchiveError) return error
  const message = error instanceof Error ? error.message : String(error)
  return new CorruptArchiveError(message, { cause: error })
}
