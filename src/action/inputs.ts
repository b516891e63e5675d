/**
 * Every input of the action: its default (as action.yml declares it), what it means, which
 * operations read it, and its kind: the parser that turns its text into the value a flow uses
 * (see input-kinds.ts). action.yml and docs/reference.md are held to this table by a test, and the CLI's
 * flags and help are made from it, so the four never drift apart. Where the action's wording
 * speaks of the workflow (the workspace, the runner's folders, the step, the log's masking, comment
 * events), `cli` says what the CLI's help says instead; everywhere else the help shows `description`.
 */
import * as kind from './input-kinds.js'

export const OPERATIONS = [
  'export',
  'agent',
  'agent-message',
  'agent-status',
  'agent-create',
  'deploy',
  'preview',
  'automation'
] as const
export type Operation = (typeof OPERATIONS)[number]

interface InputSpec {
  description: string
  /** The CLI's wording, only where `description` does not fit a command line. */
  cli?: string
  /** The operations that read it. */
  for: 'all' | readonly Operation[]
  default?: string
  /** Its kind: called with its text (trimmed, or its default), never when it has neither. */
  parse: kind.Parse<unknown>
}

/** Repository permissions, weakest first (GitHub's roles). */
export const PERMISSION_LEVELS = ['none', 'read', 'triage', 'write', 'maintain', 'admin'] as const
export type PermissionLevel = (typeof PERMISSION_LEVELS)[number]
/** No job runs longer than a few days (five on a self-hosted runner): a longer bound is a typo. */
const LONGEST_TIMEOUT = '168h'
/** A day between two status checks is as long as waiting makes sense. */
const LONGEST_INTERVAL = '24h'

/** What the action's and the CLI's wording of an input share, where the rest differs. */
const DURATIONS = '`250ms`, `90s`, `15m`, `1h`, or plain seconds (decimals allowed)'
const SIZES = '`500m`, `2g`, or bytes (k, m, g, t are powers of 1024)'
/** The fixed part of the archive's bound (see site/ledger.ts archiveBound; a test holds this to it). */
const ARCHIVE_ALLOWANCE = "1,040 MiB, whatever it holds (room for 1,000,000 entries' headers at 1 KiB each, and 64 MiB)"

