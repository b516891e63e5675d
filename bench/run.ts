/**
 * The benchmark: the action beside its baselines, on this machine, in one run.
 *
 *   npm run bench                      # full run (a few minutes), writes docs/benchmarks.md
 *   npm run bench -- --short           # reduced, for CI (< 90 s); prints only
 *   npm run bench -- --short --write   # reduced, and writes the doc anyway
 *
 * Exits non-zero only when something is broken (a tool fails, a site is incomplete, dist/ does
 * not start); a missed target is reported, not fatal.
 */
import { mkdir, writeFile } from 'node:fs/promises'
import os from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { type BundleSpec, SITE_1G, SITE_3000 } from './bundles.js'
import { type DownloadCase, runDownloadBench } from './download.js'
import { hasGnuTime } from './measure.js'
import { runPollingBench } from './polling.js'
import { describeMachine, machineLine, readCpuTicks, stealPercent } from './report.js'
import { runStartupBench } from './startup.js'

const BENCH_DIR = dirname(fileURLToPath(import.meta.url))
const OUT_DIR = join(BENCH_DIR, 'out')
const DOC = join(BENCH_DIR, '..', 'docs', 'benchmarks.md')

interface Part {
  title: string
  markdown: string
  /** undefined when the part broke. */
  targetsMet: boolean | undefined
}

const args = new Set(process.argv.slice(2))
const short = args.has('--short')
const write = !short || args.has('--write')
const log = (line: string): void => void process.stderr.write(`${line}\n`)

const downloadCases: DownloadCase[] = short
  ? [{ spec: SITE_3000, runs: 1, rssTarget: false }]
  : [
      { spec: SITE_3000, runs: 5, rssTarget: false },
      { spec: SITE_1G, runs: 3, rssTarget: true }
    ]
const startupPairs = short ? 5 : 10

const started = performance.now()
const machine = await describeMachine()
const loadAtStart = os.loadavg()[0] ?? 0
const ticksAtStart = await readCpuTicks()
const parts: Part[] = []

parts.push(
  await part('1. Download + unpack', async () => {
    log('Download + unpack...')
    const result = await runDownloadBench(downloadCases, OUT_DIR, log)
    return { markdown: `${downloadIntro(downloadCases.map((c) => c.spec))}\n\n${result.markdown}`, targetsMet: result.targetsMet }
  })
)
parts.push(
  await part('2. Polling', async () => {
    log('Polling...')
    const result = await runPollingBench()
    return { markdown: result.markdown, targetsMet: result.targetsMet }
  })
)
parts.push(
  await part('3. Start-up', async () => {
    log('Start-up...')
    const result = await runStartupBench(startupPairs)
    return { markdown: `${startupIntro()}\n\n${result.markdown}`, targetsMet: result.targetMet }
  })
)

const seconds = (performance.now() - started) / 1000
const steal = stealPercent(ticksAtStart, await readCpuTicks())
const doc = render(parts, seconds)
process.stdout.write(doc)
if (write) {
  await mkdir(dirname(DOC), { recursive: true })
  await writeFile(DOC, doc)
  log('Wrote docs/benchmarks.md')
}
const broken = parts.filter((p) => p.targetsMet === undefined)
log(`Targets: ${parts.map((p) => `${p.title}: ${p.targetsMet === undefined ? 'BROKEN' : p.targetsMet ? 'met' : 'not all met'}`).join('; ')} (${seconds.toFixed(0)} s)`)
// esbuild's service and keep-alive sockets must not hold the process open.
process.exit(broken.length > 0 ? 1 : 0)

async function part(title: string, run: () => Promise<Omit<Part, 'title'>>): Promise<Part> {
  try {
    return { title, ...(await run()) }
  } catch (error) {
    log(`${title} BROKE: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`)
    return { title, markdown: `**Broken:** ${error instanceof Error ? error.message : String(error)}`, targetsMet: undefined }
  }
}

function downloadIntro(specs: BundleSpec[]): string {
  return [
    `Each bundle is a deterministic, generated docs site (cached after the first run): HTML pages of ${specs[0]!.pageBytes.map((b) => b / 1024).join('-')} KiB of text drawn from a pseudo-word vocabulary with Zipf frequencies and rendered-docs markup (gzip ~3.8x on the pages), CSS/JS, images and PDF downloads as incompressible random bytes, and a JSON search index; tar.gz at gzip level 6. It is served over loopback by a minimal HTTP server that mimics a presigned storage link (GET, Content-Length, no Authorization), read from disk in 1 MiB chunks.`,
    '',
    '- **streaming**: `sh -c \'curl -sf URL | tar -xz -C dir\'`',
    '- **two-step**: `sh -c \'curl -sf -o file URL && tar -xzf file -C dir\'` (keeps the archive, as the action does)',
    "- **action**: the action's `transferBundle` (download, sha256, archive kept as a file, unpack into a staging folder while downloading, swap into place), alone in a child `node` process running a pre-bundled JS file (so no TypeScript compilation is in the measured time).",
    '',
    `Wall time is whole process vs whole process: from spawn to exit, measured by the parent, so node's own start-up counts against the action (the time inside \`transferBundle\` is shown beside it). Every command runs under ${hasGnuTime ? 'GNU `time -v`, which also gives the peak RSS' : '(no GNU time here) the parent; the action reports its own `maxRSS`'}. Rounds rotate the order of the three tools. Between runs the output folders are removed and \`sync\` is run (untimed); no cache is dropped, so the archive is read from the page cache.`
  ].join('\n')
}

function startupIntro(): string {
  return [
    'Time from spawning `node dist/index.js`, with the `INPUT_*` variables a runner sets (operation `export`, every default of action.yml) and `GITHUB_OUTPUT` pointing at a temporary file, to the first byte of its first API request at a local TCP server (which then drops the connection; the child is killed). Baseline: `node -e 0` from spawn to exit. The two alternate, after one untimed warm-up pair; both timestamps are taken in the parent.'
  ].join('\n')
}

function render(list: Part[], seconds: number): string {
  const summary = list.map((p) => `| ${p.title} | ${p.targetsMet === undefined ? '**broken**' : p.targetsMet ? 'all met' : '**not all met**'} |`)
  return [
    '# Benchmarks',
    '',
    `Generated by \`npm run bench\`${short ? ' (`--short`: reduced runs, the 1 GiB bundle skipped)' : ''}; the latest run replaces this file. The numbers are from one machine and move with its load.`,
    '',
    `Machine: ${machineLine(machine)} Load average (1 min) at start: ${loadAtStart.toFixed(2)}${steal === undefined ? '' : `; CPU time taken by the hypervisor (steal) during the run: ${steal.toFixed(1)}%`}. Run time: ${seconds.toFixed(0)} s.`,
    '',
    '| part | targets |',
    '| --- | --- |',
    ...summary,
    '',
    ...list.flatMap((p) => [`## ${p.title}`, '', p.markdown, '']),
  ].join('\n')
}
