/**
 * The log of a wait, so that it never goes quiet for long: every line the follower prints goes
 * through here, and a sleep that would outlast QUIET_MS without a line is split to print one that
 * says where the wait stands (status, time waited, when the next check comes).
 */
import type { Clock } from '../common/clock.js'
import type { Logger } from '../common/log.js'

/**
 * The longest the follower's own waits leave the log without a line. The promise is a line at
 * least every 60 s; the rest is for a status request under way when a line falls due (the line
 * then comes once it has answered; a request that is retried logs its retries itself).
 */
export const QUIET_MS = 55_000

export class WaitLog {
  private lastLineAt: number

  constructor(
    private readonly log: Logger,
    private readonly clock: Clock,
    private readonly signal: AbortSignal | undefined
  ) {
    this.lastLineAt = clock.now()
  }

  info(line: string): void {
    this.log.info(line)
    this.lastLineAt = this.clock.now()
  }

  warning(line: string): void {
    this.log.warning(line)
    this.lastLineAt = this.clock.now()
  }

  /**
   * Sleeps `ms`. Whenever the log has been quiet for QUIET_MS (also right away, after a long status
   * request), prints `where(msToNextCheck)` first: a line that the next such line supersedes.
   */
  async sleep(ms: number, where: (nextCheckInMs: number) => string): Promise<void> {
    const until = this.clock.now() + Math.max(0, ms)
    for (;;) {
      const now = this.clock.now()
      if (now >= until) return
      if (now >= this.lastLineAt + QUIET_MS) {
        this.log.progress(where(until - now))
        this.lastLineAt = now
      }
      await this.clock.sleep(Math.min(until, this.lastLineAt + QUIET_MS) - now, this.signal)
    }
  }
}
