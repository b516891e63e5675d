/**
 * `operation: automation` against the simulator over real HTTP: the trigger sent once, the run's
 * ids handed on, the step ended once the run is queued; the refusals said in the inputs' terms;
 * the retries the trigger may take (429 of the limit it shares with deployments, 503, a refused
 * connection) and the ones it may not (a 500 after the service acted).
 */
import { describe, expect, test } from '@jest/globals'
import type { OutputName } from '../src/action/outputs.js'
import { inTerminalTerms } from '../src/cli/terms.js'
import { USER_AGENT } from '../src/service/exchange.js'
import { type Simulator, type SimulatorOptions, startSimulator } from '../simulator/server.js'
import { type TestClock, acceleratedClock } from './support/clock.js'
import { readSummary } from './support/github-summary.js'
import { type Inputs, runAction, simulatorPerTest } from './support/harness.js'
import { runnerCommand } from './support/runner.js'
import { unusedPort } from './support/temp.js'

const sims = simulatorPerTest()
let sim: Simulator

async function simulator(options: SimulatorOptions = {}, clock?: TestClock): Promise<Simulator> {
  sim = (await sims.start(options, clock)).sim
  return sim
}

/** The inputs of a run of the seeded automation against `target`; `inputs` add to or replace them. */
function automationInputs(target: Simulator, inputs: Inputs = {}): Inputs {
  return {
    operation: 'automation',
    'api-key': target.apiKey,
    'base-url': target.apiUrl,
    'project-id': 'proj_123',
    'automation-id': 'wf_changelog',
    ...inputs
  }
}

/** Runs `automation` in-process against `sim`. */
async function runAutomation(inputs: Inputs = {}) {
  const result = await sims.current.run(automationInputs(sim, inputs))
  return { ...result, outputs: Object.fromEntries(result.outputs) as Partial<Record<OutputName, string>> }
}

/** The statuses the trigger route answered, in order. */
const triggerStatuses = (target: Simulator): number[] =>
  target.requests.filter((r) => r.route === 'automation-trigger').map((r) => r.status)

/** What a log line says, without the recording logger's level. */
const message = (line: string): string => line.replace(/^[a-z]+: /, '')

/**
 * The action's clock, and a time for the simulator that stands still but for the waits the action
 * sat through: a window of the service's limit ends exactly when the action waited for it to,
 * however slow the machine.
 */
function waitedClock(start: number): { clock: TestClock; now: () => number } {
  const base = acceleratedClock()
  let waited = 0
  const clock: TestClock = {
    ...base,
    sleep: async (ms, signal) => {
      await base.sleep(ms, signal)
      waited += ms
    }
  }
  return { clock, now: () => start + waited }
}

