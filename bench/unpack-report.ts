/**
 * The download + unpack part of docs/benchmarks.md: what was run (unpackIntro) and what came out
 * (renderUnpack): a table per link (loopback, paced) of the peer, the action without and with the site
 * check, the shell pipe, the ratios with the median's interval, peak RSS and CPU, then the verdicts and
 * the download rates.
 * Prose is written as lists of sentences joined into one paragraph, to keep the source lines short.
 */
import type { BundleSpec } from './bundles.js'
import { type PacedLink, describeLink } from './link.js'
import { hasGnuTime, median, medianInterval } from './measure.js'
import { formatMiB, formatMs, mark, table } from './report.js'
import { PAUSE_AFTER_DELETE_MS, PROBE, RECOVERED_FACTOR, type Scratch } from './scratch.js'
import { type Ratio, type RssGrowth, type Run, TARGETS, type UnpackRow } from './unpack.js'

const paragraph = (...sentences: string[]): string => sentences.join(' ')

export function unpackIntro(sites: readonly BundleSpec[], pacedSites: readonly BundleSpec[], link: PacedLink): string {
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
      '**Two links.** Loopback: the storage sends as fast as the disk and the socket allow.',
      `Paced (${describeLink(link)}), as object storage serves a runner: the storage waits before it answers,`,
      'then sends the body at the rate (a token bucket in the server with a burst of 10 ms of the rate: the same',
      'code path for every tool, so the pacing cannot favour one). Before the timed runs of a paced case, one',
      'download by curl and one by node (`node:http`, as the action and the peer fetch) check what the link',
      'delivers; a link faster than its rate fails the benchmark.',
      pacedSites.length === 0
        ? 'This run has no paced cases.'
        : `Paced cases: ${pacedSites.map((s) => s.label).join(', ')} (the bounds of issue 42).`
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
      "- **shell**, the streaming pipe, the floor: `sh -c 'curl -s URL | tar -xz -C DIR'` (tar.gz),",
      "`sh -c 'curl -s -o FILE URL && unzip -q FILE -d DIR'` (zip, which cannot stream)."
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
  const loopback = rows.filter((r) => r.link === undefined)
  const paced = rows.filter((r) => r.link !== undefined)
  const lines: string[] = []
  if (loopback.length > 0) lines.push('### Loopback', '', mainTable(loopback, med), '')
  for (const link of [...new Set(paced.map((r) => describeLink(r.link)))]) {
    const ofLink = paced.filter((r) => describeLink(r.link) === link)
    lines.push(`### Paced link (${link.slice('paced: '.length)})`, '', mainTable(ofLink, med), '')
  }
  lines.push(
    paragraph(
      "Wall times are medians over the rounds, spawn to exit. A ratio is the median over the rounds of that round's",
      "time over the other's (the peer's, or the shell pipe's); beside it the median's 95% interval,",
      'distribution-free (order statistics of the rounds: the whole range up to 8 rounds, the 2nd to 10th of 11,',
      'the 4th to 12th of 15, the 6th to 16th of 21): a target inside it is met or missed within the noise of the',
      'machine. A ratio without a target is for information. Peak RSS is the largest over the rounds of the',
      'largest single process (for the peer: node, tar, gzip or unzip; for the shell: curl, tar, gzip or unzip);',
      `the target is judged on the action with the site check on (\`verify: true\`), <= ${TARGETS.peakRssMiB} MiB.`,
      'CPU is user + system time of the whole process tree, median. "Delivered" is what the paced link gave curl',
      'and node in the check before the timed runs (body bytes over first byte to last; first byte from the request).'
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

/** `**1.05x** (0.98-1.12x), <= 1.00x: **not met**`; without a target, the ratio and its interval only. */
function ratioCell(ratio: Ratio): string {
  const [low, high] = medianInterval(ratio.perRound)
  const value = `**${ratio.median.toFixed(2)}x** (${low.toFixed(2)}-${high.toFixed(2)}x)`
  return ratio.target === undefined ? value : `${value}, <= ${ratio.target.toFixed(2)}x: ${mark(ratio.met === true)}`
}

/** One link's table: a row per bundle and format. */
function mainTable(rows: UnpackRow[], med: Median): string {
  const wall = (runs: Run[]): string => formatMs(med(runs, (r) => r.wallMs))
  const peak = (runs: Run[]): string => formatMiB(Math.max(...runs.map((r) => r.peakRssKiB ?? 0)) * 1024)
  const cpu = (runs: Run[]): string => formatMs(med(runs, (r) => r.cpuMs))
  const label = (r: UnpackRow): string =>
    `${r.bundle.spec.label} (${r.bundle.files.toLocaleString('en-US')} files, ${formatMiB(r.bundle.unpackedBytes)})`
  const paced = rows.some((r) => r.delivered !== undefined)
  const delivered = (r: UnpackRow): string[] =>
    !paced ? [] : [r.delivered === undefined ? '-' : `${r.delivered.curl.text} / ${r.delivered.node.text}`]
  return table(
    [
      'bundle',
      'format',
      'archive',
      'rounds',
      ...(paced ? ['delivered: curl / node'] : []),
      'peer',
      'action, verify: false',
      'action, verify: true',
      'shell pipe',
      'verify: false / peer (median of rounds, 95% interval)',
      'verify: true / peer',
      'verify: false / shell pipe',
      'peak RSS: peer / verify: false / verify: true',
      'CPU: peer / verify: false / verify: true / shell pipe'
    ],
    rows.map((r) => [
      label(r),
      r.format,
      formatMiB(r.bundle.archives[r.format].sizeBytes),
      String(r.runs.peer.length),
      ...delivered(r),
      wall(r.runs.peer),
      wall(r.runs.unchecked),
      wall(r.runs.checked),
      wall(r.runs.shell),
      ratioCell(r.unchecked),
      ratioCell(r.checked),
      ratioCell(r.pipe),
      hasGnuTime
        ? `${peak(r.runs.peer)} / ${peak(r.runs.unchecked)} / ${peak(r.runs.checked)}: ${mark(r.rssMet === true)}`
        : '-',
      hasGnuTime ? [r.runs.peer, r.runs.unchecked, r.runs.checked, r.runs.shell].map(cpu).join(' / ') : '-'
    ])
  )
}

/** One case's verdicts, and what the site check alone costs (verify: true over false, for information). */
function verdicts(r: UnpackRow): string {
  const ratio = (name: string, value: Ratio): string =>
    value.target === undefined
      ? `${name} ${value.median.toFixed(2)}x`
      : `${name} ${value.median.toFixed(2)}x, target <= ${value.target.toFixed(2)}x: ${mark(value.met === true)}`
  const peak = `peak RSS with the site check ${r.peakMiB.toFixed(0)} MiB`
  const rss =
    r.rssMet === undefined
      ? 'peak RSS not measured (no GNU time)'
      : `${peak}, target <= ${TARGETS.peakRssMiB} MiB: ${mark(r.rssMet)}`
  const checkCost = median(r.runs.checked.map((c, i) => c.wallMs / r.runs.unchecked[i]!.wallMs))
  return paragraph(
    `- ${r.bundle.spec.label}, ${r.format}, ${describeLink(r.link)}: ${ratio('verify: false / peer', r.unchecked)};`,
    `${ratio('verify: false / shell pipe', r.pipe)}; ${ratio('verify: true / peer', r.checked)}; ${rss};`,
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
    "On the paced link the download-only time holds the delay before the first byte and curl's start, and the",
    "logged rate can exceed the link's: while the download waits, the link goes on filling the socket's buffers,",
    'which the action then reads at loopback speed.',
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
      'link',
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
        r.link === undefined ? 'loopback' : 'paced',
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
