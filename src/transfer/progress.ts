/**
 * Progress lines for a long download: bytes, percent when the size is known, rate.
 *
 * The rate is the download's own: while the unpacking holds the download back (backpressure),
 * the clock of the download stands still, and the time it was held back is reported apart. A
 * rate taken over the whole time would describe the disk, not the network.
 */
import type { Clock } from '../common/clock.js'
import type { Logger } from '../common/log.js'
import { formatBytes, formatSeconds } from '../common/units.js'

/** A line at most this often. */
const REPORT_INTERVAL_MS = 5000
/** Held-back time below this is not worth a mention in the summary. */
const HELD_BACK_MENTION_MS = 100

export class DownloadProgress {
  private readonly startedAt: number
  private lastReportAt: number
  private bytes = 0
  /** Time spent waiting for the receiver to take more. */
  private heldBackMs = 0
  private endedAt: number | undefined

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

  /**
   * Counts a chunk. `wait` is the receiver asking the download to pause (backpressure): it is
   * returned, timed, for the download to wait on.
   */
  add(bytes: number, wait?: Promise<void>): Promise<void> | undefined {
    this.bytes += bytes
    const now = this.clock.now()
    if (now - this.lastReportAt >= REPORT_INTERVAL_MS) {
      this.lastReportAt = now
      const percent = this.total ? ` (${Math.floor((this.bytes / this.total) * 100)}%)` : ''
      const of = this.total !== undefined ? ` of ${formatBytes(this.total)}` : ''
      this.log.progress(`Downloaded ${formatBytes(this.bytes)}${of}${percent} at ${this.rate(now)}`)
    }
    if (wait === undefined) return undefined
    return wait.finally(() => (this.heldBackMs += this.clock.now() - now))
  }

  /** The last byte is in: the summary's times end here, whatever comes after. */
  end(): void {
    this.endedAt ??= this.clock.now()
  }

  /** "12.0 MiB in 3.1 s (3.9 MiB/s)", with "; waited 1.2 s more for writing and unpacking" when held back. */
  summary(): string {
    const end = this.endedAt ?? this.clock.now()
    const own = this.downloadMs(end)
    const held =
      this.heldBackMs >= HELD_BACK_MENTION_MS
        ? `; waited ${formatSeconds(this.heldBackMs)} more for writing and unpacking`
        : ''
    return `${formatBytes(this.bytes)} in ${formatSeconds(own)} (${this.rate(end)}${held})`
  }

  /** Time the download was running and not held back. */
  private downloadMs(now: number): number {
    return Math.max(0, now - this.startedAt - this.heldBackMs)
  }

  private rate(now: number): string {
    const seconds = this.downloadMs(now) / 1000
    return seconds > 0 ? `${formatBytes(this.bytes / seconds)}/s` : 'n/a'
  }
}
