// Queued, one-shot (or n-shot) misbehaviours, so tests can script "the next two status polls
// fail with 503" without touching the happy-path logic of the routes.
import type { RouteName } from './http.js'

export interface Fault {
  route: RouteName
  /** How many matching requests this fault applies to (default 1). */
  times?: number
  /** Respond with this status and {"error": "simulated <status>"} (or `body`). */
  status?: number
  body?: unknown
  /** Retry-After header value, e.g. '1' or an HTTP date. */
  retryAfter?: string
  /** More headers of the error answer, e.g. `{ location: '...' }` with a 302. */
  headers?: Record<string, string>
  /** Destroy the socket without any response, after the request has been read. */
  drop?: boolean
  /** Wait before answering normally (or before applying the rest of the fault). */
  delayMs?: number
  /** Send headers with the full Content-Length, then this many body bytes, then reset. */
  truncateAt?: number
  /** Send this many body bytes, then nothing, keeping the socket open until close(). */
  stallAt?: number
  /** Read the request, then never answer: no status, no headers (until close() or the client gives up). */
  hang?: boolean
  /** Send the body one byte at a time, one every this many (real) ms, after the headers. */
  trickleMs?: number
  /**
   * With a status (a redirect, an error): after the head and its body, filler without end and
   * without Content-Length, until the client goes away or close().
   */
  endless?: boolean
  /**
   * After the normal body, this many more bytes of filler, and no Content-Length: storage that
   * streams an object of a length it does not say (or that never ends, for the client's bound).
   */
  trailingBytes?: number
  /** Announce this Content-Length instead of the body's own; the body is sent as it is. */
  contentLength?: number
  /**
   * The normal answer (the operation done, its status kept) with its body replaced: `cut` (the
   * first `cutAt` bytes of its JSON, half by default, sent as a whole response), `empty`, or `html`
   * (an error page, as a proxy or a host's outage page sends it with a 200).
   */
  answer?: 'cut' | 'empty' | 'html'
  cutAt?: number
  /** The normal JSON answer written with `/` as `\/` and `&`, `<`, `>` as `\u00XX`, as PHP and Go write JSON. */
  escapedJson?: boolean
  /** Fields merged into the normal JSON answer (wrong types, absurd values, missing ones as `undefined`). */
  patch?: Record<string, unknown>
  /** With status/drop: still perform the operation first ("processed, but the answer was lost"). */
  process?: boolean
}

export class FaultQueue {
  private readonly queue: Array<{ fault: Fault; remaining: number }> = []

  add(fault: Fault): void {
    const remaining = fault.times ?? 1
    if (remaining > 0) this.queue.push({ fault, remaining })
  }

  /** Takes the oldest pending fault for `route`, consuming one of its uses. */
  take(route: RouteName): Fault | undefined {
    const index = this.queue.findIndex((item) => item.fault.route === route)
    if (index < 0) return undefined
    const item = this.queue[index]!
    item.remaining -= 1
    if (item.remaining <= 0) this.queue.splice(index, 1)
    return item.fault
  }

  clear(): void {
    this.queue.length = 0
  }

  get pending(): number {
    return this.queue.length
  }
}

/** Whether the fault replaces the normal answer with an error status. */
export function isErrorFault(fault: Fault): boolean {
  return fault.status !== undefined || fault.retryAfter !== undefined || fault.body !== undefined
}
