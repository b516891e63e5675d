// Runs the committed bundles as their users do: dist/index.js as the GitHub runner runs the action
// (INPUT_* variables with their hyphens, GITHUB_OUTPUT, GITHUB_STEP_SUMMARY, an event payload file),
// and dist/cli.js as a CI script runs the CLI. Both front ends pass the same export and agent tests.
import { access, mkdir, readFile, readdir, writeFile } from 'node:fs/promises'
import * as path from 'node:path'
import { type ChildProcess, spawn } from 'node:child_process'
import { afterEach, beforeEach, describe, expect, test } from '@jest/globals'
import { type ArchiveEntry, buildZip, fixtureSiteEntries } from '../../simulator/archives.js'
import {
  DEFAULT_DEPLOYED_COMMIT,
  type Fault,
  type Simulator,
  type SimulatorOptions,
  startSimulator
} from '../../simulator/server.js'
import { REPO, issueCommentEvent, pullRequestEvent, reviewEvent } from '../support/events.js'
import { readSummary } from '../support/github-summary.js'
import { type DistRun, OWN_COMMANDS, runCli, runDist, runnerCommand, runnerLines } from '../support/runner.js'
import { tempFolder } from '../support/temp.js'

let sim: Simulator | undefined
let workspace: { dir: string; remove: () => Promise<void> }

beforeEach(async () => {
  workspace = await tempFolder()
  await mkdir(path.join(workspace.dir, 'tmp'))
})
afterEach(async () => {
  await sim?.close()
  sim = undefined
  await workspace.remove()
})

async function simulator(options: SimulatorOptions): Promise<Simulator> {
  sim = await startSimulator(options)
  return sim
}

/** How one run ended, whichever front end ran it. */
interface Ended {
  exitCode: number | null
  outputs: Record<string, string>
  /** Everything the process printed. */
  printed: string
  /** The failure message, when it failed. */
  error: string | undefined
}

interface FrontEnd {
  name: string
  /** Exit code of a cancelled run. */
  cancelled: number
  /** Exit code of a run whose request the service refused (HTTP 4xx). */
  refused: number
  run(operation: string, inputs: Record<string, string>, onSpawn?: (child: ChildProcess) => void): Promise<Ended>
}

const action: FrontEnd = {
  name: 'the action (dist/index.js)',
  cancelled: 1,
  refused: 1,
  async run(operation, inputs, onSpawn) {
    const run = await runDist({
      inputs: { operation, 'api-key': (sim as Simulator).apiKey, ...inputs },
      env: { GITHUB_WORKSPACE: workspace.dir, RUNNER_TEMP: path.join(workspace.dir, 'tmp') },
      onSpawn
    })
    const error = /^::error::(.*)$/m.exec(run.stdout)?.[1]?.replace(/%0A/g, '\n').replace(/%25/g, '%')
    return { exitCode: run.exitCode, outputs: run.outputs, printed: `${run.stdout}${run.stderr}`, error }
  }
}

const cli: FrontEnd = {
  name: 'the CLI (dist/cli.js)',
  cancelled: 130,
  refused: 3,
  async run(operation, inputs, onSpawn) {
    const args = [operation, ...Object.entries(inputs).flatMap(([name, value]) => [`--${name}`, value]), '--json']
    const run = await runCli({
      args,
      env: { DOCS_ADMIN_API_KEY: (sim as Simulator).apiKey, TMPDIR: path.join(workspace.dir, 'tmp') },
      cwd: workspace.dir,
      onSpawn
    })
    const error = /^error: (.*)$/m.exec(run.stderr)?.[1]
    // Compared with the action's outputs, which are text (the JSON's types have a test of their own).
    const json = JSON.parse(run.stdout || '{}') as Record<string, unknown>
    return {
      exitCode: run.exitCode,
      outputs: Object.fromEntries(Object.entries(json).map(([name, value]) => [name, String(value)])),
      printed: `${run.stdout}${run.stderr}`,
      error
    }
  }
}

/** Sends `signal` once `ready()` holds. */
function signalWhen(ready: () => boolean, signal: NodeJS.Signals, sent: { at: number }): (child: ChildProcess) => void {
  return (child) => {
    const timer = setInterval(() => {
      if (!ready()) return
      clearInterval(timer)
      sent.at = performance.now()
      child.kill(signal)
    }, 5)
  }
}

