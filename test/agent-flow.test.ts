import { describe, expect, test } from '@jest/globals'
import { readFile } from 'node:fs/promises'
import * as path from 'node:path'
import { readAgentJob } from '../src/service/agent-api.js'
import { NO_STATUS_IN_A_ROW } from '../src/service/client.js'
import type { Simulator, SimulatorOptions } from '../simulator/server.js'
import { readSummary } from './support/github-summary.js'
import { heartbeatPattern } from './support/clock.js'
import { type Inputs, type RunResult, agentInputs as inputsFor, simulatorPerTest } from './support/harness.js'

const sims = simulatorPerTest()

/** Agent jobs work for 3 s on the test clock after each message. */
async function simulator(agent: SimulatorOptions['agent'] = {}): Promise<Simulator> {
  const fixture = await sims.start({ agent: { durationMs: 3000, ...agent } })
  return fixture.sim
}

/** Polls every second or two, so a 3 s job is seen `active` first. */
function agentInputs(sim: Simulator, values: Inputs): Inputs {
  return inputsFor(sim, { 'poll-interval': '1s', 'max-poll-interval': '2s', ...values })
}

function runAction(inputs: Inputs): Promise<RunResult> {
  return sims.current.run(inputs)
}

describe('agent-message', () => {
  test('sends the message once, waits for completed and sets every output', async () => {
    // Long enough for a poll to see it active however slow the machine (20 s: 200 ms of real time).
    const s = await simulator({ durationMs: 20_000 })
    const { outputs, failure, log, summary } = await runAction(
      agentInputs(s, {
        operation: 'agent-message',
        'job-id': 'job_abc',
        prompt: '  Fix the typo on the install page  '
      })
    )
    expect(failure).toBeUndefined()
    expect(s.count('agent-message')).toBe(1)
    expect(s.requests.find((r) => r.route === 'agent-message')?.body).toEqual({
      prompt: 'Fix the typo on the install page'
    })
    expect(Object.fromEntries(outputs)).toEqual(
      expect.objectContaining({
        'job-id': 'job_abc',
        status: 'completed',
        'pr-link': 'https://github.com/acme/docs/pull/42',
        model: 'sim-agent-1',
        'source-repository': 'https://github.com/acme/docs',
        'source-ref': 'main',
        'created-at': '2024-01-01T00:00:00.000Z',
        'archived-at': ''
      })
    )
    // Without a comment nothing can be skipped: no output says it was not.
    expect([outputs.has('skipped'), outputs.has('skip-reason')]).toEqual([false, false])
    // Each change of status is logged once, not every identical poll.
    expect(log.lines.filter((l) => l.startsWith('info: Agent job job_abc: active after'))).toHaveLength(1)
    expect(log.lines.filter((l) => l.startsWith('info: Agent job job_abc: completed after'))).toHaveLength(1)
    expect(summary).toContain('<h3>Message to agent job job_abc</h3>')
    expect(summary).toContain('<code>job_abc</code>')
    expect(summary).toContain('<strong>completed</strong>')
    expect(summary).toContain('https://github.com/acme/docs/pull/42')
    expect(summary).toContain('Fix the typo on the install page')
  })

  test('the summary shows the first 200 characters of the prompt', async () => {
    const s = await simulator()
    const prompt = `${'a'.repeat(200)}TAIL`
    const { failure, summary } = await runAction(
      agentInputs(s, { operation: 'agent-message', 'job-id': 'job_abc', prompt })
    )
    expect(failure).toBeUndefined()
    expect(summary).toContain(`${'a'.repeat(200)}…`)
    expect(summary).not.toContain('TAIL')
  })

  test('completed without file changes: empty pr-link, said in the log and the summary', async () => {
    const s = await simulator()
    const { outputs, failure, log, summary } = await runAction(
      agentInputs(s, { operation: 'agent-message', 'job-id': 'job_abc', prompt: 'Check links NOCHANGE' })
    )
    expect(failure).toBeUndefined()
    expect(outputs.get('status')).toBe('completed')
    expect(outputs.get('pr-link')).toBe('')
    expect(log.text()).toContain('completed without a pull request')
    expect(summary).toContain('completed without a pull request')
  })

  test('archived succeeds and sets archived-at', async () => {
    const s = await simulator()
    const { outputs, failure } = await runAction(
      agentInputs(s, { operation: 'agent-message', 'job-id': 'job_abc', prompt: 'ARCHIVE it' })
    )
    expect(failure).toBeUndefined()
    expect(outputs.get('status')).toBe('archived')
    expect(outputs.get('archived-at')).toMatch(/^\d{4}-\d\d-\d\dT/)
  })

  test('failed fails the step naming the job, with the outputs kept', async () => {
    const s = await simulator()
    const { outputs, failure, summary } = await runAction(
      agentInputs(s, { operation: 'agent-message', 'job-id': 'job_abc', prompt: 'FAIL please' })
    )
    expect(failure).toContain('Agent job job_abc failed')
    expect(outputs.get('status')).toBe('failed')
    expect(outputs.get('job-id')).toBe('job_abc')
    expect(summary).toContain('Agent job job_abc failed')
  })

  test('wait: false sends the message and returns; agent-status then waits for the end', async () => {
    const s = await simulator()
    const sent = await runAction(
      agentInputs(s, { operation: 'agent-message', 'job-id': 'job_abc', prompt: 'Go', wait: 'false' })
    )
    expect(sent.failure).toBeUndefined()
    expect(sent.outputs.get('status')).toBe('active')
    expect(s.count('agent-get')).toBe(0)
    // The summary's note shows its code as code: GitHub reads no Markdown inside HTML.
    expect(sent.summary).toContain('<p>Not waiting for the job (<code>wait: false</code>).</p>')
    expect(readSummary(sent.summary).markdownBlocks).toEqual([])
    expect(readSummary(sent.summary).shownText).not.toContain('`')
    const status = await runAction(agentInputs(s, { operation: 'agent-status', 'job-id': 'job_abc' }))
    expect(status.failure).toBeUndefined()
    expect(status.outputs.get('status')).toBe('completed')
    expect(status.outputs.get('pr-link')).toBe('https://github.com/acme/docs/pull/42')
    expect(s.count('agent-message')).toBe(1)
  })
})

