/**
 * Download + unpack: the built action (`node dist/index.js`, started as the runner starts it)
 * against a shell baseline, on the same bundle served over loopback, in rounds that rotate the
 * order, each run into a fresh folder (bench/scratch.ts says when old ones are deleted).
 *
 * - baseline, tar.gz: `curl -s URL | tar -xz -C dir`
 * - baseline, zip:    `curl -s -o file URL && unzip -q file -d dir`
 * - action:           export operation against the fake service (bench/service.ts): start,
 *                     one status poll (the job is complete at once), bundle link, download, unpack
 * - download:         `curl -s -o /dev/null URL`, the download alone, to compare with the rate the
 *                     action logs
 * - unchecked:        the action with `verify: false`, on the cases that measure what the site
 *                     check costs (the 3,000-page bundle: issue target <= 10% of the unpacking)
 *
 * Wall time is spawn to exit, measured by this process, for every tool alike; CPU and peak RSS
 * come from GNU time. The ratio is the median over rounds of action / baseline in that round, so
 * a round disturbed by other work on the machine moves both sides of its ratio.
 */
import { lstat, mkdir, readFile, readdir } from 'node:fs/promises'
import { join } from 'node:path'
import { DIST_ENTRY, parseOutputFile } from '../test/support/runner.js'
import { runnerEnv } from './action-env.js'
import { type Bundle, type BundleSpec, type Format, ensureBundle } from './bundles.js'
import { type Measured, hasGnuTime, measure, median, medianInterval } from './measure.js'
import { formatMiB, formatMs, mark, table } from './report.js'
import { PAUSE_AFTER_DELETE_MS, PROBE, RECOVERED_FACTOR, type Scratch } from './scratch.js'
import { API_KEY, startService, type FakeService } from './service.js'

/** The issue's targets: action wall time / baseline wall time, and the action's peak RSS. */
export const RATIO_TARGET: Record<Format, number> = { 'tar.gz': 0.9, zip: 0.8 }
export const RSS_TARGET_MIB = 120
/** What the site check (verify: true, the default) may add to the action's time on the 3,000-page bundle. */
export const CHECK_COST_TARGET = 0.1
type Tool = 'download' | 'baseline' | 'action' | 'unchecked'

export interface UnpackCase {
  spec: BundleSpec
  format: Format
  rounds: number
  /** Also run the action with `verify: false`, to measure what the site check costs. */
  checkCost?: boolean
}

interface Run extends Measured {
  /**
   * Action only: the download as its log line reports it ("99.7 MiB in 0.2 s (499 MiB/s; waited
   * 1.1 s more for writing and unpacking)"), the time its rate implies, and the time it waited.
   */
  logged?: { text: string; ms: number; waitedMs: number }
  /** Action only: spawn to the arrival of its download request (start-up + API calls + poll wait). */
  beforeDownloadMs?: number
}

export interface UnpackRow {
  bundle: Bundle
  format: Format
  runs: Record<Tool, Run[]>
  /** action / baseline wall time, per round. */
  ratios: number[]
  ratio: number
  ratioMet: boolean
  /** NaN and undefined without GNU time: not measured. */
  actionPeakMiB: number
  rssMet: boolean | undefined
  /** With checkCost: action / unchecked action - 1, per round, and its median. */
  checkCosts?: number[]
  checkCost?: number
}

export interface UnpackResult {
  rows: UnpackRow[]
  markdown: string
  targetsMet: boolean
}

interface UnpackOptions {
  bundleDir: string
  scratch: Scratch
  /** The node binary that runs the action. */
  node: string
  log: (line: string) => void
}

export async function runUnpackBench(cases: UnpackCase[], options: UnpackOptions): Promise<UnpackResult> {
  const rows: UnpackRow[] = []
  for (const c of cases) rows.push(await runCase(c, options))
  const met = rows.every(
    (r) => r.ratioMet && r.rssMet !== false && (r.checkCost === undefined || r.checkCost <= CHECK_COST_TARGET)
  )
  return { rows, markdown: render(rows, options.scratch), targetsMet: met }
}

