/**
 * The command line of `docs-admin`: the operation as a subcommand and the action's inputs as
 * flags (`--base-url`, `--poll-interval`, ...), read from the one input table so the CLI and the
 * action take the same things. Pure: argv and the environment in, inputs or a help text out.
 */
import { type ParseArgsConfig, parseArgs } from 'node:util'
import { INPUTS, type InputName, OPERATIONS, type Operation, defaultOf, readBy } from '../action/inputs.js'
import { counted } from '../common/units.js'
import { EXIT_CODES, EXIT_CODE_MEANINGS, type Ending } from './exit-codes.js'

export const COMMAND = 'docs-admin'

/** Where secrets come from instead of the command line, and the variable a base URL may come from. */
export const ENVIRONMENT = {
  apiKey: 'DOCS_ADMIN_API_KEY',
  baseUrl: 'DOCS_ADMIN_BASE_URL',
  githubToken: 'GITHUB_TOKEN'
} as const

/** Inputs that only mean something on GitHub: a comment event, a pull request's comment, its environments. */
const COMMENT_ONLY: readonly InputName[] = [
  'comment-command',
  'comment-permission',
  'comment-reply',
  'preview-comment',
  'github-environment'
]
/** Flags whose value lands in the shell's history. */
const SECRET_FLAGS: Partial<Record<InputName, string>> = {
  'api-key': ENVIRONMENT.apiKey,
  'github-token': ENVIRONMENT.githubToken
}
/** Flags that may be given more than once; their values are joined by newlines, as the input takes them. */
const REPEATABLE: readonly InputName[] = ['paths']

const SUMMARIES: Record<Operation, string> = {
  export: 'export a docs site: start (or reuse) the job, wait, download and unpack the bundle',
  agent: 'send an instruction to the agent job --job-id, or create a job with it',
  'agent-message': 'send a follow-up prompt to an agent job and wait for it',
  'agent-status': 'read an agent job (and wait until it ends)',
  'agent-create': 'create an agent job with a prompt and wait for it',
  deploy: 'trigger a deployment of --project-id and wait for it (or follow the one --job-id names)',
  preview: 'trigger a preview deployment of --branch in --project-id and wait for it',
  automation: 'run the automation --automation-id of --project-id now; ends once its run is queued'
}

export type CommandLine =
  | { kind: 'help'; text: string }
  /** A bad command line (exit code 2); `help` is printed after the message when there is nothing else to go on. */
  | { kind: 'error'; message: string; help?: string }
  | { kind: 'run'; operation: Operation; inputs: Partial<Record<InputName, string>>; json: boolean; warnings: string[] }

export function parseCommandLine(
  argv: readonly string[],
  env: Readonly<Record<string, string | undefined>>
): CommandLine {
  const [first, ...rest] = argv
  // Asked for, the help is the answer; with no operation at all the command line is incomplete.
  if (first === '--help' || first === '-h' || first === 'help') return { kind: 'help', text: generalHelp() }
  if (first === undefined) return { kind: 'error', message: 'no operation given', help: generalHelp() }
  const operation = OPERATIONS.find((known) => known === first)
  if (operation === undefined) {
    const named = NAME_LIKE.test(first) ? `\`${first}\`` : `(the first argument, ${counted(first.length, 'character')})`
    return { kind: 'error', message: `unknown operation ${named}; one of ${OPERATIONS.join(', ')}` }
  }

  const flags = flagsOf(operation)
  const options: NonNullable<ParseArgsConfig['options']> = {
    ...Object.fromEntries(
      flags.map((name) => [name, { type: 'string' as const, multiple: REPEATABLE.includes(name) }])
    ),
    json: { type: 'boolean' },
    help: { type: 'boolean', short: 'h' }
  }
  const problem = commandLineProblem(rest, options, operation)
  if (problem !== undefined) return { kind: 'error', message: `${problem} (see \`${COMMAND} ${operation} --help\`)` }
  const { values } = parseArgs({ args: [...rest], allowPositionals: false, strict: true, options })
  if (values.help === true) return { kind: 'help', text: operationHelp(operation) }

  const inputs: Partial<Record<InputName, string>> = { operation }
  const warnings: string[] = []
  for (const name of flags) {
    const value = values[name]
    if (value === undefined) continue
    inputs[name] = Array.isArray(value) ? value.join('\n') : String(value)
    const variable = SECRET_FLAGS[name]
    if (variable !== undefined)
      warnings.push(`--${name} puts a secret in your shell's history and the process list; set ${variable} instead.`)
  }
  inputs['api-key'] ??= env[ENVIRONMENT.apiKey]
  inputs['base-url'] ??= env[ENVIRONMENT.baseUrl]
  if (flags.includes('github-token')) inputs['github-token'] ??= env[ENVIRONMENT.githubToken]
  if (inputs['api-key'] === undefined || inputs['api-key'] === '') {
    return {
      kind: 'error',
      message: `no API key: set ${ENVIRONMENT.apiKey} (the admin API key of the documentation service)`
    }
  }
  return { kind: 'run', operation, inputs, json: values.json === true, warnings }
}

/**
 * What is wrong with the command line after the operation, in words that never repeat an
 * argument that could be a value (`docs-admin deploy --project-id p1 "$KEY"` must not print the
 * key): a value out of place is told by its position and length, an unknown flag is named only
 * when it looks like a flag's name. Undefined when parseArgs, strict, takes it.
 */
