// The examples' scripts, run as the runner runs a `run:` step (bash -eo pipefail), against stand-ins of the
// services they call: what a linter cannot tell is whether they do what their comments say.
import { execFile } from 'node:child_process'
import { chmod, mkdir, readFile, rm, writeFile } from 'node:fs/promises'
import * as path from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { afterEach, beforeEach, describe, expect, test } from '@jest/globals'
import { parse } from 'yaml'
import { tempFolder } from './support/temp.js'

const ROOT = fileURLToPath(new URL('..', import.meta.url))

interface Step {
  name?: string
  run?: string
  env?: Record<string, string>
}
interface Workflow {
  jobs: Record<string, { steps?: Step[] }>
}

let work: { dir: string; remove: () => Promise<void> }
beforeEach(async () => {
  work = await tempFolder('docs-admin-examples-')
})
afterEach(async () => {
  await work.remove()
})

/** The step of an example named `name`. */
async function stepOf(example: string, name: string): Promise<Step> {
  const workflow = parse(await readFile(path.join(ROOT, 'examples', example), 'utf8')) as Workflow
  const step = Object.values(workflow.jobs)
    .flatMap((job) => job.steps ?? [])
    .find((candidate) => candidate.name === name)
  if (step?.run === undefined) throw new Error(`${example} has no step "${name}" with a script`)
  return step
}

/** Runs the step's script as the runner does, in `cwd` with `env` added to the runner's PATH and RUNNER_TEMP. */
async function runStep(step: Step, cwd: string, env: Record<string, string>): Promise<void> {
  const script = path.join(work.dir, 'step.sh')
  await writeFile(script, step.run ?? '')
  await mkdir(path.join(work.dir, 'runner-temp'), { recursive: true })
  await promisify(execFile)('bash', ['--noprofile', '--norc', '-eo', 'pipefail', script], {
    cwd,
    env: { PATH: process.env['PATH'], RUNNER_TEMP: path.join(work.dir, 'runner-temp'), ...env }
  })
}

describe('examples/deploy-s3-cloudfront.yml', () => {
  interface Key {
    size: number
    sha256: string
    type: string
  }
  interface Call {
    args: string[]
    uploads: string[]
    deletes: string[]
  }
  const bucket = async (): Promise<Record<string, Key>> =>
    JSON.parse(await readFile(path.join(work.dir, 'aws/s3/docs-bucket.json'), 'utf8')) as Record<string, Key>
  const calls = async (): Promise<Call[]> =>
    (await readFile(path.join(work.dir, 'aws/calls.jsonl'), 'utf8'))
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Call)

  /** Writes `files` as the site the artifact brings (the folder replaced whole), then runs the sync step. */
  async function syncSite(files: Record<string, string>): Promise<void> {
    const workspace = path.join(work.dir, 'workspace')
    await rm(path.join(workspace, 'site'), { recursive: true, force: true })
    for (const [name, content] of Object.entries(files)) {
      await mkdir(path.dirname(path.join(workspace, 'site', name)), { recursive: true })
      await writeFile(path.join(workspace, 'site', name), content)
    }
    // The AWS CLI is the stand-in, applying the commands to a bucket kept in a file.
    const bin = path.join(work.dir, 'bin')
    await mkdir(bin, { recursive: true })
    await mkdir(path.join(work.dir, 'aws'), { recursive: true })
    const aws = path.join(bin, 'aws')
    const fake = path.join(ROOT, 'test/support/fake-aws.mjs')
    await writeFile(aws, `#!/bin/sh\nexec "${process.execPath}" "${fake}" "$@"\n`)
    await chmod(aws, 0o755)
    const step = await stepOf('deploy-s3-cloudfront.yml', 'Sync the site to S3')
    await runStep(step, workspace, {
      PATH: `${bin}${path.delimiter}${process.env['PATH']}`,
      FAKE_AWS_STATE: path.join(work.dir, 'aws'),
      ...step.env,
      BUCKET: 'docs-bucket'
    })
  }

  const html = 'text/html; charset=utf-8'
  const site = {
    'index.html': '<h1>Docs</h1>',
    'guides/start.html': '<h1>Start</h1>',
    'guides/old.html': '<h1>Old</h1>',
    'guides/index.html': '<h1>Guides</h1>',
    'v1.2/upgrade.html': '<h1>Upgrade</h1>',
    'assets/style.css': 'body {}',
    '.well-known/security.txt': 'Contact: mailto:security@acme.com'
  }

  test('every page also under its extensionless key as HTML; the files under their names', async () => {
    await syncSite(site)
    const keys = await bucket()
    expect(Object.fromEntries(Object.entries(keys).map(([key, { type }]) => [key, type]))).toEqual({
      'index.html': 'text/html',
      'guides/start.html': 'text/html',
      'guides/start': html,
      'guides/old.html': 'text/html',
      'guides/old': html,
      'guides/index.html': 'text/html',
      'v1.2/upgrade.html': 'text/html',
      'v1.2/upgrade': html,
      'assets/style.css': 'text/css',
      '.well-known/security.txt': 'text/plain'
    })
  })

  test('a removed page goes, both keys of it; no other key is uploaded again or loses its type', async () => {
    await syncSite(site)
    const kept = Object.fromEntries(Object.entries(site).filter(([name]) => name !== 'guides/old.html'))
    await syncSite({ ...kept, 'guides/start.html': '<h1>Start, again</h1>', 'guides/new.html': '<h1>New</h1>' })
    const keys = await bucket()
    expect(Object.keys(keys).sort()).toEqual(
      [...Object.keys(kept), 'guides/start', 'v1.2/upgrade', 'guides/new.html', 'guides/new'].sort()
    )
    expect(keys['guides/start']).toMatchObject({ type: html, size: '<h1>Start, again</h1>'.length })
    expect([keys['guides/new']?.type, keys['v1.2/upgrade']?.type]).toEqual([html, html])
    // The last sync of the second run only deleted: the stale keys, nothing uploaded with a guessed type.
    const syncs = (await calls()).filter((call) => call.args[1] === 'sync')
    expect(syncs).toHaveLength(6)
    expect(syncs[5]?.uploads).toEqual([])
    expect(syncs[5]?.deletes.sort()).toEqual(['guides/old', 'guides/old.html'])
  })
})

describe('examples/deploy-github-pages.yml', () => {
  /** What the check before the deployment does with what actions/configure-pages says of the site. */
  const check = async (basePath: string, baseUrl: string): Promise<string> => {
    const step = await stepOf('deploy-github-pages.yml', 'Check that Pages serves the site at the root of its domain')
    return runStep(step, work.dir, { BASE_PATH: basePath, BASE_URL: baseUrl }).then(
      () => 'goes on',
      (error: { stdout: string }) => error.stdout
    )
  }

  test('a project site served under /<repo> stops before going live, asking for a custom domain', async () => {
    expect(await check('', 'https://docs.acme.com')).toBe('goes on')
    expect(await check('/docs', 'https://acme.github.io/docs')).toBe(
      '::error::Pages serves this site at https://acme.github.io/docs, under /docs, but the exported pages link ' +
        'from the root of the domain (/guides/...): give the site a custom domain (Settings > Pages > Custom ' +
        'domain).\n'
    )
  })
})
