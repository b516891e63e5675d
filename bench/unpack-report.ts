/**
 * The download + unpack part of docs/benchmarks.md: what was run (unpackIntro) and what came out
 * (renderUnpack): one table of the peer, the action without and with the site check, their ratios to
 * the peer with the median's interval, peak RSS and CPU, then the verdicts and the download rates.
 * Prose is written as lists of sentences joined into one paragraph, to keep the source lines short.
 */
import type { BundleSpec } from './bundles.js'
import { hasGnuTime, median, medianInterval } from './measure.js'
import { formatMiB, formatMs, mark, table } from './report.js'
import { PAUSE_AFTER_DELETE_MS, PROBE, RECOVERED_FACTOR, type Scratch } from './scratch.js'
import { type Ratio, type RssGrowth, type Run, TARGETS, type UnpackRow } from './unpack.js'

const paragraph = (...sentences: string[]): string => sentences.join(' ')

export function unpackIntro(sites: readonly BundleSpec[]): string {
  return [
    paragraph(
      'Bundles: deterministic generated docs sites (cached after the first run), each as tar.gz (gzip level 6)',
      'and as zip (deflate level 6 per file, stored when that does not shrink it, as `zip -r` does):',
      `${sites.map((s) => s.label).join(', ')}.`,
      'HTML pages are text drawn from a pseudo-word vocabulary with Zipf frequencies and rendered-docs markup;',
      'CSS/JS; images and PDF downloads as incompressible random bytes; a JSON search index.',
      'The small-files site is 0.5-6 KiB pages only.'
    ),
    '',
    paragraph(
      'Each run of the action is `node dist/index.js` started as the runner starts it: every input of action.yml',
      'as `INPUT_*` (hyphens kept; defaults from action.yml), `operation: export`, `poll-interval: 10ms`,',
      '`path` a fresh folder, and `verify: false` or `verify: true` (the default: index page, page count, every',
      'internal link); `GITHUB_OUTPUT` and `GITHUB_STEP_SUMMARY` files, a fresh `RUNNER_TEMP`, `GITHUB_WORKSPACE`,',
      'and `RUNNER_TOOL_CACHE` and `RUNNER_ENVIRONMENT` as on a GitHub-hosted runner.',
      'It talks to a local fake of the service that answers at once (start, then `completed` on the first status',
      'poll, then a bundle link) and a separate local "storage" origin that serves the bundle file from disk',
      'behind a presigned-style link (GET, Content-Length). The others fetch the same link:'
    ),
    '',
    paragraph(
      '- **peer**: the action an author would write with `@actions/tool-cache` 4 (bench/peer/):',
      '`downloadTool(url)` into `RUNNER_TEMP`, then `extractTar(file, path)` (the system tar, `xz`) or',
      '`extractZip(file, path)` (the system unzip). It is bundled with ncc as `dist/` is, at the start of the',
      'benchmark, and started as the runner starts an action: `node index.js` with its inputs (`url`, `path`,',
      "`format`) as `INPUT_*` and the same runner variables. It skips the action's three API calls and its 10 ms",
      'poll wait.'
    ),
    paragraph(
      "- shell, for reference: `sh -c 'curl -s URL | tar -xz -C DIR'` (tar.gz),",
      "`sh -c 'curl -s -o FILE URL && unzip -q FILE -d DIR'` (zip)."
    ),
    '- download only: `curl -s -o /dev/null URL`, for the download rates below.',
    '',
    paragraph(
      'Every run writes into a fresh folder no run has used, and nothing is deleted while the benchmark runs:',
      'all output is kept until after the last timed run and then deleted in bulk (only if free space ran low',
      "would a case's output be deleted right after it, followed by a pause and then by a wait until creating",
      `files is back within ${RECOVERED_FACTOR}x of its fastest speed in the run; the list below says when).`,
      'Each run is followed (untimed) by `sync`, so its writeback does not land in the next.',
      'Why: on ext4, file creation after a large delete is several times slower for a minute or more, and',
      'neither `sync` nor waiting for an idle disk ends that (bench/scratch.ts has the measurements).',
      'One untimed download first reads the archive into the page cache; no cache is dropped, for any side.',
      'Every output is checked: exit status, file count and total bytes of the site, the requests to the link',
      "(one download each, nothing refused; the action's export calls once each), and the outputs (the",
      "action's sha256, size and site path; the peer's site path).",
      'Rounds rotate the order of the five runs (download only, shell, peer, action with `verify: false`,',
      'action with `verify: true`).',
      `Times come from ${hasGnuTime ? 'GNU `time -v` around each command (CPU, peak RSS) and ' : ''}this`,
      "process's clock (wall, spawn to exit)."
    )
  ].join('\n')
}