export const INPUTS = {
  operation: {
    description:
      'What to do: `export`, `deploy` (trigger a deployment and follow it), `preview` (a preview deployment of a ' +
      'branch), `automation` (run a scheduled automation now), `agent` (the comment conversation), ' +
      '`agent-message`, `agent-status` or `agent-create`.',
    parse: kind.oneOf(OPERATIONS),
    for: 'all'
  },
  'api-key': {
    description:
      'Mintlify admin API key (`mint_...`), from the API keys page of the dashboard (organization settings). ' +
      'Keep it in a secret. Masked in the log at once.',
    cli: 'Mintlify admin API key (`mint_...`), from the API keys page of the dashboard; redacted in the log.',
    parse: kind.headerSecret,
    for: 'all'
  },
  'base-url': {
    description:
      "Base address of Mintlify's admin API. A self-hosted deployment gives its own; it may carry a path prefix " +
      '(`https://gw.acme.com/docs-api`). `https://` only, except for loopback hosts. Given empty (an unset ' +
      'variable), the step fails rather than send the key to the default.',
    cli:
      "Base address of Mintlify's admin API. A self-hosted deployment gives its own; it may carry a path prefix " +
      '(`https://gw.acme.com/docs-api`). `https://` only, except for loopback hosts. Given empty (an unset ' +
      'variable), the run fails rather than send the key to the default.',
    parse: kind.apiBaseUrl,
    for: 'all',
    default: 'https://api.mintlify.com'
  },
  domain: {
    description:
      'Docs site to export, as a bare hostname (`docs.acme.com`). Required for `export` unless `job-id` is given.',
    parse: kind.hostname,
    for: ['export']
  },
  'job-id': {
    description:
      '`export`: reuse this export job (skip the start call). `deploy`, `preview`: follow this deployment (its ' +
      'status id) instead of triggering one. Agent operations: the agent job; on a pull-request comment it ' +
      'defaults to the job recorded on the pull request.',
    cli:
      '`export`: reuse this export job (skip the start call). `deploy`, `preview`: follow this deployment (its ' +
      'status id) instead of triggering one. `agent-message`, `agent-status`: the agent job (required). `agent`: ' +
      'the job to send the instruction to; without it, a new job is created.',
    parse: kind.segment,
    for: ['export', 'deploy', 'preview', 'agent', 'agent-message', 'agent-status']
  },
  'docs-version': {
    description: 'Sent as `version` in the export start request when set.',
    parse: kind.text,
    for: ['export']
  },
  paths: {
    description: 'Newline-separated page paths to export, sent as `paths` in the export start request when set.',
    cli:
      'A page path to export; repeat the flag for more (`--paths /a --paths /b`). Sent as `paths` in the export ' +
      'start request when set.',
    parse: kind.lines,
    for: ['export']
  },
  wait: {
    description: 'Poll until the job ends. `false`: start it, set `job-id`, and stop.',
    cli: 'Poll until the job ends. `false`: start it, print its `job-id`, and stop.',
    parse: kind.flag,
    for: 'all',
    default: 'true'
  },
  timeout: {
    description: `Bound on the whole step (waiting, requests, download): ${DURATIONS}.`,
    cli: `Bound on the whole run (waiting, requests, download): ${DURATIONS}.`,
    parse: kind.duration(LONGEST_TIMEOUT, '1m'),
    for: 'all',
    default: '30m'
  },
  'poll-interval': {
    description: 'First wait between status polls, and the shortest; later waits are 15% of the time waited.',
    parse: kind.duration(LONGEST_INTERVAL),
    for: 'all',
    default: '5s'
  },
  'max-poll-interval': {
    description: 'Longest wait between status polls.',
    parse: kind.duration(LONGEST_INTERVAL),
    for: 'all',
    default: '60s'
  },
  path: {
    description:
      'Folder for the unpacked site (or for the archive when `extract` is false), relative to the workspace or ' +
      'absolute. Replaced whole by each export, so it must be a folder of its own: not the workspace or a parent ' +
      'of it, not in `.git`, not a runner folder (temp, tool cache, home) or a parent of one, not a git ' +
      'checkout. Judged on the real path, before any request.',
    cli:
      'Folder for the unpacked site (or for the archive when `--extract` is false), relative to the current folder ' +
      'or absolute. Replaced whole by each export, so it must be a folder of its own: not the current folder or a ' +
      'parent of it, not in `.git`, not the temp folder or the home folder or a parent of one, not a git checkout. ' +
      'Judged on the real path, before any request.',
    parse: kind.ownFolder,
    for: ['export'],
    default: 'static-export'
  },
  download: {
    description: '`false`: only generate the bundle link (`bundle-url`), do not download it.',
    parse: kind.flag,
    for: ['export'],
    default: 'true'
  },
  extract: {
    description: '`false`: keep the archive file inside `path` instead of unpacking it.',
    parse: kind.flag,
    for: ['export'],
    default: 'true'
  },
  'max-site-size': {
    description:
      `Bound on what the archive may unpack to: ${SIZES}; the archive itself (also when \`extract\` is false) may ` +
      `take at most twice that plus ${ARCHIVE_ALLOWANCE}. Past either the step fails and \`path\` is left as it was.`,
    cli:
      `Bound on what the archive may unpack to: ${SIZES}; the archive itself (also when \`--extract\` is false) ` +
      `may take at most twice that plus ${ARCHIVE_ALLOWANCE}. Past either the run fails and \`--path\` is left as ` +
      `it was.`,
    parse: kind.size,
    for: ['export'],
    default: '5g'
  },
  verify: {
    description:
      'Check the unpacked site before it replaces the old one: an `index.html`, at least the pages the job ' +
      'reported, internal links that lead to files. `true`: warn, but fail and keep the old site if the bundle ' +
      'has no page at all; `strict`: fail and keep the old site on any finding; `false`: skip.',
    parse: kind.verifyMode,
    for: ['export'],
    default: 'true'
  },
  'export-version': {
    description: 'Value of `staticExport.version` in the Helm values.',
    parse: kind.text,
    for: ['export']
  },
  'helm-values-file': {
    description:
      'Write `staticExport: {enabled: true, bundleUrl, version}` as YAML to this file (overwritten). Without ' +
      '`helm-bundle-url` it holds the link and its signature, a credential: never commit it. Not a folder, nor ' +
      "in `.git`, `path` or the runner's own files and folders, nor a dotfile of the home folder; judged on the " +
      'real path, before any request.',
    cli:
      'Write `staticExport: {enabled: true, bundleUrl, version}` as YAML to this file (overwritten). Without ' +
      '`--helm-bundle-url` it holds the link and its signature, a credential: never commit it. Not a folder, nor ' +
      'in `.git` or `--path`, nor a dotfile of the home folder; judged on the real path, before any request.',
    parse: kind.ownFile,
    for: ['export']
  },
  'helm-bundle-url': {
    description:
      'The address the Helm values give as `bundleUrl` instead of the presigned link, which expires: a durable ' +
      'copy of the bundle that the workflow puts in place (see Deploying the site).',
    cli:
      'The address the Helm values give as `bundleUrl` instead of the presigned link, which expires: a durable ' +
      'copy of the bundle that your pipeline puts in place (see docs/deploying-the-site.md).',
    parse: kind.absoluteUrl,
    for: ['export']
  },
  'project-id': {
    description:
      'Project identifier (shown on the API keys page of the dashboard). Required for agent operations, ' +
      '`preview` and `automation`, and for `deploy` unless `job-id` is given.',
    parse: kind.segment,
    for: ['agent', 'agent-message', 'agent-status', 'agent-create', 'deploy', 'preview', 'automation']
  },
  'automation-id': {
    description:
      '`automation`: the automation to run now (required), as the dashboard shows it: letters, digits, `_` and ' +
      '`-` only. It must be active and on a custom schedule.',
    parse: kind.plainId,
    for: ['automation']
  },
  prompt: {
    description:
      'Instruction for the agent (`agent`, where a comment does not give it; `agent-message`, `agent-create`); ' +
      'at least one non-blank character.',
    cli: 'Instruction for the agent (`agent`, `agent-message`, `agent-create`); at least one non-blank character.',
    parse: kind.text,
    for: ['agent', 'agent-message', 'agent-create']
  },
  'comment-command': {
    description:
      'E.g. `/docs-agent`. On a comment event, whatever the operation, only a comment starting with it runs; for ' +
      'the agent operations the rest of the comment is the prompt when `prompt` is empty. Other comments: ' +
      '`skipped=true`, success.',
    parse: kind.text,
    for: 'all'
  },
  'comment-permission': {
    description:
      "On a comment event, whatever the operation: the least permission on the repository the comment's author " +
      'needs (`none`, `read`, `triage`, `write`, `maintain`, `admin`). Others: `skipped=true`, nothing sent.',
    parse: kind.oneOf(PERMISSION_LEVELS, 'admin'),
    for: 'all',
    default: 'write'
  },
  'github-token': {
    description:
      "Token for the GitHub API: on a comment event the comment author's permission (every operation); for the " +
      'agent operations the reaction and progress comment, and the record of the job on the pull request it ' +
      'opens.',
    cli:
      "Token for the GitHub API, to record the job on the pull request the agent opens (a comment by the token's " +
      'user), as the action does; none: nothing is written to GitHub.',
    parse: kind.headerSecret,
    for: 'all',
    default: '${{ github.token }}'
  },
  branch: {
    description:
      '`preview`: the branch to preview. Default: on `pull_request` and `pull_request_target` the pull ' +
      "request's head branch, on a push to a branch that branch; otherwise required.",
    cli: '`preview`: the branch to preview (required).',
    parse: kind.printable,
    for: ['preview']
  },
  'preview-comment': {
    description:
      '`preview`, on a pull-request event: keep one comment on the pull request with the preview link and its ' +
      'state, edited on every run and push.',
    parse: kind.flag,
    for: ['preview'],
    default: 'true'
  },
  'github-environment': {
    description:
      '`preview`: also record a GitHub deployment of the head commit in this environment (e.g. `docs-preview`), ' +
      "so that the preview's link shows in the pull request's merge box. Needs `permissions: deployments: write`.",
    parse: kind.printable,
    for: ['preview']
  },
  'comment-reply': {
    description:
      'On a comment event, whatever the operation: react to the command at once, and keep one reply up to date ' +
      "with the job's status, link or error. Its hidden marker keeps a rerun of the workflow run from asking the " +
      'service again; with `false`, a rerun asks for nothing but a read.',
    parse: kind.flag,
    for: 'all',
    default: 'true'
  }
} as const satisfies Record<string, InputSpec>

