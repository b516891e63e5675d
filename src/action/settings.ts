/**
 * The one validation pass: every input an operation reads is parsed by its kind (its row in
 * inputs.ts), then the operation's rule judges the inputs together and makes its settings, one
 * type per operation, so a flow never sees a value it would have to check or cast again. Every
 * problem is reported at once. Pure: no I/O.
 */
import { InputError } from '../common/errors.js'
import { isCommentEvent } from './event.js'
import { type ParseContext, codeList, notOwnFile } from './input-kinds.js'
import {
  INPUTS,
  type InputName,
  type InputsOf,
  type Operation,
  type PermissionLevel,
  defaultOf,
  readBy
} from './inputs.js'
import { fileProblem } from './path-guard.js'

export { PERMISSION_LEVELS, type PermissionLevel } from './inputs.js'

/** What every operation is handed for the comment gate (see gate/comment-gate.ts). */
export interface GateSettings {
  /** On a comment event: only comments starting with it run anything. */
  commentCommand: string | undefined
  /** On a comment event: the least permission on the repository its author needs. */
  commentPermission: PermissionLevel
  githubToken: string | undefined
  /** On a comment event: react to the command and keep one reply up to date (every operation). */
  commentReply: boolean
}

interface CommonSettings extends GateSettings {
  apiKey: string
  /** Base address without a trailing slash; may carry a path prefix (a gateway). */
  baseUrl: string
  wait: boolean
  timeoutMs: number
  pollIntervalMs: number
  maxPollIntervalMs: number
}

interface ExportCommon extends CommonSettings {
  operation: 'export'
  /** Absolute folder for the site (or for the archive when `extract` is false). */
  path: string
  download: boolean
  extract: boolean
  /** Bound on the bytes the archive may unpack to (`max-site-size`). */
  maxSiteBytes: number
  /** The site check before the swap: `warn` (the default), `strict` (fail), `off`. */
  verify: 'warn' | 'strict' | 'off'
  exportVersion: string | undefined
  /** Absolute path of the Helm values file to write, when asked for. */
  helmValuesFile: string | undefined
  /** What the Helm values give as `bundleUrl` instead of the presigned link. */
  helmBundleUrl: string | undefined
}

/** Start a new export of `domain`. */
export interface ExportByDomain extends ExportCommon {
  jobId?: undefined
  domain: string
  docsVersion: string | undefined
  paths: string[] | undefined
}

/** Follow (and download) an export job that exists already. */
export interface ExportByJob extends ExportCommon {
  jobId: string
  /** Only for the job summary's title: the job decides what is exported. */
  domain: string | undefined
}

export type ExportSettings = ExportByDomain | ExportByJob

/** Where the agent's instruction comes from. */
export type PromptSource =
  | { from: 'input'; text: string }
  /** The triggering comment's text after `command`. */
  | { from: 'comment'; command: string }

/** Which agent job: the one named by `job-id`, or the one recorded on the pull request commented on. */
export type JobSource = { from: 'input'; id: string } | { from: 'pull-request' }

interface AgentCommon extends CommonSettings {
  projectId: string
}

/** The comment workflow's operation: the recorded job of a pull request gets the instruction, else a new job does. */
export interface AgentConversation extends AgentCommon {
  operation: 'agent'
  /** Overrides the job the pull request records. */
  jobId: string | undefined
  prompt: PromptSource
}

export interface AgentMessage extends AgentCommon {
  operation: 'agent-message'
  jobId: JobSource
  prompt: PromptSource
}

export interface AgentStatus extends AgentCommon {
  operation: 'agent-status'
  jobId: JobSource
}

export interface AgentCreate extends AgentCommon {
  operation: 'agent-create'
  prompt: PromptSource
}

export type AgentSettings = AgentConversation | AgentMessage | AgentStatus | AgentCreate

/** Trigger a deployment of the project's deployment branch, then follow it. */
export interface DeployByProject extends CommonSettings {
  operation: 'deploy'
  jobId?: undefined
  projectId: string
}

