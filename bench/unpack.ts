/**
 * Download + unpack: the built action (`node dist/index.js`, started as the runner starts it)
 * against the peer an action author would write with `@actions/tool-cache`, on the same bundle
 * served from one link, in rounds that rotate the order, each run into a fresh folder
 * (bench/scratch.ts says when old ones are deleted). The link is loopback, or paced as object storage
 * serves a runner (bench/link.ts: a set rate after a set delay before the first byte), the same for
 * every tool. Each round runs, on every case:
 *
 * - peer:      bench/peer/index.ts, bundled by ncc as dist/ is (bench/peer-build.ts) and started as
 *              `node index.js` with its inputs as INPUT_*: `downloadTool(url)` to a file in
 *              RUNNER_TEMP, then `extractTar` (the system tar) or `extractZip` (the system unzip)
 * - unchecked: the action with `verify: false`: the export operation against the fake service
 *              (bench/service.ts): start, one status poll (complete at once), bundle link, download,
 *              unpack. The peer's work, plus three API calls and a 10 ms poll wait the peer skips
 * - checked:   the action with `verify: true`, the default, as users run it: also the site check
 * - shell:     for reference only: `curl -s URL | tar -xz -C dir`, `curl -s -o file URL && unzip -q file -d dir`
 * - download:  `curl -s -o /dev/null URL`, the download alone, to compare with the rate the action logs
 *
 * Targets (issue 42), each the median over rounds of that round's ratio (a round disturbed by other
 * work on the machine moves both sides of its ratio). Loopback: unchecked / peer <= 1.0 and checked /
 * peer <= 1.3. Paced link: unchecked / peer <= 0.9 (a zip, which cannot stream, <= 1.0) and unchecked /
 * shell <= 1.3 (the shell pipe is the floor). Everywhere the checked action's peak RSS <= 200 MiB,
 * and on loopback on the 1 GiB bundle within 40 MiB of the 3,000-page one (memory does not grow with
 * the bundle).
 *
 * Wall time is spawn to exit, measured by this process, for every tool alike; CPU and peak RSS come
 * from GNU time. Every run is checked, so that a broken run cannot look fast: exit status, the
 * site's file count and bytes, its requests to the link (one download, nothing refused; the
 * action's API calls once each), and the outputs of the action (sha256, size, site path) and peer.
 */
import { lstat, mkdir, readFile, readdir } from 'node:fs/promises'
import { join } from 'node:path'
import { DIST_ENTRY, parseOutputFile } from '../test/support/runner.js'
import { runnerEnv } from './action-env.js'
import { type Bundle, type BundleSpec, type Format, ensureBundle } from './bundles.js'
import { type Measured, hasGnuTime, measure, median } from './measure.js'
import { type Delivery, probeLink } from './link-probe.js'
import type { PacedLink } from './link.js'
import { PEER_ACTION_YML, buildPeer } from './peer-build.js'
import { formatMiB, formatMs } from './report.js'
import type { Scratch } from './scratch.js'
import { API_KEY, type Recorded, startService, type FakeService } from './service.js'

/**
 * The bounds: wall-time ratios to the peer (and on a paced link to the shell pipe), the checked action's
 * peak RSS and its growth.
 */
export const TARGETS = {
  loopback: { unchecked: 1.0, checked: 1.3 },
  paced: { unchecked: 0.9, uncheckedZip: 1.0, pipe: 1.3 },
  peakRssMiB: 200,
  rssGrowthMiB: 40
} as const

export type Tool = 'download' | 'shell' | 'peer' | 'unchecked' | 'checked'
/** The order of the first round; each later round starts one further along. */
const ROTATION: readonly Tool[] = ['download', 'shell', 'peer', 'unchecked', 'checked']

export interface UnpackCase {
  spec: BundleSpec
  format: Format
  rounds: number
  /** Undefined: loopback. */
  link?: PacedLink
}

export interface Run extends Measured {
  /**
   * Action only, when its log has the line: the download as the log reports it ("99.7 MiB in
   * 0.2 s (499 MiB/s; waited 1.1 s more for writing and unpacking)"), the time its rate implies,
   * and the time it waited.
   */
  logged?: { text: string; ms: number; waitedMs: number }
  /** Action only: spawn to the arrival of its download request (start-up + API calls + poll wait). */
  beforeDownloadMs?: number
}

/** One side's wall time over another's: per round, their median, and the target's verdict (if it has one). */
export interface Ratio {
  perRound: number[]
  median: number
  target: number | undefined
  met: boolean | undefined
}

