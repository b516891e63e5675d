/**
 * The one validation pass: every input read and checked at once, into one type per operation, so
 * a flow never sees a value it would have to check or cast again. Pure: no I/O.
 */
import * as path from 'node:path'
import { InputError } from '../common/errors.js'
import { isPlainSegment } from '../common/path-segment.js'
import { parseDuration, parseSize } from '../common/units.js'
import { isCommentEvent } from './event.js'
import { type InputName, OPERATIONS, defaultOf } from './inputs.js'
import { type GuardedFolder, fileProblem, folderProblem } from './path-guard.js'

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

/** Repository permissions, weakest first (GitHub's roles). */
export const PERMISSION_LEVELS = ['none', 'read', 'triage', 'write', 'maintain', 'admin'] as const
export type PermissionLevel = (typeof PERMISSION_LEVELS)[number]

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
export type Settings = ExportSettings | AgentSettings | DeploySettings

/** Reads one input's raw value ('' when unset), as @actions/core's getInput does. */
export type InputReader = (name: InputName) => string

export interface ReadContext {
  /** The folder relative paths are resolved against (GITHUB_WORKSPACE). */
  workspace: string
  /** The event that started the run (GITHUB_EVENT_NAME): on a comment, the job may come from the pull request. */
  eventName: string | undefined
  /** Called for problems that are fixed up rather than refused. */
  warn: (message: string) => void
}

/** No job runs longer than a few days (five on a self-hosted runner): a longer bound is a typo. */
const LONGEST_TIMEOUT = { ms: 168 * 3_600_000, as: '168h' }
/** A day between two status checks is as long as waiting makes sense. */
const LONGEST_INTERVAL = { ms: 24 * 3_600_000, as: '24h' }
const TRUE_WORDS = new Set(['true', 'True', 'TRUE'])
const FALSE_WORDS = new Set(['false', 'False', 'FALSE'])
const LOOPBACK_HOSTS = /^(localhost|127(\.\d{1,3}){3}|\[::1\])$/i
const HOSTNAME_LABEL = /^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/

/**
 * Reads and checks every input, and throws one ActionError that lists every problem found, so a
 * user fixes a workflow in one round rather than one error per run.
 */
