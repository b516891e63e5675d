/**
 * Start-up: from spawning `node dist/index.js` (with the environment a runner gives it) to the
 * first byte of its first API request at a local TCP server, minus the same measure for
 * `node -e "<connect to the server and write a byte>"`, so that both pay for starting node and
 * for connecting, and the difference is what the action adds before its first request.
 *
 * The two alternate (A B A B, after one untimed pair that warms the page cache); every pair gives
 * one difference, and the result is the median of the differences. The server drops each
 * connection at its first byte and the child is killed: nothing is answered.
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { mkdtemp, readdir, rm, stat } from 'node:fs/promises'
import net from 'node:net'
import type { AddressInfo } from 'node:net'
import os from 'node:os'
import { dirname, join } from 'node:path'
import { DIST_ENTRY } from '../test/support/runner.js'
import { runnerEnv } from './action-env.js'
import { median } from './measure.js'
import { formatMs, mark, table } from './report.js'

/** The bound: no target beyond it. */
export const STARTUP_TARGET_MS = 100

export interface StartupResult {
  markdown: string
  differenceMs: number
  targetMet: boolean
}

/** `node`: the node binary that runs both the action and the baseline. */
export async function runStartupBench(pairs: number, node: string): Promise<StartupResult> {
  await stat(DIST_ENTRY).catch(() => {
    throw new Error('dist/index.js is missing: build it with `npm run bundle` first')
  })
  const temp = await mkdtemp(join(os.tmpdir(), 'bench-startup-'))
  const server = await firstByteServer()
  try {
    const { env } = await runnerEnv(
      {
        operation: 'export',
        'api-key': 'dsk_bench_0123456789abcdef',
        'base-url': server.url,
        domain: 'docs.example.com',
        path: join(temp, 'site')
      },
      { folder: temp, temp: join(temp, 'runner-temp'), workspace: temp }
    )
    // The baseline connects the way a script that only sends a byte would: nothing else loaded.
    const connect =
      `const s = require('net').connect(${server.port}, '127.0.0.1', () => s.write('x')); ` + "s.on('error', () => {})"
    const action = (): Promise<number> => timeToFirstByte(server, node, [DIST_ENTRY], env)
    const nodeOnly = (): Promise<number> => timeToFirstByte(server, node, ['-e', connect], env)
    await action()
    await nodeOnly()
    const actionMs: number[] = []
    const nodeMs: number[] = []
    for (let i = 0; i < pairs; i++) {
      actionMs.push(await action())
      nodeMs.push(await nodeOnly())
    }
    const differences = actionMs.map((a, i) => a - nodeMs[i]!)
    const differenceMs = median(differences)
    const targetMet = differenceMs <= STARTUP_TARGET_MS
    const dist = await sizeOf(dirname(DIST_ENTRY))
    const range = (v: number[]): string => `${formatMs(Math.min(...v))} - ${formatMs(Math.max(...v))}`
    const markdown = [
      table(
        [`${pairs} pairs, alternating`, 'median', 'range'],
        [
          ['`node -e "<connect, write a byte>"`: spawn to first byte', formatMs(median(nodeMs)), range(nodeMs)],
          ['action, `node dist/index.js`: spawn to first request byte', formatMs(median(actionMs)), range(actionMs)],
          ["**difference** (median of the pairs' differences)", `**${formatMs(differenceMs)}**`, range(differences)]
        ]
      ),
      '',
      `\`dist/\`: ${(dist.bytes / 1024).toFixed(0)} KiB in ${dist.files} files.`,
      '',
      `- Target: start-up <= ${STARTUP_TARGET_MS} ms more than node connecting alone: ` +
        `${mark(targetMet)} — ${formatMs(differenceMs)}`
    ].join('\n')
    return { markdown, differenceMs, targetMet }
  } finally {
    await server.close()
    await rm(temp, { recursive: true, force: true })
  }
}

interface FirstByteServer {
  url: string
  port: number
  /** Resolves with the arrival time (performance.now()) of the next connection's first byte. */
  nextArrival(): Promise<number>
  close(): Promise<void>
}

async function firstByteServer(): Promise<FirstByteServer> {
  let waiting: ((at: number) => void) | undefined
  const server = net.createServer((socket) => {
    socket.once('data', () => {
      const at = performance.now()
      socket.destroy()
      waiting?.(at)
      waiting = undefined
    })
    socket.on('error', () => {})
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    nextArrival: () => new Promise((resolve) => (waiting = resolve)),
    close: () => new Promise((resolve) => server.close(() => resolve()))
  }
}

async function timeToFirstByte(
  server: FirstByteServer,
  node: string,
  args: string[],
  env: NodeJS.ProcessEnv
): Promise<number> {
  const arrival = server.nextArrival()
  const started = performance.now()
  const child = spawn(node, args, { env, stdio: ['ignore', 'pipe', 'pipe'] })
  let printed = ''
  child.stdout!.setEncoding('utf8').on('data', (s: string) => (printed += s))
  child.stderr!.setEncoding('utf8').on('data', (s: string) => (printed += s))
  const exited = exitOf(child)
  const first = await Promise.race([arrival, exited.then((): undefined => undefined), timeout(20_000)])
  child.kill('SIGKILL')
  await exited
  if (first === undefined)
    throw new Error(`\`node ${args[0]}\` sent nothing (exit ${child.exitCode}):\n${printed.slice(0, 2000)}`)
  return first - started
}

function exitOf(child: ChildProcess): Promise<void> {
  return new Promise((resolve, reject) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve()
    child.once('exit', () => resolve())
    child.once('error', reject)
  })
}

function timeout(ms: number): Promise<undefined> {
  return new Promise((resolve) => setTimeout(() => resolve(undefined), ms).unref())
}

async function sizeOf(dir: string): Promise<{ bytes: number; files: number }> {
  let bytes = 0
  let files = 0
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile()) continue
    bytes += (await stat(join(entry.parentPath, entry.name))).size
    files++
  }
  return { bytes, files }
}