export interface UnpackRow {
  bundle: Bundle
  format: Format
  link: PacedLink | undefined
  runs: Record<Tool, Run[]>
  /** The action's time over the peer's, with `verify: false` and `verify: true`. */
  unchecked: Ratio
  checked: Ratio
  /** The action's time with `verify: false` over the shell pipe's. */
  pipe: Ratio
  /** Paced link only: what it delivered to curl and to node before the timed runs. */
  delivered?: { curl: Delivery; node: Delivery }
  /** The checked action's peak RSS, the largest over the rounds (MiB); NaN without GNU time. */
  peakMiB: number
  /** undefined without GNU time: not measured. */
  rssMet: boolean | undefined
}

/** The checked action's peak RSS on a large bundle against a smaller one of the same format. */
export interface RssGrowth {
  small: UnpackRow
  large: UnpackRow
  growthMiB: number
  met: boolean
}

export interface UnpackResult {
  rows: UnpackRow[]
  growth: RssGrowth[]
  targetsMet: boolean
}

export interface UnpackOptions {
  bundleDir: string
  /** Where the peer is bundled (rebuilt on every benchmark run). */
  peerDir: string
  scratch: Scratch
  /** The node binary that runs the action and the peer. */
  node: string
  log: (line: string) => void
  /** The bundles whose peak RSS the growth bound compares, smaller first, when both run. */
  growthPair?: [BundleSpec, BundleSpec]
}

export async function runUnpackBench(cases: UnpackCase[], options: UnpackOptions): Promise<UnpackResult> {
  options.log('  bundling the tool-cache peer with ncc...')
  const peerEntry = await buildPeer(options.peerDir, options.node)
  const rows: UnpackRow[] = []
  for (const c of cases) rows.push(await runCase(c, peerEntry, options))
  const growth = rssGrowth(rows, options.growthPair)
  const ratiosMet = (r: UnpackRow): boolean => [r.unchecked, r.checked, r.pipe].every((x) => x.met !== false)
  const targetsMet = rows.every((r) => ratiosMet(r) && r.rssMet !== false) && growth.every((g) => g.met)
  return { rows, growth, targetsMet }
}

async function runCase(c: UnpackCase, peerEntry: string, options: UnpackOptions): Promise<UnpackRow> {
  const { bundleDir, scratch, node, log } = options
  // Generating a bundle (first time only) overlaps the previous case's delete.
  const bundle = await ensureBundle(c.spec, bundleDir, log)
  const archive = bundle.archives[c.format]
  const service = await startService(
    { file: archive.file, sizeBytes: archive.sizeBytes, pages: c.spec.pages, extension: c.format },
    c.link
  )
  const name = `${c.spec.label}, ${c.format}, ${c.link === undefined ? 'loopback' : 'paced'}`
  const context: RunContext = { service, bundle, format: c.format, node, peerEntry }
  try {
    // Every round, each of the four unpacking tools writes the site and a copy of the archive.
    const needBytes = c.rounds * 4 * (bundle.unpackedBytes + archive.sizeBytes)
    await scratch.openCase(name, needBytes)
    // Untimed: reads the archive into the page cache and checks the link before any timed run; a paced link
    // must deliver its rate, no more, to curl and to node alike.
    await runTool('download', '', context)
    const delivered =
      c.link === undefined ? undefined : await probeLink(service.bundleUrl, archive.sizeBytes, c.link, node)
    if (delivered !== undefined)
      log(`  ${name}: the link delivered ${delivered.curl.text} to curl, ${delivered.node.text} to node`)
    const waited = await scratch.settle()
    if (waited > 10_000) log(`  ${name}: waited ${formatMs(waited)} after deleting the previous case's output`)
    const runs: Record<Tool, Run[]> = { download: [], shell: [], peer: [], unchecked: [], checked: [] }
    for (let round = 0; round < c.rounds; round++) {
      // Rotating the order: no tool always runs first, or always right after another's writes.
      const order = ROTATION.map((_, i) => ROTATION[(i + round) % ROTATION.length]!)
      for (const tool of order) {
        const run = await runTool(tool, tool === 'download' ? '' : await scratch.fresh(tool), context)
        runs[tool].push(run)
        const rss = run.peakRssKiB ? `, peak RSS ${formatMiB(run.peakRssKiB * 1024)}` : ''
        log(`  ${name}, round ${round + 1}/${c.rounds}: ${tool} ${formatMs(run.wallMs)}${rss}`)
        await scratch.settle()
      }
    }
    const peakMiB = Math.max(...runs.checked.map((r) => r.peakRssKiB ?? NaN)) / 1024
    const targets = targetsOf(c.format, c.link)
    return {
      bundle,
      format: c.format,
      link: c.link,
      runs,
      unchecked: ratioOfRounds(runs.unchecked, runs.peer, targets.unchecked),
      checked: ratioOfRounds(runs.checked, runs.peer, targets.checked),
      pipe: ratioOfRounds(runs.unchecked, runs.shell, targets.pipe),
      ...(delivered === undefined ? {} : { delivered }),
      peakMiB,
      rssMet: hasGnuTime ? peakMiB <= TARGETS.peakRssMiB : undefined
    }
  } finally {
    await service.close()
    await scratch.retireCase(name)
  }
}

