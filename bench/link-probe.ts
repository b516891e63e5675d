/**
 * What a paced link (bench/link.ts) delivers, checked before a case's timed runs: one download by curl and one by
 * node (node:http, as the action and the peer fetch), each timed by the tool itself from its request. The rate is the
 * body's bytes over the time from the request to the last byte, less the link's first-byte delay: the bucket starts
 * empty, so no sender can beat that bound, and load only lengthens it (a first byte read late by a busy receiver
 * shortens a first-to-last interval and made a sound link look fast). A link that delivers more than its rate to
 * either tool would flatter whoever streams best, so that fails the benchmark; a slower one is reported.
 */
import { execFile } from 'node:child_process'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import type { PacedLink } from './link.js'
import { childEnv } from './measure.js'
import { formatMiB } from './report.js'

const NODE_DOWNLOAD = join(dirname(fileURLToPath(import.meta.url)), 'node-download.mjs')
/** Above the rate by more than this, the pacing is broken (the margin covers the tools' own clocks). */
const FASTEST_FACTOR = 1.03

export interface Delivery {
  /** From the request to the first byte of the response. */
  firstByteMs: number
  /** Body bytes per second, from the request to the last byte less the link's first-byte delay. */
  bytesPerSecond: number
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
  const bytesPerSecond = (bytes * 1000) / (totalMs - link.firstByteMs)
  const text = `${formatMiB(bytesPerSecond)}/s, first byte after ${firstByteMs.toFixed(0)} ms`
  if (bytesPerSecond > link.bytesPerSecond * FASTEST_FACTOR || firstByteMs < link.firstByteMs)
    throw new Error(`the paced link delivered ${text} to ${tool}: faster than the link it stands for`)
  return { firstByteMs, bytesPerSecond, text }
}
