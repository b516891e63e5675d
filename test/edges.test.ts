// Trust at the edges: what GitHub, the service and the storage send is read for what it is, and
// a run whose answers cannot be understood fails instead of guessing; no part of a secret leaves;
// the comment gate stands in front of every operation. Each item against the simulator, over HTTP.
import { describe, expect, test } from '@jest/globals'
import { mkdir, readFile, symlink, writeFile } from 'node:fs/promises'
import * as path from 'node:path'
import { Writable } from 'node:stream'
import { CliHost } from '../src/cli/cli-host.js'
import { run } from '../src/main.js'
import type { Fault, RecordedRequest, Simulator, SimulatorOptions } from '../simulator/server.js'
import { type TestClock } from './support/clock.js'
import { REPO, issueCommentEvent } from './support/events.js'
import {
  type Inputs,
  type RunOptions,
  type RunResult,
  agentInputs,
  eventFile,
  exportInputs,
  simulatorPerTest
} from './support/harness.js'
import { asShown, liveMarkdown } from './support/markdown.js'
import { tempFolderPerFile } from './support/temp.js'

const GITHUB_TOKEN = 'ghs_edgestoken0123456789abcdef'
/** A key long and distinct enough that any 8 characters of it in a text are a leak. */
const API_KEY = 'dsk_live_5f4dcc3b5aa765d61d8327deb882cf99'

const sims = simulatorPerTest()
const temp = tempFolderPerFile('edges-')

/** A simulator where octocat may write to the repository; agent jobs take 3 s. */
async function startSim(options: SimulatorOptions = {}, clock?: TestClock): Promise<Simulator> {
  const fixture = await sims.start(
    {
      apiKey: API_KEY,
      agent: { durationMs: 3000 },
      ...options,
      github: { permissions: { octocat: 'write' }, ...options.github }
    },
    clock
  )
  return fixture.sim
}

/** Runs the action on a comment event, as the runner delivers it. */
async function onComment(
  sim: Simulator,
  payload: unknown,
  inputs: Inputs = {},
  options: RunOptions = {}
): Promise<RunResult> {
  const env = {
    ...(await eventFile(path.join(temp.dir, 'event.json'), 'issue_comment', payload)),
    GITHUB_REPOSITORY: REPO,
    GITHUB_API_URL: sim.githubApiUrl,
    GITHUB_SERVER_URL: 'https://github.com',
    GITHUB_RUN_ID: '4242',
    GITHUB_WORKSPACE: temp.dir
  }
  const values = agentInputs(sim, {
    operation: 'agent',
    'comment-command': '/docs-agent',
    'github-token': GITHUB_TOKEN,
    'poll-interval': '1s',
    'max-poll-interval': '2s',
    ...inputs
  })
  return sims.current.run(values, { ...options, env: { ...env, ...options.env } })
}

/** The second attempt of the same workflow run. */
const RERUN: RunOptions = { env: { GITHUB_RUN_ATTEMPT: '2' } }
const serviceRequests = (sim: Simulator): RecordedRequest[] => sim.requests.filter((r) => r.origin === 'api')
/** The comments the action wrote on a conversation. */
const written = (sim: Simulator, number: number) =>
  sim.github.thread(REPO, number).comments.filter((c) => c.user.type === 'Bot')
/** Every run of 8 characters of `secret`: any of them in a text is a part of it that no masking knows. */
const partsOf = (secret: string): string[] =>
  Array.from({ length: secret.length - 7 }, (_, at) => secret.slice(at, at + 8))
/** The parts of `secret` found in `text`. */
const leaked = (text: string, secret: string): string[] => partsOf(secret).filter((part) => text.includes(part))
/** The same fault for every try a read makes (four). */
const everyTry = (fault: Fault): Fault => ({ ...fault, times: 4 })