/** The targets of a case's ratios: to the peer with and without the site check, and to the shell pipe. */
export function targetsOf(
  format: Format,
  link: PacedLink | undefined
): Record<'unchecked' | 'checked' | 'pipe', number | undefined> {
  if (link === undefined) return { ...TARGETS.loopback, pipe: undefined }
  const { unchecked, uncheckedZip, pipe } = TARGETS.paced
  return { unchecked: format === 'zip' ? uncheckedZip : unchecked, checked: undefined, pipe }
}

/** `side`'s time over `base`'s, round by round, and the median of those ratios judged against `target`. */
export function ratioOfRounds(side: Run[], base: Run[], target: number | undefined): Ratio {
  const perRound = side.map((run, i) => run.wallMs / base[i]!.wallMs)
  const value = median(perRound)
  return { perRound, median: value, target, met: target === undefined ? undefined : value <= target }
}

/**
 * The growth bound, per format, when both bundles of the pair ran on loopback (not in `--short`) and RSS was
 * measured. Bundles are told by name: a cached bundle's spec is a copy read from its manifest.
 */
export function rssGrowth(rows: UnpackRow[], pair: [BundleSpec, BundleSpec] | undefined): RssGrowth[] {
  if (pair === undefined) return []
  const loopback = rows.filter((r) => r.link === undefined)
  return (['tar.gz', 'zip'] as const).flatMap((format) => {
    const [small, large] = pair.map((spec) =>
      loopback.find((r) => r.format === format && r.bundle.spec.name === spec.name)
    )
    if (small === undefined || large === undefined || Number.isNaN(small.peakMiB + large.peakMiB)) return []
    const growthMiB = large.peakMiB - small.peakMiB
    return [{ small, large, growthMiB, met: growthMiB <= TARGETS.rssGrowthMiB }]
  })
}

interface RunContext {
  service: FakeService
  bundle: Bundle
  format: Format
  node: string
  peerEntry: string
}

/** One timed run into `dir`, checked: a failed or incomplete run throws, so it cannot look fast. */
async function runTool(tool: Tool, dir: string, context: RunContext): Promise<Run> {
  const { service, bundle, format } = context
  const archive = bundle.archives[format]
  const seen = service.requests.length
  const requestsOfRun = (): Recorded[] => service.requests.slice(seen)
  if (tool === 'download') {
    const run = await measure('curl', ['-s', '-o', '/dev/null', '-w', '%{size_download}', service.bundleUrl])
    if (run.exitCode !== 0 || Number(run.stdout) !== archive.sizeBytes)
      throw new Error(`curl downloaded ${run.stdout || 'nothing'} of ${archive.sizeBytes} bytes (exit ${run.exitCode})`)
    checkRequests(tool, requestsOfRun())
    return run
  }
  const site = join(dir, 'site')
  let run: Run
  if (tool === 'shell') run = await runShell(site, dir, context)
  else if (tool === 'peer') run = await runPeer(site, dir, context)
  else run = await runAction(tool === 'checked', site, dir, context, requestsOfRun)
  checkRequests(tool, requestsOfRun())
  await verifySite(tool, site, bundle)
  return run
}

async function runShell(site: string, dir: string, { service, format }: RunContext): Promise<Run> {
  await mkdir(site)
  const script =
    format === 'tar.gz' ? 'curl -s "$1" | tar -xz -C "$2"' : 'curl -s -o "$3" "$1" && unzip -q "$3" -d "$2"'
  const run = await measure('sh', ['-c', script, 'sh', service.bundleUrl, site, join(dir, `site.${format}`)])
  if (run.exitCode !== 0)
    throw new Error(`the ${format} shell baseline failed (exit ${run.exitCode}): ${run.stderr.trim().slice(0, 2000)}`)
  return run
}

