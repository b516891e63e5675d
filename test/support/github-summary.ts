/**
 * How GitHub reads a job summary, as far as the tests need it. The summary is Markdown, in which
 * a block that starts with an HTML block tag is HTML up to the next blank line (CommonMark's HTML
 * block): nothing in it is read as Markdown, so a code span's backticks show as they are, and a
 * `- item` line is no list item. The action writes HTML only; this finds what would not show as
 * meant.
 */

/**
 * The tags that open an HTML block that only a blank line ends (CommonMark, start condition 6), those the summary
 * uses.
 */
const HTML_BLOCK_START = /^<\/?(h[1-6]|table|p|ul|ol|li|div|details|summary)[\s/>]/i

export interface SummaryReading {
  /** The blocks (parts between blank lines) GitHub would read as Markdown, not HTML: there should be none. */
  markdownBlocks: string[]
  /** The text shown outside `<code>`, tags removed (entities left as they are). */
  shownText: string
  /** Each `<ul>`, as the HTML of its items. */
  lists: string[][]
}

export function readSummary(summary: string): SummaryReading {
  const blocks: string[][] = [[]]
  for (const line of summary.split(/\r\n|\r|\n/)) {
    if (line.trim() === '') blocks.push([])
    else blocks.at(-1)?.push(line)
  }
  const markdownBlocks = blocks
    .filter((lines) => lines.length > 0)
    .map((lines) => lines.join('\n'))
    .filter((block) => !HTML_BLOCK_START.test(block.replace(/^ {0,3}/, '')))
  const shownText = summary.replace(/<code>[\s\S]*?<\/code>/g, '').replace(/<[^>]*>/g, '')
  const lists = Array.from(summary.matchAll(/<ul>([\s\S]*?)<\/ul>/g), ([, items = '']) =>
    Array.from(items.matchAll(/<li>([\s\S]*?)<\/li>/g), ([, item = '']) => item)
  )
  return { markdownBlocks, shownText, lists }
}

/** A summary as a reader sees it on the run's page: each part's text, tags gone, entities read. */
export interface SummaryView {
  heading: string
  /** The table: each row's label and value as shown. */
  rows: Map<string, string>
  /** Notes and the failure, one entry a paragraph. */
  paragraphs: string[]
  /** Each fold: its title, whether it shows unfolded, its list items or log lines. */
  folds: Array<{ title: string; open: boolean; lines: string[] }>
}

/** What a reader sees of `summary` (the action's HTML, which GitHub shows as HTML: see readSummary). */
export function viewSummary(summary: string): SummaryView {
  const all = (pattern: RegExp): RegExpExecArray[] => Array.from(summary.matchAll(pattern))
  return {
    heading: shown(/<h3>(.*?)<\/h3>/.exec(summary)?.[1] ?? ''),
    rows: new Map(
      all(/<tr><td>(.*?)<\/td><td>(.*?)<\/td><\/tr>/g).map(([, label = '', value = '']) => [shown(label), shown(value)])
    ),
    paragraphs: all(/<p>(.*?)<\/p>/g).map(([, text = '']) => shown(text)),
    folds: all(/<details( open)?><summary>(.*?)<\/summary>(.*?)<\/details>/g).map(
      ([, open, title = '', body = '']) => ({
        title: shown(title),
        open: open !== undefined,
        lines: body.startsWith('<ul>')
          ? Array.from(body.matchAll(/<li>(.*?)<\/li>/g), ([, item = '']) => shown(item))
          : shown(body.replace(/^<pre>|<\/pre>$/g, '')).split('\n')
      })
    )
  }
}

/** HTML as text: a `<br>` a line break, other tags gone, character references read. */
export function shown(html: string): string {
  return html
    .replace(/<br>/g, '\n')
    .replace(/<[^>]*>/g, '')
    .replace(/&#(\d+);|&(amp|lt|gt|quot);/g, (_, code: string | undefined, name: string | undefined) =>
      code !== undefined
        ? String.fromCodePoint(Number(code))
        : ({ amp: '&', lt: '<', gt: '>', quot: '"' } as const)[name as 'amp']
    )
}