export function readSettings(read: InputReader, context: ReadContext): Settings {
  const problems: string[] = []
  const value = (name: InputName): string | undefined => {
    const raw = read(name).trim()
    if (raw !== '') return raw
    return defaultOf(name)
  }
  const required = (name: InputName, why = 'is required'): string => {
    const found = value(name)
    if (found === undefined) problems.push(`\`${name}\` ${why}.`)
    return found ?? ''
  }
  const flag = (name: InputName): boolean => {
    const raw = value(name) ?? 'false'
    if (TRUE_WORDS.has(raw)) return true
    if (!FALSE_WORDS.has(raw)) problems.push(`\`${name}\` must be \`true\` or \`false\`, not \`${raw}\`.`)
    return false
  }
  const duration = (name: InputName, most: { ms: number; as: string }): number => {
    const raw = value(name) ?? ''
    const ms = parseDuration(raw)
    if (ms === undefined || ms <= 0) {
      problems.push(
        `\`${name}\` must be a positive duration such as \`250ms\`, \`90s\`, \`15m\`, \`1h\` or plain seconds, ` +
          `not \`${raw}\`.`
      )
      return 1
    }
    if (ms > most.ms) {
      problems.push(`\`${name}\` must be at most \`${most.as}\`, not \`${raw}\`.`)
      return most.ms
    }
    return ms
  }
  const size = (name: InputName): number => {
    const raw = value(name) ?? ''
    const bytes = parseSize(raw)
    if (bytes === undefined && parseSize(raw.replace(/\d+/, '1')) !== undefined) {
      // A size, but more bytes than a number holds exactly (~8 PiB): no site is that large.
      problems.push(`\`${name}\` must be less than 8 PiB (\`8192t\`), not \`${raw}\`.`)
      return 1
    }
    if (bytes === undefined || bytes <= 0) {
      problems.push(`\`${name}\` must be a positive size such as \`500m\`, \`2g\` or plain bytes, not \`${raw}\`.`)
      return 1
    }
    return bytes
  }
  const segment = (name: InputName): string | undefined => checkSegment(name, value(name), problems)

  const operationText = required('operation')
  const operation = OPERATIONS.find((known) => known === operationText)
  if (operationText !== '' && !operation) {
    problems.push(`\`operation\` must be one of ${codeList(OPERATIONS)}, not \`${operationText}\`.`)
  }
  const apiKey = required('api-key')
  checkHeaderValue('api-key', apiKey, problems)
  const baseUrl = checkBaseUrl(required('base-url'), problems)
  const wait = flag('wait')
  const timeoutMs = duration('timeout', LONGEST_TIMEOUT)
  const problemsBeforeIntervals = problems.length
  const pollIntervalMs = duration('poll-interval', LONGEST_INTERVAL)
  const maxPollIntervalMs = duration('max-poll-interval', LONGEST_INTERVAL)
  // Compared only when both are durations: a bad one has its own problem already.
  if (problems.length === problemsBeforeIntervals && maxPollIntervalMs < pollIntervalMs) {
    problems.push(
      `\`max-poll-interval\` (${value('max-poll-interval')}) must not be shorter than \`poll-interval\` ` +
        `(${value('poll-interval')}): ` +
        `raise \`max-poll-interval\` too (its default is \`${defaultOf('max-poll-interval')}\`).`
    )
  }
  const commentCommand = value('comment-command')
  const common: CommonSettings = {
    apiKey,
    baseUrl,
    wait,
    timeoutMs,
    pollIntervalMs,
    maxPollIntervalMs,
    commentCommand,
    commentPermission: permissionLevel(value('comment-permission') ?? '', problems),
    githubToken: value('github-token'),
    commentReply: flag('comment-reply')
  }
  checkHeaderValue('github-token', common.githubToken, problems)

  let settings: Settings | undefined
  if (operation === 'export') {
    const jobId = segment('job-id')
    const domainText = value('domain')
    const domain = domainText === undefined ? undefined : checkDomain(domainText, problems, context.warn)
    const sitePath = checkFolder('path', value('path') ?? '', context.workspace, problems)
    const download = flag('download')
    const exportCommon: ExportCommon = {
      ...common,
      operation,
      path: sitePath,
      download,
      extract: flag('extract'),
      maxSiteBytes: size('max-site-size'),
      verify: verifyMode(value('verify') ?? 'true', problems),
      exportVersion: value('export-version'),
      helmValuesFile: checkFile(
        'helm-values-file',
        value('helm-values-file'),
        context.workspace,
        problems,
        download ? [{ path: sitePath, name: '`path`, which each export replaces whole' }] : []
      ),
      helmBundleUrl: absoluteUrl('helm-bundle-url', value('helm-bundle-url'), problems)
    }
    // Inputs that would change nothing are said to, rather than dropped without a word.
    if (jobId !== undefined) {
      const ignored = (['docs-version', 'paths'] as const).filter((name) => value(name) !== undefined)
      if (ignored.length > 0)
        context.warn(`${codeList(ignored, ' and ')} only shape a new export; \`job-id\` reuses one as it was started.`)
    }
    if (exportCommon.verify === 'strict' && !exportCommon.extract)
      context.warn('`verify: strict` checks an unpacked site; with `extract: false` nothing is unpacked or checked.')
    const helmInputs = (['helm-values-file', 'helm-bundle-url', 'export-version'] as const).filter(
      (name) => value(name) !== undefined
    )
    if (!exportCommon.wait && helmInputs.length > 0) {
      context.warn(
        `${codeList(helmInputs)} shape the Helm values, written once the bundle link exists; with \`wait: ` +
          `false\` the run stops before that.`
      )
    }
    if (jobId !== undefined) settings = { ...exportCommon, jobId, domain }
    else if (domain !== undefined)
      settings = { ...exportCommon, domain, docsVersion: value('docs-version'), paths: splitLines(value('paths')) }
    // A `job-id` given but refused has its own problem already: `domain` was not asked for.
    else if (domainText === undefined && value('job-id') === undefined)
      problems.push('`domain` is required unless `job-id` names an existing export job.')
  } else if (operation === 'deploy') {
    const projectId = segment('project-id')
    const jobId = segment('job-id')
    if (jobId !== undefined) settings = { ...common, operation, jobId, projectId }
    else if (projectId !== undefined) settings = { ...common, operation, projectId }
    // One given but refused has its own problem already.
    else if (value('project-id') === undefined && value('job-id') === undefined)
      problems.push('`project-id` is required for `deploy` unless `job-id` names a deployment to follow.')
  } else if (operation !== undefined) {
    const agentCommon: AgentCommon = {
      ...common,
      projectId: segment('project-id') ?? ''
    }
    if (value('project-id') === undefined) problems.push(`\`project-id\` is required for \`${operation}\`.`)
    const jobIdText = segment('job-id')
    // On a comment the job may be the one recorded on the pull request; only the run can tell.
    const jobId: JobSource | undefined =
      jobIdText !== undefined
        ? { from: 'input', id: jobIdText }
        : isCommentEvent(context.eventName)
          ? { from: 'pull-request' }
          : undefined
    if (
      jobId === undefined &&
      (operation === 'agent-message' || operation === 'agent-status') &&
      value('job-id') === undefined
    ) {
      // (Comments exist only in a workflow: the CLI has no event.)
      const fromComment =
        context.eventName === undefined
          ? ''
          : ' (on a pull-request comment it may come from the job recorded on the pull request)'
      problems.push(`\`job-id\` is required for \`${operation}\`${fromComment}.`)
    }
    const promptText = read('prompt').trim()
    const prompt: PromptSource | undefined =
      promptText !== ''
        ? { from: 'input', text: promptText }
        : commentCommand !== undefined
          ? { from: 'comment', command: commentCommand }
          : undefined
    if (operation !== 'agent-status' && prompt === undefined) {
      const fromComment = isCommentEvent(context.eventName)
        ? ', unless `comment-command` takes it from the comment'
        : ''
      problems.push(`\`prompt\` is required for \`${operation}\` (at least one non-blank character)${fromComment}.`)
    }
    if (operation === 'agent' && prompt !== undefined)
      settings = { ...agentCommon, operation, jobId: jobIdText, prompt }
    else if (operation === 'agent-create' && prompt !== undefined) settings = { ...agentCommon, operation, prompt }
    else if (operation === 'agent-message' && jobId !== undefined && prompt !== undefined)
      settings = { ...agentCommon, operation, jobId, prompt }
    else if (operation === 'agent-status' && jobId !== undefined) settings = { ...agentCommon, operation, jobId }
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
 * A DNS hostname: dot-separated labels of letters, digits and inner hyphens, each at most 63
 * characters, 253 in all. (Checked label by label: one regex with bounded repeats costs a few
 * milliseconds to compile at every start.)
 */
function isHostname(host: string): boolean {
  return host.length <= 253 && host.split('.').every((label) => label.length <= 63 && HOSTNAME_LABEL.test(label))
}

function checkBaseUrl(text: string, problems: string[]): string {
  if (text === '') return ''
  let url: URL
  try {
    url = new URL(text)
  } catch {
    problems.push(`\`base-url\` must be an absolute address such as \`https://api.example.com\`, not \`${text}\`.`)
    return ''
  }
  const loopback = LOOPBACK_HOSTS.test(url.hostname)
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && loopback)) {
    problems.push(
      '`base-url` must use `https://` (`http://` is allowed only for 127.0.0.1, ::1 and localhost): the API key ' +
        'must not travel in clear text.'
    )
  }
  if (url.username || url.password)
    problems.push('`base-url` must not carry a user name or password; the API key goes in `api-key`.')
  if (url.search || url.hash) problems.push('`base-url` must not carry a query or fragment.')
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`
}

/** A docs site as a bare hostname; a URL of the site's root is accepted with a warning. */
function checkDomain(text: string, problems: string[], warn: (message: string) => void): string | undefined {
  let host = text.toLowerCase()
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(text)) {
    let url: URL | undefined
    try {
      url = new URL(text)
    } catch {
      url = undefined
    }
    if (
      !url ||
      !/^https?:$/.test(url.protocol) ||
      url.port ||
      url.username ||
      url.password ||
      url.search ||
      url.hash ||
      url.pathname !== '/'
    ) {
      problems.push(`\`domain\` must be a bare hostname such as \`docs.acme.com\`, not \`${text}\`.`)
      return undefined
    }
    host = url.hostname
    warn(`\`domain\` should be a bare hostname: using \`${host}\` for \`${text}\`.`)
  }
  if (!isHostname(host)) {
    problems.push(`\`domain\` must be a bare hostname such as \`docs.acme.com\`, not \`${text}\`.`)
    return undefined
  }
  return host
}

