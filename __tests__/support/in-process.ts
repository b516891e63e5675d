import { afterEach, beforeEach, jest } from '@jest/globals'
import { readFile, writeFile } from 'node:fs/promises'
import { type Clock, realClock } from '../../src/clock.js'
import type { InputName } from '../../src/inputs.js'
import { type RecordingLogger, recordingLogger } from '../../src/log.js'
import { type RunDependencies, run } from '../../src/main.js'
import { type OutputName, Outputs } from '../../src/outputs.js'
import type { Simulator } from '../../simulator/server.js'
import { FAST_RETRY } from './fixtures.js'

export type Inputs = Partial<Record<InputName, string>>

export interface InProcessResult {
  outputs: Map<OutputName, string>
  log: RecordingLogger
  /** The message given to core.setFailed, undefined when the step succeeded. */
  failure: string | undefined
  /** Everything written to stdout (workflow commands such as ::add-mask:: and ::error::). */
  stdout: string
  elapsedMs: number
}

export interface InProcessOptions {
  env?: NodeJS.ProcessEnv
  clock?: Clock
  tuning?: RunDependencies['tuning']
}

/** Inputs that point an agent run at `sim`, with short waits; `values` add to or replace them. */
export function agentInputs(sim: Simulator, values: Inputs): Inputs {
  return {
    'api-key': sim.apiKey,
    'base-url': sim.apiUrl,
    'project-id': 'proj_123',
    'poll-interval': '20ms',
    'max-poll-interval': '40ms',
    timeout: '10s',
    ...values
  }
}

/**
 * Runs the action in-process as the runner would (run() from main.ts), with workflow commands
 * written to stdout captured: the failure message is read from `::error::`.
 */
export async function runInProcess(values: Inputs, options: InProcessOptions = {}): Promise<InProcessResult> {
  const written: string[] = []
  const spy = jest.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    written.push(String(chunk))
    return true
  })
  const log = recordingLogger()
  const outputs = new Map<OutputName, string>()
  const started = Date.now()
  process.exitCode = 0
  try {
    await run({
      getInput: (name) => values[name] ?? '',
      env: options.env ?? { GITHUB_WORKSPACE: process.cwd() },
      clock: options.clock ?? realClock,
      log,
      outputs: new Outputs((name, value) => void outputs.set(name, value)),
      signal: new AbortController().signal,
      random: () => 0.5,
      tuning: options.tuning ?? { retry: FAST_RETRY }
    })
  } finally {
    spy.mockRestore()
  }
  const failed = process.exitCode === 1
  process.exitCode = 0
  const stdout = written.join('')
  const error = /::error::(.*)/.exec(stdout)?.[1]
  const failure = failed ? decodeCommand(error ?? '(no message)') : undefined
  return { outputs, log, failure, stdout, elapsedMs: Date.now() - started }
}

function decodeCommand(text: string): string {
  return text.replace(/%0A/g, '\n').replace(/%0D/g, '\r').replace(/%25/g, '%')
}

/** Reads and empties the job summary file. */
export async function takeSummary(file: string): Promise<string> {
  const text = await readFile(file, 'utf8')
  await writeFile(file, '')
  return text
}

/**
 * Gives each test of the file a clean set of the GITHUB_* variables it names (the action reads
 * them from process.env), with the job summary going to `summaryFile()`, and puts the old values
 * back afterwards.
 */
export function isolateGitHubEnv(names: readonly string[], summaryFile: () => string): void {
  const saved = { ...process.env }
  beforeEach(() => {
    for (const name of names) delete process.env[name]
    process.env.GITHUB_STEP_SUMMARY = summaryFile()
  })
  afterEach(() => {
    for (const name of [...names, 'GITHUB_STEP_SUMMARY']) {
      if (saved[name] === undefined) delete process.env[name]
      else process.env[name] = saved[name]
    }
    process.exitCode = 0
  })
}
