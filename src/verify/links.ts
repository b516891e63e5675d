/**
 * The internal links of an HTML page: every `href`/`src` value that points into the site (a
 * relative or a root path), and whether the site has a file for it. Pure, and fast on large
 * sites: the attributes are found with native byte searches, not a regular expression over text.
 */

/** A link as written in a page. */
export interface PageLink {
  /** The attribute value as written. */
  value: string
  /** Byte offset of the value in the page, to find its line later. */
  offset: number
}

// Generated HTML writes attribute names in lower case; one byte search per name keeps the scan
// at the speed of memory.
const HREF = Buffer.from('href=', 'latin1')
const SRC = Buffer.from('src=', 'latin1')
const QUOTE = 0x22
const APOSTROPHE = 0x27
const GREATER_THAN = 0x3e
/** Attribute values are short; a longer run is not one (a broken page, or a script). */
const MAX_VALUE_BYTES = 2048

/** Every href/src value of an HTML page, in the order they appear. */
export function scanLinks(page: Buffer): PageLink[] {
  const links: PageLink[] = []
  let href = page.indexOf(HREF)
  let src = page.indexOf(SRC)
  while (href !== -1 || src !== -1) {
    const isHref = src === -1 || (href !== -1 && href < src)
    const at = isHref ? href : src
    const start = at + (isHref ? HREF.length : SRC.length)
    if (isHref) href = page.indexOf(HREF, start)
    else src = page.indexOf(SRC, start)
    // An attribute of its own: `data-src=` and `xhref=` are not links.
    if (at === 0 || !isSpace(page[at - 1])) continue
    const link = valueAt(page, start)
    if (link !== undefined) links.push(link)
  }
  return links
}

function valueAt(page: Buffer, start: number): PageLink | undefined {
  const quote = page[start]
  if (quote === QUOTE || quote === APOSTROPHE) {
    const end = page.indexOf(quote, start + 1)
    if (end === -1 || end - start > MAX_VALUE_BYTES) return undefined
    return { value: page.toString('utf8', start + 1, end), offset: start + 1 }
  }
  let end = start
  while (end < page.length && end - start <= MAX_VALUE_BYTES && !isSpace(page[end]) && page[end] !== GREATER_THAN) end++
  return end === start ? undefined : { value: page.toString('utf8', start, end), offset: start }
}

/** HTML's whitespace: tab, line feed, form feed, carriage return, space. */
function isSpace(byte: number | undefined): boolean {
  return byte === 0x20 || byte === 0x0a || byte === 0x09 || byte === 0x0d || byte === 0x0c
}

/**
 * The site path a link from page `from` (a site path such as `guides/start.html`) points to, or
 * undefined for links that leave the site or point nowhere in particular: other schemes, other
 * hosts, fragments of the same page, and links that climb above the site's root.
 */
export function linkTarget(from: string, value: string): string | undefined {
  const raw = decodeEntities(value.trim())
  if (raw === '' || raw.startsWith('#') || raw.startsWith('//') || /^[a-z][a-z0-9+.-]*:/i.test(raw)) return undefined
  const path = raw.replace(/[?#].*$/s, '')
  if (path === '') return undefined
  let decoded: string
  try {
    decoded = decodeURIComponent(path)
  } catch {
    decoded = path
  }
  const segments = decoded.startsWith('/') ? [] : from.split('/').slice(0, -1)
  for (const segment of decoded.split('/')) {
    if (segment === '' || segment === '.') continue
    if (segment === '..') {
      if (segments.length === 0) return undefined
      segments.pop()
    } else segments.push(segment)
  }
  const target = segments.join('/')
  // `/guides/` names the folder's index page.
  return decoded.endsWith('/') && target !== '' ? `${target}/` : target
}

/**
 * Whether the site serves `target`: the file itself, or as a static host maps extensionless page
 * URLs, `<path>.html` or `<path>/index.html` (the service's bundles name pages that way).
 */
export function resolves(target: string, files: ReadonlySet<string>): boolean {
  if (target === '' || target.endsWith('/')) return files.has(`${target}index.html`)
  return files.has(target) || files.has(`${target}.html`) || files.has(`${target}/index.html`)
}

/** The 1-based line of a byte offset. */
export function lineAt(page: Buffer, offset: number): number {
  let line = 1
  for (let at = page.indexOf(0x0a); at !== -1 && at < offset; at = page.indexOf(0x0a, at + 1)) line++
  return line
}

function decodeEntities(text: string): string {
  return text.includes('&')
    ? text
        .replace(/&amp;/g, '&')
        .replace(/&#x2f;/gi, '/')
        .replace(/&#47;/g, '/')
    : text
}

/**
 * One key per distinct link target: a root link is the same from every page, a relative one the
 * same from every page of a folder. Sites repeat their navigation on every page, so this keeps
 * the links to judge few.
 */
export function linkKey(page: string, value: string): string {
  return value.startsWith('/') && !value.startsWith('//') ? value : `${page.slice(0, page.lastIndexOf('/') + 1)}\u0000${value}`
}
