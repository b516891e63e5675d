/**
 * Hostile runs, shared by the fuzz tests (in-process, on the accelerated clock) and the soak
 * (dist/index.js, in real time): random fault schedules for every route of the service, the
 * storage and GitHub, random inputs, and the promises every run must keep whatever happens. One
 * list of invariants, so the two can never check different things. A comment conversation
 * (`agent`) is run twice, as a workflow run and its rerun, with the faults shared between them.
 */
import { createHash } from 'node:crypto'
import { mkdir, readFile, readdir, stat, writeFile } from 'node:fs/promises'
import * as path from 'node:path'
import fc from 'fast-check'
import { fixtureSiteEntries } from '../../simulator/archives.js'
import type { Fault, RouteName, Simulator, SimulatorOptions } from '../../simulator/server.js'
import { readReplyMarker } from '../../src/reply/rerun-state.js'
import { REPLY_MARKER } from '../../src/github/markers.js'
import { REPO, issueCommentEvent } from './events.js'
import { readSummary } from './github-summary.js'
import { OWN_COMMANDS, maskedByRunner, runnerCommand, runnerLines } from './runner.js'

/** `agent`: the comment conversation, run as a workflow run and then its rerun. */
export type Operation = 'export' | 'agent-message' | 'agent' | 'deploy'

export interface Scenario {
  operation: Operation
  faults: Fault[]
  format: 'tar.gz' | 'zip' | 'tar'
  inputs: Record<string, string>
  /** `path` holds an earlier site before the run. */
  earlierSite: boolean
}

/** How fast things go where the runs happen: clock ms (in-process) or real ms (dist). */
export interface Pace {
  timeouts: string[]
  pollIntervals: string[]
  /** Export and agent jobs take this long. */
  jobMs: number
  /** Between two bytes of a trickled body (always real ms: the simulator writes in real time). */
  trickleMs: [number, number]
}

const EXPORT_ROUTES: RouteName[] = ['export-start', 'export-status', 'export-bundle', 'download']
const AGENT_ROUTES: RouteName[] = ['agent-message', 'agent-get']
const CONVERSATION_ROUTES: RouteName[] = [
  'agent-create',
  'agent-get',
  'github-permission',
  'github-comments',
  'github-comment',
  'github-comment-edit',
  'github-reaction'
]
const DEPLOY_ROUTES: RouteName[] = ['deploy-trigger', 'deploy-status']
const ROUTES: Record<Operation, RouteName[]> = {
  export: EXPORT_ROUTES,
  'agent-message': AGENT_ROUTES,
  agent: CONVERSATION_ROUTES,
  deploy: DEPLOY_ROUTES
}
/** The statuses each operation succeeds with. */
const SUCCESS: Record<Operation, string[]> = {
  export: ['completed'],
  'agent-message': ['completed', 'archived'],
  agent: ['completed', 'archived'],
  deploy: ['success']
}

/** The key every scenario's simulator takes: long and distinct, so that any 8 characters of it in a text are a leak. */
export const SCENARIO_API_KEY = 'dsk_live_Q7w9ZkX2vB4nM8pL3rT6yH1jD5fG0sAe'
export const SCENARIO_GITHUB_TOKEN = 'ghs_9Zq4Xv7Lk2Pw8Rt5Yn3Bm6Hd1Jf0ScU'
/** The workflow run of a conversation, and the comment that starts it. */
const RUN_ID = '4242'
const COMMAND = '/docs-agent Fix the typo on the install page'
/**
 * What the best-effort GitHub calls that let the reply say how the run ended may take past
 * `timeout` in all (SECURITY.md): the allowance of a conversation on top of a run's own slack.
 */
export const LAST_WORDS_MS = 25_000

/** Text a hostile or broken service might send where a word is expected. */
const hostileText = fc.constantFrom(
  '::stop-commands::pwned',
  'running\n::set-output name=bundle-url::https://evil.example',
  'queued\r::add-mask::Export',
  'failed\u2028::warning::spoofed',
  'done ##[set-output name=status;]completed',
  '##[add-mask]Export',
  '@octocat please',
  '\u0000\u001b[31mred\u202e',
  'x'.repeat(10_000),
  ''
)

