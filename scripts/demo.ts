// `npm run demo`: starts the built-in simulator and runs the built action (dist/index.js) exactly
// as the runner would, and shows each run as the runner's log and the job summary would.
//   npm run demo            deploys a docs project and waits until it is live, then exports its site;
//                           the unpacked site lands in ./demo-output/site
//   npm run demo -- agent   a two-turn conversation: a command on an issue creates an agent job and
//                           its pull request; a command on that pull request reaches the same job.
//                           Prints the comments a user sees.
//   npm run demo -- preview a preview of a pull request's branch, twice (two pushes): the one comment
//                           on the pull request, edited, and the GitHub deployment in its environment.
//   npm run demo -- serve   serves ./demo-output/site on http://127.0.0.1:8080/ as a static host
//                           serves an export (`/guides/start` is guides/start.html); `-- serve 9000`
//                           for another port.
import { readdir, rm, stat } from 'node:fs/promises'
import * as path from 'node:path'
import { DEFAULT_DEPLOYED_COMMIT, type Simulator, startSimulator } from '../simulator/server.js'
import { REPO, issueCommentEvent, pullRequestEvent } from '../test/support/events.js'
import { type DistRun, runDist } from '../test/support/runner.js'
import { serveSite } from './demo-serve.js'
import { runnerLog, summaryText } from './demo-view.js'

const workspace = path.resolve('demo-output')
const env = { GITHUB_WORKSPACE: workspace, RUNNER_TEMP: path.join(workspace, 'tmp') }
const siteDir = path.join(workspace, 'site')
const style = { color: process.stdout.isTTY === true && process.env['NO_COLOR'] === undefined }
const mode = process.argv[2] ?? 'export'
if (mode !== 'export' && mode !== 'agent' && mode !== 'preview' && mode !== 'serve') {
  console.error(
    `Unknown demo \`${mode}\`: use \`npm run demo\`, or \`npm run demo --\` with \`agent\`, \`preview\` or \`serve\`.`
  )
  process.exit(2)
}
if (mode === 'serve') {
  await serveDemoSite(process.argv[3])
} else {
  await runDemo(mode)
}

/** Serves the site the export demo unpacked, until Ctrl-C. */
async function serveDemoSite(portText: string | undefined): Promise<void> {
  const port = Number(portText ?? '8080')
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    console.error(`The port must be a number from 0 to 65535, not \`${portText}\`.`)
    process.exit(2)
  }
  if ((await stat(siteDir).catch(() => undefined))?.isDirectory() !== true) {
    console.error(`There is no site in ${path.relative(process.cwd(), siteDir)} yet: run \`npm run demo\` first.`)
    process.exit(1)
  }
  const { server, url } = await serveSite(siteDir, port).catch((error: NodeJS.ErrnoException) => {
    console.error(
      error.code === 'EADDRINUSE'
        ? `Port ${port} is in use: give another, \`npm run demo -- serve 9000\`.`
        : `Could not serve the site: ${error.message}`
    )
    process.exit(1)
  })
  console.log(`Serving ${path.relative(process.cwd(), siteDir)} at ${url} (Ctrl-C stops).`)
  process.once('SIGINT', () => server.close(() => process.exit(0)))
}

async function runDemo(mode: 'export' | 'agent' | 'preview'): Promise<void> {
  const simulator = await startSimulator({
    exportJob: { durationMs: 3000, queuedMs: 500 },
    agent: { durationMs: 2000 },
    deployment: { durationMs: 2000, queuedMs: 500 },
    github: { permissions: { octocat: 'write' } }
  })
  try {
    console.log(
      `Simulator: API ${simulator.apiUrl}, storage ${simulator.storageUrl}, GitHub API ${simulator.githubApiUrl}\n`
    )
    await rm(env.RUNNER_TEMP, { recursive: true, force: true })
    if (mode === 'export') await exportDemo(simulator)
    else if (mode === 'preview') await previewDemo(simulator)
    else await agentDemo(simulator)
  } finally {
    await simulator.close()
  }
}

async function exportDemo(sim: Simulator): Promise<void> {
  // What a push to main runs: deploy the merged commit first, so that the export captures it.
  console.log('━━ Deploy what was merged (operation: deploy)\n')
  const deployed = await runDist({
    inputs: {
      operation: 'deploy',
      'api-key': sim.apiKey,
      'base-url': sim.apiUrl,
      'project-id': 'proj_123',
      'poll-interval': '500ms'
    },
    env: { ...env, GITHUB_SHA: DEFAULT_DEPLOYED_COMMIT.sha }
  })
  if (!report(deployed)) return
  console.log('\n━━ Export the site it made live (operation: export)\n')
  const run = await runDist({
    inputs: {
      operation: 'export',
      'api-key': sim.apiKey,
      'base-url': sim.apiUrl,
      domain: 'docs.example.com',
      'poll-interval': '500ms',
      path: 'site',
      'export-version': 'demo',
      'helm-values-file': 'values.static-export.yaml'
    },
    env
  })
  if (!report(run)) return
  const site = run.outputs['site-path'] ?? ''
  console.log(`\nThe unpacked site is in ${path.relative(process.cwd(), site)}: ${(await readdir(site)).join(', ')}`)
  // Its pages are extensionless addresses (`/guides/start` is guides/start.html): a plain file server misses them.
  console.log('Browse it with `npm run demo -- serve`, which serves it as a static host serves an export.')
}

