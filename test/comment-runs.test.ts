/**
 * Every operation on every comment event: the gate judges the author of each comment or review,
 * whatever the operation, and a rerun of the workflow run never sends a once-only request again
 * (a deployment's trigger, an export's start), as the agent's never did.
 */
import { describe, expect, test } from '@jest/globals'
import * as path from 'node:path'
import type { RecordedRequest, Simulator, SimulatorOptions } from '../simulator/server.js'
import { type Inputs, type RunOptions, type RunResult, runOnEvent, simulatorPerTest } from './support/harness.js'
import {
  REPO,
  commitCommentEvent,
  discussionCommentEvent,
  issueCommentEvent,
  reviewCommentEvent,
  reviewEvent
} from './support/events.js'
import { tempFolderPerFile } from './support/temp.js'
import { readReplyMarker } from '../src/reply/rerun-state.js'

const sims = simulatorPerTest()
const temp = tempFolderPerFile('comment-runs-')

/** A simulator where octocat may write; deployments and exports take a few seconds. */
async function startSim(options: SimulatorOptions = {}): Promise<Simulator> {
  const fixture = await sims.start({
    deployment: { durationMs: 3000, queuedMs: 500 },
    ...options,
    github: { permissions: { octocat: 'write' }, ...options.github }
  })
  return fixture.sim
}

/** Inputs of each operation that sends something once-only, or only reads. */
const OPERATIONS: Record<'deploy' | 'export' | 'agent-status' | 'automation', Inputs> = {
  deploy: { operation: 'deploy', 'project-id': 'proj_123' },
  automation: { operation: 'automation', 'project-id': 'proj_123', 'automation-id': 'wf_changelog' },
  export: { operation: 'export', domain: 'docs.acme.com', download: 'false' },
  'agent-status': { operation: 'agent-status', 'project-id': 'proj_123', 'job-id': 'job_abc' }
}

function onEvent(name: string, payload: unknown, inputs: Inputs, options: RunOptions = {}): Promise<RunResult> {
  const env = { GITHUB_JOB: 'docs', GITHUB_ACTION: 'admin', ...options.env }
  return runOnEvent(
    sims.current,
    temp.dir,
    { name, payload },
    { path: path.join(temp.dir, 'site'), ...inputs },
    {
      ...options,
      env
    }
  )
}

const RERUN: RunOptions = { env: { GITHUB_RUN_ATTEMPT: '2' } }
const serviceRequests = (sim: Simulator): RecordedRequest[] => sim.requests.filter((r) => r.origin === 'api')
/** What the action wrote in the conversation of `number`. */
const written = (sim: Simulator, number: number) =>
  sim.github.thread(REPO, number).comments.filter((c) => c.user.type === 'Bot')

