/**
 * Hostile runs, shared by the fuzz tests (in-process, on the accelerated clock) and the soak
 * (dist/index.js, in real time): random fault schedules for every route of the service and the
 * storage, random inputs, and the promises every run must keep whatever happens. One list of
 * invariants, so the two can never check different things.
 */
import { createHash } from 'node:crypto'
import { mkdir, readFile, readdir, stat, writeFile } from 'node:fs/promises'
import * as path from 'node:path'
import fc from 'fast-check'
import { fixtureSiteEntries } from '../../simulator/archives.js'
import type { Fault, RouteName, Simulator, SimulatorOptions } from '../../simulator/server.js'
import { readSummary } from './github-summary.js'
import { OWN_COMMANDS, runnerCommand, runnerLines } from './runner.js'

export type Operation = 'export' | 'agent-message' | 'deploy'

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
const DEPLOY_ROUTES: RouteName[] = ['deploy-trigger', 'deploy-status']
/** The routes of each operation, and the one of them that creates something (sent again only when surely not taken). */
const ROUTES: Record<Operation, { all: RouteName[]; once: RouteName }> = {
  export: { all: EXPORT_ROUTES, once: 'export-start' },
  'agent-message': { all: AGENT_ROUTES, once: 'agent-message' },
  deploy: { all: DEPLOY_ROUTES, once: 'deploy-trigger' }
}
/** The statuses each operation succeeds with. */
const SUCCESS: Record<Operation, string[]> = {
  export: ['completed'],
  'agent-message': ['completed', 'archived'],
  deploy: ['success']
}

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
            hostileText.map((error) => ({ error }))
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
        faults: fc.array(faultArbitrary(ROUTES[operation].all, pace), { maxLength: 4 }),
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
    exportJob: { durationMs: pace.jobMs, queuedMs: 0 },
    agent: { durationMs: pace.jobMs },
    deployment: { durationMs: pace.jobMs, queuedMs: 0 },
    bundle: { format: scenario.format }
  }
}

/** The inputs of a run against `sim`: the scenario's, plus what points it at the simulator. */
export function scenarioInputs(scenario: Scenario, sim: Simulator): Record<string, string> {
  const common = { 'api-key': sim.apiKey, 'base-url': sim.apiUrl, path: 'site', ...scenario.inputs }
  if (scenario.operation === 'export') return { operation: 'export', domain: 'docs.acme.com', ...common }
  if (scenario.operation === 'deploy') return { operation: 'deploy', 'project-id': 'proj_123', ...common }
  return {
    operation: 'agent-message',
    'project-id': 'proj_123',
    'job-id': 'job_abc',
    prompt: 'Fix the typo',
    ...common
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
  const { once } = ROUTES[o.scenario.operation]
  const sent = o.sim.requests.filter((request) => request.route === once)
  for (let i = 1; i < sent.length; i++) {
    const previous = sent[i - 1]?.status ?? 0
    if (previous !== 429 && previous !== 503) broken.push(`${once} sent again after an answer ${previous || '(none)'}`)
  }

  // No secret nor signature where it does not belong.
  const secrets = [o.sim.apiKey]
  for (const link of o.sim.issuedLinks) {
    const query = new URL(link).searchParams
    for (const name of ['X-Amz-Signature', 'X-Amz-Credential']) {
      const value = query.get(name)
      if (value) secrets.push(value, encodeURIComponent(value))
    }
  }
  const places: Array<[string, string]> = [
    ['the log', o.log],
    ['the summary', o.summary],
    ...Object.entries(o.outputs)
      .filter(([name]) => name !== 'bundle-url' && name !== 'helm-values')
      .map(([name, value]): [string, string] => [`output ${name}`, value])
  ]
  for (const [where, text] of places)
    if (secrets.some((secret) => text.includes(secret))) broken.push(`a secret in ${where}`)

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
  if (!failed && !SUCCESS[o.scenario.operation].includes(o.outputs.status ?? '')) {
    broken.push(`succeeded with status ${o.outputs.status}`)
  }
  const allowedTop = new Set([
    'site',
    'runner-temp',
    ...(!failed && o.scenario.inputs['helm-values-file'] ? ['values.yaml'] : [])
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

function sameSnapshot(a: Snapshot, b: Snapshot): boolean {
  return a.size === b.size && [...a].every(([name, kind]) => b.get(name) === kind)
}
