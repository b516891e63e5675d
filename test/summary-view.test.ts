/**
 * The job summary as a reader sees it on the run's page (rendered as GitHub shows it, see
 * support/github-summary.ts), for runs against the simulator: an export with broken links, a
 * deployment, and a conversation on a pull request.
 */
import * as path from 'node:path'
import { afterEach, beforeEach, describe, expect, test } from '@jest/globals'
import { fixtureSiteEntries } from '../simulator/archives.js'
import { DEFAULT_DEPLOYED_COMMIT } from '../simulator/deploy.js'
import type { SimulatorOptions } from '../simulator/server.js'
import { REPO, issueCommentEvent } from './support/events.js'
import { type SummaryView, readSummary, viewSummary } from './support/github-summary.js'
import {
  type Inputs,
  type RunResult,
  type RunnerEnv,
  type SimulatorFixture,
  agentInputs,
  eventFile,
  exportInputs,
  simulatorPerTest
} from './support/harness.js'
import { tempFolder } from './support/temp.js'

const sims = simulatorPerTest()
let workspace: { dir: string; remove: () => Promise<void> }

beforeEach(async () => {
  workspace = await tempFolder()
})
afterEach(async () => {
  await workspace.remove()
})

async function start(options: SimulatorOptions = {}): Promise<SimulatorFixture> {
  return sims.start(options)
}

/** Runs the action with `inputs` in the workspace; `env` adds to the runner's variables. */
function run(inputs: Inputs, env: RunnerEnv = {}, toolCacheDir?: string): Promise<RunResult> {
  const runnerEnv = { GITHUB_WORKSPACE: workspace.dir, RUNNER_TEMP: path.join(workspace.dir, 'runner-temp'), ...env }
  return sims.current.run(
    { 'poll-interval': '1s', 'max-poll-interval': '2s', ...inputs },
    {
      env: runnerEnv,
      toolCacheDir
    }
  )
}

/** The summary as shown, having checked that GitHub reads all of it as HTML (no part of it as Markdown). */
function seen(result: RunResult): SummaryView {
  expect(readSummary(result.summary).markdownBlocks).toEqual([])
  return viewSummary(result.summary)
}

/** A count of one with a plural noun, anywhere in what is shown: "1 pages", "1 links lead". */
const ONE_WITH_PLURAL = /\b1 (?:[a-z]+ )?(?:pages|links|places|lines|files|attempts)\b/

/** A moment as the summary says it: in UTC, then from when the summary was written. */
const MOMENT = /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC \((?:now|in \d+ (?:s|min)|\d+ (?:s|min) ago)\)$/