/** The key quoted where a cut of someone else's text falls (120 and 300 characters, 4,000 in a reply, 64 Ki). */
const keyEcho = fc
  .constantFrom(100, 115, 118, 280, 295, 298, 3990, 65_520)
  .map((at) => `${'x'.repeat(at)}${SCENARIO_API_KEY} and after it ${'y'.repeat(200)}`)

const oddValue = fc.oneof(
  hostileText,
  fc.constantFrom<unknown>(undefined, null, 1e308, -1, 0, 12.5, '1e308', 'NaN', true, [], {}, [1, 2])
)

/** 5 MiB of JSON: past the cap on an answer. */
const OVERSIZED = { status: 'running', pad: 'x'.repeat(5 * 1024 * 1024) }

function faultArbitrary(routes: RouteName[], pace: Pace): fc.Arbitrary<Fault> {
  const route = fc.constantFrom(...routes)
  const times = fc.integer({ min: 1, max: 3 })
  const processed = fc.boolean()
  const retryAfter = fc.option(
    fc.constantFrom('0', '1', '-1', 'soon', '600', '99999999999', 'Wed, 21 Oct 2015 07:28:00 GMT', '0.5'),
    { nil: undefined }
  )
  const status = fc.constantFrom(400, 401, 403, 404, 408, 409, 429, 500, 502, 503, 504)
  const kinds: Array<fc.WeightedArbitrary<Omit<Fault, 'route'>>> = [
    {
      weight: 4,
      arbitrary: fc.record({
        status,
        retryAfter,
        process: processed,
        body: fc.option(
          fc.oneof(
            hostileText,
            hostileText.map((error) => ({ error })),
            keyEcho,
            keyEcho.map((error) => ({ error }))
          ),
          { nil: undefined }
        )
      })
    },
    { weight: 1, arbitrary: fc.record({ drop: fc.constant(true), process: processed }) },
    { weight: 2, arbitrary: fc.record({ truncateAt: fc.integer({ min: 0, max: 300 }), process: processed }) },
    { weight: 1, arbitrary: fc.record({ stallAt: fc.integer({ min: 0, max: 300 }) }) },
    { weight: 1, arbitrary: fc.record({ hang: fc.constant(true), process: processed }) },
    { weight: 1, arbitrary: fc.record({ trickleMs: fc.integer({ min: pace.trickleMs[0], max: pace.trickleMs[1] }) }) },
    // The answer of the request made (its status kept), its body cut short, empty or an HTML page.
    { weight: 2, arbitrary: fc.record({ answer: fc.constantFrom('cut' as const, 'empty' as const, 'html' as const) }) },
    {
      weight: 2,
      arbitrary: fc.record({
        status: fc.constant(200),
        body: fc.constantFrom<unknown>(
          '{"jobId": "exp_',
          'OK',
          '<html>login</html>',
          '',
          '[]',
          'null',
          '"text"',
          OVERSIZED
        )
      })
    },

    {
      weight: 3,
      arbitrary: fc.record({
        patch: fc.dictionary(
          fc.constantFrom(
            'status',
            'jobId',
            'progress',
            'pageCount',
            'bundleUrl',
            'expiresAt',
            'sizeBytes',
            'error',
            'id',
            'prLink',
            'statusId',
            'summary',
            'logs',
            'commit'
          ),
          oddValue,
          {
            maxKeys: 3
          }
        )
      })
    },
    {
      weight: 1,
      arbitrary: fc.record({
        patch: fc.record({
          bundleUrl: fc.constantFrom(
            'http://169.254.169.254/latest/meta-data/',
            'https://10.0.0.1/x.zip',
            'ftp://x/y',
            'not a link',
            'http://[::1]:1/x'
          )
        })
      })
    },
    {
      weight: 1,
      arbitrary: fc.record({
        status: fc.constantFrom(301, 302, 307),
        headers: fc.constantFrom<Record<string, string>>(
          { location: 'http://169.254.169.254/x' },
          { location: 'https://127.0.0.1:1/x' },
          {}
        )
      })
    }
  ]
  const anyRoute = fc
    .tuple(route, times, fc.oneof(...kinds))
    .map(([r, n, fault]) => ({ route: r, times: n, ...fault }) as Fault)
  // Text where the log shows it: the status answers.
  const statusText = fc.record({
    route: fc.constantFrom(...routes.filter((name) => ['export-status', 'agent-get', 'deploy-status'].includes(name))),
    times: fc.integer({ min: 1, max: 3 }),
    patch: fc.record(
      {
        status: hostileText,
        error: hostileText,
        id: hostileText,
        summary: hostileText,
        logs: fc.array(hostileText, { maxLength: 3 }),
        commit: fc.record({
          sha: hostileText,
          ref: hostileText,
          message: hostileText,
          filesChanged: fc.record({ added: fc.array(hostileText, { maxLength: 2 }) })
        })
      },
      { requiredKeys: ['status'] }
    )
  })
  return fc.oneof({ weight: 4, arbitrary: anyRoute }, { weight: 1, arbitrary: statusText as fc.Arbitrary<Fault> })
}

