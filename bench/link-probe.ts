/**
 * What a paced link (bench/link.ts) delivers, checked before a case's timed runs: one download by curl and one by
 * node (node:http, as the action and the peer fetch), each timed by the tool itself from its request. The rate
 * reported is the body's bytes over the time from the response's first byte to its last. The link is judged on the
 * whole download instead: its bucket starts empty, so no download can end sooner after its request than the
 * first-byte delay plus the body at the rate, and load only lengthens that (a first byte read late by a busy receiver
 * shortens the first-to-last interval, and once made a sound link look fast). A link faster than that would flatter
 * whoever streams best, so it fails the benchmark; a slower one is reported.
 */
import { execFile } from 'node:child_process'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import type { PacedLink } from './link.js'
import { childEnv } from './measure.js'
import { formatMiB } from './report.js'

const NODE_DOWNLOAD = join(dirname(fileURLToPath(import.meta.url)), 'node-download.mjs')
/** Faster than the link by more than this, the pacing is broken (the margin covers the tools' own clocks). */
const FASTEST_FACTOR = 1.03

export interface Delivery {
  /** From the request to the first byte of the response. */
  firstByteMs: number
  /** Body bytes per second, first byte to last. */
  bytesPerSecond: number
  /** From the request to the last byte. */
  totalMs: number
  /** For the log and the doc: "40.0 MiB/s, first byte after 31 ms". */
  text: string
}

export async function probeLink(
  url: string,
  sizeBytes: number,
  link: PacedLink,
  node: string
): Promise<{ curl: Delivery; node: Delivery }> {
  const run = promisify(execFile)
  const curlOut = await run(
    'curl',
    ['-s', '-o', '/dev/null', '-w', '%{time_starttransfer} %{time_total} %{size_download}', url],
    {
      env: childEnv()
    }
  )
  const [start, total, curlBytes] = curlOut.stdout.trim().split(' ').map(Number) as [number, number, number]
  const nodeOut = await run(node, [NODE_DOWNLOAD, url], { env: childEnv() })
  const read = JSON.parse(nodeOut.stdout) as { status: number; headMs: number; totalMs: number; bytes: number }
  if (read.status !== 200) throw new Error(`the paced link answered node with ${read.status}`)
  const curl = delivery('curl', curlBytes, start * 1000, total * 1000, sizeBytes, link)
  return { curl, node: delivery('node', read.bytes, read.headMs, read.totalMs, sizeBytes, link) }
}

function delivery(
  tool: string,
  bytes: number,
  firstByteMs: number,
  totalMs: number,
  sizeBytes: number,
  link: PacedLink
): Delivery {
  if (bytes !== sizeBytes) throw new Error(`the paced link gave ${tool} ${bytes} of ${sizeBytes} bytes`)
  const bytesPerSecond = (bytes * 1000) / (totalMs - firstByteMs)
  const text = `${formatMiB(bytesPerSecond)}/s, first byte after ${firstByteMs.toFixed(0)} ms`
  if (totalMs * FASTEST_FACTOR < fastestTotalMs(bytes, link) || firstByteMs < link.firstByteMs) {
    const whole = `the whole body in ${totalMs.toFixed(0)} ms`
    throw new Error(`the paced link delivered ${text}, ${whole}, to ${tool}: faster than the link it stands for`)
  }
  return { firstByteMs, bytesPerSecond, totalMs, text }
}

/** The soonest a download of `bytes` can end after its request: the first-byte delay, then the body at the rate. */
export function fastestTotalMs(bytes: number, link: PacedLink): number {
  return link.firstByteMs + (bytes * 1000) / link.bytesPerSecond
}