function commandLineProblem(
  args: readonly string[],
  options: NonNullable<ParseArgsConfig['options']>,
  operation: Operation
): string | undefined {
  const { tokens } = parseArgs({ args: [...args], options, strict: false, allowPositionals: true, tokens: true })
  for (const token of tokens) {
    // The operation is argument 1.
    const at = `argument ${token.index + 2}`
    if (token.kind === 'positional')
      return (
        `${at} (${counted(token.value.length, 'character')}, not shown: it may be a secret) follows no flag; ` +
        'each value follows its flag (`--name value`)'
      )
    if (token.kind !== 'option') continue
    const spec = Object.hasOwn(options, token.name) ? options[token.name] : undefined
    if (spec === undefined) {
      if (!NAME_LIKE.test(token.name)) return `${at} is no flag of \`${operation}\` (not shown: it may be a secret)`
      return Object.hasOwn(INPUTS, token.name)
        ? `\`${token.rawName}\` is a flag of other operations, not of \`${operation}\``
        : `unknown flag \`${token.rawName}\``
    }
    if (spec.type === 'boolean' && token.value !== undefined) return `\`${token.rawName}\` takes no value (${at})`
    if (spec.type === 'string' && token.value === undefined) return `\`${token.rawName}\` needs a value (${at})`
    if (spec.type === 'string' && !token.inlineValue && token.value?.startsWith('-'))
      return (
        `the value after \`${token.rawName}\` (${at}) starts with a dash: give it as \`${token.rawName}=<value>\` ` +
        'if it is one, or give the flag its value'
      )
  }
  return undefined
}

/** A word that can be shown as the name of an operation or a flag: no value (a key, an id) looks like it. */
const NAME_LIKE = /^[a-z][a-z-]{0,29}$/

/**
 * The flags of an operation: the inputs it reads, but `operation` and the comment-only ones. No
 * comment starts a CLI run, so the token only records an agent job on its pull request there.
 */
export function flagsOf(operation: Operation): InputName[] {
  return (Object.keys(INPUTS) as InputName[]).filter(
    (name) =>
      name !== 'operation' &&
      !COMMENT_ONLY.includes(name) &&
      readBy(name, operation) &&
      (name !== 'github-token' || operation !== 'export')
  )
}

function generalHelp(): string {
  const width = Math.max(...OPERATIONS.map((o) => o.length))
  return [
    `Usage: ${COMMAND} <operation> [flags]`,
    '',
    "Drives the documentation service's admin API from any CI system; the same core as the GitHub Action.",
    '',
    'Operations:',
    ...OPERATIONS.map((o) => `  ${o.padEnd(width)}  ${SUMMARIES[o]}`),
    '',
    `Run \`${COMMAND} <operation> --help\` for its flags.`,
    '',
    ...footer()
  ].join('\n')
}

function operationHelp(operation: Operation): string {
  const rows = flagsOf(operation).map((name) => {
    const spec: { description: string; cli?: string } = INPUTS[name]
    const byDefault = defaultOf(name)
    const fallback = byDefault === undefined ? '' : ` (default ${byDefault})`
    const secret = SECRET_FLAGS[name]
    const variable =
      secret !== undefined
        ? ` Prefer ${secret}: a flag lands in the shell's history and the process list.`
        : name === 'base-url'
          ? ` Or ${ENVIRONMENT.baseUrl}.`
          : ''
    return [
      `  --${name} <value>${fallback}`,
      ...wrap(`${plain(spec.cli ?? spec.description)}${variable}`, 74).map((line) => `      ${line}`)
    ]
  })
  return [
    `Usage: ${COMMAND} ${operation} [flags]`,
    '',
    `${SUMMARIES[operation].replace(/^./, (c) => c.toUpperCase())}.`,
    '',
    'Flags:',
    ...rows.flat(),
    '  --json',
    '      Print the outputs as one JSON object instead of name=value lines: counts as numbers, yes or no as',
    '      booleans.',
    '  -h, --help',
    '      Show this help.',
    '',
    ...footer()
  ].join('\n')
}

function footer(): string[] {
  return [
    'Environment:',
    `  ${ENVIRONMENT.apiKey}   the admin API key (required; never needed on the command line)`,
    `  ${ENVIRONMENT.baseUrl}  the base address of Mintlify's admin API (default https://api.mintlify.com), ` +
      `unless --base-url gives it`,
    `  ${ENVIRONMENT.githubToken}         agent operations only: a token to record the job on the pull request`,
    '                       the agent opens, as the action does (unset: nothing is written to GitHub)',
    '',
    'Outputs go to stdout as name=value lines (newlines as \\n, backslashes doubled), or as JSON with --json;',
    'the log goes to stderr. Relative paths are relative to the current folder.',
    '',
    'Exit codes:',
    ...(Object.keys(EXIT_CODES) as Ending[]).map(
      (end) => `  ${String(EXIT_CODES[end]).padEnd(3)}  ${EXIT_CODE_MEANINGS[end]}`
    )
  ]
}

/** The input descriptions are written for workflow files: backticks are noise on a terminal. */
function plain(text: string): string {
  return text.replace(/`/g, '')
}

function wrap(text: string, width: number): string[] {
  const lines: string[] = []
  let line = ''
  for (const word of text.split(/\s+/)) {
    if (line !== '' && line.length + 1 + word.length > width) {
      lines.push(line)
      line = word
    } else line = line === '' ? word : `${line} ${word}`
  }
  if (line !== '') lines.push(line)
  return lines
}
