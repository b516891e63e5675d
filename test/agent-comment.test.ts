import { afterAll, afterEach, beforeAll, describe, expect, test } from '@jest/globals'
import * as path from 'node:path'
import { redact, replyText } from '../src/agent/reply.js'
import { matchCommand } from '../src/agent/trigger.js'
import type { RecordedRequest, Simulator } from '../simulator/server.js'
import { type Inputs, type RunResult, type RunnerEnv, type SimulatorFixture, agentInputs, eventFile, simulatorFixture } from './support/harness.js'
import { tempFolder } from './support/temp.js'

// ---------------------------------------------------------------------------------------------
// comment events, with the payload in a file as the runner gives it

const GITHUB_TOKEN = 'ghs_testtoken0123456789'
let fixture: SimulatorFixture | undefined
let temp: { dir: string; remove: () => Promise<void> }
/** The runner's variables of the event of the current test. */
let env: RunnerEnv

beforeAll(async () => {
  temp = await tempFolder('agent-comment-')
})
afterAll(async () => {
  await temp.remove()
})
afterEach(async () => {
  await fixture?.sim.close()
  fixture = undefined
})

const repository = {
  id: 1296269,
  name: 'docs',
  full_name: 'acme/docs',
  private: false,
  owner: { login: 'acme', id: 1, type: 'Organization' },
  html_url: 'https://github.com/acme/docs'
}
const user = { login: 'octocat', id: 583231, type: 'User' }

function issueCommentEvent(body: string, extra: Record<string, unknown> = {}): unknown {
  return {
    action: 'created',
    issue: {
      number: 7,
      title: 'Install page has a typo',
      state: 'open',
      user,
      pull_request: { url: 'https://api.github.com/repos/acme/docs/pulls/7', html_url: 'https://github.com/acme/docs/pull/7' }
    },
    comment: {
      id: 123456,
      node_id: 'IC_kwDOA',
      html_url: 'https://github.com/acme/docs/pull/7#issuecomment-123456',
      body,
      user,
      author_association: 'MEMBER',
      created_at: '2025-01-01T10:00:00Z'
    },
    repository,
    sender: user,
    ...extra
  }
}

function reviewCommentEvent(body: string, comment: Record<string, unknown> = {}): unknown {
  return {
    action: 'created',
    comment: {
      id: 987,
      pull_request_review_id: 55,
      diff_hunk: '@@ -1,3 +1,3 @@',
      path: 'docs/install.md',
      line: 3,
      body,
      user,
      author_association: 'COLLABORATOR',
      html_url: 'https://github.com/acme/docs/pull/12#discussion_r987',
      ...comment
    },
    pull_request: { number: 12, title: 'Docs: install', state: 'open', user },
    repository,
    sender: user
  }
}

async function startSim(): Promise<Simulator> {
  fixture = await simulatorFixture({ agent: { durationMs: 3000 } })
  return fixture.sim
}

/** The event as the runner describes it: variables, and the payload in a file. */
async function onEvent(s: Simulator, name: string, payload: unknown): Promise<void> {
  env = {
    ...(await eventFile(path.join(temp.dir, 'event.json'), name, payload)),
    GITHUB_REPOSITORY: 'acme/docs',
    GITHUB_API_URL: s.githubApiUrl,
    GITHUB_SERVER_URL: 'https://github.com',
    GITHUB_RUN_ID: '4242'
  }
}

function commentInputs(s: Simulator, values: Inputs = {}): Inputs {
  return agentInputs(s, { operation: 'agent-message', 'job-id': 'job_abc', 'comment-command': '/docs-agent', 'github-token': GITHUB_TOKEN, ...values })
}

function runAction(inputs: Inputs): Promise<RunResult> {
  return (fixture as SimulatorFixture).run(inputs, { env })
}

function github(s: Simulator): RecordedRequest[] {
  return s.requests.filter((r) => r.origin === 'github')
}

