// Runs the committed bundle, dist/index.js, exactly as the GitHub runner does: inputs in INPUT_*
// variables with their hyphens, outputs through GITHUB_OUTPUT, summary through GITHUB_STEP_SUMMARY.
import { access, readFile, readdir } from 'node:fs/promises'
import * as path from 'node:path'
import { afterEach, beforeEach, describe, expect, test } from '@jest/globals'
import { runDist } from './support/runner.js'
import { type ArchiveEntry, buildZip, fixtureSiteEntries } from '../simulator/archives.js'
import { type Simulator, startSimulator } from '../simulator/server.js'
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

  test('SIGINT late in a large extraction: exits within 3 s; the next run leaves nothing stale beside path', async () => {
    // 20,000 empty files in 40 folders, in order: once the last folder has files, the extraction
    // is nearly done. Removing that many files takes longer than the runner waits.
    const entries: ArchiveEntry[] = []
    for (let d = 0; d < 40; d++) for (let f = 0; f < 500; f++) entries.push({ type: 'file', name: `d${d}/f${f}.html`, content: '' })
    sim = await startSimulator({ exportJob: { durationMs: 40, queuedMs: 0 }, bundle: { body: buildZip(entries) } })
    const inputs = { operation: 'export', 'api-key': sim.apiKey, 'base-url': sim.apiUrl, domain: 'docs.acme.com', 'poll-interval': '20ms' }
    const ours = async (): Promise<string[]> => (await readdir(workspace.dir)).filter((name) => name.startsWith('.static-export.'))
    let sentAt = 0
    const run = await runDist({
      inputs,
      env: env(),
      onSpawn: (child) => {
        const watch = async (): Promise<void> => {
          const staging = (await ours().catch((): string[] => []))[0]
          const last = staging === undefined ? [] : await readdir(path.join(workspace.dir, staging, 'd39')).catch((): string[] => [])
          if (last.length === 0) return void setTimeout(watch, 10)
          sentAt = performance.now()
          child.kill('SIGINT')
        }
        void watch()
      }
    })
    const exitedAfter = performance.now() - sentAt
    expect(sentAt).toBeGreaterThan(0)
    expect(exitedAfter).toBeLessThan(3000)
    expect(run.exitCode).toBe(1)
    expect(run.stdout).toContain('::error::The run was cancelled')
    expect(await readdir(workspace.dir)).not.toContain('static-export')
    // No staging folder is left under its own name; a trash folder may still be on its way out.
    expect((await ours()).filter((name) => !name.includes('.trash-'))).toEqual([])

    sim.setBundle({ entries: fixtureSiteEntries() })
    const next = await runDist({ inputs, env: env() })
    expect(next.exitCode).toBe(0)
    expect(await ours()).toEqual([])
    await access(path.join(workspace.dir, 'static-export', 'index.html'))
  })
})
