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
    super(
      `The bundle archive was refused: entry ${JSON.stringify(entryName)} ${reason}. Nothing was written outside ` +
        `the staging folder.`
    )
  }
}

/**
 * The unpacking would pass one of its bounds: `max-site-size`, the most entries an archive may
 * hold, or the tar data its entries account for. Final: the same archive would pass it again; the
 * previous site is left as it was.
 */
export class SiteLimitError extends ActionError {
  override readonly name = 'SiteLimitError'
}
