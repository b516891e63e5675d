/**
 * Runs the action in-process as the runner would (run() from main.ts), against the simulator over
 * real HTTP on 127.0.0.1, with the one fake Host and the test clock shared by both.
 */
import { afterEach } from '@jest/globals'
import { writeFile } from 'node:fs/promises'
import * as path from 'node:path'
import { REPO } from './events.js'
import type { FailureKind } from '../../src/action/host.js'
import type { OutputName } from '../../src/action/outputs.js'
import { run } from '../../src/main.js'
import { type Simulator, type SimulatorOptions, startSimulator } from '../../simulator/server.js'
import { type TestClock, acceleratedClock } from './clock.js'
import { FakeHost, type Inputs, type RecordingLogger, type RunnerEnv } from './fake-host.js'

export type { Inputs, RunnerEnv } from './fake-host.js'

export interface RunResult {
  outputs: Map<OutputName, string>
  log: RecordingLogger
  /** The message the step failed with, undefined when it succeeded. */
  failure: string | undefined
  /** How it failed: bad input (exit 2 in the CLI), a failure, or a cancellation. */
  failureKind: FailureKind | undefined
  summary: string
  /** Values registered to be masked. */
  secrets: string[]
  /** Clock time the run took. */
  elapsedMs: number
}

export interface RunOptions {
  env?: RunnerEnv
  /** A folder that plays the runner's tool cache. */
  toolCacheDir?: string
  clock?: TestClock
  /** Called with the host before the run starts (e.g. to cancel it later). */
  onHost?: (host: FakeHost) => void
}

export async function runAction(inputs: Inputs, options: RunOptions = {}): Promise<RunResult> {
  const clock = options.clock ?? acceleratedClock()
  const host = new FakeHost(inputs, options.env ?? { GITHUB_WORKSPACE: process.cwd() }, options.toolCacheDir)
  options.onHost?.(host)
  const started = clock.now()
  await run(host, clock)
  return {
    outputs: host.outputs,
    log: host.log,
    failure: host.failure,
    failureKind: host.failureKind,
    summary: host.summary,
    secrets: host.secrets,
    elapsedMs: clock.now() - started
  }
}

/** A simulator whose jobs and links live on `clock`, and runs of the action on the same clock. */
export interface SimulatorFixture {
  sim: Simulator
  clock: TestClock
  run(inputs: Inputs, options?: Omit<RunOptions, 'clock'>): Promise<RunResult>
}

export async function simulatorFixture(
  options: SimulatorOptions = {},
  clock: TestClock = acceleratedClock()
): Promise<SimulatorFixture> {
  const sim = await startSimulator({ now: () => clock.now(), ...options })
  return { sim, clock, run: (inputs, runOptions = {}) => runAction(inputs, { ...runOptions, clock }) }
}

export interface SimulatorPerTest {
  /** A simulator for the running test (the one it started before is closed first). */
  start(options?: SimulatorOptions, clock?: TestClock): Promise<SimulatorFixture>
  /** The running test's simulator. */
  readonly current: SimulatorFixture
}

/** For a test file, called at its top level: a simulator per test, closed after the test. */
export function simulatorPerTest(): SimulatorPerTest {
  let current: SimulatorFixture | undefined
  afterEach(async () => {
    await current?.sim.close()
    current = undefined
  })
  return {
    async start(options, clock) {
      await current?.sim.close()
      current = await simulatorFixture(options, clock)
      return current
    },
    get current() {
      if (current === undefined) throw new Error('No simulator was started in this test.')
      return current
    }
  }
}

/** Inputs that point an agent run at `sim`; `values` add to or replace them. */
export function agentInputs(sim: Simulator, values: Inputs): Inputs {
  return { 'api-key': sim.apiKey, 'base-url': sim.apiUrl, 'project-id': 'proj_123', ...values }
}

/** Inputs that point an export run at `sim`; `values` add to or replace them. */
export function exportInputs(sim: Simulator, values: Inputs): Inputs {
  return { operation: 'export', 'api-key': sim.apiKey, 'base-url': sim.apiUrl, domain: 'docs.acme.com', ...values }
}

/** Writes an event payload file as the runner does, and returns the variables that name it. */
export async function eventFile(file: string, name: string, payload: unknown): Promise<RunnerEnv> {
  await writeFile(file, JSON.stringify(payload, null, 2))
  return { GITHUB_EVENT_NAME: name, GITHUB_EVENT_PATH: file }
}

/**
 * Runs the action in-process on the event `name` with `payload`, as the runner delivers it to a
 * workflow of REPO (run 4242) whose workspace is `workspace`, against the running simulator and
 * its GitHub, with the token and a quick poll; `inputs` and `options.env` add to or replace those.
 */
export async function runOnEvent(
  fixture: SimulatorFixture,
  workspace: string,
  event: { name: string; payload: unknown },
  inputs: Inputs,
  options: RunOptions = {}
): Promise<RunResult> {
  const { sim } = fixture
  const env: RunnerEnv = {
    ...(await eventFile(path.join(workspace, 'event.json'), event.name, event.payload)),
    GITHUB_REPOSITORY: REPO,
    GITHUB_API_URL: sim.githubApiUrl,
    GITHUB_SERVER_URL: 'https://github.com',
    GITHUB_RUN_ID: '4242',
    GITHUB_WORKSPACE: workspace
  }
  const given: Inputs = {
    'api-key': sim.apiKey,
    'base-url': sim.apiUrl,
    'github-token': 'ghs_testtoken0123456789',
    'poll-interval': '1s',
    'max-poll-interval': '2s',
    ...inputs
  }
  return fixture.run(given, { ...options, env: { ...env, ...options.env } })
}
