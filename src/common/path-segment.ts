/**
 * An identifier (a job id, a project id) as one segment of an API address's path: encoded for a
 * request, or judged usable as it is (an input, a marker the action reads back).
 */
import { ActionError } from './errors.js'
import { hasUnprintable } from './text.js'

/** Nothing, `.` and `..` cannot be a segment, encoded or not: address normalisation would make them another path. */
function leadsElsewhere(value: string): boolean {
  return value === '' || value === '.' || value === '..'
}

/** Encodes one identifier (an id the service gave, say) as a single path segment. */
export function segment(value: string): string {
  if (leadsElsewhere(value)) {
    throw new ActionError(
      `The id ${JSON.stringify(value)} cannot be sent as part of an address: the address would lead elsewhere. ` +
        `It came from the service's answer or an input.`
    )
  }
  return encodeURIComponent(value)
}

/** Whether an identifier can be a path segment as it is: no `/` or `\\`, none leading elsewhere, none unprintable. */
export function isPlainSegment(value: string): boolean {
  return !leadsElsewhere(value) && !value.includes('/') && !value.includes('\\') && !hasUnprintable(value)
}