/** Follow a deployment that exists already (`job-id`: its status id); nothing is triggered. */
export interface DeployByJob extends CommonSettings {
  operation: 'deploy'
  jobId: string
  /** Only for the job summary: the deployment's status id is all a status read needs. */
  projectId: string | undefined
}

export type DeploySettings = DeployByProject | DeployByJob

/** Trigger a preview deployment of a branch (or follow one, `job-id`), then link it on the pull request. */
export interface PreviewSettings extends CommonSettings {
  operation: 'preview'
  projectId: string
  jobId: string | undefined
  /** Undefined: the event's branch, which the flow reads (see preview/branch.ts). */
  branch: string | undefined
  previewComment: boolean
  githubEnvironment: string | undefined
}

/** Run a project's automation now: trigger it; the step ends once its run is queued. */
export interface AutomationSettings extends CommonSettings {
  operation: 'automation'
  projectId: string
  automationId: string
}

export type Settings = ExportSettings | AgentSettings | DeploySettings | PreviewSettings | AutomationSettings

/** Reads one input's raw value: '' when given empty, undefined when not given (see Host.getInput). */
export type InputReader = (name: InputName) => string | undefined

export interface ReadContext {
  /** The folder relative paths are resolved against (GITHUB_WORKSPACE). */
  workspace: string
  /** The event that started the run (GITHUB_EVENT_NAME): on a comment, the job may come from the pull request. */
  eventName: string | undefined
  /** Called for problems that are fixed up rather than refused. */
  warn: (message: string) => void
}

/** What an operation's rule knows besides the values: the texts as read, and which were refused. */
interface RuleContext {
  eventName: string | undefined
  /** The input's text (trimmed, or its default); undefined when it has neither. */
  text(name: InputName): string | undefined
  /** Whether the input's kind refused it (its problem is reported already). */
  refused(name: InputName): boolean
  problem(message: string): void
  warn(message: string): void
}

type SettingsOf<O extends Operation> = Extract<Settings, { operation: O }>
/** An operation's rules across its inputs: its settings, or undefined when a problem leaves none. */
type Rule<O extends Operation> = (
  inputs: InputsOf<O>,
  common: CommonSettings,
  context: RuleContext
) => SettingsOf<O> | undefined

/**
 * Reads and checks every input, and throws one InputError that lists every problem found, so a
 * user fixes a workflow in one round rather than one error per run.
 */
export function readSettings(read: InputReader, context: ReadContext): Settings {
  const problems: string[] = []
  const texts = new Map<InputName, string | undefined>()
  const refused = new Set<InputName>()
  const parsing: ParseContext = {
    workspace: context.workspace,
    problem: (message) => void problems.push(message),
    warn: context.warn
  }
  const rules: RuleContext = {
    eventName: context.eventName,
    text: (name) => texts.get(name),
    refused: (name) => refused.has(name),
    problem: parsing.problem,
    warn: context.warn
  }
  const parseAll = (names: InputName[]): Record<string, unknown> => {
    const values: Record<string, unknown> = {}
    for (const name of names) {
      const raw = read(name)?.trim()
      const byDefault = defaultOf(name)
      const text = raw === undefined || raw === '' ? byDefault : raw
      texts.set(name, text)
      if (text === undefined) continue
      const before = problems.length
      // Given, but empty: most often a variable that is not set, which the default would silently stand for.
      if (raw === '') parsing.problem(emptyProblem(name, text))
      values[name] = INPUTS[name].parse(text, name, parsing)
      if (problems.length > before) refused.add(name)
    }
    return values
  }

  const names = Object.keys(INPUTS) as InputName[]
  const shared = parseAll(names.filter((name) => INPUTS[name].for === 'all')) as InputsOf<Operation>
  const common = commonSettings(shared, rules)
  const operation = shared.operation
  let settings: Settings | undefined
  if (operation !== undefined) {
    const own = parseAll(names.filter((name) => INPUTS[name].for !== 'all' && readBy(name, operation)))
    settings = settingsOf(operation, { ...shared, ...own }, common, rules)
  }

  if (problems.length > 0 || settings === undefined) {
    throw new InputError(
      problems.length === 1
        ? `Invalid input: ${problems[0]}`
        : `Invalid inputs:\n${problems.map((p) => `  - ${p}`).join('\n')}`
    )
  }
  return settings
}

