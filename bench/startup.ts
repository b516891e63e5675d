/**
 * Start-up, per operation: from spawning `node dist/index.js` (with the environment a runner gives
 * it) to the first byte of its first API request at a local TCP server, minus the same measure for
 * `node -e "<connect to the server and write a byte>"`, so that both pay for starting node and
 * for connecting, and the difference is what the action adds before its first request. Each
 * operation loads what it uses (its flow, and for the agent the GitHub client): export, deploy and
 * agent (a prompt, no comment event) are measured apart.
 *
 * They alternate (node, export, deploy, agent, node, ..., after one untimed round that warms the
 * page cache); every round gives each operation one difference from that round's node, and the
 * result is the median of the differences. The server drops each connection at its first byte and
 * the child is killed: nothing is answered. The request line is checked, so that an operation that
 * called GitHub, or the wrong route, first cannot pass for a fast start. One untimed run of each
 * operation, with module hooks that list what node loads, says which files of dist/ it loaded first.
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { mkdtemp, readFile, readdir, rm, stat } from 'node:fs/promises'
import net from 'node:net'
import type { AddressInfo } from 'node:net'
import os from 'node:os'
import { basename, dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { DIST_ENTRY } from '../test/support/runner.js'
import { runnerEnv } from './action-env.js'
import { median } from './measure.js'
import { formatMs, mark, table } from './report.js'

/** The issue's bound: no target beyond it. */
export const STARTUP_TARGET_MS = 100

const API_KEY = 'dsk_bench_0123456789abcdef'
/** Registered with `--import`, it lists the files node loads (untimed runs only: the hooks cost time). */
const RECORD_LOADS = join(dirname(fileURLToPath(import.meta.url)), 'record-loads.mjs')

/** An operation: its inputs beside `api-key` and `base-url`, and how its first request starts. */
export interface Operation {
  name: 'export' | 'deploy' | 'agent'
  inputs: Record<string, string>
  firstRequest: string
}

export const OPERATIONS: readonly Operation[] = [
  {
    name: 'export',
    inputs: { operation: 'export', domain: 'docs.example.com' },
    firstRequest: 'POST /v1/static-export/jobs '
  },
  {
    name: 'deploy',
    inputs: { operation: 'deploy', 'project-id': 'proj_bench' },
    firstRequest: 'POST /v1/project/update/proj_bench '
  },
  {
    name: 'agent',
    inputs: { operation: 'agent', 'project-id': 'proj_bench', prompt: 'Fix the typos in the quick start.' },
    firstRequest: 'POST /v2/agent/proj_bench/job '
  }
]

/** A file of dist/ an operation loaded before its first request. */
export interface LoadedFile {
  name: string
  bytes: number
}

export interface StartupResult {
  markdown: string
  /** Per operation, the files of dist/ loaded before the first request, in load order. */
  loaded: Record<string, LoadedFile[]>
  /** Per operation, the median difference to node alone. */
  differenceMs: Record<string, number>
  targetMet: boolean
}

/** `node`: the node binary that runs both the action and the baseline. */
export async function runStartupBench(rounds: number, node: string): Promise<StartupResult> {
  await stat(DIST_ENTRY).catch(() => {
    throw new Error('dist/index.js is missing: build it with `npm run bundle` first')
  })
  const temp = await mkdtemp(join(os.tmpdir(), 'bench-startup-'))
  const server = await firstByteServer()
  try {
    const envs = await Promise.all(OPERATIONS.map((op) => operationEnv(op, server, join(temp, op.name))))
    // The baseline connects the way a script that only sends a byte would: nothing else loaded.
    const connect =
      `const s = require('net').connect(${server.port}, '127.0.0.1', () => s.write('x')); ` + "s.on('error', () => {})"
    const nodeOnly = (): Promise<number> => timeToFirstByte(server, node, ['-e', connect], envs[0]!, undefined)
    const action = (i: number): Promise<number> =>
      timeToFirstByte(server, node, [DIST_ENTRY], envs[i]!, OPERATIONS[i]!.firstRequest)
    // Untimed: warms the page cache, and says what each operation loads.
    await nodeOnly()
    const loaded: Record<string, LoadedFile[]> = {}
    for (const [i, op] of OPERATIONS.entries()) loaded[op.name] = await filesLoaded(server, node, envs[i]!, op, temp)
    const nodeMs: number[] = []
    const actionMs: number[][] = OPERATIONS.map(() => [])
    for (let round = 0; round < rounds; round++) {
      nodeMs.push(await nodeOnly())
      for (let i = 0; i < OPERATIONS.length; i++) actionMs[i]!.push(await action(i))
    }
    const differences = actionMs.map((times) => times.map((a, round) => a - nodeMs[round]!))
    const differenceMs = Object.fromEntries(OPERATIONS.map((op, i) => [op.name, median(differences[i]!)]))
    const targetMet = Object.values(differenceMs).every((ms) => ms <= STARTUP_TARGET_MS)
    const dist = await sizeOf(dirname(DIST_ENTRY))
    const range = (v: number[]): string => `${formatMs(Math.min(...v))} - ${formatMs(Math.max(...v))}`
    const markdown = [
      table(
        [
          `${rounds} rounds, alternating`,
          'spawn to first request byte: median',
          'range',
          'over node alone: median',
          'range'
        ],
        [
          ['`node -e "<connect, write a byte>"`', formatMs(median(nodeMs)), range(nodeMs), '-', '-'],
          ...OPERATIONS.map((op, i) => [
            `\`node dist/index.js\`, \`operation: ${op.name}\``,
            formatMs(median(actionMs[i]!)),
            range(actionMs[i]!),
            `**${formatMs(differenceMs[op.name]!)}**`,
            range(differences[i]!)
          ])
        ]
      ),
      '',
      `\`dist/\`: ${(dist.bytes / 1024).toFixed(0)} KiB in ${dist.files} files. Loaded before the first request:`,
      '',
      ...OPERATIONS.map((op) => {
        const files = loaded[op.name]!
        const kib = (bytes: number): string => `${(bytes / 1024).toFixed(0)} KiB`
        const total = files.reduce((sum, f) => sum + f.bytes, 0)
        return `- ${op.name}: ${kib(total)}: ${files.map((f) => `${f.name} (${kib(f.bytes)})`).join(', ')}`
      }),
      '',
      `- Target: start-up <= ${STARTUP_TARGET_MS} ms more than node connecting alone, every operation: ` +
        `${mark(targetMet)} — ${OPERATIONS.map((op) => `${op.name} ${formatMs(differenceMs[op.name]!)}`).join(', ')}`
    ].join('\n')
    return { markdown, loaded, differenceMs, targetMet }
  } finally {
    await server.close()
    await rm(temp, { recursive: true, force: true })
  }
}

