/**
 * The job summary: what the run did, as HTML for the runner's summary page. Pure rendering.
 *
 * GitHub reads the summary as Markdown, where a block that starts with an HTML tag is HTML up to
 * the next blank line, with no Markdown inside it. So every part is HTML: notes and errors, which
 * are written with Markdown's code spans (`wait: false`) and lists (`  - problem`) for the log,
 * get `<code>` and `<ul>` here. No line of it is ever blank (a line break in a text is a `<br>`),
 * so text from elsewhere cannot end the HTML and be read as Markdown; all of it is escaped, and
 * its @mentions ping nobody.
 */
import type { Secrets } from '../common/secrets.js'
import { printableLines, withoutMentions } from '../common/text.js'
import { formatBytes, formatMoment } from '../common/units.js'
import { timestamp } from '../service/answer.js'
import type { OutputName, Outputs } from './outputs.js'

/** What a flow adds to the job summary beyond its outputs: rows of its own, notes and folds. */
export interface Report {
  title: string
  rows: Array<[label: string, value: string]>
  notes: string[]
  folds: Fold[]
}

/**
 * A part of the summary shown folded under its title: a list (of paths, say), or lines of a log
 * as they are, their indentation kept. Text from anywhere: escaped like every other.
 */
export interface Fold {
  title: string
  kind: 'list' | 'log'
  lines: string[]
  /** Shown unfolded (the log of a failure). */
  open?: boolean
}

export function newReport(title: string): Report {
  return { title, rows: [], notes: [], folds: [] }
}

/** How an output's value is shown: `now` (clock ms) for the moments, said from when the summary is written. */
type Show = (value: string, now: number) => string

/** The outputs a reader of the summary wants, in reading order, with how to show each. */
const SUMMARY_OUTPUTS: Array<[OutputName, string, Show]> = [
  ['job-id', 'Job', code],
  ['status', 'Status', (v) => `<strong>${text(v)}</strong>`],
  ['page-count', 'Pages', text],
  ['pr-link', 'Pull request', (v) => `<a href="${escapeHtml(v)}">${escapeHtml(v)}</a>`],
  ['bundle-size', 'Bundle size', (v) => text(formatBytes(Number(v)))],
  ['bundle-sha256', 'Bundle sha256', code],
  ['cache-hit', 'Cache hit', (v) => text(v === 'true' ? "yes: from the runner's tool cache" : 'no: downloaded')],
  ['site-path', 'Site', code],
  ['deployed-commit', 'Deployed commit', code],
  ['automation-run-id', 'Automation run', code],
  ['bundle-path', 'Archive', code],
  ['expires-at', 'Link expires', moment],
  ['model', 'Model', text],
  ['source-repository', 'Repository', text],
  ['source-ref', 'Branch', code],
  ['created-at', 'Job created', moment],
  ['archived-at', 'Archived', moment]
]

/** Rows for the summary: the known outputs first (`valueOf` each), then the flow's own rows. */
function summaryRows(
  valueOf: (name: OutputName) => string | undefined,
  report: Report,
  now: number
): Array<[string, string]> {
  const rows: Array<[string, string]> = []
  for (const [name, label, show] of SUMMARY_OUTPUTS) {
    const value = valueOf(name)
    if (value) rows.push([label, show(value, now)])
  }
  return [...rows, ...report.rows.map(([label, value]): [string, string] => [label, text(value)])]
}

/**
 * The report as HTML: a heading, a table of what is known, the notes, and the failure if any;
 * `secrets` taken out of every text before it is escaped (an escape changes how a secret is
 * spelled), since the runner need not mask a summary as it masks the log, and a service's error
 * may quote the key it was sent. Moments are said in UTC and from `now` (clock ms), when the
 * summary is written.
 */
export function renderSummary(
  report: Report,
  outputs: Outputs,
  failure: string | undefined,
  secrets: Secrets,
  now: number
): string {
  const clean = (value: string): string => secrets.redact(value)
  const shown: Report = {
    title: clean(report.title),
    rows: report.rows.map(([label, value]): [string, string] => [clean(label), clean(value)]),
    notes: report.notes.map(clean),
    folds: report.folds.map((fold) => ({ ...fold, title: clean(fold.title), lines: fold.lines.map(clean) }))
  }
  const parts = [`<h3>${text(shown.title)}</h3>`]
  const valueOf = (name: OutputName): string | undefined => {
    const value = outputs.get(name)
    return value === undefined ? undefined : clean(value)
  }
  const rows = summaryRows(valueOf, shown, now)
  if (rows.length > 0) {
    const body = rows.map(([label, value]) => `<tr><td>${text(label)}</td><td>${value}</td></tr>`).join('')
    parts.push(`<table><tr><th>Item</th><th>Value</th></tr>${body}</table>`)
  }
  for (const note of shown.notes) parts.push(...messageBlocks(note))
  for (const fold of shown.folds) parts.push(foldBlock(fold))
  if (failure !== undefined) parts.push(...messageBlocks(clean(failure), '❌'))
  return `${parts.join('\n')}\n`
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)
}

