// Runs the committed bundle, dist/index.js, exactly as the GitHub runner does: inputs in INPUT_*
// variables with their hyphens, outputs through GITHUB_OUTPUT, summary through GITHUB_STEP_SUMMARY.
import { access, readFile, readdir } from 'node:fs/promises'
import * as path from 'node:path'
import { afterEach, beforeEach, describe, expect, test } from '@jest/globals'
import { OWN_COMMANDS, type DistRun, runDist, runnerCommand, runnerLines } from './support/runner.js'
import { type Fault, type Simulator, type SimulatorOptions, startSimulator } from '../simulator/server.js'
import { tempFolder } from './support/temp.js'

let sim: Simulator
let workspace: { dir: string; remove: () => Promise<void> }

beforeEach(async () => {
  workspace = await tempFolder()
})
afterEach(async () => {
  await sim?.close()
  await workspace.remove()
})

const env = () => ({ GITHUB_WORKSPACE: workspace.dir, RUNNER_TEMP: path.join(workspace.dir, 'tmp') })

/** Runs an export against a simulator of its own with `faults`, in a workspace of its own (for runs side by side). */
async function exportWith(faults: Fault[], inputs: Record<string, string> = {}, options: SimulatorOptions = {}): Promise<DistRun & { sim: Simulator }> {
  const own = await startSimulator({ exportJob: { durationMs: 40, queuedMs: 0 }, ...options })
  const folder = await tempFolder()
  try {
    for (const fault of faults) own.addFault(fault)
    const run = await runDist({
      inputs: { operation: 'export', 'api-key': own.apiKey, 'base-url': own.apiUrl, domain: 'docs.acme.com', 'poll-interval': '20ms', ...inputs },
      env: { GITHUB_WORKSPACE: folder.dir, RUNNER_TEMP: path.join(folder.dir, 'tmp') }
    })
    return { ...run, sim: own }
  } finally {
    await own.close()
    await folder.remove()
  }
}

/** The `::error::` lines of a run. */
const errors = (run: DistRun): string[] => runnerLines(run.stdout).filter((line) => line.startsWith('::error::'))

