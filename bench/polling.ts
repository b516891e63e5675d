/**
 * Polling, on a virtual clock (runs in a second):
 * - agent-like jobs (no progress) of 40 s, 100 s, 10 and 45 min: the worst silence in the log,
 *   the lag to notice the end and the seconds per status request, of the action's follower and
 *   of the one it had before (bench/polling-before.ts), against the targets (a line at least
 *   every 60 s; an end noticed within max(5 s, 15% of the job's length); at most one request per
 *   5 s on average);
 * - the same agent-like jobs when each status answer takes 58 s: the worst silence;
 * - the action's poller against the service's template loop (a status GET every 10 s, giving up
 *   after 60 polls) on simulated export jobs.
 *
 *   npx tsx bench/polling.ts
 *
 * An agent-like job is 'active' until its length, then 'completed'; each seed takes 0-10 s off
 * the length (so an end falls anywhere between two checks) and draws the follower's jitter.
 *
 * A job is 'queued' for 2 s, then 'running' until its length, then 'completed'. Progress
 * (integers) is linear, has a stall (0->40 over the first quarter of the run, stuck at 40 for the
 * middle half, then 75->100), or is absent. The action runs with its defaults (initial 5 s, max
 * 60 s, timeout 30 min; 60 min for the 45-min job, which would otherwise time out by design).
 *
 * Two sets of jobs:
 * - on the grid: lengths of exactly 30 s, 3, 10 and 45 min, as the earlier benchmark used; kept
 *   for the request counts, to compare with the counts recorded before (TODAY).
 * - off the grid: the same lengths minus 0-10 s drawn per seed, so the baseline's 10 s grid does
 *   not meet the end by construction (on the grid its lag was 0 s every time). Shorter, not
 *   longer: a 10-min job stays within the baseline's 60 polls. Lag = time from the job's end to
 *   the poll that sees it, for both loops, on the same jobs.
 */
import { pathToFileURL } from 'node:url'
import { seededRandom } from '../simulator/random.js'
import { type JobStatus, type PollOutcome, type PollSettings, pollLikeTheAction } from './action-poller.js'
import { median } from './measure.js'
import { pollAsBefore } from './polling-before.js'
import { mark, table } from './report.js'

type Mode = 'linear' | 'stalls' | 'absent'

const SECOND = 1_000
const MINUTE = 60 * SECOND
const QUEUED_MS = 2 * SECOND
const LENGTHS = [30 * SECOND, 3 * MINUTE, 10 * MINUTE, 45 * MINUTE] as const
const MODES: readonly Mode[] = ['linear', 'stalls', 'absent']
const SEEDS = 25

const DEFAULTS: PollSettings = { initialIntervalMs: 5 * SECOND, maxIntervalMs: 60 * SECOND, timeoutMs: 30 * MINUTE }
const AGENT_LENGTHS = [40 * SECOND, 100 * SECOND, 10 * MINUTE, 45 * MINUTE] as const
/** The targets for jobs without progress: the longest silence, the lag's share and floor, the request rate. */
const SILENCE_TARGET_MS = 60 * SECOND
const LAG_SHARE_TARGET = 0.15
const LAG_FLOOR_TARGET_MS = 5 * SECOND
const SECONDS_PER_REQUEST_TARGET = 5
const BASELINE_INTERVAL_MS = 10 * SECOND
const BASELINE_MAX_POLLS = 60
const GRID_OFFSET_MS = 10 * SECOND
/** A status answer this slow left the log quiet for 66.5 s when lines came only between requests. */
const SLOW_ANSWER_MS = 58 * SECOND

/**
 * The action's median status requests per on-grid job, 25 seeds, as the benchmark measured them
 * before the lag bound (docs/benchmarks.md of 2026-11-22), for comparison.
 */
const TODAY: Record<string, number> = {
  'linear 30 s': 3,
  'stalls 30 s': 3,
  'absent 30 s': 3,
  'linear 3 min': 5,
  'stalls 3 min': 7,
  'absent 3 min': 6,
  'linear 10 min': 7,
  'stalls 10 min': 13,
  'absent 10 min': 13,
  'linear 45 min': 10,
  'stalls 45 min': 26,
  'absent 45 min': 48
}

