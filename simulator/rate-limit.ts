// The service's rate limits as the simulator plays them: a sliding window of the requests a limit
// let through, answered 429 with a `Retry-After` that says when the oldest of them leaves it.
import { errorReply } from './http.js'
import type { Reply, Route, RouteName } from './http.js'

/** At most `limit` requests in any `windowMs` of the clock `now`. */
export class RateWindow {
  private readonly taken: number[] = []

  constructor(
    readonly limit: number,
    readonly windowMs: number,
    private readonly now: () => number
  ) {}

  /**
   * Counts one request: undefined when the window lets it through, else the whole seconds until a
   * place frees (at least 1), for `Retry-After`; a refused request takes no place.
   */
  take(): number | undefined {
    const now = this.now()
    while (this.taken.length > 0 && (this.taken[0] ?? now) <= now - this.windowMs) this.taken.shift()
    if (this.taken.length >= this.limit) {
      const oldest = this.taken[0] ?? now
      return Math.max(1, Math.ceil((oldest + this.windowMs - now) / 1000))
    }
    this.taken.push(now)
    return undefined
  }

  /** take(), as the answer a refused request gets (`message` its `error`); undefined when let through. */
  refusal(message: string): Reply | undefined {
    const wait = this.take()
    return wait === undefined ? undefined : errorReply(429, message, { 'retry-after': String(wait) })
  }
}

/**
 * `routes`, with those of `names` counted together against `window` before they are handled: a
 * limit the service puts on several operations at once (per organization, so per simulator).
 */
export function limitedTogether(
  routes: Route[],
  names: readonly RouteName[],
  window: RateWindow,
  message: string
): Route[] {
  return routes.map((route) =>
    names.includes(route.name) ? { ...route, handle: (ctx) => window.refusal(message) ?? route.handle(ctx) } : route
  )
}