type Median = (runs: Run[], pick: (r: Run) => number | undefined) => number

export function renderUnpack(
  rows: UnpackRow[],
  growth: RssGrowth[],
  scratch: Pick<Scratch, 'deletedEarly' | 'fastestProbeMs'>
): string {
  const med: Median = (runs, pick) => median(runs.map(pick).filter((v): v is number => v !== undefined))
  const lines = [mainTable(rows, med), '']
  lines.push(
    paragraph(
      "Wall times are medians over the rounds, spawn to exit. A ratio is the median over the rounds of that round's",
      "time over the peer's; beside it the median's 95% interval, distribution-free (order statistics of the",
      'rounds: the whole range up to 8 rounds, the 2nd to 10th of 11, the 4th to 12th of 15, the 6th to 16th of',
      '21): a target inside it is met or missed within the noise of the machine. Peak RSS is the largest over the',
      'rounds of the largest single process (for the peer: node, tar, gzip or unzip; for the shell: curl, tar,',
      'gzip or unzip); the target is judged on the action with the site check on (`verify: true`),',
      `<= ${TARGETS.peakRssMiB} MiB. CPU is user + system time of the whole process tree, median.`
    ),
    ''
  )
  for (const r of rows) lines.push(verdicts(r))
  lines.push(growthLine(growth))
  const { deletedEarly, fastestProbeMs } = scratch
  if (deletedEarly.length > 0) {
    const cases = deletedEarly.map(
      ({ label, waitedMs }) =>
        `${label} (${waitedMs === undefined ? 'no case followed' : `the next case waited ${formatMs(waitedMs)}`})`
    )
    lines.push(
      paragraph(
        `- Free space ran low: the output of ${cases.join('; ')} was deleted early; the next case`,
        `waited ${formatMs(PAUSE_AFTER_DELETE_MS)} after the delete, then until ${PROBE} took at most`,
        `${RECOVERED_FACTOR}x its fastest time in this run.`
      )
    )
  }
  if (fastestProbeMs !== undefined)
    lines.push(
      paragraph(
        `- ${PROBE[0]!.toUpperCase()}${PROBE.slice(1)}, the fastest in this run (before the first case, or between`,
        `cases): ${formatMs(fastestProbeMs)}.`
      )
    )
  lines.push('', '### Download rate in the log', '', downloadIntro(), '', downloadTable(rows, med))
  return lines.join('\n')
}

function mainTable(rows: UnpackRow[], med: Median): string {
  const wall = (runs: Run[]): string => formatMs(med(runs, (r) => r.wallMs))
  const peak = (runs: Run[]): string => formatMiB(Math.max(...runs.map((r) => r.peakRssKiB ?? 0)) * 1024)
  const cpu = (runs: Run[]): string => formatMs(med(runs, (r) => r.cpuMs))
  const ratioCell = (ratio: Ratio, target: number): string => {
    const [low, high] = medianInterval(ratio.perRound)
    const interval = `${low.toFixed(2)}-${high.toFixed(2)}x`
    return `**${ratio.median.toFixed(2)}x** (${interval}), <= ${target.toFixed(2)}x: ${mark(ratio.met)}`
  }
  const label = (r: UnpackRow): string =>
    `${r.bundle.spec.label} (${r.bundle.files.toLocaleString('en-US')} files, ${formatMiB(r.bundle.unpackedBytes)})`
  return table(
    [
      'bundle',
      'format',
      'archive',
      'rounds',
      'peer',
      'action, verify: false',
      'action, verify: true',
      'verify: false / peer (median of rounds, 95% interval)',
      'verify: true / peer (median of rounds, 95% interval)',
      'shell (reference)',
      'peak RSS: peer / verify: false / verify: true',
      'CPU: peer / verify: false / verify: true'
    ],
    rows.map((r) => [
      label(r),
      r.format,
      formatMiB(r.bundle.archives[r.format].sizeBytes),
      String(r.runs.peer.length),
      wall(r.runs.peer),
      wall(r.runs.unchecked),
      wall(r.runs.checked),
      ratioCell(r.unchecked, TARGETS.uncheckedRatio),
      ratioCell(r.checked, TARGETS.checkedRatio),
      wall(r.runs.shell),
      hasGnuTime
        ? `${peak(r.runs.peer)} / ${peak(r.runs.unchecked)} / ${peak(r.runs.checked)}: ${mark(r.rssMet === true)}`
        : '-',
      hasGnuTime ? `${cpu(r.runs.peer)} / ${cpu(r.runs.unchecked)} / ${cpu(r.runs.checked)}` : '-'
    ])
  )
}