/** The peer as the runner starts an action: its action.yml's inputs as INPUT_*, a fresh RUNNER_TEMP. */
async function runPeer(site: string, dir: string, { service, format, node, peerEntry }: RunContext): Promise<Run> {
  const { env, outputFile } = await runnerEnv(
    { url: service.bundleUrl, path: site, format },
    { folder: dir, temp: join(dir, 'runner-temp'), workspace: dir },
    PEER_ACTION_YML
  )
  const run = await measure(node, [peerEntry], { env })
  if (run.exitCode !== 0)
    throw new Error(`the peer failed (exit ${run.exitCode}):\n${(run.stdout + run.stderr).trim().slice(-3000)}`)
  const outputs = parseOutputFile(await readFile(outputFile, 'utf8'))
  if (outputs['site-path'] !== site)
    throw new Error(`the peer's outputs do not name the site: ${JSON.stringify(outputs)}`)
  return run
}

async function runAction(
  verify: boolean,
  site: string,
  dir: string,
  { service, bundle, format, node }: RunContext,
  requestsOfRun: () => Recorded[]
): Promise<Run> {
  const archive = bundle.archives[format]
  const { env, outputFile } = await runnerEnv(
    {
      operation: 'export',
      'api-key': API_KEY,
      'base-url': service.apiUrl,
      domain: 'docs.example.com',
      path: site,
      'poll-interval': '10ms',
      verify: String(verify)
    },
    { folder: dir, temp: join(dir, 'runner-temp'), workspace: dir }
  )
  const run = await measure(node, [DIST_ENTRY], { env })
  if (run.exitCode !== 0)
    throw new Error(`the action failed (exit ${run.exitCode}):\n${(run.stdout + run.stderr).trim().slice(-3000)}`)
  const outputs = parseOutputFile(await readFile(outputFile, 'utf8'))
  if (
    outputs['site-path'] !== site ||
    outputs['bundle-sha256'] !== archive.sha256 ||
    outputs['bundle-size'] !== String(archive.sizeBytes)
  ) {
    throw new Error(`the action's outputs do not match the bundle: ${JSON.stringify(outputs)}`)
  }
  const download = requestsOfRun().find((r) => r.route === 'download')
  return {
    ...run,
    logged: loggedDownload(run.stdout, archive.sizeBytes),
    beforeDownloadMs: download === undefined ? undefined : download.at - run.startedAt
  }
}

/** The action's log line of its download (see loggedDownload). */
const DOWNLOADED =
  /Downloaded (.+? in [\d.]+ s \(([\d.]+) (B|KiB|MiB|GiB)\/s(?:; waited ([\d.]+) s more for writing and unpacking)?\))/

/**
 * "Downloaded 99.7 MiB in 3.1 s (32.0 MiB/s), sha256 ...": the rate has more digits than the time
 * (tenths of a second), so the logged time is taken as size / rate. A log without the line (the
 * action's wording may change) leaves the download table without the action's side, nothing more.
 */
function loggedDownload(stdout: string, sizeBytes: number): Run['logged'] {
  const line = DOWNLOADED.exec(stdout)
  if (!line) return undefined
  const bytesPerSecond = Number(line[2]) * 1024 ** ['B', 'KiB', 'MiB', 'GiB'].indexOf(line[3]!)
  return { text: line[1]!, ms: (1000 * sizeBytes) / bytesPerSecond, waitedMs: 1000 * Number(line[4] ?? 0) }
}

/**
 * Every tool fetched the link once and nothing was refused (a retry or a second download is not the
 * run being measured); the action also made each export call once (status polls may repeat).
 */
export function checkRequests(tool: Tool, requests: Recorded[]): void {
  const count = (route: Recorded['route']): number => requests.filter((r) => r.route === route).length
  const action = tool === 'checked' || tool === 'unchecked'
  const expected = action ? 3 + count('export-status') : 1
  if (
    count('download') !== 1 ||
    count('unknown') !== 0 ||
    requests.length !== expected ||
    (action && (count('export-start') !== 1 || count('export-bundle') !== 1))
  ) {
    const list = requests.map((r) => r.route).join(', ') || 'none'
    throw new Error(`${tool}: expected ${action ? 'start, status, bundle, download' : 'one download'}; got ${list}`)
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
      `${tool} left ${files} files of ${bytes} bytes; ` +
        `the bundle has ${bundle.files} files of ${bundle.unpackedBytes} bytes`
    )
  }
}
