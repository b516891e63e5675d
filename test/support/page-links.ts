/** Reading pages held in memory with the site check's scanner, as the check reads them from disk. */
import { type ReadPage, PageScanner } from '../../src/verify/page-links.js'
import { LinkCheck } from '../../src/verify/links.js'

/** The reader of a page held in memory. */
export function readerOf(page: Buffer): ReadPage {
  let read = 0
  return (into, at) => {
    const copied = page.copy(into, at, read, Math.min(page.length, read + into.length - at))
    read += copied
    return copied
  }
}

/** Every href/src value of the start tags of a page, read `windowBytes` at a time, with its offset and line. */
export function scanLinks(page: Buffer, windowBytes?: number): Array<{ value: string; offset: number; line: number }> {
  const links: Array<{ value: string; offset: number; line: number }> = []
  const scanner = new PageScanner(windowBytes)
  scanner.scan(readerOf(page), () => {
    const { window, start, end, base } = scanner
    links.push({ value: window.toString('utf8', start, end), offset: base + start, line: scanner.line() })
  })
  return links
}

/** A check of the links of `pages` (site path and content, read in the order given) on a site of `files`. */
export function checkLinks(
  files: readonly string[],
  pages: ReadonlyArray<readonly [string, Buffer | string]>,
  options: { shown?: number; windowBytes?: number } = {}
): LinkCheck {
  const check = new LinkCheck(files, options.shown, options.windowBytes)
  for (const [page, content] of pages) check.observe(page, readerOf(Buffer.from(content)))
  return check
}