describe.each([action, cli])('$name', (frontEnd) => {
  test('exports, unpacks, writes outputs and the Helm values; the key and signature are never printed', async () => {
    const s = await simulator({ exportJob: { durationMs: 150, queuedMs: 20 } })
    const run = await frontEnd.run('export', {
      'base-url': s.apiUrl,
      domain: 'docs.acme.com',
      'poll-interval': '30ms',
      'export-version': 'v9',
      'helm-values-file': 'values.yaml'
    })
    expect(run.error).toBeUndefined()
    expect(run.exitCode).toBe(0)
    const { outputs } = run
    expect(outputs.status).toBe('completed')
    expect(outputs['site-path']).toBe(path.join(workspace.dir, 'static-export'))
    await access(path.join(outputs['site-path'] as string, 'index.html'))
    // The runner's temp folder is the job's own: the archive stays there for later steps. The CLI's
    // is shared and nobody empties it: the archive goes with the run.
    const archive = path.join(workspace.dir, 'tmp', `docs-export-${outputs['job-id']}`, 'bundle.tar.gz')
    expect(outputs['bundle-path']).toBe(frontEnd === cli ? undefined : archive)
    expect(await readdir(path.join(workspace.dir, 'tmp'))).toEqual(
      frontEnd === cli ? [] : [path.basename(path.dirname(archive))]
    )
    expect(outputs['bundle-sha256']).toMatch(/^[0-9a-f]{64}$/)
    expect(await readFile(path.join(workspace.dir, 'values.yaml'), 'utf8')).toContain('version: "v9"')
    // The full link is an output; the log never shows its signature, nor the key.
    const signature = new URL(outputs['bundle-url'] as string).searchParams.get('X-Amz-Signature') as string
    const logLines = run.printed.split('\n').filter((line) => !line.startsWith('::add-mask::') && !line.startsWith('{'))
    expect(logLines.filter((line) => line.includes(signature) || line.includes(s.apiKey))).toEqual([])
    expect((await readdir(workspace.dir)).sort()).toEqual([
      '.static-export.exported',
      'static-export',
      'tmp',
      'values.yaml'
    ])
  })

  // The built site check, after each reader: yauzl's zip and GNU tar's tar.gz, with a large page.
  test('the built site check finds the broken link of a zip bundle', async () => {
    const s = await simulator({ bundle: { format: 'zip' } })
    const run = await frontEnd.run('export', { 'base-url': s.apiUrl, domain: 'docs.acme.com', 'poll-interval': '30ms' })
    expect(run.exitCode).toBe(0)
    expect(run.outputs['broken-links']).toBe('1')
    expect(run.printed).toMatch(
      /Broken link in index\.html line \d+: "\/guides\/removed-page" leads to no file of the site/
    )
  })

  test('the built site check finds a broken link in a large page of a tar.gz', async () => {
    const large: ArchiveEntry = {
      type: 'file',
      name: 'guides/long.html',
      content: `<html><body>\n<a href="gone.html">x</a>\n${'<p>text</p>\n'.repeat(5_000)}</body></html>`
    }
    const s = await simulator({ bundle: { format: 'tar.gz', entries: [...fixtureSiteEntries(), large] } })
    const run = await frontEnd.run('export', { 'base-url': s.apiUrl, domain: 'docs.acme.com', 'poll-interval': '30ms' })
    expect(run.exitCode).toBe(0)
    expect(run.outputs['broken-links']).toBe('2')
    expect(run.printed).toMatch(/Broken link in guides\/long\.html line 2: "gone\.html" leads to no file of the site/)
  })

  test('a failed job exits 1 naming the job and the cause, with the outputs still set', async () => {
    const s = await simulator({ exportJob: { durationMs: 40, queuedMs: 0, failWith: 'out of quota' } })
    const run = await frontEnd.run('export', { 'base-url': s.apiUrl, domain: 'docs.acme.com', 'poll-interval': '20ms' })
    expect(run.exitCode).toBe(1)
    expect(run.outputs.status).toBe('failed')
    expect(run.error).toBe(`Export job ${run.outputs['job-id']} failed: out of quota.`)
  })

  test('deploy triggers once, follows to success; a failed deployment exits 1 naming it and the summary', async () => {
    const s = await simulator({
      deployment: { durationMs: 60, queuedMs: 10, byProject: { broken: { failWith: 'MDX error in docs/index.mdx' } } }
    })
    const run = await frontEnd.run('deploy', {
      'base-url': s.apiUrl,
      'project-id': 'proj_123',
      'poll-interval': '20ms'
    })
    expect(run.error).toBeUndefined()
    expect(run.exitCode).toBe(0)
    const statusId = run.outputs['job-id'] as string
    expect(run.outputs).toEqual({
      'job-id': statusId,
      status: 'success',
      'deployed-commit': DEFAULT_DEPLOYED_COMMIT.sha
    })
    expect(s.count('deploy-trigger')).toBe(1)
    expect(run.printed).toContain(`Deployment ${statusId} deployed commit ${DEFAULT_DEPLOYED_COMMIT.sha} (main)`)
    // Only ever registered to be masked.
    expect(run.printed.replace(/^::add-mask::.*$/gm, '')).not.toContain(s.apiKey)

    const failed = await frontEnd.run('deploy', {
      'base-url': s.apiUrl,
      'project-id': 'broken',
      'poll-interval': '20ms'
    })
    expect(failed.exitCode).toBe(1)
    expect(failed.outputs.status).toBe('failure')
    expect(failed.error).toBe(`Deployment ${failed.outputs['job-id']} failed: MDX error in docs/index.mdx.`)
    expect(failed.printed).toContain('Error: MDX error in docs/index.mdx')
  })

  test('preview: triggered once for --branch, its address handed on; a 403 says why', async () => {
    const s = await simulator({ deployment: { durationMs: 60, queuedMs: 10 } })
    const inputs = { 'base-url': s.apiUrl, 'project-id': 'proj_123', branch: 'docs-next', 'poll-interval': '20ms' }
    const run = await frontEnd.run('preview', inputs)
    expect(run.error).toBeUndefined()
    expect(run.exitCode).toBe(0)
    expect(s.requests.find((r) => r.route === 'preview-trigger')?.body).toEqual({ branch: 'docs-next' })
    expect(run.outputs).toMatchObject({
      'preview-url': 'https://proj_123-docs-next.mintlify.app',
      status: 'success',
      'deployed-commit': DEFAULT_DEPLOYED_COMMIT.sha
    })
    s.addFault({ route: 'preview-trigger', status: 500, process: true })
    const lost = await frontEnd.run('preview', inputs)
    expect(lost.exitCode).not.toBe(0)
    expect(lost.error).toContain('may have processed the request')
    expect(s.count('preview-trigger')).toBe(2)
    s.addFault({ route: 'preview-trigger', status: 403, body: { error: 'Previews are not on your plan' } })
    const refused = await frontEnd.run('preview', inputs)
    expect(refused.exitCode).toBe(frontEnd.refused)
    expect(refused.error).toContain('Previews are not on your plan')
  })

  test('automation queues the run, hands on its ids; a 404 exits refused naming both inputs', async () => {
    const s = await simulator({})
    const run = await frontEnd.run('automation', {
      'base-url': s.apiUrl,
      'project-id': 'proj_123',
      'automation-id': 'wf_changelog'
    })
    expect(run.error).toBeUndefined()
    expect(run.exitCode).toBe(0)
    const [queued] = s.automationRuns
    expect(run.outputs).toEqual({ 'job-id': queued?.jobId, 'automation-run-id': queued?.instanceId, status: 'queued' })
    expect(s.requests.map((r) => [r.route, r.path])).toEqual([
      ['automation-trigger', '/v1/workflow/proj_123/wf_changelog/trigger']
    ])
    expect(run.printed).toContain("Watch it in the dashboard's automation runs.")
    expect(run.printed.replace(/^::add-mask::.*$/gm, '')).not.toContain(s.apiKey)

    const missing = await frontEnd.run('automation', {
      'base-url': s.apiUrl,
      'project-id': 'proj_123',
      'automation-id': 'wf_gone'
    })
    expect(missing.exitCode).toBe(frontEnd.refused)
    expect(missing.error).toMatch(/Check `(--)?automation-id` .* and `(--)?project-id`\.$/)
    expect(s.count('automation-trigger')).toBe(2)
  })

  test.each(['SIGINT', 'SIGTERM'] as const)(
    '%s during a stalled download: exits within 3 s and leaves no partial files',
    async (signal) => {
      const s = await simulator({ exportJob: { durationMs: 40, queuedMs: 0 } })
      s.addFault({ route: 'download', stallAt: 100, times: 5 })
      const sent = { at: 0 }
      const run = await frontEnd.run(
        'export',
        { 'base-url': s.apiUrl, domain: 'docs.acme.com', 'poll-interval': '20ms' },
        signalWhen(() => s.count('download') > 0, signal, sent)
      )
      expect(sent.at).toBeGreaterThan(0)
      expect(performance.now() - sent.at).toBeLessThan(3000)
      expect(run.exitCode).toBe(frontEnd.cancelled)
      expect(run.error).toContain('The run was cancelled')
      const left = await readdir(workspace.dir, { recursive: true })
      expect(left.filter((name) => /\.part$|staging/.test(String(name)))).toEqual([])
      expect(left).not.toContain('static-export')
    }
  )

  test('SIGINT while polling: stops polling and exits within 3 s, the job id handed on', async () => {
    const s = await simulator({ exportJob: { durationMs: 60_000, queuedMs: 0 } })
    const sent = { at: 0 }
    let pollsAtSignal = 0
    const run = await frontEnd.run(
      'export',
      { 'base-url': s.apiUrl, domain: 'docs.acme.com', 'poll-interval': '50ms', 'max-poll-interval': '50ms' },
      signalWhen(() => (pollsAtSignal = s.count('export-status')) >= 2, 'SIGINT', sent)
    )
    expect(performance.now() - sent.at).toBeLessThan(3000)
    expect(run.exitCode).toBe(frontEnd.cancelled)
    const jobId = run.outputs['job-id'] as string
    expect(jobId).toBeTruthy()
    expect(s.count('export-status')).toBeLessThanOrEqual(pollsAtSignal + 1)
    // The job goes on: the message says how to pick it up, in the front end's terms.
    const resume =
      frontEnd === cli ? `\`docs-admin export --job-id ${jobId}\`` : `\`operation: export\` and \`job-id: ${jobId}\``
    expect(run.error).toContain(`Export job ${jobId} was not cancelled with the run: pick it up with ${resume}.`)
  })

  test('SIGINT late in a big extraction: exits within 3 s; the next run leaves nothing stale beside path', async () => {
    // 20,000 empty files in 40 folders, in order. The download stalls where the central directory
    // starts, after every entry: the signal comes once the last folder has all its files, with the
    // run still waiting for the rest (before, the signal could land after a fast run had finished).
    // Removing that many files takes longer than the runner waits. Two runs of 20,000 files: a
    // loaded machine (2 cores shared with other work) needs more than the default 20 s.
    const entries: ArchiveEntry[] = []
    for (let d = 0; d < 40; d++)
      for (let f = 0; f < 500; f++) entries.push({ type: 'file', name: `d${d}/f${f}.html`, content: '' })
    const zip = buildZip(entries)
    const s = await simulator({ exportJob: { durationMs: 40, queuedMs: 0 }, bundle: { body: zip } })
    // The end-of-central-directory record (22 bytes, no comment) gives the directory's offset at 16.
    s.addFault({ route: 'download', stallAt: zip.readUInt32LE(zip.length - 22 + 16) })
    const inputs = { 'base-url': s.apiUrl, domain: 'docs.acme.com', 'poll-interval': '20ms' }
    const ours = async (): Promise<string[]> =>
      (await readdir(workspace.dir)).filter((name) => name.startsWith('.static-export.'))
    const sent = { at: 0 }
    const run = await frontEnd.run('export', inputs, (child) => {
      const watch = async (): Promise<void> => {
        const staging = (await ours().catch((): string[] => []))[0]
        const last =
          staging === undefined ? [] : await readdir(path.join(workspace.dir, staging, 'd39')).catch((): string[] => [])
        if (last.length < 500) return void setTimeout(watch, 10)
        sent.at = performance.now()
        child.kill('SIGINT')
      }
      void watch()
    })
    expect(sent.at).toBeGreaterThan(0)
    expect(performance.now() - sent.at).toBeLessThan(3000)
    expect(run.exitCode).toBe(frontEnd.cancelled)
    expect(run.error).toContain('The run was cancelled')
    expect(await readdir(workspace.dir)).not.toContain('static-export')
    // No staging folder is left under its own name; a trash folder may still be on its way out.
    expect((await ours()).filter((name) => !name.includes('.trash-'))).toEqual([])

    s.setBundle({ entries: fixtureSiteEntries() })
    const next = await frontEnd.run('export', inputs)
    expect(next.exitCode).toBe(0)
    // Nothing stale: only the record that this export wrote the site.
    expect(await ours()).toEqual(['.static-export.exported'])
    await access(path.join(workspace.dir, 'static-export', 'index.html'))
  }, 60_000)

  test('agent-message sends once and waits; agent-create; agent-status of an unknown job fails naming it', async () => {
    const s = await simulator({ agent: { durationMs: 200 } })
    const common = { 'base-url': s.apiUrl, 'project-id': 'proj_123', 'poll-interval': '50ms' }
    const sent = await frontEnd.run('agent-message', {
      ...common,
      'job-id': 'job_abc',
      prompt: 'Document the --dry-run flag'
    })
    expect(sent.exitCode).toBe(0)
    expect(sent.outputs).toMatchObject({
      'job-id': 'job_abc',
      status: 'completed',
      'pr-link': 'https://github.com/acme/docs/pull/42',
      'pr-number': '42'
    })
    expect(s.agentJobs.get('proj_123/job_abc')?.prompts).toEqual(['Document the --dry-run flag'])
    const created = await frontEnd.run('agent-create', { ...common, prompt: 'Write a quickstart' })
    expect(created.exitCode).toBe(0)
    expect(s.agentJobs.get(`proj_123/${created.outputs['job-id']}`)?.prompts).toEqual(['Write a quickstart'])
    const unknown = await frontEnd.run('agent-status', { ...common, 'job-id': 'job_gone' })
    expect(unknown.exitCode).toBe(frontEnd.refused)
    expect(unknown.error).toContain('Agent job job_gone in project proj_123 was not found')
  })

  test('an empty base-url (an unset variable) fails naming it: the key does not go to the default', async () => {
    await simulator({})
    const run = await frontEnd.run('deploy', { 'base-url': '', 'project-id': 'proj_1' })
    expect(run.exitCode).toBe(frontEnd === cli ? 2 : 1)
    const named = frontEnd === cli ? '`--base-url` or `DOCS_ADMIN_BASE_URL`' : '`base-url`'
    expect(run.error).toBe(
      `Invalid input: ${named} is empty (a variable that is not set expands to nothing): give it a value, or ` +
        'leave it out for its default `https://api.mintlify.com`.'
    )
  })
})