/** A simulated export job: its status as a function of the time since it was started. */
export function simulatedJob(lengthMs: number, mode: Mode): (t: number) => JobStatus {
  return (t) => {
    if (t >= lengthMs) return mode === 'absent' ? { status: 'completed' } : { status: 'completed', progress: 100 }
    if (t < QUEUED_MS) return { status: 'queued' }
    if (mode === 'absent') return { status: 'running' }
    const f = (t - QUEUED_MS) / (lengthMs - QUEUED_MS)
    const exact = mode === 'linear' ? 100 * f : f < 0.25 ? 160 * f : f < 0.75 ? 40 : 75 + 100 * (f - 0.75)
    return { status: 'running', progress: Math.floor(exact) }
  }
}

/** An agent-like job: 'active' from its start until its length, then 'completed'; no progress. */
function agentLikeJob(lengthMs: number): (t: number) => JobStatus {
  return (t) => ({ status: t >= lengthMs ? 'completed' : 'active' })
}

/** What a follow of a job without progress was like for someone reading its log. */
interface Waited {
  /** The longest time between two lines, from the start (the flow's own line) to the end's. */
  silenceMs: number
  /** From the job's end to the check that saw it; undefined when the follower gave up. */
  lagMs: number | undefined
  /** The lag it was allowed: max(5 s, 15% of the job's length). */
  boundMs: number
  /** Time followed per status request. */
  msPerRequest: number
}

function waited(outcome: PollOutcome, lengthMs: number): Waited {
  const lines = [0, ...outcome.lineAtMs].sort((a, b) => a - b)
  const silenceMs = Math.max(...lines.slice(1).map((at, i) => at - (lines[i] ?? 0)))
  const followedMs = outcome.doneAtMs ?? lines.at(-1) ?? 0
  return {
    silenceMs,
    lagMs: outcome.doneAtMs === undefined ? undefined : outcome.doneAtMs - lengthMs,
    boundMs: Math.max(LAG_FLOOR_TARGET_MS, LAG_SHARE_TARGET * lengthMs),
    msPerRequest: followedMs / outcome.requests
  }
}

interface AgentRow {
  name: string
  before: Waited[]
  now: Waited[]
  /** The action's follower when every status answer takes SLOW_ANSWER_MS. */
  slow: Waited[]
}

/** How each follower met the three targets, over every job and seed. */
function verdicts(all: Waited[]): { silence: boolean; lag: boolean; rate: boolean } {
  return {
    silence: all.every((w) => w.silenceMs <= SILENCE_TARGET_MS),
    lag: all.every((w) => w.lagMs !== undefined && w.lagMs <= w.boundMs),
    rate: all.every((w) => w.msPerRequest >= SECONDS_PER_REQUEST_TARGET * SECOND)
  }
}

async function runAgentLike(): Promise<AgentRow[]> {
  const rows: AgentRow[] = []
  for (const nominal of AGENT_LENGTHS) {
    const settings = nominal > DEFAULTS.timeoutMs ? { ...DEFAULTS, timeoutMs: 60 * MINUTE } : DEFAULTS
    const row: AgentRow = { name: `agent-like ${formatLength(nominal)}`, before: [], now: [], slow: [] }
    for (let seed = 1; seed <= SEEDS; seed++) {
      const length = nominal - Math.ceil(seededRandom(20_000 + seed)() * (GRID_OFFSET_MS - 1))
      const job = agentLikeJob(length)
      row.before.push(waited(pollAsBefore(job, settings, seed), length))
      row.now.push(waited(await pollLikeTheAction(job, settings, seed), length))
      const slow = await pollLikeTheAction(job, { ...settings, answerMs: SLOW_ANSWER_MS }, seed)
      row.slow.push(waited(slow, length))
    }
    rows.push(row)
  }
  return rows
}