async function previewDemo(sim: Simulator): Promise<void> {
  // The simulator deploys the same commit every time: the pushes name it, so no warning says another was deployed.
  const sha = DEFAULT_DEPLOYED_COMMIT.sha
  const push = (which: string): Promise<DistRun> => {
    console.log(`\n━━ The ${which} push to pull request #12 (branch docs-install): operation: preview\n`)
    return runDist({
      inputs: {
        operation: 'preview',
        'api-key': sim.apiKey,
        'base-url': sim.apiUrl,
        'project-id': 'proj_123',
        'github-token': 'ghs_demo_token',
        'github-environment': 'docs-preview',
        'poll-interval': '500ms'
      },
      event: { name: 'pull_request', payload: pullRequestEvent({ sha }) },
      env: { ...env, GITHUB_REPOSITORY: REPO, GITHUB_API_URL: sim.githubApiUrl, GITHUB_RUN_ID: '2' }
    })
  }
  sim.github.thread(REPO, 12, { title: 'Docs: install', isPullRequest: true })
  if (!report(await push('first'))) return
  showComments(sim, 12)
  if (!report(await push('second'))) return
  showComments(sim, 12)
  console.log('\nThe GitHub deployment the merge box links to:')
  for (const deployment of sim.github.deployments)
    for (const status of deployment.statuses)
      console.log(`  ${String(status.state)}: ${String(status.environment_url)}`)
}

async function agentDemo(sim: Simulator): Promise<void> {
  const turn = (number: number, pullRequest: boolean, text: string): Promise<DistRun> => {
    console.log(`\n━━ octocat comments on ${pullRequest ? 'pull request' : 'issue'} #${number}: "${text}"\n`)
    return runDist({
      inputs: {
        operation: 'agent',
        'api-key': sim.apiKey,
        'base-url': sim.apiUrl,
        'project-id': 'proj_123',
        'comment-command': '/docs-agent',
        'github-token': 'ghs_demo_token',
        'poll-interval': '500ms'
      },
      event: { name: 'issue_comment', payload: issueCommentEvent(text, { number, pullRequest }) },
      env: {
        ...env,
        GITHUB_REPOSITORY: REPO,
        GITHUB_API_URL: sim.githubApiUrl,
        GITHUB_SERVER_URL: sim.github.serverUrl,
        GITHUB_RUN_ID: '1'
      }
    })
  }
  sim.github.thread(REPO, 7, { title: 'Install page has a typo' })
  const first = await turn(7, false, '/docs-agent Document the new --dry-run flag of the CLI')
  if (!report(first)) return
  showComments(sim, 7)
  const pull = Number(first.outputs['pr-number'])
  showComments(sim, pull)
  const second = await turn(pull, true, '/docs-agent Add an example of --dry-run with --verbose')
  if (!report(second)) return
  showComments(sim, pull)
  const jobId = first.outputs['job-id'] ?? ''
  console.log(`\nBoth instructions went to agent job ${jobId}:`)
  for (const prompt of sim.agentJobs.get(`proj_123/${jobId}`)?.prompts ?? [])
    console.log(`  - ${prompt.split('\n')[0]}`)
}

/** Prints the run's log as the runner shows it, its outputs and its job summary; false when it failed. */
function report(run: DistRun): boolean {
  console.log(runnerLog(run.stdout, style))
  process.stderr.write(run.stderr)
  console.log('\nOutputs:')
  for (const [name, value] of Object.entries(run.outputs)) console.log(`  ${name}: ${value.replace(/\n/g, '\n    ')}`)
  if (run.summary.trim() !== '') {
    console.log('\nJob summary:')
    console.log(summaryText(run.summary, style).replace(/^(?=.)/gm, '  '))
  }
  if (run.exitCode === 0) return true
  console.error(`\nThe action failed (exit ${run.exitCode}).`)
  process.exitCode = 1
  return false
}

/** The comments of an issue or pull request as its page shows them. */
function showComments(sim: Simulator, number: number): void {
  const thread = sim.github.thread(REPO, number)
  console.log(`\n┌─ ${thread.isPullRequest ? 'Pull request' : 'Issue'} #${number}: ${thread.title}`)
  for (const comment of thread.comments) {
    const visible = comment.body.replace(/<!--[\s\S]*?-->\n?/g, '')
    console.log(
      `│ ${comment.user.login}${comment.history.length > 1 ? ` (edited ${comment.history.length - 1}×)` : ''}:`
    )
    for (const line of visible.split('\n')) console.log(`│   ${line}`)
  }
  console.log('└─')
}