/** Runs an export against a simulator of its own with `faults`, in a workspace of its own (for runs side by side). */
async function exportWith(
  faults: Fault[],
  inputs: Record<string, string> = {},
  options: SimulatorOptions = {}
): Promise<DistRun & { sim: Simulator }> {
  const own = await startSimulator({ exportJob: { durationMs: 40, queuedMs: 0 }, ...options })
  const folder = await tempFolder()
  try {
    for (const fault of faults) own.addFault(fault)
    const run = await runDist({
      inputs: {
        operation: 'export',
        'api-key': own.apiKey,
        'base-url': own.apiUrl,
        domain: 'docs.acme.com',
        'poll-interval': '20ms',
        ...inputs
      },
      env: { GITHUB_WORKSPACE: folder.dir, RUNNER_TEMP: path.join(folder.dir, 'tmp') }
    })
    return { ...run, sim: own }
  } finally {
    await own.close()
    await folder.remove()
  }
}

/** The `::error::` lines of a run. */
const errors = (run: DistRun): string[] => runnerLines(run.stdout).filter((line) => line.startsWith('::error::'))

describe('the action only', () => {
  test('secrets are masked before anything else is printed; the job summary is written', async () => {
    const s = await simulator({ exportJob: { durationMs: 40, queuedMs: 0 } })
    const run = await runDist({
      inputs: {
        operation: 'export',
        'api-key': s.apiKey,
        'base-url': s.apiUrl,
        domain: 'docs.acme.com',
        'poll-interval': '20ms'
      },
      env: { GITHUB_WORKSPACE: workspace.dir, RUNNER_TEMP: path.join(workspace.dir, 'tmp') }
    })
    const lines = run.stdout.split('\n')
    expect(lines[0]).toBe(`::add-mask::${s.apiKey}`)
    const signature = new URL(run.outputs['bundle-url'] as string).searchParams.get('X-Amz-Signature') as string
    expect(lines).toContain(`::add-mask::${signature}`)
    expect(run.summary).toContain(run.outputs['job-id'])
    expect(run.summary).toContain('completed')
  })

  test("the job summary shows on GitHub as meant: notes' code as code, several refused inputs as a list", async () => {
    const s = await simulator({ exportJob: { durationMs: 40, queuedMs: 0 } })
    const env = { GITHUB_WORKSPACE: workspace.dir, RUNNER_TEMP: path.join(workspace.dir, 'tmp') }
    const started = await runDist({
      inputs: {
        operation: 'export',
        'api-key': s.apiKey,
        'base-url': s.apiUrl,
        domain: 'docs.acme.com',
        wait: 'false'
      },
      env
    })
    expect(started.exitCode).toBe(0)
    expect(started.summary).toContain('<p>Not waiting for the job (<code>wait: false</code>).</p>')
    const refused = await runDist({
      inputs: {
        operation: 'export',
        'api-key': s.apiKey,
        domain: 'not a host',
        timeout: 'soon',
        'base-url': 'http://example.com'
      },
      env
    })
    expect(refused.exitCode).toBe(1)
    expect(refused.summary).toContain('<p>❌ Invalid inputs:</p>')
    for (const summary of [started.summary, refused.summary]) {
      const { markdownBlocks, shownText } = readSummary(summary)
      expect(markdownBlocks).toEqual([])
      expect(shownText).not.toContain('`')
    }
    expect(readSummary(refused.summary).lists).toEqual([
      [
        expect.stringContaining('<code>base-url</code>'),
        expect.stringContaining('<code>timeout</code>'),
        expect.stringContaining('<code>domain</code>')
      ]
    ])
  })

  test("a deployment's job summary shows on GitHub as meant: the commit, paths folded, a failure's log", async () => {
    const s = await simulator({ deployment: { durationMs: 60, queuedMs: 0, failWith: 'build failed' } })
    const run = await runDist({
      inputs: {
        operation: 'deploy',
        'api-key': s.apiKey,
        'base-url': s.apiUrl,
        'project-id': 'proj_123',
        'poll-interval': '20ms'
      },
      env: { GITHUB_WORKSPACE: workspace.dir, RUNNER_TEMP: path.join(workspace.dir, 'tmp'), GITHUB_SHA: 'f'.repeat(40) }
    })
    expect(run.exitCode).toBe(1)
    expect(run.stdout).toMatch(/^::warning::Deployment .* not f{40}, the commit this workflow runs on/m)
    const { markdownBlocks, lists } = readSummary(run.summary)
    expect(markdownBlocks).toEqual([])
    expect(run.summary).toContain('<h3>Deployment of proj_123</h3>')
    expect(run.summary).toContain(`<code>${DEFAULT_DEPLOYED_COMMIT.sha}</code>`)
    expect(lists).toEqual([['docs/guides/deploy.mdx'], ['docs/index.mdx', 'docs.json'], ['docs/old/deploy.mdx']])
    expect(run.summary).toMatch(
      /<details open><summary>The deployment&#39;s log \(6 lines\)<\/summary><pre>.*Error: build failed<\/pre>/
    )
  })

  test('two runs: a command on an issue creates a job, one on its pull request reaches the same job', async () => {
    // A conversation across two runs; the command on the pull request names no job-id.
    const s = await simulator({ agent: { durationMs: 300 }, github: { permissions: { octocat: 'write' } } })
    const turn = (number: number, pullRequest: boolean, text: string) =>
      runDist({
        inputs: {
          operation: 'agent',
          'api-key': s.apiKey,
          'base-url': s.apiUrl,
          'project-id': 'proj_123',
          'comment-command': '/docs-agent',
          'github-token': 'ghs_e2e_token_0123456789',
          'poll-interval': '100ms'
        },
        event: { name: 'issue_comment', payload: issueCommentEvent(text, { number, pullRequest }) },
        env: {
          GITHUB_WORKSPACE: workspace.dir,
          GITHUB_REPOSITORY: REPO,
          GITHUB_API_URL: s.githubApiUrl,
          GITHUB_SERVER_URL: 'https://github.com',
          GITHUB_RUN_ID: '77'
        }
      })
    const first = await turn(7, false, '/docs-agent Document the --dry-run flag')
    expect(first.exitCode).toBe(0)
    const jobId = first.outputs['job-id'] as string
    const pullNumber = Number(first.outputs['pr-number'])
    expect(pullNumber).toBeGreaterThan(0)
    const second = await turn(pullNumber, true, '/docs-agent Add an example to it')
    expect(second.stderr).toBe('')
    expect(second.exitCode).toBe(0)
    expect(second.outputs['job-id']).toBe(jobId)
    expect(s.agentJobs.get(`proj_123/${jobId}`)?.prompts).toEqual([
      expect.stringContaining('Document the --dry-run flag'),
      'Add an example to it'
    ])
    expect(s.count('agent-create')).toBe(1)
    expect(second.outputs['comment-url']).toContain(`/pull/${pullNumber}#issuecomment-`)
  })

  test('preview on pull requests: one comment edited across pushes, forged markers ignored, forks', async () => {
    const s = await simulator({ deployment: { durationMs: 60, queuedMs: 10 } })
    const forged = s.github.addComment(REPO, 12, '<!-- docs-admin-action:preview project=proj_123 -->\nfake')
    const push = (payload: Record<string, unknown>) =>
      runDist({
        inputs: {
          operation: 'preview',
          'api-key': s.apiKey,
          'base-url': s.apiUrl,
          'project-id': 'proj_123',
          'github-token': 'ghs_e2e_token_0123456789',
          'poll-interval': '20ms'
        },
        event: { name: 'pull_request', payload },
        env: { GITHUB_WORKSPACE: workspace.dir, GITHUB_REPOSITORY: REPO, GITHUB_API_URL: s.githubApiUrl }
      })
    const first = await push(pullRequestEvent())
    const second = await push(pullRequestEvent({ sha: 'feedfacefeedfacefeedfacefeedfacefeedface' }))
    expect([first.exitCode, second.exitCode]).toEqual([0, 0])
    const ours = s.github.thread(REPO, 12).comments.filter((c) => c.user.type === 'Bot')
    expect(ours).toHaveLength(1)
    expect(ours[0]?.body).toContain('✅ **Ready**')
    expect(second.outputs['comment-url']).toContain(`#issuecomment-${ours[0]?.id}`)
    expect(forged.history).toEqual([forged.body])
    const fork = await runDist({
      inputs: { operation: 'preview', 'project-id': 'proj_123' },
      event: { name: 'pull_request', payload: pullRequestEvent({ fork: 'mallory/docs' }) },
      env: { GITHUB_WORKSPACE: workspace.dir, GITHUB_REPOSITORY: REPO }
    })
    expect(fork.exitCode).toBe(0)
    expect(fork.outputs).toEqual({ skipped: 'true', 'skip-reason': 'fork' })
    expect(fork.stdout).toMatch(/^::notice::The pull request comes from mallory\/docs, a fork/m)
    expect(s.count('preview-trigger')).toBe(2)
  })

  test("a review's inline comments reach the agent; a deploy rerun after a 5xx sends nothing", async () => {
    const s = await simulator({ agent: { durationMs: 100 }, github: { permissions: { octocat: 'write' } } })
    s.github.addReview(REPO, 12, 8001, [{ path: 'docs/install.md', line: 3, body: 'Use the scoped name.' }])
    const env = {
      GITHUB_WORKSPACE: workspace.dir,
      GITHUB_REPOSITORY: REPO,
      GITHUB_API_URL: s.githubApiUrl,
      GITHUB_RUN_ID: '88'
    }
    const common = {
      'api-key': s.apiKey,
      'base-url': s.apiUrl,
      'project-id': 'proj_123',
      'github-token': 'ghs_e2e_token_0123456789',
      'poll-interval': '20ms'
    }
    const review = await runDist({
      inputs: { ...common, operation: 'agent', 'comment-command': '/docs-agent' },
      event: { name: 'pull_request_review', payload: reviewEvent('/docs-agent address these') },
      env
    })
    expect(review.exitCode).toBe(0)
    const created = s.requests.find((r) => r.route === 'agent-create')?.body as { prompt?: string } | undefined
    expect(created?.prompt).toContain(
      "address these\n\nThe review's comments (1):\ndocs/install.md:3: Use the scoped name."
    )
    s.addFault({ route: 'deploy-trigger', status: 500, process: true })
    const deploy = (attempt: string) =>
      runDist({
        inputs: { ...common, operation: 'deploy' },
        event: { name: 'issue_comment', payload: issueCommentEvent('/docs-deploy') },
        env: { ...env, GITHUB_RUN_ATTEMPT: attempt }
      })
    expect((await deploy('1')).exitCode).toBe(1)
    const rerun = await deploy('2')
    expect(rerun.exitCode).toBe(1)
    expect(rerun.stdout).toContain('this rerun does not ask again')
    expect(s.count('deploy-trigger')).toBe(1)
  })

  test('a same-job rerun on a runner with a tool cache takes the bundle from it (@actions/tool-cache)', async () => {
    const s = await simulator({ exportJob: { durationMs: 40, queuedMs: 0 } })
    const env = {
      GITHUB_WORKSPACE: workspace.dir,
      RUNNER_TEMP: path.join(workspace.dir, 'tmp'),
      RUNNER_TOOL_CACHE: path.join(workspace.dir, 'tool-cache')
    }
    const inputs = { operation: 'export', 'api-key': s.apiKey, 'base-url': s.apiUrl, 'poll-interval': '20ms' }
    const first = await runDist({ inputs: { ...inputs, domain: 'docs.acme.com' }, env })
    expect(first.outputs['cache-hit']).toBe('false')
    const second = await runDist({ inputs: { ...inputs, 'job-id': first.outputs['job-id'] as string }, env })
    expect(second.exitCode).toBe(0)
    expect(second.outputs['cache-hit']).toBe('true')
    expect(second.outputs['bundle-sha256']).toBe(first.outputs['bundle-sha256'])
    expect(s.count('download')).toBe(1)
    await access(path.join(workspace.dir, 'static-export', 'index.html'))
    // New jobs: the cache keeps the three bundles most recently stored or used. The rerun used the
    // first job's after the second job's was stored, so the second's is the one let go.
    const newJob = async (): Promise<string> => {
      const run = await runDist({ inputs: { ...inputs, domain: 'docs.acme.com' }, env })
      expect(run.exitCode).toBe(0)
      return run.outputs['job-id'] as string
    }
    const secondJob = await newJob()
    const reused = await runDist({ inputs: { ...inputs, 'job-id': first.outputs['job-id'] as string }, env })
    expect(reused.outputs['cache-hit']).toBe('true')
    await newJob()
    await newJob()
    const kept = await readdir(path.join(workspace.dir, 'tool-cache', 'docs-export-bundle'))
    expect(kept).toHaveLength(3)
    const thirdRerun = await runDist({ inputs: { ...inputs, 'job-id': first.outputs['job-id'] as string }, env })
    expect(thirdRerun.outputs['cache-hit']).toBe('true')
    const rerunOfSecond = await runDist({ inputs: { ...inputs, 'job-id': secondJob }, env })
    expect(rerunOfSecond.outputs['cache-hit']).toBe('false')
  })

  test('a GitHub-hosted runner starts each job afresh: the bundle is not copied into its tool cache', async () => {
    // RUNNER_ENVIRONMENT is github-hosted.
    const s = await simulator({ exportJob: { durationMs: 40, queuedMs: 0 } })
    const toolCache = path.join(workspace.dir, 'hosted-tool-cache')
    await mkdir(toolCache)
    const env = {
      GITHUB_WORKSPACE: workspace.dir,
      RUNNER_TEMP: path.join(workspace.dir, 'tmp'),
      RUNNER_TOOL_CACHE: toolCache,
      RUNNER_ENVIRONMENT: 'github-hosted'
    }
    const inputs = { operation: 'export', 'api-key': s.apiKey, 'base-url': s.apiUrl, 'poll-interval': '20ms' }
    const first = await runDist({ inputs: { ...inputs, domain: 'docs.acme.com' }, env })
    expect(first.exitCode).toBe(0)
    expect(first.outputs['cache-hit']).toBe('false')
    expect(await readdir(toolCache)).toEqual([])
    expect(first.stdout).not.toContain('tool cache')
    const second = await runDist({ inputs: { ...inputs, 'job-id': first.outputs['job-id'] as string }, env })
    expect(second.outputs['cache-hit']).toBe('false')
    expect(s.count('download')).toBe(2)
  })

  test('a connection cut mid-answer: a GET is retried, a once-only POST fails', async () => {
    // The POST fails saying it may have been processed.
    const [status, start] = await Promise.all([
      exportWith([{ route: 'export-status', truncateAt: 5 }]),
      exportWith([{ route: 'export-start', truncateAt: 5, process: true }])
    ])
    expect(status.exitCode).toBe(0)
    expect(status.outputs.status).toBe('completed')
    expect(start.exitCode).toBe(1)
    expect(errors(start)).toEqual([
      expect.stringMatching(
        new RegExp(
          /^::error::Could not start the export of docs\.acme\.com: /.source +
            /the service answered HTTP 202, but its answer was unusable /.source +
            /\(the connection broke off after 5 bytes of the answer\)\. /.source +
            /The service may have processed the request, so it was not sent again/.source
        )
      )
    ])
    expect(start.sim.count('export-start')).toBe(1)
    for (const run of [status, start]) expect(run.stderr).toBe('')
  })

  test('`timeout` bounds the step whatever the service and the storage do', async () => {
    // Hung headers, a body one byte a second, a trickling download.
    const runs = await Promise.all([
      exportWith([{ route: 'export-status', hang: true, times: 100 }], { timeout: '1s' }),
      exportWith([{ route: 'export-status', trickleMs: 1000, times: 100 }], { timeout: '1s' }),
      exportWith([{ route: 'download', trickleMs: 50, times: 100 }], { timeout: '1s' })
    ])
    for (const run of runs) {
      expect(run.exitCode).toBe(1)
      expect(errors(run)).toEqual([expect.stringContaining('`timeout` ran out')])
      // 1 s, the grace of a request under way (2 s), and node's start however loaded the machine: far
      // below the minutes the faults would take without the bound (SECURITY.md gives the exact bound).
      expect(run.wallMs).toBeLessThan(1000 + 2000 + 12_000)
    }
  })

  test('text from the service cannot issue workflow commands', async () => {
    const hostile = [
      '::stop-commands::pwned',
      'running\n::set-output name=bundle-url::https://evil.example',
      '##[add-mask]Export',
      '  ::add-mask::job'
    ]
    const runs = await Promise.all([
      exportWith(hostile.map((status) => ({ route: 'export-status', patch: { status } }))),
      exportWith(
        [],
        {},
        {
          exportJob: {
            durationMs: 40,
            queuedMs: 0,
            failWith: 'quota\n::set-output name=status::completed\r::stop-commands::z ##[error]x'
          }
        }
      )
    ])
    expect(runs[0]?.exitCode).toBe(0)
    expect(runs[1]?.exitCode).toBe(1)
    for (const run of runs) {
      const commands = runnerLines(run.stdout)
        .map(runnerCommand)
        .filter((name) => name !== undefined)
      expect(commands.filter((name) => !OWN_COMMANDS.has(name))).toEqual([])
      expect(run.stdout).not.toMatch(/^\s*::(stop-commands|set-output)/m)
      expect(Object.keys(run.outputs)).not.toContain('x')
    }
  })
})