describe('a long wait', () => {
  test('keeps talking: a line at least every minute, with the status, the time waited and the next check', async () => {
    // Three minutes of `active` (1.8 s of real time), with the defaults: 5 s, growing to 60 s.
    const s = await simulator({ durationMs: 180_000 })
    const { failure, log } = await runAction(
      inputsFor(s, { operation: 'agent-message', 'job-id': 'job_abc', prompt: 'Rewrite the guide' })
    )
    expect(failure).toBeUndefined()
    const heartbeats = log.lines.filter((line) => line.startsWith('progress: Agent job job_abc: '))
    expect(heartbeats.length).toBeGreaterThanOrEqual(2)
    for (const line of heartbeats) expect(line).toMatch(heartbeatPattern(/active/))
  })
})

describe('agent-status and agent-create', () => {
  test('agent-status with wait: false reads the job once', async () => {
    const s = await simulator()
    const { outputs, failure } = await runAction(
      agentInputs(s, { operation: 'agent-status', 'job-id': 'job_abc', wait: 'false' })
    )
    expect(failure).toBeUndefined()
    expect(s.count('agent-get')).toBe(1)
    expect(outputs.get('status')).toBe('completed')
    expect(outputs.get('pr-link')).toBe('https://github.com/acme/docs/pull/42')
  })

  test('an answer without status: shown with wait: false; followed until one has it, for a few in a row', async () => {
    // A job's answer has no required field, `status` included.
    const s = await simulator()
    s.addFault({ route: 'agent-get', status: 200, body: { id: 'job_abc', model: 'sim-agent-2' }, times: 3 })
    const once = await runAction(agentInputs(s, { operation: 'agent-status', 'job-id': 'job_abc', wait: 'false' }))
    expect(once.failure).toBeUndefined()
    expect(once.outputs.get('model')).toBe('sim-agent-2')
    expect(once.outputs.get('status')).toBeUndefined()
    // The first read and the first poll have none; the next has one.
    const followed = await runAction(agentInputs(s, { operation: 'agent-status', 'job-id': 'job_abc' }))
    expect(followed.failure).toBeUndefined()
    expect(followed.outputs.get('status')).toBe('completed')
    expect(followed.log.text()).toContain(
      'warning: Agent job job_abc: could not read its status ' +
        "(Could not read agent job job_abc: the service's answer carries no `status`.); still waiting"
    )
    // None ever: after a few in a row, that is how the service answers, and the step says so.
    const reads = s.count('agent-get')
    s.addFault({ route: 'agent-get', status: 200, body: { id: 'job_abc' }, times: 1000 })
    const never = await runAction(agentInputs(s, { operation: 'agent-status', 'job-id': 'job_abc', timeout: '10m' }))
    expect(never.failure).toBe("Could not read agent job job_abc: the service's answer carries no `status`.")
    // The first read is the first of the few read past.
    expect(s.count('agent-get') - reads).toBe(NO_STATUS_IN_A_ROW + 1)
    // An answer that is no job at all fails at once.
    s.clearFaults()
    s.addFault({ route: 'agent-get', status: 200, body: [], times: 1000 })
    const list = await runAction(agentInputs(s, { operation: 'agent-status', 'job-id': 'job_abc', timeout: '10m' }))
    expect(list.failure).toBe("Could not read agent job job_abc: the service's answer is not a job (a list).")
    // A job's answer with its own `error` field but no status is still a job's: read again.
    s.clearFaults()
    s.addFault({ route: 'agent-get', status: 200, body: { id: 'job_abc', error: 'last step retried' }, times: 2 })
    expect(
      (await runAction(agentInputs(s, { operation: 'agent-status', 'job-id': 'job_abc' }))).failure
    ).toBeUndefined()
  })

  test('agent-create creates one job (201), outputs its id and waits for it', async () => {
    const s = await simulator()
    const { outputs, failure } = await runAction(
      agentInputs(s, { operation: 'agent-create', prompt: 'Document the new CLI flag' })
    )
    expect(failure).toBeUndefined()
    expect(s.count('agent-create')).toBe(1)
    expect(s.agentJobs.size).toBe(2)
    expect(outputs.get('job-id')).toMatch(/^job_[0-9a-f]+$/)
    expect(s.agentJobs.get(`proj_123/${outputs.get('job-id')}`)?.prompts).toEqual(['Document the new CLI flag'])
    expect(outputs.get('status')).toBe('completed')
    expect(outputs.get('pr-link')).toMatch(/\/pull\/\d+$/)
  })

  test('an answer is read defensively: wrapper, snake_case, null and odd types', () => {
    const job = readAgentJob({
      job: {
        job_id: 7,
        status: 'active',
        source: 'https://git.example/r',
        pr_link: 'javascript:alert(1)',
        created_at: 1_700_000_000,
        archivedAt: null
      }
    })
    expect(job).toEqual(
      expect.objectContaining({
        id: '7',
        status: 'active',
        sourceRepository: 'https://git.example/r',
        prLink: undefined,
        createdAt: '2023-11-14T22:13:20.000Z',
        archivedAt: undefined
      })
    )
    expect(readAgentJob('not an object').status).toBeUndefined()
  })
})

