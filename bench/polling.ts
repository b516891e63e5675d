/**
 * Polling benchmark: the action's poller against the service's template loop (a status GET every
 * 10 s, giving up after 60 polls) on simulated export jobs, on a virtual clock (runs in seconds).
 *
 *   npx tsx bench/polling.ts            # 25 seeds
 *   npx tsx bench/polling.ts --short    # 5 seeds, for CI
 *
 * Each job is a function of virtual time: 'queued' for 2 s, then 'running' until its duration,
 * then 'completed'. Progress (integers, Math.floor) is linear, has a stall (0->40 over the first
 * quarter of the run, stuck at 40 for the middle half, then 75->100), or is absent.
 * The action runs with its defaults: initial 5 s, max 60 s, timeout 30 min (60 min for the
 * 45-min job, which would otherwise time out by construction). Lag = time from the job's
 * completion to the poll that sees it.
 */
import { pathToFileURL } from 'node:url'
import { ActionError } from '../src/common/errors.js'
import { followJob } from '../src/follow/follow-job.js'
import type { PollSettings } from '../src/follow/schedule.js'
import { virtualClock } from '../test/support/clock.js'

type Mode = 'linear' | 'stalls' | 'absent'
interface JobStatus {
  status: string
  progress?: number
}

const QUEUED_MS = 2_000
const SECOND = 1_000
const MINUTE = 60 * SECOND

const DURATIONS = [30 * SECOND, 3 * MINUTE, 10 * MINUTE, 45 * MINUTE] as const
const MODES: readonly Mode[] = ['linear', 'stalls', 'absent']

const DEFAULTS: PollSettings & { timeoutMs: number } = { initialIntervalMs: 5 * SECOND, maxIntervalMs: 60 * SECOND, timeoutMs: 30 * MINUTE }
const BASELINE_INTERVAL_MS = 10 * SECOND
const BASELINE_MAX_POLLS = 60
const REQUEST_RATIO_TARGET = 0.3
const LAG_FRACTION_TARGET = 0.05
const SHORT_JOB_LAG_TARGET_MS = 2 * SECOND

/** A simulated export job: its status as a function of the time since it was started. */
export function simulatedJob(durationMs: number, mode: Mode): (t: number) => JobStatus {
  return (t) => {
    if (t >= durationMs) return mode === 'absent' ? { status: 'completed' } : { status: 'completed', progress: 100 }
    if (t < QUEUED_MS) return { status: 'queued' }
    if (mode === 'absent') return { status: 'running' }
    const f = (t - QUEUED_MS) / (durationMs - QUEUED_MS)
    const exact = mode === 'linear' ? 100 * f : f < 0.25 ? 160 * f : f < 0.75 ? 40 : 75 + 100 * (f - 0.75)
    return { status: 'running', progress: Math.floor(exact) }
  }
}

interface RunOutcome {
  requests: number
  /** undefined when the loop gave up. */
  lagMs: number | undefined
}

/** The service's template loop: sleep 10 s, GET, up to 60 times. */
function runBaseline(job: (t: number) => JobStatus, durationMs: number): RunOutcome {
  for (let i = 1; i <= BASELINE_MAX_POLLS; i++) {
    const t = i * BASELINE_INTERVAL_MS
    if (job(t).status === 'completed') return { requests: i, lagMs: t - durationMs }
  }
  return { requests: BASELINE_MAX_POLLS, lagMs: undefined }
}

const TERMINAL = new Set(['completed', 'failed'])
const quiet = { debug: () => {}, info: () => {}, warning: () => {}, notice: () => {}, progress: () => {}, group: <T>(_title: string, fn: () => Promise<T>) => fn() }

