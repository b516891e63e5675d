/**
 * The one fake of the runner: a Host that takes its inputs and environment from the test and
 * records everything the action gives back (outputs, secrets, the failure, log lines, the
 * summary). The event is read from a payload file and GitHub is reached over HTTP exactly as on
 * a runner, through the same code, so only the runner itself is faked.
 */
import { readRunnerEvent } from '../../src/action/event.js'
import { copyFile, mkdir, readdir, rm, stat, utimes, writeFile } from 'node:fs/promises'
import * as path from 'node:path'
import type { FailureKind, GitHubApi, Host, RunnerEvent, RunnerVariable, ToolCache } from '../../src/action/host.js'
import type { InputName } from '../../src/action/inputs.js'
import type { OutputName, OutputValue } from '../../src/action/outputs.js'
import type { Logger } from '../../src/common/log.js'

export type Inputs = Partial<Record<InputName, string>>

/** GITHUB_* and RUNNER_* variables, including GITHUB_EVENT_NAME/PATH and GITHUB_API_URL. */
export type RunnerEnv = Partial<
  Record<RunnerVariable | 'GITHUB_EVENT_NAME' | 'GITHUB_EVENT_PATH' | 'GITHUB_API_URL', string>
>

export interface RecordingLogger extends Logger {
  /** Every line so far, prefixed with its level: `info: ...`, `warning: ...`, `notice: ...`, `group: ...`. */
  readonly lines: string[]
  text(): string
}

export function recordingLogger(): RecordingLogger {
  const lines: string[] = []
  return {
    lines,
    debug: (message) => void lines.push(`debug: ${message}`),
    info: (message) => void lines.push(`info: ${message}`),
    warning: (message) => void lines.push(`warning: ${message}`),
    notice: (message) => void lines.push(`notice: ${message}`),
    progress: (message) => void lines.push(`progress: ${message}`),
    group: async (title, fn) => {
      lines.push(`group: ${title}`)
      return fn()
    },
    text: () => lines.join('\n')
  }
}

export class FakeHost implements Host {
  readonly outputs = new Map<OutputName, string>()
  readonly secrets: string[] = []
  readonly log = recordingLogger()
  /** The message the step failed with; undefined while it has not failed. */
  failure: string | undefined
  failureKind: FailureKind | undefined
  summary = ''
  private readonly cancellation = new AbortController()

  readonly toolCache: ToolCache | undefined

  constructor(
    private readonly inputs: Inputs,
    private readonly variables: RunnerEnv = {},
    /** A folder that plays the runner's tool cache (RUNNER_TOOL_CACHE). */
    toolCacheDir?: string
  ) {
    this.toolCache = toolCacheDir === undefined ? undefined : folderToolCache(toolCacheDir)
  }

  get cancelled(): AbortSignal {
    return this.cancellation.signal
  }

  /** What the runner does when the user cancels the run. */
  cancel(): void {
    this.cancellation.abort(new Error('Received SIGINT'))
  }

  getInput(name: InputName): string | undefined {
    return this.inputs[name]
  }

  /** When set, every output fails with it, as @actions/core's do when GITHUB_OUTPUT cannot be written. */
  outputFailure: Error | undefined

  /** As on a runner, every output is kept as its text. */
  setOutput(name: OutputName, value: OutputValue): void {
    if (this.outputFailure !== undefined) throw this.outputFailure
    this.outputs.set(name, String(value))
  }

  setSecret(secret: string): void {
    this.secrets.push(secret)
  }

  setFailed(message: string, kind: FailureKind): void {
    this.failure = message
    this.failureKind = kind
  }

  async appendSummary(html: string): Promise<void> {
    this.summary += html
  }

  env(name: RunnerVariable): string | undefined {
    return this.variables[name] || undefined
  }

  event(): Promise<RunnerEvent> {
    return readRunnerEvent((name) => this.variables[name])
  }

  async github(token: string): Promise<GitHubApi> {
    const { createGitHubApi } = await import('../../src/action/octokit.js')
    return createGitHubApi(token, this.variables.GITHUB_API_URL)
  }
}

/** A tool cache in a folder, laid out as the runner's (`<tool>/<version>/<arch>`, and a `.complete` marker). */
function folderToolCache(root: string): ToolCache {
  const folder = (tool: string, version: string): string => path.join(root, tool, version, process.arch)
  return {
    find: async (tool, version) => {
      const found = folder(tool, version)
      return (await stat(`${found}.complete`).catch(() => undefined)) === undefined ? undefined : found
    },
    cacheFile: async (file, name, tool, version) => {
      const target = folder(tool, version)
      await mkdir(target, { recursive: true })
      await copyFile(file, path.join(target, name))
      await writeFile(`${target}.complete`, '')
      return target
    },
    versions: async (tool) => {
      const versions = await readdir(path.join(root, tool)).catch((): string[] => [])
      const dated = await Promise.all(
        versions.map(async (version) => ({
          version,
          at: (await stat(`${folder(tool, version)}.complete`).catch(() => undefined))?.mtimeMs ?? 0
        }))
      )
      return dated.sort((a, b) => b.at - a.at).map(({ version }) => version)
    },
    markUsed: async (tool, version) => {
      const now = new Date()
      await utimes(`${folder(tool, version)}.complete`, now, now)
    },
    remove: async (tool, version) => {
      await rm(path.join(root, tool, version), { recursive: true, force: true })
    }
  }
}
