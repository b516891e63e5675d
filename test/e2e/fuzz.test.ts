// Property-based fuzzing: random fault schedules on every route of the service, the storage and
// GitHub (error statuses with odd Retry-After values, resets before and during bodies, stalls,
// hung headers, trickling bodies, cut, empty, HTML, malformed, oversized and wrongly typed
// answers, links that lead where they may not) and random inputs; every run must keep every
// promise of test/support/scenarios.ts, and a comment conversation its promises across a rerun.
// `npm run test:e2e` runs a few cases with a fixed seed; `npm run fuzz` runs many with a random one
// (FUZZ_RUNS, FUZZ_SEED).
import { describe, expect, test } from '@jest/globals'
import fc from 'fast-check'
import { startSimulator } from '../../simulator/server.js'
import { parseDuration } from '../../src/common/units.js'
import { TEST_SPEED, acceleratedClock } from '../support/clock.js'
import { eventFile, runAction } from '../support/harness.js'
import {
  LAST_WORDS_MS,
  type Operation,
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
} from '../support/scenarios.js'
import { tempFolder } from '../support/temp.js'

const RUNS = Number(process.env.FUZZ_RUNS ?? 24)
const SEED = Number(process.env.FUZZ_SEED ?? 20261122)

/** On the accelerated clock: a minute of timeout is 0.6 s of real time. */
const PACE: Pace = {
  timeouts: ['15s', '30s', '60s'],
  pollIntervals: ['500ms', '2s'],
  jobMs: 2000,
  trickleMs: [100, 300]
}

/**
 * Runs one scenario in-process against a simulator of its own (a conversation twice: the workflow
 * run, then its rerun); resolves with the promises it broke.
 */
async function brokenPromises(scenario: Scenario): Promise<string[]> {
  const clock = acceleratedClock({ seed: SEED })
  const sim = await startSimulator({ now: () => clock.now(), ...simulatorOptions(scenario, PACE) })
  const folder = await tempFolder('fuzz-')
  const events = await tempFolder('fuzz-event-')
  try {
    for (const fault of scenario.faults) sim.addFault(fault)
    const { runnerTemp, before } = await prepareWorkspace(scenario, folder.dir)
    const broken: string[] = []
    let rerunFrom = 0
    for (let attempt = 1; attempt <= attemptsOf(scenario); attempt++) {
      if (attempt === 2) rerunFrom = sim.requests.length
      const { event, env } = scenarioEvent(scenario, sim, attempt)
      const eventEnv = event === undefined ? {} : await eventFile(`${events.dir}/event.json`, event.name, event.payload)
      const result = await runAction(scenarioInputs(scenario, sim), {
        clock,
        env: { GITHUB_WORKSPACE: folder.dir, RUNNER_TEMP: runnerTemp, ...env, ...eventEnv }
      })
      const found = await violations({
        scenario,
        sim,
        errors: result.failure === undefined ? [] : [result.failure],
        log: result.log.text(),
        masked: result.secrets,
        summary: result.summary,
        outputs: Object.fromEntries(result.outputs),
        elapsedMs: result.elapsedMs,
        timeoutMs: parseDuration(scenario.inputs.timeout ?? '') ?? 0,
        // Real work (unpacking, 5 MiB answers) counts TEST_SPEED times on this clock: allow 200 ms
        // of it; a conversation's last words to GitHub, what SECURITY.md allows them.
        slackMs: 5000 + 200 * TEST_SPEED + (scenario.operation === 'agent' ? LAST_WORDS_MS : 0),
        workspace: folder.dir,
        runnerTemp,
        before
      })
      broken.push(
        ...found.map((violation) => (attemptsOf(scenario) > 1 ? `attempt ${attempt}: ${violation}` : violation))
      )
    }
    if (scenario.operation === 'agent') broken.push(...conversationViolations(sim, rerunFrom))
    return broken
  } finally {
    await sim.close()
    await folder.remove()
    await events.remove()
  }
}

describe.each<[string, Operation[]]>([
  ['export', ['export']],
  ['agent message', ['agent-message']],
  ['deploy', ['deploy']],
  ['comment conversation (a run and its rerun)', ['agent']]
])('%s runs under random faults', (_, operations) => {
  test('keep every promise', async () => {
    await fc.assert(
      fc.asyncProperty(scenarioArbitrary(PACE, operations), async (scenario) => {
        expect(await brokenPromises(scenario)).toEqual([])
      }),
      { seed: SEED, numRuns: operations.includes('export') ? RUNS : Math.ceil(RUNS / 3), endOnFailure: true }
    )
  }, 600_000)
})
