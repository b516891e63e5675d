// npm run soak [-- --runs 200 --parallel 4 --seed N]: runs the built action, dist/index.js, as the
// runner does, again and again against the simulator with random faults on every route (the
// service's, the storage's and GitHub's) and random inputs, a few at a time, and holds every run
// to the invariants of test/support/scenarios.ts (a comment conversation is run twice, as a
// workflow run and its rerun). Prints `N runs, N ok, N clean failures, N invariant violations`
// and fails on any violation.
import { mkdtemp, rm } from 'node:fs/promises'
import * as os from 'node:os'
import * as path from 'node:path'
import { parseArgs } from 'node:util'
import fc from 'fast-check'
import { startSimulator } from '../simulator/server.js'
import { parseDuration } from '../src/common/units.js'
import { runDist, runnerLines } from '../test/support/runner.js'
import {
  LAST_WORDS_MS,
  type Pace,
  type Scenario,
  attemptsOf,
  conversationViolations,
  prepareWorkspace,
  scenarioArbitrary,
  scenarioEvent,
  scenarioInputs,
  simulatorOptions,
  violations
} from '../test/support/scenarios.js'

/** Real time: a hung request costs the whole timeout, so the timeouts are short. */
const PACE: Pace = {
  timeouts: ['2s', '3s', '4s'],
  pollIntervals: ['20ms', '50ms', '100ms'],
  jobMs: 150,
  trickleMs: [200, 800]
}

interface Outcome {
  kind: 'ok' | 'clean failure' | 'violation'
  broken: string[]
  scenario: Scenario
  wallMs: number
  error?: string | undefined
}

async function soakOne(scenario: Scenario): Promise<Outcome> {
  const sim = await startSimulator(simulatorOptions(scenario, PACE))
  const workspace = await mkdtemp(path.join(os.tmpdir(), 'soak-ws-'))
  const processTemp = await mkdtemp(path.join(os.tmpdir(), 'soak-tmp-'))
  try {
    for (const fault of scenario.faults) sim.addFault(fault)
    const { runnerTemp, before } = await prepareWorkspace(scenario, workspace)
    const timeoutMs = parseDuration(scenario.inputs.timeout ?? '') ?? 0
    const broken: string[] = []
    const errors: string[] = []
    let wallMs = 0
    let rerunFrom = 0
    for (let attempt = 1; attempt <= attemptsOf(scenario); attempt++) {
      if (attempt === 2) rerunFrom = sim.requests.length
      const { event, env } = scenarioEvent(scenario, sim, attempt)
      const run = await runDist({
        inputs: scenarioInputs(scenario, sim),
        env: { GITHUB_WORKSPACE: workspace, RUNNER_TEMP: runnerTemp, TMPDIR: processTemp, ...env },
        event,
        timeoutMs: timeoutMs + LAST_WORDS_MS + 30_000
      })
      wallMs += run.wallMs
      const lines = runnerLines(run.stdout)
      const attemptErrors = lines
        .filter((line) => line.startsWith('::error::'))
        .map((line) => line.slice('::error::'.length))
      errors.push(...attemptErrors)
      const abnormal =
        run.signal !== null
          ? `killed by ${run.signal}`
          : run.exitCode !== 0 && run.exitCode !== 1
            ? `exit code ${run.exitCode}`
            : run.exitCode === 1 && attemptErrors.length === 0
              ? 'exit 1 without an error message'
              : run.exitCode === 0 && attemptErrors.length > 0
                ? 'exit 0 with an error message'
                : undefined
      const found = await violations({
        scenario,
        sim,
        errors: attemptErrors,
        abnormalExit: abnormal,
        log: [...lines.filter((line) => !line.startsWith('::add-mask::')), run.stderr].join('\n'),
        masked: lines
          .filter((line) => line.startsWith('::add-mask::'))
          .map((line) => unescapeCommand(line.slice('::add-mask::'.length))),
        summary: run.summary,
        outputs: run.outputs,
        elapsedMs: run.wallMs,
        timeoutMs,
        // A conversation's last words to GitHub may take what SECURITY.md allows them.
        slackMs: 5000 + (scenario.operation === 'agent' ? LAST_WORDS_MS : 0),
        workspace,
        runnerTemp,
        processTemp,
        before
      })
      broken.push(
        ...found.map((violation) => (attemptsOf(scenario) > 1 ? `attempt ${attempt}: ${violation}` : violation))
      )
    }
    if (scenario.operation === 'agent') broken.push(...conversationViolations(sim, rerunFrom))
    const kind = broken.length > 0 ? 'violation' : errors.length > 0 ? 'clean failure' : 'ok'
    return { kind, broken, scenario, wallMs, error: errors[0] }
  } finally {
    await sim.close()
    await rm(workspace, { recursive: true, force: true })
    await rm(processTemp, { recursive: true, force: true })
  }
}

/** A workflow command's data as @actions/core escapes it (`%`, CR and LF), read back. */
function unescapeCommand(data: string): string {
  return data.replace(/%0D/g, '\r').replace(/%0A/g, '\n').replace(/%25/g, '%')
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { runs: { type: 'string' }, parallel: { type: 'string' }, seed: { type: 'string' } }
  })
  const runs = Number(values.runs ?? 200)
  const parallel = Number(values.parallel ?? 4)
  const seed = Number(values.seed ?? Math.floor(Math.random() * 2 ** 31))
  console.log(
    `soak: ${runs} runs of dist/index.js, ${parallel} at a time, seed ${seed} ` +
      `(replay: npm run soak -- --runs ${runs} --seed ${seed})`
  )
  const scenarios = fc.sample(
    scenarioArbitrary(PACE, ['export', 'export', 'export', 'agent-message', 'agent', 'deploy']),
    {
      seed,
      numRuns: runs
    }
  )
  const outcomes: Outcome[] = []
  const started = performance.now()
  let next = 0
  const worker = async (): Promise<void> => {
    while (next < scenarios.length) {
      const index = next++
      const outcome = await soakOne(scenarios[index] as Scenario)
      outcomes.push(outcome)
      if (outcome.kind === 'violation') {
        console.log(
          `run ${index + 1}: ${outcome.broken.join('; ')}\n` +
            `  scenario: ${JSON.stringify(outcome.scenario).slice(0, 2000)}\n` +
            `  error: ${outcome.error ?? '(none)'}`
        )
      }
      if (outcomes.length % 20 === 0)
        console.log(`  ${outcomes.length}/${runs} runs, ${((performance.now() - started) / 1000).toFixed(0)} s`)
    }
  }
  await Promise.all(Array.from({ length: parallel }, worker))
  const count = (kind: Outcome['kind']): number => outcomes.filter((outcome) => outcome.kind === kind).length
  const slowest = Math.max(...outcomes.map((outcome) => outcome.wallMs))
  const seconds = ((performance.now() - started) / 1000).toFixed(0)
  console.log(`soak: ${seconds} s, slowest run ${(slowest / 1000).toFixed(1)} s, seed ${seed}`)
  console.log(
    `${outcomes.length} runs, ${count('ok')} ok, ${count('clean failure')} clean failures, ` +
      `${count('violation')} invariant violations`
  )
  process.exit(count('violation') > 0 ? 1 : 0)
}

await main()