export function scenarioArbitrary(pace: Pace, operations: Operation[] = ['export']): fc.Arbitrary<Scenario> {
  return fc.constantFrom(...operations).chain((operation) =>
    fc
      .record({
        operation: fc.constant(operation),
        faults: fc.array(faultArbitrary(ROUTES[operation], pace), { maxLength: operation === 'agent' ? 6 : 4 }),
        format: fc.constantFrom('tar.gz' as const, 'zip' as const, 'tar' as const),
        earlierSite: fc.boolean(),
        inputs: fc.record({
          timeout: fc.constantFrom(...pace.timeouts),
          'poll-interval': fc.constantFrom(...pace.pollIntervals),
          extract: fc.constantFrom('true', 'true', 'false'),
          helm: fc.boolean()
        })
      })
      .map(({ inputs: { helm, ...inputs }, ...rest }) => ({
        ...rest,
        inputs: {
          ...inputs,
          'max-poll-interval': inputs['poll-interval'],
          ...(helm && operation === 'export' ? { 'helm-values-file': 'values.yaml' } : {})
        }
      }))
  )
}

/** The simulator for a scenario: jobs that take `pace.jobMs`, the bundle in the scenario's format. */
export function simulatorOptions(scenario: Scenario, pace: Pace): SimulatorOptions {
  return {
    apiKey: SCENARIO_API_KEY,
    github: { permissions: { octocat: 'write' } },
    exportJob: { durationMs: pace.jobMs, queuedMs: 0 },
    deployment: { durationMs: pace.jobMs, queuedMs: 0 },
    agent: { durationMs: pace.jobMs },
    bundle: { format: scenario.format }
  }
}

/** The inputs of a run against `sim`: the scenario's, plus what points it at the simulator. */
export function scenarioInputs(scenario: Scenario, sim: Simulator): Record<string, string> {
  const common = { 'api-key': sim.apiKey, 'base-url': sim.apiUrl, path: 'site', ...scenario.inputs }
  switch (scenario.operation) {
    case 'export':
      return { operation: 'export', domain: 'docs.acme.com', ...common }
    case 'agent-message':
      return {
        operation: 'agent-message',
        'project-id': 'proj_123',
        'job-id': 'job_abc',
        prompt: 'Fix the typo',
        ...common
      }
    case 'agent':
      return {
        operation: 'agent',
        'project-id': 'proj_123',
        'comment-command': '/docs-agent',
        'github-token': SCENARIO_GITHUB_TOKEN,
        ...common
      }
    case 'deploy':
      return { operation: 'deploy', 'project-id': 'proj_123', ...common }
  }
}

/** How many times a scenario runs: a conversation as a workflow run and then its rerun. */
export function attemptsOf(scenario: Scenario): number {
  return scenario.operation === 'agent' ? 2 : 1
}

/**
 * The event and runner variables of attempt `attempt` (1, 2) of a run against `sim`: for a
 * conversation, the comment on issue #7 and the GitHub fake (`eventFile` says where the payload
 * is written, outside the workspace); for the others, none.
 */
export function scenarioEvent(
  scenario: Scenario,
  sim: Simulator,
  attempt: number
): { event: { name: string; payload: unknown } | undefined; env: Record<string, string> } {
  if (scenario.operation !== 'agent') return { event: undefined, env: {} }
  return {
    event: { name: 'issue_comment', payload: issueCommentEvent(COMMAND) },
    env: {
      GITHUB_REPOSITORY: REPO,
      GITHUB_API_URL: sim.githubApiUrl,
      GITHUB_SERVER_URL: 'https://github.com',
      GITHUB_RUN_ID: RUN_ID,
      GITHUB_RUN_ATTEMPT: String(attempt)
    }
  }
}

