/**
 * `operation: preview` against the simulator: the trigger sent once with the branch, followed like
 * a deployment, one comment on the pull request edited across runs, a GitHub deployment when
 * asked, and the fork's pull request skipped before anything is sent.
 */
import { describe, expect, test } from '@jest/globals'
import type { Simulator, SimulatorOptions } from '../simulator/server.js'
import { type Inputs, type RunOptions, type RunResult, runOnEvent, simulatorPerTest } from './support/harness.js'
import { REPO, issueCommentEvent, pullRequestEvent } from './support/events.js'
import { tempFolderPerFile } from './support/temp.js'

const sims = simulatorPerTest()
const temp = tempFolderPerFile('preview-flow-')

async function startSim(options: SimulatorOptions = {}): Promise<Simulator> {
  const fixture = await sims.start({
    deployment: { durationMs: 3000, queuedMs: 500 },
    ...options,
    github: { permissions: { octocat: 'write' }, ...options.github }
  })
  return fixture.sim
}

function onEvent(name: string, payload: unknown, inputs: Inputs = {}, options: RunOptions = {}): Promise<RunResult> {
  const env = { GITHUB_SHA: 'ba5eba11ba5eba11ba5eba11ba5eba11ba5eba11', ...options.env }
  const given = { operation: 'preview', 'project-id': 'proj_123', ...inputs }
  return runOnEvent(sims.current, temp.dir, { name, payload }, given, { ...options, env })
}

/** The comments on pull request 12 that the action's token wrote. */
const ours = (sim: Simulator) => sim.github.thread(REPO, 12).comments.filter((c) => c.user.type === 'Bot')