describe("GitHub's answers are read for what they are: one that cannot be understood fails the step", () => {
  test.each(['cut', 'empty', 'html'] as const)(
    'a rerun after a create that may have been processed, with a comment listing answered 200 and %s: ' +
      'no second job, no second reply',
    async (answer) => {
      const sim = await startSim()
      sim.addFault({ route: 'agent-create', status: 500, process: true })
      const event = issueCommentEvent('/docs-agent Fix the install page')
      const first = await onComment(sim, event)
      expect(first.failure).toContain('may have processed the request')
      sim.addFault(everyTry({ route: 'github-comments', answer }))
      const rerun = await onComment(sim, event, {}, RERUN)
      expect(rerun.failure).toMatch(
        new RegExp(
          /^Could not read the comments of #7 /.source +
            /to find the reply an earlier attempt of this workflow run posted /.source +
            /\(GitHub's answer to list the comments of acme\/docs#7 \(page 1\) /.source +
            /could not be read: HTTP 200 with .+ \(after 4 attempts\)\)/.source +
            /, so this rerun asks nothing of the docs service/.source
        )
      )
      expect(sim.count('agent-create')).toBe(1)
      expect(written(sim, 7)).toHaveLength(1)
    }
  )

  test.each(['cut', 'empty', 'html'] as const)(
    "a pull request's record read as %s: the recorded job is not replaced by a new one, " +
      'and agent-message says the comments could not be read',
    async (answer) => {
      const sim = await startSim()
      const created = await onComment(sim, issueCommentEvent('/docs-agent Write the install page'))
      expect(created.failure).toBeUndefined()
      const onPull = issueCommentEvent('/docs-agent Shorter please', { number: 100, pullRequest: true })
      sim.addFault(everyTry({ route: 'github-comments', answer }))
      const conversation = await onComment(sim, onPull)
      expect(conversation.failure).toMatch(
        new RegExp(
          /^Could not read the comments of pull request #100 to find the agent job recorded there /.source +
            /\(GitHub's answer to list the comments of acme\/docs#100 \(page 1\) /.source +
            /could not be read: .+\); nothing was sent to the docs service/.source
        )
      )
      sim.addFault(everyTry({ route: 'github-comments', answer }))
      const message = await onComment(sim, onPull, { operation: 'agent-message' })
      expect(message.failure).toContain('Could not read the comments of pull request #100')
      expect(message.failure).not.toContain('No agent job is recorded')
      expect(sim.count('agent-create')).toBe(1)
      expect(sim.count('agent-message')).toBe(0)
    }
  )

  test('a conversation longer than the action reads: a rerun fails rather than miss its own reply', async () => {
    // More than 5,000 comments; missing its reply, the rerun would create the job again.
    const sim = await startSim()
    sim.github.addComments(REPO, 7, 5001)
    sim.addFault({ route: 'agent-create', status: 500, process: true })
    const event = issueCommentEvent('/docs-agent Fix the install page')
    expect((await onComment(sim, event)).failure).toContain('may have processed the request')
    const rerun = await onComment(sim, event, {}, RERUN)
    expect(rerun.failure).toContain(
      'the comments of acme/docs#7 run past 5000, more than the action reads, ' +
        'so a comment of its own among the rest could be missed'
    )
    expect(sim.count('agent-create')).toBe(1)
    // Read once, not four times: a longer listing is no passing failure.
    expect(sim.requests.filter((r) => r.route === 'github-comments' && r.query.page === '51')).toHaveLength(1)
  })

  test('exactly 5,000 comments before the reply: all are read, and the rerun follows the job', async () => {
    // A job that outlasts the first attempt's `timeout` but not the rerun's, and a first timeout long
    // enough for the 5,000 comments to be read before it on a slow machine (the clock runs 100 times faster).
    const sim = await startSim({ agent: { durationMs: 240_000 } })
    sim.github.addComments(REPO, 7, 4999)
    const event = issueCommentEvent('/docs-agent Fix the install page')
    expect((await onComment(sim, event, { timeout: '1m' })).failure).toContain('did not finish within `timeout`')
    const rerun = await onComment(sim, event, {}, RERUN)
    expect(rerun.failure).toBeUndefined()
    expect(sim.count('agent-create')).toBe(1)
  })

  test.each([
    ['cut', { answer: 'cut' }],
    ['empty', { answer: 'empty' }],
    ['HTML', { answer: 'html' }],
    ['stalled until `timeout`', { stallAt: 10 }]
  ] as const)(
    'a permission answer that cannot be read (%s) is no permission of `none`: the step fails closed, nothing is sent',
    async (_, fault) => {
      const sim = await startSim()
      sim.addFault({ route: 'github-permission', ...fault, times: 10 })
      const { failure, outputs } = await onComment(sim, issueCommentEvent('/docs-agent Fix it'), { timeout: '40s' })
      expect(failure).toMatch(
        new RegExp(
          /^Could not read the permission of octocat on acme\/docs \(.+\), /.source +
            /so the comment was not acted on and nothing was sent to the docs service: /.source +
            /(GitHub's answer could not be read|GitHub did not answer); rerun the workflow\.$/.source
        )
      )
      expect(outputs.get('skipped')).not.toBe('true')
      expect(serviceRequests(sim)).toEqual([])
    }
  )

  test("GitHub's rate limit (a 403 with no requests left) is said as such, not an HTTP 429 or no answer", async () => {
    const sim = await startSim()
    sim.addFault({
      route: 'github-permission',
      status: 403,
      headers: { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(Math.ceil(Date.now() / 1000) + 7200) },
      body: { message: 'API rate limit exceeded for installation.' }
    })
    const { failure } = await onComment(sim, issueCommentEvent('/docs-agent Fix it'))
    expect(failure).toContain("(HTTP 403 (GitHub's rate limit for the token): API rate limit exceeded for installation")
    expect(failure).toContain("GitHub's rate limit for the token was reached; rerun the workflow later.")
    expect(failure).not.toContain('429')
    expect(failure).not.toContain('did not answer')
  })

  test('a reply posted with an unreadable answer (201, cut short): the comment it made is found, edited', async () => {
    // Then comment-url is set, and a rerun follows the job.
    const sim = await startSim()
    sim.addFault({ route: 'github-comment', answer: 'cut' })
    const event = issueCommentEvent('/docs-agent Fix the install page')
    const first = await onComment(sim, event)
    expect(first.failure).toBeUndefined()
    const [reply, ...more] = written(sim, 7)
    expect(more).toEqual([])
    expect(first.outputs.get('comment-url')).toBe(`https://github.com/${REPO}/issues/7#issuecomment-${reply?.id}`)
    expect(reply?.body).toContain('✅')
    expect(reply?.body).toContain('outcome=answered')
    expect(first.log.text()).not.toContain('undefined')
    const rerun = await onComment(sim, event, {}, RERUN)
    expect(rerun.failure).toBeUndefined()
    expect(sim.count('agent-create')).toBe(1)
    expect(written(sim, 7)).toHaveLength(1)
  })

  test('a best-effort reply (a status read) posted with an unreadable answer: found, edited, not lost', async () => {
    const sim = await startSim()
    sim.addFault({ route: 'github-comment', answer: 'html' })
    const { failure, outputs } = await onComment(sim, issueCommentEvent('/docs-agent How is it going?'), {
      operation: 'agent-status',
      'job-id': 'job_abc'
    })
    expect(failure).toBeUndefined()
    const [reply, ...more] = written(sim, 7)
    expect(more).toEqual([])
    expect(outputs.get('comment-url')).toContain(`#issuecomment-${reply?.id}`)
  })
})

describe('the comment gate stands in front of every operation', () => {
  /** An export started by a comment, as a workflow on `issue_comment` would run it. */
  const exportOnComment = (sim: Simulator, text: string, inputs: Inputs = {}): Promise<RunResult> =>
    onComment(sim, issueCommentEvent(text), {
      ...exportInputs(sim, {}),
      'comment-command': '/docs-export',
      'comment-permission': 'admin',
      path: 'site',
      ...inputs
    })

  test('export: a comment without the command, or by an author below comment-permission, starts nothing', async () => {
    const sim = await startSim({ github: { permissions: { octocat: 'none' } } })
    const hello = await exportOnComment(sim, 'hello')
    expect(hello.failure).toBeUndefined()
    expect(hello.outputs.get('skip-reason')).toBe('no-command')
    const command = await exportOnComment(sim, '/docs-export now')
    expect(command.failure).toBeUndefined()
    expect(command.outputs.get('skipped')).toBe('true')
    expect(command.outputs.get('skip-reason')).toBe('permission')
    expect(command.log.lines).toContain(
      'notice: octocat has the permission `none` on acme/docs; `comment-permission` asks for `admin` or more. ' +
        'Nothing was sent to the docs service.'
    )
    expect(serviceRequests(sim)).toEqual([])
    expect(sim.count('github-permission')).toBe(1)
  })

  test('export: without comment-command, the permission is still read; an edited comment runs nothing', async () => {
    const sim = await startSim({ github: { permissions: { octocat: 'write' } } })
    const anyComment = await exportOnComment(sim, 'ship it', { 'comment-command': '' })
    expect(anyComment.outputs.get('skip-reason')).toBe('permission')
    const edited = await onComment(sim, issueCommentEvent('/docs-export', { action: 'edited' }), {
      ...exportInputs(sim, {}),
      'comment-command': '/docs-export'
    })
    expect(edited.outputs.get('skip-reason')).toBe('not-created')
    expect(serviceRequests(sim)).toEqual([])
  })

  test('export: a permission that cannot be read fails closed; one that suffices lets the export run', async () => {
    const sim = await startSim({ github: { permissionStatus: 403 } })
    const refused = await exportOnComment(sim, '/docs-export')
    expect(refused.failure).toMatch(/^Could not read the permission of octocat on acme\/docs \(HTTP 403/)
    expect(serviceRequests(sim)).toEqual([])
    const open = await startSim({ github: { permissions: { octocat: 'admin' } } })
    const run = await exportOnComment(open, '/docs-export', { wait: 'false' })
    expect(run.failure).toBeUndefined()
    expect(run.outputs.get('skipped')).toBe('false')
    expect(open.count('export-start')).toBe(1)
  })
})

describe('inputs that could only fail half-way are refused before any request', () => {
  test.each([
    ['api-key', 'a line break', `${API_KEY}\nX-Injected: 1`],
    ['api-key', 'a character outside Latin-1', `${API_KEY}ключ`],
    ['github-token', 'a control character', `${GITHUB_TOKEN}\u0000`]
  ])('`%s` with %s: an input error naming it, its value not shown, nothing sent', async (name, _, value) => {
    const sim = await startSim()
    const result = await onComment(sim, issueCommentEvent('/docs-agent Fix it'), { [name]: value })
    expect(result.failureKind).toBe('input')
    expect(result.failure).toContain(
      `\`${name}\` holds a line break, a control character or a character outside Latin-1, ` +
        `which no HTTP header can carry`
    )
    expect(result.failure).not.toContain(value.slice(0, 12))
    expect(sim.requests).toEqual([])
    expect(written(sim, 7)).toEqual([])
  })
})

describe('no part of a secret leaves: redacted before any cut, wherever the text goes', () => {
  test("the key quoted in the service's error where the 300-character cut falls: no part of it is shown", async () => {
    // Not one part of it in the error, the summary or the reply.
    const sim = await startSim()
    sim.addFault({ route: 'agent-message', status: 400, body: { error: `${'x'.repeat(290)} ${API_KEY} was refused` } })
    const { failure, summary, log } = await onComment(sim, issueCommentEvent('/docs-agent Fix it'), {
      operation: 'agent-message',
      'job-id': 'job_abc'
    })
    expect(failure).toContain(`${'x'.repeat(200)}`)
    expect(failure).toContain('***')
    const replies = written(sim, 7).flatMap((c) => c.history)
    for (const text of [failure ?? '', summary, log.text(), ...replies]) expect(leaked(text, API_KEY)).toEqual([])
  })

  test('the key in a non-JSON answer, where its 120-character preview is cut: not one part of it', async () => {
    const sim = await startSim()
    sim.addFault({ route: 'export-start', status: 400, body: `${'y'.repeat(110)} ${API_KEY} denied` })
    const { failure, summary } = await sims.current.run(exportInputs(sim, { path: 'site' }), {
      env: { GITHUB_WORKSPACE: temp.dir }
    })
    expect(failure).toContain('y'.repeat(100))
    for (const text of [failure ?? '', summary]) expect(leaked(text, API_KEY)).toEqual([])
  })

  test("the key where a failed job's error is cut (65,536 characters): not one part of it", async () => {
    const sim = await startSim()
    sim.addFault({
      route: 'agent-get',
      patch: { status: 'failed', error: `${'z'.repeat(65_520)}${API_KEY}${'w'.repeat(100)}` }
    })
    const { failure, summary } = await onComment(sim, issueCommentEvent('/docs-agent Write a page'))
    expect(failure).toContain('(cut short: the service sent')
    for (const text of [failure ?? '', summary]) expect(leaked(text, API_KEY)).toEqual([])
  })

  test('a key shorter than 4 characters is a secret too: redacted from the summary and the reply', async () => {
    const sim = await startSim({ apiKey: 'k3y' })
    sim.addFault({ route: 'agent-message', status: 400, body: { error: 'the key k3y is not valid here' } })
    const { failure, summary } = await onComment(sim, issueCommentEvent('/docs-agent Fix it'), {
      'api-key': 'k3y',
      operation: 'agent-message',
      'job-id': 'job_abc'
    })
    expect(failure).toContain('the key *** is not valid here')
    expect(summary).toContain('the key *** is not valid here')
    expect(written(sim, 7)[0]?.body).toContain('the key \\*\\*\\* is not valid here')
    expect(written(sim, 7)[0]?.body).not.toContain('k3y')
  })
})

describe('a key in the shapes service text may give it: split over a line, base64-encoded', () => {
  /** The key as a service may echo it, each with the part of it that must not show. */
  const shapes = (): Array<[shape: string, part: string]> => {
    const encodedKey = (before: string, url: boolean): [string, string] => {
      const encoded = Buffer.from(`${before}${API_KEY} `).toString(url ? 'base64url' : 'base64')
      const from = Math.ceil((8 * before.length) / 6)
      return [encoded, encoded.slice(from, Math.floor((8 * (before.length + API_KEY.length)) / 6))]
    }
    const at = 17
    return [
      [`${API_KEY.slice(0, at)}\n${API_KEY.slice(at)}`, API_KEY],
      [`${API_KEY.slice(0, 9)}\r\n${API_KEY.slice(9)}`, API_KEY],
      [`${API_KEY.slice(0, at)}\\n${API_KEY.slice(at)}`, API_KEY],
      ...['', 'u:', 'Bearer '].flatMap((before) => [encodedKey(before, false), encodedKey(before, true)])
    ]
  }

  test("the CLI's stderr: the key split or encoded in a refusal's error is masked", async () => {
    const sim = await startSim()
    for (const [shape, part] of shapes()) {
      sim.addFault({ route: 'export-start', status: 400, body: { error: `bad key\n${shape}\nfor docs` } })
      const stderr: string[] = []
      const terminal = {
        stdout: new Writable({ write: (_chunk, _encoding, done) => done() }),
        stderr: new Writable({ write: (chunk: Buffer, _encoding, done) => done(void stderr.push(String(chunk))) }),
        env: {}
      }
      const inputs = exportInputs(sim, { path: path.join(temp.dir, 'site') })
      const host = new CliHost(inputs, terminal, new AbortController().signal)
      await run(host, sims.current.clock)
      expect(stderr.join('')).toContain('error: Could not start the export')
      expect(leaked(stderr.join(''), part)).toEqual([])
    }
  })

  test("the agent's public reply: the key split or encoded in a failed job's error is masked", async () => {
    const sim = await startSim()
    const error = `auth failed: ${shapes()
      .map(([shape]) => shape)
      .join(' / ')}`
    sim.addFault({ route: 'agent-get', patch: { status: 'failed', error }, times: 20 })
    const { failure, summary } = await onComment(sim, issueCommentEvent('/docs-agent Write a page'))
    const replies = written(sim, 7).flatMap((c) => c.history)
    expect(replies.at(-1)).toContain('auth failed')
    for (const [, part] of shapes()) {
      for (const text of [failure ?? '', summary, ...replies.map(asShown)]) expect(leaked(text, part)).toEqual([])
    }
  })
})

describe("a link's secrets are masked in every spelling, before anything is logged", () => {
  /** An export to `site` that stops once the link is known. */
  const linkOnly = (sim: Simulator, inputs: Inputs = {}): Promise<RunResult> =>
    sims.current.run(exportInputs(sim, { path: 'site', ...inputs }), {
      env: { GITHUB_WORKSPACE: temp.dir }
    })
  /** The signatures of the links the simulator handed out. */
  const signatures = (sim: Simulator): string[] =>
    sim.issuedLinks.map((link) => new URL(link).searchParams.get('X-Amz-Signature') ?? '')

  test('a bundle answer cut short, its link JSON-escaped (`http:\\/\\/`): the signature masked at once', async () => {
    // It is in no retry line, error or summary.
    const sim = await startSim({ exportJob: { durationMs: 0 } })
    // Cut after the signature, before the answer's end: not JSON, and every try alike.
    sim.addFault({ route: 'export-bundle', answer: 'cut', escapedJson: true, cutAt: 420, times: 5 })
    const { failure, summary, log, secrets } = await linkOnly(sim)
    expect(failure).toMatch(
      /not JSON: \{.*"bundleUrl":"http:\\\/\\\/127\.0\.0\.1:\d+\\\/bundles\\\/exp_\w+\\\/site\.tar\.gz\?…"/
    )
    expect(log.text()).toContain('retry 1 in')
    const [signature] = signatures(sim)
    expect(signature).toMatch(/^[0-9a-f]{64}$/)
    expect(secrets).toContain(signature)
    for (const text of [failure ?? '', summary, log.text()]) expect(leaked(text, signature ?? '')).toEqual([])
  })

  test('a link of another scheme (`s3://`) and one percent-encoded inside an error: masked and not shown', async () => {
    const signature = 'c0ffee00deadbeef0123456789abcdef0123456789abcdef0123456789abcdef'
    const sim = await startSim({ exportJob: { durationMs: 0 } })
    sim.addFault({
      route: 'export-bundle',
      status: 200,
      body: `{"bundleUrl": "s3://docs-bundles/site.tar.gz?X-Amz-Credential=AKIA%2F1&X-Amz-Signature=${signature}`,
      times: 5
    })
    const cut = await linkOnly(sim)
    expect(cut.failure).toContain('s3://docs-bundles/site.tar.gz?…')
    expect(cut.secrets).toContain(signature)
    for (const text of [cut.failure ?? '', cut.summary, cut.log.text()]) expect(leaked(text, signature)).toEqual([])
    sim.clearFaults()
    const encoded = encodeURIComponent(`https://s.example.com/b/site.zip?X-Amz-Signature=${signature}`)
    sim.addFault({ route: 'export-bundle', status: 500, body: { error: `no redirect to ${encoded}` }, times: 5 })
    const escaped = await linkOnly(sim)
    expect(escaped.failure).toContain('no redirect to https%3A%2F%2Fs.example.com')
    expect(escaped.secrets).toContain(signature)
    for (const text of [escaped.failure ?? '', escaped.summary]) expect(leaked(text, signature)).toEqual([])
  })

  test('a storage redirect to a newly signed link: masked before its 403 echoes it, not in the summary', async () => {
    const sim = await startSim({ exportJob: { durationMs: 0 } })
    const fresh = 'feedface'.repeat(8)
    const redirect = `${sim.storageUrl}/bundles/elsewhere/site.tar.gz?X-Amz-Signature=${fresh}`
    for (let i = 0; i < 4; i++) {
      sim.addFault({ route: 'download', status: 302, headers: { location: redirect } })
      sim.addFault({
        route: 'download',
        status: 403,
        body: `<Error><Code>AccessDenied</Code><Message>Signature ${fresh} is not allowed</Message></Error>`
      })
    }
    const { failure, summary, secrets } = await linkOnly(sim, { download: 'true' })
    expect(failure).toContain('AccessDenied')
    expect(secrets).toContain(fresh)
    expect(leaked(summary, fresh)).toEqual([])
  })

  test("a redirect to `file:` is named as such; a token in the link's path is not logged", async () => {
    const sim = await startSim({ exportJob: { durationMs: 0 } })
    sim.addFault({ route: 'download', status: 302, headers: { location: 'file:///etc/passwd' } })
    const redirected = await linkOnly(sim, { download: 'true' })
    expect(redirected.failure).toContain(
      'Refusing to fetch the bundle from file:///etc/passwd: it does not use https://'
    )
    const token = 'AbCdEf0123456789GhIjKlMnOpQrSt'
    sim.addFault({
      route: 'export-bundle',
      patch: { bundleUrl: `https://dl.example.com/s/${token}/site.zip?X-Amz-Signature=${'ab'.repeat(32)}` }
    })
    const { log } = await linkOnly(sim, { download: 'false' })
    expect(log.text()).toContain('Bundle link: https://dl.example.com/s/…/site.zip (expires')
    expect(log.text()).not.toContain(token)
  })
})

describe('best-effort GitHub calls never cost the job its wait', () => {
  test('a reply edit that hangs right after the job is created: the job is read and followed meanwhile', async () => {
    // And the reply still ends saying how.
    const sim = await startSim()
    sim.addFault({ route: 'github-comment-edit', hang: true })
    const { failure, outputs, log } = await onComment(sim, issueCommentEvent('/docs-agent Fix the install page'))
    expect(failure).toBeUndefined()
    expect(outputs.get('status')).toBe('completed')
    const hung = sim.requests.find((r) => r.route === 'github-comment-edit')
    const firstRead = sim.requests.find((r) => r.route === 'agent-get')
    // The first status read went out while the edit still hung (it is given 5 s of its own).
    expect(firstRead?.at).toBeLessThan((hung?.at ?? 0) + 5000)
    expect(log.lines).toContainEqual(
      expect.stringMatching(/^warning: Could not update the reply \d+: no answer within 5s/)
    )
    expect(written(sim, 7)[0]?.body).toContain('✅')
  })

  test('a reaction that hangs: the service is asked without waiting for it', async () => {
    const sim = await startSim()
    sim.addFault({ route: 'github-reaction', hang: true })
    const { failure } = await onComment(sim, issueCommentEvent('/docs-agent Fix the install page'))
    expect(failure).toBeUndefined()
    const reaction = sim.requests.find((r) => r.route === 'github-reaction')
    const create = sim.requests.find((r) => r.route === 'agent-create')
    expect(create?.at).toBeLessThan((reaction?.at ?? 0) + 5000)
  })
})

describe('a successor for a job that has ended', () => {
  /** A command on the agent's own pull request (#42, opened by job_abc, which has completed). */
  const onItsPullRequest = (sim: Simulator): Promise<RunResult> =>
    onComment(sim, issueCommentEvent('/docs-agent Also fix the changelog', { number: 42, pullRequest: true }), {
      'job-id': 'job_abc'
    })

  test.each([
    [409, 'completed', undefined],
    [410, 'archived', { status: 'archived' }],
    [409, 'failed', { status: 'failed' }]
  ] as const)(
    'a message refused with %i by a job that is %s: a new job gets the instruction and the link, and the reply says so',
    async (status, ended, patch) => {
      const sim = await startSim()
      sim.addFault({ route: 'agent-message', status, body: { error: `the job is ${ended}` } })
      if (patch !== undefined) sim.addFault({ route: 'agent-get', patch })
      const { failure, outputs, log } = await onItsPullRequest(sim)
      expect(failure).toBeUndefined()
      const created = outputs.get('job-id') as string
      expect(created).not.toBe('job_abc')
      expect(sim.agentJobs.get(`proj_123/${created}`)?.prompts[0]).toBe(
        'Also fix the changelog\n\n---\nContext: this follows up on the pull request ' +
          'https://github.com/acme/docs/pull/42, ' +
          'opened by docs agent job job_abc, which no longer takes messages.'
      )
      const note =
        `Agent job \`job_abc\` no longer takes messages (it is ${ended}: the job is ${ended}), ` +
        'so a new job got this instruction.'
      expect(log.lines).toContain(`warning: ${note}`)
      expect(written(sim, 42).at(-1)?.body).toContain('no longer takes messages')
    }
  )

  test.each([400, 413, 422])(
    "a message refused with %i: the step fails with the service's reason, and nothing is created",
    async (status) => {
      const sim = await startSim()
      sim.addFault({ route: 'agent-message', status, body: { error: 'the message is not acceptable' } })
      const { failure } = await onItsPullRequest(sim)
      expect(failure).toContain(`HTTP ${status}: the message is not acceptable`)
      expect(sim.count('agent-create')).toBe(0)
      expect(sim.count('agent-get')).toBe(0)
    }
  )
})

describe('`helm-values-file` is judged like `path`, before any request', () => {
  /** An export in a workspace of its own, with a git checkout and an earlier site. */
  async function exportWith(helmValuesFile: string): Promise<{ result: RunResult; sim: Simulator; ws: string }> {
    const sim = await startSim({ exportJob: { durationMs: 0 } })
    const ws = path.join(temp.dir, `ws-${Math.random().toString(36).slice(2)}`)
    await mkdir(path.join(ws, '.git'), { recursive: true })
    await writeFile(path.join(ws, '.git', 'config'), '[core]\n')
    await mkdir(path.join(ws, 'site'), { recursive: true })
    await writeFile(path.join(ws, 'site', 'index.html'), 'the earlier site')
    await mkdir(path.join(ws, 'deploy'), { recursive: true })
    await symlink(path.join(ws, '.git'), path.join(ws, 'meta'))
    const result = await sims.current.run(exportInputs(sim, { path: 'site', 'helm-values-file': helmValuesFile }), {
      env: { GITHUB_WORKSPACE: ws }
    })
    return { result, sim, ws }
  }

  test.each([
    ['.', 'names a folder, not a file'],
    ['deploy/', 'names a folder, not a file'],
    ['.git/config', 'is in a `.git` folder'],
    ['site/values.yaml', 'is in `path`, which each export replaces whole'],
    ['deploy', 'is a folder'],
    ['meta/config', 'is in a `.git` folder']
  ])('`%s`: an input error, nothing sent, nothing written or replaced', async (file, why) => {
    const { result, sim, ws } = await exportWith(file)
    expect(result.failureKind).toBe('input')
    expect(result.failure).toContain('`helm-values-file` must be a file of its own')
    expect(result.failure).toContain(why)
    expect(sim.requests).toEqual([])
    expect(await readFile(path.join(ws, '.git', 'config'), 'utf8')).toBe('[core]\n')
    expect(await readFile(path.join(ws, 'site', 'index.html'), 'utf8')).toBe('the earlier site')
  })

  test('a file of its own in the workspace is written', async () => {
    const { result, ws } = await exportWith('deploy/values.yaml')
    expect(result.failure).toBeUndefined()
    expect(await readFile(path.join(ws, 'deploy', 'values.yaml'), 'utf8')).toContain('staticExport:')
  })
})

describe('the low ones', () => {
  test('`Retry-After: 0` again and again on status reads: a floor of a second between the requests', async () => {
    const sim = await startSim({ exportJob: { durationMs: 60_000 } })
    sim.addFault({ route: 'export-status', status: 503, retryAfter: '0', times: 12 })
    const { failure } = await sims.current.run(
      exportInputs(sim, { path: 'site', download: 'false', 'poll-interval': '250ms' }),
      { env: { GITHUB_WORKSPACE: temp.dir } }
    )
    expect(failure).toBeUndefined()
    // A retry waits a second at least; the next status check comes after a wait of its own: never
    // three requests within 900 ms.
    const reads = sim.requests.filter((r) => r.route === 'export-status').map((r) => r.at)
    const bursts = reads.slice(2).filter((at, i) => at - (reads[i] ?? 0) < 900)
    expect(reads.length).toBeGreaterThan(12)
    expect(bursts).toEqual([])
  })

  test('in a reply, `GH-1` and a commit-like hex id from the service are no links; they read the same', async () => {
    const sim = await startSim()
    const sha = '9fceb02d0ae598e95dc970b74767f19372d61af8'
    sim.addFault({ route: 'agent-get', patch: { status: 'failed', error: `regressed by ${sha}, see GH-1 and gh-22` } })
    await onComment(sim, issueCommentEvent('/docs-agent Write a page'))
    const line = (written(sim, 7)[0]?.body ?? '').split('\n').find((text) => text.includes('regressed by')) ?? ''
    const said = line.slice(line.indexOf('regressed by'))
    expect(asShown(said)).toContain(`regressed by ${sha}, see GH-1 and gh-22`)
    expect(said).not.toMatch(/[0-9a-f]{7}/)
    expect(said).not.toMatch(/\bgh-\d/i)
    expect(liveMarkdown(said)).toEqual([])
  })

  test('GITHUB_OUTPUT unwritable: the error names the output and the job already started', async () => {
    const sim = await startSim({ exportJob: { durationMs: 0 } })
    const { failure } = await sims.current.run(exportInputs(sim, { path: 'site' }), {
      env: { GITHUB_WORKSPACE: temp.dir },
      onHost: (host) => {
        host.outputFailure = new Error('EACCES: permission denied, open the output file')
      }
    })
    const [jobId] = [...sim.exportJobs.keys()]
    expect(failure).toBe(
      `Export job ${jobId}: Could not set the output \`job-id\`: EACCES: permission denied, open the output file`
    )
    expect(sim.count('export-start')).toBe(1)
  })
})