/** The workspace of a run: `site` (the `path`, maybe with an earlier site) and the runner's temp folder. */
export async function prepareWorkspace(
  scenario: Scenario,
  workspace: string
): Promise<{ runnerTemp: string; before: Snapshot }> {
  const runnerTemp = path.join(workspace, 'runner-temp')
  await mkdir(runnerTemp, { recursive: true })
  if (scenario.earlierSite) {
    await mkdir(path.join(workspace, 'site', 'old'), { recursive: true })
    await writeFile(path.join(workspace, 'site', 'index.html'), 'the earlier site')
    await writeFile(path.join(workspace, 'site', 'old', 'page.html'), 'an earlier page')
  }
  return { runnerTemp, before: await snapshot(path.join(workspace, 'site')) }
}

/** A folder's content: each path below it, `dir` or the sha256 of the file. */
export type Snapshot = Map<string, string>

export async function snapshot(folder: string): Promise<Snapshot> {
  const found: Snapshot = new Map()
  const entries = await readdir(folder, { recursive: true, withFileTypes: true }).catch(() => [])
  for (const entry of entries) {
    const full = path.join(entry.parentPath, entry.name)
    const relative = path.relative(folder, full).split(path.sep).join('/')
    found.set(relative, entry.isDirectory() ? 'dir' : entry.isFile() ? sha256(await readFile(full)) : 'other')
  }
  return found
}

/** The site the simulator's bundle holds, as a snapshot. */
function expectedSite(): Snapshot {
  const site: Snapshot = new Map()
  for (const entry of fixtureSiteEntries()) {
    const name = entry.name.replace(/\/$/, '')
    site.set(
      name,
      entry.type === 'directory' ? 'dir' : sha256(Buffer.from((entry as { content: string | Buffer }).content))
    )
  }
  return site
}

function sha256(data: Buffer): string {
  return createHash('sha256').update(data).digest('hex')
}

/** What a run left behind and printed, however it was run. */
export interface Observation {
  scenario: Scenario
  sim: Simulator
  /** The failure messages the step gave (`::error::` lines, or the fake host's failure). */
  errors: string[]
  /** An exit code other than 0 and 1, or a signal (dist runs). */
  abnormalExit?: string | undefined
  /** Everything the step printed except its mask registrations. */
  log: string
  /** The values the step registered to be masked: the runner masks them in the log (and only there). */
  masked: readonly string[]
  summary: string
  outputs: Record<string, string>
  /** How long the run took, on the clock `timeout` counts on. */
  elapsedMs: number
  timeoutMs: number
  /** Allowed past `timeout`: 5 s, plus what an accelerated clock makes of real work (disk, CPU). */
  slackMs: number
  workspace: string
  runnerTemp: string
  /** The process's own temp folder (TMPDIR), which must stay empty. */
  processTemp?: string | undefined
  before: Snapshot
}

