// Runs the built action (dist/index.js) the way the GitHub runner does: inputs as INPUT_*
// variables (hyphens kept, e.g. INPUT_API-KEY), outputs and summary through files. Used by the
// end-to-end tests and the demo.
import { spawn } from 'node:child_process'
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import * as os from 'node:os'
import * as path from 'node:path'
import { fileURLToPath } from 'node:url'

export const DIST_ENTRY = fileURLToPath(new URL('../../dist/index.js', import.meta.url))

export interface DistRun {
  exitCode: number | null
  signal: NodeJS.Signals | null
  stdout: string
  stderr: string
  outputs: Record<string, string>
  summary: string
  /** Milliseconds from spawn to exit. */
  wallMs: number
}

export interface RunDistOptions {
  inputs: Record<string, string>
  /** Extra environment (GITHUB_WORKSPACE, RUNNER_TEMP, event variables...). */
  env?: Record<string, string>
  /** Folder for the GITHUB_OUTPUT and GITHUB_STEP_SUMMARY files (a temp folder by default). */
  filesDir?: string
  /** Called with the child process once spawned (e.g. to send it SIGINT). */
  onSpawn?: (child: import('node:child_process').ChildProcess) => void
  timeoutMs?: number
}

export async function runDist(options: RunDistOptions): Promise<DistRun> {
  const ownFolder = options.filesDir === undefined
  const filesDir = options.filesDir ?? (await mkdtemp(path.join(os.tmpdir(), 'docs-admin-run-')))
  const outputFile = path.join(filesDir, 'github_output')
  const summaryFile = path.join(filesDir, 'step_summary')
  await writeFile(outputFile, '')
  await writeFile(summaryFile, '')
  const inherited = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('INPUT_') && !name.startsWith('GITHUB_')))
  const env: NodeJS.ProcessEnv = {
    ...inherited,
    GITHUB_OUTPUT: outputFile,
    GITHUB_STEP_SUMMARY: summaryFile,
    ...options.env
  }
  for (const [name, value] of Object.entries(options.inputs)) env[`INPUT_${name.toUpperCase()}`] = value
  const started = performance.now()
  const child = spawn(process.execPath, [DIST_ENTRY], { env, stdio: ['ignore', 'pipe', 'pipe'] })
  options.onSpawn?.(child)
  let stdout = ''
  let stderr = ''
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk))
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk))
  const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 60_000)
  const [exitCode, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((resolve) => child.on('close', (code, sig) => resolve([code, sig])))
  clearTimeout(timer)
  const wallMs = performance.now() - started
  const outputs = parseOutputFile(await readFile(outputFile, 'utf8'))
  const summary = await readFile(summaryFile, 'utf8')
  if (ownFolder) await rm(filesDir, { recursive: true, force: true })
  return { exitCode, signal, stdout, stderr, outputs, summary, wallMs }
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
export const OWN_COMMANDS: ReadonlySet<string> = new Set(['add-mask', 'group', 'endgroup', 'debug', 'error', 'warning'])