/** One case's verdicts, and what the site check alone costs (verify: true over false, for information). */
function verdicts(r: UnpackRow): string {
  const ratio = (name: string, value: Ratio, target: number): string =>
    `${name} / peer ${value.median.toFixed(2)}x, target <= ${target.toFixed(2)}x: ${mark(value.met)}`
  const peak = `peak RSS with the site check ${r.peakMiB.toFixed(0)} MiB`
  const rss =
    r.rssMet === undefined
      ? 'peak RSS not measured (no GNU time)'
      : `${peak}, target <= ${TARGETS.peakRssMiB} MiB: ${mark(r.rssMet)}`
  const checkCost = median(r.runs.checked.map((c, i) => c.wallMs / r.runs.unchecked[i]!.wallMs))
  return paragraph(
    `- ${r.bundle.spec.label}, ${r.format}: ${ratio('verify: false', r.unchecked, TARGETS.uncheckedRatio)};`,
    `${ratio('verify: true', r.checked, TARGETS.checkedRatio)}; ${rss};`,
    `the site check alone: verify: true / verify: false ${checkCost.toFixed(2)}x (median of rounds)`
  )
}

function growthLine(growth: RssGrowth[]): string {
  const target = `within ${TARGETS.rssGrowthMiB} MiB`
  if (growth.length === 0)
    return paragraph(
      `- Memory against bundle size (target: the 1 GiB bundle's peak RSS ${target} of the 3,000-page one's):`,
      'not judged in this run.'
    )
  const formats = growth.map(({ small, large, growthMiB, met }) =>
    paragraph(
      `${small.format}: ${small.peakMiB.toFixed(0)} MiB for ${small.bundle.spec.label},`,
      `${large.peakMiB.toFixed(0)} MiB for ${large.bundle.spec.label},`,
      `${growthMiB >= 0 ? '+' : ''}${growthMiB.toFixed(0)} MiB: ${mark(met)}`
    )
  )
  return `- Memory against bundle size (peak RSS with the site check; target: ${target}): ${formats.join('; ')}.`
}

function downloadIntro(): string {
  return paragraph(
    'The action (`verify: true`) logs `Downloaded <size> in <time> (<rate>)`; its time here is size / logged',
    'rate (the logged time has only tenths of a second). Beside it: `curl -s -o /dev/null URL` from the same',
    'server, the download alone (median of one run per round, in the rotation).',
    "The action's download time leaves out the time the download waited for the bundle to be written and",
    'unpacked (backpressure), which its log line gives apart (`; waited <time> more for writing and unpacking`):',
    "a logged time close to the download-only time means the logged rate is the download's own.",
    '"Spawn to download request" is the action\'s start-up, its three API calls and one 10 ms poll wait.',
    "A dash: the action's log had no such line."
  )
}

function downloadTable(rows: UnpackRow[], med: Median): string {
  const rate = (bytes: number, ms: number): string => `${formatMiB((bytes / ms) * 1000)}/s`
  const orDash = (value: number, format: (v: number) => string): string => (Number.isNaN(value) ? '-' : format(value))
  return table(
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
      const logged = med(r.runs.checked, (x) => x.logged?.ms)
      return [
        r.bundle.spec.label,
        r.format,
        `${formatMs(raw)} (${rate(size, raw)})`,
        orDash(logged, (v) => `${formatMs(v)} (${rate(size, v)})`),
        orDash(logged, (v) => `${(v / raw).toFixed(1)}x`),
        orDash(
          med(r.runs.checked, (x) => x.logged?.waitedMs),
          formatMs
        ),
        orDash(
          med(r.runs.checked, (x) => x.beforeDownloadMs),
          formatMs
        ),
        formatMs(med(r.runs.checked, (x) => x.wallMs))
      ]
    })
  )
}
