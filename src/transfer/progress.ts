/** Progress lines for a long download: bytes, percent when the size is known, rate. */
import type { Clock } from '../common/clock.js'
import type { Logger } from '../common/log.js'
import { formatBytes } from '../common/units.js'

/** A line at most this often. */
const REPORT_INTERVAL_MS = 5000

export class DownloadProgress {
  private readonly startedAt: number
  private lastReportAt: number
  private bytes = 0

  constructor(
    private readonly log: Logger,
    private readonly clock: Clock,
    private total: number | undefined
  ) {
    this.startedAt = clock.now()
    this.lastReportAt = this.startedAt
  }

  /** The size the response announced, unless the service said it already. */
  setTotal(total: number | undefined): void {
    this.total ??= total
  }

  add(bytes: number): void {
    this.bytes += bytes
    const now = this.clock.now()
    if (now - this.lastReportAt < REPORT_INTERVAL_MS) return
    this.lastReportAt = now
    const percent = this.total ? ` (${Math.floor((this.bytes / this.total) * 100)}%)` : ''
    const of = this.total !== undefined ? ` of ${formatBytes(this.total)}` : ''
    this.log.progress(`Downloaded ${formatBytes(this.bytes)}${of}${percent} at ${this.rate(now)}`)
  }

  /** "12.0 MiB in 3.1 s (3.9 MiB/s)" */
  summary(): string {
    const now = this.clock.now()
    return `${formatBytes(this.bytes)} in ${((now - this.startedAt) / 1000).toFixed(1)} s (${this.rate(now)})`
  }

  private rate(now: number): string {
    const seconds = (now - this.startedAt) / 1000
    return seconds > 0 ? `${formatBytes(this.bytes / seconds)}/s` : 'n/a'
  }
}
