// How a run failed, from real runs against the simulator: each cause gives its own kind (the CLI's
// exit code, see test/e2e/cli-install.test.ts and test/e2e/dist.test.ts), and a cancelled run says how to
// pick its job up.
import { describe, expect, test } from '@jest/globals'
import { failureKind } from '../src/failure-kind.js'
import { ActionError, CancelledError, InputError, TimeoutError } from '../src/common/errors.js'
import { AttemptError } from '../src/service/retry.js'
import type { Simulator, SimulatorOptions } from '../simulator/server.js'
import { type SimulatorFixture, agentInputs, exportInputs, simulatorPerTest } from './support/harness.js'
import { tempFolder, unusedPort } from './support/temp.js'

const sims = simulatorPerTest()

async function simulator(options: SimulatorOptions = {}): Promise<SimulatorFixture> {
  return sims.start(options)
}

const deployInputs = (sim: Simulator, values: Record<string, string> = {}) => ({
  operation: 'deploy',
  'api-key': sim.apiKey,
  'base-url': sim.apiUrl,
  'project-id': 'proj_123',
  ...values
})

describe('each cause of a failed run has its kind', () => {
  test('a deployment that ends in failure: failed', async () => {
    const { sim, run } = await simulator({ deployment: { durationMs: 50, byProject: { broken: { failWith: 'MDX' } } } })
    const result = await run(deployInputs(sim, { 'project-id': 'broken' }))
    expect([result.failureKind, result.failure]).toEqual(['failed', expect.stringContaining('failed: MDX')])
  })

  test('inputs the action refuses: input, and nothing is asked of the service', async () => {
    const { sim, run } = await simulator()
    const result = await run(deployInputs(sim, { 'poll-interval': 'soon' }))
    expect(result.failureKind).toBe('input')
    expect(sim.requests).toHaveLength(0)
  })

  test.each([
    ['a wrong key (401)', undefined],
    ['a key the service refuses (403)', 403],
    ['the rate limit (429), past the retries', 429]
  ])('%s: refused', async (_, status) => {
    const { sim, run } = await simulator()
    if (status !== undefined) sim.addFault({ route: 'deploy-trigger', status, times: 10 })
    const key = status === undefined ? 'dsk_wrong' : sim.apiKey
    const result = await run(deployInputs(sim, { 'api-key': key }))
    expect([result.failureKind, result.failure]).toEqual(['refused', expect.stringContaining(`HTTP ${status ?? 401}`)])
  })

  test('a service that cannot be reached (connection refused), a connection lost, a 500: unavailable', async () => {
    const { sim, run } = await simulator()
    const closed = await run(deployInputs(sim, { 'base-url': `http://127.0.0.1:${await unusedPort()}` }))
    expect([closed.failureKind, closed.failure]).toEqual(['unavailable', expect.stringContaining('ECONNREFUSED')])
    sim.addFault({ route: 'deploy-trigger', drop: true })
    const dropped = await run(deployInputs(sim))
    expect([dropped.failureKind, dropped.failure]).toEqual([
      'unavailable',
      expect.stringContaining('The service may have processed the request')
    ])
    sim.addFault({ route: 'deploy-trigger', status: 500 })
    expect((await run(deployInputs(sim))).failureKind).toBe('unavailable')
  })

  test('`timeout` while the job runs, or while the status requests fail: timeout, naming the job', async () => {
    const { sim, run } = await simulator({ exportJob: { durationMs: 3_600_000 } })
    const waited = await run(exportInputs(sim, { timeout: '20s' }))
    expect([waited.failureKind, waited.failure]).toEqual([
      'timeout',
      expect.stringMatching(/did not finish within `timeout` \(20s\).* rerun with `job-id: exp_\w+` to pick it up/)
    ])
    sim.addFault({ route: 'export-status', status: 503, times: 1000 })
    const unreadable = await run(exportInputs(sim, { timeout: '20s' }))
    expect([unreadable.failureKind, unreadable.failure]).toEqual([
      'timeout',
      expect.stringContaining('the last status request failed (Could not read the status of export job')
    ])
  })

  test('a download `timeout` cuts short: timeout', async () => {
    const { sim, run } = await simulator({ exportJob: { durationMs: 10, queuedMs: 0 } })
    sim.addFault({ route: 'download', stallAt: 10, times: 100 })
    const workspace = await tempFolder()
    try {
      const result = await run(exportInputs(sim, { timeout: '40s' }), { env: { GITHUB_WORKSPACE: workspace.dir } })
      expect([result.failureKind, result.failure]).toEqual([
        'timeout',
        expect.stringContaining('Could not download the bundle')
      ])
    } finally {
      await workspace.remove()
    }
  })

  test.each([
    ['agent-create', agentInputs],
    ['deploy', deployInputs]
  ] as const)(
    'a cancelled %s says how to pick up the job it started, in the inputs’ terms',
    async (operation, inputsFor) => {
      const { sim, run } = await simulator({ agent: { durationMs: 3_600_000 }, deployment: { durationMs: 3_600_000 } })
      const result = await run(inputsFor(sim, { operation, prompt: 'Go' }), {
        onHost: (host) => {
          const watching = setInterval(() => {
            if (host.outputs.get('job-id') === undefined) return
            clearInterval(watching)
            host.cancel()
          }, 5)
          watching.unref()
        }
      })
      const jobId = result.outputs.get('job-id') as string
      const resume =
        operation === 'deploy'
          ? `follow it with \`operation: deploy\` and \`job-id: ${jobId}\``
          : `check it with \`operation: agent-status\` and \`job-id: ${jobId}\` (and the same \`project-id\`)`
      const job = `${operation === 'deploy' ? 'Deployment' : 'Agent job'} ${jobId}`
      expect([result.failureKind, result.failure]).toEqual([
        'cancelled',
        `The run was cancelled. ${job} was not cancelled with the run: ${resume}.`
      ])
    }
  )
})

describe('failureKind reads the error and then its causes', () => {
  const download = (stoppedByDeadline: boolean, status = 403): AttemptError => {
    const error = new AttemptError({ kind: 'status', status })
    error.stoppedByDeadline = stoppedByDeadline
    return error
  }

  test('the outermost error that tells decides', () => {
    expect(failureKind(new ActionError('x', { cause: download(false) }), false)).toBe('refused')
    expect(failureKind(new ActionError('x', { cause: download(false, 502) }), false)).toBe('unavailable')
    expect(failureKind(new ActionError('x', { cause: download(true) }), false)).toBe('timeout')
    expect(failureKind(new TimeoutError('x', { cause: download(false) }), false)).toBe('timeout')
    expect(failureKind(new ActionError('x', { cause: new InputError('y') }), false)).toBe('input')
    expect(failureKind(new ActionError('x'), false)).toBe('failed')
    expect(failureKind('a string', false)).toBe('failed')
  })

  test('a cancellation wins over any error it caused', () => {
    expect(failureKind(new CancelledError(), false)).toBe('cancelled')
    expect(failureKind(new ActionError('x', { cause: download(false) }), true)).toBe('cancelled')
  })

  test('a loop of causes ends', () => {
    const a = new ActionError('a')
    const b = new ActionError('b', { cause: a })
    Object.assign(a, { cause: b })
    expect(failureKind(a, false)).toBe('failed')
  })
})
