/**
 * Reading service answers defensively: the spec leaves types and extra fields open, so every
 * field is taken only when it has a usable value, and anything else counts as absent.
 */

/** The value as a plain object, or an empty one. */
export function asObject(value: unknown): Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {}
}

/** Non-blank text (trimmed); a finite number is taken as its text (ids are sometimes numbers). */
export function text(value: unknown): string | undefined {
  if (typeof value === 'number' && Number.isFinite(value)) return String(value)
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined
}

/** A finite number, also from a numeric string. */
export function finiteNumber(value: unknown): number | undefined {
  const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : value
  return typeof n === 'number' && Number.isFinite(n) ? n : undefined
}

/** An http(s) address, or undefined. */
export function httpLink(value: unknown): string | undefined {
  const found = text(value)
  if (found === undefined) return undefined
  try {
    const { protocol } = new URL(found)
    return protocol === 'https:' || protocol === 'http:' ? found : undefined
  } catch {
    return undefined
  }
}

/** An ISO 8601 string, or epoch seconds / milliseconds (the spec only says "timestamp"). */
export function timestamp(value: unknown): Date | undefined {
  if (typeof value === 'number' && Number.isFinite(value)) return new Date(value < 1e12 ? value * 1000 : value)
  if (typeof value === 'string' && value.trim() !== '') {
    if (/^\d+(\.\d+)?$/.test(value.trim())) return timestamp(Number(value))
    const ms = Date.parse(value)
    return Number.isNaN(ms) ? undefined : new Date(ms)
  }
  return undefined
}
