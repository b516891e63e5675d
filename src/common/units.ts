/** Durations, byte counts, counts and moments: read from inputs, written for people. */

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

/** A count with its noun, singular for one: `1 page`, `2 pages`, `0 pages`; `plural` for a noun without an s. */
export function counted(count: number, noun: string, plural = `${noun}s`): string {
  return `${count.toLocaleString('en-US')} ${count === 1 ? noun : plural}`
}

/**
 * A moment in UTC to the second, as people read it: `2025-06-01 14:32:05 UTC`. A runner's and a
 * reader's zones differ, so the zone is said rather than assumed.
 */
export function formatUtc(at: Date): string {
  return at.toISOString().replace(/T(\d\d:\d\d:\d\d)(?:\.\d+)?Z$/, ' $1 UTC')
}

/**
 * How far a moment is from `now`, as people say it: `in 14 min`, `3 h 5 min ago`, `in 2 days`,
 * `now`. Rounded down: a link said to expire "in 14 min" still works for 14 minutes.
 */
export function formatFromNow(at: Date, now: number): string {
  const ms = at.getTime() - now
  const span = Math.abs(ms)
  if (span < 1000) return 'now'
  const minutes = Math.floor(span / 60_000)
  const hours = Math.floor(minutes / 60)
  const words =
    minutes < 1
      ? `${Math.floor(span / 1000)} s`
      : hours < 1
        ? `${minutes} min`
        : hours < 48
          ? `${hours} h${minutes % 60 === 0 ? '' : ` ${minutes % 60} min`}`
          : counted(Math.floor(hours / 24), 'day')
  return ms > 0 ? `in ${words}` : `${words} ago`
}

/** A moment in UTC and from now: `2025-06-01 14:32:05 UTC (in 14 min)`. */
export function formatMoment(at: Date, now: number): string {
  return `${formatUtc(at)} (${formatFromNow(at, now)})`
}
