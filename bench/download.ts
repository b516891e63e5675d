/**
 * Download + unpack: the action's transferBundle (in its own node process) against two shell
 * baselines, on the same bundle served over loopback, in rounds that rotate the order.
 *
 * - streaming: `curl -sf URL | tar -xz -C dir` (through sh -c)
 * - two-step:  `curl -sf -o file URL && tar -xzf file -C dir` (keeps the archive, as the action does)
 * - action:    `node transfer-child.mjs` (pre-bundled JS; streams, hashes, keeps the archive, swaps in)
 *
 * Wall time is spawn-to-exit of the whole process for all three, so node's own start-up is
 * counted against the action (the time inside transferBundle is reported beside it).
 */
import { execFileSync } from 'node:child_process'
import { mkdir, readdir, rm, stat } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { build } from 'esbuild'
import { type Bundle, type BundleSpec, ensureBundle } from './bundles.js'
import { childEnv, hasGnuTime, measure, median } from './measure.js'
import { formatMiB, formatMs, mark, table } from './report.js'
import { serveFile } from './serve.js'
import type { ChildReport, ChildRequest } from './transfer-child.js'

const BENCH_DIR = dirname(fileURLToPath(import.meta.url))
export const RATIO_TARGET = 1.1
export const RSS_TARGET_MIB = 120

export type Tool = 'streaming' | 'two-step' | 'action'
const TOOLS: readonly Tool[] = ['streaming', 'two-step', 'action']

export interface DownloadCase {
  spec: BundleSpec
  runs: number
  /** The RSS target applies to this bundle. */
  rssTarget: boolean
}

export interface ToolStats {
  wallMs: number[]
  peakRssKiB: number[]
  /** User + system CPU of the process tree (GNU time). */
  cpuMs: number[]
  /** Action only: time inside transferBundle, as the child measured it. */
  innerMs: number[]
  /** Action only: the child's own maxRSS (KiB), a cross-check of GNU time's figure. */
  selfRssKiB: number[]
}

export interface DownloadRow {
  bundle: Bundle
  runs: number
  stats: Record<Tool, ToolStats>
  ratio: number
  ratioMet: boolean
  /** undefined when the RSS target does not apply to this bundle. */
  rssMet: boolean | undefined
  actionPeakMiB: number
}

export interface DownloadResult {
  rows: DownloadRow[]
  markdown: string
  /** Every target measured in this run was met. */
  targetsMet: boolean
}

export async function runDownloadBench(cases: DownloadCase[], outDir: string, log: (line: string) => void): Promise<DownloadResult> {
  const childScript = await buildChild(outDir)
  const rows: DownloadRow[] = []
  for (const c of cases) rows.push(await runCase(c, outDir, childScript, log))
  return { rows, markdown: render(rows), targetsMet: rows.every((r) => r.ratioMet && r.rssMet !== false) }
}

/** Bundles the child to one JS file, so no TypeScript is compiled inside the measured process. */
async function buildChild(outDir: string): Promise<string> {
  const outfile = join(outDir, 'transfer-child.mjs')
  await build({
    entryPoints: [join(BENCH_DIR, 'transfer-child.ts')],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    logLevel: 'error',
    // Some dependencies are CommonJS and require() node built-ins.
    banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" }
  })
  return outfile
}

async function runCase(c: DownloadCase, outDir: string, childScript: string, log: (line: string) => void): Promise<DownloadRow> {
  const bundle = await ensureBundle(c.spec, join(outDir, 'bundles'), log)
  const server = await serveFile(bundle.file)
  const work = join(outDir, 'work')
  const stats = Object.fromEntries(TOOLS.map((t) => [t, { wallMs: [], peakRssKiB: [], cpuMs: [], innerMs: [], selfRssKiB: [] }])) as unknown as Record<Tool, ToolStats>
  try {
    for (let round = 0; round < c.runs; round++) {
      // Rotating the order: no tool always runs first (cold) or right after another's writes.
      const order = TOOLS.map((_, i) => TOOLS[(i + round) % TOOLS.length]!)
      for (const tool of order) {
        const dir = join(work, tool)
        await clear(dir)
        const result = await runTool(tool, dir, server.url, bundle, childScript)
        const s = stats[tool]
        s.wallMs.push(result.wallMs)
        if (result.peakRssKiB !== undefined) s.peakRssKiB.push(result.peakRssKiB)
        if (result.cpuMs !== undefined) s.cpuMs.push(result.cpuMs)
        if (result.child) {
          s.innerMs.push(result.child.transferMs)
          s.selfRssKiB.push(result.child.maxRssKiB)
        }
        await verify(tool, join(dir, 'site'), bundle)
        log(`  ${c.spec.label} round ${round + 1}/${c.runs}: ${tool} ${formatMs(result.wallMs)}${result.peakRssKiB ? `, peak RSS ${formatMiB(result.peakRssKiB * 1024)}` : ''}`)
      }
    }
  } finally {
    await server.close()
    await rm(work, { recursive: true, force: true })
  }
  const ratio = median(stats.action.wallMs) / median(stats.streaming.wallMs)
  const actionRss = stats.action.peakRssKiB.length > 0 ? stats.action.peakRssKiB : stats.action.selfRssKiB
  const actionPeakMiB = Math.max(...actionRss) / 1024
  return {
    bundle,
    runs: c.runs,
    stats,
    ratio,
    ratioMet: ratio <= RATIO_TARGET,
    rssMet: c.rssTarget ? actionPeakMiB <= RSS_TARGET_MIB : undefined,
    actionPeakMiB
  }
}

