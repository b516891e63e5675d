import { describe, expect, test } from '@jest/globals'
import type { OutputName } from '../src/action/outputs.js'
import { inTerminalTerms } from '../src/cli/terms.js'
import { USER_AGENT } from '../src/service/exchange.js'
import { DEFAULT_DEPLOYED_COMMIT, type Simulator, type SimulatorOptions } from '../simulator/server.js'
import { readSummary } from './support/github-summary.js'
import { heartbeatPattern } from './support/clock.js'
import { type Inputs, type RunnerEnv, simulatorPerTest } from './support/harness.js'
import { runnerCommand } from './support/runner.js'

const sims = simulatorPerTest()
let sim: Simulator

/** Deployments take 3 s (after 0.5 s in the queue) on the test clock. */
async function simulator(options: SimulatorOptions = {}): Promise<Simulator> {
  const fixture = await sims.start({ deployment: { durationMs: 3000, queuedMs: 500 }, ...options })
  sim = fixture.sim
  return sim
}

/** Runs `deploy` in-process against `sim`; `inputs` and `env` add to or replace the defaults. */
async function runDeploy(inputs: Inputs = {}, env: RunnerEnv = {}) {
  const result = await sims.current.run(
    {
      operation: 'deploy',
      'api-key': sim.apiKey,
      'base-url': sim.apiUrl,
      'project-id': 'proj_123',
      'poll-interval': '1s',
      'max-poll-interval': '5s',
      ...inputs
    },
    { env: { GITHUB_WORKSPACE: process.cwd(), ...env } }
  )
  return {
    ...result,
    outputs: Object.fromEntries(result.outputs) as Partial<Record<OutputName, string>>,
    failed: result.failure !== undefined
  }
}

/** The routes the run asked the service for, in order. */
const routes = (): string[] => sim.requests.map((request) => request.route)

/** What a log line says, without the recording logger's level. */
const message = (line: string): string => line.replace(/^[a-z]+: /, '')