describe('the gate on every event that carries a comment or a review', () => {
  const events: Array<[string, Record<string, unknown>]> = [
    ['discussion_comment', discussionCommentEvent('Looks good to me')],
    ['commit_comment', commitCommentEvent('Nice commit')],
    ['pull_request_review', reviewEvent('Approved, thanks', { state: 'approved' })]
  ]
  for (const [name, payload] of events) {
    for (const operation of Object.keys(OPERATIONS) as Array<keyof typeof OPERATIONS>) {
      test(`${name}, ${operation}: an author without permission sends nothing, after a notice`, async () => {
        const sim = await startSim({ github: { permissions: { octocat: 'none' } } })
        const { failure, outputs, log } = await onEvent(name, payload, OPERATIONS[operation])
        expect(failure).toBeUndefined()
        expect(outputs.get('skipped')).toBe('true')
        expect(outputs.get('skip-reason')).toBe('permission')
        expect(serviceRequests(sim)).toEqual([])
        expect(sim.count('github-permission')).toBe(1)
        expect(log.lines.some((line) => line.startsWith('notice: octocat has the permission `none`'))).toBe(true)
      })
    }
  }

  test('a review without the command is skipped (no-command); one with it goes on to the permission', async () => {
    const sim = await startSim()
    const silent = await onEvent('pull_request_review', reviewEvent(null), {
      ...OPERATIONS.deploy,
      'comment-command': '/docs-deploy'
    })
    expect(silent.outputs.get('skip-reason')).toBe('no-command')
    expect(sim.github.thread(REPO, 12).comments).toEqual([])
    const asked = await onEvent('pull_request_review', reviewEvent('/docs-deploy now'), {
      ...OPERATIONS.deploy,
      'comment-command': '/docs-deploy'
    })
    expect(asked.failure).toBeUndefined()
    expect(sim.count('deploy-trigger')).toBe(1)
    // A review takes no reaction: its reply goes to the pull request's conversation.
    expect(sim.count('github-reaction')).toBe(0)
    expect(written(sim, 12)).toHaveLength(1)
  })

  test('an edited review, like an edited comment, runs nothing', async () => {
    const sim = await startSim()
    const { outputs } = await onEvent(
      'pull_request_review',
      { ...reviewEvent('/docs-deploy'), action: 'edited' },
      {
        ...OPERATIONS.deploy,
        'comment-command': '/docs-deploy'
      }
    )
    expect(outputs.get('skip-reason')).toBe('not-created')
    expect(serviceRequests(sim)).toEqual([])
  })

  test('an event the gate does not know fails closed while comment-command is set', async () => {
    const sim = await startSim()
    const { failure, failureKind } = await onEvent(
      'sponsorship',
      { action: 'created' },
      {
        ...OPERATIONS.deploy,
        'comment-command': '/docs-deploy'
      }
    )
    expect(failure).toContain('`sponsorship`')
    expect(failure).toContain('`comment-command`')
    expect(failureKind).toBe('input')
    expect(sim.requests).toEqual([])
    // Without comment-command, an event the gate does not know carries no comment to judge: it runs.
    const plain = await onEvent('sponsorship', { action: 'created' }, OPERATIONS.deploy)
    expect(plain.failure).toBeUndefined()
    expect(sim.count('deploy-trigger')).toBe(1)
  })

  test("an unknown event whose payload carries a comment is judged by that comment's author", async () => {
    const sim = await startSim({ github: { permissions: { octocat: 'read' } } })
    const { outputs } = await onEvent('team_discussion_comment', discussionCommentEvent('hi'), OPERATIONS.deploy)
    expect(outputs.get('skip-reason')).toBe('permission')
    expect(serviceRequests(sim)).toEqual([])
  })
})

