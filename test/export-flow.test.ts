import { execFileSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { mkdir, readFile, readdir, rm, stat, symlink, writeFile } from 'node:fs/promises'
import * as os from 'node:os'
import * as path from 'node:path'
import { afterEach, beforeEach, describe, expect, test } from '@jest/globals'
import type { OutputName } from '../src/action/outputs.js'
import { helmValuesYaml } from '../src/export/helm-values.js'
import { archiveFolderOf } from '../src/export/path-check.js'
import { USER_AGENT } from '../src/service/exchange.js'
import { fixtureSiteEntries } from '../simulator/archives.js'
import type { Simulator, SimulatorOptions } from '../simulator/server.js'
import { heartbeatPattern } from './support/clock.js'
import { readSummary } from './support/github-summary.js'
import { type Inputs, type RunnerEnv, exportInputs, simulatorPerTest } from './support/harness.js'
import { tempFolder } from './support/temp.js'

const sims = simulatorPerTest()
let sim: Simulator
let workspace: { dir: string; remove: () => Promise<void> }

beforeEach(async () => {
  workspace = await tempFolder()
})
afterEach(async () => {
  await workspace.remove()
})

/** Export jobs take 3 s (after 0.5 s in the queue) on the test clock. */
async function simulator(options: SimulatorOptions = {}): Promise<Simulator> {
  const fixture = await sims.start({ exportJob: { durationMs: 3000, queuedMs: 500 }, ...options })
  sim = fixture.sim
  return sim
}

/** Runs the export in-process against `sim`; `inputs` and `env` add to or replace the defaults. */
async function runExport(inputs: Inputs, env: RunnerEnv = {}, toolCacheDir?: string) {
  const result = await sims.current.run(
    exportInputs(sim, { 'poll-interval': '1s', 'max-poll-interval': '5s', ...inputs }),
    {
      env: { GITHUB_WORKSPACE: workspace.dir, RUNNER_TEMP: path.join(workspace.dir, 'runner-temp'), ...env },
      toolCacheDir
    }
  )
  return {
    ...result,
    outputs: Object.fromEntries(result.outputs) as Partial<Record<OutputName, string>>,
    failed: result.failure !== undefined
  }
}

describe('export flow against the simulator', () => {
  test('starts, waits, downloads, unpacks, and sets every output', async () => {
    await simulator()
    const { outputs, failed, log } = await runExport({
      'docs-version': 'v2',
      paths: '/guides\n/api',
      'export-version': '2.1',
      'helm-values-file': 'deploy/values.yaml'
    })
    expect(failed).toBe(false)
    expect(sim.requests.find((r) => r.route === 'export-start')?.body).toEqual({
      domain: 'docs.acme.com',
      version: 'v2',
      paths: ['/guides', '/api']
    })
    const jobId = outputs['job-id'] as string
    expect(sim.exportJobs.has(jobId)).toBe(true)
    expect(outputs).toMatchObject({
      status: 'completed',
      progress: '100',
      'bundle-url': expect.stringContaining(sim.storageUrl)
    })
    expect(Number(outputs['page-count'])).toBeGreaterThan(0)
    const site = outputs['site-path'] as string
    expect(site).toBe(path.join(workspace.dir, 'static-export'))
    expect(await readFile(path.join(site, 'index.html'), 'utf8')).toContain('<html')
    const archive = outputs['bundle-path'] as string
    expect(archive).toMatch(/bundle\.tar\.gz$/)
    expect((await stat(archive)).size).toBe(Number(outputs['bundle-size']))
    expect(outputs['bundle-sha256']).toMatch(/^[0-9a-f]{64}$/)
    expect(new Date(outputs['expires-at'] as string).getTime()).toBeGreaterThan(Date.now())
    const values = await readFile(path.join(workspace.dir, 'deploy/values.yaml'), 'utf8')
    expect(values).toBe(
      `staticExport:\n  enabled: true\n  bundleUrl: ${JSON.stringify(outputs['bundle-url'])}\n  version: "2.1"\n`
    )
    expect(outputs['helm-values']).toBe(values)
    // The key goes to the API origin only, never to object storage; both see the one User-Agent.
    for (const request of sim.requests) {
      expect(request.headers.authorization).toBe(request.origin === 'storage' ? undefined : `Bearer ${sim.apiKey}`)
      expect(request.headers['user-agent']).toBe(USER_AGENT)
    }
    expect(sim.requests.some((request) => request.origin === 'storage')).toBe(true)
    // Each change is logged once, not every identical poll; no line carries the link's query.
    expect(log.text()).toContain(`Export job ${jobId}: completed, 100%`)
    expect(log.text()).not.toMatch(/X-Amz-Signature/i)
    // No leftovers next to the site: only the record that this export wrote it.
    expect((await readdir(workspace.dir)).sort()).toEqual([
      '.static-export.exported',
      'deploy',
      'runner-temp',
      'static-export'
    ])
  })

  test('an unknown status is treated as running, with one warning', async () => {
    await simulator({ exportJob: { durationMs: 30_000, queuedMs: 0, extraStatus: 'packaging', progress: 'absent' } })
    // Polls at least every second: several of them see the last 20% of the job, `packaging`.
    const { outputs, log, failed } = await runExport({ 'max-poll-interval': '1s' })
    expect(failed).toBe(false)
    expect(outputs.status).toBe('completed')
    const warnings = log.lines.filter((line) => line.startsWith('warning:') && line.includes('packaging'))
    expect(warnings).toHaveLength(1)
    expect(sim.count('export-status')).toBeGreaterThan(1)
  })

  test.each(['..', '.'])(
    'a job id the service gives that cannot be part of an address (`%s`) is never sent: the step fails saying so',
    async (jobId) => {
      await simulator()
      sim.addFault({ route: 'export-start', patch: { jobId } })
      const { failed, failure, outputs } = await runExport({})
      expect(failed).toBe(true)
      expect(failure).toContain(`The id ${JSON.stringify(jobId)} cannot be sent as part of an address`)
      expect(outputs['job-id']).toBe(jobId)
      expect(sim.count('export-status')).toBe(0)
      expect(sim.requests.filter((r) => r.origin === 'api').map((r) => r.route)).toEqual(['export-start'])
    }
  )

  test('a status answer without its status does not end the wait at once: warned, and read again', async () => {
    // Three times in a row at most.
    await simulator({ exportJob: { durationMs: 10_000, queuedMs: 0 } })
    sim.addFault({ route: 'export-status', status: 200, body: { progress: 50 }, times: 3 })
    const { outputs, log, failed } = await runExport({})
    expect(failed).toBe(false)
    expect(outputs.status).toBe('completed')
    expect(
      log.lines.filter(
        (line) =>
          line.startsWith('warning:') && line.includes("the service's answer carries no `status`.); still waiting")
      )
    ).toHaveLength(3)
    // A fourth in a row is how the service answers: the step fails, in a whole sentence.
    sim.addFault({ route: 'export-status', status: 200, body: { progress: 50 }, times: 4 })
    const four = await runExport({})
    expect(four.failure).toMatch(
      /^Could not read the status of export job exp_\w+: the service's answer carries no `status`\.$/
    )
  })

  test('a passing outage between answers without a status does not count toward the few read past', async () => {
    await simulator({ exportJob: { durationMs: 120_000, queuedMs: 0 } })
    sim.addFault({ route: 'export-status', status: 200, body: { progress: 50 }, times: 2 })
    // Three status reads that each used up their five attempts: a passing outage.
    sim.addFault({ route: 'export-status', status: 503, times: 15 })
    sim.addFault({ route: 'export-status', status: 200, body: { progress: 60 }, times: 1 })
    const { failure, outputs } = await runExport({ timeout: '30m', download: 'false' })
    expect(failure).toBeUndefined()
    expect(outputs.status).toBe('completed')
  })

  test('a status read that `timeout` leaves no time to retry ends as the timeout, with the way back', async () => {
    // A 503 asking to wait past the timeout.
    await simulator({ exportJob: { durationMs: 600_000, queuedMs: 0 } })
    sim.addFault({ route: 'export-status', status: 503, retryAfter: '600', times: 1 })
    const { failure } = await runExport({ timeout: '60s', 'job-id': 'exp_x' })
    expect(failure).toMatch(
      new RegExp(
        /^Export job exp_x did not finish within `timeout` \(1m 00s\): no status read yet; /.source +
          /the last status request failed \(.*HTTP 503.*\)/.source +
          /.*rerun with `job-id: exp_x` to pick it up\.$/.source
      )
    )
  })

  test("a status answer that is the service's error, or no job at all, fails at once with what it says", async () => {
    await simulator()
    sim.addFault({
      route: 'export-status',
      status: 200,
      body: { error: 'export job exp_gone has expired' },
      times: 100
    })
    const expired = await runExport({ 'job-id': 'exp_gone', timeout: '10m' })
    expect(expired.failure).toBe(
      'Could not read the status of export job exp_gone: the service answered with an error: ' +
        'export job exp_gone has expired'
    )
    expect(sim.count('export-status')).toBe(1)
    sim.clearFaults()
    sim.addFault({ route: 'export-status', status: 200, body: [], times: 100 })
    const list = await runExport({ 'job-id': 'exp_gone', wait: 'false' })
    expect(list.failure).toBe(
      "Could not read the status of export job exp_gone: the service's answer is not a job (a list)."
    )
    expect(sim.count('export-status')).toBe(2)
  })

  test('an outage of the service during the wait does not end it', async () => {
    await simulator({ exportJob: { durationMs: 60_000, queuedMs: 0 } })
    // Twelve 503s in a row: more than one status request's retries (five attempts) can ride out.
    sim.addFault({ route: 'export-status', status: 503, times: 12 })
    const { outputs, log, failed } = await runExport({ timeout: '10m' })
    expect(failed).toBe(false)
    expect(outputs.status).toBe('completed')
    expect(
      log.lines.filter(
        (line) =>
          line.startsWith('warning:') && line.includes('could not read its status (') && line.includes('still waiting')
      )
    ).not.toHaveLength(0)
    expect(sim.count('export-status')).toBeGreaterThan(12)
  })

  test('a long wait keeps talking: a line a minute, with the status, the time waited, the next check', async () => {
    // Three minutes with nothing new to say (no progress, no pages): 1.8 s of real time.
    await simulator({ exportJob: { durationMs: 180_000, queuedMs: 0, progress: 'absent', pageCount: 0 } })
    const { failed, log, outputs } = await runExport({
      'poll-interval': '5s',
      'max-poll-interval': '60s',
      download: 'false'
    })
    expect(failed).toBe(false)
    const name = `Export job ${outputs['job-id'] ?? ''}`
    expect(log.text()).toMatch(new RegExp(`^info: ${name}: running, 0 pages after \\d+s; next check in 5s\\.$`, 'm'))
    const heartbeats = log.lines.filter((line) => line.startsWith(`progress: ${name}: `))
    expect(heartbeats.length).toBeGreaterThanOrEqual(2)
    for (const line of heartbeats) expect(line).toMatch(heartbeatPattern(/running, 0 pages/))
  })

  test('Retry-After: a status read the service kept refusing is made again no sooner than it asked', async () => {
    await simulator({ exportJob: { durationMs: 60_000, queuedMs: 0 } })
    // One status request's five attempts, each answered 429 asking for 20 s: a passing outage.
    sim.addFault({ route: 'export-status', status: 429, retryAfter: '20', times: 5 })
    const { failed, log } = await runExport({ download: 'false', timeout: '10m' })
    expect(failed).toBe(false)
    expect(log.text()).toMatch(/could not read its status \(.*HTTP 429.*\); still waiting, checking again in 20s\./)
    // The client's retries 20 s apart, then the follower's next check, where `poll-interval` would say 1 s.
    // (Less 1 ms of real time: a timer may fire that much early, 100 ms of the test clock.)
    const reads = sim.requests.filter((r) => r.route === 'export-status').map((r) => r.at)
    for (let i = 1; i <= 5; i++) expect((reads[i] ?? 0) - (reads[i - 1] ?? 0)).toBeGreaterThanOrEqual(19_900)
  })

  test('a refusal of a status request ends the wait at once', async () => {
    await simulator({ exportJob: { durationMs: 60_000, queuedMs: 0 } })
    sim.addFault({ route: 'export-status', status: 404, times: 100 })
    const { failed, failure } = await runExport({ timeout: '10m' })
    expect(failed).toBe(true)
    expect(failure).toContain('HTTP 404')
    expect(sim.count('export-status')).toBe(1)
  })

  test('a job id the action cannot use as it is fails the step at once; it is never altered and sent on', async () => {
    await simulator({})
    sim.addFault({ route: 'export-start', status: 200, body: { jobId: ' exp##[1 ' } })
    const { failed, failure } = await runExport({})
    expect(failed).toBe(true)
    expect(failure).toContain('carries a `jobId` the action cannot use')
    expect(sim.count('export-status')).toBe(0)
  })

  test('a refused start (403): the causes that apply, a read-only key, an IP allowlist, no static export', async () => {
    await simulator({})
    sim.addFault({ route: 'export-start', status: 403, body: { error: 'forbidden' } })
    const { failed, failure } = await runExport({})
    expect(failed).toBe(true)
    expect(failure).toBe(
      'Could not start the export of docs.acme.com: the service refused the request (HTTP 403: forbidden). ' +
        "The service's reference gives these causes: a key limited to reading, used for this POST (use a key " +
        "with full access); an IP allowlist on the key that does not hold this machine's " +
        'address (GitHub-hosted runners change addresses: use a runner with a fixed address, or lift the allowlist); ' +
        'or static export not enabled for the organization (a private beta under an enterprise agreement).'
    )
    expect(sim.count('export-start')).toBe(1)
  })

  test("a 403 with the service's own reason says it first, then the reference's causes", async () => {
    await simulator({})
    const reason = 'This API key does not have access to the docs of docs.acme.com'
    sim.addFault({ route: 'export-start', status: 403, body: { error: reason } })
    const { failure } = await runExport({})
    expect(failure).toBe(
      `Could not start the export of docs.acme.com: the service refused the request (HTTP 403), saying: ${reason}. ` +
        "If that is not the whole story, the service's reference also gives: a key limited to reading, used for " +
        "this POST (use a key with full access); an IP allowlist on the key that does not hold this machine's " +
        'address (GitHub-hosted runners change addresses: use a runner with a fixed address, or lift the allowlist); ' +
        'or static export not enabled for the organization (a private beta under an enterprise agreement).'
    )
  })

  test("a `base-url` ending in /v1 (the reference's server): the 404 names `base-url` and the fix", async () => {
    await simulator({})
    for (const suffix of ['/v1', '/V2/']) {
      const { failure, failureKind } = await runExport({ 'base-url': `${sim.apiUrl}${suffix}` })
      expect(failure).toContain(
        'Could not start the export of docs.acme.com: HTTP 404: not found. `base-url` ' +
          `(${sim.apiUrl}${suffix.replace(/\/$/, '')}) ends in \`${suffix.replace(/\/$/, '')}\`, and the action adds ` +
          `the API's version to every path itself (\`/v1/static-export/jobs\`): set \`base-url\` to ${sim.apiUrl}.`
      )
      expect(failureKind).toBe('refused')
    }
    // A 404 of a base-url without a version says no more than the service did.
    sim.addFault({ route: 'export-status', status: 404, body: { error: 'job not found' } })
    const { failure } = await runExport({ 'job-id': 'exp_1' })
    expect(failure).toBe('Could not read the status of export job exp_1: HTTP 404: job not found.')
  })

  test('a status read refused (403) names only the IP allowlist: a GET, of a feature the start had', async () => {
    await simulator({})
    sim.addFault({ route: 'export-status', status: 403 })
    const { failure } = await runExport({ 'job-id': 'exp_1' })
    expect(failure).toContain(
      'Could not read the status of export job exp_1: the service refused the request (HTTP 403'
    )
    expect(failure).toContain("this cause: an IP allowlist on the key that does not hold this machine's address")
    expect(failure).not.toMatch(/limited to reading|static export not enabled/)
  })

  test('a key refused (401) is wrong or expired, whatever the request', async () => {
    await simulator({})
    const { failure } = await runExport({ 'api-key': 'mint_expired' })
    expect(failure).toBe(
      'Could not start the export of docs.acme.com: the service did not accept the key (HTTP 401: invalid API key). ' +
        '`api-key` is wrong or has expired: check the secret, or make a new admin key on the API keys page of the ' +
        "organization's settings."
    )
  })

  test('a failed job fails the step naming the job and the error, with outputs set', async () => {
    await simulator({ exportJob: { durationMs: 2000, queuedMs: 0, failWith: 'theme build crashed' } })
    const { outputs, log, failed } = await runExport({})
    expect(failed).toBe(true)
    expect(outputs.status).toBe('failed')
    expect(outputs['job-id']).toBeTruthy()
    expect(sim.count('export-bundle')).toBe(0)
    expect(log.text()).toContain(`: failed`)
  })

  test("a failed job's reason of any length: its first 64 Ki characters, saying so", async () => {
    // In the failure and the job summary: GitHub shows no summary over 1 MiB.
    const trace = `${'at render (theme/page.js:12:3) '.repeat(40_000)}the end`
    await simulator({ exportJob: { durationMs: 2000, queuedMs: 0, failWith: trace } })
    const { failed, failure, summary } = await runExport({})
    expect(failed).toBe(true)
    expect(failure).toContain(`: ${trace.slice(0, 65_536)}… (cut short: the service sent ${trace.length} characters).`)
    expect(failure).not.toContain('the end')
    expect(Buffer.byteLength(summary)).toBeLessThan(100_000)
    expect(summary).toContain('(cut short: the service sent')
  })

  test("a failed job's reason that quotes the API key: the job summary shows *** in its place", async () => {
    await simulator({
      exportJob: { durationMs: 2000, queuedMs: 0, failWith: 'rejected the key dsk_test_simulator of this request' }
    })
    const { failed, summary, secrets } = await runExport({})
    expect(failed).toBe(true)
    expect(secrets).toContain(sim.apiKey)
    expect(summary).toContain('rejected the key *** of this request')
    expect(summary).not.toContain(sim.apiKey)
  })

  test('a timeout names the job, its last status and the wait', async () => {
    await simulator({ exportJob: { durationMs: 600_000, queuedMs: 0 } })
    const { outputs, failed, failure } = await runExport({ timeout: '20s' })
    expect(failed).toBe(true)
    expect(failure).toMatch(
      new RegExp(
        `Export job ${outputs['job-id']} did not finish within \`timeout\` \\(20s\\): ` +
          `last seen running, \\d+%.*after waiting 2\\ds\\. ` +
          `The job may still finish: rerun with \`job-id: ${outputs['job-id']}\``
      )
    )
    expect(outputs.status).toBe('running')
  })

  test('wait: false starts the job, sets job-id and stops', async () => {
    await simulator()
    const { outputs, failed } = await runExport({ wait: 'false' })
    expect(failed).toBe(false)
    expect(outputs['job-id']).toBeTruthy()
    expect(outputs.status).toBe('queued')
    expect(sim.count('export-status')).toBe(0)
    expect(sim.count('export-bundle')).toBe(0)
  })

  test('job-id reuses an existing job without starting another', async () => {
    await simulator()
    const first = await runExport({ wait: 'false' })
    const jobId = first.outputs['job-id'] as string
    const { outputs, failed } = await runExport({ domain: '', 'job-id': jobId })
    expect(failed).toBe(false)
    expect(sim.count('export-start')).toBe(1)
    expect(outputs['job-id']).toBe(jobId)
    expect(outputs['site-path']).toBeTruthy()
  })

  test('download: false generates the link only', async () => {
    await simulator()
    const { outputs, failed } = await runExport({ download: 'false' })
    expect(failed).toBe(false)
    expect(outputs['bundle-url']).toContain(sim.storageUrl)
    expect(outputs['bundle-path']).toBeUndefined()
    expect(sim.requests.filter((r) => r.origin === 'storage')).toHaveLength(0)
  })

  test('extract: false replaces path whole with the archive; zip detected from bytes', async () => {
    await simulator({ bundle: { format: 'zip' } })
    // What an earlier run with extract: true unpacked there goes.
    await mkdir(path.join(workspace.dir, 'out/docs'), { recursive: true })
    await writeFile(path.join(workspace.dir, 'out/index.html'), 'an earlier site')
    const { outputs, failed } = await runExport({ extract: 'false', path: 'out' })
    expect(failed).toBe(false)
    expect(outputs['site-path']).toBe('')
    expect(outputs['bundle-path']).toBe(path.join(workspace.dir, 'out', 'bundle.zip'))
    expect(await readdir(path.join(workspace.dir, 'out'))).toEqual(['bundle.zip'])
  })

  test('a rerun replaces the earlier site whole', async () => {
    await simulator()
    const site = path.join(workspace.dir, 'static-export')
    await mkdir(site, { recursive: true })
    await writeFile(path.join(site, 'stale.html'), 'old')
    const { failed } = await runExport({})
    expect(failed).toBe(false)
    expect(await readdir(site)).not.toContain('stale.html')
    expect(await readdir(site)).toContain('index.html')
  })

  test('a link the storage refuses is replaced by a fresh one; the Helm values hold the one that served', async () => {
    await simulator()
    sim.addFault({ route: 'download', status: 403 })
    const { failed, outputs } = await runExport({ 'helm-values-file': 'values.yaml' })
    expect(failed).toBe(false)
    expect(sim.count('export-bundle')).toBe(2)
    const values = await readFile(path.join(workspace.dir, 'values.yaml'), 'utf8')
    expect(values).toContain(JSON.stringify(outputs['bundle-url']))
    expect(outputs['helm-values']).toBe(values)
  })

  test('a link that lasts two days gets no expiry warning; one that lasts an hour does', async () => {
    await simulator({ bundle: { linkTtlMs: 2 * 86_400_000 } })
    const lasting = await runExport({ 'helm-values-file': 'values.yaml' })
    expect(lasting.failed).toBe(false)
    expect(lasting.log.text()).not.toContain('expires at')
    sim.setBundle({ linkTtlMs: 3_600_000 })
    const short = await runExport({ 'helm-values-file': 'values.yaml' })
    expect(short.log.lines.filter((line) => line.startsWith('warning:') && line.includes('expires at'))).toHaveLength(1)
  })

  test('a storage error quotes its Code and Message only, never the signature it echoes', async () => {
    await simulator()
    sim.addFault({
      route: 'download',
      status: 400,
      body:
        '<Error><Code>SignatureDoesNotMatch</Code><Message>bad sig</Message>' +
        '<SignatureProvided>deadbeefsig123456</SignatureProvided></Error>'
    })
    const { failure, secrets } = await runExport({})
    expect(failure).toContain('SignatureDoesNotMatch: bad sig')
    expect(failure).not.toContain('deadbeefsig123456')
    // The API key is masked before anything else.
    expect(secrets[0]).toBe(sim.apiKey)
  })

  test('a link whose credential is a JWT in its path: downloaded, the JWT never in the log', async () => {
    // `…/dl/eyJ….eyJ….<signature>/site.tar.gz`, no query: "Bundle link:" and "Downloading" show `…` for it.
    await simulator({ bundle: { linkStyle: 'path-token' } })
    const { failed, outputs, log, summary, secrets } = await runExport({ 'helm-values-file': 'deploy/values.yaml' })
    expect(failed).toBe(false)
    const [link] = sim.issuedLinks
    const jwt = new URL(link ?? '').pathname.split('/')[2] ?? ''
    expect(jwt).toMatch(/^eyJ[\w-]+\.eyJ[\w-]+\.[\w-]{40,}$/)
    expect(outputs['bundle-url']).toBe(link)
    expect(await readFile(path.join(outputs['site-path'] as string, 'index.html'), 'utf8')).toContain('<html')
    const shown = `${sim.storageUrl}/dl/…/site.tar.gz`
    expect(log.text()).toContain(`Bundle link: ${shown} (expires`)
    expect(log.text()).toContain(`Downloading the bundle from ${shown}`)
    // Registered before anything is logged, so the runner masks it wherever it appears.
    expect(secrets).toContain(jwt)
    const parts = Array.from({ length: jwt.length - 7 }, (_, at) => jwt.slice(at, at + 8))
    for (const text of [log.text(), summary]) expect(parts.filter((part) => text.includes(part))).toEqual([])
  })

  test('an expired link is replaced by a fresh one', async () => {
    await simulator({ bundle: { linkTtlMs: 0 } })
    sim.setBundle({ linkTtlMs: 0 })
    const { failed, outputs } = await runExport({ download: 'true' })
    // Every link the simulator hands out is already expired: the action asks again, then gives up clearly.
    expect(failed).toBe(true)
    expect(sim.count('export-bundle')).toBeGreaterThan(1)
    expect(outputs['bundle-url']).toBeTruthy()
  })

  test('bad inputs fail before any request, listing every problem', async () => {
    await simulator()
    const { failed, failure, summary } = await runExport({
      domain: 'not a host',
      timeout: 'soon',
      'base-url': 'http://example.com'
    })
    expect(failed).toBe(true)
    expect(sim.requests).toHaveLength(0)
    expect(failure).toMatch(/Invalid inputs:[\s\S]*`base-url`[\s\S]*`timeout`[\s\S]*`domain`/)
    // The summary says so too: a refused run still leaves one.
    expect(summary).toContain('<h3>Docs admin</h3>')
    expect(summary).toContain('<p>❌ Invalid inputs:</p>')
    // As GitHub shows it: a list of the problems, their input names as code, no stray backtick.
    const { markdownBlocks, shownText, lists } = readSummary(summary)
    expect(markdownBlocks).toEqual([])
    expect(shownText).not.toContain('`')
    expect(lists).toEqual([
      [
        expect.stringContaining('<code>base-url</code>'),
        expect.stringContaining('<code>timeout</code>'),
        expect.stringContaining('<code>domain</code>')
      ]
    ])
  })

  test('a bundle link to a link-local address is refused before it is handed on or fetched', async () => {
    await simulator()
    sim.addFault({
      route: 'export-bundle',
      patch: { bundleUrl: 'http://169.254.169.254/latest/meta-data/iam/security-credentials/?sig=0123456789abcdef' }
    })
    const { failed, failure, outputs, secrets } = await runExport({ 'helm-values-file': 'values.yaml' })
    expect(failed).toBe(true)
    expect(failure).toBe(
      `Export job ${outputs['job-id']}: Refusing to fetch the bundle from ` +
        `http://169.254.169.254/latest/meta-data/iam/security-credentials/: ` +
        `it leads to a link-local address (such as a cloud metadata service), and \`base-url\` does not.`
    )
    expect(outputs['bundle-url']).toBeUndefined()
    expect(outputs['helm-values']).toBeUndefined()
    expect(secrets).toContain('0123456789abcdef')
    expect(sim.requests.filter((r) => r.origin === 'storage')).toHaveLength(0)
    expect(await readdir(workspace.dir)).toEqual([])
  })

  test('outputs carry only sane figures: progress 0..100, a whole non-negative page count', async () => {
    // Jobs that outlast `timeout`; a `timeout` that leaves room for a status read however slow the machine.
    await simulator({ exportJob: { durationMs: 6_000_000, queuedMs: 0 } })
    sim.addFault({ route: 'export-status', patch: { progress: 1e308, pageCount: -3 }, times: 100 })
    const { outputs, failed, log } = await runExport({ timeout: '60s' })
    expect(failed).toBe(true)
    expect(outputs.status).toBe('running')
    expect(outputs.progress).toBeUndefined()
    expect(outputs['page-count']).toBeUndefined()
    expect(log.text()).not.toContain('1e+308')
    sim.clearFaults()
    sim.addFault({ route: 'export-status', patch: { progress: '42', pageCount: 12.5 }, times: 100 })
    const second = await runExport({ timeout: '60s' })
    expect(second.outputs.progress).toBe('42')
    expect(second.outputs['page-count']).toBeUndefined()
  })

  test('an ambiguous failure of the start request is not repeated', async () => {
    await simulator()
    sim.addFault({ route: 'export-start', status: 500, process: true })
    const { failed, failure } = await runExport({})
    expect(failed).toBe(true)
    expect(sim.count('export-start')).toBe(1)
    expect(failure).toMatch(/start the export of docs\.acme\.com: the service answered HTTP 500/)
  })
})

describe('`path` is judged before any request, as the file system resolves it', () => {
  const temp = (): string => path.join(workspace.dir, 'runner-temp')

  /**
   * Runs with `path`, expects a refusal naming it that mentions `why`, no request at all, and
   * whatever was refused as it was.
   */
  async function refused(value: string, why: string, env: RunnerEnv = {}, inputs: Inputs = {}): Promise<void> {
    const { failed, failure, failureKind } = await runExport({ path: value, ...inputs }, env)
    expect(failed).toBe(true)
    expect(failureKind).toBe('input')
    expect(failure).toContain('`path` must be a folder of its own')
    expect(failure).toContain(why)
    expect(sim.requests).toHaveLength(0)
    expect(await readFile(path.join(workspace.dir, '.git/HEAD'), 'utf8')).toBe('ref: refs/heads/main\n')
    expect(await readFile(path.join(temp(), 'runner-file'), 'utf8')).toBe('the runner needs this')
  }

  beforeEach(async () => {
    await simulator()
    await mkdir(path.join(workspace.dir, '.git'), { recursive: true })
    await writeFile(path.join(workspace.dir, '.git/HEAD'), 'ref: refs/heads/main\n')
    await mkdir(temp(), { recursive: true })
    await writeFile(path.join(temp(), 'runner-file'), 'the runner needs this')
  })

  test("the repository's .git, also through a symlink", async () => {
    await refused('.git', 'a `.git` folder')
    await symlink(path.join(workspace.dir, '.git'), path.join(workspace.dir, 'innocent'))
    await refused('innocent', `(really ${path.join(workspace.dir, '.git')}), which is a \`.git\` folder or inside one`)
  })

  test("the runner's temp folder and its parents, also through a symlinked parent", async () => {
    await refused('runner-temp', "is the runner's temp folder (RUNNER_TEMP)")
    await refused('outer', "holds the runner's temp folder (RUNNER_TEMP)", {
      RUNNER_TEMP: path.join(workspace.dir, 'outer/temp')
    })
    await symlink(path.join(workspace.dir, 'runner-temp'), path.join(workspace.dir, 'linked'))
    await refused('linked', "is the runner's temp folder (RUNNER_TEMP)")
    // As a case-insensitive disk would see it.
    await refused('Runner-Temp', "is the runner's temp folder (RUNNER_TEMP)")
  })

  test("the runner's tool cache, the home folder, the action's own folder", async () => {
    await refused('tools', "is the runner's tool cache (RUNNER_TOOL_CACHE)", {
      RUNNER_TOOL_CACHE: path.join(workspace.dir, 'tools')
    })
    await refused('users', 'holds the home folder (HOME)', { HOME: path.join(workspace.dir, 'users/runner') })
    await refused('actions', "holds the action's own folder (GITHUB_ACTION_PATH)", {
      GITHUB_ACTION_PATH: path.join(workspace.dir, 'actions/docs-admin/v1')
    })
  })

  test('the folder the archive is downloaded to', async () => {
    await refused(
      path.join(temp(), 'docs-export-job_1'),
      'is where the archive is downloaded to',
      {},
      { domain: '', 'job-id': 'job_1' }
    )
    await refused(path.join(temp(), 'docs-export-anything'), 'is where the archive is downloaded to')
  })

  test('a git checkout that replacing the folder would delete, unpacked or not, and a file', async () => {
    await mkdir(path.join(workspace.dir, 'gh-pages/.git'), { recursive: true })
    await refused(
      'gh-pages',
      'holds a git repository (.git) that replacing the folder would delete; put the site in a folder of its own'
    )
    // With `extract: false` the folder is replaced whole too, by one that holds the archive.
    await refused(
      'gh-pages',
      'holds a git repository (.git) that replacing the folder would delete; put the archive in a folder',
      {},
      { extract: 'false' }
    )
    expect(await readdir(path.join(workspace.dir, 'gh-pages'))).toEqual(['.git'])
    await writeFile(path.join(workspace.dir, 'notes.txt'), 'mine')
    await refused('notes.txt', 'is a file')
    expect(await readFile(path.join(workspace.dir, 'notes.txt'), 'utf8')).toBe('mine')
  })

  test("a folder inside the runner's temp folder is fine", async () => {
    const { failed, outputs } = await runExport({ path: path.join(temp(), 'site') })
    expect(failed).toBe(false)
    expect(outputs['site-path']).toBe(path.join(temp(), 'site'))
  })
})

describe("`path` and the repository's files", () => {
  /** The workspace as a git checkout whose index holds `files` (added, not committed: tracked all the same). */
  async function checkout(files: Record<string, string>): Promise<void> {
    const git = (...args: string[]) => execFileSync('git', args, { cwd: workspace.dir, stdio: 'pipe' })
    git('init', '-q')
    for (const [name, content] of Object.entries(files)) {
      await mkdir(path.dirname(path.join(workspace.dir, name)), { recursive: true })
      await writeFile(path.join(workspace.dir, name), content)
    }
    git('add', '--', ...Object.keys(files))
  }
  const changes = () => execFileSync('git', ['status', '--porcelain'], { cwd: workspace.dir, encoding: 'utf8' })
  const warningsOf = (lines: string[]) => lines.filter((line) => line.startsWith('warning:') && line.includes('`path`'))

  test('a folder of tracked files is refused before any request, naming one, and left as it was', async () => {
    await simulator()
    await checkout({ 'docs/intro.mdx': '# Intro\n', 'docs/docs.json': '{}\n', 'content/api/get.mdx': '# Get\n' })
    const docs = await runExport({ path: 'docs' })
    expect(docs.failureKind).toBe('input')
    expect(docs.failure).toBe(
      `\`path\` must be a folder of its own (it is replaced whole by each export), not ` +
        `${path.join(workspace.dir, 'docs')}, which holds docs/docs.json, a file its git repository tracks, ` +
        `which replacing the folder would delete; export into a folder that holds no tracked file, such as ` +
        `\`path: static-export\`.`
    )
    // A folder above tracked files, and one in a folder of the checkout that git does not track.
    expect((await runExport({ path: 'content' })).failure).toContain('which holds content/api/get.mdx, a file its')
    expect((await runExport({ path: 'content/api' })).failure).toContain('which holds content/api/get.mdx, a file')
    expect(sim.requests).toHaveLength(0)
    expect(await readdir(path.join(workspace.dir, 'docs'))).toEqual(['docs.json', 'intro.mdx'])
    expect(changes()).toBe('A  content/api/get.mdx\nA  docs/docs.json\nA  docs/intro.mdx\n')
  })

  test('an untracked folder of other files is replaced with a warning naming it; a new one quietly', async () => {
    await simulator()
    await checkout({ 'docs/intro.mdx': '# Intro\n' })
    await mkdir(path.join(workspace.dir, 'site'))
    await writeFile(path.join(workspace.dir, 'site/notes.md'), 'mine')
    const replaced = await runExport({ path: 'site' })
    expect(replaced.failure).toBeUndefined()
    expect(warningsOf(replaced.log.lines)).toEqual([
      `warning: \`path\` (${path.join(workspace.dir, 'site')}) holds files that no earlier export wrote ` +
        `(notes.md, maybe more): the export replaces the folder whole, and they will be gone. If they are to ` +
        `stay, give \`path\` a folder of its own.`
    ])
    expect(await readdir(path.join(workspace.dir, 'site'))).toContain('index.html')
    const fresh = await runExport({ path: 'new-site' })
    expect(fresh.failure).toBeUndefined()
    expect(warningsOf(fresh.log.lines)).toEqual([])
  })

  test("an earlier export's folder is replaced silently; the record is beside it, not in it", async () => {
    await simulator()
    await checkout({ 'docs/intro.mdx': '# Intro\n' })
    const site = path.join(workspace.dir, 'static-export')
    expect((await runExport({})).failure).toBeUndefined()
    // Stale staging folders beside the site are swept on the next run; the record is not one of them.
    await mkdir(path.join(workspace.dir, '.static-export.staging-0123456789ab'))
    const again = await runExport({})
    expect(again.failure).toBeUndefined()
    expect(again.log.text()).toContain('.static-export.staging-0123456789ab')
    expect(warningsOf(again.log.lines)).toEqual([])
    expect(await readdir(site)).not.toContain('.static-export.exported')
    expect((await readdir(workspace.dir)).filter((name) => name.startsWith('.static-export'))).toEqual([
      '.static-export.exported'
    ])
    // A folder made again by hand in its place is not the export's, whatever the record says.
    await rm(site, { recursive: true })
    await mkdir(site)
    await writeFile(path.join(site, 'draft.html'), 'mine')
    const made = await runExport({})
    expect(warningsOf(made.log.lines)).toEqual([expect.stringContaining('(draft.html, maybe more)')])
    // The repository sees the site and the record as new files, and nothing of its own changed.
    expect(changes()).toBe('A  docs/intro.mdx\n?? .static-export.exported\n?? runner-temp/\n?? static-export/\n')
  })

  test('a repository that git cannot read fails the step with what git said, before any request', async () => {
    await simulator()
    await checkout({ 'docs/intro.mdx': '# Intro\n' })
    await writeFile(path.join(workspace.dir, '.git/index'), 'not an index')
    const { failure, failureKind } = await runExport({ path: 'site' })
    expect(failureKind).toBe('failed')
    // git's own words for it vary between versions.
    expect(failure).toMatch(/^Could not check whether `path` \(.*\) holds files its git repository tracks: /)
    expect(failure).toContain(`(${path.join(workspace.dir, 'site')})`)
    expect(failure).toContain('git ls-files ended with exit code 128: fatal: ')
    expect(sim.requests).toHaveLength(0)
  })

  test('without git on PATH the check is skipped with a debug line, and the export goes on', async () => {
    await simulator({ bundle: { format: 'zip' } })
    const saved = process.env['PATH']
    process.env['PATH'] = path.join(workspace.dir, 'no-tools')
    try {
      const { failure, log } = await runExport({ path: 'site' })
      expect(failure).toBeUndefined()
      expect(log.lines).toContain(
        `debug: git is not installed: not checking whether \`path\` (${path.join(workspace.dir, 'site')}) ` +
          'holds files a repository tracks.'
      )
    } finally {
      process.env['PATH'] = saved
    }
  })
})

describe('max-site-size', () => {
  test('a bundle that unpacks to more fails saying which bound; the previous site stays', async () => {
    await simulator({
      bundle: {
        entries: [...fixtureSiteEntries(), { type: 'file', name: 'zeros.bin', content: Buffer.alloc(3 * 1024 * 1024) }]
      }
    })
    const site = path.join(workspace.dir, 'static-export')
    await mkdir(site)
    await writeFile(path.join(site, 'index.html'), 'previous')
    const { failed, failure, outputs } = await runExport({ 'max-site-size': '1m' })
    expect(failed).toBe(true)
    expect(failure).toContain('more than 1.0 MiB, the bound set by `max-site-size`')
    // The download stopped part-way: no archive is handed on.
    expect([outputs['bundle-path'], outputs['bundle-sha256'], outputs['cache-hit']]).toEqual([
      undefined,
      undefined,
      undefined
    ])
    expect(sim.requests.filter((r) => r.origin === 'storage')).toHaveLength(1)
    expect(await readdir(site)).toEqual(['index.html'])
    expect(await readFile(path.join(site, 'index.html'), 'utf8')).toBe('previous')
    expect((await readdir(workspace.dir)).sort()).toEqual(['runner-temp', 'static-export'])
  })
})

describe('the site check and the Helm values', () => {
  // The pages are read back from the staged site once it is unpacked, whichever reader unpacked it.
  test.each(['tar.gz', 'zip'] as const)(
    'the site check (%s): a link to no file is a warning with its page and line, counted in broken-links',
    async (format) => {
      await simulator({ bundle: { format } })
      const { failed, outputs, log, summary } = await runExport({})
      expect(failed).toBe(false)
      expect(outputs['broken-links']).toBe('1')
      expect(log.lines.filter((l) => l.startsWith('warning:'))).toEqual([
        expect.stringMatching(
          /^warning: Broken link in index\.html line \d+: "\/guides\/removed-page" leads to no file of the site\.$/
        )
      ])
      expect(log.text()).toMatch(/Checked the site: 7 pages, \d+ internal links, 1 broken/)
      expect(summary).toContain('Broken links')
      expect(log.text()).toContain(`Unpacked the ${format} bundle`)
    }
  )

  test('two page names differing only in case are refused, naming the later: one file on macOS/Windows', async () => {
    const entries = fixtureSiteEntries()
    await simulator({
      exportJob: { durationMs: 3000, queuedMs: 500, pageCount: 7 },
      bundle: {
        entries: [{ type: 'file', name: 'Index.html', content: '<a href="/gone-before">x</a>' }, ...entries],
        format: 'tar.gz'
      }
    })
    const { failed, failure } = await runExport({})
    expect(failed).toBe(true)
    expect(failure).toContain('entry "index.html" differs only in case or Unicode form from "Index.html"')
    expect(await readdir(workspace.dir)).not.toContain('static-export')
  })

  test('a twice-named page is checked as the later entry left it: the earlier one and its links are gone', async () => {
    const entries = fixtureSiteEntries()
    const index = entries.find((entry) => entry.name === 'index.html')
    if (index?.type !== 'file') throw new Error('the fixture site has an index.html')
    await simulator({
      exportJob: { durationMs: 3000, queuedMs: 500, pageCount: 7 },
      bundle: {
        entries: [{ type: 'file', name: 'index.html', content: '<a href="/gone-before">x</a>' }, ...entries],
        format: 'tar.gz'
      }
    })
    const { failed, outputs, log } = await runExport({})
    expect(failed).toBe(false)
    expect(outputs['broken-links']).toBe('1')
    expect(log.lines.filter((l) => l.startsWith('warning:'))).toEqual([
      expect.stringMatching(
        /^warning: Broken link in index\.html line \d+: "\/guides\/removed-page" leads to no file of the site\.$/
      )
    ])
    expect(await readFile(path.join(workspace.dir, 'static-export', 'index.html'))).toEqual(Buffer.from(index.content))
  })

  test("a broken link's text reaches the log plain: no mark that reorders the line, no terminal escape", async () => {
    const entries = fixtureSiteEntries().filter((entry) => entry.name !== 'index.html')
    // U+202E turns the rest of the line around on screen; U+009B starts a terminal escape.
    const page = '<a href="/docs/\u202elmth.exe">x</a> <a href="/docs/\u009b31mred">y</a>'
    await simulator({
      exportJob: { durationMs: 3000, queuedMs: 500, pageCount: 7 },
      bundle: { entries: [{ type: 'file', name: 'index.html', content: page }, ...entries], format: 'tar.gz' }
    })
    const { failed, log } = await runExport({})
    expect(failed).toBe(false)
    const warnings = log.lines.filter((l) => l.startsWith('warning: Broken link'))
    expect(warnings).toEqual([
      'warning: Broken link in index.html line 1: "/docs/ lmth.exe" leads to no file of the site.',
      'warning: Broken link in index.html line 1: "/docs/ 31mred" leads to no file of the site.'
    ])
  })

  test('verify: strict fails on a broken link before the swap, and the previous site stays', async () => {
    await simulator()
    const site = path.join(workspace.dir, 'static-export')
    await mkdir(site, { recursive: true })
    await writeFile(path.join(site, 'index.html'), 'the old site')
    const { failed, failure, outputs } = await runExport({ verify: 'strict' })
    expect(failed).toBe(true)
    expect(failure).toContain(
      'The site check failed (`verify: strict`): 1 internal link leads to no file of the site. ' +
        'The previous site was left as it was.'
    )
    expect(outputs['broken-links']).toBe('1')
    expect(await readFile(path.join(site, 'index.html'), 'utf8')).toBe('the old site')
    expect((await readdir(workspace.dir)).filter((name) => name.startsWith('.'))).toEqual([])
    // The whole archive is kept and handed on, for the workflow to look at; the site is not.
    expect(outputs['bundle-sha256']).toMatch(/^[0-9a-f]{64}$/)
    expect(
      createHash('sha256')
        .update(await readFile(outputs['bundle-path']!))
        .digest('hex')
    ).toBe(outputs['bundle-sha256'])
    expect(outputs['bundle-size']).toBe(String((await stat(outputs['bundle-path']!)).size))
    expect(outputs['cache-hit']).toBe('false')
    expect(outputs['site-path']).toBeUndefined()
  })

  test('outside a runner (no RUNNER_TEMP) the archive goes with the run, success or not, never handed on', async () => {
    await simulator()
    const outside = { RUNNER_TEMP: undefined }
    const passed = await runExport({}, outside)
    expect(passed.failed).toBe(false)
    await readFile(path.join(passed.outputs['site-path'] as string, 'index.html'))
    expect(passed.outputs['bundle-path']).toBeUndefined()
    expect(passed.outputs['bundle-sha256']).toMatch(/^[0-9a-f]{64}$/)
    const folder = archiveFolderOf({ env: () => undefined }, passed.outputs['job-id'] as string)
    await expect(stat(folder)).rejects.toMatchObject({ code: 'ENOENT' })
    expect(passed.log.text()).toContain(`Removed the archive's folder ${folder}: outside a runner nothing else would.`)

    // The fixture site has a broken link: the strict check fails once the archive is whole.
    const failed = await runExport({ verify: 'strict' }, outside)
    expect(failed.failed).toBe(true)
    expect(failed.outputs['bundle-sha256']).toMatch(/^[0-9a-f]{64}$/)
    expect(failed.outputs['bundle-path']).toBeUndefined()
    await expect(
      stat(archiveFolderOf({ env: () => undefined }, failed.outputs['job-id'] as string))
    ).rejects.toMatchObject({ code: 'ENOENT' })

    // Not unpacked, the archive is the product, in `path`: it stays.
    const kept = await runExport({ extract: 'false', path: 'out' }, outside)
    expect(kept.outputs['bundle-path']).toBe(path.join(workspace.dir, 'out', 'bundle.tar.gz'))
    await stat(kept.outputs['bundle-path'] as string)
  })

  test('verify: strict fails on a finding other than a broken link, and the previous site stays', async () => {
    // The finding: fewer pages than the job reported.
    await simulator({
      exportJob: { durationMs: 3000, queuedMs: 500, pageCount: 50 },
      bundle: { entries: [{ type: 'file', name: 'index.html', content: '<html><a href="/">home</a></html>' }] }
    })
    const site = path.join(workspace.dir, 'static-export')
    await mkdir(site, { recursive: true })
    await writeFile(path.join(site, 'index.html'), 'the old site')
    const { failed, failure, outputs } = await runExport({ verify: 'strict' })
    expect(failed).toBe(true)
    expect(failure).toContain('fewer than the 50 the export job reported')
    expect(outputs['broken-links']).toBe('0')
    expect(await readFile(path.join(site, 'index.html'), 'utf8')).toBe('the old site')
  })

  test('verify: false checks nothing; fewer pages than the job reported is a warning', async () => {
    await simulator({ exportJob: { durationMs: 3000, queuedMs: 500, pageCount: 50 } })
    const off = await runExport({ verify: 'false' })
    expect(off.outputs['broken-links']).toBeUndefined()
    expect(off.log.text()).not.toContain('Checked the site')
    const on = await runExport({})
    expect(on.log.lines).toContainEqual(
      'warning: The site has 7 HTML pages, fewer than the 50 the export job reported.'
    )
  })

  test('helm-bundle-url goes into the Helm values instead of the presigned link', async () => {
    // Without it, a link that expires within a day is a warning with the time.
    await simulator()
    const durable = await runExport({
      'helm-values-file': 'values.yaml',
      'helm-bundle-url': 'https://downloads.acme.com/docs/bundle.tar.gz'
    })
    expect(durable.failed).toBe(false)
    expect(await readFile(path.join(workspace.dir, 'values.yaml'), 'utf8')).toBe(
      'staticExport:\n  enabled: true\n  bundleUrl: "https://downloads.acme.com/docs/bundle.tar.gz"\n'
    )
    expect(durable.outputs['helm-values']).toContain('https://downloads.acme.com/docs/bundle.tar.gz')
    expect(durable.log.text()).not.toContain('expires at')
    const presigned = await runExport({ 'helm-values-file': 'values.yaml' })
    // The warning says when the link ends, in UTC and from now (formatFromNow's own test checks how far).
    const expiresAt = (presigned.outputs['expires-at'] as string).replace(/^(.{10})T(.{8}).*$/, '$1 $2 UTC')
    const warning = `The Helm values point at the presigned bundle link, which expires at ${expiresAt} (in `
    expect(presigned.log.lines).toContainEqual(expect.stringMatching(/which expires at .* UTC \(in \d+ min\): /))
    expect(presigned.log.lines).toContainEqual(expect.stringContaining(`warning: ${warning}`))
    expect(presigned.summary).toContain(warning)
    const refused = await runExport({ 'helm-bundle-url': 'bundle.tar.gz' })
    expect(refused.failure).toContain('`helm-bundle-url` must be an absolute address')
  })
})

describe("the runner's tool cache", () => {
  test('a same-job rerun unpacks the bundle the tool cache kept: no download, cache-hit true, same site', async () => {
    await simulator()
    const toolCache = path.join(workspace.dir, 'tool-cache')
    const first = await runExport({}, {}, toolCache)
    expect(first.failed).toBe(false)
    expect(first.outputs['cache-hit']).toBe('false')
    expect(first.log.text()).toContain('Kept the bundle of export job')
    const downloads = sim.count('download')
    await writeFile(path.join(workspace.dir, 'static-export', 'stale.html'), 'from before')
    const second = await runExport({ domain: '', 'job-id': first.outputs['job-id'] as string }, {}, toolCache)
    expect(second.failed).toBe(false)
    expect(second.outputs['cache-hit']).toBe('true')
    expect(sim.count('download')).toBe(downloads)
    expect(second.outputs['bundle-sha256']).toBe(first.outputs['bundle-sha256'])
    expect(await readdir(path.join(workspace.dir, 'static-export'))).not.toContain('stale.html')
    expect(await readFile(path.join(workspace.dir, 'static-export', 'index.html'), 'utf8')).toContain('<html')
    // The site check ran on the cached copy too.
    expect(second.outputs['broken-links']).toBe('1')
  })

  test('a damaged copy in the cache is not used: the bundle is downloaded again', async () => {
    await simulator()
    const toolCache = path.join(workspace.dir, 'tool-cache')
    const first = await runExport({}, {}, toolCache)
    const [kept] = (await readdir(toolCache, { recursive: true })).filter((name) =>
      String(name).endsWith('bundle.tar.gz')
    )
    await writeFile(path.join(toolCache, String(kept)), 'not a bundle any more')
    const second = await runExport({ domain: '', 'job-id': first.outputs['job-id'] as string }, {}, toolCache)
    expect(second.failure).toBeUndefined()
    expect(second.outputs['cache-hit']).toBe('false')
    expect(second.log.lines).toContainEqual(
      expect.stringMatching(/^warning: The bundle kept in the tool cache cannot be used/)
    )
    expect(second.outputs['bundle-sha256']).toBe(first.outputs['bundle-sha256'])
  })

  test('it keeps the three most recent bundles: a run for a new job each time does not fill the disk', async () => {
    await simulator()
    const toolCache = path.join(workspace.dir, 'tool-cache')
    const jobs: string[] = []
    for (let run = 0; run < 5; run++) {
      const done = await runExport({}, {}, toolCache)
      expect(done.failed).toBe(false)
      jobs.push(done.outputs['job-id'] as string)
      // Cached one after another, not within the same millisecond.
      await new Promise((resolve) => setTimeout(resolve, 5))
    }
    expect(await readdir(path.join(toolCache, 'docs-export-bundle'))).toHaveLength(3)
    // The latest is among them: a rerun of it still comes from the cache.
    expect((await runExport({ domain: '', 'job-id': jobs.at(-1) as string }, {}, toolCache)).outputs['cache-hit']).toBe(
      'true'
    )
    expect((await runExport({ domain: '', 'job-id': jobs[0] as string }, {}, toolCache)).outputs['cache-hit']).toBe(
      'false'
    )
  })

  test('of the bundles kept, a used one goes last: one reruns keep using is not pushed out by newer jobs', async () => {
    await simulator()
    const toolCache = path.join(workspace.dir, 'tool-cache')
    const pause = (): Promise<unknown> => new Promise((resolve) => setTimeout(resolve, 5))
    const newJob = async (): Promise<string> => {
      await pause()
      return (await runExport({}, {}, toolCache)).outputs['job-id'] as string
    }
    const rerun = async (jobId: string): Promise<string | undefined> => {
      await pause()
      return (await runExport({ domain: '', 'job-id': jobId }, {}, toolCache)).outputs['cache-hit']
    }
    const used = await newJob()
    const unused = await newJob()
    expect(await rerun(used)).toBe('true')
    await newJob()
    await newJob()
    // Stored: used, unused, two more; used again after unused, so unused is the one let go.
    expect(await rerun(used)).toBe('true')
    expect(await rerun(unused)).toBe('false')
  })

  test('no tool cache, or another job: downloaded, cache-hit false', async () => {
    await simulator()
    expect((await runExport({})).outputs['cache-hit']).toBe('false')
    const toolCache = path.join(workspace.dir, 'tool-cache')
    await runExport({}, {}, toolCache)
    expect((await runExport({}, {}, toolCache)).outputs['cache-hit']).toBe('false')
  })
})

describe('pure parts of the export', () => {
  test('the Helm values hold any text as a double-quoted YAML string, control characters YAML refuses escaped', () => {
    const yaml = helmValuesYaml('https://x/b?sig=1', 'v1\u007f\u0085"\nevil: x\u2028')
    expect(yaml).toBe(
      'staticExport:\n  enabled: true\n  bundleUrl: "https://x/b?sig=1"\n' +
        '  version: "v1\\u007f\\u0085\\"\\nevil: x\\u2028"\n'
    )
  })

  test("outside a runner the archive folder is the process's own; on a runner, the job's in its temp folder", () => {
    expect(archiveFolderOf({ env: () => undefined }, 'exp_1')).toBe(
      path.join(os.tmpdir(), `docs-export-exp_1-${process.pid}`)
    )
    expect(archiveFolderOf({ env: (name) => (name === 'RUNNER_TEMP' ? '/runner/tmp' : undefined) }, 'exp_1')).toBe(
      path.join('/runner/tmp', 'docs-export-exp_1')
    )
  })
})
