// What a person sees of a run in `npm run demo`: the action's stdout as the runner's log shows it (the workflow
// commands obeyed, not printed: a group's title, a warning's marker, masked values as ***), and the job summary's
// HTML as text for a terminal. Pure.
import { Secrets } from '../src/common/secrets.js'
import { shown } from '../test/support/github-summary.js'

/** ANSI marks when the terminal takes them; none in a test or a file. */
export interface Style {
  color: boolean
}

const PLAIN: Style = { color: false }
const ANSI = { bold: '\u001b[1m', yellow: '\u001b[33m', red: '\u001b[31m', cyan: '\u001b[36m', reset: '\u001b[0m' }
// eslint-disable-next-line no-control-regex -- the ANSI marks are what this finds
const ANSI_MARK = /\u001b\[[0-9;]*m/g

function paint(style: Style, mark: keyof typeof ANSI, text: string): string {
  return style.color ? `${ANSI[mark]}${text}${ANSI.reset}` : text
}

/** `::name key=value,...::message`, as the runner reads a line (leading white space ignored). */
const COMMAND = /^\s*::([A-Za-z-]+)(?: ([^:]*))?::(.*)$/
/** What a command's message and properties escape (@actions/core's escapeData and escapeProperty). */
const ESCAPED = { '%25': '%', '%0D': '\r', '%0A': '\n', '%3A': ':', '%2C': ',' } as const

function unescape(text: string): string {
  return text.replace(/%(25|0D|0A|3A|2C)/gi, (mark) => ESCAPED[mark.toUpperCase() as keyof typeof ESCAPED])
}

const MARKERS = { warning: ['Warning', 'yellow'], error: ['Error', 'red'], notice: ['Notice', 'cyan'] } as const

/**
 * The action's stdout as the runner's log reads: a group is its title (`▾ Start the export`) with its lines
 * indented under it; `::warning::`, `::error::` and `::notice::` are their message after a marker (`Warning: ...`),
 * with the file and line they point at; debug lines, masks and outputs show nothing; a value given to
 * `::add-mask::` shows as `***` from then on; after `::stop-commands::<token>` lines are printed as they are
 * until `::<token>::`.
 */
export function runnerLog(stdout: string, style: Style = PLAIN): string {
  const masks = new Secrets()
  const out: string[] = []
  let indent = ''
  let stopToken: string | undefined
  const print = (text: string, prefix = ''): void => {
    const lines = masks.redact(text).split(/\r\n|\r|\n/)
    lines.forEach((line, i) => out.push(`${indent}${i === 0 ? prefix : ' '.repeat(prefix.length)}${line}`))
  }
  const lines = stdout.split(/\r\n|\r|\n/)
  if (lines.at(-1) === '') lines.pop()
  for (const line of lines) {
    const command = COMMAND.exec(line)
    if (stopToken !== undefined) {
      if (line.trim() === `::${stopToken}::`) stopToken = undefined
      else print(line)
      continue
    }
    if (command === null) {
      print(line)
      continue
    }
    const [, name = '', properties = '', message = ''] = command
    const text = unescape(message)
    switch (name.toLowerCase()) {
      case 'add-mask':
        masks.add(text)
        break
      case 'group':
        indent = ''
        print(paint(style, 'bold', text), '▾ ')
        indent = '  '
        break
      case 'endgroup':
        indent = ''
        break
      case 'warning':
      case 'error':
      case 'notice': {
        const [label, color] = MARKERS[name.toLowerCase() as keyof typeof MARKERS]
        const where = locationOf(properties)
        print(`${text}${where}`, `${paint(style, color, `${label}:`)} `)
        break
      }
      case 'stop-commands':
        stopToken = text
        break
      case 'debug':
      case 'set-output':
      case 'save-state':
      case 'add-path':
      case 'set-env':
      case 'echo':
        break
      default:
        // A command the runner does not know is printed as it is.
        print(line)
    }
  }
  return out.join('\n')
}

/** ` (file.ts:3)` from an annotation's `file=...,line=...` properties; empty without a file. */
function locationOf(properties: string): string {
  const values = new Map(
    properties
      .split(',')
      .filter((pair) => pair.includes('='))
      .map((pair) => [pair.slice(0, pair.indexOf('=')).trim(), unescape(pair.slice(pair.indexOf('=') + 1))])
  )
  const file = values.get('file')
  if (file === undefined) return ''
  const line = values.get('line')
  return ` (${file}${line === undefined ? '' : `:${line}`})`
}

/** A tag (`<td>`, `</td>`, `<a href="...">`) or the text between tags. */
const TOKEN = /<(\/?)([a-zA-Z][a-zA-Z0-9]*)([^>]*)>|([^<]+)/g

/**
 * The job summary's HTML as a terminal shows it: the heading, the table with its columns lined up, paragraphs,
 * list items as `• ...`, each fold as `▾ title` (`▸` when GitHub shows it folded) with its lines indented, a link
 * as its text and address. Only the summary's own few tags are read; any other is dropped, its text kept.
 */
export function summaryText(html: string, style: Style = PLAIN): string {
  const out: string[] = []
  let text = ''
  let indent = ''
  let table: string[][] | undefined
  let row: string[] | undefined
  let link: { href: string; from: number } | undefined
  const folds: boolean[] = []
  const blank = (): void => {
    if (out.length > 0 && out.at(-1) !== '') out.push('')
  }
  const flush = (prefix = ''): void => {
    const lines = text.split('\n')
    text = ''
    if (lines.every((line) => line.trim() === '')) return
    lines.forEach((line, i) => out.push(`${indent}${i === 0 ? prefix : ' '.repeat(prefix.length)}${line}`))
  }
  for (const [, closing, tagName, attributes = '', between] of html.matchAll(TOKEN)) {
    if (between !== undefined) {
      text += shown(between)
      continue
    }
    const tag = tagName?.toLowerCase() ?? ''
    const opens = closing === ''
    if (/^h[1-6]$/.test(tag)) {
      if (opens) flush()
      else {
        const title = text
        text = ''
        out.push(`${indent}${paint(style, 'bold', title)}`)
        blank()
      }
    } else if (tag === 'p' || tag === 'pre') {
      flush()
      if (!opens && tag === 'p') blank()
    } else if (tag === 'br') text += '\n'
    else if (tag === 'ul') {
      flush()
      if (!opens) blank()
    } else if (tag === 'li') {
      if (opens) flush()
      else flush('• ')
    } else if (tag === 'table') {
      if (opens) {
        flush()
        table = []
      } else {
        out.push(...alignedRows(table ?? [], style).map((line) => `${indent}${line}`))
        table = undefined
        blank()
      }
    } else if (tag === 'tr') {
      if (opens) row = []
      else if (row !== undefined) table?.push(row)
    } else if (tag === 'td' || tag === 'th') {
      if (opens) text = ''
      else {
        row?.push(text.replace(/\s*\n\s*/g, ' ').trim())
        text = ''
      }
    } else if (tag === 'details') {
      if (opens) {
        flush()
        folds.push(/\sopen\b/.test(attributes))
      } else {
        flush()
        folds.pop()
        indent = indent.slice(2)
        blank()
      }
    } else if (tag === 'summary') {
      if (!opens) {
        const title = text
        text = ''
        out.push(`${indent}${folds.at(-1) === true ? '▾' : '▸'} ${paint(style, 'bold', title)}`)
        indent += '  '
      }
    } else if (tag === 'strong' || tag === 'b') text += style.color ? (opens ? ANSI.bold : ANSI.reset) : ''
    else if (tag === 'a') {
      if (opens) link = { href: shown(/\shref="([^"]*)"/.exec(attributes)?.[1] ?? ''), from: text.length }
      else if (link !== undefined) {
        if (link.href !== '' && text.slice(link.from) !== link.href) text += ` (${link.href})`
        link = undefined
      }
    }
  }
  flush()
  while (out.at(-1) === '') out.pop()
  return out.join('\n')
}

/** A table's rows with each column as wide as its widest cell; the header row underlined. */
function alignedRows(rows: string[][], style: Style): string[] {
  const width = (cell: string): number => cell.replace(ANSI_MARK, '').length
  const columns = Math.max(0, ...rows.map((cells) => cells.length))
  const widths = Array.from({ length: columns }, (_, i) => Math.max(0, ...rows.map((cells) => width(cells[i] ?? ''))))
  const line = (cells: string[]): string =>
    cells
      .map((cell, i) => (i === cells.length - 1 ? cell : `${cell}${' '.repeat((widths[i] ?? 0) - width(cell))}`))
      .join('  ')
  const [header, ...body] = rows
  if (header === undefined) return []
  return [paint(style, 'bold', line(header)), widths.map((w) => '─'.repeat(w)).join('  '), ...body.map(line)]
}