/**
 * Why a key may be missing on a pull-request event: GitHub passes no secrets to the runs of a
 * fork's pull request, review or review comment. A comment on the conversation tab is an
 * `issue_comment` of the base repository, which gets them.
 */
function forkHint(eventName: string | undefined): string {
  if (eventName === 'pull_request')
    return (
      ' On a pull request from a fork, GitHub passes no secrets to `pull_request` runs: skip the step for forks ' +
      '(`if: github.event.pull_request.head.repo.full_name == github.repository`).'
    )
  if (eventName === 'pull_request_review' || eventName === 'pull_request_review_comment')
    return (
      ` On a pull request from a fork, GitHub passes no secrets to \`${eventName}\` runs: comment on the pull ` +
      "request's conversation tab instead, whose comments run in the base repository, with its secrets."
    )
  return ''
}

function emptyProblem(name: InputName, byDefault: string): string {
  return (
    `\`${name}\` is empty (a variable that is not set expands to nothing): give it a value, or leave it out ` +
    `for its default \`${byDefault}\`.`
  )
}

/** The rule of each operation. */
const RULES: { [O in Operation]: Rule<O> } = {
  export: exportSettings,
  agent: conversationSettings,
  'agent-message': messageSettings,
  'agent-status': statusSettings,
  'agent-create': createSettings,
  deploy: deploySettings,
  preview: previewSettings,
  automation: automationSettings
}

function settingsOf<O extends Operation>(
  operation: O,
  values: Record<string, unknown>,
  common: CommonSettings,
  context: RuleContext
): SettingsOf<O> | undefined {
  // The values of the inputs `operation` reads, each made by its kind (see readSettings).
  return RULES[operation](values as InputsOf<O>, common, context)
}

/** What every operation reads. */
function commonSettings(inputs: InputsOf<Operation>, context: RuleContext): CommonSettings {
  if (context.text('operation') === undefined) context.problem('`operation` is required.')
  if (context.text('api-key') === undefined) context.problem(`\`api-key\` is required.${forkHint(context.eventName)}`)
  const pollIntervalMs = inputs['poll-interval']
  const maxPollIntervalMs = inputs['max-poll-interval']
  // Compared only when both are durations: a bad one has its own problem already.
  if (
    !context.refused('poll-interval') &&
    !context.refused('max-poll-interval') &&
    maxPollIntervalMs < pollIntervalMs
  ) {
    context.problem(
      `\`max-poll-interval\` (${context.text('max-poll-interval')}) must not be shorter than \`poll-interval\` ` +
        `(${context.text('poll-interval')}): ` +
        `raise \`max-poll-interval\` too (its default is \`${defaultOf('max-poll-interval')}\`).`
    )
  }
  return {
    apiKey: inputs['api-key'] ?? '',
    baseUrl: inputs['base-url'],
    wait: inputs.wait,
    timeoutMs: inputs.timeout,
    pollIntervalMs,
    maxPollIntervalMs,
    commentCommand: inputs['comment-command'],
    commentPermission: inputs['comment-permission'],
    commentReply: inputs['comment-reply'],
    githubToken: inputs['github-token']
  }
}

