/**
 * The internal links (relative and root paths) of a site's pages, judged against its files (site
 * paths, see site-paths.ts) as the pages are read. Pure. Each distinct link is judged once: a root
 * path is the same link from every page, a relative one from every page of its folder.
 */
import { type ReadPage, PageScanner } from './page-links.js'
import { decodeSitePath, encodeSitePath } from '../common/site-paths.js'

/** A broken link: where it first appears (a page's site path, byte offset and line), as written, how often. */
export type FoundLink = { file: string; offset: number; line: number; link: string; count: number }

/** Broken links shown one by one; the rest are counted. */
const BROKEN_LINKS_SHOWN = 20
/** Verdicts kept (about 100 bytes each); past that a link is judged each time it is met: time, not memory. */
const VERDICTS_KEPT = 200_000
const [NUMBER_SIGN, SLASH] = [0x23, 0x2f]

/** A link leads outside the site (or nowhere in particular), to a file of it, or nowhere: a shown one, or not. */
type Verdict = 'outside' | 'served' | 'broken' | FoundLink

/** Whether a site path is an HTML page, the only files whose links are read. */
export const isPage = (path: string): boolean => /\.html?$/i.test(path)

/** The links of a site's pages, read in page order: `broken` holds the site's first ones. */
export class LinkCheck {
  /** Internal links, and those that lead to no file of the site, every occurrence counted. */
  links = 0
  brokenCount = 0
  readonly broken: FoundLink[] = []
  private readonly served: Set<string>
  private readonly shown: number
  private readonly scanner: PageScanner
  private readonly rootLinks = new Map<string, Verdict>()
  private readonly folderLinks = new Map<string, Map<string, Verdict>>()
  private kept = 0

  constructor(files: readonly string[], shown = BROKEN_LINKS_SHOWN, windowBytes?: number) {
    this.served = new Set(files)
    this.shown = shown
    this.scanner = new PageScanner(windowBytes)
  }

  /** Reads the links of `page` (a site path) through `read`; a file that is no HTML page is not read. */
  observe(page: string, read: ReadPage): void {
    if (!isPage(page)) return
    const folder = page.slice(0, page.lastIndexOf('/') + 1)
    const relative = this.folderLinks.get(folder) ?? new Map<string, Verdict>()
    this.folderLinks.set(folder, relative)
    this.scanner.scan(read, () => {
      const { window, start, end } = this.scanner
      // A link to a place in the same page (`#usage`) is not checked.
      if (window[start] === NUMBER_SIGN) return
      const root = window[start] === SLASH && (end === start + 1 || window[start + 1] !== SLASH)
      const verdicts = root ? this.rootLinks : relative
      // Latin-1 gives each byte a character of its own.
      const key = window.toString('latin1', start, end)
      const verdict = verdicts.get(key) ?? this.judge(page, verdicts, key)
      if (verdict === 'outside') return
      this.links++
      if (verdict === 'served') return
      this.brokenCount++
      if (verdict !== 'broken') verdict.count++
    })
  }

  /** The verdict of a link met for the first time (or again, past VERDICTS_KEPT), kept. */
  private judge(page: string, verdicts: Map<string, Verdict>, key: string): Verdict {
    const { window, start, end, base } = this.scanner
    const target = linkTarget(page, decodeSitePath(window.subarray(start, end)))
    let verdict: Verdict = target === undefined ? 'outside' : resolves(target, this.served) ? 'served' : 'broken'
    if (verdict === 'broken' && this.broken.length < this.shown) {
      const link = window.toString('utf8', start, end)
      verdict = { file: page, offset: base + start, line: this.scanner.line(), link, count: 0 }
      this.broken.push(verdict)
    }
    // A shown link is kept past the bound: one not kept is surely not shown.
    if (this.kept++ < VERDICTS_KEPT || typeof verdict === 'object') verdicts.set(key, verdict)
    return verdict
  }
}

/**
 * The site path a link from page `from` points to (`guides/`: a folder), or undefined when it leaves
 * the site or points nowhere in particular (a scheme, a host, a fragment, a climb above the root).
 */
export function linkTarget(from: string, value: string): string | undefined {
  const raw = decodeEntities(value.trim())
  if (raw === '' || raw.startsWith('#') || raw.startsWith('//') || /^[a-z][a-z0-9+.-]*:/i.test(raw)) return undefined
  const path = raw.replace(/[?#].*$/s, '')
  if (path === '') return undefined
  const decoded = path.includes('%') ? decodePercent(path) : path
  const segments = decoded.startsWith('/') ? [] : from.split('/').slice(0, -1)
  for (const segment of decoded.split('/')) {
    if (segment === '..' && segments.length === 0) return undefined
    if (segment === '..') segments.pop()
    else if (segment !== '' && segment !== '.') segments.push(segment)
  }
  const target = segments.join('/')
  return decoded.endsWith('/') && target !== '' ? `${target}/` : target
}

/** Whether a site of `files` serves `target` as static hosts do: as is, `.html` or `/index.html` added. */
export function resolves(target: string, files: ReadonlySet<string>): boolean {
  if (target === '' || target.endsWith('/')) return files.has(`${target}index.html`)
  return files.has(target) || files.has(`${target}.html`) || files.has(`${target}/index.html`)
}

function decodeEntities(text: string): string {
  return text.includes('&') ? text.replace(/&amp;/g, '&').replace(/&#x2f;|&#47;/gi, '/') : text
}

/** Escapes decoded: those that make no UTF-8 name a file's bytes; a `%` that starts none keeps the path. */
function decodePercent(path: string): string {
  if (/%(?![0-9a-f]{2})/i.test(path)) return path
  const escaped = encodeSitePath(path).toString('latin1')
  const bytes = escaped.replace(/%([0-9a-f]{2})/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)))
  return decodeSitePath(Buffer.from(bytes, 'latin1'))
}