function renderAgentLike(rows: AgentRow[]): { markdown: string; met: boolean } {
  const seconds = (ms: number): string => `${(ms / SECOND).toFixed(1)} s`
  const worst = (all: Waited[]): string => seconds(Math.max(...all.map((w) => w.silenceMs)))
  const lag = (all: Waited[]): string => {
    const lags = all.flatMap((w) => (w.lagMs === undefined ? [] : [w.lagMs]))
    const gaveUp = all.length - lags.length
    if (lags.length === 0) return `gave up (${gaveUp}/${all.length})`
    const within = all.filter((w) => w.lagMs !== undefined && w.lagMs <= w.boundMs).length
    return `${seconds(median(lags))}, ${seconds(Math.max(...lags))} (${within}/${all.length} within)`
  }
  const rate = (all: Waited[]): string => {
    const each = all.map((w) => w.msPerRequest)
    return `${seconds(median(each))}, ${seconds(Math.min(...each))}`
  }
  const bound = (all: Waited[]): string =>
    `${seconds(Math.min(...all.map((w) => w.boundMs)))}-${seconds(Math.max(...all.map((w) => w.boundMs)))}`
  const body = table(
    [
      'job (-0-10 s)',
      'worst silence, before',
      'worst silence, now',
      'allowed lag',
      'lag (median, max), before',
      'lag (median, max), now',
      's per request (median, min), before',
      's per request (median, min), now',
      `worst silence, answers of ${SLOW_ANSWER_MS / SECOND} s`
    ],
    rows.map((r) => [
      r.name,
      worst(r.before),
      worst(r.now),
      bound(r.now),
      lag(r.before),
      lag(r.now),
      rate(r.before),
      rate(r.now),
      worst(r.slow)
    ])
  )
  const before = verdicts(rows.flatMap((r) => r.before))
  const now = verdicts(rows.flatMap((r) => r.now))
  const slowSilence = rows.every((r) => r.slow.every((w) => w.silenceMs <= SILENCE_TARGET_MS))
  const was = (ok: boolean): string => `(before: ${ok ? 'met' : 'not met'})`
  return {
    markdown: [
      [
        `Jobs that report no progress (agent jobs, deployments), ${SEEDS} seeds: each takes 0-10 s off the length,`,
        "so an end falls anywhere between two checks, and draws the jitter. The action's follower with its defaults",
        '(first wait 5 s, at most 60 s; timeout 30 min, 60 min for the 45-min job), and as it was before (a wait',
        'doubling from 5 s to 60 s, a line only when the status changed). Silence = the longest time between two',
        "lines of the log, from the start to the end's line; lag = from the job's end to the check that saw it;",
        'seconds per request = time followed / status requests. The last column: the same jobs when every status',
        `answer takes ${SLOW_ANSWER_MS / SECOND} s to come.`
      ].join(' '),
      '',
      body,
      '',
      `- Target: a line at least every ${SILENCE_TARGET_MS / SECOND} s of the wait: ` +
        `${mark(now.silence)} ${was(before.silence)}; also with answers of ${SLOW_ANSWER_MS / SECOND} s: ` +
        mark(slowSilence),
      `- Target: the end noticed within max(${LAG_FLOOR_TARGET_MS / SECOND} s, ${100 * LAG_SHARE_TARGET}% ` +
        `of the job's length), every job and seed: ${mark(now.lag)} ${was(before.lag)}`,
      `- Target: on average at most one status request per ${SECONDS_PER_REQUEST_TARGET} s, every job and seed: ` +
        `${mark(now.rate)} ${was(before.rate)}`
    ].join('\n'),
    met: now.silence && now.lag && now.rate && slowSilence
  }
}

interface Outcome {
  requests: number
  /** undefined when the loop gave up. */
  lagMs: number | undefined
  /** The longest time between two lines of the log (the action's only). */
  silenceMs?: number
}

/** The service's template loop: sleep 10 s, GET, up to 60 times. */
function pollLikeTheBaseline(job: (t: number) => JobStatus, lengthMs: number): Outcome {
  for (let i = 1; i <= BASELINE_MAX_POLLS; i++) {
    const t = i * BASELINE_INTERVAL_MS
    if (job(t).status === 'completed') return { requests: i, lagMs: t - lengthMs }
  }
  return { requests: BASELINE_MAX_POLLS, lagMs: undefined }
}

async function pollLikeAction(
  job: (t: number) => JobStatus,
  lengthMs: number,
  settings: PollSettings,
  seed: number
): Promise<Outcome> {
  const outcome = await pollLikeTheAction(job, settings, seed)
  return { ...waited(outcome, lengthMs), requests: outcome.requests }
}

interface Row {
  name: string
  lengthMs: number
  grid: { baseline: number; action: number[]; today: number }
  offGrid: { baseline: Outcome[]; action: Outcome[] }
}

export interface PollingResult {
  markdown: string
  targetsMet: boolean
}