/** `export`: `domain` unless `job-id`, the Helm values not in `path`, a word on inputs that change nothing. */
function exportSettings(
  inputs: InputsOf<'export'>,
  common: CommonSettings,
  context: RuleContext
): ExportSettings | undefined {
  const exportCommon: ExportCommon = {
    ...common,
    operation: 'export',
    path: inputs.path,
    download: inputs.download,
    extract: inputs.extract,
    maxSiteBytes: inputs['max-site-size'],
    verify: inputs.verify,
    exportVersion: inputs['export-version'],
    helmValuesFile: inputs['helm-values-file'],
    helmBundleUrl: inputs['helm-bundle-url']
  }
  const helmValuesFile = exportCommon.helmValuesFile
  if (helmValuesFile !== undefined && exportCommon.download) {
    const why = fileProblem(helmValuesFile, [{ path: inputs.path, name: '`path`, which each export replaces whole' }])
    if (why !== undefined) context.problem(notOwnFile('helm-values-file', context.text('helm-values-file') ?? '', why))
  }
  const given = (name: InputName): boolean => context.text(name) !== undefined
  const jobId = inputs['job-id']
  // Inputs that would change nothing are said to, rather than dropped without a word.
  if (jobId !== undefined) {
    const ignored = (['docs-version', 'paths'] as const).filter(given)
    if (ignored.length > 0)
      context.warn(`${codeList(ignored, ' and ')} only shape a new export; \`job-id\` reuses one as it was started.`)
  }
  if (exportCommon.verify === 'strict' && !exportCommon.extract)
    context.warn('`verify: strict` checks an unpacked site; with `extract: false` nothing is unpacked or checked.')
  const helmInputs = (['helm-values-file', 'helm-bundle-url', 'export-version'] as const).filter(given)
  if (!exportCommon.wait && helmInputs.length > 0) {
    context.warn(
      `${codeList(helmInputs)} shape the Helm values, written once the bundle link exists; with \`wait: ` +
        `false\` the run stops before that.`
    )
  }
  const domain = inputs.domain
  if (jobId !== undefined) return { ...exportCommon, jobId, domain }
  if (domain !== undefined) return { ...exportCommon, domain, docsVersion: inputs['docs-version'], paths: inputs.paths }
  // A `job-id` given but refused has its own problem already: `domain` was not asked for.
  if (!given('domain') && !given('job-id'))
    context.problem('`domain` is required unless `job-id` names an existing export job.')
  return undefined
}

/** `deploy`: `project-id` unless `job-id` names a deployment to follow. */
function deploySettings(
  inputs: InputsOf<'deploy'>,
  common: CommonSettings,
  context: RuleContext
): DeploySettings | undefined {
  const { 'project-id': projectId, 'job-id': jobId } = inputs
  if (jobId !== undefined) return { ...common, operation: 'deploy', jobId, projectId }
  if (projectId !== undefined) return { ...common, operation: 'deploy', projectId }
  // One given but refused has its own problem already.
  if (context.text('project-id') === undefined && context.text('job-id') === undefined)
    context.problem('`project-id` is required for `deploy` unless `job-id` names a deployment to follow.')
  return undefined
}

/** `preview`: `project-id`; a branch not given comes from the event (the flow reads it, before any request). */
function previewSettings(
  inputs: InputsOf<'preview'>,
  common: CommonSettings,
  context: RuleContext
): PreviewSettings | undefined {
  const projectId = inputs['project-id']
  if (projectId === undefined) {
    if (context.text('project-id') === undefined) context.problem('`project-id` is required for `preview`.')
    return undefined
  }
  return {
    ...common,
    operation: 'preview',
    projectId,
    jobId: inputs['job-id'],
    branch: inputs.branch,
    previewComment: inputs['preview-comment'],
    githubEnvironment: inputs['github-environment']
  }
}

/** `automation`: `project-id` and `automation-id`, both required. */
function automationSettings(
  inputs: InputsOf<'automation'>,
  common: CommonSettings,
  context: RuleContext
): AutomationSettings | undefined {
  const { 'project-id': projectId, 'automation-id': automationId } = inputs
  // One given but refused has its own problem already.
  for (const name of ['project-id', 'automation-id'] as const)
    if (context.text(name) === undefined) context.problem(`\`${name}\` is required for \`automation\`.`)
  if (projectId === undefined || automationId === undefined) return undefined
  return { ...common, operation: 'automation', projectId, automationId }
}

