/** The job summary: what the run did, as HTML for the runner's summary page. Pure rendering. */
import { formatBytes } from '../common/units.js'
import type { OutputName, Outputs } from './outputs.js'

/** What a flow adds to the job summary beyond its outputs: rows of its own and notes. */
export interface Report {
  title: string
  rows: Array<[label: string, value: string]>
  notes: string[]
}

export function newReport(title: string): Report {
  return { title, rows: [], notes: [] }
}

/** The outputs a reader of the summary wants, in reading order, with how to show each. */
const SUMMARY_OUTPUTS: Array<[OutputName, string, (value: string) => string]> = [
  ['job-id', 'Job', code],
  ['status', 'Status', (v) => `<strong>${escapeHtml(v)}</strong>`],
  ['page-count', 'Pages', escapeHtml],
  ['pr-link', 'Pull request', (v) => `<a href="${escapeHtml(v)}">${escapeHtml(v)}</a>`],
  ['bundle-size', 'Bundle size', (v) => escapeHtml(formatBytes(Number(v)))],
  ['bundle-sha256', 'Bundle sha256', code],
  ['site-path', 'Site', code],
  ['bundle-path', 'Archive', code],
  ['expires-at', 'Link expires', escapeHtml],
  ['model', 'Model', escapeHtml],
  ['source-repository', 'Repository', escapeHtml],
  ['source-ref', 'Branch', code]
]

/** Rows for the summary: the known outputs first, then the flow's own rows. */
export function summaryRows(outputs: Outputs, report: Report): Array<[string, string]> {
  const rows: Array<[string, string]> = []
  for (const [name, label, show] of SUMMARY_OUTPUTS) {
    const value = outputs.get(name)
    if (value) rows.push([label, show(value)])
  }
  return [...rows, ...report.rows.map(([label, value]): [string, string] => [label, escapeHtml(value)])]
}

/** The report as HTML: a heading, a table of what is known, the notes, and the failure if any. */
export function renderSummary(report: Report, outputs: Outputs, failure?: string): string {
  const parts = [`<h3>${escapeHtml(report.title)}</h3>`]
  const rows = summaryRows(outputs, report)
  if (rows.length > 0) {
    const body = rows.map(([label, value]) => `<tr><td>${escapeHtml(label)}</td><td>${value}</td></tr>`).join('')
    parts.push(`<table><tr><th>Item</th><th>Value</th></tr>${body}</table>`)
  }
  for (const note of report.notes) parts.push(`<p>${escapeHtml(note)}</p>`)
  if (failure !== undefined) parts.push(`<p>❌ ${escapeHtml(failure)}</p>`)
  return `${parts.join('\n')}\n`
}

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)
}

function code(text: string): string {
  return `<code>${escapeHtml(text)}</code>`
}