describe('the CLI only', () => {
  test('the archive folder a killed run left in the temp folder goes with the next export', async () => {
    // A process that ran and ended: its pid names a folder nobody else would remove.
    const gone = spawn(process.execPath, ['-e', ''])
    const pid = gone.pid as number
    await new Promise((resolve) => gone.on('exit', resolve))
    const left = path.join(workspace.dir, 'tmp', `docs-export-job_old-${pid}`)
    await mkdir(left)
    await writeFile(path.join(left, 'bundle.tar.gz'), 'x')
    const live = path.join(workspace.dir, 'tmp', `docs-export-job_live-${process.pid}`)
    await mkdir(live)
    const s = await simulator({ exportJob: { durationMs: 40, queuedMs: 0 } })
    const run = await cli.run('export', { 'base-url': s.apiUrl, domain: 'docs.acme.com', 'poll-interval': '20ms' })
    expect(run.exitCode).toBe(0)
    expect(await readdir(path.join(workspace.dir, 'tmp'))).toEqual([path.basename(live)])
    expect(run.printed).toContain(
      `Removed docs-export-job_old-${pid} from the temp folder: a run that was killed left it.`
    )
  })

  test('outputs as name=value lines on stdout, the log on stderr, and no workflow command anywhere', async () => {
    const s = await simulator({ exportJob: { durationMs: 40, queuedMs: 0 } })
    const run = await runCli({
      args: ['export', '--domain', 'docs.acme.com', '--poll-interval', '20ms', '--path', 'site'],
      env: { DOCS_ADMIN_API_KEY: s.apiKey, DOCS_ADMIN_BASE_URL: s.apiUrl, TMPDIR: path.join(workspace.dir, 'tmp') },
      cwd: workspace.dir
    })
    expect(run.exitCode).toBe(0)
    const lines = run.stdout.trimEnd().split('\n')
    for (const line of lines) expect(line).toMatch(/^[a-z0-9-]+=/)
    expect(lines).toContain(`site-path=${path.join(workspace.dir, 'site')}`)
    expect(lines.find((line) => line.startsWith('helm-values='))).toMatch(
      /^helm-values=staticExport:\\n {2}enabled: true\\n {2}bundleUrl: ".*"\\n$/
    )
    expect(run.stderr).toContain('Unpacked the tar.gz bundle')
    expect(`${run.stdout}${run.stderr}`).not.toMatch(/^::|\n::/)
  })

  test('--json gives counts as numbers and yes-or-no as booleans', async () => {
    const s = await simulator({ exportJob: { durationMs: 40, queuedMs: 0 } })
    const run = await runCli({
      args: ['export', '--domain', 'docs.acme.com', '--poll-interval', '20ms', '--path', 'site', '--json'],
      env: { DOCS_ADMIN_API_KEY: s.apiKey, DOCS_ADMIN_BASE_URL: s.apiUrl, TMPDIR: path.join(workspace.dir, 'tmp') },
      cwd: workspace.dir
    })
    expect(run.exitCode).toBe(0)
    expect(JSON.parse(run.stdout)).toMatchObject({
      status: 'completed',
      'page-count': expect.any(Number),
      'bundle-size': expect.any(Number),
      'broken-links': 1,
      'cache-hit': false
    })
  })

  test('bad input exits 2 before any request; a key on the command line works but warns', async () => {
    const s = await simulator({})
    const bad = await runCli({
      args: ['export', '--domain', 'not a host', '--base-url', s.apiUrl],
      env: { DOCS_ADMIN_API_KEY: s.apiKey },
      cwd: workspace.dir
    })
    expect(bad.exitCode).toBe(2)
    // Inputs are named as the CLI takes them: flags, or the environment.
    expect(bad.stderr).toContain('error: Invalid input: `--domain` must be a bare hostname')
    // Without one, the base address is Mintlify's own: a plain-http one (the API key would travel in clear) is refused.
    const plainBase = await runCli({
      args: ['agent-create', '--project-id', 'p', '--prompt', 'Go', '--base-url', 'http://api.example.com'],
      env: { DOCS_ADMIN_API_KEY: s.apiKey },
      cwd: workspace.dir
    })
    expect(plainBase.exitCode).toBe(2)
    expect(plainBase.stderr).toContain('`--base-url` or `DOCS_ADMIN_BASE_URL` must use `https://`')
    const noPrompt = await runCli({
      args: ['agent-create', '--project-id', 'p', '--base-url', s.apiUrl],
      env: { DOCS_ADMIN_API_KEY: s.apiKey },
      cwd: workspace.dir
    })
    expect(noPrompt.stderr).toContain('`--prompt` is required for `agent-create` (at least one non-blank character).')
    const noKey = await runCli({
      args: ['agent-status', '--base-url', s.apiUrl, '--project-id', 'p', '--job-id', 'j'],
      cwd: workspace.dir
    })
    expect(noKey.exitCode).toBe(2)
    expect(noKey.stderr).toBe(
      'error: no API key: set DOCS_ADMIN_API_KEY (the admin API key of the documentation service)\n'
    )
    // `--json` promises JSON on stdout, also then.
    const noKeyJson = await runCli({
      args: ['agent-status', '--base-url', s.apiUrl, '--project-id', 'p', '--job-id', 'j', '--json'],
      cwd: workspace.dir
    })
    expect(noKeyJson.exitCode).toBe(2)
    expect(JSON.parse(noKeyJson.stdout)).toEqual({})
    // A `path` the file system refuses is bad input too.
    await writeFile(path.join(workspace.dir, 'notes.txt'), 'mine')
    const aFile = await runCli({
      args: ['export', '--domain', 'docs.acme.com', '--path', 'notes.txt', '--base-url', s.apiUrl],
      env: { DOCS_ADMIN_API_KEY: s.apiKey },
      cwd: workspace.dir
    })
    expect(aFile.exitCode).toBe(2)
    expect(aFile.stderr).toContain('which is a file')
    const unknownFlag = await runCli({
      args: ['export', '--colour', 'blue'],
      env: { DOCS_ADMIN_API_KEY: s.apiKey },
      cwd: workspace.dir
    })
    expect(unknownFlag.exitCode).toBe(2)
    expect(unknownFlag.stderr).toContain('error: unknown flag `--colour` (see `docs-admin export --help`)')
    // A value out of place (a key, say) is told by its place, never shown.
    const stray = await runCli({
      args: ['deploy', '--project-id', 'p1', s.apiKey],
      env: { DOCS_ADMIN_API_KEY: s.apiKey },
      cwd: workspace.dir
    })
    expect(stray.exitCode).toBe(2)
    expect(stray.stderr).toContain(`error: argument 4 (${s.apiKey.length} characters, not shown: it may be a secret)`)
    expect(stray.stderr).not.toContain(s.apiKey)
    expect(s.requests).toHaveLength(0)
    const flagged = await runCli({
      args: [
        'agent-status',
        '--api-key',
        s.apiKey,
        '--base-url',
        s.apiUrl,
        '--project-id',
        'proj_123',
        '--job-id',
        'job_abc',
        '--json'
      ],
      cwd: workspace.dir
    })
    expect(flagged.exitCode).toBe(0)
    expect(flagged.stderr).toContain(
      "warning: --api-key puts a secret in your shell's history and the process list; set DOCS_ADMIN_API_KEY instead."
    )
    expect(flagged.stderr).not.toContain(s.apiKey)
    expect(JSON.parse(flagged.stdout)).toMatchObject({ status: 'completed' })
  })

  test('each way a run ends has the exit code --help gives it: refused 3, unreachable 4, timeout 5', async () => {
    const s = await simulator({ exportJob: { durationMs: 3_600_000 } })
    s.addFault({ route: 'deploy-trigger', drop: true })
    const cli = (args: string[], key = s.apiKey) =>
      runCli({ args, env: { DOCS_ADMIN_API_KEY: key, DOCS_ADMIN_BASE_URL: s.apiUrl }, cwd: workspace.dir })
    const [refused, lost, timedOut] = await Promise.all([
      // Another route than the fault's: a wrong key and a dropped connection in parallel.
      cli(['deploy', '--job-id', 'dpl_1'], 'dsk_wrong'),
      cli(['deploy', '--project-id', 'proj_123']),
      cli(['export', '--domain', 'docs.acme.com', '--timeout', '1s', '--poll-interval', '100ms'])
    ])
    expect([refused.exitCode, refused.stderr]).toEqual([3, expect.stringContaining('did not accept the key (HTTP 401')])
    expect([lost.exitCode, lost.stderr]).toEqual([
      4,
      expect.stringContaining('the connection failed after the request')
    ])
    const jobId = /^job-id=(.*)$/m.exec(timedOut.stdout)?.[1]
    expect([timedOut.exitCode, timedOut.stderr]).toEqual([
      5,
      expect.stringContaining(`did not finish within \`--timeout\` (1s)`)
    ])
    expect(timedOut.stderr).toContain(`rerun with \`--job-id ${jobId}\` to pick it up`)
    // Every error line starts alike, and --help names each code.
    for (const run of [refused, lost, timedOut]) expect(run.stderr).toMatch(/^error: /m)
    const help = (await runCli({ args: ['--help'] })).stdout
    for (const code of [3, 4, 5]) expect(help).toMatch(new RegExp(`^  ${code} `, 'm'))
  })

  test('--help for the CLI and for each operation', async () => {
    const general = await runCli({ args: ['--help'] })
    expect(general.exitCode).toBe(0)
    expect(general.stderr).toBe('')
    // `help` says the same; no operation at all is a bad command line: the help goes to stderr, with exit code 2.
    const word = await runCli({ args: ['help'] })
    expect([word.exitCode, word.stdout, word.stderr]).toEqual([0, general.stdout, ''])
    const none = await runCli({ args: [] })
    expect([none.exitCode, none.stdout, none.stderr]).toEqual([2, '', `error: no operation given\n\n${general.stdout}`])
    expect(general.stdout).toContain('Usage: docs-admin <operation> [flags]')
    expect(general.stdout).toMatch(
      /^Exit codes:\n {2}0 {4}success\n {2}1 {4}the job failed[\s\S]*\n {2}130 {2}cancelled/m
    )
    // Every variable the CLI reads is named, with what it does.
    expect(general.stdout).toContain(
      'GITHUB_TOKEN         agent operations only: a token to record the job on the pull request'
    )
    expect(general.stdout).toContain('backslashes doubled')
    const exportHelp = await runCli({ args: ['export', '--help'] })
    expect(exportHelp.stdout).toContain('--poll-interval <value> (default 5s)')
    // The inputs in the CLI's terms: paths relative to the current folder, no runner folders, no masking in GitHub's
    // log.
    expect(exportHelp.stdout).toContain('relative to the current folder or absolute')
    expect(exportHelp.stdout).toContain('redacted in the log')
    expect(exportHelp.stdout).not.toMatch(/workspace|runner|masked|\bstep\b|workflow/i)
    expect(exportHelp.stdout).not.toContain('--project-id')
    expect(exportHelp.stdout).not.toContain('--comment-command')
  })
})
