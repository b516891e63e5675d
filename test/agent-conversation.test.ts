import { describe, expect, test } from '@jest/globals'
import * as path from 'node:path'
import { parsePullRequestLink, recordBody, recordedJobs } from '../src/agent/job-record.js'
import { levelOf, meets } from '../src/gate/permission.js'
import { formatReplyMarker, readReplyMarker } from '../src/reply/rerun-state.js'
import { type GitHubApi, GitHubApiError } from '../src/action/host.js'
import { createGitHubApi } from '../src/action/octokit.js'
import { describeGitHubError } from '../src/github/calls.js'
import { progressText } from '../src/agent/reply.js'
import { commentCode, withoutMentions } from '../src/common/text.js'
import { normalisedHttpLink } from '../src/service/answer.js'
import { CONTEXT_BODY_CHARS, matchCommand, promptWithContext } from '../src/gate/trigger.js'
import type { GitHubThread, RecordedRequest, Simulator, SimulatorOptions } from '../simulator/server.js'
import {
  type Inputs,
  type RunOptions,
  type RunResult,
  type RunnerEnv,
  agentInputs,
  eventFile,
  simulatorPerTest
} from './support/harness.js'
import { type TestClock, acceleratedClock } from './support/clock.js'
import type { FakeHost } from './support/fake-host.js'
import { REPO, issueCommentEvent, reviewCommentEvent } from './support/events.js'
import { asShown, liveMarkdown } from './support/markdown.js'
import { secretsOf } from './support/secrets.js'
import { unusedPort, tempFolderPerFile } from './support/temp.js'

// Comment events as the runner gives them: variables, and the webhook payload in a file.

const GITHUB_TOKEN = 'ghs_testtoken0123456789'
const sims = simulatorPerTest()
const temp = tempFolderPerFile('agent-conversation-')

/** A simulator where octocat may write to the repository; agent jobs take 3 s. */
async function startSim(options: SimulatorOptions = {}, clock?: TestClock): Promise<Simulator> {
  const fixture = await sims.start(
    { agent: { durationMs: 3000 }, ...options, github: { permissions: { octocat: 'write' }, ...options.github } },
    clock
  )
  return fixture.sim
}