type AgentOperation = AgentSettings['operation']

/** What every agent operation reads: `project-id` is required. */
function agentCommon(
  operation: AgentOperation,
  inputs: InputsOf<AgentOperation>,
  common: CommonSettings,
  context: RuleContext
): AgentCommon {
  if (context.text('project-id') === undefined) context.problem(`\`project-id\` is required for \`${operation}\`.`)
  return { ...common, projectId: inputs['project-id'] ?? '' }
}

/** The agent's instruction: `prompt`, else the comment after `comment-command`; one of them is required. */
function promptOf(
  operation: AgentOperation,
  inputs: InputsOf<'agent' | 'agent-message' | 'agent-create'>,
  common: CommonSettings,
  context: RuleContext
): PromptSource | undefined {
  if (inputs.prompt !== undefined) return { from: 'input', text: inputs.prompt }
  if (common.commentCommand !== undefined) return { from: 'comment', command: common.commentCommand }
  const fromComment = isCommentEvent(context.eventName) ? ', unless `comment-command` takes it from the comment' : ''
  context.problem(`\`prompt\` is required for \`${operation}\` (at least one non-blank character)${fromComment}.`)
  return undefined
}

/** The agent job: `job-id`, else on a comment the one recorded on the pull request; one of them is required. */
function jobOf(
  operation: AgentOperation,
  inputs: InputsOf<'agent-message' | 'agent-status'>,
  context: RuleContext
): JobSource | undefined {
  if (inputs['job-id'] !== undefined) return { from: 'input', id: inputs['job-id'] }
  // On a comment the job may be the one recorded on the pull request; only the run can tell.
  if (isCommentEvent(context.eventName)) return { from: 'pull-request' }
  // One given but refused has its own problem already. (Comments exist only in a workflow: the CLI has no event.)
  if (context.text('job-id') !== undefined) return undefined
  const fromComment =
    context.eventName === undefined
      ? ''
      : ' (on a pull-request comment it may come from the job recorded on the pull request)'
  context.problem(`\`job-id\` is required for \`${operation}\`${fromComment}.`)
  return undefined
}

/** `agent`: an instruction; `job-id` only overrides the job the pull request records. */
function conversationSettings(inputs: InputsOf<'agent'>, common: CommonSettings, context: RuleContext) {
  const agent = agentCommon('agent', inputs, common, context)
  const prompt = promptOf('agent', inputs, common, context)
  return prompt && { ...agent, operation: 'agent' as const, jobId: inputs['job-id'], prompt }
}

/** `agent-message`: a job and an instruction. */
function messageSettings(inputs: InputsOf<'agent-message'>, common: CommonSettings, context: RuleContext) {
  const agent = agentCommon('agent-message', inputs, common, context)
  const jobId = jobOf('agent-message', inputs, context)
  const prompt = promptOf('agent-message', inputs, common, context)
  return jobId && prompt && { ...agent, operation: 'agent-message' as const, jobId, prompt }
}

/** `agent-status`: a job. */
function statusSettings(inputs: InputsOf<'agent-status'>, common: CommonSettings, context: RuleContext) {
  const agent = agentCommon('agent-status', inputs, common, context)
  const jobId = jobOf('agent-status', inputs, context)
  return jobId && { ...agent, operation: 'agent-status' as const, jobId }
}

/** `agent-create`: an instruction. */
function createSettings(inputs: InputsOf<'agent-create'>, common: CommonSettings, context: RuleContext) {
  const agent = agentCommon('agent-create', inputs, common, context)
  const prompt = promptOf('agent-create', inputs, common, context)
  return prompt && { ...agent, operation: 'agent-create' as const, prompt }
}
