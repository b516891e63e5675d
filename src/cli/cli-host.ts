/**
 * The Host outside GitHub: inputs from the command line, outputs printed at the end (name=value
 * lines or JSON on stdout), the log on stderr with secrets redacted, a progress line kept in place
 * on a terminal, no workflow commands anywhere, and an exit code that says how the run ended.
 */
import type { Writable } from 'node:stream'
import { githubOnDemand } from '../action/github-on-demand.js'
import type { FailureKind, GitHubApi, Host, RunnerEvent, RunnerVariable } from '../action/host.js'
import { type InputName, OPERATIONS } from '../action/inputs.js'
import type { OutputName, OutputValue } from '../action/outputs.js'
import { resumeHint } from '../action/resume.js'
import { cancelOnSignals } from '../common/cancellation.js'
import type { Logger } from '../common/log.js'
import { Secrets } from '../common/secrets.js'
import { plainLogLines } from '../common/text.js'
import { EXIT_CODES } from './exit-codes.js'
import { inTerminalTerms } from './terms.js'

export interface Terminal {
  stdout: Writable
  stderr: Writable & { isTTY?: boolean }
  env: Readonly<Record<string, string | undefined>>
}

/** How every line of an error the CLI prints starts, a bad command line's too. */
export const ERROR_PREFIX = 'error: '

/** `message` with every line of it starting with `prefix`: a reader (or a grep) sees what each line is. */
export function prefixLines(prefix: string, message: string): string {
  return message
    .split(/\r?\n/)
    .map((line) => `${prefix}${line}`)
    .join('\n')
}

export class CliHost implements Host {
  readonly log: Logger
  readonly cancelled: AbortSignal
  /** A CI system other than GitHub's has no tool cache of the runner's. */
  readonly toolCache = undefined
  private readonly outputs = new Map<OutputName, OutputValue>()
  private readonly secrets = new Secrets()
  private failure: { message: string; kind: FailureKind } | undefined
  /** A progress line is standing on the terminal and the next line must clear it first. */
  private progressShown = false

  constructor(
    private readonly inputs: Partial<Record<InputName, string>>,
    private readonly terminal: Terminal,
    cancellation: AbortSignal = cancelOnSignals(() => {
      this.write(inTerminalTerms(this.stoppedLate()), ERROR_PREFIX)
      process.exit(EXIT_CODES.cancelled)
    })
  ) {
    this.cancelled = cancellation
    const debug = terminal.env.DOCS_ADMIN_DEBUG === '1'
    this.log = {
      debug: (message) => debug && this.write(message, 'debug: '),
      info: (message) => this.write(message),
      warning: (message) => this.write(inTerminalTerms(message), 'warning: '),
      notice: (message) => this.write(message, 'notice: '),
      progress: (message) => this.progress(message),
      group: async (title, fn) => {
        this.write(`▸ ${title}`)
        return fn()
      }
    }
  }

  getInput(name: InputName): string | undefined {
    return this.inputs[name]
  }

  setOutput(name: OutputName, value: OutputValue): void {
    this.outputs.set(name, value)
  }

  setSecret(secret: string): void {
    this.secrets.add(secret)
  }

  setFailed(message: string, kind: FailureKind): void {
    this.failure = { message, kind }
    this.write(inTerminalTerms(message), ERROR_PREFIX)
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

  /**
   * Prints the outputs (all of them, also after a failure) and says how to exit. In JSON a count
   * is a number and a yes or no a boolean, as they were set; as lines, every value is its text.
   */
  finish(json: boolean): number {
    this.endProgress()
    const outputs = Object.fromEntries(this.outputs)
    const text = json
      ? `${JSON.stringify(outputs)}\n`
      : Object.entries(outputs)
          .map(([name, value]) => `${name}=${String(value).replace(/\\/g, '\\\\').replace(/\r?\n/g, '\\n')}\n`)
          .join('')
    this.terminal.stdout.write(text)
    return EXIT_CODES[this.failure?.kind ?? 'ok']
  }

  /** A cancelled run that hangs is ended without its own message: this one still says how to go on. */
  private stoppedLate(): string {
    const stopped = 'The run was cancelled and did not stop in time.'
    const operation = OPERATIONS.find((known) => known === this.inputs.operation)
    const jobId = String(this.outputs.get('job-id') ?? '')
    return operation === undefined || jobId === '' ? stopped : `${stopped} ${resumeHint(operation, jobId)}`
  }

  /**
   * One entry of the log, secrets redacted, each of its lines after `prefix` (`error: `); a standing
   * progress line is cleared first. No line can be taken for a command of the CI system the CLI
   * runs in, or carry a terminal escape.
   */
  private write(line: string, prefix = ''): void {
    this.endProgress()
    this.terminal.stderr.write(`${prefixLines(prefix, plainLogLines(this.secrets.redact(line)))}\n`)
  }

  private progress(message: string): void {
    if (!this.terminal.stderr.isTTY) return this.write(message)
    // Rewrite the line in place: carriage return, the text, erase to the end of the line.
    this.terminal.stderr.write(`\r${plainLogLines(this.secrets.redact(message))}\u001b[K`)
    this.progressShown = true
  }

  private endProgress(): void {
    if (!this.progressShown) return
    this.progressShown = false
    this.terminal.stderr.write('\n')
  }
}
