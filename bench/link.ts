/**
 * The link the benchmark's storage serves a bundle over: loopback as fast as the disk and the socket allow, or a
 * paced link as object storage serves a runner (a set rate after a set delay before the first byte). The pacing is
 * in the server, so every tool (curl, the peer, the action) downloads through the same code path.
 *
 * Pacing is a token bucket: bytes go to the socket at the link's rate, with at most BURST_MS of the rate at once
 * (timers fire late, and what is owed is made up within the burst). While the receiver does not read (the socket
 * does not drain), the bucket fills only up to the burst, as a link idles while a receiver's window is full.
 */
import { createReadStream } from 'node:fs'
import type { ServerResponse } from 'node:http'

/** Undefined is loopback; a paced link sends `bytesPerSecond` after `firstByteMs`. */
export interface PacedLink {
  bytesPerSecond: number
  firstByteMs: number
}

const MiB = 1024 * 1024
/** As object storage serves a runner (issue 42's paced case). */
export const DEFAULT_PACED_LINK: PacedLink = { bytesPerSecond: 40 * MiB, firstByteMs: 30 }
/** What one read of the file hands on, and the smallest burst. */
export const PIECE_BYTES = 64 * 1024
const BURST_MS = 10

export function describeLink(link: PacedLink | undefined): string {
  if (link === undefined) return 'loopback'
  const rate = link.bytesPerSecond / MiB
  return `paced: ${Number.isInteger(rate) ? rate : rate.toFixed(1)} MiB/s, ${link.firstByteMs} ms before the first byte`
}

/**
 * `--link=40MiB/s,30ms` (either part may be left out for its default): the paced link; `--link=loopback` nothing.
 */
export function parseLink(text: string): PacedLink | undefined {
  if (text === 'loopback') return undefined
  let { bytesPerSecond, firstByteMs } = DEFAULT_PACED_LINK
  for (const part of text.split(',').filter((p) => p !== '' && p !== 'paced')) {
    const rate = /^(\d+(?:\.\d+)?)MiB\/s$/.exec(part)
    const delay = /^(\d+)ms$/.exec(part)
    if (rate) bytesPerSecond = Number(rate[1]) * MiB
    else if (delay) firstByteMs = Number(delay[1])
    else throw new Error(`--link: expected loopback, paced, <rate>MiB/s or <delay>ms; got ${part}`)
  }
  if (!(bytesPerSecond > 0)) throw new Error('--link: the rate must be above 0 MiB/s')
  return { bytesPerSecond, firstByteMs }
}

/** Answers a GET with the file: headers and body at once on loopback, paced on a paced link. */
export async function sendFile(
  res: ServerResponse,
  file: string,
  sizeBytes: number,
  link: PacedLink | undefined
): Promise<void> {
  const headers = { 'content-type': 'application/octet-stream', 'content-length': String(sizeBytes) }
  if (link === undefined) {
    res.writeHead(200, headers)
    createReadStream(file, { highWaterMark: MiB }).pipe(res)
    return
  }
  // Node's timers may fire a fraction of a millisecond early (libuv caches the loop's time): the delay is waited out.
  const firstByteAt = performance.now() + link.firstByteMs
  while (performance.now() < firstByteAt) await sleep(firstByteAt - performance.now())
  if (res.destroyed) return
  res.writeHead(200, headers)
  res.flushHeaders()
  const bucket = new TokenBucket(link.bytesPerSecond)
  const stream = createReadStream(file, { highWaterMark: PIECE_BYTES })
  try {
    for await (const piece of stream as AsyncIterable<Buffer>) {
      await bucket.take(piece.length)
      if (res.destroyed) return
      if (!res.write(piece)) await drainedOrClosed(res)
      if (res.destroyed) return
    }
    res.end()
  } finally {
    stream.destroy()
  }
}

/** The bucket's time: real by default; a test gives a virtual one, so the rate is checked without a stopwatch. */
export interface BucketTime {
  now(): number
  sleep(ms: number): Promise<void>
}

const REAL_TIME: BucketTime = { now: () => performance.now(), sleep }

export class TokenBucket {
  private tokens = 0
  private last: number
  private readonly burst: number

  constructor(
    private readonly bytesPerSecond: number,
    private readonly time: BucketTime = REAL_TIME
  ) {
    this.burst = Math.max(PIECE_BYTES, (bytesPerSecond * BURST_MS) / 1000)
    this.last = time.now()
  }

  /** Waits until `bytes` may be sent at the rate (`bytes` at most the burst). */
  async take(bytes: number): Promise<void> {
    for (;;) {
      const now = this.time.now()
      this.tokens = Math.min(this.burst, this.tokens + ((now - this.last) * this.bytesPerSecond) / 1000)
      this.last = now
      if (this.tokens >= bytes) {
        this.tokens -= bytes
        return
      }
      await this.time.sleep(((bytes - this.tokens) * 1000) / this.bytesPerSecond)
    }
  }
}

function drainedOrClosed(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      res.off('drain', done)
      res.off('close', done)
      resolve()
    }
    res.once('drain', done)
    res.once('close', done)
  })
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms))
}
