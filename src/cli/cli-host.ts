/**
 * The Host outside GitHub: inputs from the command line, outputs printed at the end (name=value
 * lines or JSON on stdout), the log on stderr with secrets redacted, a progress line kept in place
 * on a terminal, no workflow commands anywhere, and an exit code that says how the run ended.
 */
import type { Writable } from 'node:stream'
import { githubOnDemand } from '../action/github-on-demand.js'
import type { FailureKind, GitHubApi, Host, RunnerEvent, RunnerVariable } from '../action/host.js'
import { type InputName, OPERATIONS } from '../action/inputs.js'
import type { OutputName } from '../action/outputs.js'
import { resumeHint } from '../action/resume.js'
import { cancelOnSignals } from '../common/cancellation.js'
import type { Logger } from '../common/log.js'
import { plainLogLines, redact } from '../common/text.js'
import { EXIT_CODES } from './exit-codes.js'
import { inTerminalTerms } from './terms.js'

export interface Terminal {
  stdout: Writable
  stderr: Writable & { isTTY?: boolean }
  env: Readonly<Record<string, string | undefined>>
}

/** How every error the CLI prints starts, a bad command line's too. */
export const ERROR_PREFIX = 'error: '

export class CliHost implements Host {
  readonly log: Logger
  readonly cancelled: AbortSignal
  /** A CI system other than GitHub's has no tool cache of the runner's. */
  readonly toolCache = undefined
  private readonly outputs = new Map<OutputName, string>()
  private readonly secrets = new Set<string>()
  private failure: { message: string; kind: FailureKind } | undefined
  /** A progress line is standing on the terminal and the next line must clear it first. */
  private progressShown = false

  constructor(
    private readonly inputs: Partial<Record<InputName, string>>,
    private readonly terminal: Terminal,
    cancellation: AbortSignal = cancelOnSignals(() => {
      this.write(`${ERROR_PREFIX}${inTerminalTerms(this.stoppedLate())}`)
      process.exit(EXIT_CODES.cancelled)
    })
  ) {
    this.cancelled = cancellation
    const debug = terminal.env.DOCS_ADMIN_DEBUG === '1'
    this.log = {
      debug: (message) => debug && this.write(`debug: ${message}`),
      info: (message) => this.write(message),
      warning: (message) => this.write(`warning: ${inTerminalTerms(message)}`),
      notice: (message) => this.write(`notice: ${message}`),
      progress: (message) => this.progress(message),
      group: async (title, fn) => {
        this.write(`▸ ${title}`)
        return fn()
      }
    }
  }

  getInput(name: InputName): string {
    return this.inputs[name] ?? ''
  }

  setOutput(name: OutputName, value: string): void {
    this.outputs.set(name, value)
  }

  setSecret(secret: string): void {
    this.secrets.add(secret)
  }

  setFailed(message: string, kind: FailureKind): void {
    this.failure = { message, kind }
    this.write(`${ERROR_PREFIX}${inTerminalTerms(message)}`)
  }

  /** A CLI has no job summary page: what it would show is in the log and the outputs. */
  async appendSummary(): Promise<void> {}

  env(name: RunnerVariable): string | undefined {
    // The runner's own folders are a runner's: here relative paths start in the current folder.
    if (name === 'GITHUB_WORKSPACE' || name === 'RUNNER_TEMP') return undefined
    return this.terminal.env[name] || undefined
  }

  /** No GitHub event starts a CLI run. */
  async event(): Promise<RunnerEvent> {
    return { name: undefined, payload: {} }
  }

  async github(token: string): Promise<GitHubApi> {
    const apiUrl = this.terminal.env.GITHUB_API_URL || undefined
    return githubOnDemand(async () => (await import('../action/octokit.js')).createGitHubApi(token, apiUrl))
  }

  /** Prints the outputs (all of them, also after a failure) and says how to exit. */
  finish(json: boolean): number {
    this.endProgress()
    const outputs = Object.fromEntries(this.outputs)
    const text = json
      ? `${JSON.stringify(outputs)}\n`
      : Object.entries(outputs)
          .map(([name, value]) => `${name}=${value.replace(/\\/g, '\\\\').replace(/\r?\n/g, '\\n')}\n`)
          .join('')
    this.terminal.stdout.write(text)
    return EXIT_CODES[this.failure?.kind ?? 'ok']
  }

  /** A cancelled run that hangs is ended without its own message: this one still says how to go on. */
  private stoppedLate(): string {
    const stopped = 'The run was cancelled and did not stop in time.'
    const operation = OPERATIONS.find((known) => known === this.inputs.operation)
    const jobId = this.outputs.get('job-id')
    return operation === undefined || !jobId ? stopped : `${stopped} ${resumeHint(operation, jobId)}`
  }

  /**
   * One line of the log, secrets redacted; a standing progress line is cleared first. No line can
   * be taken for a command of the CI system the CLI runs in, or carry a terminal escape.
   */
  private write(line: string): void {
    this.endProgress()
    this.terminal.stderr.write(`${plainLogLines(redact(line, this.secrets))}\n`)
  }

  private progress(message: string): void {
    if (!this.terminal.stderr.isTTY) return this.write(message)
    // Rewrite the line in place: carriage return, the text, erase to the end of the line.
    this.terminal.stderr.write(`\r${plainLogLines(redact(message, this.secrets))}\u001b[K`)
    this.progressShown = true
  }

  private endProgress(): void {
    if (!this.progressShown) return
    this.progressShown = false
    this.terminal.stderr.write('\n')
  }
}
