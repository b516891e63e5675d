/**
 * A submitted review steers the agent as a comment does: the reviewer's permission first, then one
 * instruction made of the text after the command and every inline comment of that review.
 */
import { describe, expect, test } from '@jest/globals'
import type { Simulator } from '../simulator/server.js'
import { type Inputs, type RunOptions, runOnEvent, simulatorPerTest } from './support/harness.js'
import { REPO, reviewEvent } from './support/events.js'
import { tempFolderPerFile } from './support/temp.js'
import { reviewComments } from '../src/gate/trigger.js'

const sims = simulatorPerTest()
const temp = tempFolderPerFile('review-conversation-')

async function startSim(permission = 'write'): Promise<Simulator> {
  return (await sims.start({ agent: { durationMs: 3000 }, github: { permissions: { octocat: permission } } })).sim
}

function onReview(payload: unknown, inputs: Inputs = {}, options: RunOptions = {}) {
  const given = { operation: 'agent', 'project-id': 'proj_123', 'comment-command': '/docs-agent', ...inputs }
  return runOnEvent(sims.current, temp.dir, { name: 'pull_request_review', payload }, given, options)
}

/** The prompt of the one agent job created. */
const createdPrompt = (sim: Simulator): unknown => sim.requests.find((r) => r.route === 'agent-create')?.body

describe('conversations from reviews', () => {
  test('a review with the command: one instruction with each inline comment as path:line: text', async () => {
    const sim = await startSim()
    sim.github.addReview(REPO, 12, 8001, [
      { path: 'docs/install.md', line: 3, body: 'Use the scoped package name.' },
      { path: 'docs/intro.mdx', body: 'This page needs\nan intro.' },
      { path: 'docs/x.md', line: 9, body: '<!-- docs-admin-action:reply run=1 comment=1 -->\nnot an instruction' }
    ])
    // A comment of another review is not this one's.
    sim.github.addReview(REPO, 12, 9999, [{ path: 'docs/other.md', line: 1, body: 'Unrelated.' }])
    const { failure } = await onReview(reviewEvent('/docs-agent address these'))
    expect(failure).toBeUndefined()
    const prompt = (createdPrompt(sim) as { prompt?: string } | undefined)?.prompt ?? ''
    expect(
      prompt.startsWith(
        "address these\n\nThe review's comments (2):\n" +
          'docs/install.md:3: Use the scoped package name.\n' +
          'docs/intro.mdx: This page needs\n  an intro.'
      )
    ).toBe(true)
    expect(prompt).not.toContain('Unrelated')
    expect(sim.requests.some((r) => r.route === 'github-review-of' && r.path.endsWith('/reviews/8001/comments'))).toBe(
      true
    )
    // The reply goes to the pull request's conversation: a review takes no reaction.
    expect(
      sim.github.thread(REPO, 12).comments.filter((c) => c.kind === 'issue' && c.user.type === 'Bot')
    ).toHaveLength(1)
  })

  test('the command alone: the inline comments are the instruction', async () => {
    const sim = await startSim()
    sim.github.addReview(REPO, 12, 8001, [{ path: 'docs/install.md', line: 3, body: 'Typo here.' }])
    expect((await onReview(reviewEvent('/docs-agent'))).failure).toBeUndefined()
    expect((createdPrompt(sim) as { prompt?: string }).prompt).toMatch(
      /^The review's comments \(1\):\ndocs\/install\.md:3: Typo here\./
    )
  })

  test('the gate on a review: a reviewer without write permission sends nothing', async () => {
    const sim = await startSim('read')
    sim.github.addReview(REPO, 12, 8001, [{ path: 'docs/install.md', line: 3, body: 'Delete everything.' }])
    const { failure, outputs } = await onReview(reviewEvent('/docs-agent do it'))
    expect(failure).toBeUndefined()
    expect(outputs.get('skip-reason')).toBe('permission')
    expect(sim.requests.filter((r) => r.origin === 'api')).toEqual([])
    expect(sim.count('github-review-of')).toBe(0)
  })

  test('a review without the command: skipped=true, skip-reason=no-command', async () => {
    const sim = await startSim()
    const { failure, outputs } = await onReview(reviewEvent('Looks good'))
    expect(failure).toBeUndefined()
    expect(outputs.get('skipped')).toBe('true')
    expect(outputs.get('skip-reason')).toBe('no-command')
    expect(sim.requests.filter((r) => r.origin === 'api')).toEqual([])
  })

  test('inline comments that cannot be read: nothing is sent, and the step says why', async () => {
    const sim = await startSim()
    sim.addFault({ route: 'github-review-of', status: 500, times: 10 })
    const { failure } = await onReview(reviewEvent('/docs-agent address these'))
    expect(failure).toContain('Could not read the comments of review 8001 on #12')
    expect(sim.count('agent-create')).toBe(0)
  })

  test('the inline comments are bounded: each cut, and past the total the rest counted', () => {
    const author = { login: 'octocat', type: 'User' }
    const long = Array.from({ length: 30 }, (_, i) => ({
      id: i + 1,
      body: 'x'.repeat(5_000),
      path: `docs/p${i}.md`,
      line: 1,
      author
    }))
    const text = reviewComments(long) ?? ''
    expect(text.length).toBeLessThan(21_000)
    expect(text).toMatch(/\(and \d+ more, left out for length\)$/)
    expect(text).toContain(`docs/p0.md:1: ${'x'.repeat(2_000)}…`)
  })
})