describe('deploy against the simulator', () => {
  test('triggers once, follows to success, hands on the status id, the status and the commit deployed', async () => {
    await simulator()
    const { outputs, failed, log, summary } = await runDeploy({}, { GITHUB_SHA: DEFAULT_DEPLOYED_COMMIT.sha })
    expect(failed).toBe(false)
    const trigger = sim.requests[0]
    expect(trigger).toMatchObject({ route: 'deploy-trigger', method: 'POST', path: '/v1/project/update/proj_123' })
    // No body: none is documented.
    expect(trigger?.body).toBe('')
    expect(trigger?.headers['content-type']).toBeUndefined()
    const statusId = outputs['job-id'] as string
    expect(sim.deployments.has(statusId)).toBe(true)
    expect(outputs).toEqual({ 'job-id': statusId, status: 'success', 'deployed-commit': DEFAULT_DEPLOYED_COMMIT.sha })
    expect(routes().filter((route) => route === 'deploy-trigger')).toHaveLength(1)
    expect(sim.count('deploy-status')).toBeGreaterThanOrEqual(1)
    for (const request of sim.requests) {
      expect(request.headers.authorization).toBe(`Bearer ${sim.apiKey}`)
      expect(request.headers['user-agent']).toBe(USER_AGENT)
    }
    // One line per change, as for the other jobs (however many polls saw it); what was deployed at the end.
    const changes = log.lines.filter((line) => line.startsWith(`info: Deployment ${statusId}: `))
    expect(changes.at(-1)).toMatch(new RegExp(`^info: Deployment ${statusId}: success: Deployed after \\d+s\\.$`))
    expect(new Set(changes.map((line) => line.replace(/ after .*/, ''))).size).toBe(changes.length)
    const text = log.text()
    expect(text).toContain(`Deployment ${statusId} ended \`success\``)
    expect(text).toContain(
      `Deployment ${statusId} deployed commit ${DEFAULT_DEPLOYED_COMMIT.sha} (main): ` +
        `Docs: describe the deploy operation; 1 added, 2 modified, 1 removed.`
    )
    expect(log.lines).toContain('info:   docs/guides/deploy.mdx')
    expect(log.lines.filter((line) => line.startsWith('warning:'))).toEqual([])

    const reading = readSummary(summary)
    expect(reading.markdownBlocks).toEqual([])
    expect(summary).toContain('<h3>Deployment of proj_123</h3>')
    expect(summary).toContain(`<td>Deployed commit</td><td><code>${DEFAULT_DEPLOYED_COMMIT.sha}</code></td>`)
    expect(summary).toContain('<td>Ref</td><td>main</td>')
    expect(summary).toContain(
      '<td>Commit message</td><td>Docs: describe the deploy operation<br><br>And link it from the quick start.</td>'
    )
    expect(summary).toContain('<td>Files changed</td><td>1 added, 2 modified, 1 removed</td>')
    expect(summary).toContain('<td>Duration</td><td>3s</td>')
    expect(reading.lists).toEqual([
      ['docs/guides/deploy.mdx'],
      ['docs/index.mdx', 'docs.json'],
      ['docs/old/deploy.mdx']
    ])
    expect(summary).toContain('<summary>Modified (2)</summary>')
    // A success shows no log.
    expect(summary).not.toContain('<pre>')
  })

  test('a failed deployment fails the step naming its status id and summary; its last 20 log lines shown', async () => {
    const logs = Array.from({ length: 30 }, (_, i) => `build step ${i + 1}`)
    await simulator({ deployment: { durationMs: 2000, queuedMs: 0, failWith: 'MDX error in docs/index.mdx', logs } })
    const { outputs, failed, failure, failureKind, log, summary } = await runDeploy()
    expect(failed).toBe(true)
    expect(failureKind).toBe('failed')
    const statusId = outputs['job-id'] as string
    expect(failure).toBe(`Deployment ${statusId} failed: MDX error in docs/index.mdx.`)
    expect(outputs.status).toBe('failure')
    expect(outputs['deployed-commit']).toBe(DEFAULT_DEPLOYED_COMMIT.sha)
    // The log's end: the last 19 build steps and the error line; not the queued line nor the first steps.
    const shown = [...logs.slice(11), 'Error: MDX error in docs/index.mdx']
    const group = log.lines.indexOf(`group: Deployment ${statusId}: its log's last 20 lines`)
    expect(group).toBeGreaterThan(0)
    expect(log.lines.slice(group + 1, group + 21)).toEqual(shown.map((line) => `info: ${line}`))
    expect(summary).toContain(
      `<details open><summary>The deployment&#39;s log: its last 20 lines (of 32)</summary>` +
        `<pre>${shown.join('<br>')}</pre></details>`
    )
    expect(summary).not.toContain('build step 11<')
    expect(summary).toContain('<td>Service&#39;s summary</td><td>MDX error in docs/index.mdx</td>')
    expect(summary).toContain(`<p>❌ Deployment ${statusId} failed: MDX error in docs/index.mdx.</p>`)
    expect(readSummary(summary).markdownBlocks).toEqual([])
  })

  test('a long wait keeps talking: a line a minute, with the status, the time waited, the next check', async () => {
    // Three minutes in progress (1.8 s of real time), with the defaults: 5 s, growing to 60 s.
    await simulator({ deployment: { durationMs: 180_000, queuedMs: 500 } })
    const { failed, log, outputs } = await runDeploy({ 'poll-interval': '5s', 'max-poll-interval': '60s' })
    expect(failed).toBe(false)
    const heartbeats = log.lines.filter((line) => line.startsWith(`progress: Deployment ${outputs['job-id'] ?? ''}: `))
    expect(heartbeats.length).toBeGreaterThanOrEqual(2)
    for (const line of heartbeats) expect(line).toMatch(heartbeatPattern(/in_progress.*/))
  })

  test('an unknown status is followed as still running, with one warning', async () => {
    await simulator({ deployment: { durationMs: 30_000, queuedMs: 0, extraStatus: 'verifying' } })
    const { outputs, failed, log } = await runDeploy({ 'max-poll-interval': '1s' })
    expect(failed).toBe(false)
    expect(outputs.status).toBe('success')
    const warnings = log.lines.filter((line) => line.startsWith('warning:') && line.includes('`verifying`'))
    expect(warnings).toEqual([
      `warning: Deployment ${outputs['job-id']} reports the unknown status \`verifying\`; treating it as still running.`
    ])
    expect(sim.count('deploy-status')).toBeGreaterThan(2)
  })

  test('job-id follows that deployment and triggers nothing; one that ended already is read once', async () => {
    await simulator()
    const first = await runDeploy({ wait: 'false' })
    const statusId = first.outputs['job-id'] as string
    sims.current.clock.advance(10_000)
    sim.requests.length = 0
    const sleeps = sims.current.clock.sleeps as number[]
    const slept = sleeps.length
    const { outputs, failed, summary } = await runDeploy({ 'job-id': statusId, 'project-id': '' })
    expect(failed).toBe(false)
    expect(routes()).toEqual(['deploy-status'])
    // Read at once, with no wait of `poll-interval` first: it may have ended before this run.
    expect(sleeps.slice(slept)).not.toContain(1000)
    expect(outputs).toMatchObject({ 'job-id': statusId, status: 'success' })
    expect(summary).toContain(`<h3>Deployment ${statusId}</h3>`)
  })

  test('wait: false triggers, sets job-id and status, stops; with job-id it reads the deployment once', async () => {
    await simulator({ deployment: { durationMs: 600_000, queuedMs: 300_000 } })
    const triggered = await runDeploy({ wait: 'false' })
    expect(triggered.failed).toBe(false)
    expect(routes()).toEqual(['deploy-trigger'])
    expect(triggered.outputs).toEqual({ 'job-id': expect.stringMatching(/^[0-9a-f]{24}$/), status: 'queued' })
    expect(triggered.summary).toContain('Not waiting for the deployment (<code>wait: false</code>).')
    const read = await runDeploy({ wait: 'false', 'job-id': triggered.outputs['job-id'] as string })
    expect(routes()).toEqual(['deploy-trigger', 'deploy-status'])
    expect(read.outputs).toMatchObject({ status: 'queued', 'deployed-commit': DEFAULT_DEPLOYED_COMMIT.sha })
  })

  test('a trigger answered 500 is not sent again: the step says it may have been processed', async () => {
    // And how to follow it with job-id.
    await simulator()
    sim.addFault({ route: 'deploy-trigger', status: 500, process: true })
    const { failed, failure, outputs } = await runDeploy()
    expect(failed).toBe(true)
    expect(routes()).toEqual(['deploy-trigger'])
    expect(sim.deployments.size).toBe(1)
    expect(failure).toContain(
      'Could not trigger a deployment of project proj_123: the service answered HTTP 500: simulated 500. ' +
        'The service may have processed the request, so it was not sent again'
    )
    expect(failure).toContain(
      'follow it with `operation: deploy` and `job-id: <its status id>` rather than triggering another.'
    )
    // On a terminal the way back is the CLI's own.
    expect(inTerminalTerms(failure as string)).toContain('follow it with `docs-admin deploy --job-id <its status id>`')
    expect(outputs['job-id']).toBeUndefined()
  })

  test('a trigger answered 303 See Other may have been processed: not sent again, how to follow it', async () => {
    await simulator()
    sim.addFault({
      route: 'deploy-trigger',
      status: 303,
      headers: { location: `${sim.apiUrl}/v1/project/update-status/elsewhere` },
      process: true
    })
    const { failure, failureKind, outputs } = await runDeploy()
    expect(routes()).toEqual(['deploy-trigger'])
    expect(sim.deployments.size).toBe(1)
    expect(failure).toContain(
      'Could not trigger a deployment of project proj_123: the service answered HTTP 303, a redirect, which the ' +
        "action does not follow (the key goes only to `base-url`'s origin): simulated 303. The service may have " +
        'processed the request, so it was not sent again'
    )
    expect(failure).toContain('follow it with `operation: deploy` and `job-id: <its status id>`')
    expect(failureKind).toBe('unavailable')
    expect(outputs['job-id']).toBeUndefined()
  })

  test('a connection lost after the trigger was sent is not repeated either', async () => {
    await simulator()
    sim.addFault({ route: 'deploy-trigger', drop: true, process: true })
    const { failure } = await runDeploy()
    expect(routes()).toEqual(['deploy-trigger'])
    expect(failure).toMatch(/the connection failed after the request was sent.*may have processed the request/)
    expect(failure).toContain('`job-id: <its status id>`')
  })

  test('a trigger answered 503 (or 429) was not taken: it is sent again, and the one deployment followed', async () => {
    await simulator()
    sim.addFault({ route: 'deploy-trigger', status: 503, retryAfter: '1' })
    sim.addFault({ route: 'deploy-trigger', status: 429, retryAfter: '1' })
    const { failed, outputs, log } = await runDeploy()
    expect(failed).toBe(false)
    expect(sim.requests.filter((r) => r.route === 'deploy-trigger').map((r) => r.status)).toEqual([503, 429, 202])
    expect(sim.deployments.size).toBe(1)
    expect(outputs['job-id']).toBe([...sim.deployments.keys()][0])
    expect(log.text()).toContain('Could not trigger a deployment of project proj_123 (HTTP 503); retry 1 in')
  })

  test('a trigger answer without a usable statusId fails saying the deployment cannot be followed', async () => {
    // Not saying to rerun blindly.
    await simulator()
    sim.addFault({ route: 'deploy-trigger', status: 202, body: { statusId: ' st##[x ' } })
    const { failure } = await runDeploy()
    expect(failure).toContain('its answer carries a `statusId` the action cannot use')
    expect(failure).toContain('do not rerun blindly (that would trigger another deployment)')
    expect(routes()).toEqual(['deploy-trigger'])
  })

  test("a refused trigger (403) gives the reference's causes for a POST, not static export", async () => {
    await simulator()
    sim.addFault({ route: 'deploy-trigger', status: 403, body: { error: 'read-only key' } })
    const { failure, failureKind } = await runDeploy()
    expect(failureKind).toBe('refused')
    expect(failure).toBe(
      'Could not trigger a deployment of project proj_123: ' +
        'the service refused the request (HTTP 403), saying: read-only key. ' +
        "If that is not the whole story, the service's reference also gives: a key limited to reading, used for " +
        'this POST (use a key ' +
        "with full access); or an IP allowlist on the key that does not hold this machine's " +
        'address (GitHub-hosted runners change addresses: use a runner with a fixed address, or lift the allowlist).'
    )
    expect(routes()).toEqual(['deploy-trigger'])
  })

  test('GITHUB_SHA differs from the commit deployed: one warning naming both, also in the summary', async () => {
    // The same commit, abbreviated, is no warning.
    await simulator()
    const other = 'a94a8fe5ccb19ba61c4c0873d391e987982fbbd3'
    const { log, summary, failed, outputs } = await runDeploy({}, { GITHUB_SHA: other })
    expect(failed).toBe(false)
    const warnings = log.lines.filter((line) => line.startsWith('warning:'))
    expect(warnings).toHaveLength(1)
    expect(warnings[0]).toContain(`deployed commit ${DEFAULT_DEPLOYED_COMMIT.sha} (main)`)
    expect(warnings[0]).toContain(
      `not ${other}, the commit this workflow runs on (\`GITHUB_SHA\`): another commit was deployed`
    )
    expect(outputs['deployed-commit']).toBe(DEFAULT_DEPLOYED_COMMIT.sha)
    expect(summary).toContain(`not ${other}, the commit this workflow runs on (<code>GITHUB_SHA</code>)`)

    await simulator({ deployment: { durationMs: 1000, commit: { sha: DEFAULT_DEPLOYED_COMMIT.sha.slice(0, 7) } } })
    const short = await runDeploy({}, { GITHUB_SHA: DEFAULT_DEPLOYED_COMMIT.sha.toUpperCase() })
    expect(short.log.lines.filter((line) => line.startsWith('warning:'))).toEqual([])
  })

  test('service text is neutralised before log and summary; the key is taken out before any of it is cut', async () => {
    const key = 'dsk_test_simulator'
    await simulator({
      deployment: {
        durationMs: 2000,
        queuedMs: 0,
        failWith: '::set-output name=status::success @octocat',
        logs: [
          '::add-mask::Deployment',
          'done ##[set-output name=x;]y',
          '<img src=x onerror=alert(1)>',
          `${'x'.repeat(1995)}${key}`
        ],
        commit: {
          ref: 'main\n::warning::spoofed',
          message: '##[error]boom\n- not a list <b>bold</b>',
          filesChanged: { added: ['::stop-commands::x', '@docs-team/page.mdx'], modified: [], removed: [] }
        }
      }
    })
    const { failed, log, summary } = await runDeploy()
    expect(failed).toBe(true)
    const commands = log.lines
      .map(message)
      .map(runnerCommand)
      .filter((name) => name !== undefined)
    expect(commands).toEqual([])
    const reading = readSummary(summary)
    expect(reading.markdownBlocks).toEqual([])
    expect(summary).not.toMatch(/<img|<b>|@octocat|@docs-team/)
    expect(summary).toContain('&#60;img src=x onerror=alert(1)&#62;')
    // A secret across the cut of a long line: taken out first, so no part of it is left.
    expect(summary).toContain(`${'x'.repeat(1995)}***`)
    expect(summary).not.toContain(key.slice(0, 5))
  })

  test('more than 50 paths of a kind: the count of them all, the first 50 listed, and how many more', async () => {
    const added = Array.from({ length: 120 }, (_, i) => `docs/page-${String(i).padStart(3, '0')}.mdx`)
    await simulator({
      deployment: { durationMs: 1000, commit: { filesChanged: { added, modified: [], removed: [] } } }
    })
    const { summary, log } = await runDeploy()
    expect(summary).toContain('<td>Files changed</td><td>120 added, 0 modified, 0 removed</td>')
    const [list] = readSummary(summary).lists
    expect(list).toEqual([...added.slice(0, 50), '… and 70 more (the first 50 shown)'])
    expect(summary).toContain('<summary>Added (120)</summary>')
    expect(log.lines).toContain('info:   docs/page-049.mdx')
    expect(log.lines).not.toContain('info:   docs/page-050.mdx')
  })

  test("without the service's times, the duration is the one this run saw, said as such", async () => {
    await simulator({ deployment: { durationMs: 1000, queuedMs: 0 } })
    sim.addFault({ route: 'deploy-status', patch: { endedAt: undefined }, times: 100 })
    const { summary, failed } = await runDeploy()
    expect(failed).toBe(false)
    expect(summary).toMatch(/<td>Duration<\/td><td>\d+s \(as this run saw it\)<\/td>/)
  })

  test('a timeout names the deployment, its last status, and how to follow it with job-id', async () => {
    // Outputs and summary stay.
    await simulator({ deployment: { durationMs: 600_000, queuedMs: 0 } })
    const { outputs, failed, failure, summary } = await runDeploy({ timeout: '20s' })
    expect(failed).toBe(true)
    const statusId = outputs['job-id'] as string
    expect(failure).toMatch(
      new RegExp(
        `^Deployment ${statusId} did not finish within \`timeout\` \\(20s\\): ` +
          `last seen in_progress: Building the docs, after waiting 2\\ds\\. ` +
          `The job may still finish: rerun with \`job-id: ${statusId}\` to follow it without triggering another\\.$`
      )
    )
    expect(outputs).toMatchObject({ status: 'in_progress', 'deployed-commit': DEFAULT_DEPLOYED_COMMIT.sha })
    expect(summary).toContain('<td>Files changed</td>')
  })

  test('a service outage in the wait does not end it; a refused status read does, naming the deployment', async () => {
    await simulator({ deployment: { durationMs: 60_000, queuedMs: 0 } })
    sim.addFault({ route: 'deploy-status', status: 503, times: 12 })
    const { outputs, log, failed } = await runDeploy({ timeout: '10m' })
    expect(failed).toBe(false)
    expect(outputs.status).toBe('success')
    expect(log.lines.some((line) => line.startsWith('warning:') && line.includes('could not read its status ('))).toBe(
      true
    )

    sim.clearFaults()
    sim.addFault({ route: 'deploy-status', status: 404, times: 100 })
    const refused = await runDeploy({ timeout: '10m' })
    const statusId = refused.outputs['job-id'] as string
    expect(refused.failure).toBe(`Could not read the status of deployment ${statusId}: HTTP 404: simulated 404.`)
  })

  test('bad inputs fail before any request, listing every problem', async () => {
    await simulator()
    const missing = await runDeploy({ 'project-id': '' })
    expect(missing.failureKind).toBe('input')
    expect(missing.failure).toBe(
      'Invalid input: `project-id` is required for `deploy` unless `job-id` names a deployment to follow.'
    )
    const bad = await runDeploy({ 'project-id': 'a/b', 'job-id': '..', timeout: 'soon' })
    expect(bad.failure).toContain('`project-id` must be a plain identifier')
    expect(bad.failure).toContain('`job-id` must be a plain identifier')
    expect(bad.failure).toContain('`timeout` must be a positive duration')
    expect(sim.requests).toHaveLength(0)
  })
})
