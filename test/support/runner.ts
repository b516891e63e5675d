// Runs what users run, the built files in dist/, as they are run:
// - runDist: the action, as the GitHub runner does: inputs as INPUT_* variables (hyphens kept,
//   e.g. INPUT_API-KEY), outputs and summary through files, the event payload in a file.
// - runCli: the docs-admin CLI, as a CI script does: the operation and flags on the command line,
//   the key in DOCS_ADMIN_API_KEY, the outputs as JSON on stdout.
// Used by the end-to-end tests and the demo.
import { type ChildProcess, spawn } from 'node:child_process'
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import * as os from 'node:os'
import * as path from 'node:path'
import { fileURLToPath } from 'node:url'

export const DIST_ENTRY = fileURLToPath(new URL('../../dist/index.js', import.meta.url))
export const CLI_ENTRY = fileURLToPath(new URL('../../dist/cli.js', import.meta.url))

/**
 * The runner's masking as a test sees it: each value the step registered, replaced where it stands
 * as written, the longest first. (The runner knows no line break inside a secret: it masks line by line.)
 */
export function maskedByRunner(text: string, registered: Iterable<string>): string {
  const longestFirst = [...registered].filter((value) => value !== '').sort((a, b) => b.length - a.length)
  return longestFirst.reduce((out, value) => out.split(value).join('***'), text)
}

export interface ProcessRun {
  exitCode: number | null
  signal: NodeJS.Signals | null
  stdout: string
  stderr: string
  /** Milliseconds from spawn to exit. */
  wallMs: number
}

export interface DistRun extends ProcessRun {
  outputs: Record<string, string>
  summary: string
}

interface SpawnOptions {
  /** Called with the child process once spawned (e.g. to send it SIGINT). */
  onSpawn?: (child: ChildProcess) => void
  timeoutMs?: number
}

export interface RunDistOptions extends SpawnOptions {
  inputs: Record<string, string>
  /** Extra environment (GITHUB_WORKSPACE, RUNNER_TEMP, GITHUB_REPOSITORY, ...). */
  env?: Record<string, string>
  /** The event that starts the run: its payload goes to a file, as the runner writes it. */
  event?: { name: string; payload: unknown }
  /** Folder for the GITHUB_OUTPUT, GITHUB_STEP_SUMMARY and event files (a temp folder by default). */
  filesDir?: string
}

export async function runDist(options: RunDistOptions): Promise<DistRun> {
  const ownFolder = options.filesDir === undefined
  const filesDir = options.filesDir ?? (await mkdtemp(path.join(os.tmpdir(), 'docs-admin-run-')))
  const outputFile = path.join(filesDir, 'github_output')
  const summaryFile = path.join(filesDir, 'step_summary')
  await writeFile(outputFile, '')
  await writeFile(summaryFile, '')
  const env: NodeJS.ProcessEnv = { ...cleanEnvironment(), GITHUB_OUTPUT: outputFile, GITHUB_STEP_SUMMARY: summaryFile }
  if (options.event !== undefined) {
    const eventFile = path.join(filesDir, 'event.json')
    await writeFile(eventFile, JSON.stringify(options.event.payload, null, 2))
    Object.assign(env, { GITHUB_EVENT_NAME: options.event.name, GITHUB_EVENT_PATH: eventFile })
  }
  Object.assign(env, options.env)
  for (const [name, value] of Object.entries(options.inputs)) env[`INPUT_${name.toUpperCase()}`] = value
  const run = await spawnEntry(DIST_ENTRY, [], env, undefined, options)
  const outputs = parseOutputFile(await readFile(outputFile, 'utf8'))
  const summary = await readFile(summaryFile, 'utf8')
  if (ownFolder) await rm(filesDir, { recursive: true, force: true })
  return { ...run, outputs, summary }
}

export interface RunCliOptions extends SpawnOptions {
  args: string[]
  /** Extra environment (DOCS_ADMIN_API_KEY, DOCS_ADMIN_BASE_URL, ...). */
  env?: Record<string, string>
  /** The folder it runs in. */
  cwd?: string
}

export function runCli(options: RunCliOptions): Promise<ProcessRun> {
  return spawnEntry(CLI_ENTRY, options.args, { ...cleanEnvironment(), ...options.env }, options.cwd, options)
}

/** This process's environment without anything a run could take for its own input. */
function cleanEnvironment(): NodeJS.ProcessEnv {
  return Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !/^(INPUT_|GITHUB_|RUNNER_|DOCS_ADMIN_)/.test(name))
  )
}

function spawnEntry(
  entry: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  cwd: string | undefined,
  options: SpawnOptions
): Promise<ProcessRun> {
  return spawnCommand(process.execPath, [entry, ...args], env, cwd, options)
}

/** Runs `command` (an installed executable, say) and collects what it printed, without blocking this process. */
export async function spawnCommand(
  command: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  cwd: string | undefined,
  options: SpawnOptions = {}
): Promise<ProcessRun> {
  const started = performance.now()
  const child = spawn(command, args, { env, cwd, stdio: ['ignore', 'pipe', 'pipe'] })
  options.onSpawn?.(child)
  let stdout = ''
  let stderr = ''
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk))
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk))
  const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 60_000)
  const [exitCode, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((resolve) =>
    child.on('close', (code, sig) => resolve([code, sig]))
  )
  clearTimeout(timer)
  return { exitCode, signal, stdout, stderr, wallMs: performance.now() - started }
}

/** Reads a GITHUB_OUTPUT file: `name<<DELIMITER` blocks (as @actions/core writes) or `name=value` lines. */
export function parseOutputFile(text: string): Record<string, string> {
  const outputs: Record<string, string> = {}
  const lines = text.split('\n')
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? ''
    const heredoc = /^([^=<]+)<<(.+)$/.exec(line)
    if (heredoc) {
      const [, name = '', delimiter] = heredoc
      const value: string[] = []
      while (++i < lines.length && lines[i] !== delimiter) value.push(lines[i] ?? '')
      outputs[name] = value.join('\n')
    } else if (line.includes('=')) {
      const at = line.indexOf('=')
      outputs[line.slice(0, at)] = line.slice(at + 1)
    }
  }
  return outputs
}

/**
 * The runner's reading of one stdout line (actions/runner's ActionCommand): the name of the
 * workflow command it holds, or undefined. A command when the line, its leading white space
 * trimmed (.NET's, which takes in U+0085), starts with `::name` and has a second `::`; or, in the
 * older form, when it holds `##[name` anywhere with a `]` after it.
 */
export function runnerCommand(line: string): string | undefined {
  const trimmed = line.replace(/^[\s\u0085]+/, '')
  if (trimmed.startsWith('::')) {
    const end = trimmed.indexOf('::', 2)
    if (end > 0) return trimmed.slice(2, end).split(' ')[0]
  }
  const at = line.indexOf('##[')
  const close = at < 0 ? -1 : line.indexOf(']', at)
  return close > 0 ? line.slice(at + 3, close).split(' ')[0] : undefined
}

/** Stdout as the runner splits it into lines (at \n, \r and \r\n). */
export function runnerLines(stdout: string): string[] {
  return stdout.split(/\r\n|\r|\n/)
}

/** The workflow commands the action itself issues; any other is one that text from outside smuggled in. */
export const OWN_COMMANDS: ReadonlySet<string> = new Set([
  'add-mask',
  'group',
  'endgroup',
  'debug',
  'error',
  'warning',
  'notice'
])
