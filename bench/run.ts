/**
 * The benchmark: the built action (dist/index.js) beside its baselines, on this machine, in one run.
 *
 *   npm run bench                      # full run (long: 1 GiB bundles), writes docs/benchmarks.md
 *   npm run bench -- --short           # reduced, for CI (< 60 s): small bundles, 2 rounds; prints only
 *   npm run bench -- --short --write   # reduced, and writes the doc anyway
 *   npm run bench -- --site-check      # only what the site check costs (3,000 pages, 21 rounds); prints only
 *   npm run bench -- --node=PATH       # the action run by another node binary, with any of the above; on Node 24 as
 *                                      # GitHub runs it: --node="$(npx -y node@24 -e 'process.stdout.write(process.execPath)')"
 *                                      # (a full run writes docs/benchmarks-node<major>.md then)
 *
 * Exits non-zero only when something is broken (a tool fails, an output is incomplete, dist/ does
 * not start); a missed target is reported, not fatal.
 */
import { execFileSync } from 'node:child_process'
import { mkdir, writeFile } from 'node:fs/promises'
import os from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { SITE_1G, SITE_300, SITE_3000, SITE_30K_SMALL, SITE_3K_SMALL, type BundleSpec } from './bundles.js'
import { hasGnuTime } from './measure.js'
import { runPollingBench } from './polling.js'
import { describeMachine, machineLine, readCpuTicks, stealPercent } from './report.js'
import { RECOVERED_FACTOR, Scratch } from './scratch.js'
import { runStartupBench } from './startup.js'
import { CHECK_COST_TARGET, RATIO_TARGET, RSS_TARGET_MIB, type UnpackCase, runUnpackBench } from './unpack.js'

const BENCH_DIR = dirname(fileURLToPath(import.meta.url))
const OUT_DIR = join(BENCH_DIR, 'out')

interface Part {
  title: string
  markdown: string
  /** undefined when the part broke. */
  targetsMet: boolean | undefined
}

const args = new Set(process.argv.slice(2))
/** The node that runs the action (the baselines of the start-up part too): `--node=PATH`, else this one. */
const node = process.argv.find((arg) => arg.startsWith('--node='))?.slice('--node='.length) ?? process.execPath
const nodeVersion = execFileSync(node, ['--version'], { encoding: 'utf8' }).trim()
const otherNode = nodeVersion !== process.version
/** The doc of a full run: the machine's node has docs/benchmarks.md; another one (`--node`) a doc of its own major version, beside it. */
const docName = otherNode ? `benchmarks-node${/^v(\d+)/.exec(nodeVersion)?.[1] ?? 'other'}.md` : 'benchmarks.md'
const DOC = join(BENCH_DIR, '..', 'docs', docName)
const short = args.has('--short')
/** Only the cases that measure the site check's cost, for a second look at a noisy number. */
const siteCheckOnly = args.has('--site-check')
// The doc holds whole runs only.
const write = !siteCheckOnly && (!short || args.has('--write'))
const log = (line: string): void => void process.stderr.write(`${line}\n`)

const sites: BundleSpec[] = short
  ? [SITE_300, SITE_3K_SMALL]
  : siteCheckOnly
    ? [SITE_3000]
    : [SITE_3000, SITE_30K_SMALL, SITE_1G]
const rounds = short ? 2 : 7
// The site check's cost is measured on the first (page-rich) bundle, as the issue asks. It is a
// difference of two noisy times (single rounds moved by a third on the machine of
// docs/benchmarks.md, and the median of 11 rounds by 10 points from one run to the next), so that
// bundle gets more rounds: 21 narrow the median's 95% interval to the 6th-16th of the sorted rounds.
const checkCostRounds = short ? 2 : 21
// The small-files bundle runs in seconds, and 7 rounds give the whole range as the median's
// interval (0.73-1.23x for its tar.gz on Node 24): 11 narrow it to the 2nd-10th for a minute more.
// The 1 GiB bundle keeps 7 (half a minute a round).
const smallFilesRounds = short ? 2 : 11
const roundsOf = (spec: BundleSpec, index: number): number =>
  index === 0 ? checkCostRounds : spec === SITE_30K_SMALL ? smallFilesRounds : rounds