describe('faults and limits', () => {
  test('the message POST is not sent again after a 500', async () => {
    const s = await simulator()
    s.addFault({ route: 'agent-message', status: 500, process: true })
    const { failure } = await runAction(
      agentInputs(s, { operation: 'agent-message', 'job-id': 'job_abc', prompt: 'Once only' })
    )
    expect(s.count('agent-message')).toBe(1)
    expect(failure).toContain('HTTP 500')
    expect(failure).toContain('not sent again')
  })

  test('the message POST is not sent again after a dropped connection', async () => {
    const s = await simulator()
    s.addFault({ route: 'agent-message', drop: true })
    const { failure } = await runAction(
      agentInputs(s, { operation: 'agent-message', 'job-id': 'job_abc', prompt: 'Once only' })
    )
    expect(s.count('agent-message')).toBe(1)
    expect(failure).toContain('not sent again')
  })

  test('the message POST is retried after 503 and after a 429 with a short Retry-After', async () => {
    const s = await simulator()
    s.addFault({ route: 'agent-message', status: 503 })
    s.addFault({ route: 'agent-message', status: 429, retryAfter: '2' })
    const { failure, outputs } = await runAction(
      agentInputs(s, { operation: 'agent-message', 'job-id': 'job_abc', prompt: 'Try again' })
    )
    expect(failure).toBeUndefined()
    expect(s.count('agent-message')).toBe(3)
    expect(s.agentJobs.get('proj_123/job_abc')?.prompts).toEqual(['Try again'])
    expect(outputs.get('status')).toBe('completed')
  })

  test('a 429 whose Retry-After does not fit in timeout fails at once with the hourly limit', async () => {
    const s = await simulator({ messagesPerHour: 0 })
    const { failure, elapsedMs } = await runAction(
      agentInputs(s, { operation: 'agent-message', 'job-id': 'job_abc', prompt: 'Too many' })
    )
    expect(s.count('agent-message')).toBe(1)
    expect(elapsedMs).toBeLessThan(10_000)
    expect(failure).toContain(
      "Could not send the message to agent job job_abc: the service's limit on sending messages, 100 uses an hour " +
        'per project, is reached for project proj_123 (HTTP 429: the service said "rate limit exceeded'
    )
    expect(failure).toMatch(/Try again after \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC \(in 1h 00m\)\.$/)
  })

  test('a 429 to a create: the limit on creating jobs, 100 uses an hour per project too; not sent again', async () => {
    const s = await simulator()
    s.addFault({ route: 'agent-create', status: 429, retryAfter: '1800', body: { error: 'too many requests' } })
    const { failure } = await runAction(agentInputs(s, { operation: 'agent-create', prompt: 'Hello' }))
    expect(failure).toMatch(
      new RegExp(
        "^Could not create an agent job in project proj_123: the service's limit on creating agent jobs, " +
          '100 uses an hour per project, is reached for project proj_123 \\(HTTP 429: the service said ' +
          '"too many requests"\\)\\. Waiting for it would pass `timeout`, so it was not tried again\\. ' +
          'Try again after \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d UTC \\(in 30m 00s\\)\\.$'
      )
    )
    expect(s.count('agent-create')).toBe(1)
    expect(s.agentJobs.size).toBe(1)
  })

  test("a message refused (403, 401) gives the reference's causes for a request that changes something", async () => {
    const s = await simulator()
    s.addFault({ route: 'agent-message', status: 403 })
    const refused = await runAction(agentInputs(s, { operation: 'agent-message', 'job-id': 'job_abc', prompt: 'Hi' }))
    expect(refused.failure).toContain(
      'Could not send the message to agent job job_abc: the service refused the request (HTTP 403: simulated 403). ' +
        "The service's reference gives these causes: a key limited to reading"
    )
    expect(refused.failure).toContain('or an IP allowlist on the key')
    expect(refused.failure).not.toContain('static export')
    const wrongKey = await runAction(
      agentInputs(s, { operation: 'agent-status', 'job-id': 'job_abc', 'api-key': 'mint_revoked' })
    )
    expect(wrongKey.failure).toContain('the service did not accept the key (HTTP 401')
    expect(wrongKey.failure).toContain('`api-key` is wrong or has expired')
  })

  test('an outage of the service while waiting for an agent job does not end the wait', async () => {
    const s = await simulator({ durationMs: 60_000 })
    s.addFault({ route: 'agent-get', status: 503, times: 12 })
    const { failure, outputs, log } = await runAction(
      agentInputs(s, {
        operation: 'agent-message',
        'job-id': 'job_abc',
        prompt: 'Go',
        timeout: '10m',
        'max-poll-interval': '5s'
      })
    )
    expect(failure).toBeUndefined()
    expect(outputs.get('status')).toBe('completed')
    expect(log.lines.some((l) => l.startsWith('warning:') && l.includes('still waiting'))).toBe(true)
  })

  test('404: the service text and the job id, also in the job-id output', async () => {
    const s = await simulator()
    const { failure, outputs } = await runAction(
      agentInputs(s, { operation: 'agent-message', 'job-id': 'job_missing', prompt: 'Hello' })
    )
    expect(outputs.get('job-id')).toBe('job_missing')
    expect(failure).toContain('job_missing')
    expect(failure).toContain('job not found')
    const status = await runAction(agentInputs(s, { operation: 'agent-status', 'job-id': 'job_gone' }))
    expect(status.failure).toContain('job_gone')
    expect(status.failure).toContain('job not found')
  })

  test('a create refused: 404 points at project-id, 405 at base-url; none says the operation is missing', async () => {
    const s = await simulator()
    s.addFault({ route: 'agent-create', status: 404, body: { error: 'project not found' } })
    const missing = await runAction(agentInputs(s, { operation: 'agent-create', prompt: 'Hello' }))
    expect(missing.failure).toBe(
      'Could not create an agent job in project proj_123 (HTTP 404: the service said "project not found"): the ' +
        "service knows no such project. Check `project-id` (the API keys page of the organization's settings shows " +
        "it), and that `base-url` leads to the service's admin API."
    )
    s.addFault({ route: 'agent-create', status: 405, body: { error: 'method not allowed' } })
    const elsewhere = await runAction(agentInputs(s, { operation: 'agent-create', prompt: 'Hello' }))
    expect(elsewhere.failure).toBe(
      'Could not create an agent job in project proj_123 (HTTP 405: the service said "method not allowed"): the ' +
        "address does not take this request, though the service's admin API creates jobs with " +
        '`POST /v2/agent/{projectId}/job`. ' +
        'Check that `base-url` leads to the admin API, not to a proxy or another service.'
    )
    for (const { failure } of [missing, elsewhere]) expect(failure).not.toMatch(/not in the|does not offer/)
  })

  test('a blank prompt and path-like ids are refused before any request', async () => {
    const s = await simulator()
    const blank = await runAction(agentInputs(s, { operation: 'agent-message', 'job-id': 'job_abc', prompt: '  \n ' }))
    expect(blank.failure).toContain('`prompt`')
    const slash = await runAction(agentInputs(s, { operation: 'agent-status', 'job-id': 'a/b' }))
    expect(slash.failure).toContain('`job-id`')
    const dots = await runAction(agentInputs(s, { operation: 'agent-create', 'project-id': '..', prompt: 'x' }))
    expect(dots.failure).toContain('`project-id`')
    expect(s.requests).toHaveLength(0)
  })

  test('an unknown status is treated as running, with one warning', async () => {
    const s = await simulator({ durationMs: 30_000, extraStatus: 'finalizing' })
    const { failure, log, outputs } = await runAction(
      agentInputs(s, { operation: 'agent-message', 'job-id': 'job_abc', prompt: 'Go', 'max-poll-interval': '1s' })
    )
    expect(failure).toBeUndefined()
    expect(outputs.get('status')).toBe('completed')
    const warnings = log.lines.filter((l) => l.startsWith('warning:') && l.includes('finalizing'))
    expect(warnings).toHaveLength(1)
    expect(log.lines.filter((l) => l.includes('job_abc: finalizing after'))).toHaveLength(1)
  })

  test('a message the service takes up late: the end the job still shows from before is not its result', async () => {
    // For 10 s after the message the job still reads `completed` with its old pull request.
    const s = await simulator({ messageLagMs: 10_000, durationMs: 20_000 })
    const { failure, log, outputs } = await runAction(
      agentInputs(s, { operation: 'agent-message', 'job-id': 'job_abc', prompt: 'Tidy up NOCHANGE' })
    )
    expect(failure).toBeUndefined()
    expect(log.lines.filter((l) => l.startsWith('info: Agent job job_abc: active after'))).toHaveLength(1)
    expect(outputs.get('status')).toBe('completed')
    // This message's run changed nothing: the old pull request is not its result.
    expect(outputs.get('pr-link')).toBe('')
    expect(log.lines.filter((l) => l.startsWith('warning:'))).toEqual([])
  })

  test('a job that never shows the message taken up: its end is believed after a minute, with a warning', async () => {
    const s = await simulator({ messageLagMs: 3_600_000 })
    const { failure, log, outputs } = await runAction(
      agentInputs(s, { operation: 'agent-message', 'job-id': 'job_abc', prompt: 'Go', 'max-poll-interval': '30s' })
    )
    expect(failure).toBeUndefined()
    expect(outputs.get('status')).toBe('completed')
    expect(outputs.get('pr-link')).toBe('https://github.com/acme/docs/pull/42')
    const warning = log.lines.find((l) => l.startsWith('warning:') && l.includes('as it did before the message'))
    expect(warning).toMatch(/still shows `completed` as it did before the message, 1m 0\ds later/)
    // Checked again meanwhile, and not past the minute.
    expect(s.count('agent-get')).toBeGreaterThanOrEqual(3)
    expect(log.lines.find((l) => l.includes('ended `completed`'))).toMatch(/after 1m 0\ds/)
  })

  test("a timeout in the message's first minute: the end still shown is taken then, with the warning", async () => {
    // Taken at the timeout, not failed as a timeout.
    const s = await simulator({ messageLagMs: 3_600_000 })
    const { failure, log, outputs } = await runAction(
      agentInputs(s, { operation: 'agent-message', 'job-id': 'job_abc', prompt: 'Go', timeout: '20s' })
    )
    expect(failure).toBeUndefined()
    expect(outputs.get('status')).toBe('completed')
    expect(log.lines.find((l) => l.startsWith('warning:') && l.includes('as it did before the message'))).toMatch(
      /still shows `completed` as it did before the message, 2\ds later/
    )
  })

  test('a timeout names the job, its last status and the wait', async () => {
    const s = await simulator({ durationMs: 600_000 })
    const { failure, outputs } = await runAction(
      agentInputs(s, { operation: 'agent-message', 'job-id': 'job_abc', prompt: 'Slow', timeout: '20s' })
    )
    expect(failure).toMatch(
      new RegExp(
        /Agent job job_abc did not finish within `timeout` \(20s\): last seen active, after waiting 2\ds\./.source +
          / The job may still finish: check it/.source
      )
    )
    expect(failure).toContain('agent-status')
    expect(outputs.get('status')).toBe('active')
  })
})

describe('loading', () => {
  test('@actions/github loads only when GitHub is called: its one importer is loaded only with import()', async () => {
    const root = path.join(process.cwd(), 'src')
    const { readdir } = await import('node:fs/promises')
    const files = (await readdir(root, { recursive: true })).filter((f) => f.endsWith('.ts'))
    const importers: string[] = []
    for (const file of files) {
      const text = await readFile(path.join(root, file), 'utf8')
      if (text.includes("'@actions/github'")) importers.push(file)
      expect({ file, staticImportOfTheAdapter: /^\s*import\s[^(]*['"]\.\/octokit\.js['"]/m.test(text) }).toEqual({
        file,
        staticImportOfTheAdapter: false
      })
    }
    expect(importers).toEqual([path.join('action', 'octokit.ts')])
  })
})