/** Every promise the run broke, in words; empty when it kept them all. */
export async function violations(o: Observation): Promise<string[]> {
  const broken: string[] = []
  const failed = o.errors.length > 0
  if (o.abnormalExit !== undefined) broken.push(`the process ended abnormally (${o.abnormalExit})`)
  if (o.errors.length > 1) broken.push(`more than one error: ${JSON.stringify(o.errors)}`)
  for (const error of o.errors) {
    if (error.trim() === '') broken.push('an empty error message')
    const jobId = o.outputs['job-id']
    if (jobId && !error.includes(jobId)) broken.push(`the error does not name job ${jobId}: ${error}`)
  }
  const smuggled = runnerLines(o.log)
    .map(runnerCommand)
    .filter((name) => name !== undefined && !OWN_COMMANDS.has(name))
  if (smuggled.length > 0) broken.push(`workflow commands from outside in the log: ${smuggled.join(', ')}`)
  // The summary is HTML throughout: no text in it makes GitHub read a part of it as Markdown.
  const markdown = readSummary(o.summary).markdownBlocks
  if (markdown.length > 0)
    broken.push(`a part of the summary that GitHub reads as Markdown: ${JSON.stringify(markdown)}`)
  if (/^\s*at .+:\d+:\d+\)?$/m.test(o.log) || /(\n|%0A)\s+at .+:\d+:\d+/.test(o.log))
    broken.push('a stack trace in the log')
  if (o.elapsedMs > o.timeoutMs + o.slackMs)
    broken.push(`the run took ${Math.round(o.elapsedMs)} ms, timeout ${o.timeoutMs} ms`)

  // Outputs carry sane figures only.
  const progress = o.outputs.progress
  if (progress !== undefined && progress !== '' && !(Number(progress) >= 0 && Number(progress) <= 100))
    broken.push(`progress output ${progress}`)
  const pages = o.outputs['page-count']
  if (pages !== undefined && pages !== '' && !/^\d+$/.test(pages)) broken.push(`page-count output ${pages}`)

  // A once-only POST is sent again only after an answer that says it was not processed.
  // (A rerun may send it again after a refusal: a 4xx other than 408 says the service did not take it.)
  const once = ONCE_ROUTE[o.scenario.operation]
  const sent = o.sim.requests.filter((request) => request.route === once)
  for (let i = 1; i < sent.length; i++) {
    const previous = sent[i - 1]?.status ?? 0
    if (!surelyNotTaken(previous)) broken.push(`${once} sent again after an answer ${previous || '(none)'}`)
  }

  // No secret nor signature where it does not belong: not even a part of one (8 characters).
  const secrets = [o.sim.apiKey, SCENARIO_GITHUB_TOKEN]
  for (const link of o.sim.issuedLinks) {
    const query = new URL(link).searchParams
    for (const name of ['X-Amz-Signature', 'X-Amz-Credential']) {
      const value = query.get(name)
      if (value) secrets.push(value, encodeURIComponent(value))
    }
  }
  const comments = [...o.sim.github.threads.values()].flatMap((thread) =>
    thread.comments.flatMap((comment) =>
      comment.history.map((body): [string, string] => [`comment ${comment.id}`, body])
    )
  )
  // The runner masks what the step registered in its log, errors included; nothing else.
  const places: Array<[string, string]> = [
    ['the log', maskedByRunner(o.log, o.masked)],
    ...o.errors.map((error): [string, string] => ['the error', maskedByRunner(error, o.masked)]),
    ['the summary', o.summary],
    ...comments,
    ...Object.entries(o.outputs)
      .filter(([name]) => name !== 'bundle-url' && name !== 'helm-values')
      .map(([name, value]): [string, string] => [`output ${name}`, value])
  ]
  const parts = secrets.flatMap((secret) =>
    secret.length < 8 ? [secret] : Array.from({ length: secret.length - 7 }, (_, at) => secret.slice(at, at + 8))
  )
  for (const [where, text] of places) if (parts.some((part) => text.includes(part))) broken.push(`a secret in ${where}`)

  // `path` holds the new site, or exactly what it held before; nothing else is left anywhere.
  const site = await snapshot(path.join(o.workspace, 'site'))
  const extract = o.scenario.inputs.extract !== 'false'
  if (failed || o.scenario.operation !== 'export') {
    if (!sameSnapshot(site, o.before)) broken.push('`path` changed though the run failed')
  } else if (extract) {
    if (!sameSnapshot(site, expectedSite())) broken.push('the site in `path` is not the one in the bundle')
  } else {
    // `path` is replaced whole by the folder of the archive.
    const archive = path.basename(o.outputs['bundle-path'] ?? '')
    if (site.size !== 1 || site.get(archive) !== o.outputs['bundle-sha256'])
      broken.push(`\`path\` holds more or less than the archive: ${[...site.keys()]}`)
  }
  if (!failed && o.scenario.operation === 'export') broken.push(...(await successOutputs(o)))
  if (!failed && o.scenario.operation !== 'export' && !SUCCESS[o.scenario.operation].includes(o.outputs.status ?? '')) {
    broken.push(`succeeded with status ${o.outputs.status}`)
  }
  const allowedTop = new Set([
    'site',
    'runner-temp',
    ...(!failed && o.scenario.inputs['helm-values-file'] ? ['values.yaml'] : []),
    // The record beside `path` that an export wrote it (a run that only starts or follows a job writes none).
    ...(!failed && o.scenario.operation === 'export' ? ['.site.exported'] : [])
  ])
  for (const name of await readdir(o.workspace)) if (!allowedTop.has(name)) broken.push(`left ${name} in the workspace`)
  const kept = o.outputs['bundle-path']
  for (const [name, kind] of await snapshot(o.runnerTemp)) {
    const full = path.join(o.runnerTemp, name)
    if (kind !== 'dir' && !(!failed && extract && full === kept)) broken.push(`left runner-temp/${name}`)
  }
  if (o.processTemp !== undefined)
    for (const name of await readdir(o.processTemp)) broken.push(`left ${name} in the process's temp folder`)
  return broken
}