describe('automation against the simulator', () => {
  test('triggers once, no body; job-id, automation-run-id, status=queued; says where to watch', async () => {
    await simulator()
    const { outputs, failure, log, summary } = await runAutomation()
    expect(failure).toBeUndefined()
    expect(sim.requests).toHaveLength(1)
    const [trigger] = sim.requests
    expect(trigger).toMatchObject({
      route: 'automation-trigger',
      method: 'POST',
      path: '/v1/workflow/proj_123/wf_changelog/trigger',
      status: 202,
      body: ''
    })
    expect(trigger?.headers['content-type']).toBeUndefined()
    expect(trigger?.headers.authorization).toBe(`Bearer ${sim.apiKey}`)
    expect(trigger?.headers['user-agent']).toBe(USER_AGENT)
    const [queued] = sim.automationRuns
    expect(outputs).toEqual({ 'job-id': queued?.jobId, 'automation-run-id': queued?.instanceId, status: 'queued' })
    const notice =
      `Automation wf_changelog of project proj_123 is queued: run ${queued?.instanceId} (job ${queued?.jobId}). ` +
      "The service offers no read of a run's status: there is nothing to wait for. " +
      "Watch it in the dashboard's automation runs."
    expect(log.lines).toContain(`notice: ${notice}`)
    expect(log.lines.filter((line) => line.startsWith('warning:'))).toEqual([])

    expect(readSummary(summary).markdownBlocks).toEqual([])
    expect(summary).toContain('<h3>Automation wf_changelog in project proj_123</h3>')
    expect(summary).toContain(`<td>Job</td><td><code>${queued?.jobId}</code></td>`)
    expect(summary).toContain('<td>Status</td><td><strong>queued</strong></td>')
    expect(summary).toContain(`<td>Automation run</td><td><code>${queued?.instanceId}</code></td>`)
    expect(summary).toContain('<td>Project</td><td>proj_123</td>')
    expect(summary).toContain('<td>Automation</td><td>wf_changelog</td>')
    expect(summary).toContain('Watch it in the dashboard&#39;s automation runs.')
  })

  test('an automation not in this project: 404, naming automation-id and project-id', async () => {
    await simulator()
    const { failure, failureKind, outputs } = await runAutomation({ 'automation-id': 'wf_elsewhere' })
    expect(failureKind).toBe('refused')
    expect(failure).toBe(
      'Could not trigger automation wf_elsewhere of project proj_123: the service knows no automation ' +
        'wf_elsewhere in project proj_123 (HTTP 404: the service said "Automation not found in this project"). ' +
        "Check `automation-id` (the automation's id on the dashboard) and `project-id`."
    )
    expect(inTerminalTerms(failure as string)).toContain('Check `--automation-id`')
    expect(triggerStatuses(sim)).toEqual([404])
    expect(outputs).toEqual({})
  })

  test.each([
    ['wf_paused', 'Automation is not active'],
    ['wf_on_push', 'Automation is not on a custom schedule']
  ])("%s: the 400 passes the service's reason on", async (automationId, reason) => {
    await simulator()
    const { failure, failureKind } = await runAutomation({ 'automation-id': automationId })
    expect(failureKind).toBe('refused')
    expect(failure).toBe(
      `Could not trigger automation ${automationId} of project proj_123: the service refused it (HTTP 400: the ` +
        `service said "${reason}"). It runs an automation on request only when the automation is active and on a ` +
        'custom schedule: check it on the dashboard.'
    )
    expect(triggerStatuses(sim)).toEqual([400])
  })

  test("a 400's reason is neutralised: no workflow command, no line of its own, the key taken out", async () => {
    await simulator()
    const reason = `::error::spoofed\n##[set-output name=status;]success\r::add-mask::x ${sim.apiKey}`
    sim.addFault({ route: 'automation-trigger', status: 400, body: { error: reason } })
    const { failure, log, summary } = await runAutomation()
    expect(failure).toContain('(HTTP 400: the service said "')
    expect(failure).not.toMatch(/[\r\n]/)
    expect(failure).not.toContain('##[')
    expect(failure).not.toContain(sim.apiKey)
    expect(failure).toContain('***')
    const commands = log.lines.map(message).map(runnerCommand)
    expect(commands.filter((name) => name !== undefined)).toEqual([])
    expect(readSummary(summary).markdownBlocks).toEqual([])
    expect(summary).not.toContain(sim.apiKey)
  })

  test.each(['wf/../x', 'wf x', 'wf.1', '..', 'wf%2Fx', 'wfé', 'wf\u202ex'])(
    'automation-id %j is refused before any request',
    async (automationId) => {
      await simulator()
      const { failure, failureKind } = await runAutomation({ 'automation-id': automationId })
      expect(failureKind).toBe('input')
      expect(failure).toBe(
        `Invalid input: \`automation-id\` must hold only letters, digits, \`_\` and \`-\`, not \`${automationId}\`.`
      )
      expect(sim.requests).toEqual([])
    }
  )

  test('no project-id nor automation-id (or given empty): both named in one error, nothing sent', async () => {
    await simulator()
    const missing =
      'Invalid inputs:\n  - `project-id` is required for `automation`.\n' +
      '  - `automation-id` is required for `automation`.'
    const empty = await runAutomation({ 'project-id': '', 'automation-id': ' ' })
    expect([empty.failureKind, empty.failure]).toEqual(['input', missing])
    const absent = await sims.current.run({ operation: 'automation', 'api-key': sim.apiKey, 'base-url': sim.apiUrl })
    expect(absent.failure).toBe(missing)
    expect(sim.requests).toEqual([])
  })

  test('a 500 after the service ran the trigger: not sent again; the step says to look first', async () => {
    await simulator()
    sim.addFault({ route: 'automation-trigger', status: 500, process: true })
    const { failure, failureKind, outputs } = await runAutomation()
    expect(failureKind).toBe('unavailable')
    expect(triggerStatuses(sim)).toEqual([500])
    expect(sim.automationRuns).toHaveLength(1)
    expect(failure).toBe(
      'Could not trigger automation wf_changelog of project proj_123: the service answered HTTP 500: simulated ' +
        '500. The service may have processed the request, so it was not sent again (a second one could duplicate ' +
        "the work). Check the service before running again. If it was, the automation's run is queued: look for " +
        "it in the dashboard's automation runs before triggering it again."
    )
    expect(outputs['job-id']).toBeUndefined()
  })

  test('a 503 was not taken: the trigger is sent again after its Retry-After, and one run queued', async () => {
    await simulator()
    sim.addFault({ route: 'automation-trigger', status: 503, retryAfter: '3' })
    const { failure, outputs, log } = await runAutomation()
    expect(failure).toBeUndefined()
    expect(triggerStatuses(sim)).toEqual([503, 202])
    expect(sims.current.clock.sleeps).toContain(3000)
    expect(log.text()).toContain(
      'Could not trigger automation wf_changelog of project proj_123 (HTTP 503); retry 1 in 3.0 s.'
    )
    expect(sim.automationRuns).toHaveLength(1)
    expect(outputs['automation-run-id']).toBe(sim.automationRuns[0]?.instanceId)
  })

  test('past 10 triggers in 10 s, deployments counted too, it waits the Retry-After, then queues', async () => {
    const start = Date.UTC(2025, 0, 1)
    const { clock, now } = waitedClock(start)
    await simulator({ now }, clock)
    const post = (path: string) =>
      fetch(`${sim.apiUrl}${path}`, { method: 'POST', headers: { authorization: `Bearer ${sim.apiKey}` } })
    // Nine deployments and one automation fill the organization's window (the simulator's time stands still).
    for (let i = 0; i < 9; i++) expect((await post('/v1/project/update/proj_123')).status).toBe(202)
    expect((await post('/v1/workflow/proj_123/wf_changelog/trigger')).status).toBe(202)

    const { failure, log, outputs } = await runAutomation()
    expect(failure).toBeUndefined()
    expect(triggerStatuses(sim)).toEqual([202, 429, 202])
    const [, limited, retried] = sim.requests.filter((r) => r.route === 'automation-trigger')
    // The oldest trigger leaves the window 10 s after it came: the retry came exactly then.
    expect([limited?.at, retried?.at]).toEqual([start, start + 10_000])
    expect(clock.sleeps).toContain(10_000)
    expect(log.text()).toContain('(HTTP 429); retry 1 in 10.0 s.')
    expect(outputs['automation-run-id']).toBe(sim.automationRuns[1]?.instanceId)
    expect(sim.automationRuns).toHaveLength(2)
  })

  test('a 429 whose Retry-After passes the timeout fails at once, naming the limit it shares', async () => {
    await simulator()
    sim.addFault({ route: 'automation-trigger', status: 429, retryAfter: '600' })
    const { failure, failureKind } = await runAutomation({ timeout: '1m' })
    expect(failureKind).toBe('timeout')
    expect(triggerStatuses(sim)).toEqual([429])
    expect(failure).toMatch(
      new RegExp(
        /^Could not trigger automation wf_changelog of project proj_123: HTTP 429: simulated 429; no time is /.source +
          /left within `timeout` for another try\. The service asked to wait until .* \(10m 00s\)\. /.source
      )
    )
    expect(failure).toContain(
      "Automation and deployment triggers share the service's limit of 10 requests in 10 s per organization"
    )
  })

  test('a refused connection is tried again: the trigger reaches the service once it listens', async () => {
    const port = await unusedPort()
    let late: Promise<Simulator> | undefined
    const base = acceleratedClock()
    // The retry's wait lasts until the service listens: it starts when the first try was refused.
    const clock: TestClock = {
      ...base,
      sleep: async (ms, signal) => {
        await base.sleep(ms, signal)
        await late
      }
    }
    const target = { apiKey: 'dsk_test_simulator', apiUrl: `http://127.0.0.1:${port}` } as Simulator
    try {
      const result = await runAction(automationInputs(target), {
        clock,
        onHost: (host) => {
          const info = host.log.info
          host.log.info = (line) => {
            info(line)
            if (/ECONNREFUSED.*retry 1 in/.test(line)) late ??= startSimulator({ apiPort: port, now: clock.now })
          }
        }
      })
      const started = await late
      expect(result.failure).toBeUndefined()
      expect(started?.requests.map((r) => [r.route, r.status])).toEqual([['automation-trigger', 202]])
      expect(result.outputs.get('job-id')).toBe(started?.automationRuns[0]?.jobId)
    } finally {
      await (await late)?.close()
    }
  })

  test('an answer without a usable jobId fails, saying not to rerun; without instanceId, a warning', async () => {
    await simulator()
    sim.addFault({ route: 'automation-trigger', patch: { jobId: '  ' } })
    const { failure } = await runAutomation()
    expect(failure).toBe(
      'The service accepted the request to trigger automation wf_changelog of project proj_123, but its answer ' +
        'carries a `jobId` the action cannot use (blank, or with control characters or a workflow command mark). ' +
        "The run is most likely queued: watch it in the dashboard's automation runs; do not rerun blindly (that " +
        'would run the automation again).'
    )
    sim.addFault({ route: 'automation-trigger', patch: { instanceId: undefined } })
    const { failure: none, outputs, log } = await runAutomation()
    expect(none).toBeUndefined()
    expect(outputs).toEqual({ 'job-id': sim.automationRuns[1]?.jobId, status: 'queued' })
    expect(log.lines.filter((line) => line.startsWith('warning:'))).toEqual([
      "warning: The service's answer carries no usable `instanceId`, so `automation-run-id` is left empty; the " +
        `run's job is ${sim.automationRuns[1]?.jobId}.`
    ])
  })
})
