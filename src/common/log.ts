/**
 * The few logging calls the action needs. Everything logs through one Logger handed down from
 * the host, so that a test records what would be printed (and checks that no secret ever is).
 */
export interface Logger {
  debug(message: string): void
  info(message: string): void
  warning(message: string): void
  /** Shown as an annotation on the run's summary page. */
  notice(message: string): void
  /** A line about work under way that the next such line supersedes (a terminal shows it in place). */
  progress(message: string): void
  /** Runs `fn` inside a collapsible log group. */
  group<T>(title: string, fn: () => Promise<T>): Promise<T>
}