/**
 * The files of dist/ that `op` loads before its first request, in load order; the run is checked as a timed one is.
 */
export async function loadedBeforeFirstRequest(op: Operation, node: string): Promise<LoadedFile[]> {
  const temp = await mkdtemp(join(os.tmpdir(), 'bench-startup-'))
  const server = await firstByteServer()
  try {
    return await filesLoaded(server, node, await operationEnv(op, server, join(temp, op.name)), op, temp)
  } finally {
    await server.close()
    await rm(temp, { recursive: true, force: true })
  }
}

async function filesLoaded(
  server: FirstByteServer,
  node: string,
  env: NodeJS.ProcessEnv,
  op: Operation,
  temp: string
): Promise<LoadedFile[]> {
  const list = join(temp, `${op.name}-loaded.txt`)
  await rm(list, { force: true })
  await timeToFirstByte(
    server,
    node,
    ['--import', RECORD_LOADS, DIST_ENTRY],
    { ...env, RECORD_LOADS_TO: list },
    op.firstRequest
  )
  const dist = dirname(DIST_ENTRY)
  const files = (await readFile(list, 'utf8'))
    .split('\n')
    .filter((url) => url !== '')
    .map((url) => fileURLToPath(url))
    .filter((file) => dirname(file) === dist)
  return Promise.all(
    [...new Set(files)].map(async (file) => ({ name: basename(file), bytes: (await stat(file)).size }))
  )
}

/** The runner's environment for `op`, its requests to `server`. */
async function operationEnv(op: Operation, server: FirstByteServer, folder: string): Promise<NodeJS.ProcessEnv> {
  const inputs = { ...op.inputs, 'api-key': API_KEY, 'base-url': server.url, path: join(folder, 'site') }
  const { env } = await runnerEnv(inputs, { folder, temp: join(folder, 'runner-temp'), workspace: folder })
  // GitHub's API is the same server: a call to it before the service's would be caught, not sent out.
  return { ...env, GITHUB_API_URL: server.url }
}

interface FirstByteServer {
  url: string
  port: number
  /** Resolves with the arrival time (performance.now()) of the next connection's first bytes, and what they say. */
  nextArrival(): Promise<{ at: number; text: string }>
  close(): Promise<void>
}

async function firstByteServer(): Promise<FirstByteServer> {
  let waiting: ((arrival: { at: number; text: string }) => void) | undefined
  const server = net.createServer((socket) => {
    socket.once('data', (data: Buffer) => {
      const at = performance.now()
      socket.destroy()
      waiting?.({ at, text: data.toString('latin1') })
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

/** `firstRequest`: how the first bytes must start (the request line), when they are a request. */
async function timeToFirstByte(
  server: FirstByteServer,
  node: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  firstRequest: string | undefined
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
  if (firstRequest !== undefined && !first.text.startsWith(firstRequest)) {
    const line = first.text.split('\r\n')[0]
    throw new Error(`\`node ${args[0]}\` sent ${JSON.stringify(line)} first, not ${JSON.stringify(firstRequest)}`)
  }
  return first.at - started
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