/** Runs the action on `payload` as the runner would deliver the event. */
async function onEvent(
  sim: Simulator,
  name: string,
  payload: unknown,
  inputs: Inputs = {},
  options: RunOptions = {}
): Promise<RunResult> {
  const env: RunnerEnv = {
    ...(await eventFile(path.join(temp.dir, 'event.json'), name, payload)),
    GITHUB_REPOSITORY: REPO,
    GITHUB_API_URL: sim.githubApiUrl,
    GITHUB_SERVER_URL: 'https://github.com',
    GITHUB_RUN_ID: '4242'
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

/** The run options of a rerun of the workflow run (its second attempt). */
const RERUN: RunOptions = { env: { GITHUB_RUN_ATTEMPT: '2' } }

/** Run options that cancel the run, as the runner does (SIGINT), as soon as `ready` holds. */
function cancelWhen(ready: (host: FakeHost) => boolean): RunOptions {
  return {
    onHost: (host) => {
      const watching = setInterval(() => {
        if (!ready(host)) return
        clearInterval(watching)
        host.cancel()
      }, 5)
      watching.unref()
    }
  }
}

const serviceRequests = (sim: Simulator): RecordedRequest[] => sim.requests.filter((r) => r.origin === 'api')
const github = (sim: Simulator): RecordedRequest[] => sim.requests.filter((r) => r.origin === 'github')
const thread = (sim: Simulator, number: number): GitHubThread => sim.github.thread(REPO, number)
/** Comments the action wrote on a thread. */
const written = (sim: Simulator, number: number) => thread(sim, number).comments.filter((c) => c.user.type === 'Bot')

describe('the gate: who may run the agent from a comment', () => {
  test('an author below comment-permission: no service request, reaction or reply; skipped with a notice', async () => {
    const sim = await startSim({ github: { permissions: { octocat: 'triage' } } })
    const { failure, outputs, log } = await onEvent(
      sim,
      'issue_comment',
      issueCommentEvent('/docs-agent delete every page')
    )
    expect(failure).toBeUndefined()
    expect(outputs.get('skipped')).toBe('true')
    expect(outputs.get('skip-reason')).toBe('permission')
    expect(serviceRequests(sim)).toHaveLength(0)
    expect(github(sim).map((r) => r.route)).toEqual(['github-permission'])
    expect(github(sim)[0]?.path).toBe('/github-api/repos/acme/docs/collaborators/octocat/permission')
    expect(log.lines).toContain(
      'notice: octocat has the permission `triage` on acme/docs; `comment-permission` asks for `write` or more. ' +
        'Nothing was sent to the docs service.'
    )
  })

  test('comment-permission can ask for more, or let anyone with read access in', async () => {
    const sim = await startSim({ github: { permissions: { octocat: 'maintain' } } })
    const strict = await onEvent(sim, 'issue_comment', issueCommentEvent('/docs-agent fix it'), {
      'comment-permission': 'admin'
    })
    expect(strict.outputs.get('skip-reason')).toBe('permission')
    expect(serviceRequests(sim)).toHaveLength(0)
    const open = await onEvent(sim, 'issue_comment', issueCommentEvent('/docs-agent fix it'), {
      'comment-permission': 'read'
    })
    expect(open.failure).toBeUndefined()
    expect(open.outputs.get('skip-reason')).toBe('')
    expect(sim.count('agent-create')).toBe(1)
  })

  test('an unreadable permission (403): the run fails closed and says which token permission is missing', async () => {
    const sim = await startSim({ github: { permissionStatus: 403 } })
    const { failure, outputs } = await onEvent(sim, 'issue_comment', issueCommentEvent('/docs-agent fix it'))
    expect(failure).toMatch(
      new RegExp(
        /Could not read the permission of octocat on acme\/docs \(HTTP 403: .*\), /.source +
          /so the comment was not acted on and nothing was sent to the docs service/.source
      )
    )
    expect(failure).toContain('"Metadata: read"')
    expect(failure).toContain('`github-token`')
    expect(serviceRequests(sim)).toHaveLength(0)
    expect(github(sim).map((r) => r.route)).toEqual(['github-permission'])
    expect(outputs.get('skipped')).toBeUndefined()
  })

  test('a GitHub that keeps failing is retried, then the run fails closed', async () => {
    const sim = await startSim()
    sim.addFault({ route: 'github-permission', status: 502, times: 10 })
    const { failure } = await onEvent(sim, 'issue_comment', issueCommentEvent('/docs-agent fix it'))
    expect(failure).toMatch(
      /HTTP 502.*after 4 attempts.*nothing was sent to the docs service: GitHub did not answer; rerun the workflow/
    )
    expect(sim.count('github-permission')).toBe(4)
    expect(serviceRequests(sim)).toHaveLength(0)
  })

  test('an unreachable GitHub (a closed port) is no answer, with the network error, not an HTTP 500', async () => {
    // Retried, then the run fails closed.
    const sim = await startSim()
    const closed = `http://127.0.0.1:${await unusedPort()}`
    const { failure } = await onEvent(
      sim,
      'issue_comment',
      issueCommentEvent('/docs-agent fix it'),
      {},
      { env: { GITHUB_API_URL: closed } }
    )
    expect(failure).toMatch(
      new RegExp(
        /^Could not read the permission of octocat on acme\/docs /.source +
          /\(no answer from GitHub: connect ECONNREFUSED 127\.0\.0\.1:\d+ \(after 4 attempts\)\), /.source +
          /so the comment was not acted on and nothing was sent to the docs service: /.source +
          /GitHub did not answer; rerun the workflow\.$/.source
      )
    )
    expect(failure).not.toContain('HTTP 500')
    expect(serviceRequests(sim)).toHaveLength(0)
  })

  test('a connection GitHub drops before answering is retried like a 5xx, and said to be no answer', async () => {
    const sim = await startSim()
    sim.addFault({ route: 'github-permission', drop: true, times: 10 })
    const { failure } = await onEvent(sim, 'issue_comment', issueCommentEvent('/docs-agent fix it'))
    expect(failure).toMatch(
      new RegExp(
        /\(no answer from GitHub: .+ \(after 4 attempts\)\), so the comment was not acted on/.source +
          /.*GitHub did not answer; rerun the workflow/.source
      )
    )
    expect(failure).not.toContain('HTTP 500')
    expect(sim.count('github-permission')).toBe(4)
    expect(serviceRequests(sim)).toHaveLength(0)
  })

  test("GitHub's rate limits are waited out: a secondary limit's 403 and a 429, each with Retry-After", async () => {
    const sim = await startSim()
    sim.addFault({
      route: 'github-permission',
      status: 403,
      retryAfter: '30',
      body: { message: 'You have exceeded a secondary rate limit.' }
    })
    sim.addFault({ route: 'github-permission', status: 429, retryAfter: '20' })
    const started = sims.current.clock.now()
    const { failure } = await onEvent(sim, 'issue_comment', issueCommentEvent('/docs-agent fix it'))
    expect(failure).toBeUndefined()
    expect(sim.count('github-permission')).toBe(3)
    // The waits were GitHub's (30 s, then 20 s), not the backoff's 1-2 s.
    expect(sims.current.clock.now() - started).toBeGreaterThanOrEqual(50_000)
  })

  test('without a token the permission cannot be checked: fail closed', async () => {
    const sim = await startSim()
    const { failure } = await onEvent(sim, 'issue_comment', issueCommentEvent('/docs-agent fix it'), {
      'github-token': ''
    })
    expect(failure).toContain('there is no `github-token`')
    expect(sim.requests).toHaveLength(0)
  })

  test.each([
    ['bot', issueCommentEvent('/docs-agent fix it', { user: { login: 'docs-bot[bot]', type: 'Bot' } })],
    ['not-created', issueCommentEvent('/docs-agent fix it', { action: 'edited' })],
    ['not-created', issueCommentEvent('/docs-agent fix it', { action: 'deleted' })],
    ['no-command', issueCommentEvent('Looks good to me! /docs-agent is neat')]
  ])('skip-reason %s: nothing is asked of GitHub or the service', async (reason, payload) => {
    const sim = await startSim()
    const { failure, outputs, log } = await onEvent(sim, 'issue_comment', payload)
    expect(failure).toBeUndefined()
    expect(outputs.get('skipped')).toBe('true')
    expect(outputs.get('skip-reason')).toBe(reason)
    expect(outputs.has('job-id')).toBe(false)
    expect(sim.requests).toHaveLength(0)
    expect(log.text()).toContain('Nothing to do.')
  })

  test("with a personal access token the action's own reply and record run nothing", async () => {
    // Though a person wrote them; no loop, even without comment-command.
    const sim = await startSim({
      github: {
        tokenUser: { login: 'docs-deployer', type: 'User' },
        permissions: { octocat: 'write', 'docs-deployer': 'admin' }
      }
    })
    const inputs = { 'comment-command': '', prompt: 'Triage this comment for docs changes.' }
    expect(
      (await onEvent(sim, 'issue_comment', issueCommentEvent('The install page is wrong'), inputs)).failure
    ).toBeUndefined()
    expect(sim.count('agent-create')).toBe(1)
    // GitHub runs the workflow on every comment the token wrote: the reply, and the record on the job's pull request
    // (#100).
    const [reply] = thread(sim, 7).comments
    const [record] = thread(sim, 100).comments
    for (const [number, comment] of [
      [7, reply],
      [100, record]
    ] as const) {
      expect(comment?.user.login).toBe('docs-deployer')
      const event = issueCommentEvent(comment?.body ?? '', {
        number,
        pullRequest: number === 100,
        user: comment?.user,
        commentId: comment?.id
      })
      const { failure, outputs } = await onEvent(sim, 'issue_comment', event, inputs)
      expect({ number, failure, skipReason: outputs.get('skip-reason') }).toEqual({
        number,
        failure: undefined,
        skipReason: 'bot'
      })
    }
    expect(sim.count('agent-create')).toBe(1)
  })

  test('role_name counts when it is a GitHub role; a custom role falls back to its base permission', () => {
    expect(levelOf({ roleName: 'maintain', permission: 'write' })).toBe('maintain')
    expect(levelOf({ roleName: 'docs-editors', permission: 'write' })).toBe('write')
    expect(levelOf({ roleName: undefined, permission: 'read' })).toBe('read')
    expect(levelOf({ roleName: undefined, permission: undefined })).toBe('none')
    expect(meets('maintain', 'write')).toBe(true)
    expect(meets('triage', 'write')).toBe(false)
    expect(meets('none', 'none')).toBe(true)
  })
})

describe('one progress comment per run', () => {
  test('👀 before the service is asked, one reply as the request goes out, then edited', async () => {
    // The reply is edited when the request is accepted, as the job moves and when it ends.
    const sim = await startSim()
    const { failure, outputs, summary } = await onEvent(
      sim,
      'issue_comment',
      issueCommentEvent('/docs-agent  Fix the typo on the install page\n')
    )
    expect(failure).toBeUndefined()
    const routes = sim.requests.map((r) => r.route)
    // Permission, then the reaction, then the reply that the request is on its way (its marker is
    // what a rerun reads), then the service.
    expect(routes.slice(0, 4)).toEqual(['github-permission', 'github-reaction', 'github-comment', 'agent-create'])
    expect(sim.github.reactions).toEqual([{ commentId: 123456, content: 'eyes' }])
    // One new comment on the issue; the job's pull request (#100) got the record.
    const [reply, ...others] = written(sim, 7)
    expect(others).toHaveLength(0)
    expect(outputs.get('comment-url')).toBe(`https://github.com/${REPO}/issues/7#issuecomment-${reply?.id}`)
    const [asking, working, final] = [reply?.history[0] ?? '', reply?.history[1] ?? '', reply?.body ?? '']
    const jobId = outputs.get('job-id') as string
    expect(asking).toMatch(
      new RegExp(
        /^<!-- docs-admin-action:reply run=4242 comment=123456 asked=create outcome=pending at=\d+ -->\n/.source +
          /⏳ Asking the docs service for a new agent job…/.source
      )
    )
    expect(working).toContain(`⏳ Docs agent job \`${jobId}\` is working on it (status **active**).`)
    expect(working).toContain('[Workflow run](https://github.com/acme/docs/actions/runs/4242)')
    expect(final).toMatch(
      new RegExp(
        `✅ Docs agent job \`${jobId}\` is \\*\\*completed\\*\\* after \\d+s\\. ` +
          `Pull request: <https://github.com/acme/docs/pull/100>`
      )
    )
    expect(sim.count('github-comment-edit')).toBe(reply!.history.length - 1)
    expect(outputs.get('pr-number')).toBe('100')
    for (const secret of [GITHUB_TOKEN, sim.apiKey])
      expect(JSON.stringify(sim.requests.map((r) => r.body))).not.toContain(secret)
    expect(summary).toContain('octocat')
    expect(summary).toContain('Fix the typo on the install page')
  })

  test('a message to a job still showing its old end: the reply says the job has it and has not started', async () => {
    // Not that the job is working.
    // For 10 s after the message the job still reads `completed`; then it works for 20 s.
    const sim = await startSim({ agent: { durationMs: 20_000, messageLagMs: 10_000 } })
    const event = issueCommentEvent('/docs-agent Tidy up', { number: 42, pullRequest: true })
    const { failure } = await onEvent(sim, 'issue_comment', event, {
      operation: 'agent-message',
      'job-id': 'job_abc',
      'max-poll-interval': '5s'
    })
    expect(failure).toBeUndefined()
    const [reply] = written(sim, 42)
    const shown = (reply?.history ?? []).map((body) => body.split('\n')[1])
    expect(shown[1]).toBe(
      '⏳ Docs agent job `job_abc` has the instruction and has not started on it yet ' +
        '(it still shows **completed**, as before).'
    )
    expect(shown).toContain('⏳ Docs agent job `job_abc` is working on it (status **active**).')
    expect(shown.filter((line) => line?.includes('is working on it (status **completed**)'))).toEqual([])
    expect(shown.at(-1)).toMatch(/^✅ Docs agent job `job_abc` is \*\*completed\*\*/)
  })

  test('wait: false: the reply says what the run did and that it does not wait', async () => {
    // A status read is shown once, as read.
    const sim = await startSim({ agent: { durationMs: 3_600_000 } })
    const created = await onEvent(sim, 'issue_comment', issueCommentEvent('/docs-agent Fix it'), { wait: 'false' })
    expect(created.failure).toBeUndefined()
    expect(written(sim, 7)[0]?.body).toContain(
      `⏳ Docs agent job \`${created.outputs.get('job-id')}\` was created (status **active**); ` +
        `this run does not wait for it to finish.`
    )
    const onPull = issueCommentEvent('/docs-agent Tidy up', { number: 42, pullRequest: true })
    expect(
      (await onEvent(sim, 'issue_comment', onPull, { operation: 'agent-message', 'job-id': 'job_abc', wait: 'false' }))
        .failure
    ).toBeUndefined()
    expect(written(sim, 42)[0]?.body).toContain(
      '⏳ Docs agent job `job_abc` has the message (status **active**); this run does not wait for it to finish.'
    )
    const onIssue = issueCommentEvent('/docs-agent status', { number: 8 })
    expect(
      (await onEvent(sim, 'issue_comment', onIssue, { operation: 'agent-status', 'job-id': 'job_abc', wait: 'false' }))
        .failure
    ).toBeUndefined()
    const [read, ...more] = written(sim, 8)
    expect(more).toEqual([])
    expect(read?.history).toHaveLength(1)
    expect(read?.body).toContain('ℹ️ Docs agent job `job_abc` is **active**.')
  })

  test('a refused request: the one reply says it is on its way, then the error; its marker says refused', async () => {
    const sim = await startSim()
    const { failure } = await onEvent(sim, 'issue_comment', issueCommentEvent('/docs-agent Fix it'), {
      operation: 'agent-message',
      'job-id': 'job_nope'
    })
    expect(failure).toContain('job not found')
    const replies = written(sim, 7)
    expect(replies).toHaveLength(1)
    expect(replies[0]?.history).toHaveLength(2)
    expect(replies[0]?.history[0]).toContain('⏳ Sending the instruction to docs agent job `job_nope`…')
    expect(replies[0]?.body).toContain('outcome=refused')
    expect(replies[0]?.body).toContain('❌')
    expect(replies[0]?.body).toContain('job not found')
  })

  test('a failed job: the comment carries the service error, the step fails', async () => {
    const sim = await startSim()
    const { failure } = await onEvent(sim, 'issue_comment', issueCommentEvent('/docs-agent FAIL on purpose'), {
      operation: 'agent-message',
      'job-id': 'job_abc'
    })
    expect(failure).toContain('Agent job job_abc failed')
    const [reply] = written(sim, 7)
    expect(reply?.body).toMatch(/❌ Docs agent job `job_abc` \*\*failed\*\* after \d+s: the service gave no reason/)
  })

  test("a failed job's reason too long for a GitHub comment: the reply still ends saying it failed", async () => {
    // With the start of the reason.
    // GitHub refuses a comment body over 65,536 characters: an edit that long would leave the reply saying "working".
    // A tenth of the usual speed: the edit's 5 s bound is then half a second of real time, which a busy machine
    // sending a 60 KB body meets (at a hundred times, 50 ms, it once did not).
    const sim = await startSim({}, acceleratedClock({ speed: 10 }))
    const reason = 'Traceback (most recent call last): File "agent.py", line 12, in run\n'.repeat(2000)
    sim.addFault({ route: 'agent-get', patch: { status: 'failed', error: reason } })
    const { failure, log } = await onEvent(sim, 'issue_comment', issueCommentEvent('/docs-agent Write a page'))
    expect(failure).toContain('failed: Traceback (most recent call last)')
    const [reply] = written(sim, 7)
    expect(reply?.body).toMatch(
      /❌ Docs agent job `job_\w+` \*\*failed\*\* after \d+m?s: Traceback \(most recent call last\)/
    )
    expect(reply?.body).toContain("(cut short: the run's log has more of it)")
    expect(log.lines.filter((line) => line.startsWith('warning: Could not update the reply'))).toEqual([])
  })

  test("a secret in the service's failure text: the comment shows ***, both secrets masked in the log", async () => {
    const sim = await startSim()
    sim.addFault({
      route: 'agent-message',
      status: 500,
      body: { error: `bad credentials ${sim.apiKey} ${GITHUB_TOKEN}` }
    })
    const { failure, secrets } = await onEvent(sim, 'issue_comment', issueCommentEvent('/docs-agent go'), {
      operation: 'agent-message',
      'job-id': 'job_abc'
    })
    expect(failure).toContain('bad credentials')
    const bodies = thread(sim, 7)
      .comments.map((c) => c.body)
      .join('\n')
    expect(asShown(bodies)).toContain('bad credentials *** ***')
    expect(asShown(bodies)).not.toContain(sim.apiKey)
    expect(secrets).toEqual(expect.arrayContaining([sim.apiKey, GITHUB_TOKEN]))
  })

  test('a status quoting the API key: the reply shows ***, the key cut out before the status is escaped', async () => {
    // Escaping spells the key `dsk\_…`.
    const sim = await startSim()
    sim.addFault({ route: 'agent-get', patch: { status: `auth_error key=${sim.apiKey}` } })
    const { failure } = await onEvent(sim, 'issue_comment', issueCommentEvent('/docs-agent Fix it'), {
      operation: 'agent-message',
      'job-id': 'job_abc'
    })
    expect(failure).toBeUndefined()
    const shown = (written(sim, 7)[0]?.history ?? []).map(asShown)
    expect(shown).toContainEqual(expect.stringContaining('(status **auth_error key=*****)'))
    expect(shown.filter((body) => body.includes(sim.apiKey))).toEqual([])
  })

  test("the service's text shows as plain text: a failed job's reason or a refusal, in the bot's reply", async () => {
    // Neither can make the reply link, show an image, or a heading.
    const sim = await startSim()
    const reason =
      '# ✅ Approved by @acme/maintainers — [click here to merge the fix](https://evil.example/phish) ' +
      '![](https://evil.example/pixel.png) > quoted'
    sim.addFault({ route: 'agent-get', patch: { status: 'failed', error: reason } })
    const failed = await onEvent(sim, 'issue_comment', issueCommentEvent('/docs-agent Write a page'))
    expect(failed.failure).toContain(reason)
    const refusal = '[Re-authorize the docs app here](https://evil.example/oauth)'
    sim.addFault({ route: 'agent-create', status: 422, body: { error: refusal } })
    const refused = await onEvent(sim, 'issue_comment', issueCommentEvent('/docs-agent Write a page', { number: 8 }))
    expect(refused.failure).toContain(refusal)
    const [failedText] = /\*\*failed\*\* after \d+m?s: (.*)/.exec(written(sim, 7)[0]?.body ?? '')?.slice(1) ?? []
    const [refusedText] =
      /\n\n(Could not create .*)\n\n\[Workflow run\]/.exec(written(sim, 8)[0]?.body ?? '')?.slice(1) ?? []
    for (const [text, said] of [
      [failedText, reason],
      [refusedText, refusal]
    ] as const) {
      expect(liveMarkdown(text ?? '')).toEqual([])
      expect(asShown(text ?? '')).toContain(said)
    }
  })

  test('a rerun follows the job its first attempt reached, in the same reply: no second job or message', async () => {
    const sim = await startSim({ agent: { durationMs: 60_000 } })
    // On an issue: the first attempt creates a job and times out waiting for it.
    const event = issueCommentEvent('/docs-agent Fix the install command')
    const first = await onEvent(sim, 'issue_comment', event, { timeout: '20s' })
    expect(first.failure).toContain('did not finish within `timeout`')
    const jobId = first.outputs.get('job-id') as string
    const second = await onEvent(sim, 'issue_comment', event, { timeout: '20m' }, RERUN)
    expect(second.failure).toBeUndefined()
    expect(second.outputs.get('job-id')).toBe(jobId)
    expect(sim.count('agent-create')).toBe(1)
    const [reply, ...more] = written(sim, 7)
    expect(more).toEqual([])
    expect(second.outputs.get('comment-url')).toContain(`#issuecomment-${reply?.id}`)
    expect(reply?.body).toContain('✅')
    expect(reply?.body).toContain('An earlier attempt of this workflow run created agent job')
    // On a pull request's review thread: the message is not sent again.
    const review = reviewCommentEvent('/docs-agent Go on')
    const sent = await onEvent(sim, 'pull_request_review_comment', review, {
      operation: 'agent-message',
      'job-id': 'job_abc',
      timeout: '20s'
    })
    expect(sent.failure).toContain('did not finish within `timeout`')
    const again = await onEvent(
      sim,
      'pull_request_review_comment',
      review,
      { operation: 'agent-message', 'job-id': 'job_abc', timeout: '20m' },
      RERUN
    )
    expect(again.failure).toBeUndefined()
    expect(sim.count('agent-message')).toBe(1)
    expect(
      sim.github.thread(REPO, 12).comments.filter((c) => c.kind === 'review' && c.user.type === 'Bot')
    ).toHaveLength(1)
  })

  test("a rerun's reply gives the job's time, not the attempt's, and its note's ids as code", async () => {
    const sim = await startSim({ agent: { durationMs: 60_000 } })
    const event = issueCommentEvent('/docs-agent Fix the install command')
    expect((await onEvent(sim, 'issue_comment', event, { timeout: '20s' })).failure).toContain('timeout')
    expect((await onEvent(sim, 'issue_comment', event, { timeout: '20m' }, RERUN)).failure).toBeUndefined()
    const body = written(sim, 7)[0]?.body ?? ''
    // The job took a minute; the rerun itself waited about 40 s of it.
    expect(body).toMatch(/✅ Docs agent job `job_\w+` is \*\*completed\*\* after 1m 0\ds\./)
    expect(body).toMatch(/An earlier attempt of this workflow run created agent job `job_\w+`: this attempt/)
    expect(body).not.toContain('\\`')
  })

  test('a rerun after a message with no clear answer follows the job instead of sending it again', async () => {
    // After such a create it refuses to create another.
    const sim = await startSim()
    const onPull = issueCommentEvent('/docs-agent Fix it', { number: 42, pullRequest: true })
    sim.addFault({ route: 'agent-message', status: 500, process: true })
    const first = await onEvent(sim, 'issue_comment', onPull, { operation: 'agent-message', 'job-id': 'job_abc' })
    expect(first.failure).toContain('may have processed the request')
    const second = await onEvent(
      sim,
      'issue_comment',
      onPull,
      { operation: 'agent-message', 'job-id': 'job_abc' },
      RERUN
    )
    expect(second.failure).toBeUndefined()
    expect(sim.count('agent-message')).toBe(1)
    expect(second.outputs.get('status')).toBe('completed')
    const onIssue = issueCommentEvent('/docs-agent Write a page')
    sim.addFault({ route: 'agent-create', status: 500 })
    const created = await onEvent(sim, 'issue_comment', onIssue)
    expect(created.failure).toContain('may have processed the request')
    const again = await onEvent(sim, 'issue_comment', onIssue, {}, RERUN)
    expect(again.failure).toContain('this rerun does not create another')
    expect(sim.count('agent-create')).toBe(1)
  })

  test('a rerun never repeats what may have reached the service', async () => {
    // A cancel mid-message, a successor job with no clear answer, a create answered without an id.
    const sim = await startSim()
    // Cancelled while the message is on its way: the reply's marker says so before it is sent.
    const onPull = issueCommentEvent('/docs-agent Fix it', { number: 42, pullRequest: true })
    sim.addFault({ route: 'agent-message', delayMs: 2000 })
    const cancelled = await onEvent(
      sim,
      'issue_comment',
      onPull,
      { operation: 'agent-message', 'job-id': 'job_abc' },
      cancelWhen(() => sim.count('agent-message') > 0)
    )
    expect(cancelled.failureKind).toBe('cancelled')
    const resumed = await onEvent(
      sim,
      'issue_comment',
      onPull,
      { operation: 'agent-message', 'job-id': 'job_abc' },
      RERUN
    )
    expect(resumed.failure).toBeUndefined()
    expect(sim.count('agent-message')).toBe(1)
    // A refused message whose successor job got no clear answer: the rerun creates no other.
    const archived = 'job_old'
    sim.agentJobs.set(`proj_123/${archived}`, {
      projectId: 'proj_123',
      job: {
        ...sim.agentJobs.get('proj_123/job_abc')!.job,
        id: archived,
        status: 'archived',
        archivedAt: '2024-01-02T00:00:00.000Z'
      },
      prompts: []
    })
    sim.github.thread(REPO, 60, { isPullRequest: true })
    sim.github.addComment(REPO, 60, recordBody({ projectId: 'proj_123', jobId: archived }, '/docs-agent'), {
      login: 'github-actions[bot]',
      type: 'Bot'
    })
    sim.addFault({ route: 'agent-create', status: 500, process: true })
    const onOld = issueCommentEvent('/docs-agent One more thing', { number: 60, pullRequest: true })
    expect((await onEvent(sim, 'issue_comment', onOld)).failure).toContain('may have processed the request')
    expect((await onEvent(sim, 'issue_comment', onOld, {}, RERUN)).failure).toContain(
      'this rerun does not create another'
    )
    expect(sim.count('agent-create')).toBe(1)
    // A create the service accepted but answered without an id.
    sim.addFault({ route: 'agent-create', patch: { id: undefined } })
    const onIssue = issueCommentEvent('/docs-agent Write a page')
    expect((await onEvent(sim, 'issue_comment', onIssue)).failure).toContain('carries no usable job `id`')
    expect((await onEvent(sim, 'issue_comment', onIssue, {}, RERUN)).failure).toContain(
      'this rerun does not create another'
    )
    expect(sim.count('agent-create')).toBe(2)
  })

  test('a rerun that cannot follow what its first attempt created or messaged refuses to ask again', async () => {
    // As with an id the marker cannot hold, or another project-id.
    const sim = await startSim()
    // An id the service may give (used encoded in addresses) but not a plain path segment.
    sim.addFault({ route: 'agent-create', patch: { id: 'team/job_1' } })
    const onIssue = issueCommentEvent('/docs-agent Write a page')
    const first = await onEvent(sim, 'issue_comment', onIssue, { wait: 'false' })
    expect(first.failure).toBeUndefined()
    expect(first.outputs.get('job-id')).toBe('team/job_1')
    expect((await onEvent(sim, 'issue_comment', onIssue, { wait: 'false' }, RERUN)).failure).toContain(
      'created an agent job that this rerun cannot follow'
    )
    expect(sim.count('agent-create')).toBe(1)
    // The rerun's project-id is not the one the job was created in.
    const onOther = issueCommentEvent('/docs-agent Write another page', { number: 8 })
    expect((await onEvent(sim, 'issue_comment', onOther, { wait: 'false' })).failure).toBeUndefined()
    const other = await onEvent(sim, 'issue_comment', onOther, { wait: 'false', 'project-id': 'proj_other' }, RERUN)
    expect(other.failure).toMatch(
      /created an agent job \(agent job job_\w+ of project proj_123, not this workflow's `project-id`\)/
    )
    expect(sim.count('agent-create')).toBe(2)
    // A message to a job of another project is not sent again either.
    const onPull = issueCommentEvent('/docs-agent Fix it', { number: 42, pullRequest: true })
    expect(
      (await onEvent(sim, 'issue_comment', onPull, { operation: 'agent-message', 'job-id': 'job_abc', wait: 'false' }))
        .failure
    ).toBeUndefined()
    const message = await onEvent(
      sim,
      'issue_comment',
      onPull,
      { operation: 'agent-message', 'job-id': 'job_abc', wait: 'false', 'project-id': 'proj_other' },
      RERUN
    )
    expect(message.failure).toContain('sent the message to an agent job (agent job job_abc of project proj_123')
    expect(sim.count('agent-message')).toBe(1)
  })

  test('cancelled while waiting to retry a message the service refused (429): the rerun sends it', async () => {
    // Since nothing reached the service.
    const sim = await startSim()
    const event = issueCommentEvent('/docs-agent Fix it', { number: 42, pullRequest: true })
    sim.addFault({ route: 'agent-message', status: 429, retryAfter: '20' })
    const first = await onEvent(
      sim,
      'issue_comment',
      event,
      { operation: 'agent-message', 'job-id': 'job_abc' },
      cancelWhen((host) => host.log.lines.some((l) => l.includes('retry 1 in')))
    )
    expect(first.failureKind).toBe('cancelled')
    expect(written(sim, 42).at(-1)?.body).toContain(' outcome=refused ')
    const second = await onEvent(
      sim,
      'issue_comment',
      event,
      { operation: 'agent-message', 'job-id': 'job_abc' },
      RERUN
    )
    expect(second.failure).toBeUndefined()
    expect(sim.agentJobs.get('proj_123/job_abc')?.prompts).toEqual(['Fix it'])
    expect(written(sim, 42).at(-1)?.history.join('\n')).not.toContain('has not started on it yet')
  })

  test('a rerun after the job showed it took up the message does not wait for that again', async () => {
    const sim = await startSim({ agent: { durationMs: 5000 } })
    const event = issueCommentEvent('/docs-agent FAIL please', { number: 42, pullRequest: true })
    // The first attempt sees the job take the message up (active), then a read of it is refused.
    sim.addFault({ route: 'agent-get', delayMs: 0 })
    sim.addFault({ route: 'agent-get', status: 400 })
    const first = await onEvent(sim, 'issue_comment', event, { operation: 'agent-message', 'job-id': 'job_abc' })
    expect(first.failure).toContain('HTTP 400')
    expect(written(sim, 42).at(-1)?.body).toContain(' seen=1 ')
    // The job has failed meanwhile, within the message's first minute: that end is believed at once.
    sims.current.clock.advance(10_000)
    const second = await onEvent(
      sim,
      'issue_comment',
      event,
      { operation: 'agent-message', 'job-id': 'job_abc', 'max-poll-interval': '30s' },
      RERUN
    )
    expect(second.failure).toContain('Agent job job_abc failed')
    expect(second.log.lines.some((l) => l.includes('as it did before the message'))).toBe(false)
    expect(second.elapsedMs).toBeLessThan(20_000)
  })

  test("a rerun keeps the message's first minute: an end from before the message is not taken at once", async () => {
    // The job shows its old end for an hour after a message; the first attempt fails reading it.
    const sim = await startSim({ agent: { durationMs: 3000, messageLagMs: 3_600_000 } })
    sim.addFault({ route: 'agent-get', status: 400 })
    const event = issueCommentEvent('/docs-agent Fix it', { number: 42, pullRequest: true })
    const first = await onEvent(sim, 'issue_comment', event, { operation: 'agent-message', 'job-id': 'job_abc' })
    expect(first.failure).toContain('HTTP 400')
    const second = await onEvent(
      sim,
      'issue_comment',
      event,
      { operation: 'agent-message', 'job-id': 'job_abc', 'max-poll-interval': '30s' },
      RERUN
    )
    expect(second.failure).toBeUndefined()
    expect(sim.count('agent-message')).toBe(1)
    expect(second.log.lines.some((l) => l.startsWith('warning:') && l.includes('as it did before the message'))).toBe(
      true
    )
  })

  test('a rerun over a minute after the message: the end still shown is taken at its first read', async () => {
    // With the warning.
    const sim = await startSim({ agent: { durationMs: 3000, messageLagMs: 3_600_000 } })
    sim.addFault({ route: 'agent-get', status: 400 })
    const event = issueCommentEvent('/docs-agent Fix it', { number: 42, pullRequest: true })
    const first = await onEvent(sim, 'issue_comment', event, { operation: 'agent-message', 'job-id': 'job_abc' })
    expect(first.failure).toContain('HTTP 400')
    // The message's first minute counts from when the first attempt sent it: it is over.
    sims.current.clock.advance(120_000)
    const second = await onEvent(
      sim,
      'issue_comment',
      event,
      { operation: 'agent-message', 'job-id': 'job_abc', 'max-poll-interval': '30s' },
      RERUN
    )
    expect(second.failure).toBeUndefined()
    expect(sim.count('agent-message')).toBe(1)
    expect(second.log.lines.some((l) => l.startsWith('warning:') && l.includes('as it did before the message'))).toBe(
      true
    )
    expect(second.elapsedMs).toBeLessThan(20_000)
  })

  test('a reply of another workflow run to the same command is not carried on from', async () => {
    const sim = await startSim()
    const event = issueCommentEvent('/docs-agent Fix it', { number: 42, pullRequest: true })
    await onEvent(
      sim,
      'issue_comment',
      event,
      { operation: 'agent-message', 'job-id': 'job_abc' },
      { env: { GITHUB_RUN_ID: '1111' } }
    )
    const other = await onEvent(
      sim,
      'issue_comment',
      event,
      { operation: 'agent-message', 'job-id': 'job_abc' },
      { env: { GITHUB_RUN_ID: '2222', GITHUB_RUN_ATTEMPT: '2' } }
    )
    expect(other.failure).toBeUndefined()
    expect(sim.count('agent-message')).toBe(2)
    // It answers in a reply of its own; the other run's reply is left as it was.
    const replies = written(sim, 42).filter((c) => c.body.startsWith('<!-- docs-admin-action:reply '))
    expect(replies.map((c) => /^<!-- docs-admin-action:reply run=(\d+) /.exec(c.body)?.[1])).toEqual(['1111', '2222'])
    expect(replies.every((c) => c.body.includes('✅'))).toBe(true)
  })

  test('cancelled while an end from before the message is not yet believed: the reply says cancelled', async () => {
    const sim = await startSim({ agent: { durationMs: 3000, messageLagMs: 3_600_000 } })
    const { failureKind } = await onEvent(
      sim,
      'issue_comment',
      issueCommentEvent('/docs-agent Slow one'),
      { operation: 'agent-message', 'job-id': 'job_abc', 'max-poll-interval': '30s' },
      cancelWhen(() => sim.count('agent-get') >= 2)
    )
    expect(failureKind).toBe('cancelled')
    const [reply] = written(sim, 7)
    expect(reply?.body).toContain('the run was cancelled')
  })

  test('a rerun after a first attempt the service never answered asks again, in the same reply', async () => {
    const sim = await startSim()
    sim.addFault({ route: 'agent-message', status: 404, body: { error: 'job not found' } })
    const event = issueCommentEvent('/docs-agent Fix it')
    const first = await onEvent(sim, 'issue_comment', event, { operation: 'agent-message', 'job-id': 'job_abc' })
    expect(first.failure).toContain('job not found')
    const second = await onEvent(
      sim,
      'issue_comment',
      event,
      { operation: 'agent-message', 'job-id': 'job_abc' },
      RERUN
    )
    expect(second.failure).toBeUndefined()
    expect(sim.count('agent-message')).toBe(2)
    const [reply, ...more] = written(sim, 7)
    expect(more).toEqual([])
    expect(reply?.body).toContain('✅')
  })

  test('a cancelled run leaves the reply saying so, not "working"', async () => {
    const sim = await startSim({ agent: { durationMs: 3_600_000 } })
    // Cancelled once the reply says the job is working.
    const { failureKind } = await onEvent(
      sim,
      'issue_comment',
      issueCommentEvent('/docs-agent Slow one'),
      { operation: 'agent-message', 'job-id': 'job_abc' },
      cancelWhen(() => written(sim, 7).some((c) => c.body.includes('is working on it')))
    )
    expect(failureKind).toBe('cancelled')
    const [reply, ...more] = written(sim, 7)
    expect(more).toEqual([])
    expect(reply?.body).toMatch(
      new RegExp(
        /^<!-- docs-admin-action:reply [^\n]* project=proj_123 job=job_abc -->\n⏹️ /.source +
          /Docs agent job `job_abc` \(status \*\*active\*\*\): the run was cancelled after \d+m?s\. /.source +
          /The job may still be running/.source
      )
    )
  })

  test('an end in the first answer cut short by a failed read or a cancel: the reply says how it ended', async () => {
    // Not "working".
    // A job so quick that the create's own answer shows its end.
    const sim = await startSim({ agent: { durationMs: 0 } })
    sim.addFault({ route: 'agent-get', status: 400 })
    const failed = await onEvent(sim, 'issue_comment', issueCommentEvent('/docs-agent FAIL now'))
    expect(failed.failure).toContain('HTTP 400')
    expect(written(sim, 7)[0]?.body).toMatch(/\n❌ Docs agent job `job_\w+` \(status \*\*failed\*\*\): the run failed/)
    sim.clearFaults()
    sim.addFault({ route: 'agent-get', delayMs: 3000 })
    const reads = sim.count('agent-get')
    const cancelled = await onEvent(
      sim,
      'issue_comment',
      issueCommentEvent('/docs-agent Fix it', { number: 8 }),
      {},
      cancelWhen(() => sim.count('agent-get') > reads)
    )
    expect(cancelled.failureKind).toBe('cancelled')
    expect(written(sim, 8)[0]?.body).toMatch(
      /\n⏹️ Docs agent job `job_\w+` \(status \*\*completed\*\*\): the run was cancelled/
    )
  })

  test("a timeout still reaches the comment, within the step's bound", async () => {
    const sim = await startSim({ agent: { durationMs: 3_600_000 } })
    const { failure, elapsedMs } = await onEvent(sim, 'issue_comment', issueCommentEvent('/docs-agent Slow one'), {
      operation: 'agent-message',
      'job-id': 'job_abc',
      timeout: '5m',
      'max-poll-interval': '60s'
    })
    expect(failure).toMatch(/Agent job job_abc did not finish within `timeout` \(5m 00s\)/)
    // Within the last word's 5 s (and 15 s of test clock, 0.15 s of real time, for a loaded
    // machine): an overrun by a poll interval (60 s) would show.
    expect(elapsedMs).toBeLessThan(300_000 + 5000 + 15_000)
    const [reply] = written(sim, 7)
    // The job's time runs from the message, sent a moment (a loaded machine: a few seconds of test
    // clock) after the step's timeout began: about five minutes either way.
    expect(reply?.body).toMatch(
      /❌ Docs agent job `job_abc` \(status \*\*active\*\*\): the run failed after (4m 5\d|5m 0\d)s\./
    )
    expect(asShown(reply?.body ?? '')).toContain('did not finish within `timeout` (5m 00s)')
  })

  test('the reply that says how the run ended may take a few seconds past the timeout', async () => {
    // A slower clock (10x): the edit's delay of 350 ms of real time is 3.5 s of the run's time,
    // past the 2 s of grace a request under way gets at the deadline.
    const sim = await startSim({ agent: { durationMs: 3_600_000 } }, acceleratedClock({ speed: 10 }))
    sim.addFault({ route: 'github-comment-edit', delayMs: 350, times: 20 })
    const { failure, log } = await onEvent(sim, 'issue_comment', issueCommentEvent('/docs-agent Slow one'), {
      operation: 'agent-message',
      'job-id': 'job_abc',
      timeout: '20s'
    })
    expect(failure).toMatch(/Agent job job_abc did not finish within `timeout` \(20s\)/)
    expect(log.text()).not.toContain('Could not update the reply')
    expect(asShown(written(sim, 7)[0]?.body ?? '')).toContain('did not finish within `timeout` (20s)')
  })

  // An HTTP 500, and a connection dropped with no answer at all (not an HTTP 500, whatever Octokit labels it).
  test.each([
    ['an HTTP 500', { status: 500 }, 'HTTP 500'],
    ['a connection dropped', { drop: true }, 'no answer from GitHub: ']
  ] as const)(
    'where the reply guards nothing (a status read), a failing GitHub API only warns: %s',
    async (_, fault, said) => {
      // A slower clock: a GitHub answer, even on a loaded machine, comes within its 5 s (0.5 s here).
      const sim = await startSim({}, acceleratedClock({ speed: 10 }))
      sim.addFault({ route: 'github-reaction', ...fault })
      sim.addFault({ route: 'github-comment', ...fault, times: 5 })
      const { failure, outputs, log } = await onEvent(
        sim,
        'issue_comment',
        issueCommentEvent('/docs-agent How is it going?'),
        {
          operation: 'agent-status',
          'job-id': 'job_abc'
        }
      )
      expect(failure).toBeUndefined()
      expect(outputs.get('status')).toBe('completed')
      const warnings = log.lines.filter((l) => l.startsWith('warning:'))
      expect(warnings).toEqual(
        expect.arrayContaining(
          [
            `warning: Could not react to comment 123456: ${said}`,
            `warning: Could not post the reply to comment 123456: ${said}`
          ].map((start) => expect.stringContaining(start))
        )
      )
      expect(log.text().includes('HTTP 500')).toBe(said === 'HTTP 500')
      // The reply that failed is not posted again later: never a second comment.
      expect(sim.count('github-comment-edit')).toBe(0)
      expect(
        sim.requests.filter((r) => r.route === 'github-comment' && r.path.endsWith('/issues/7/comments'))
      ).toHaveLength(1)
    }
  )

  test.each([
    ['refused once (HTTP 502, nothing posted)', { status: 502 }],
    ['posted, its answer lost (HTTP 502)', { status: 502, process: true }],
    ['posted, the connection dropped before the answer', { drop: true, process: true }]
  ] as const)(
    "the reply's marker is written before the service is asked, though GitHub fails the post once: %s; " +
      'a rerun then creates no second job',
    async (_, fault) => {
      const sim = await startSim({ agent: { durationMs: 60_000 } })
      sim.addFault({ route: 'github-comment', ...fault })
      const event = issueCommentEvent('/docs-agent Fix the install command')
      const first = await onEvent(sim, 'issue_comment', event, { timeout: '20s' })
      expect(first.failure).toContain('did not finish within `timeout`')
      const second = await onEvent(sim, 'issue_comment', event, { timeout: '20m' }, RERUN)
      expect(second.failure).toBeUndefined()
      expect(sim.count('agent-create')).toBe(1)
      // One reply: a post whose answer was lost is found again, not posted twice.
      const [reply, ...more] = written(sim, 7)
      expect(more).toEqual([])
      expect(reply?.body).toContain('✅')
    }
  )

  test('a marker GitHub posted though the attempt never learnt so: the attempt sends nothing', async () => {
    // The rerun says the message may have been sent, not that it was.
    const sim = await startSim({ agent: { durationMs: 1000 } })
    const onPull = issueCommentEvent('/docs-agent Fix it', { number: 42, pullRequest: true })
    // The post is made but its answer is lost, and every look for it after fails.
    sim.addFault({ route: 'github-comment', status: 502, process: true })
    for (let i = 0; i < 4; i++) sim.addFault({ route: 'github-comments', status: 502 })
    const inputs = { operation: 'agent-message', 'job-id': 'job_abc' }
    const first = await onEvent(sim, 'issue_comment', onPull, inputs)
    expect(first.failure).toContain('so nothing was sent to the docs service')
    expect(first.failure).toContain(
      'if GitHub posted the reply all the same, the rerun cannot tell that nothing was sent ' +
        'and will not ask again (comment the command again instead)'
    )
    expect(sim.count('agent-message')).toBe(0)
    const second = await onEvent(sim, 'issue_comment', onPull, inputs, RERUN)
    expect(sim.count('agent-message')).toBe(0)
    const note =
      'An earlier attempt of this workflow run may have sent the instruction to agent job `job_abc` ' +
      '(it got no clear answer, or stopped before sending it)'
    expect(second.log.lines).toContainEqual(expect.stringContaining(`warning: ${note}`))
    const [reply, ...more] = written(sim, 42).filter((comment) => readReplyMarker(comment.body) !== undefined)
    expect(more).toEqual([])
    expect(asShown(reply?.body ?? '')).toContain(note)
    expect(asShown(reply?.body ?? '')).not.toContain('run sent the instruction')
  })

  test('two replies of one attempt: the rerun goes on from the one that says how the asking ended', async () => {
    // One of them a post GitHub made late, still asking.
    const sim = await startSim({ agent: { durationMs: 60_000 } })
    const event = issueCommentEvent('/docs-agent Fix the install command')
    const first = await onEvent(sim, 'issue_comment', event, { timeout: '20s' })
    expect(first.failure).toContain('did not finish within `timeout`')
    const jobId = first.outputs.get('job-id') as string
    // The late post: its marker still says the create is under way, with no job.
    const late = formatReplyMarker({ run: '4242', comment: 123456, asked: 'create', outcome: 'pending', at: 1 })
    sim.github.addComment(REPO, 7, `${late}⏳ Asking the docs service for a new agent job…`, {
      login: 'github-actions[bot]',
      type: 'Bot'
    })
    const second = await onEvent(sim, 'issue_comment', event, { timeout: '20m' }, RERUN)
    expect(second.failure).toBeUndefined()
    expect(second.outputs.get('job-id')).toBe(jobId)
    expect(sim.count('agent-create')).toBe(1)
  })

  test('a reply GitHub refuses: the step fails naming the permission before the service gets anything', async () => {
    // A token without `issues: write`.
    const sim = await startSim({ github: { writableRepos: [] } })
    const { failure, log } = await onEvent(sim, 'issue_comment', issueCommentEvent('/docs-agent Fix it'))
    // One sentence: what failed, what it means, and the fix.
    expect(failure).toMatch(
      new RegExp(
        /^Could not post the reply to comment 123456 \(HTTP 403: [^()]*\), so nothing was sent to the /.source +
          /docs service \(the reply's marker keeps a rerun from asking twice\): give the workflow /.source +
          /`permissions: issues: write, pull-requests: write`\.$/.source
      )
    )
    expect(failure?.length).toBeLessThan(300)
    expect(serviceRequests(sim)).toEqual([])
    // A refusal is not tried again; the reaction's is only a warning.
    expect(sim.count('github-comment')).toBe(1)
    expect(log.lines).toContainEqual(expect.stringMatching(/^warning: Could not react to comment 123456: HTTP 403/))
  })

  test("a rerun that asks the service again first updates the earlier reply's marker, or asks nothing", async () => {
    const sim = await startSim()
    sim.addFault({ route: 'agent-message', status: 404, body: { error: 'job not found' } })
    const event = issueCommentEvent('/docs-agent Fix it')
    const inputs = { operation: 'agent-message', 'job-id': 'job_abc' }
    expect((await onEvent(sim, 'issue_comment', event, inputs)).failure).toContain('job not found')
    // The marker says the service refused, so the rerun would send the message again: not before the marker says so.
    sim.addFault({ route: 'github-comment-edit', status: 403, times: 10 })
    const second = await onEvent(sim, 'issue_comment', event, inputs, RERUN)
    expect(second.failure).toMatch(
      new RegExp(
        /^Agent job job_abc: Could not update the reply to comment 123456 \(HTTP 403: .*\), /.source +
          /so nothing was sent to the docs service/.source
      )
    )
    expect(sim.count('agent-message')).toBe(1)
    expect(written(sim, 7)).toHaveLength(1)
  })

  test("the job's pull request on an unreachable GitHub: no record; the warning says no answer came", async () => {
    const sim = await startSim()
    const port = await unusedPort()
    const { failure, outputs, log } = await onEvent(
      sim,
      'workflow_dispatch',
      {},
      { operation: 'agent-status', 'job-id': 'job_abc', 'comment-command': '' },
      { env: { GITHUB_API_URL: `http://127.0.0.1:${port}` } }
    )
    expect(failure).toBeUndefined()
    expect(outputs.get('pr-number')).toBe('42')
    expect(log.lines).toContain(
      `warning: Could not read the comments of acme/docs#42: ` +
        `no answer from GitHub: connect ECONNREFUSED 127.0.0.1:${port}`
    )
    expect(log.text()).not.toContain('HTTP 500')
  })

  test('a review comment: 👀 on it, the reply in its thread (on the first comment), that reply edited', async () => {
    const sim = await startSim()
    const { failure, outputs } = await onEvent(
      sim,
      'pull_request_review_comment',
      reviewCommentEvent('/docs-agent Reword this NOCHANGE', { id: 990, in_reply_to_id: 987 }),
      {
        operation: 'agent-message',
        'job-id': 'job_abc'
      }
    )
    expect(failure).toBeUndefined()
    expect(outputs.get('pr-link')).toBe('')
    const paths = github(sim).map((r) => `${r.method} ${r.path}`)
    expect(paths).toContain('POST /github-api/repos/acme/docs/pulls/comments/990/reactions')
    expect(paths).toContain('POST /github-api/repos/acme/docs/pulls/12/comments/987/replies')
    expect(paths.filter((p) => p.startsWith('PATCH'))).toEqual(
      expect.arrayContaining(['PATCH /github-api/repos/acme/docs/pulls/comments/' + thread(sim, 12).comments[0]?.id])
    )
    expect(thread(sim, 12).comments[0]?.body).toContain('with no file changes, so no pull request was opened')
  })

  test('a review comment says where it was written: its file and line(s) go in the instruction', async () => {
    // To a new job and in a message.
    const sim = await startSim({ agent: { durationMs: 300 } })
    // "this" in a review comment is what is written on its line(s): without them the agent cannot know what is meant.
    const created = await onEvent(
      sim,
      'pull_request_review_comment',
      reviewCommentEvent('/docs-agent Reword this sentence')
    )
    expect(created.failure).toBeUndefined()
    const [prompt] = sim.agentJobs.get(`proj_123/${created.outputs.get('job-id')}`)?.prompts ?? []
    expect(prompt).toMatch(
      new RegExp(
        /^Reword this sentence\n\n\(Written in a review comment on docs\/install\.md, line 3\.\)/.source +
          /\n\n---\nContext: this was asked on the pull request #12/.source
      )
    )
    const spanning = reviewCommentEvent('/docs-agent Merge these two paragraphs', { id: 991, start_line: 7, line: 9 })
    const sent = await onEvent(sim, 'pull_request_review_comment', spanning, {
      operation: 'agent-message',
      'job-id': 'job_abc'
    })
    expect(sent.failure).toBeUndefined()
    const removed = reviewCommentEvent('/docs-agent Keep this line', { id: 992, line: 4, side: 'LEFT' })
    await onEvent(sim, 'pull_request_review_comment', removed, { operation: 'agent-message', 'job-id': 'job_abc' })
    const onFile = reviewCommentEvent('/docs-agent Split this page', {
      id: 993,
      subject_type: 'file',
      line: null,
      original_line: null
    })
    await onEvent(sim, 'pull_request_review_comment', onFile, { operation: 'agent-message', 'job-id': 'job_abc' })
    expect(sim.agentJobs.get('proj_123/job_abc')?.prompts).toEqual([
      'Merge these two paragraphs\n\n(Written in a review comment on docs/install.md, lines 7 to 9.)',
      'Keep this line\n\n(Written in a review comment on docs/install.md, line 4 of the file before the change.)',
      'Split this page\n\n(Written in a review comment on docs/install.md.)'
    ])
  })

  test('text from the service cannot ping people', async () => {
    expect(withoutMentions('ask @octocat and @acme/docs-team, mail a@b')).toBe(
      'ask @\u200doctocat and @\u200dacme/docs-team, mail a@\u200db'
    )
    const text = progressText(
      {
        jobId: 'job_1',
        status: 'failed',
        prLink: undefined,
        phase: 'ended',
        request: 'message',
        error: 'ping @octocat',
        note: undefined,
        elapsedMs: 61_000,
        runUrl: undefined
      },
      secretsOf()
    )
    expect(text).toBe('❌ Docs agent job `job_1` **failed** after 1m 01s: ping @\u200doctocat')
  })

  test('no text from the service can ping, close its code span or emphasis, or plant a record marker', () => {
    const facts = {
      jobId: 'j` @acme/owners `',
      status: 'provisioning @acme/security-team **[x](https://evil.example)**',
      prLink: normalisedHttpLink('https://github.com/acme/docs/pull/1 cc @acme/owners'),
      phase: 'ended' as const,
      request: 'message' as const,
      error: undefined,
      note: 'see <!-- docs-admin-action:agent-job project=p job=j --> @octocat',
      elapsedMs: undefined,
      runUrl: undefined
    }
    const text = progressText(facts, secretsOf())
    expect(text).toBe(
      [
        'ℹ️ Docs agent job `` j` @acme/owners ` `` is **provisioning' +
          ' @\u200dacme/security-team \\*\\*\\[x\\](https:\u200d//evil.example)\\*\\***.' +
          ' Pull request: <https://github.com/acme/docs/pull/1%20cc%20@acme/owners>',
        '',
        'see &lt;\\!-- docs-admin-action:agent-job project=p job=j --\\> @\u200doctocat'
      ].join('\n')
    )
    // Outside the code span, the autolink and the escaped emphasis, no @ is followed by a name.
    const outside = text.replace(/``.*?``/, '').replace(/<https:[^>]*>/, '')
    expect(outside).not.toMatch(/@[A-Za-z0-9]/)
    expect(commentCode('a``b')).toBe('```a``b```')
    expect(commentCode('`x')).toBe('`` `x ``')
    expect(commentCode('line\nbreak')).toBe('`line break`')
    // A record of the action's own starts with its marker; a marker further down is none.
    expect(
      recordedJobs([
        {
          id: 1,
          body: 'quote: <!-- docs-admin-action:agent-job project=p job=j -->',
          author: { login: 'github-actions[bot]', type: 'Bot' }
        }
      ])
    ).toEqual([])
    expect(recordBody({ projectId: 'p', jobId: 'j`x' }, '/docs-agent')).toContain(
      'Docs agent job ``j`x`` opened this pull request.'
    )
  })

  test('the comment never carries a secret, in any text of the service, however it is escaped there', () => {
    const secrets = secretsOf('dsk_secret_key', 'ghs_token_123')
    const text = progressText(
      {
        jobId: 'job_1',
        status: 'auth_error key=dsk_secret_key',
        prLink: undefined,
        phase: 'failed',
        request: 'message',
        error: 'boom dsk_secret_key and ghs_token_123',
        note: 'refused <ghs_token_123>',
        elapsedMs: 5,
        runUrl: undefined
      },
      secrets
    )
    // `_` is escaped as `\_` there, which a secret cut out after escaping would no longer match.
    expect(asShown(text)).toContain('(status **auth_error key=*****)')
    expect(asShown(text)).toContain('boom *** and ***')
    expect(asShown(text)).toContain('refused <***>')
    for (const secret of ['dsk_secret_key', 'ghs_token_123']) expect(asShown(text)).not.toContain(secret)
  })
})

describe('the pull request remembers its job', () => {
  test('a command on an issue creates a job with the issue as context; its pull request records the job', async () => {
    const sim = await startSim()
    const body = `${'x'.repeat(CONTEXT_BODY_CHARS)}TAIL`
    const { failure, outputs } = await onEvent(
      sim,
      'issue_comment',
      issueCommentEvent('/docs-agent Fix the install command', { title: 'Wrong install command', body })
    )
    expect(failure).toBeUndefined()
    const jobId = outputs.get('job-id') as string
    const prompt = sim.agentJobs.get(`proj_123/${jobId}`)?.prompts[0] ?? ''
    expect(prompt).toContain(
      'Fix the install command\n\n---\nContext: this was asked on the issue #7 "Wrong install command" ' +
        '(https://github.com/acme/docs/issues/7).'
    )
    expect(prompt).toContain(`${'x'.repeat(CONTEXT_BODY_CHARS)}…`)
    expect(prompt).not.toContain('TAIL')
    // The record on the job's pull request: one comment by the action, with the job in a marker.
    const records = written(sim, 100)
    expect(records).toHaveLength(1)
    expect(records[0]?.body).toContain(`<!-- docs-admin-action:agent-job project=proj_123 job=${jobId} -->`)
    expect(records[0]?.body).toContain('`/docs-agent <instruction>`')
    expect(recordedJobs(thread(sim, 100).comments.map((c) => ({ id: c.id, body: c.body, author: c.user })))).toEqual([
      { projectId: 'proj_123', jobId }
    ])
  })

  test('a command on that pull request reaches the same job; a rerun adds no second record', async () => {
    const sim = await startSim()
    const first = await onEvent(sim, 'issue_comment', issueCommentEvent('/docs-agent Fix the install command'))
    const jobId = first.outputs.get('job-id') as string
    const onPull = await onEvent(
      sim,
      'issue_comment',
      issueCommentEvent('/docs-agent Also fix the upgrade page', { number: 100, pullRequest: true })
    )
    expect(onPull.failure).toBeUndefined()
    expect(onPull.outputs.get('job-id')).toBe(jobId)
    expect(sim.agentJobs.get(`proj_123/${jobId}`)?.prompts).toEqual([
      expect.stringContaining('Fix the install command'),
      'Also fix the upgrade page'
    ])
    expect(sim.count('agent-create')).toBe(1)
    // The follow-up updated the same pull request: still one record on it.
    expect(onPull.outputs.get('pr-number')).toBe('100')
    expect(written(sim, 100).filter((c) => c.body.includes('docs-admin-action:agent-job'))).toHaveLength(1)
    const again = await onEvent(
      sim,
      'issue_comment',
      issueCommentEvent('/docs-agent status please', { number: 100, pullRequest: true }),
      { operation: 'agent-status' }
    )
    expect(again.failure).toBeUndefined()
    expect(again.outputs.get('job-id')).toBe(jobId)
    expect(written(sim, 100).filter((c) => c.body.includes('docs-admin-action:agent-job'))).toHaveLength(1)
  })

  test("with a personal access token the records it wrote count; another person's marker still does not", async () => {
    const sim = await startSim({ github: { tokenUser: { login: 'docs-deployer', type: 'User' } } })
    const records = () => thread(sim, 100).comments.filter((c) => c.body.includes('docs-admin-action:agent-job'))
    const first = await onEvent(sim, 'issue_comment', issueCommentEvent('/docs-agent Fix the install command'))
    const jobId = first.outputs.get('job-id') as string
    expect(records().map((c) => c.user.login)).toEqual(['docs-deployer'])
    const onPull = await onEvent(
      sim,
      'issue_comment',
      issueCommentEvent('/docs-agent Also fix the upgrade page', { number: 100, pullRequest: true })
    )
    expect(onPull.failure).toBeUndefined()
    expect(onPull.outputs.get('job-id')).toBe(jobId)
    expect(sim.count('agent-create')).toBe(1)
    expect(records()).toHaveLength(1)
    expect(sim.count('github-user')).toBe(1)
    // octocat (a person, not the token's) writes a marker for another job: it counts for nothing.
    sim.github.addComment(REPO, 100, recordBody({ projectId: 'proj_123', jobId: 'job_abc' }, '/docs-agent'))
    const third = await onEvent(
      sim,
      'issue_comment',
      issueCommentEvent('/docs-agent And the FAQ', { number: 100, pullRequest: true })
    )
    expect(third.outputs.get('job-id')).toBe(jobId)
  })

  test("agent-message and agent-status without job-id: the pull request's latest record, over all pages", async () => {
    const sim = await startSim()
    sim.github.thread(REPO, 12, { isPullRequest: true })
    sim.github.addComment(REPO, 12, recordBody({ projectId: 'proj_123', jobId: 'job_old' }, '/docs-agent'), {
      login: 'github-actions[bot]',
      type: 'Bot'
    })
    for (let i = 0; i < 230; i++) sim.github.addComment(REPO, 12, `comment ${i}`)
    sim.github.addComment(REPO, 12, recordBody({ projectId: 'proj_123', jobId: 'job_abc' }, '/docs-agent'), {
      login: 'github-actions[bot]',
      type: 'Bot'
    })
    const { failure, outputs } = await onEvent(
      sim,
      'pull_request_review_comment',
      reviewCommentEvent('/docs-agent Tighten the wording'),
      { operation: 'agent-message' }
    )
    expect(failure).toBeUndefined()
    expect(outputs.get('job-id')).toBe('job_abc')
    expect(sim.agentJobs.get('proj_123/job_abc')?.prompts).toEqual([
      'Tighten the wording\n\n(Written in a review comment on docs/install.md, line 3.)'
    ])
    expect(sim.count('github-comments')).toBeGreaterThanOrEqual(3)
  })

  test('a marker written by a person is no record', async () => {
    const sim = await startSim()
    sim.github.thread(REPO, 12, { isPullRequest: true })
    sim.github.addComment(REPO, 12, recordBody({ projectId: 'proj_123', jobId: 'job_abc' }, '/docs-agent'))
    const { failure } = await onEvent(sim, 'pull_request_review_comment', reviewCommentEvent('/docs-agent Go'), {
      operation: 'agent-message'
    })
    expect(failure).toMatch(/No agent job is recorded on pull request #12/)
    expect(serviceRequests(sim)).toHaveLength(0)
  })

  test("a bot's record counts only for the workflow's project-id, with ids that are plain path segments", async () => {
    // Another bot (an app that posts what it is given) wrote records: one for another project, one with a path-like id.
    const sim = await startSim()
    sim.github.thread(REPO, 12, { isPullRequest: true })
    const app = { login: 'echo-app[bot]', type: 'Bot' }
    sim.github.addComment(REPO, 12, recordBody({ projectId: 'proj_123', jobId: '..' }, '/docs-agent'), app)
    sim.github.addComment(REPO, 12, recordBody({ projectId: 'proj_OTHER', jobId: 'job_victim' }, '/docs-agent'), app)
    const { failure, log } = await onEvent(sim, 'pull_request_review_comment', reviewCommentEvent('/docs-agent Go'), {
      operation: 'agent-message'
    })
    expect(failure).toMatch(/No agent job is recorded on pull request #12/)
    expect(
      log.lines.find(
        (l) =>
          l.startsWith('warning:') &&
          l.includes('records agent job job_victim of project proj_OTHER, not of `project-id` (proj_123)')
      )
    ).toBeDefined()
    expect(serviceRequests(sim)).toHaveLength(0)
    // A record of this project after them is used.
    sim.github.addComment(REPO, 12, recordBody({ projectId: 'proj_123', jobId: 'job_abc' }, '/docs-agent'), app)
    const again = await onEvent(sim, 'pull_request_review_comment', reviewCommentEvent('/docs-agent Go'), {
      operation: 'agent-message'
    })
    expect(again.failure).toBeUndefined()
    expect(serviceRequests(sim).map((r) => `${r.method} ${r.path}`)).toContain(
      'POST /v2/agent/proj_123/job/job_abc/message'
    )
  })

  test('no record and no job-id: fail before any request to the service, saying how to fix it', async () => {
    const sim = await startSim()
    const onPull = await onEvent(
      sim,
      'issue_comment',
      issueCommentEvent('/docs-agent Go', { number: 12, pullRequest: true }),
      { operation: 'agent-status' }
    )
    expect(onPull.failure).toMatch(
      /No agent job is recorded on pull request #12.*Set `job-id`, or create the job with this action/
    )
    const onIssue = await onEvent(sim, 'issue_comment', issueCommentEvent('/docs-agent Go'), {
      operation: 'agent-message'
    })
    expect(onIssue.failure).toMatch(/`agent-message` has no `job-id` and the comment is not on a pull request/)
    expect(serviceRequests(sim)).toHaveLength(0)
  })

  test("a recorded job the service no longer has: the failure blames the pull request's record", async () => {
    // Not a `job-id` nobody set.
    const sim = await startSim()
    sim.github.thread(REPO, 12, { isPullRequest: true })
    sim.github.addComment(REPO, 12, recordBody({ projectId: 'proj_123', jobId: 'job_gone' }, '/docs-agent'), {
      login: 'github-actions[bot]',
      type: 'Bot'
    })
    const expected = new RegExp(
      /^Agent job job_gone, which pull request #12 records, was not found in project proj_123 /.source +
        /\(HTTP 404: the service said "job not found"\)/.source +
        /: the service no longer has it\. Set `job-id` to use another job/.source
    )
    for (const operation of ['agent', 'agent-message', 'agent-status']) {
      const { failure } = await onEvent(
        sim,
        'issue_comment',
        issueCommentEvent('/docs-agent Go', { number: 12, pullRequest: true }),
        { operation }
      )
      expect({ operation, failure }).toEqual({ operation, failure: expect.stringMatching(expected) })
    }
    // A `job-id` that names no job is still said to be at fault.
    const named = await onEvent(
      sim,
      'issue_comment',
      issueCommentEvent('/docs-agent Go', { number: 12, pullRequest: true }),
      { 'job-id': 'job_typo' }
    )
    expect(named.failure).toContain('Check `job-id` and `project-id`.')
    expect(sim.count('agent-create')).toBe(0)
  })

  test('comments that cannot be read leave the job unknown: fail, never guess', async () => {
    const sim = await startSim()
    sim.addFault({ route: 'github-comments', status: 503, times: 10 })
    const { failure } = await onEvent(
      sim,
      'issue_comment',
      issueCommentEvent('/docs-agent Go', { number: 12, pullRequest: true })
    )
    expect(failure).toMatch(
      new RegExp(
        /Could not read the comments of pull request #12 to find the agent job recorded there /.source +
          /\(HTTP 503.*\); nothing was sent to the docs service/.source
      )
    )
    expect(serviceRequests(sim)).toHaveLength(0)
    // Refused, the read asks for read access: writing is not what failed.
    sim.clearFaults()
    sim.addFault({ route: 'github-comments', status: 403, times: 10 })
    const refused = await onEvent(
      sim,
      'issue_comment',
      issueCommentEvent('/docs-agent Go', { number: 12, pullRequest: true })
    )
    expect(refused.failure).toContain('(HTTP 403: ')
    expect(refused.failure).toContain(
      'may read issues and pull requests (`permissions: issues: read, pull-requests: read`, or their `write`)'
    )
    expect(refused.failure).not.toContain('may write')
  })

  test('a job taking no more messages: a new job gets the instruction and the link; the reply says so', async () => {
    const sim = await startSim()
    const first = await onEvent(sim, 'issue_comment', issueCommentEvent('/docs-agent ARCHIVE when done'))
    const archived = first.outputs.get('job-id') as string
    expect(first.outputs.get('status')).toBe('archived')
    // An archived job opened no pull request here: record one by hand, as the action would have.
    sim.github.thread(REPO, 60, { isPullRequest: true })
    sim.github.addComment(REPO, 60, recordBody({ projectId: 'proj_123', jobId: archived }, '/docs-agent'), {
      login: 'github-actions[bot]',
      type: 'Bot'
    })
    const { failure, outputs, log } = await onEvent(
      sim,
      'issue_comment',
      issueCommentEvent('/docs-agent One more thing', { number: 60, pullRequest: true })
    )
    expect(failure).toBeUndefined()
    const created = outputs.get('job-id') as string
    expect(created).not.toBe(archived)
    expect(sim.agentJobs.get(`proj_123/${created}`)?.prompts[0]).toBe(
      `One more thing\n\n---\nContext: this follows up on the pull request https://github.com/acme/docs/pull/60, ` +
        `opened by docs agent job ${archived}, which no longer takes messages.`
    )
    expect(log.text()).toContain(
      `Agent job \`${archived}\` no longer takes messages ` +
        `(it is archived: job is archived and takes no more messages), so a new job got this instruction.`
    )
    expect(written(sim, 60).at(-1)?.body).toContain('no longer takes messages')
  })

  test('a message refused while the job is still active fails with the reason; no new job is made', async () => {
    const sim = await startSim()
    sim.github.thread(REPO, 12, { isPullRequest: true })
    sim.github.addComment(REPO, 12, recordBody({ projectId: 'proj_123', jobId: 'job_abc' }, '/docs-agent'), {
      login: 'github-actions[bot]',
      type: 'Bot'
    })
    sim.addFault({ route: 'agent-message', status: 409, body: { error: 'the job is busy with another message' } })
    // The seeded job has completed: here it is still at work.
    sim.addFault({ route: 'agent-get', patch: { status: 'active' } })
    const jobsBefore = sim.agentJobs.size
    const { failure, log } = await onEvent(
      sim,
      'issue_comment',
      issueCommentEvent('/docs-agent One more thing', { number: 12, pullRequest: true })
    )
    expect(failure).toContain('HTTP 409: the job is busy with another message')
    expect(sim.agentJobs.size).toBe(jobsBefore)
    expect(sim.count('agent-create')).toBe(0)
    expect(sim.count('agent-get')).toBe(1)
    expect(log.text()).not.toContain('no longer takes messages')
  })

  test('a pull request in another repository: recorded there when the token may, else a warning', async () => {
    // The warning says which token would.
    const sim = await startSim({ github: { writableRepos: [REPO] } })
    sim.agentJobs.get('proj_123/job_abc')!.job.prLink = 'https://github.com/acme/handbook/pull/5'
    const denied = await onEvent(
      sim,
      'workflow_dispatch',
      {},
      { operation: 'agent-status', 'job-id': 'job_abc', 'comment-command': '' }
    )
    expect(denied.failure).toBeUndefined()
    expect(denied.outputs.get('pr-number')).toBe('5')
    expect(denied.log.lines).toContainEqual(
      expect.stringMatching(
        new RegExp(
          /^warning: Could not record agent job job_abc on acme\/handbook#5: HTTP 403: /.source +
            /.*a token that may write to acme\/handbook's pull requests/.source
        )
      )
    )
    const open = await startSim()
    open.agentJobs.get('proj_123/job_abc')!.job.prLink = 'https://github.com/acme/handbook/pull/5'
    await onEvent(
      open,
      'workflow_dispatch',
      {},
      { operation: 'agent-status', 'job-id': 'job_abc', 'comment-command': '' }
    )
    expect(open.github.thread('acme/handbook', 5).comments.map((c) => c.body)).toEqual([
      expect.stringContaining('job=job_abc')
    ])
  })

  test('a pull request link with a bad escape (`acme%zz`): neither numbered nor recorded', async () => {
    // It is no pull request here; the step succeeds.
    const sim = await startSim()
    const link = 'https://github.com/acme%zz/docs/pull/42'
    sim.agentJobs.get('proj_123/job_abc')!.job.prLink = link
    const { failure, outputs } = await onEvent(
      sim,
      'workflow_dispatch',
      {},
      { operation: 'agent-status', 'job-id': 'job_abc', 'comment-command': '' }
    )
    expect(failure).toBeUndefined()
    expect(outputs.get('status')).toBe('completed')
    expect(outputs.get('pr-link')).toBe(link)
    expect(outputs.get('pr-number')).toBe('')
    expect(sim.count('github-comment')).toBe(0)
  })

  test('a pull request on another GitHub server is neither numbered nor recorded', async () => {
    const sim = await startSim()
    sim.agentJobs.get('proj_123/job_abc')!.job.prLink = 'https://gitlab.example.com/acme/docs/-/merge_requests/5'
    const { outputs } = await onEvent(
      sim,
      'workflow_dispatch',
      {},
      { operation: 'agent-status', 'job-id': 'job_abc', 'comment-command': '' }
    )
    expect(outputs.get('pr-link')).toBe('https://gitlab.example.com/acme/docs/-/merge_requests/5')
    expect(outputs.get('pr-number')).toBe('')
    expect(sim.count('github-comment')).toBe(0)
  })
})

describe('the GitHub port', () => {
  test('a comment listing that hangs ends with its signal, as no answer (not an HTTP 500), on every page', async () => {
    const sim = await startSim()
    const [owner, repo] = REPO.split('/') as [string, string]
    sim.github.thread(REPO, 12, { isPullRequest: true })
    for (let i = 0; i < 150; i++) sim.github.addComment(REPO, 12, `comment ${i}`)
    const api = createGitHubApi(GITHUB_TOKEN, sim.githubApiUrl)
    expect(await api.listIssueComments({ owner, repo }, 12, new AbortController().signal)).toHaveLength(150)
    // The first page hangs; then the first answers and the second hangs.
    for (const before of [[], [{ route: 'github-comments', delayMs: 0 } as const]]) {
      for (const fault of before) sim.addFault(fault)
      sim.addFault({ route: 'github-comments', hang: true })
      const started = Date.now()
      const error = await api.listIssueComments({ owner, repo }, 12, AbortSignal.timeout(300)).catch((e: unknown) => e)
      expect(error).toBeInstanceOf(GitHubApiError)
      expect((error as GitHubApiError).status).toBe(0)
      expect(Date.now() - started).toBeLessThan(5000)
      sim.clearFaults()
    }
  })
})

describe('the GitHub port, when no answer comes', () => {
  const home = { owner: 'acme', repo: 'docs' }
  const everyCall = (api: GitHubApi): Array<[string, () => Promise<unknown>]> => [
    ['tokenLogin', () => api.tokenLogin()],
    ['getPermission', () => api.getPermission(home, 'octocat')],
    ['listIssueComments', () => api.listIssueComments(home, 42)],
    ['listReviewComments', () => api.listReviewComments(home, 42)],
    ['reactToIssueComment', () => api.reactToIssueComment(home, 1, 'eyes')],
    ['reactToReviewComment', () => api.reactToReviewComment(home, 1, 'eyes')],
    ['createIssueComment', () => api.createIssueComment(home, 42, 'hi')],
    ['replyToReviewComment', () => api.replyToReviewComment(home, 42, 1, 'hi')],
    ['updateIssueComment', () => api.updateIssueComment(home, 1, 'hi')],
    ['updateReviewComment', () => api.updateReviewComment(home, 1, 'hi')]
  ]

  test("each call to a closed port fails as no answer (status 0) in the network's words, not an HTTP 500", async () => {
    const port = await unusedPort()
    const api = createGitHubApi(GITHUB_TOKEN, `http://127.0.0.1:${port}`)
    for (const [name, call] of everyCall(api)) {
      const error = await call().then(
        () => new Error(`${name} succeeded`),
        (e: unknown) => e
      )
      expect(error).toBeInstanceOf(GitHubApiError)
      expect({ name, status: (error as GitHubApiError).status, message: (error as Error).message }).toEqual({
        name,
        status: 0,
        message: `no answer from GitHub: connect ECONNREFUSED 127.0.0.1:${port}`
      })
      expect(describeGitHubError(error)).toBe(`no answer from GitHub: connect ECONNREFUSED 127.0.0.1:${port}`)
    }
  })

  test("a connection dropped before the answer is no answer; GitHub's own HTTP 500 stays one", async () => {
    const sim = await startSim()
    sim.github.thread(REPO, 42, { isPullRequest: true })
    const api = createGitHubApi(GITHUB_TOKEN, sim.githubApiUrl)
    sim.addFault({ route: 'github-comments', drop: true })
    const dropped = await api.listIssueComments(home, 42).catch((e: unknown) => e)
    expect(dropped).toBeInstanceOf(GitHubApiError)
    expect((dropped as GitHubApiError).status).toBe(0)
    expect((dropped as Error).message).toMatch(/^no answer from GitHub: \S/)
    sim.addFault({ route: 'github-comments', status: 500 })
    const refused = await api.listIssueComments(home, 42).catch((e: unknown) => e)
    expect(refused).toBeInstanceOf(GitHubApiError)
    expect((refused as GitHubApiError).status).toBe(500)
    expect(describeGitHubError(refused)).toMatch(/^HTTP 500: /)
    expect(await api.listIssueComments(home, 42)).toEqual([])
  })
})

describe('pure parts', () => {
  test('the reply marker reads back what it wrote, and nothing else', () => {
    const state = {
      run: '4242',
      comment: 7,
      asked: 'message' as const,
      outcome: 'pending' as const,
      at: 1_700_000_000_000,
      job: { projectId: 'proj 1', jobId: 'job-x' },
      seen: true
    }
    expect(readReplyMarker(`${formatReplyMarker(state)}⏳ working`)).toEqual(state)
    expect(readReplyMarker(`${formatReplyMarker({ run: '', comment: 7 })}x`)).toEqual({
      run: '',
      comment: 7,
      asked: undefined,
      outcome: undefined,
      at: undefined,
      job: undefined
    })
    // Quoted, not at the start, or with an id that is no plain path segment: no marker, or no job.
    expect(readReplyMarker(`> ${formatReplyMarker(state)}`)).toBeUndefined()
    expect(readReplyMarker('<!-- docs-admin-action:reply run=1 comment=7 project=p job=.. -->\n')?.job).toBeUndefined()
    expect(readReplyMarker('<!-- docs-admin-action:reply run=1 comment=x -->\n')).toBeUndefined()
  })

  test('matchCommand wants the command as a word of its own at the start', () => {
    expect(matchCommand('/docs-agent fix it', '/docs-agent')).toEqual({ matched: true, rest: 'fix it' })
    expect(matchCommand('  /docs-agent\r\nfix\nit ', '/docs-agent')).toEqual({ matched: true, rest: 'fix\nit' })
    expect(matchCommand('/docs-agent', '/docs-agent')).toEqual({ matched: true, rest: '' })
    expect(matchCommand('/docs-agents fix', '/docs-agent')).toEqual({ matched: false, rest: '' })
    expect(matchCommand('please /docs-agent fix', '/docs-agent')).toEqual({ matched: false, rest: '' })
  })

  test("pull request links are read on the runner's GitHub server only (GitHub Enterprise Server too)", () => {
    expect(parsePullRequestLink('https://github.com/acme/docs/pull/12', 'https://github.com')).toEqual({
      repository: { owner: 'acme', repo: 'docs' },
      number: 12
    })
    expect(parsePullRequestLink('https://github.com/acme/docs/pull/12/files#diff', 'https://github.com')).toMatchObject(
      { number: 12 }
    )
    expect(parsePullRequestLink('https://ghe.acme.io/docs/site/pull/3', 'https://ghe.acme.io/')).toMatchObject({
      repository: { owner: 'docs', repo: 'site' },
      number: 3
    })
    expect(parsePullRequestLink('https://github.com/acme/docs/issues/12', 'https://github.com')).toBeUndefined()
    expect(parsePullRequestLink('https://evil.example/acme/docs/pull/12', 'https://github.com')).toBeUndefined()
    // Escapes are read; one that is broken, or a name that is no single segment, names no repository.
    expect(parsePullRequestLink('https://github.com/acme/docs%2D1/pull/12', 'https://github.com')).toMatchObject({
      repository: { owner: 'acme', repo: 'docs-1' }
    })
    expect(parsePullRequestLink('https://github.com/acme%zz/docs/pull/12', 'https://github.com')).toBeUndefined()
    expect(parsePullRequestLink('https://github.com/acme/docs%E0%A4/pull/12', 'https://github.com')).toBeUndefined()
    expect(parsePullRequestLink('https://github.com/acme%2Fother/docs/pull/12', 'https://github.com')).toBeUndefined()
  })

  test("a new job's prompt without an issue is the instruction alone", () => {
    expect(promptWithContext('Do it', undefined)).toBe('Do it')
  })
})