describe('a preview of a pull request', () => {
  test("triggers once with the head branch, follows it, links it in one comment of the action's", async () => {
    const sim = await startSim()
    const { failure, outputs, log } = await onEvent('pull_request', pullRequestEvent())
    expect(failure).toBeUndefined()
    const triggers = sim.requests.filter((r) => r.route === 'preview-trigger')
    expect(triggers).toHaveLength(1)
    expect(triggers[0]).toMatchObject({ method: 'POST', path: '/v1/project/preview/proj_123' })
    expect(triggers[0]?.body).toEqual({ branch: 'docs-install' })
    expect(outputs.get('preview-url')).toBe('https://proj_123-docs-install.mintlify.app')
    expect(outputs.get('status')).toBe('success')
    expect(sim.deployments.has(outputs.get('job-id') ?? '')).toBe(true)
    // The status is read as a deployment's is.
    expect(sim.count('deploy-status')).toBeGreaterThan(0)
    const [comment, ...more] = ours(sim)
    expect(more).toEqual([])
    expect(comment?.body.startsWith('<!-- docs-admin-action:preview project=proj_123 -->\n')).toBe(true)
    expect(comment?.body).toContain('✅ **Ready**: branch `docs-install`')
    expect(comment?.body).toContain('Preview: <https://proj_123-docs-install.mintlify.app>')
    // The preview's commit as the service reports it, in short.
    expect(comment?.body).toContain('at `5d41402`')
    expect(outputs.get('comment-url')).toContain(`#issuecomment-${comment?.id}`)
    expect(log.lines.some((line) => line.startsWith('warning: Preview') && line.includes('another commit'))).toBe(true)
  })

  test('a later run (a push to the pull request) edits the same comment, never posts a new one', async () => {
    const sim = await startSim()
    await onEvent('pull_request', pullRequestEvent())
    const [first] = ours(sim)
    const again = await onEvent('pull_request', pullRequestEvent({ sha: 'feedfacefeedfacefeedfacefeedfacefeedface' }))
    expect(again.failure).toBeUndefined()
    const comments = ours(sim)
    expect(comments).toHaveLength(1)
    expect(comments[0]?.id).toBe(first?.id)
    expect(comments[0]?.history.length).toBeGreaterThan(2)
    expect(sim.count('preview-trigger')).toBe(2)
  })

  test("a copy of the marker in someone else's comment is ignored: that comment is never edited", async () => {
    const sim = await startSim()
    const forged = sim.github.addComment(
      REPO,
      12,
      '<!-- docs-admin-action:preview project=proj_123 -->\n### Docs preview\n\nsee <https://evil.example>'
    )
    const { failure } = await onEvent('pull_request', pullRequestEvent())
    expect(failure).toBeUndefined()
    expect(forged.history).toHaveLength(1)
    expect(ours(sim)).toHaveLength(1)
    expect(ours(sim)[0]?.body).toContain('✅ **Ready**')
  })

  test('a fork: skipped with a notice, nothing sent, exit 0, even without an api-key', async () => {
    const sim = await startSim()
    const { failure, outputs, log } = await onEvent('pull_request', pullRequestEvent({ fork: 'mallory/docs' }), {
      'api-key': ''
    })
    expect(failure).toBeUndefined()
    expect(outputs.get('skipped')).toBe('true')
    expect(outputs.get('skip-reason')).toBe('fork')
    expect(sim.requests).toEqual([])
    expect(log.lines.some((line) => line.startsWith('notice: The pull request comes from mallory/docs, a fork'))).toBe(
      true
    )
  })

  test('a failed preview fails the step with its summary; the comment shows the end of its log', async () => {
    const sim = await startSim({
      deployment: {
        durationMs: 2000,
        queuedMs: 200,
        failWith: 'Broken link in guides/install.mdx',
        logs: ['Building pages', 'ping @octocat ::warning::x']
      }
    })
    const { failure, outputs } = await onEvent('pull_request', pullRequestEvent())
    const statusId = outputs.get('job-id') ?? ''
    expect(failure).toContain(`Preview ${statusId} failed: Broken link in guides/install.mdx`)
    expect(outputs.get('status')).toBe('failure')
    const body = ours(sim)[0]?.body ?? ''
    expect(body).toContain('❌ **Failed**')
    expect(body).toContain('Broken link in guides/install.mdx')
    expect(body).toContain('<details><summary>The last 4 lines of its log</summary>')
    // Log lines sit in a code block: no mention, no link; the workflow command mark is broken too.
    expect(body).toMatch(/```\n[^]*ping @octocat \u200b?::warning::x[^]*\n```/)
  })

  test("403: the step says previews are not on the organization's plan", async () => {
    const sim = await startSim({ preview: { enabled: false } })
    const { failure, failureKind } = await onEvent('pull_request', pullRequestEvent())
    expect(failure).toContain("not available on the organization's plan")
    expect(failureKind).toBe('refused')
    expect(sim.count('preview-trigger')).toBe(1)
  })

  test('429 (5 a minute): retried after Retry-After; a 5xx after processing is never sent again', async () => {
    const sim = await startSim({ preview: { perMinute: 1 } })
    expect((await onEvent('pull_request', pullRequestEvent())).failure).toBeUndefined()
    const limited = await onEvent('pull_request', pullRequestEvent())
    expect(limited.failure).toBeUndefined()
    const triggers = sim.requests.filter((r) => r.route === 'preview-trigger')
    expect(triggers.map((r) => r.status)).toEqual([202, 429, 202])
    const [, refused, accepted] = triggers
    expect((accepted?.at ?? 0) - (refused?.at ?? 0)).toBeGreaterThanOrEqual(1000)
    // Processed, then answered 500: the step says it may have been, and does not send it again.
    sim.addFault({ route: 'preview-trigger', status: 500, process: true })
    const lost = await onEvent('pull_request', pullRequestEvent(), {}, { env: { GITHUB_RUN_ID: '4343' } })
    expect(lost.failure).toContain('may have processed the request')
    expect(lost.failure).toContain('`operation: preview` and `job-id: <its status id>`')
    expect(sim.requests.filter((r) => r.route === 'preview-trigger')).toHaveLength(4)
  })

  test('github-environment: a transient deployment of the head commit, in progress then success', async () => {
    const sim = await startSim()
    const { failure, outputs } = await onEvent('pull_request', pullRequestEvent(), {
      'github-environment': 'docs-preview'
    })
    expect(failure).toBeUndefined()
    const [deployment, ...more] = sim.github.deployments
    expect(more).toEqual([])
    expect(deployment?.request).toMatchObject({
      ref: 'c0ffee0c0ffee0c0ffee0c0ffee0c0ffee0c0ffe',
      environment: 'docs-preview',
      transient_environment: true,
      auto_merge: false,
      required_contexts: []
    })
    const url = outputs.get('preview-url')
    const logUrl = `https://github.com/${REPO}/actions/runs/4242`
    expect(deployment?.statuses).toEqual([
      expect.objectContaining({ state: 'in_progress', environment_url: url, log_url: logUrl }),
      expect.objectContaining({ state: 'success', environment_url: url, log_url: logUrl })
    ])
  })

  test('github-environment without deployments: write: a warning naming it, the preview still made', async () => {
    await startSim({ github: { deploymentsWritable: false } })
    const { failure, log } = await onEvent('pull_request', pullRequestEvent(), {
      'github-environment': 'docs-preview'
    })
    expect(failure).toBeUndefined()
    expect(log.text()).toContain('`permissions: deployments: write`')
  })

  test('no branch on an event that gives none: fails before any request, naming `branch`', async () => {
    const sim = await startSim()
    const { failure, failureKind } = await onEvent('workflow_dispatch', {})
    expect(failure).toContain('`branch` is required for `preview`')
    expect(failureKind).toBe('input')
    expect(sim.requests).toEqual([])
    const pushed = await onEvent('push', {}, {}, { env: { GITHUB_REF_NAME: 'docs-next', GITHUB_REF_TYPE: 'branch' } })
    expect(pushed.failure).toBeUndefined()
    expect(sim.requests.find((r) => r.route === 'preview-trigger')?.body).toEqual({ branch: 'docs-next' })
    // No pull request: no comment.
    expect(ours(sim)).toEqual([])
  })

  test('from a comment: a rerun after a 5xx does not trigger the preview again', async () => {
    const sim = await startSim()
    const event = issueCommentEvent('/docs-preview', { number: 12, pullRequest: true })
    sim.addFault({ route: 'preview-trigger', status: 502, process: true })
    const inputs = { branch: 'docs-install', 'comment-command': '/docs-preview' }
    expect((await onEvent('issue_comment', event, inputs)).failure).toContain('may have processed')
    const rerun = await onEvent('issue_comment', event, inputs, { env: { GITHUB_RUN_ATTEMPT: '2' } })
    expect(rerun.failure).toContain('this rerun does not ask again')
    expect(sim.count('preview-trigger')).toBe(1)
  })
})