/** The action's own follower on a virtual clock. */
async function runAction(job: (t: number) => JobStatus, durationMs: number, settings: PollSettings & { timeoutMs: number }, seed: number): Promise<RunOutcome> {
  const clock = virtualClock({ seed })
  let requests = 0
  try {
    await followJob({
      name: 'Export job bench',
      check: async () => (requests++, job(clock.now())),
      read: (s) => ({ status: s.status, progress: s.progress, summary: s.status }),
      terminal: TERMINAL,
      known: TERMINAL,
      checkFirst: false,
      initialIntervalMs: settings.initialIntervalMs,
      maxIntervalMs: settings.maxIntervalMs,
      startedAt: 0,
      timeoutMs: settings.timeoutMs,
      jobStartedAt: 0,
      resumeHint: '',
      clock,
      log: quiet
    })
    return { requests, lagMs: clock.now() - durationMs }
  } catch (error) {
    if (error instanceof ActionError) return { requests, lagMs: undefined }
    throw error
  }
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  const mid = Math.floor(sorted.length / 2)
  return sorted.length % 2 === 1 ? (sorted[mid] ?? NaN) : ((sorted[mid - 1] ?? NaN) + (sorted[mid] ?? NaN)) / 2
}

export interface PollingBenchRow {
  mode: Mode
  durationMs: number
  timeoutMs: number
  baselineRequests: number
  baselineLagMs: number | undefined
  baselineGaveUp: boolean
  /** Over the seeds. */
  actionRequests: { median: number; min: number; max: number }
  actionLagMs: { median: number; max: number } | undefined
  actionGaveUp: number
  ratio: number
  lagPercent: number | undefined
  requestTargetApplies: boolean
  requestTargetMet: boolean
  lagTargetMet: boolean
  noEarlyGiveUp: boolean
  /** Why a target cannot be met under the defaults, when that is provable. */
  outOfReach: string | undefined
}

export interface PollingBenchResult {
  rows: PollingBenchRow[]
  /** Strict reading: every case meets every target. */
  targetsMet: { requests: boolean; lag: boolean; neverGivesUpEarly: boolean; all: boolean }
  /** Aggregate reading: totals and medians over the cases. */
  aggregate: {
    /** Sum of action requests / sum of baseline requests, jobs >= 3 min. */
    requestRatio: number
    /** The same without the cases where the request target is provably out of reach. */
    requestRatioReachable: number
    /** Median over the cases of (median lag / duration), jobs >= 3 min. */
    medianLagPercent: number
    /** Median over the 30 s cases of the median lag. */
    shortJobMedianLagMs: number
  }
  markdown: string
}

/**
 * Bounds that hold for any schedule that keeps the blind rules whenever there is no usable
 * progress (waits of at least initialIntervalMs at first, at most maxIntervalMs): during the
 * job's whole run when progress is absent, during the stall otherwise.
 */
function provablyOutOfReach(mode: Mode, durationMs: number, baselineRequests: number, settings: PollSettings & { timeoutMs: number }): string | undefined {
  const reasons: string[] = []
  const allowed = REQUEST_RATIO_TARGET * baselineRequests
  const blindWindow = mode === 'absent' ? durationMs : mode === 'stalls' ? 0.5 * (durationMs - QUEUED_MS) : 0
  const minPolls = Math.floor(blindWindow / settings.maxIntervalMs)
  if (durationMs >= 3 * MINUTE && minPolls > allowed) {
    const what = mode === 'absent' ? 'no progress for the whole job' : 'progress stuck for the middle half'
    reasons.push(
      `requests: ${what} (${Math.round(blindWindow / SECOND)} s) at <= ${settings.maxIntervalMs / SECOND} s apart needs >= ${minPolls} polls > ${allowed.toFixed(1)} allowed`
    )
  }
  if (mode === 'absent') {
    // Without progress the end is unknown: averaged over end times, the lag is sum(g^2)/(2 sum(g))
    // >= mean gap / 2, and the mean gap is >= duration / requests (>= initialIntervalMs anyway).
    const meanGap = durationMs >= 3 * MINUTE ? durationMs / allowed : settings.initialIntervalMs
    const lagLimit = durationMs <= 30 * SECOND ? SHORT_JOB_LAG_TARGET_MS : LAG_FRACTION_TARGET * durationMs
    if (meanGap / 2 > lagLimit) {
      const why = durationMs >= 3 * MINUTE ? `${allowed.toFixed(1)} polls over ${formatDuration(durationMs)}` : `blind waits >= ${settings.initialIntervalMs / SECOND} s`
      reasons.push(`lag: no progress, ${why}: expected lag >= ${(meanGap / 2 / SECOND).toFixed(1)} s > ${(lagLimit / SECOND).toFixed(1)} s (short of luck)`)
    }
  }
  return reasons.length === 0 ? undefined : reasons.join('; ')
}

