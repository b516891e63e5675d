/**
 * Start-up: from spawning `node dist/index.js` (with the INPUT_* variables a runner sets) to the
 * first byte of its first API request at a local server, against `node -e 0` spawn-to-exit,
 * alternating A B A B so both see the same machine state. The request is never answered: the
 * socket is destroyed and the child killed.
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises'
import net from 'node:net'
import type { AddressInfo } from 'node:net'
import os from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { INPUTS } from '../src/action/inputs.js'
import { childEnv, median } from './measure.js'
import { formatMs, mark, table } from './report.js'

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..')
const DIST = join(ROOT, 'dist')
export const STARTUP_TARGET_MS = 60

export interface StartupResult {
  pairs: number
  firstRequestMs: number[]
  nodeOnlyMs: number[]
  differenceMs: number
  targetMet: boolean
  distBytes: number
  distFiles: number
  /** dist/index.js is older than the newest file in src/: it may not be what the sources build. */
  distStale: boolean
  markdown: string
}

export async function runStartupBench(pairs: number): Promise<StartupResult> {
  const entry = join(DIST, 'index.js')
  await stat(entry).catch(() => {
    throw new Error('dist/index.js is missing: build it with `npm run bundle` first')
  })
  const temp = await mkdtemp(join(os.tmpdir(), 'bench-startup-'))
  const server = await firstByteServer()
  try {
    const env = await runnerEnv(temp, server.url)
    // One untimed pair first: both then start from a warm page cache.
    await timeFirstRequest(entry, env, server)
    await timeNodeOnly()
    const firstRequestMs: number[] = []
    const nodeOnlyMs: number[] = []
    for (let i = 0; i < pairs; i++) {
      firstRequestMs.push(await timeFirstRequest(entry, env, server))
      nodeOnlyMs.push(await timeNodeOnly())
    }
    const differenceMs = median(firstRequestMs) - median(nodeOnlyMs)
    const dist = await sizeOf(DIST)
    const distStale = (await stat(entry)).mtimeMs < (await newestMtime(join(ROOT, 'src')))
    const result = { pairs, firstRequestMs, nodeOnlyMs, differenceMs, targetMet: differenceMs <= STARTUP_TARGET_MS, distBytes: dist.bytes, distFiles: dist.files, distStale }
    return { ...result, markdown: render(result) }
  } finally {
    await server.close()
    await rm(temp, { recursive: true, force: true })
  }
}

/** What the runner passes: every input with its action.yml default, the given ones, and the files it provides. */
async function runnerEnv(temp: string, baseUrl: string): Promise<NodeJS.ProcessEnv> {
  const inputs: Record<string, string> = {}
  for (const [name, spec] of Object.entries(INPUTS)) if ('default' in spec) inputs[name] = spec.default
  Object.assign(inputs, {
    operation: 'export',
    'api-key': 'bench-api-key-0123456789',
    'base-url': baseUrl,
    domain: 'docs.example.com',
    'github-token': 'ghs_bench0123456789',
    path: join(temp, 'site')
  })
  const outputFile = join(temp, 'github_output')
  const summaryFile = join(temp, 'step_summary')
  await writeFile(outputFile, '')
  await writeFile(summaryFile, '')
  const inherited = Object.fromEntries(Object.entries(childEnv()).filter(([name]) => !name.startsWith('INPUT_') && !name.startsWith('GITHUB_') && !name.startsWith('RUNNER_')))
  const env: NodeJS.ProcessEnv = { ...inherited, GITHUB_OUTPUT: outputFile, GITHUB_STEP_SUMMARY: summaryFile, GITHUB_WORKSPACE: temp, RUNNER_TEMP: temp }
  // The runner keeps hyphens and upper-cases: INPUT_API-KEY, INPUT_BASE-URL.
  for (const [name, value] of Object.entries(inputs)) env[`INPUT_${name.replace(/ /g, '_').toUpperCase()}`] = value
  return env
}

interface FirstByteServer {
  url: string
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
    nextArrival: () => new Promise((resolve) => (waiting = resolve)),
    close: () => new Promise((resolve) => server.close(() => resolve()))
  }
}

async function timeFirstRequest(entry: string, env: NodeJS.ProcessEnv, server: FirstByteServer): Promise<number> {
  const arrival = server.nextArrival()
  const started = performance.now()
  const child = spawn(process.execPath, [entry], { env, stdio: ['ignore', 'pipe', 'pipe'] })
  let printed = ''
  child.stdout.setEncoding('utf8').on('data', (s: string) => (printed += s))
  child.stderr.setEncoding('utf8').on('data', (s: string) => (printed += s))
  const exited = exitOf(child)
  const first = await Promise.race([arrival, exited.then((): undefined => undefined), timeout(20_000)])
  child.kill('SIGKILL')
  await exited
  if (first === undefined) throw new Error(`dist/index.js sent no request (exit ${child.exitCode}):\n${printed.slice(0, 2000)}`)
  return first - started
}

async function timeNodeOnly(): Promise<number> {
  const started = performance.now()
  const child = spawn(process.execPath, ['-e', '0'], { env: childEnv(), stdio: 'ignore' })
  await exitOf(child)
  return performance.now() - started
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

async function newestMtime(dir: string): Promise<number> {
  let newest = 0
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) newest = Math.max(newest, (await stat(join(entry.parentPath, entry.name))).mtimeMs)
  }
  return newest
}

function render(r: Omit<StartupResult, 'markdown'>): string {
  const min = (v: number[]): string => formatMs(Math.min(...v))
  const max = (v: number[]): string => formatMs(Math.max(...v))
  const rows = [
    ['`node -e 0` (spawn to exit)', formatMs(median(r.nodeOnlyMs)), `${min(r.nodeOnlyMs)} - ${max(r.nodeOnlyMs)}`],
    ['action: `node dist/index.js` (spawn to first request byte)', formatMs(median(r.firstRequestMs)), `${min(r.firstRequestMs)} - ${max(r.firstRequestMs)}`],
    ['difference (medians)', formatMs(r.differenceMs), '']
  ]
  const lines = [
    table([`${r.pairs} pairs, alternating`, 'median', 'range'], rows),
    '',
    `\`dist/\`: ${(r.distBytes / 1024).toFixed(0)} KiB in ${r.distFiles} files.${r.distStale ? ' (dist/index.js was older than the newest source file: rebuild with `npm run bundle`.)' : ''}`,
    '',
    `- Target: start-up to first request <= ${STARTUP_TARGET_MS} ms more than \`node -e 0\` (median of ${r.pairs}): ${mark(r.targetMet)} — ${r.differenceMs.toFixed(0)} ms${r.targetMet ? '' : `, ${(r.differenceMs - STARTUP_TARGET_MS).toFixed(0)} ms over`}`
  ]
  return lines.join('\n')
}