/** A fold on one line (a blank line would end the HTML): a log's lines are `<br>`s inside its `<pre>`. */
function foldBlock(fold: Fold): string {
  const body =
    fold.kind === 'list'
      ? `<ul>${fold.lines.map((line) => `<li>${text(line)}</li>`).join('')}</ul>`
      : `<pre>${fold.lines.map((line) => text(line)).join('<br>')}</pre>`
  return `<details${fold.open === true ? ' open' : ''}><summary>${text(fold.title)}</summary>${body}</details>`
}

/** A line of a message that is an item of a list: `- item`, indented or not. */
const LIST_ITEM = /^\s*- +(.*)$/

/**
 * A message (a note, the failure) as HTML blocks: its runs of `- item` lines as a list, its other
 * lines as paragraphs (a blank line starts a new one, a line break is a `<br>`), code spans as
 * `<code>`. `lead` (the failure's mark) starts the first paragraph.
 */
function messageBlocks(message: string, lead?: string): string[] {
  const blocks: string[] = []
  let paragraph: string[] = []
  let items: string[] = []
  const close = (): void => {
    if (paragraph.length > 0) blocks.push(`<p>${paragraph.join('<br>')}</p>`)
    if (items.length > 0) blocks.push(`<ul>${items.map((item) => `<li>${item}</li>`).join('')}</ul>`)
    paragraph = []
    items = []
  }
  for (const line of printableLines(message)) {
    const item = LIST_ITEM.exec(line)
    if (item !== null) {
      if (paragraph.length > 0) close()
      items.push(inline(item[1] ?? ''))
    } else if (line.trim() === '') {
      close()
    } else {
      if (items.length > 0) close()
      paragraph.push(inline(line))
    }
  }
  close()
  if (lead === undefined) return blocks
  const first = blocks[0]
  if (first?.startsWith('<p>')) blocks[0] = `<p>${escapeHtml(lead)} ${first.slice('<p>'.length)}`
  else blocks.unshift(`<p>${escapeHtml(lead)}</p>`)
  return blocks
}

/**
 * One line of a message as HTML: its code spans as Markdown reads them (a run of backticks up to
 * the next run of as many; a run that none closes is plain text) become `<code>`, the rest text.
 */
function inline(line: string): string {
  const runs = Array.from(line.matchAll(/`+/g), (run) => ({ at: run.index, length: run[0].length }))
  let html = ''
  let from = 0
  for (let i = 0; i < runs.length; i++) {
    const open = runs[i] as { at: number; length: number }
    const closing = runs.findIndex((run, j) => j > i && run.length === open.length)
    if (closing < 0) continue
    const close = runs[closing] as { at: number; length: number }
    html += `${text(line.slice(from, open.at))}${code(codeSpan(line.slice(open.at + open.length, close.at)))}`
    from = close.at + close.length
    i = closing
  }
  return `${html}${text(line.slice(from))}`
}

/** A code span's content: one space each side is padding when both are there (and it is not all spaces). */
function codeSpan(content: string): string {
  return content.startsWith(' ') && content.endsWith(' ') && content.trim() !== '' ? content.slice(1, -1) : content
}

/** Text from anywhere, escaped, pinging nobody, its line breaks as `<br>`: never a blank line. */
function text(value: string): string {
  return printableLines(value)
    .map((line) => escapeHtml(withoutMentions(line)))
    .join('<br>')
}

/** A moment (an ISO 8601 time, or as the service gave it) in UTC and from now; text it cannot read, as it is. */
function moment(value: string, now: number): string {
  const at = timestamp(value)
  return text(at === undefined ? value : formatMoment(at, now))
}

/** A value to copy as it is (an id, a path): one line, escaped, nothing added. */
function code(value: string): string {
  return `<code>${escapeHtml(printableLines(value).join(' '))}</code>`
}