describe('the job summary as a reader sees it', () => {
  test('an export: titled by its domain, the first 20 broken links by page and line, cache-hit, expiry', async () => {
    // One page with 23 distinct links to no file, the first of them three times; the fixture's index has one more.
    const missing = Array.from({ length: 23 }, (_, i) => `<a href="/gone/page-${i + 1}">${i + 1}</a>`)
    const page = `<!doctype html>\n<p>${missing[0]}</p>\n<p>${missing.join('\n')}</p>\n<p>${missing[0]}</p>\n`
    const entries = [...fixtureSiteEntries(), { type: 'file' as const, name: 'guides/links.html', content: page }]
    await start({ exportJob: { durationMs: 3000, queuedMs: 500 }, bundle: { entries, format: 'tar.gz' } })
    const toolCache = path.join(workspace.dir, 'tool-cache')
    const first = await run(exportInputs(sims.current.sim, {}), {}, toolCache)
    expect(first.failure).toBeUndefined()

    const view = seen(first)
    expect(view.heading).toBe('Static export of docs.acme.com')
    expect(view.rows.get('Status')).toBe('completed')
    expect(view.rows.get('Broken links')).toBe('26')
    expect(view.rows.get('Cache hit')).toBe('no: downloaded')
    // In UTC and from when the summary was written (how far: summary.test.ts, on a clock that stands still).
    expect(view.rows.get('Link expires')).toMatch(MOMENT)
    expect(view.rows.get('Link expires')?.slice(0, 19)).toBe(
      first.outputs.get('expires-at')?.slice(0, 19).replace('T', ' ')
    )
    const [broken, ...otherFolds] = view.folds
    expect(otherFolds).toEqual([])
    expect(broken?.title).toBe('26 internal links lead to no file of the site: page and line → link')
    expect(broken?.open).toBe(true)
    // In page order, each where it first appears (page-k on line k + 2); the index's, later, is among the rest.
    expect(broken?.lines).toEqual([
      'guides/links.html line 2 → /gone/page-1 (and 2 more places)',
      ...Array.from({ length: 19 }, (_, i) => `guides/links.html line ${i + 4} → /gone/page-${i + 2}`),
      '… and 4 more places (the first 20 links shown)'
    ])
    expect(view.paragraphs).toEqual([])

    // The same job again, its bundle in the runner's tool cache.
    const again = await run(
      exportInputs(sims.current.sim, { domain: '', 'job-id': first.outputs.get('job-id') as string }),
      {},
      toolCache
    )
    const cached = seen(again)
    expect(cached.heading).toBe(`Static export job ${first.outputs.get('job-id')}`)
    expect(cached.rows.get('Cache hit')).toBe("yes: from the runner's tool cache")
    for (const summary of [first.summary, again.summary]) expect(summary).not.toMatch(ONE_WITH_PLURAL)
  })

  test('an export with one broken link says so in the singular', async () => {
    await start({ exportJob: { durationMs: 3000, queuedMs: 500 } })
    const result = await run(exportInputs(sims.current.sim, { verify: 'strict' }))
    const view = seen(result)
    expect(view.folds.map((fold) => fold.title)).toEqual([
      '1 internal link leads to no file of the site: page and line → link'
    ])
    expect(view.folds[0]?.lines).toEqual([expect.stringMatching(/^index\.html line \d+ → \/guides\/removed-page$/)])
    expect(view.paragraphs).toEqual([
      `❌ Export job ${result.outputs.get('job-id')}: The site check failed (verify: strict): ` +
        '1 internal link leads to no file of the site. The previous site was left as it was.'
    ])
    expect(result.summary).not.toMatch(ONE_WITH_PLURAL)
  })

  test('a deployment: titled by its project, what was deployed, and a failed one with its one log line', async () => {
    await start({ deployment: { durationMs: 3000, queuedMs: 500, byProject: { broken: { failWith: 'MDX error' } } } })
    const deployed = await run(
      {
        operation: 'deploy',
        'api-key': sims.current.sim.apiKey,
        'base-url': sims.current.sim.apiUrl,
        'project-id': 'proj_docs'
      },
      { GITHUB_SHA: DEFAULT_DEPLOYED_COMMIT.sha }
    )
    expect(deployed.failure).toBeUndefined()
    const view = seen(deployed)
    expect(view.heading).toBe('Deployment of proj_docs')
    expect(Object.fromEntries(view.rows)).toEqual({
      Job: deployed.outputs.get('job-id'),
      Status: 'success',
      'Deployed commit': DEFAULT_DEPLOYED_COMMIT.sha,
      Project: 'proj_docs',
      Ref: DEFAULT_DEPLOYED_COMMIT.ref,
      'Commit message': DEFAULT_DEPLOYED_COMMIT.message,
      'Files changed': '1 added, 2 modified, 1 removed',
      Duration: '3s',
      "Service's summary": 'Deployed'
    })
    expect(view.folds.map((fold) => fold.title)).toEqual(['Added (1)', 'Modified (2)', 'Removed (1)'])

    sims.current.sim.addFault({ route: 'deploy-status', patch: { logs: ['Error: MDX error'] }, times: 100 })
    const failed = await run({
      operation: 'deploy',
      'api-key': sims.current.sim.apiKey,
      'base-url': sims.current.sim.apiUrl,
      'project-id': 'broken'
    })
    const failure = seen(failed)
    expect(failure.heading).toBe('Deployment of broken')
    expect(failure.folds.at(-1)).toEqual({
      title: "The deployment's log (1 line)",
      open: true,
      lines: ['Error: MDX error']
    })
    expect(failure.paragraphs).toEqual([`❌ Deployment ${failed.outputs.get('job-id')} failed: MDX error.`])
    for (const summary of [deployed.summary, failed.summary]) expect(summary).not.toMatch(ONE_WITH_PLURAL)
  })

  test('a conversation on a pull request: titled by its number; the job, its pull request, its creation', async () => {
    const { sim } = await start({ agent: { durationMs: 3000 }, github: { permissions: { octocat: 'write' } } })
    const env = {
      ...(await eventFile(
        path.join(workspace.dir, 'event.json'),
        'issue_comment',
        issueCommentEvent('/docs-agent Fix the typo on the install page', { number: 42, pullRequest: true })
      )),
      GITHUB_REPOSITORY: REPO,
      GITHUB_API_URL: sim.githubApiUrl,
      GITHUB_SERVER_URL: 'https://github.com',
      GITHUB_RUN_ID: '4242'
    }
    const result = await run(
      agentInputs(sim, { operation: 'agent', 'comment-command': '/docs-agent', 'github-token': 'ghs_token0123456789' }),
      env
    )
    expect(result.failure).toBeUndefined()
    const view = seen(result)
    expect(view.heading).toBe('Agent conversation on #42')
    const jobId = result.outputs.get('job-id') as string
    expect(view.rows.get('Job')).toBe(jobId)
    expect(view.rows.get('Status')).toBe('completed')
    expect(view.rows.get('Pull request')).toBe(result.outputs.get('pr-link'))
    expect(view.rows.get('Comment by')).toContain('octocat')
    expect(view.rows.get('Prompt')).toContain('Fix the typo on the install page')
    // Created by this run, moments ago: in UTC, and how long ago.
    expect(view.rows.get('Job created')).toMatch(MOMENT)
    expect(view.rows.get('Job created')).toMatch(/ago\)$|\(now\)$/)
    expect(result.summary).not.toMatch(ONE_WITH_PLURAL)
  })
})