/** A successful export: its outputs describe what is on disk. */
async function successOutputs(o: Observation): Promise<string[]> {
  const broken: string[] = []
  if (o.outputs.status !== 'completed') broken.push(`succeeded with status ${o.outputs.status}`)
  if (!o.sim.exportJobs.has(o.outputs['job-id'] ?? '')) broken.push(`job-id ${o.outputs['job-id']} is no job`)
  const archive = o.outputs['bundle-path'] ?? ''
  const bytes = await readFile(archive).catch(() => undefined)
  if (bytes === undefined) broken.push(`no archive at bundle-path ${archive}`)
  else {
    if (o.outputs['bundle-sha256'] !== sha256(bytes)) broken.push('bundle-sha256 is not the archive’s')
    if (o.outputs['bundle-size'] !== String(bytes.length)) broken.push('bundle-size is not the archive’s')
  }
  if (!o.sim.issuedLinks.includes(o.outputs['bundle-url'] ?? '')) broken.push('bundle-url is no link the service gave')
  if (o.scenario.inputs['helm-values-file']) {
    const values = await readFile(path.join(o.workspace, 'values.yaml'), 'utf8').catch(() => '')
    if (values !== o.outputs['helm-values'] || !values.includes(JSON.stringify(o.outputs['bundle-url'])))
      broken.push('the Helm values are not the link’s')
  }
  if ((await stat(path.join(o.workspace, 'site')).catch(() => undefined)) === undefined) broken.push('no `path` folder')
  return broken
}

/** The request that creates something, which is never sent twice unless the service surely did not take it. */
const ONCE_ROUTE: Record<Operation, RouteName> = {
  export: 'export-start',
  'agent-message': 'agent-message',
  agent: 'agent-create',
  deploy: 'deploy-trigger'
}

/**
 * An answer that says the service did not take the request: busy (429, 503), or a refusal (a 4xx
 * but 408). A redirect (a 3xx, which the action does not follow) may follow acting on it.
 */
function surelyNotTaken(status: number): boolean {
  return status === 503 || (status >= 400 && status < 500 && status !== 408)
}

/**
 * The promises a conversation keeps across its workflow run and the rerun (the requests of the
 * rerun start at `rerunFrom` in `sim.requests`): one reply at most, and no request to the service
 * in an attempt before GitHub answered its permission read.
 */
export function conversationViolations(sim: Simulator, rerunFrom: number): string[] {
  const broken: string[] = []
  const replies = (sim.github.threads.get(`${REPO}#7`)?.comments ?? []).filter(
    (comment) => REPLY_MARKER.test(comment.body) && readReplyMarker(comment.body)?.run === RUN_ID
  )
  if (replies.length > 1) broken.push(`${replies.length} replies to one command`)
  for (const [attempt, requests] of [sim.requests.slice(0, rerunFrom), sim.requests.slice(rerunFrom)].entries()) {
    const service = requests.findIndex((request) => request.origin === 'api')
    const permitted = requests.findIndex((request) => request.route === 'github-permission' && request.status === 200)
    if (service >= 0 && (permitted < 0 || permitted > service))
      broken.push(`attempt ${attempt + 1} asked the service before GitHub told the commenter's permission`)
  }
  return broken
}

function sameSnapshot(a: Snapshot, b: Snapshot): boolean {
  return a.size === b.size && [...a].every(([name, kind]) => b.get(name) === kind)
}