describe('issue_comment', () => {
  test('the command gives the prompt; the comment gets a reaction and a reply with the PR link', async () => {
    const s = await startSim()
    await onEvent(s, 'issue_comment', issueCommentEvent('/docs-agent  Fix the typo on the install page\n'))
    const { failure, outputs, summary } = await runAction(commentInputs(s))
    expect(failure).toBeUndefined()
    expect(outputs.get('skipped')).toBe('false')
    expect(s.requests.find((r) => r.route === 'agent-message')?.body).toEqual({ prompt: 'Fix the typo on the install page' })

    const [reaction, reply, ...rest] = github(s)
    expect(rest).toHaveLength(0)
    expect(reaction).toMatchObject({ method: 'POST', path: '/github-api/repos/acme/docs/issues/comments/123456/reactions', body: { content: 'eyes' }, status: 201 })
    expect(reaction?.headers.authorization).toBe(`token ${GITHUB_TOKEN}`)
    expect(reply).toMatchObject({ method: 'POST', path: '/github-api/repos/acme/docs/issues/7/comments', status: 201 })
    // The reaction comes when the message is accepted, the reply when the job has ended.
    const messageAt = s.requests.findIndex((r) => r.route === 'agent-message')
    expect(s.requests.indexOf(reaction as RecordedRequest)).toBe(messageAt + 1)
    expect(s.requests.at(-1)).toBe(reply)
    const text = (reply?.body as { body: string }).body
    expect(text).toContain('`job_abc`')
    expect(text).toContain('**completed**')
    expect(text).toContain('https://github.com/acme/docs/pull/100')
    expect(text).toContain('https://github.com/acme/docs/actions/runs/4242')
    for (const secret of [GITHUB_TOKEN, s.apiKey]) expect(JSON.stringify(s.requests.map((r) => r.body))).not.toContain(secret)

    expect(summary).toContain('Author association')
    expect(summary).toContain('MEMBER')
    expect(summary).toContain('octocat')
    expect(summary).toContain('Fix the typo on the install page')
  })

  test('a comment without the command is skipped with no request at all', async () => {
    const s = await startSim()
    await onEvent(s, 'issue_comment', issueCommentEvent('Looks good to me! /docs-agent is neat'))
    const { failure, outputs, log } = await runAction(commentInputs(s))
    expect(failure).toBeUndefined()
    expect(outputs.get('skipped')).toBe('true')
    expect(outputs.has('job-id')).toBe(false)
    expect(s.requests).toHaveLength(0)
    expect(log.text()).toContain('does not start with `/docs-agent`')
  })

  test('an edited comment is skipped: the instruction is not sent twice', async () => {
    const s = await startSim()
    await onEvent(s, 'issue_comment', issueCommentEvent('/docs-agent Fix it', { action: 'edited' }))
    const { failure, outputs } = await runAction(commentInputs(s))
    expect(failure).toBeUndefined()
    expect(outputs.get('skipped')).toBe('true')
    expect(s.requests).toHaveLength(0)
  })

  test('a comment that is only the command is refused before any request', async () => {
    const s = await startSim()
    await onEvent(s, 'issue_comment', issueCommentEvent('/docs-agent   '))
    const { failure } = await runAction(commentInputs(s))
    expect(failure).toContain('`prompt`')
    expect(failure).toContain('/docs-agent')
    expect(s.requests).toHaveLength(0)
  })

  test('the `prompt` input wins over the comment text', async () => {
    const s = await startSim()
    await onEvent(s, 'issue_comment', issueCommentEvent('/docs-agent ignored text'))
    const { failure } = await runAction(commentInputs(s, { prompt: 'Rebuild the sidebar', 'comment-reply': 'false' }))
    expect(failure).toBeUndefined()
    expect(s.requests.find((r) => r.route === 'agent-message')?.body).toEqual({ prompt: 'Rebuild the sidebar' })
    expect(github(s)).toHaveLength(0)
  })

  test('a failing GitHub API only warns', async () => {
    const s = await startSim()
    await onEvent(s, 'issue_comment', issueCommentEvent('/docs-agent Fix the typo'))
    s.addFault({ route: 'github-reaction', status: 500 })
    s.addFault({ route: 'github-comment', status: 500 })
    const { failure, outputs, log } = await runAction(commentInputs(s))
    expect(failure).toBeUndefined()
    expect(outputs.get('status')).toBe('completed')
    expect(github(s).map((r) => r.status)).toEqual([500, 500])
    const warnings = log.lines.filter((l) => l.startsWith('warning:'))
    expect(warnings).toEqual([
      expect.stringContaining('Could not react to comment 123456: HTTP 500'),
      expect.stringContaining('Could not reply to comment 123456: HTTP 500')
    ])
  })

  test('a failed job: the reply carries the error and the step fails', async () => {
    const s = await startSim()
    await onEvent(s, 'issue_comment', issueCommentEvent('/docs-agent FAIL on purpose'))
    const { failure } = await runAction(commentInputs(s))
    expect(failure).toContain('Agent job job_abc failed')
    const reply = github(s).find((r) => r.route === 'github-comment')
    const text = (reply?.body as { body: string }).body
    expect(text).toContain('❌')
    expect(text).toContain('**failed**')
    expect(text).toContain('Agent job job_abc failed')
  })

  test('an unknown job: no reaction, and the reply carries the service error', async () => {
    const s = await startSim()
    await onEvent(s, 'issue_comment', issueCommentEvent('/docs-agent Fix it'))
    const { failure } = await runAction(commentInputs(s, { 'job-id': 'job_nope' }))
    expect(failure).toContain('job not found')
    expect(github(s).map((r) => r.route)).toEqual(['github-comment'])
    expect((github(s)[0]?.body as { body: string }).body).toContain('job not found')
  })
})

