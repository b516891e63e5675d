/**
 * The archivers of the outside world, as the differential suite runs them: GNU tar, bsdtar, Info-ZIP
 * zip and unzip, python3. A missing one fails the suite naming the Debian package that brings it,
 * so that a machine without it cannot pass by skipping what it cannot judge.
 */
import { spawn } from 'node:child_process'
import { closeSync, openSync } from 'node:fs'

export interface Tool {
  command: string
  /** What `--version` (or `-v`) prints when it is the right tool: GNU tar, not busybox's or bsdtar. */
  versionArgs: string[]
  looksRight: RegExp
  debianPackage: string
}

export const TOOLS: readonly Tool[] = [
  { command: 'tar', versionArgs: ['--version'], looksRight: /GNU tar/, debianPackage: 'tar' },
  { command: 'bsdtar', versionArgs: ['--version'], looksRight: /libarchive/, debianPackage: 'libarchive-tools' },
  { command: 'zip', versionArgs: ['-v'], looksRight: /Info-ZIP/, debianPackage: 'zip' },
  { command: 'unzip', versionArgs: ['-v'], looksRight: /UnZip/, debianPackage: 'unzip' },
  { command: 'python3', versionArgs: ['--version'], looksRight: /Python 3/, debianPackage: 'python3' }
]

/** Throws naming every missing or wrong tool and its package (on CI, `.ci/run` installs them). */
export async function requireTools(tools: readonly Tool[] = TOOLS): Promise<void> {
  const missing: string[] = []
  for (const tool of tools) {
    const run = await runTool(tool.command, tool.versionArgs).catch((error: Error) => ({ error }))
    const text = 'error' in run ? '' : `${run.stdout.toString()}${run.stderr}`
    if (!tool.looksRight.test(text)) missing.push(`${tool.command} (Debian package ${tool.debianPackage})`)
  }
  if (missing.length > 0) {
    throw new Error(
      `The differential suite needs ${missing.join(', ')}: install ${missing.length > 1 ? 'them' : 'it'} ` +
        '(apt-get install zip unzip libarchive-tools python3); the suite never skips a case for want of a tool.'
    )
  }
}

export interface ToolRun {
  code: number | null
  stdout: Buffer
  stderr: string
}

export interface ToolOptions {
  cwd?: string
  /** Added to this process's environment. */
  env?: Record<string, string>
  /** Written to the tool's standard input (a pipe). */
  input?: Buffer | string
  /** A file to be the tool's standard input instead (a regular file: its size known). */
  inputFile?: string
}

/** Runs a command to its end; stdout as bytes, through a pipe (a zip written to it streams). */
export function runTool(command: string, args: readonly string[], options: ToolOptions = {}): Promise<ToolRun> {
  return new Promise((resolve, reject) => {
    const stdin = options.inputFile === undefined ? 'pipe' : openSync(options.inputFile, 'r')
    const child = spawn(command, args, {
      cwd: options.cwd,
      env: { ...process.env, ...options.env },
      stdio: [stdin, 'pipe', 'pipe']
    })
    if (typeof stdin === 'number') closeSync(stdin)
    const stdout: Buffer[] = []
    let stderr = ''
    child.stdout?.on('data', (chunk: Buffer) => stdout.push(chunk))
    child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk))
    child.on('error', reject)
    child.on('close', (code) => resolve({ code, stdout: Buffer.concat(stdout), stderr }))
    child.stdin?.on('error', () => undefined)
    child.stdin?.end(options.input)
  })
}

/** Runs a command that must succeed (exit 0), and returns its standard output. */
export async function mustRun(command: string, args: readonly string[], options: ToolOptions = {}): Promise<Buffer> {
  const run = await runTool(command, args, options)
  if (run.code !== 0) throw new Error(`${command} ${args.join(' ')} exited with ${run.code}: ${run.stderr}`)
  return run.stdout
}