export async function runPollingBench(): Promise<PollingResult> {
  const agent = renderAgentLike(await runAgentLike())
  const rows: Row[] = []
  for (const lengthMs of LENGTHS) {
    const settings = lengthMs > DEFAULTS.timeoutMs ? { ...DEFAULTS, timeoutMs: 60 * MINUTE } : DEFAULTS
    for (const mode of MODES) {
      const name = `${mode} ${formatLength(lengthMs)}`
      const onGrid = simulatedJob(lengthMs, mode)
      const gridAction: number[] = []
      const offGrid: Row['offGrid'] = { baseline: [], action: [] }
      for (let seed = 1; seed <= SEEDS; seed++) {
        gridAction.push((await pollLikeAction(onGrid, lengthMs, settings, seed)).requests)
        // Its own stream for the offset: the action's jitter (seeded by `seed`) stays as it was.
        const length = lengthMs - Math.ceil(seededRandom(10_000 + seed)() * (GRID_OFFSET_MS - 1))
        const job = simulatedJob(length, mode)
        offGrid.baseline.push(pollLikeTheBaseline(job, length))
        offGrid.action.push(await pollLikeAction(job, length, settings, seed))
      }
      const today = TODAY[name]!
      rows.push({
        name,
        lengthMs,
        grid: { baseline: pollLikeTheBaseline(onGrid, lengthMs).requests, action: gridAction, today },
        offGrid
      })
    }
  }
  return { markdown: `${agent.markdown}\n\n${render(rows)}`, targetsMet: agent.met }
}

function render(rows: Row[]): string {
  const seconds = (ms: number): string => `${(ms / SECOND).toFixed(1)} s`
  const spread = (values: number[]): string => `${median(values)} [${Math.min(...values)}-${Math.max(...values)}]`
  const lags = (outcomes: Outcome[]): string => {
    const done = outcomes.flatMap((o) => (o.lagMs === undefined ? [] : [o.lagMs]))
    const gaveUp = outcomes.length - done.length
    if (done.length === 0) return `gave up (${gaveUp}/${outcomes.length})`
    const gaveUpNote = gaveUp > 0 ? `; gave up ${gaveUp}/${outcomes.length}` : ''
    return `${seconds(median(done))}, ${seconds(Math.max(...done))}${gaveUpNote}`
  }
  const requests = table(
    ['job', 'baseline requests', 'action requests before (median)', 'action requests now, median [range]'],
    rows.map((r) => [r.name, String(r.grid.baseline), String(r.grid.today), spread(r.grid.action)])
  )
  const lag = table(
    [
      'job (-0-10 s)',
      'baseline requests',
      'action requests',
      'baseline lag (median, max)',
      'action lag (median, max)',
      'action lag, % of length (median)',
      'action worst silence'
    ],
    rows.map((r) => {
      const done = r.offGrid.action.flatMap((o) => (o.lagMs === undefined ? [] : [o.lagMs / r.lengthMs]))
      return [
        r.name,
        spread(r.offGrid.baseline.map((o) => o.requests)),
        spread(r.offGrid.action.map((o) => o.requests)),
        lags(r.offGrid.baseline),
        lags(r.offGrid.action),
        done.length === 0 ? '-' : `${(100 * median(done)).toFixed(1)}%`,
        seconds(Math.max(...r.offGrid.action.map((o) => o.silenceMs ?? 0)))
      ]
    })
  )
  return [
    [
      "Export jobs. The action's poller (its defaults: first wait 5 s, growing to at most 60 s with the time waited;",
      "timeout 30 min, 60 min for the 45-min job) against the service's template loop (a status GET every",
      `10 s, giving up after 60), on simulated jobs, ${SEEDS} seeds (the action's jitter; off the grid also the job's`,
      'length). A job is queued for 2 s, then running; its progress is linear, stalls at 40% for the middle half, or',
      'is absent.'
    ].join(' '),
    '',
    [
      'Request counts, on job lengths of exactly 30 s, 3, 10 and 45 min (as the earlier benchmark measured them,',
      'for comparison). Whatever its progress says, the action checks as often as noticing an end within 15% of the',
      'time waited takes (above): a job may fail at any moment, which no pace predicts; so those counts rose:'
    ].join(' '),
    '',
    requests,
    '',
    [
      "Lag, on job lengths that do not end on the baseline's 10 s grid (each seed takes 0-10 s off the length; on the",
      "grid the baseline's lag was 0 by construction). Lag = from the job's end to the poll that sees it; the baseline",
      'gives up on the 45-min jobs (60 polls = 10 min):'
    ].join(' '),
    '',
    lag
  ].join('\n')
}

function formatLength(ms: number): string {
  return ms >= MINUTE && ms % MINUTE === 0 ? `${ms / MINUTE} min` : `${ms / SECOND} s`
}

const invokedDirectly = process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href
if (invokedDirectly) console.log((await runPollingBench()).markdown)