describe('pull_request_review_comment', () => {
  test('reacts on the review comment and replies in its thread', async () => {
    const s = await startSim()
    await onEvent(s, 'pull_request_review_comment', reviewCommentEvent('/docs-agent Reword this paragraph NOCHANGE'))
    const { failure, outputs, summary } = await runAction(commentInputs(s))
    expect(failure).toBeUndefined()
    expect(outputs.get('pr-link')).toBe('')
    const [reaction, reply] = github(s)
    expect(reaction).toMatchObject({ path: '/github-api/repos/acme/docs/pulls/comments/987/reactions', body: { content: 'eyes' }, status: 201 })
    expect(reply).toMatchObject({ path: '/github-api/repos/acme/docs/pulls/12/comments/987/replies', status: 201 })
    expect((reply?.body as { body: string }).body).toContain('no pull request was opened')
    expect(summary).toContain('COLLABORATOR')
  })

  test('a reply to a reply goes to the first comment of the thread', async () => {
    const s = await startSim()
    await onEvent(s, 'pull_request_review_comment', reviewCommentEvent('/docs-agent Fix it', { id: 990, in_reply_to_id: 987, author_association: 'NONE' }))
    const { failure, log } = await runAction(commentInputs(s, { operation: 'agent-status', wait: 'false' }))
    expect(failure).toBeUndefined()
    expect(github(s).map((r) => r.path)).toEqual([
      '/github-api/repos/acme/docs/pulls/comments/990/reactions',
      '/github-api/repos/acme/docs/pulls/12/comments/987/replies'
    ])
    expect(log.lines.filter((l) => l.startsWith('warning:'))).toEqual([expect.stringContaining('author association is NONE')])
    expect((github(s)[1]?.body as { body: string }).body).toContain('`job_abc` is **completed**. Pull request: https://github.com/acme/docs/pull/42')
  })
})

describe('pure parts', () => {
  test('matchCommand wants the command as a word of its own at the start', () => {
    expect(matchCommand('/docs-agent fix it', '/docs-agent')).toEqual({ matched: true, rest: 'fix it' })
    expect(matchCommand('  /docs-agent\r\nfix\nit ', '/docs-agent')).toEqual({ matched: true, rest: 'fix\nit' })
    expect(matchCommand('/docs-agent', '/docs-agent')).toEqual({ matched: true, rest: '' })
    expect(matchCommand('/docs-agents fix', '/docs-agent')).toEqual({ matched: false, rest: '' })
    expect(matchCommand('please /docs-agent fix', '/docs-agent')).toEqual({ matched: false, rest: '' })
  })

  test('the reply never carries a secret', () => {
    const text = replyText(
      { operation: 'agent-message', jobId: 'job_1', status: 'failed', prLink: undefined, waited: true, error: 'boom dsk_secret_key and ghs_token_123', runUrl: undefined },
      ['dsk_secret_key', 'ghs_token_123', undefined]
    )
    expect(text).toContain('boom *** and ***')
    expect(redact('abc', ['', 'ab'])).toBe('abc')
  })

  test("the service's text in the reply pings nobody", () => {
    const text = replyText(
      { operation: 'agent-message', jobId: 'job_1', status: 'failed', prLink: undefined, waited: true, error: 'ask @octocat or @acme/admins', runUrl: undefined },
      []
    )
    expect(text).not.toMatch(/@(octocat|acme)/)
    expect(text.replace(/\u200d/g, '')).toContain('ask @octocat or @acme/admins')
  })
})