async function runCase(c: UnpackCase, { bundleDir, scratch, node, log }: UnpackOptions): Promise<UnpackRow> {
  // Generating a bundle (first time only) overlaps the previous case's delete.
  const bundle = await ensureBundle(c.spec, bundleDir, log)
  const archive = bundle.archives[c.format]
  const service = await startService({
    file: archive.file,
    sizeBytes: archive.sizeBytes,
    pages: c.spec.pages,
    extension: c.format
  })
  const name = `${c.spec.label}, ${c.format}`
  try {
    await scratch.openCase(`${c.spec.name}.${c.format}`)
    // Untimed: reads the archive into the page cache and checks the link before any timed run.
    await runTool('download', '', service, bundle, c.format, node)
    const waited = await scratch.settle()
    if (waited > 10_000) log(`  ${name}: waited ${formatMs(waited)} after deleting the previous case's output`)
    const runs: Record<Tool, Run[]> = { download: [], baseline: [], action: [], unchecked: [] }
    const tools: Tool[] =
      c.checkCost === true ? ['download', 'baseline', 'action', 'unchecked'] : ['download', 'baseline', 'action']
    for (let round = 0; round < c.rounds; round++) {
      // Rotating the order: no tool always runs first, or always right after the other's writes.
      const order = tools.map((_, i) => tools[(i + round) % tools.length]!)
      for (const tool of order) {
        const run = await runTool(
          tool,
          tool === 'download' ? '' : await scratch.fresh(tool),
          service,
          bundle,
          c.format,
          node
        )
        runs[tool].push(run)
        log(
          `  ${name}, round ${round + 1}/${c.rounds}: ${tool} ${formatMs(run.wallMs)}${run.peakRssKiB ? `, peak RSS ${formatMiB(run.peakRssKiB * 1024)}` : ''}`
        )
        await scratch.settle()
      }
    }
    const ratios = runs.action.map((a, i) => a.wallMs / runs.baseline[i]!.wallMs)
    const ratio = median(ratios)
    const actionPeakMiB = Math.max(...runs.action.map((r) => r.peakRssKiB ?? NaN)) / 1024
    const checkCosts =
      c.checkCost === true ? runs.action.map((a, i) => a.wallMs / runs.unchecked[i]!.wallMs - 1) : undefined
    return {
      checkCosts,
      checkCost: checkCosts === undefined ? undefined : median(checkCosts),
      bundle,
      format: c.format,
      runs,
      ratios,
      ratio,
      ratioMet: ratio <= RATIO_TARGET[c.format],
      actionPeakMiB,
      rssMet: hasGnuTime ? actionPeakMiB <= RSS_TARGET_MIB : undefined
    }
  } finally {
    await service.close()
    await scratch.retireCase(name)
  }
}