/** Removes the previous run's output (untimed) and flushes dirty pages so their writeback does not land in the next run. Caches are not dropped. */
async function clear(dir: string): Promise<void> {
  await rm(dir, { recursive: true, force: true })
  await mkdir(join(dir, 'site'), { recursive: true })
  execFileSync('sync')
}

async function runTool(tool: Tool, dir: string, url: string, bundle: Bundle, childScript: string): Promise<{ wallMs: number; peakRssKiB: number | undefined; cpuMs: number | undefined; child?: ChildReport }> {
  const site = join(dir, 'site')
  const archive = join(dir, 'site.tar.gz')
  if (tool === 'action') {
    // The action makes its own staging folder beside the site and swaps it in.
    await rm(site, { recursive: true, force: true })
    const request: ChildRequest = { url, sizeBytes: bundle.sizeBytes, archiveFile: archive, siteDir: site }
    const run = await measure(process.execPath, [childScript, JSON.stringify(request)], { env: childEnv() })
    if (run.exitCode !== 0) throw new Error(`the action's transfer failed (exit ${run.exitCode}): ${run.stderr.trim().slice(0, 2000)}`)
    const child = JSON.parse(run.stdout.trim().split('\n').pop() ?? '') as ChildReport
    if (child.sizeBytes !== bundle.sizeBytes) throw new Error(`the action received ${child.sizeBytes} of ${bundle.sizeBytes} bytes`)
    return { ...run, child }
  }
  const script = tool === 'streaming' ? 'curl -sf "$1" | tar -xz -C "$2"' : 'curl -sf -o "$3" "$1" && tar -xzf "$3" -C "$2"'
  const run = await measure('sh', ['-c', script, 'sh', url, site, archive])
  if (run.exitCode !== 0) throw new Error(`${tool} baseline failed (exit ${run.exitCode}): ${run.stderr.trim().slice(0, 2000)}`)
  return run
}

/** Every tool must leave the whole site: file count and a few sizes. */
async function verify(tool: Tool, site: string, bundle: Bundle): Promise<void> {
  const files = await countFiles(site)
  if (files !== bundle.files) throw new Error(`${tool} left ${files} files, the bundle has ${bundle.files}`)
  for (const sample of bundle.samples) {
    const size = await stat(join(site, sample.path)).then((s) => s.size, () => -1)
    if (size !== sample.bytes) throw new Error(`${tool}: ${sample.path} has ${size} bytes, expected ${sample.bytes}`)
  }
}

async function countFiles(dir: string): Promise<number> {
  let count = 0
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) if (entry.isFile()) count++
  return count
}

function render(rows: DownloadRow[]): string {
  const lines: string[] = []
  const header = ['bundle', 'runs', 'streaming', 'two-step', 'action (whole process)', 'action (inside transferBundle)', 'action / streaming', 'CPU user+sys: streaming / two-step / action', 'peak RSS: streaming / two-step / action']
  const body = rows.map((r) => {
    const s = r.stats
    const rss = (t: Tool): string => (s[t].peakRssKiB.length ? formatMiB(Math.max(...s[t].peakRssKiB) * 1024) : '-')
    return [
      `${r.bundle.spec.label}: ${r.bundle.files.toLocaleString('en-US')} files, ${formatMiB(r.bundle.unpackedBytes)} unpacked, ${formatMiB(r.bundle.sizeBytes)} tar.gz (${(r.bundle.unpackedBytes / r.bundle.sizeBytes).toFixed(1)}x)`,
      String(r.runs),
      formatMs(median(s.streaming.wallMs)),
      formatMs(median(s['two-step'].wallMs)),
      formatMs(median(s.action.wallMs)),
      formatMs(median(s.action.innerMs)),
      `${r.ratio.toFixed(2)}x`,
      s.action.cpuMs.length ? TOOLS.map((t) => formatMs(median(s[t].cpuMs))).join(' / ') : '-',
      `${rss('streaming')} / ${rss('two-step')} / ${hasGnuTime ? rss('action') : `${formatMiB(r.actionPeakMiB * 1024 * 1024)} (self-reported)`}`
    ]
  })
  lines.push(table(header, body), '')
  lines.push(
    'Times are medians of the runs: wall time from spawn to exit; CPU is user + system time of the whole process tree (for the pipelines, curl + gzip + tar together). Peak RSS is the largest over the runs, of the largest single process (for the pipelines: curl, tar or gzip).',
    ''
  )
  for (const r of rows) {
    const by = ((r.ratio / RATIO_TARGET - 1) * 100).toFixed(0)
    lines.push(
      `- Target: action <= ${RATIO_TARGET.toFixed(2)}x the streaming pipeline (${r.bundle.spec.label}): ${mark(r.ratioMet)} — ${r.ratio.toFixed(2)}x${r.ratioMet ? '' : `, ${by}% over the target`}`
    )
  }
  const rssRows = rows.filter((r) => r.rssMet !== undefined)
  for (const r of rssRows) {
    const over = r.actionPeakMiB - RSS_TARGET_MIB
    lines.push(`- Target: action peak RSS <= ${RSS_TARGET_MIB} MiB (${r.bundle.spec.label}): ${mark(r.rssMet!)} — ${r.actionPeakMiB.toFixed(0)} MiB${r.rssMet ? '' : `, ${over.toFixed(0)} MiB over`}`)
  }
  if (rssRows.length === 0) lines.push(`- Target: action peak RSS <= ${RSS_TARGET_MIB} MiB applies to the 1 GiB bundle: not measured in this run.`)
  return lines.join('\n')
}
