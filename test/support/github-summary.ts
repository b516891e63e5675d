/**
 * How GitHub reads a job summary, as far as the tests need it. The summary is Markdown, in which
 * a block that starts with an HTML block tag is HTML up to the next blank line (CommonMark's HTML
 * block): nothing in it is read as Markdown, so a code span's backticks show as they are, and a
 * `- item` line is no list item. The action writes HTML only; this finds what would not show as
 * meant.
 */

/** The tags that open an HTML block that only a blank line ends (CommonMark, start condition 6), those the summary uses. */
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
