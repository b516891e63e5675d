/**
 * Reading service answers defensively: the spec leaves types and extra fields open, so every
 * field is taken only when it has a usable value, and anything else counts as absent. Text is
 * made safe for a log line here, where it enters: one line, no workflow command.
 */
import { ActionError } from '../common/errors.js'
import { cutShort, serviceText } from '../common/text.js'

/**
 * A job's answer that lacks only its `status`: nothing to follow in it, but the next answer may have
 * one (the spec requires none for an agent job). A follower reads again a few times (see
 * isPassingOutage) before it gives up.
 */
export class NoStatusError extends ActionError {
  override readonly name: string = 'NoStatusError'
}

/** Fields that make an answer a job's (or a wrapped one), whatever else it holds: its `error` is then the job's. */
const JOB_FIELDS = ['id', 'jobId', 'job_id', 'job', 'data', 'status', 'progress', 'pageCount', '_id', 'projectId']

/**
 * Why a status answer without `status` cannot be followed: the service's own `error` when the
 * answer is only that (the spec's Error shape), an answer that is no job at all (a list, a bare
 * value), else a NoStatusError (a job's answer that lacks only its status).
 */
export function statusMissing(answer: unknown, what: string): ActionError {
  const fields = asObject(answer)
  const error = JOB_FIELDS.some((name) => name in fields) ? undefined : text(fields.error)
  if (error !== undefined) return new ActionError(`Could not ${what}: the service answered with an error: ${error}`)
  if (answer === null || typeof answer !== 'object' || Array.isArray(answer)) {
    return new ActionError(
      `Could not ${what}: the service's answer is not a job ` +
        `(${answer === null ? 'null' : Array.isArray(answer) ? 'a list' : typeof answer}).`
    )
  }
  return new NoStatusError(`Could not ${what}: the service's answer carries no \`status\`.`)
}

/** The value as a plain object, or an empty one. */
export function asObject(value: unknown): Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {}
}

/**
 * The most of one text of the service's that the action keeps. A job's error can be a whole trace,
 * and each text may reach an output (GitHub takes 1 MB for all of a job's), the job summary (1 MiB,
 * or none of it is shown) and the log: 64 Ki characters is plenty to read and fits them all.
 */
export const SERVICE_TEXT_CHARS = 65_536

/**
 * Non-blank text (trimmed), on one line and unable to start a workflow command (see
 * common/text.ts), at most SERVICE_TEXT_CHARS long; a finite number is taken as its text (ids
 * are sometimes numbers).
 */
export function text(value: unknown): string | undefined {
  const safe = wholeText(value)
  return safe === undefined
    ? undefined
    : cutShort(safe, SERVICE_TEXT_CHARS, `(cut short: the service sent ${safe.length} characters)`)
}

/**
 * As text(), but not cut short: for text that may quote a secret, which its reader takes out
 * before it cuts (a cut through a secret leaves a part that redaction no longer finds).
 */
export function wholeText(value: unknown): string | undefined {
  if (typeof value === 'number' && Number.isFinite(value)) return String(value)
  if (typeof value !== 'string') return undefined
  const safe = serviceText(value).trim()
  return safe === '' ? undefined : safe
}

/**
 * Text the action sends back (an id in a path, a link it downloads from), as the service gave it
 * but for surrounding white space; a finite number as its text. Undefined when it is blank or
 * holds anything a log line would have to change (a control character, a workflow command mark):
 * made safe for the log it would name something else, and as it is it is not safe to show.
 */
export function plain(value: unknown): string | undefined {
  if (typeof value === 'number' && Number.isFinite(value)) return String(value)
  if (typeof value !== 'string') return undefined
  const trimmed = value.trim()
  return trimmed !== '' && serviceText(trimmed) === trimmed ? trimmed : undefined
}

/** A finite number, also from a numeric string. */
export function finiteNumber(value: unknown): number | undefined {
  const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : value
  return typeof n === 'number' && Number.isFinite(n) ? n : undefined
}

/** A percentage, 0..100; anything else (1e308, -5, "lots") counts as absent. */
export function percent(value: unknown): number | undefined {
  const n = finiteNumber(value)
  return n !== undefined && n >= 0 && n <= 100 ? n : undefined
}

/** A count (pages, bytes): a non-negative whole number a double holds exactly, or absent. */
export function count(value: unknown): number | undefined {
  const n = finiteNumber(value)
  return n !== undefined && Number.isSafeInteger(n) && n >= 0 ? n : undefined
}

/** An http(s) address as the service gave it (a signed link must stay byte for byte), or undefined. */
export function httpLink(value: unknown): string | undefined {
  const found = plain(value)
  if (found === undefined) return undefined
  try {
    const { protocol } = new URL(found)
    return protocol === 'https:' || protocol === 'http:' ? found : undefined
  } catch {
    return undefined
  }
}

/**
 * An http(s) address as a browser would follow it (white space and `<>` percent-encoded), or
 * undefined: an address shown to people, after which no text can ride along.
 */
export function normalisedHttpLink(value: unknown): string | undefined {
  const link = httpLink(value)
  return link === undefined ? undefined : new URL(link).href
}

/** `2025-01-01T10:00:00` (or with a space, or fractions of a second): a date and time with no zone. */
const ZONELESS_DATE_TIME = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?$/

/** An ISO 8601 string, or epoch seconds / milliseconds (the spec only says "timestamp"); no zone is UTC. */
export function timestamp(value: unknown): Date | undefined {
  if (typeof value === 'number' && Number.isFinite(value))
    return validDate(new Date(value < 1e12 ? value * 1000 : value))
  if (typeof value === 'string' && value.trim() !== '') {
    const trimmed = value.trim()
    if (/^\d+(\.\d+)?$/.test(trimmed)) return timestamp(Number(value))
    // A date and time without a zone would be read as the machine's local time, which differs
    // between runners and laptops: the service's clock is taken as UTC.
    if (ZONELESS_DATE_TIME.test(trimmed)) return validDate(new Date(Date.parse(`${trimmed.replace(/[t ]/, 'T')}Z`)))
    return validDate(new Date(Date.parse(trimmed)))
  }
  return undefined
}

/** Beyond year 275760 a Date is invalid, and printing one throws. */
function validDate(date: Date): Date | undefined {
  return Number.isNaN(date.getTime()) ? undefined : date
}