/** One timed run into `dir`, checked: a failed or incomplete run throws, so it cannot look fast. */
async function runTool(
  tool: Tool,
  dir: string,
  service: FakeService,
  bundle: Bundle,
  format: Format,
  node: string
): Promise<Run> {
  const archive = bundle.archives[format]
  const url = service.bundleUrl
  if (tool === 'download') {
    const run = await measure('curl', ['-s', '-o', '/dev/null', '-w', '%{size_download}', url])
    if (run.exitCode !== 0 || Number(run.stdout) !== archive.sizeBytes)
      throw new Error(`curl downloaded ${run.stdout || 'nothing'} of ${archive.sizeBytes} bytes (exit ${run.exitCode})`)
    return run
  }
  const site = join(dir, 'site')
  if (tool === 'baseline') {
    await mkdir(site)
    const script =
      format === 'tar.gz' ? 'curl -s "$1" | tar -xz -C "$2"' : 'curl -s -o "$3" "$1" && unzip -q "$3" -d "$2"'
    const run = await measure('sh', ['-c', script, 'sh', url, site, join(dir, `site.${format}`)])
    if (run.exitCode !== 0)
      throw new Error(`the ${format} baseline failed (exit ${run.exitCode}): ${run.stderr.trim().slice(0, 2000)}`)
    await verifySite(tool, site, bundle)
    return run
  }

  const { env, outputFile } = await runnerEnv(
    {
      operation: 'export',
      'api-key': API_KEY,
      'base-url': service.apiUrl,
      domain: 'docs.example.com',
      path: site,
      'poll-interval': '10ms',
      verify: tool === 'unchecked' ? 'false' : 'true'
    },
    { folder: dir, temp: join(dir, 'runner-temp'), workspace: dir }
  )
  const seen = service.requests.length
  const run = await measure(node, [DIST_ENTRY], { env })
  if (run.exitCode !== 0)
    throw new Error(`the action failed (exit ${run.exitCode}):\n${(run.stdout + run.stderr).trim().slice(-3000)}`)
  const requests = service.requests.slice(seen)
  const count = (route: string): number => requests.filter((r) => r.route === route).length
  // One of each, no retries: a run that needed a second download is not the run being measured.
  if (
    count('export-start') !== 1 ||
    count('export-bundle') !== 1 ||
    count('download') !== 1 ||
    count('unknown') !== 0
  ) {
    throw new Error(
      `the action's requests were not start, status, bundle, download: ${requests.map((r) => r.route).join(', ')}`
    )
  }
  const outputs = parseOutputFile(await readFile(outputFile, 'utf8'))
  if (
    outputs['site-path'] !== site ||
    outputs['bundle-sha256'] !== archive.sha256 ||
    outputs['bundle-size'] !== String(archive.sizeBytes)
  ) {
    throw new Error(`the action's outputs do not match the bundle: ${JSON.stringify(outputs)}`)
  }
  await verifySite(tool, site, bundle)
  // "Downloaded 99.7 MiB in 3.1 s (32.0 MiB/s), sha256 ...": the rate has more digits than the time
  // (tenths of a second), so the logged time is taken as size / rate.
  const logged =
    /Downloaded (.+? in [\d.]+ s \(([\d.]+) (B|KiB|MiB|GiB)\/s(?:; waited ([\d.]+) s more for writing and unpacking)?\))/.exec(
      run.stdout
    )
  if (!logged)
    throw new Error(`the action's log has no "Downloaded ... in ... s (... /s)" line:\n${run.stdout.slice(-2000)}`)
  const bytesPerSecond = Number(logged[2]) * 1024 ** ['B', 'KiB', 'MiB', 'GiB'].indexOf(logged[3]!)
  const download = requests.find((r) => r.route === 'download')!
  return {
    ...run,
    logged: {
      text: logged[1]!,
      ms: (1000 * archive.sizeBytes) / bytesPerSecond,
      waitedMs: 1000 * Number(logged[4] ?? 0)
    },
    beforeDownloadMs: download.at - run.startedAt
  }
}

/** The unpacked site must be the whole bundle: as many regular files, as many bytes. */
async function verifySite(tool: Tool, site: string, bundle: Bundle): Promise<void> {
  let files = 0
  let bytes = 0
  for (const entry of await readdir(site, { withFileTypes: true, recursive: true })) {
    if (entry.isDirectory()) continue
    const stats = await lstat(join(entry.parentPath, entry.name))
    if (!stats.isFile()) throw new Error(`${tool}: ${entry.name} in the site is not a regular file`)
    files++
    bytes += stats.size
  }
  if (files !== bundle.files || bytes !== bundle.unpackedBytes) {
    throw new Error(
      `${tool} left ${files} files of ${bytes} bytes; the bundle has ${bundle.files} files of ${bundle.unpackedBytes} bytes`
    )
  }
}

function percent(fraction: number): string {
  return `${(fraction * 100).toFixed(0)}%`
}