describe('dist/index.js as the runner runs it', () => {
  test('exports, unpacks, writes outputs, the summary and the Helm values; masks secrets', async () => {
    sim = await startSimulator({ exportJob: { durationMs: 150, queuedMs: 20 } })
    const run = await runDist({
      inputs: {
        operation: 'export',
        'api-key': sim.apiKey,
        'base-url': sim.apiUrl,
        domain: 'docs.acme.com',
        'poll-interval': '30ms',
        'export-version': 'v9',
        'helm-values-file': 'values.yaml'
      },
      env: env()
    })
    expect(run.stderr).toBe('')
    expect(run.exitCode).toBe(0)
    const { outputs } = run
    expect(outputs.status).toBe('completed')
    expect(outputs['site-path']).toBe(path.join(workspace.dir, 'static-export'))
    await access(path.join(outputs['site-path'] as string, 'index.html'))
    expect(outputs['bundle-path']).toBe(path.join(workspace.dir, 'tmp', `docs-export-${outputs['job-id']}`, 'bundle.tar.gz'))
    expect(outputs['bundle-sha256']).toMatch(/^[0-9a-f]{64}$/)
    expect(await readFile(path.join(workspace.dir, 'values.yaml'), 'utf8')).toContain('version: "v9"')
    expect(run.summary).toContain(outputs['job-id'])
    expect(run.summary).toContain('completed')
    // The key and the link's signature are masked before anything else is printed, and never appear elsewhere.
    const signature = new URL(outputs['bundle-url'] as string).searchParams.get('X-Amz-Signature') as string
    const lines = run.stdout.split('\n')
    expect(lines[0]).toBe(`::add-mask::${sim.apiKey}`)
    expect(lines).toContain(`::add-mask::${signature}`)
    expect(lines.filter((line) => line.includes(signature) && !line.startsWith('::add-mask::'))).toEqual([])
    expect(lines.filter((line) => line.includes(sim.apiKey) && !line.startsWith('::add-mask::'))).toEqual([])
    expect((await readdir(workspace.dir)).sort()).toEqual(['static-export', 'tmp', 'values.yaml'])
  })

  test('a failed job exits 1 with outputs still set', async () => {
    sim = await startSimulator({ exportJob: { durationMs: 40, queuedMs: 0, failWith: 'out of quota' } })
    const run = await runDist({
      inputs: { operation: 'export', 'api-key': sim.apiKey, 'base-url': sim.apiUrl, domain: 'docs.acme.com', 'poll-interval': '20ms' },
      env: env()
    })
    expect(run.exitCode).toBe(1)
    expect(run.outputs.status).toBe('failed')
    expect(run.stdout).toContain(`::error::Export job ${run.outputs['job-id']} failed: out of quota.`)
  })

  test.each(['SIGINT', 'SIGTERM'] as const)('%s during a stalled download: exits within 3 s and leaves no partial files', async (signal) => {
    sim = await startSimulator({ exportJob: { durationMs: 40, queuedMs: 0 } })
    sim.addFault({ route: 'download', stallAt: 100, times: 5 })
    let sentAt = 0
    const run = await runDist({
      inputs: { operation: 'export', 'api-key': sim.apiKey, 'base-url': sim.apiUrl, domain: 'docs.acme.com', 'poll-interval': '20ms' },
      env: env(),
      onSpawn: (child) => {
        const timer = setInterval(() => {
          if (sim.count('download') > 0) {
            clearInterval(timer)
            sentAt = performance.now()
            child.kill(signal)
          }
        }, 10)
      }
    })
    const exitedAfter = performance.now() - sentAt
    expect(sentAt).toBeGreaterThan(0)
    expect(exitedAfter).toBeLessThan(3000)
    expect(run.exitCode).toBe(1)
    expect(run.stdout).toContain('::error::The run was cancelled')
    const left = await readdir(workspace.dir, { recursive: true })
    expect(left.filter((name) => /\.part$|staging/.test(String(name)))).toEqual([])
    expect(left).not.toContain('static-export')
  })

  test('SIGINT while polling: stops polling and exits within 3 s', async () => {
    sim = await startSimulator({ exportJob: { durationMs: 60_000, queuedMs: 0 } })
    let sentAt = 0
    let pollsAtSignal = 0
    const run = await runDist({
      inputs: { operation: 'export', 'api-key': sim.apiKey, 'base-url': sim.apiUrl, domain: 'docs.acme.com', 'poll-interval': '50ms', 'max-poll-interval': '50ms' },
      env: env(),
      onSpawn: (child) => {
        const timer = setInterval(() => {
          if (sim.count('export-status') >= 2) {
            clearInterval(timer)
            sentAt = performance.now()
            pollsAtSignal = sim.count('export-status')
            child.kill('SIGINT')
          }
        }, 5)
      }
    })
    expect(performance.now() - sentAt).toBeLessThan(3000)
    expect(run.exitCode).toBe(1)
    expect(run.outputs['job-id']).toBeTruthy()
    expect(run.stdout).toContain('::error::The run was cancelled')
    expect(sim.count('export-status')).toBeLessThanOrEqual(pollsAtSignal + 1)
  })

  test('a connection cut in the middle of an answer: a GET is retried, a once-only POST fails saying it may have been processed', async () => {
    const [status, start] = await Promise.all([
      exportWith([{ route: 'export-status', truncateAt: 5 }]),
      exportWith([{ route: 'export-start', truncateAt: 5, process: true }])
    ])
    expect(status.exitCode).toBe(0)
    expect(status.outputs.status).toBe('completed')
    expect(start.exitCode).toBe(1)
    expect(errors(start)).toEqual([
      expect.stringMatching(/^::error::Could not start the export of docs\.acme\.com: the service answered HTTP 202, but its answer was unusable \(the connection broke off after 5 bytes of the answer\)\. The service may have processed the request, so it was not sent again/)
    ])
    expect(start.sim.count('export-start')).toBe(1)
    for (const run of [status, start]) expect(run.stderr).toBe('')
  })

  test('`timeout` bounds the step whatever the service and the storage do: hung headers, a body one byte a second, a trickling download', async () => {
    const runs = await Promise.all([
      exportWith([{ route: 'export-status', hang: true, times: 100 }], { timeout: '1s' }),
      exportWith([{ route: 'export-status', trickleMs: 1000, times: 100 }], { timeout: '1s' }),
      exportWith([{ route: 'download', trickleMs: 50, times: 100 }], { timeout: '1s' })
    ])
    for (const run of runs) {
      expect(run.exitCode).toBe(1)
      expect(errors(run)).toEqual([expect.stringContaining('`timeout` ran out')])
      // 1 s, the grace of a request under way (2 s), and the start of node.
      expect(run.wallMs).toBeLessThan(1000 + 2000 + 2500)
    }
  })

  test('text from the service cannot issue workflow commands', async () => {
    const hostile = ['::stop-commands::pwned', 'running\n::set-output name=bundle-url::https://evil.example', '##[add-mask]Export', '  ::add-mask::job']
    const runs = await Promise.all([
      exportWith(hostile.map((status) => ({ route: 'export-status', patch: { status } }))),
      exportWith([], {}, { exportJob: { durationMs: 40, queuedMs: 0, failWith: 'quota\n::set-output name=status::completed\r::stop-commands::z ##[error]x' } })
    ])
    expect(runs[0]?.exitCode).toBe(0)
    expect(runs[1]?.exitCode).toBe(1)
    for (const run of runs) {
      const commands = runnerLines(run.stdout).map(runnerCommand).filter((name) => name !== undefined)
      expect(commands.filter((name) => !OWN_COMMANDS.has(name))).toEqual([])
      expect(run.stdout).not.toMatch(/^\s*::(stop-commands|set-output)/m)
      expect(Object.keys(run.outputs)).not.toContain('x')
    }
  })
})