function formatDuration(ms: number): string {
  return ms >= MINUTE ? `${ms / MINUTE} min` : `${ms / SECOND} s`
}

function formatSeconds(ms: number | undefined): string {
  return ms === undefined ? '-' : `${(ms / SECOND).toFixed(1)} s`
}

export async function runPollingBench(options: { seeds?: number; firstSeed?: number } = {}): Promise<PollingBenchResult> {
  const seeds = options.seeds ?? 25
  const firstSeed = options.firstSeed ?? 1
  const rows: PollingBenchRow[] = []
  for (const durationMs of DURATIONS) {
    // The 45-min job gets a 60-min timeout: with the default 30 min it would time out by design.
    const settings = durationMs > DEFAULTS.timeoutMs ? { ...DEFAULTS, timeoutMs: 60 * MINUTE } : DEFAULTS
    for (const mode of MODES) {
      const job = simulatedJob(durationMs, mode)
      const baseline = runBaseline(job, durationMs)
      const outcomes: RunOutcome[] = []
      for (let seed = firstSeed; seed < firstSeed + seeds; seed++) outcomes.push(await runAction(job, durationMs, settings, seed))
      const requests = outcomes.map((o) => o.requests)
      const lags = outcomes.flatMap((o) => (o.lagMs === undefined ? [] : [o.lagMs]))
      const actionGaveUp = outcomes.length - lags.length
      const medianRequests = median(requests)
      const actionLagMs = lags.length === 0 ? undefined : { median: median(lags), max: Math.max(...lags) }
      const lagLimit = durationMs <= 30 * SECOND ? SHORT_JOB_LAG_TARGET_MS : LAG_FRACTION_TARGET * durationMs
      const requestTargetApplies = durationMs >= 3 * MINUTE
      const baselineGaveUp = baseline.lagMs === undefined
      rows.push({
        mode,
        durationMs,
        timeoutMs: settings.timeoutMs,
        baselineRequests: baseline.requests,
        baselineLagMs: baseline.lagMs,
        baselineGaveUp,
        actionRequests: { median: medianRequests, min: Math.min(...requests), max: Math.max(...requests) },
        actionLagMs,
        actionGaveUp,
        ratio: medianRequests / baseline.requests,
        lagPercent: actionLagMs === undefined ? undefined : (100 * actionLagMs.median) / durationMs,
        requestTargetApplies,
        requestTargetMet: !requestTargetApplies || medianRequests <= REQUEST_RATIO_TARGET * baseline.requests,
        lagTargetMet: actionGaveUp === 0 && actionLagMs !== undefined && actionLagMs.median <= lagLimit,
        noEarlyGiveUp: actionGaveUp === 0 || baselineGaveUp,
        outOfReach: provablyOutOfReach(mode, durationMs, baseline.requests, settings)
      })
    }
  }

  const targetsMet = {
    requests: rows.every((r) => r.requestTargetMet),
    lag: rows.every((r) => r.lagTargetMet),
    neverGivesUpEarly: rows.every((r) => r.noEarlyGiveUp),
    all: false
  }
  targetsMet.all = targetsMet.requests && targetsMet.lag && targetsMet.neverGivesUpEarly

  const long = rows.filter((r) => r.requestTargetApplies)
  const ratioOf = (list: PollingBenchRow[]): number =>
    list.reduce((sum, r) => sum + r.actionRequests.median, 0) / list.reduce((sum, r) => sum + r.baselineRequests, 0)
  const aggregate = {
    requestRatio: ratioOf(long),
    requestRatioReachable: ratioOf(long.filter((r) => !r.outOfReach?.startsWith('requests'))),
    medianLagPercent: median(long.map((r) => r.lagPercent ?? Infinity)),
    shortJobMedianLagMs: median(rows.filter((r) => !r.requestTargetApplies).map((r) => r.actionLagMs?.median ?? Infinity))
  }

  const mark = (ok: boolean): string => (ok ? 'yes' : 'NO')
  const lines = [
    `Polling: action (initial 5 s, max 60 s, timeout 30 min; 60 min for the 45-min job) vs baseline (GET every 10 s, give up after 60). ${seeds} seeds; action figures are medians [min-max over seeds].`,
    '',
    '| case | duration | baseline requests | action requests | ratio | baseline lag | action lag (median, max) | lag % of duration | gave up? (baseline / action) |',
    '|---|---|---|---|---|---|---|---|---|'
  ]
  for (const r of rows) {
    const req = `${r.actionRequests.median} [${r.actionRequests.min}-${r.actionRequests.max}]`
    const lag = r.actionLagMs === undefined ? '-' : `${formatSeconds(r.actionLagMs.median)}, ${formatSeconds(r.actionLagMs.max)}`
    const pct = r.lagPercent === undefined ? '-' : `${r.lagPercent.toFixed(1)}%`
    const flags = `${r.requestTargetMet ? '' : ' (!req)'}${r.lagTargetMet ? '' : ' (!lag)'}`
    lines.push(
      `| ${r.mode}${flags} | ${formatDuration(r.durationMs)} | ${r.baselineRequests} | ${req} | ${r.ratio.toFixed(2)}x | ${formatSeconds(r.baselineLagMs)} | ${lag} | ${pct} | ${r.baselineGaveUp ? 'yes' : 'no'} / ${r.actionGaveUp === 0 ? 'no' : `${r.actionGaveUp}/${seeds}`} |`
    )
  }
  lines.push('')
  lines.push(
    `Targets: requests <= ${REQUEST_RATIO_TARGET}x baseline for jobs >= 3 min: ${mark(targetsMet.requests)}; ` +
      `median lag <= 5% of duration (<= 2 s for 30 s): ${mark(targetsMet.lag)}; ` +
      `never gives up early where the baseline would not: ${mark(targetsMet.neverGivesUpEarly)}.`
  )
  const missed = rows.filter((r) => !r.requestTargetMet || !r.lagTargetMet)
  for (const r of missed) {
    const which = [r.requestTargetMet ? '' : 'requests', r.lagTargetMet ? '' : 'lag'].filter(Boolean).join(' and ')
    lines.push(`- missed ${which}: ${r.mode} ${formatDuration(r.durationMs)}${r.outOfReach ? ` — out of reach: ${r.outOfReach}` : ''}`)
  }
  lines.push(
    `Aggregate over the cases: requests ${aggregate.requestRatio.toFixed(2)}x baseline for jobs >= 3 min ` +
      `(${aggregate.requestRatioReachable.toFixed(2)}x without the provably out-of-reach cases), ` +
      `median lag ${aggregate.medianLagPercent.toFixed(1)}% of duration (jobs >= 3 min), ` +
      `${formatSeconds(aggregate.shortJobMedianLagMs)} for the 30 s job.`
  )
  lines.push(
    'Note: every duration is a multiple of 10 s, so the baseline polls exactly at completion (lag 0 by construction).'
  )
  return { rows, targetsMet, aggregate, markdown: lines.join('\n') }
}

const invokedDirectly = process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href
if (invokedDirectly) {
  const short = process.argv.includes('--short')
  const result = await runPollingBench({ seeds: short ? 5 : 25 })
  console.log(result.markdown)
}
