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