export type InputName = keyof typeof INPUTS

type Spec<K extends InputName> = (typeof INPUTS)[K]
type Parsed<K extends InputName> = ReturnType<Spec<K>['parse']>
/**
 * An input's value as its kind makes it; undefined when it has neither a text nor a default (an
 * expression such as `${{ github.token }}` is the runner's default, not one the code knows).
 */
export type InputValue<K extends InputName> =
  Spec<K> extends { default: `$${string}` }
    ? Parsed<K> | undefined
    : Spec<K> extends { default: string }
      ? Parsed<K>
      : Parsed<K> | undefined

/** The values of the inputs that every operation of `O` reads (by their `for`). */
export type InputsOf<O extends Operation> = {
  readonly [
    K in InputName as Spec<K>['for'] extends readonly (infer U)[] ? ([O] extends [U] ? K : never) : K
  ]: InputValue<K>
}

/** The default action.yml declares; undefined for none (and for `${{ ... }}` expressions the runner fills in). */
export function defaultOf(name: InputName): string | undefined {
  const spec: InputSpec = INPUTS[name]
  return spec.default === undefined || spec.default.startsWith('${{') ? undefined : spec.default
}

export function readBy(name: InputName, operation: Operation): boolean {
  const spec: InputSpec = INPUTS[name]
  return spec.for === 'all' || spec.for.includes(operation)
}

/** Inputs whose values are secrets: masked before anything else happens. */
export const SECRET_INPUTS = ['api-key', 'github-token'] as const satisfies readonly InputName[]