function verifyMode(text: string, problems: string[]): ExportCommon['verify'] {
  if (TRUE_WORDS.has(text)) return 'warn'
  if (FALSE_WORDS.has(text)) return 'off'
  if (text === 'strict') return 'strict'
  problems.push(`\`verify\` must be \`true\`, \`false\` or \`strict\`, not \`${text}\`.`)
  return 'warn'
}

/** An address a deployment can fetch: absolute, with a scheme (https, or the storage's own such as s3). */
function absoluteUrl(name: InputName, text: string | undefined, problems: string[]): string | undefined {
  if (text === undefined) return undefined
  if (/\s/.test(text) || !URL.canParse(text) || !/^[a-z][a-z0-9+.-]*:\/\/./i.test(text)) {
    problems.push(
      `\`${name}\` must be an absolute address such as \`https://downloads.acme.com/docs/bundle.tar.gz\`, not ` +
        `\`${text}\`.`
    )
    return undefined
  }
  return text
}

function permissionLevel(text: string, problems: string[]): PermissionLevel {
  const level = PERMISSION_LEVELS.find((known) => known === text)
  if (level !== undefined) return level
  problems.push(`\`comment-permission\` must be one of ${codeList(PERMISSION_LEVELS)}, not \`${text}\`.`)
  return 'admin'
}

