/**
 * The log of a follow, so that it never goes quiet for long: every line the follower prints goes
 * through here, and a heartbeat on a timer of its own prints where the follow stands whenever
 * QUIET_MS pass without a line: in a wait, and as well in a status request that is slow to answer
 * (a line made only between requests would wait for it).
 */
import type { Clock } from '../common/clock.js'
import type { Logger } from '../common/log.js'

/** The longest the follow leaves the log without a line. The promise is a line at least every 60 s. */
export const QUIET_MS = 55_000

export class WaitLog {
  private lastLineAt: number
  private readonly ended = new AbortController()

  /** Starts the heartbeat: `where()` is its line, one that the next such line supersedes. */
  constructor(
    private readonly log: Logger,
    private readonly clock: Clock,
    where: () => string
  ) {
    this.lastLineAt = clock.now()
    void this.beat(where)
  }

  info(line: string): void {
    this.log.info(line)
    this.lastLineAt = this.clock.now()
  }

  warning(line: string): void {
    this.log.warning(line)
    this.lastLineAt = this.clock.now()
  }

  /** Ends the heartbeat: the follow is over (its timer would keep the process alive). */
  stop(): void {
    this.ended.abort()
  }

  private async beat(where: () => string): Promise<void> {
    for (;;) {
      try {
        await this.clock.sleep(this.lastLineAt + QUIET_MS - this.clock.now(), this.ended.signal)
      } catch {
        return
      }
      const now = this.clock.now()
      if (now < this.lastLineAt + QUIET_MS) continue
      this.log.progress(where())
      this.lastLineAt = now
    }
  }
}