const unpackCases: UnpackCase[] = sites.flatMap((spec, index) =>
  (['tar.gz', 'zip'] as const).map((format) => ({
    spec,
    format,
    rounds: roundsOf(spec, index),
    checkCost: index === 0
  }))
)
const startupPairs = short ? 5 : 15

const started = performance.now()
await mkdir(join(OUT_DIR, 'work'), { recursive: true })
const scratch = new Scratch(join(OUT_DIR, 'work'))
const machine = await describeMachine(join(OUT_DIR, 'work'), nodeVersion)
const loadAtStart = os.loadavg()[0] ?? 0
const ticksAtStart = await readCpuTicks()

// Whatever an interrupted run left is deleted first (then a pause: see bench/scratch.ts), and how
// fast files are created is measured: after a delete for lack of space, a case waits until it is
// that fast again.
await scratch.settle()
for (let probe = 0; probe < 3; probe++) await scratch.probe()
// Start-up first, before the download part fills the disk's queue; the doc lists it last.
const startup = siteCheckOnly
  ? undefined
  : await part('3. Start-up', async () => {
      log('Start-up...')
      const result = await runStartupBench(startupPairs, node)
      return { markdown: result.markdown, targetsMet: result.targetMet }
    })
const polling = siteCheckOnly
  ? undefined
  : await part('2. Polling', async () => {
      log('Polling...')
      const result = await runPollingBench()
      return { markdown: result.markdown, targetsMet: result.targetsMet }
    })
const unpack = await part('1. Download + unpack', async () => {
  log('Download + unpack...')
  const result = await runUnpackBench(unpackCases, { bundleDir: join(OUT_DIR, 'bundles'), scratch, node, log })
  return { markdown: `${unpackIntro()}\n\n${result.markdown}`, targetsMet: result.targetsMet }
})
log('Deleting the output folders...')
await scratch.deleteAll()

const parts = [unpack, polling, startup].filter((p): p is Part => p !== undefined)
const seconds = (performance.now() - started) / 1000
const steal = stealPercent(ticksAtStart, await readCpuTicks())
const loadAtEnd = os.loadavg()[0] ?? 0
const doc = render(parts, seconds)
process.stdout.write(doc)
if (write) {
  await mkdir(dirname(DOC), { recursive: true })
  await writeFile(DOC, doc)
  log(`Wrote docs/${docName}`)
}
log(
  `Targets: ${parts.map((p) => `${p.title}: ${p.targetsMet === undefined ? 'BROKEN' : p.targetsMet ? 'met' : 'not all met'}`).join('; ')} (${seconds.toFixed(0)} s)`
)
process.exit(parts.some((p) => p.targetsMet === undefined) ? 1 : 0)

async function part(title: string, run: () => Promise<Omit<Part, 'title'>>): Promise<Part> {
  const begun = performance.now()
  try {
    return { title, ...(await run()) }
  } catch (error) {
    log(`${title} BROKE: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`)
    return {
      title,
      markdown: `**Broken:** ${error instanceof Error ? error.message : String(error)}`,
      targetsMet: undefined
    }
  } finally {
    log(`${title}: ${((performance.now() - begun) / 1000).toFixed(1)} s`)
  }
}

