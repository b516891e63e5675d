/** Durations and byte counts: read from inputs, written for people. */

const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 }

/**
 * Parses a duration such as `250ms`, `90s`, `15m`, `1h`, or plain seconds (`30`, `1.5`).
 * Returns milliseconds, or undefined when the text is not a duration.
 */
export function parseDuration(text: string): number | undefined {
  const match = /^(\d+(?:\.\d+)?|\.\d+)\s*(ms|s|m|h)?$/i.exec(text.trim())
  if (!match) return undefined
  const [, amount, unit = 's'] = match
  const ms = Number(amount) * (UNIT_MS[unit.toLowerCase()] ?? 1000)
  return Number.isFinite(ms) ? Math.round(ms) : undefined
}

const UNIT_BYTES: Record<string, number> = { '': 1, k: 1024, m: 1024 ** 2, g: 1024 ** 3, t: 1024 ** 4 }

/**
 * Parses a size such as `500m`, `2g`, `1.5g`, `512k` or plain bytes (`1048576`); the units are
 * powers of 1024, and `mb`, `MiB`, `GB`... are read alike. Returns whole bytes, or undefined when
 * the text is not a size.
 */
export function parseSize(text: string): number | undefined {
  const match = /^(\d+(?:\.\d+)?|\.\d+)\s*(?:([kmgt])(?:i?b)?|b)?$/i.exec(text.trim())
  if (!match) return undefined
  const [, amount, unit = ''] = match
  const bytes = Number(amount) * (UNIT_BYTES[unit.toLowerCase()] ?? 1)
  return Number.isSafeInteger(Math.floor(bytes)) ? Math.floor(bytes) : undefined
}

/** Formats milliseconds for a log line: `850ms`, `42s`, `3m 05s`, `1h 02m`. */
export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)}ms`
  const totalSeconds = Math.round(ms / 1000)
  if (totalSeconds < 60) return `${totalSeconds}s`
  const hours = Math.floor(totalSeconds / 3600)
  const minutes = Math.floor((totalSeconds % 3600) / 60)
  const seconds = totalSeconds % 60
  return hours > 0
    ? `${hours}h ${String(minutes).padStart(2, '0')}m`
    : `${minutes}m ${String(seconds).padStart(2, '0')}s`
}

/** Milliseconds as seconds to a tenth, for spans where the tenths count (a retry's wait, a download): `1.5 s`. */
export function formatSeconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`
}

/** A byte count for people: `883 B`, `12.4 MiB`. */
export function formatBytes(bytes: number): string {
  if (!Number.isFinite(bytes)) return String(bytes)
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB']
  let value = bytes
  let unit = 0
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024
    unit++
  }
  return unit === 0 ? `${Math.round(value)} B` : `${value.toFixed(1)} ${units[unit]}`
}

/** `1 page`, `3 pages`; `plural` where adding an s is wrong (`entries`). */
export function countOf(count: number, one: string, plural = `${one}s`): string {
  return `${count.toLocaleString('en-US')} ${count === 1 ? one : plural}`
}