/**
 * A secret that travels in an HTTP header. Node refuses a line break, another control character
 * or a character outside Latin-1 there only as it builds the request, and a request that failed
 * that late cannot tell whether it was sent: refused here, before any request. Its value is not
 * repeated: it is a secret.
 */
function checkHeaderValue(name: InputName, text: string | undefined, problems: string[]): void {
  if (text !== undefined && /[^\t\x20-\x7e\x80-\xff]/.test(text))
    problems.push(
      `\`${name}\` holds a line break, a control character or a character outside Latin-1, which no HTTP header ` +
        `can carry: check the secret's value.`
    )
}

/** An identifier that becomes one path segment of an API address. */
function checkSegment(name: InputName, text: string | undefined, problems: string[]): string | undefined {
  if (text === undefined) return undefined
  if (!isPlainSegment(text)) {
    problems.push(`\`${name}\` must be a plain identifier (no \`/\`, not \`.\` or \`..\`), not \`${text}\`.`)
    return undefined
  }
  return text
}

/** Names as the code spans of a message: `` `a`, `b` ``. */
function codeList(names: readonly string[], separator = ', '): string {
  return names.map((name) => `\`${name}\``).join(separator)
}

function splitLines(text: string | undefined): string[] | undefined {
  const lines = (text ?? '')
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '')
  return lines.length > 0 ? lines : undefined
}

/**
 * A file the export writes (the Helm values), judged as written before any request: a file's
 * name, not a folder's (`.`, a trailing `/`), nor a path in `.git` or in `guarded` (the export's
 * pre-flight judges the real path, and what is on the disk there).
 */
function checkFile(
  name: InputName,
  text: string | undefined,
  workspace: string,
  problems: string[],
  guarded: GuardedFolder[]
): string | undefined {
  if (text === undefined) return undefined
  const file = path.resolve(workspace, text)
  const last = text.split(/[\\/]/).at(-1) ?? ''
  const problem =
    last === '' || last === '.' || last === '..' ? 'names a folder, not a file' : fileProblem(file, guarded)
  if (problem !== undefined) problems.push(`\`${name}\` must be a file of its own, not \`${text}\`, which ${problem}.`)
  return file
}

/**
 * The site folder is replaced whole on success, so it must never be the workspace, one of its
 * parents, the file system root, or inside a `.git` folder. (The export's pre-flight judges the
 * real path against the runner's folders too.)
 */
function checkFolder(name: InputName, text: string, workspace: string, problems: string[]): string {
  const folder = path.resolve(workspace, text)
  const problem = folderProblem(folder, [{ path: path.resolve(workspace), name: 'the workspace' }])
  if (problem !== undefined)
    problems.push(
      `\`${name}\` must be a folder of its own (it is replaced by each export), not \`${text}\`, which ${problem}.`
    )
  return folder
}