describe('a rerun of a comment run never sends a once-only request again', () => {
  const onceOnly: Array<
    ['deploy' | 'export' | 'automation', 'deploy-trigger' | 'export-start' | 'automation-trigger']
  > = [
    ['deploy', 'deploy-trigger'],
    ['export', 'export-start'],
    ['automation', 'automation-trigger']
  ]
  for (const [operation, route] of onceOnly) {
    test(`${operation}: a 500 after the request was processed, then a rerun: sent once, refused`, async () => {
      const sim = await startSim()
      const event = issueCommentEvent('/docs-admin go')
      sim.addFault({ route, status: 500, process: true })
      const first = await onEvent('issue_comment', event, OPERATIONS[operation])
      expect(first.failure).toContain('may have processed the request')
      const [reply] = written(sim, 7)
      expect(readReplyMarker(reply?.body ?? '')).toMatchObject({ asked: operation === 'export' ? 'start' : 'trigger' })
      expect(reply?.body).toContain('❌')
      const rerun = await onEvent('issue_comment', event, OPERATIONS[operation], RERUN)
      expect(rerun.failure).toContain('this rerun does not ask again')
      expect(sim.count(route)).toBe(1)
      // Still the one reply, now saying why nothing was sent.
      expect(written(sim, 7)).toHaveLength(1)
      expect(written(sim, 7)[0]?.body).toContain('this rerun does not ask again')
    })
  }

  test('deploy: a rerun follows the deployment its first attempt triggered, in the same reply', async () => {
    const sim = await startSim({ deployment: { durationMs: 60_000, queuedMs: 500 } })
    const event = issueCommentEvent('/docs-admin go')
    const first = await onEvent('issue_comment', event, { ...OPERATIONS.deploy, timeout: '20s' })
    expect(first.failure).toContain('did not finish within `timeout`')
    const statusId = first.outputs.get('job-id')
    const rerun = await onEvent('issue_comment', event, { ...OPERATIONS.deploy, timeout: '20m' }, RERUN)
    expect(rerun.failure).toBeUndefined()
    expect(rerun.outputs.get('job-id')).toBe(statusId)
    expect(rerun.outputs.get('status')).toBe('success')
    expect(sim.count('deploy-trigger')).toBe(1)
    const replies = written(sim, 7)
    expect(replies).toHaveLength(1)
    expect(replies[0]?.body).toContain('✅ Deployment `' + statusId + '`')
    // GitHub keeps one reaction of a kind per user: a rerun's 👀 is the same one.
    expect(new Set(sim.github.reactions.map((r) => `${r.commentId} ${r.content}`))).toEqual(new Set(['123456 eyes']))
  })

  test('automation: a rerun takes the job its first attempt queued from the reply, and says so', async () => {
    const sim = await startSim()
    const event = issueCommentEvent('/docs-admin go')
    const first = await onEvent('issue_comment', event, OPERATIONS.automation)
    expect(first.failure).toBeUndefined()
    const [queued] = sim.automationRuns
    expect(first.outputs.get('automation-run-id')).toBe(queued?.instanceId)
    const replied = written(sim, 7)[0]?.body ?? ''
    expect(replied).toContain(`✅ Automation job \`${queued?.jobId}\` is **queued**.`)
    expect(replied).toContain(
      "- A run of automation wf\\_changelog: watch it in the dashboard's automation runs (the service offers no read"
    )
    expect(readReplyMarker(replied)).toMatchObject({
      asked: 'trigger',
      outcome: 'answered',
      job: { jobId: queued?.jobId }
    })

    const rerun = await onEvent('issue_comment', event, OPERATIONS.automation, RERUN)
    expect(rerun.failure).toBeUndefined()
    expect(sim.count('automation-trigger')).toBe(1)
    expect(Object.fromEntries(rerun.outputs)).toEqual({
      skipped: 'false',
      'skip-reason': '',
      'job-id': queued?.jobId,
      status: 'queued',
      'comment-url': first.outputs.get('comment-url')
    })
    expect(rerun.log.text()).toContain(
      'An earlier attempt of this workflow run asked the service to trigger automation wf_changelog of project ' +
        `proj_123, and it answered with ${queued?.jobId}`
    )
    expect(rerun.log.text()).toContain(
      `is queued: the run an earlier attempt of this workflow run queued (job ${queued?.jobId}; \`automation-run-id\``
    )
    const replies = written(sim, 7)
    expect(replies).toHaveLength(1)
    expect(replies[0]?.body).toContain(`✅ Automation job \`${queued?.jobId}\` is **queued**.`)
  })

  test('comment-reply: false: a rerun asks only for a read, and refuses a once-only request', async () => {
    const sim = await startSim()
    const event = issueCommentEvent('/docs-admin go')
    const quiet = { 'comment-reply': 'false' }
    const refused = await onEvent('issue_comment', event, { ...OPERATIONS.deploy, ...quiet }, RERUN)
    expect(refused.failure).toContain('`comment-reply` is `false`')
    expect(refused.failure).toContain('trigger a deployment of project proj_123')
    expect(sim.count('deploy-trigger')).toBe(0)
    const agent = await onEvent('issue_comment', event, { ...OPERATIONS['agent-status'], ...quiet }, RERUN)
    expect(agent.failure).toBeUndefined()
    expect(sim.count('agent-get')).toBeGreaterThan(0)
    expect(written(sim, 7)).toEqual([])
  })

  test('a discussion comment gets no reply, so its rerun refuses to trigger again', async () => {
    const sim = await startSim()
    const event = discussionCommentEvent('/docs-admin go')
    const first = await onEvent('discussion_comment', event, OPERATIONS.deploy)
    expect(first.failure).toBeUndefined()
    const rerun = await onEvent('discussion_comment', event, OPERATIONS.deploy, RERUN)
    expect(rerun.failure).toContain('keeps no reply to a `discussion_comment` comment')
    expect(sim.count('deploy-trigger')).toBe(1)
  })

  test('two steps answering one comment keep a reply each; a rerun of each finds its own', async () => {
    const sim = await startSim()
    const event = reviewCommentEvent('/docs-admin go')
    const steps = [
      { inputs: OPERATIONS.deploy, env: { GITHUB_ACTION: 'deploy' } },
      { inputs: OPERATIONS.export, env: { GITHUB_ACTION: 'export' } }
    ]
    for (const step of steps) {
      const result = await onEvent('pull_request_review_comment', event, step.inputs, { env: step.env })
      expect(result.failure).toBeUndefined()
    }
    for (const step of steps) {
      const result = await onEvent('pull_request_review_comment', event, step.inputs, {
        env: { ...step.env, GITHUB_RUN_ATTEMPT: '2' }
      })
      expect(result.failure).toBeUndefined()
    }
    expect(sim.count('deploy-trigger')).toBe(1)
    expect(sim.count('export-start')).toBe(1)
    const replies = sim.github.thread(REPO, 12).comments.filter((c) => c.kind === 'review' && c.user.type === 'Bot')
    expect(replies.map((reply) => readReplyMarker(reply.body)?.step)).toEqual(['docs.deploy', 'docs.export'])
  })
})