function unpackIntro(): string {
  return [
    `Bundles: deterministic generated docs sites (cached after the first run), each as tar.gz (gzip level 6) and as zip (deflate level 6 per file, stored when that does not shrink it, as \`zip -r\` does): ${sites.map((s) => s.label).join(', ')}. HTML pages are text drawn from a pseudo-word vocabulary with Zipf frequencies and rendered-docs markup; CSS/JS; images and PDF downloads as incompressible random bytes; a JSON search index. The small-files site is 0.5-6 KiB pages only.`,
    '',
    'Each run of the action is `node dist/index.js` started as the runner starts it: every input of action.yml as `INPUT_*` (hyphens kept; defaults from action.yml), `operation: export`, `poll-interval: 10ms`, `path` a fresh folder; `GITHUB_OUTPUT` and `GITHUB_STEP_SUMMARY` files, a fresh `RUNNER_TEMP`, `GITHUB_WORKSPACE`, and `RUNNER_TOOL_CACHE` and `RUNNER_ENVIRONMENT` as on a GitHub-hosted runner (so the bundle is not copied into the tool cache, as on `ubuntu-latest`). It talks to a local fake of the service that answers at once (start, then `completed` on the first status poll, then a bundle link) and a separate local "storage" origin that serves the bundle file from disk behind a presigned-style link (GET, Content-Length). The baselines fetch the same link:',
    '',
    "- tar.gz: `sh -c 'curl -s URL | tar -xz -C DIR'`",
    "- zip: `sh -c 'curl -s -o FILE URL && unzip -q FILE -d DIR'`",
    '',
    `Every run writes into a fresh folder no run has used, and nothing is deleted while the benchmark runs: all output is kept until after the last timed run and then deleted in bulk (only if free space ran low would a case's output be deleted right after it, followed by a pause and then by a wait until creating files is back within ${RECOVERED_FACTOR}x of its fastest speed in the run; the list below says when). Each run is followed (untimed) by \`sync\`, so its writeback does not land in the next. Why: on ext4, file creation after a large delete is several times slower for a minute or more, and neither \`sync\` nor waiting for an idle disk ends that (bench/scratch.ts has the measurements). One untimed download first reads the archive into the page cache; no cache is dropped. Every output is checked: exit status, file count and total bytes of the site, and for the action its outputs (sha256, size, site path) and its requests (one start, one bundle link, one download, no retries). Rounds rotate the order of the runs (download only, baseline, action, and for the first bundle the action with \`verify: false\`). Times come from ${hasGnuTime ? 'GNU `time -v` around each command (CPU, peak RSS) and' : ''} this process's clock (wall, spawn to exit).`
  ].join('\n')
}

function render(list: Part[], runSeconds: number): string {
  const state = (p: Part): string =>
    p.targetsMet === undefined ? '**broken**' : p.targetsMet ? 'all met' : '**not all met**'
  const targets: Record<string, string> = {
    '1. Download + unpack': `action <= ${RATIO_TARGET['tar.gz'].toFixed(2)}x \`curl -s URL \\| tar -xz\` (tar.gz) and <= ${RATIO_TARGET.zip.toFixed(2)}x \`curl -o f URL && unzip -q f\` (zip), wall time, for every bundle; peak RSS <= ${RSS_TARGET_MIB} MiB for every case; the site check adds <= ${(CHECK_COST_TARGET * 100).toFixed(0)}% on ${sites[0]!.label}`,
    '2. Polling': "keep today's request counts; lag reported against a baseline whose jobs do not end on its 10 s grid",
    '3. Start-up': 'reported; <= 100 ms more than node connecting alone'
  }
  return [
    '# Benchmarks',
    '',
    `Generated by \`npm run bench${otherNode ? ` -- --node=<node ${nodeVersion}>` : ''}\`${short ? " (`--short`: small bundles, 2 rounds; the targets are for the full run's bundles)" : ''}; the latest run replaces this file. The numbers are from one machine and move with its load.`,
    '',
    `Machine: ${machineLine(machine)} Load average (1 min) at start: ${loadAtStart.toFixed(2)}, at the end: ${loadAtEnd.toFixed(2)}${steal === undefined ? '' : `; CPU time taken by the hypervisor (steal) during the run: ${steal.toFixed(1)}%`}. Run time: ${runSeconds.toFixed(0)} s.`,
    '',
    '| part | targets | result |',
    '| --- | --- | --- |',
    ...list.map((p) => `| ${p.title} | ${targets[p.title] ?? ''} | ${state(p)} |`),
    '',
    ...list.flatMap((p) => [`## ${p.title}`, '', p.markdown, ''])
  ].join('\n')
}
