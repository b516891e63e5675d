import * as core from '@actions/core'
import type { OutputName, Outputs } from './outputs.js'
import { formatBytes } from './units.js'

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

/** Appends the report to the job summary (never overwrites what earlier steps wrote). */
export async function writeSummary(report: Report, outputs: Outputs, failure?: string): Promise<void> {
  if (!process.env.GITHUB_STEP_SUMMARY) return
  const summary = core.summary.addHeading(escapeHtml(report.title), 3)
  const rows = summaryRows(outputs, report)
  if (rows.length > 0) {
    summary.addTable([[{ data: 'Item', header: true }, { data: 'Value', header: true }], ...rows])
  }
  for (const note of report.notes) summary.addRaw(`<p>${escapeHtml(note)}</p>`, true)
  if (failure) summary.addRaw(`<p>❌ ${escapeHtml(failure)}</p>`, true)
  await summary.write()
}

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)
}

function code(text: string): string {
  return `<code>${escapeHtml(text)}</code>`
}