function render(rows: UnpackRow[], scratch: Pick<Scratch, 'deletedEarly' | 'fastestProbeMs'>): string {
  const { deletedEarly, fastestProbeMs } = scratch
  const med = (runs: Run[], pick: (r: Run) => number | undefined): number =>
    median(runs.map(pick).filter((v): v is number => v !== undefined))
  const peak = (runs: Run[]): string =>
    hasGnuTime ? formatMiB(Math.max(...runs.map((r) => r.peakRssKiB ?? 0)) * 1024) : '-'
  /** The largest, and the median beside it: a rare spike sets the first, a typical run the second. */
  const peaks = (runs: Run[]): string =>
    hasGnuTime ? `${peak(runs)} (median ${formatMiB(med(runs, (r) => r.peakRssKiB) * 1024)})` : '-'
  const cpu = (runs: Run[]): string => (hasGnuTime ? formatMs(med(runs, (r) => r.cpuMs)) : '-')
  const label = (r: UnpackRow): string =>
    `${r.bundle.spec.label} (${r.bundle.files.toLocaleString('en-US')} files, ${formatMiB(r.bundle.unpackedBytes)})`
  const rate = (bytes: number, ms: number): string => `${formatMiB((bytes / ms) * 1000)}/s`
  const interval = (values: readonly number[], format: (v: number) => string, unit: string, between = '-'): string => {
    const [low, high] = medianInterval(values)
    return `${format(low)}${between}${format(high)}${unit}`
  }

  const main = table(
    [
      'bundle',
      'format',
      'archive',
      'rounds',
      'baseline',
      'action',
      'action / baseline (median of rounds)',
      "median's 95% interval",
      'target',
      'CPU: baseline / action',
      'peak RSS: baseline / action'
    ],
    rows.map((r) => [
      label(r),
      r.format,
      formatMiB(r.bundle.archives[r.format].sizeBytes),
      String(r.ratios.length),
      formatMs(med(r.runs.baseline, (x) => x.wallMs)),
      formatMs(med(r.runs.action, (x) => x.wallMs)),
      `**${r.ratio.toFixed(2)}x**`,
      interval(r.ratios, (v) => `${v.toFixed(2)}`, 'x'),
      `<= ${RATIO_TARGET[r.format].toFixed(2)}x: ${mark(r.ratioMet)}`,
      `${cpu(r.runs.baseline)} / ${cpu(r.runs.action)}`,
      `${peak(r.runs.baseline)} / ${peaks(r.runs.action)}`
    ])
  )
  const downloads = table(
    [
      'bundle',
      'format',
      '`curl -s -o /dev/null` (download only)',
      'action: logged download',
      'logged time / download-only time',
      'action: logged wait for writing and unpacking',
      'action: spawn to download request',
      'action: whole run'
    ],
    rows.map((r) => {
      const size = r.bundle.archives[r.format].sizeBytes
      const raw = med(r.runs.download, (x) => x.wallMs)
      const logged = med(r.runs.action, (x) => x.logged?.ms)
      return [
        r.bundle.spec.label,
        r.format,
        `${formatMs(raw)} (${rate(size, raw)})`,
        `${formatMs(logged)} (${rate(size, logged)})`,
        `${(logged / raw).toFixed(1)}x`,
        formatMs(med(r.runs.action, (x) => x.logged?.waitedMs)),
        formatMs(med(r.runs.action, (x) => x.beforeDownloadMs)),
        formatMs(med(r.runs.action, (x) => x.wallMs))
      ]
    })
  )

  const lines = [main, '']
  lines.push(
    'Wall times are medians over the rounds, spawn to exit. CPU is user + system time of the whole process tree (for the baselines curl + tar + gzip, or curl + unzip), median. Peak RSS is the largest over the rounds of the largest single process (for the baselines: curl, tar, gzip or unzip; for the action: its node process, with the median over the rounds beside it: the target is judged on the largest). The 95% interval of the median is distribution-free (order statistics of the rounds: the whole range up to 8 rounds, the 2nd to 10th of 11, the 6th to 16th of 21): a target inside it is met or missed within the noise of the machine.',
    ''
  )
  for (const r of rows) {
    lines.push(
      `- ${r.bundle.spec.label}, ${r.format}: action / baseline ${r.ratio.toFixed(2)}x, target <= ${RATIO_TARGET[r.format].toFixed(2)}x: ${mark(r.ratioMet)}; ${r.rssMet === undefined ? 'peak RSS not measured (no GNU time)' : `action peak RSS ${r.actionPeakMiB.toFixed(0)} MiB, target <= ${RSS_TARGET_MIB} MiB: ${mark(r.rssMet)}`}`
    )
  }
  const growth = (['tar.gz', 'zip'] as const).flatMap((format) => {
    const list = rows.filter((r) => r.format === format).sort((a, b) => a.bundle.unpackedBytes - b.bundle.unpackedBytes)
    if (list.length < 2) return []
    const [small, large] = [list[0]!, list[list.length - 1]!]
    return [
      `${format}: ${small.actionPeakMiB.toFixed(0)} MiB for ${small.bundle.spec.label}, ${large.actionPeakMiB.toFixed(0)} MiB for ${large.bundle.spec.label}`
    ]
  })
  if (growth.length > 0 && hasGnuTime)
    lines.push(`- Memory against bundle size (action peak RSS): ${growth.join('; ')}.`)
  if (deletedEarly.length > 0) {
    const cases = deletedEarly.map(
      ({ label, waitedMs }) =>
        `${label} (${waitedMs === undefined ? 'no case followed' : `the next case waited ${formatMs(waitedMs)}`})`
    )
    lines.push(
      `- Free space ran low: the output of ${cases.join('; ')} was deleted right after the case; the next case waited ${formatMs(PAUSE_AFTER_DELETE_MS)} after the delete, then until ${PROBE} took at most ${RECOVERED_FACTOR}x its fastest time in this run.`
    )
  }
  if (fastestProbeMs !== undefined)
    lines.push(
      `- ${PROBE[0]!.toUpperCase()}${PROBE.slice(1)}, the fastest in this run (before the first case, or between cases): ${formatMs(fastestProbeMs)}.`
    )
  const checked = rows.filter((r) => r.checkCosts !== undefined)
  if (checked.length > 0) {
    lines.push('', '### What the site check costs', '')
    lines.push(
      "The action as above (`verify: true`, the default: index page, page count, every internal link) beside the same action with `verify: false`, in the same rotation; the cost is the median over rounds of checked / unchecked wall time - 1 (the target). Beside it, the same for CPU time (user + system, all threads), which moves far less with the machine's load than wall time does. The interval is the median's, as above.",
      '',
      table(
        [
          'bundle',
          'format',
          'action, verify: false',
          'action, verify: true',
          'cost (median of rounds)',
          "median's 95% interval",
          'target',
          'CPU: verify false / true',
          'CPU cost (median of rounds)'
        ],
        checked.map((r) => {
          const cpuCosts = hasGnuTime
            ? r.runs.action.map((a, i) => (a.cpuMs ?? NaN) / (r.runs.unchecked[i]!.cpuMs ?? NaN) - 1)
            : []
          return [
            r.bundle.spec.label,
            r.format,
            formatMs(med(r.runs.unchecked, (x) => x.wallMs)),
            formatMs(med(r.runs.action, (x) => x.wallMs)),
            `**${percent(r.checkCost!)}**`,
            interval(r.checkCosts!, percent, '', ' to '),
            `<= ${percent(CHECK_COST_TARGET)}: ${mark(r.checkCost! <= CHECK_COST_TARGET)}`,
            `${cpu(r.runs.unchecked)} / ${cpu(r.runs.action)}`,
            hasGnuTime ? percent(median(cpuCosts)) : '-'
          ]
        })
      )
    )
  }
  lines.push('', '### Download rate in the log', '')
  lines.push(
    "The action logs `Downloaded <size> in <time> (<rate>)`; its time here is size / logged rate (the logged time has only tenths of a second). Beside it: `curl -s -o /dev/null URL` from the same server, the download alone (median of one run per round, in the rotation). The action's download time leaves out the time the download waited for the bundle to be written and unpacked (backpressure), which its log line gives apart (`; waited <time> more for writing and unpacking`): a logged time close to the download-only time means the logged rate is the download's own. \"Spawn to download request\" is the action's start-up, its three API calls and one 10 ms poll wait.",
    '',
    downloads
  )
  return lines.join('\n')
}
