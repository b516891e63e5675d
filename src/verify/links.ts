/**
 * The internal links of an HTML page: every `href`/`src` value that points into the site (a
 * relative or a root path), and whether the site has a file for it. Pure, and fast on large
 * sites: the attributes are found with a native byte search, not a regular expression over text,
 * and a link already seen is recognised by its bytes.
 */

/** A link as written in a page. */
export interface PageLink {
  /** The attribute value as written. */
  value: string
  /** Byte offset of the value in the page, to find its line later. */
  offset: number
}

/** A distinct link as a collector reports it: where it first appears in page order, and how often it appears. */
export interface FoundLink {
  /** The page (a site path) and byte offset of its first appearance. */
  page: string
  offset: number
  /** The link as written. */
  value: string
  count: number
}

/** What one collector found, judged against the site's files. */
export interface CheckedLinks {
  /** Internal links found, every occurrence counted. */
  links: number
  /** The distinct internal links that lead to no file of the site. */
  broken: FoundLink[]
}

export interface LinkCollector {
  /** Every href/src value of an HTML page, in the order they appear. */
  scanLinks(page: Buffer): PageLink[]
  /** Whether a site path is an HTML page, the only files observe() looks at. */
  isPage(path: string): boolean
  /** Notes the links of a file of the site; files other than HTML pages are ignored. */
  observe(path: string, content: Buffer): void
  /** Judges the distinct links noted against the site's files (site paths). */
  check(files: readonly string[]): CheckedLinks
  /** The site path a link from page `from` points to, or undefined for links that leave the site or point nowhere in particular. */
  linkTarget(from: string, value: string): string | undefined
  /** Whether the site serves `target`. */
  resolves(target: string, files: ReadonlySet<string>): boolean
  /** One key per distinct link target. */
  linkKey(page: string, value: string): string
}

/**
 * Finds the links of HTML pages and keeps each distinct one once. Pages repeat their navigation,
 * so most links were seen before: they are recognised by two hashes of their bytes, their length
 * and their folder, and only a new one is copied. Attributes are found with one native byte search for `=`;
 * the bytes before it must read `href` or `src` after whitespace (generated HTML writes attribute
 * names in lower case).
 *
 * Self-contained: the writer threads run it from its source text (see SiteInspector), so nothing
 * in it may refer to anything outside its body but globals.
 */
export function linkCollector(): LinkCollector {
  const EQUALS = 0x3d
  const QUOTE = 0x22
  const APOSTROPHE = 0x27
  const GREATER_THAN = 0x3e
  const SLASH = 0x2f
  const HASH_SIGN = 0x23
  /** Attribute values are short; a longer run is not one (a broken page, or a script). */
  const MAX_VALUE_BYTES = 2048
  const isPage = (path: string): boolean => /\.html?$/i.test(path)
  /**
   * A root path whose site path is itself without the leading `/`: segments with nothing to
   * decode (`%`, `&`), no query or fragment, no whitespace, none empty or starting with a dot.
   */
  const PLAIN_ROOT_PATH = /^(?=\/)(?:\/[^/?#%&\s.][^/?#%&\s]*)*\/?$/
  /** HTML's whitespace: tab, line feed, form feed, carriage return, space. */
  const isSpace = (byte: number): boolean => byte === 0x20 || byte === 0x0a || byte === 0x09 || byte === 0x0d || byte === 0x0c

  /**
   * What nextValue() found: where the value starts and ends, whether it is a root path (1) or not
   * (0), and two independent 32-bit hashes of its bytes (a relative link's seeded with its page's
   * folder), computed in the same pass that finds the value's end. Kept in a typed array, not in
   * variables: a hash is rarely a small integer, and storing one in a variable would allocate a
   * number on the heap for every link.
   */
  const found = new Int32Array(6)
  const START = 0
  const END = 1
  const ROOT = 2
  const HASH = 3
  const CHECK = 4
  /** The hash of the folder of the page being scanned: a relative link is the same link only from the same folder. */
  const FOLDER_HASH = 5

  /**
   * The next href/src value from byte `from` on: fills `found`, and returns where the search goes
   * on (after the value; -1 when there is none). One call per link, not per `=`. Every byte read is
   * within the page: a read past its end would make V8 throw away the function's optimised code.
   */
  function nextValue(page: Buffer, from: number): number {
    const length = page.length
    for (let at = page.indexOf(EQUALS, from); at !== -1; at = page.indexOf(EQUALS, at + 1)) {
      // ` src=` is the shortest start of a value; a `=` that ends the page has none.
      if (at < 4 || at + 1 === length) continue
      // `href=` or `src=` as an attribute of its own: `data-src=` and `xhref=` are not links.
      const last = page[at - 1]
      let before: number
      if (last === 0x66) {
        if (at < 5 || page[at - 2] !== 0x65 || page[at - 3] !== 0x72 || page[at - 4] !== 0x68) continue
        before = page[at - 5] as number
      } else if (last === 0x63) {
        if (page[at - 2] !== 0x72 || page[at - 3] !== 0x73) continue
        before = page[at - 4] as number
      } else continue
      if (!isSpace(before)) continue
      const quote = page[at + 1]
      const quoted = quote === QUOTE || quote === APOSTROPHE
      const start = quoted ? at + 2 : at + 1
      if (start === length) continue
      // A root path is the same link from every page; a relative one, from every page of a folder.
      const root = page[start] === SLASH && (start + 1 === length || page[start + 1] !== SLASH)
      let hash = root ? 0x2f1b3c4d : (found[FOLDER_HASH] as number)
      let check = 0x5bd1e995
      const limit = Math.min(length, start + MAX_VALUE_BYTES + 1)
      let end = start
      for (; end < limit; end++) {
        const byte = page[end] as number
        if (quoted ? byte === quote : isSpace(byte) || byte === GREATER_THAN) break
        hash = Math.imul(hash ^ byte, 0x01000193)
        check = Math.imul(check ^ byte, 0x5bd1e995)
      }
      // A quoted value must close within the bound; an unquoted one ends there.
      if (quoted ? end === limit : end === start) continue
      found[START] = start
      found[END] = end
      found[ROOT] = root ? 1 : 0
      found[HASH] = hash ^ (hash >>> 15)
      found[CHECK] = check
      return end
    }
    return -1
  }

  function scanLinks(page: Buffer): PageLink[] {
    const links: PageLink[] = []
    for (let at = nextValue(page, 0); at !== -1; at = nextValue(page, at))
      links.push({ value: page.toString('utf8', found[START], found[END]), offset: found[START] as number })
    return links
  }

  // The distinct links, one row each, in columns: a few bytes per link however many there are.
  let rows = 0
  let rowPage = new Int32Array(1024)
  let rowOffset = new Int32Array(1024)
  let rowCount = new Int32Array(1024)
  /** The folder of a relative link (part of its key), or -1 for a root path. */
  let rowFolder = new Int32Array(1024)
  /** Where the link's bytes are in `pool`, and how many. */
  let rowStart = new Int32Array(1024)
  let rowLength = new Int32Array(1024)
  /** The link's two hashes: with its length and folder, what tells two links apart. */
  let rowHash = new Int32Array(1024)
  let rowCheck = new Int32Array(1024)
  let pool = Buffer.allocUnsafe(64 * 1024)
  let pooled = 0
  /** An open-addressing table of the rows by hash: slot -> row + 1 (0: empty), at most half full. */
  let slots = new Int32Array(4096)
  const pages: string[] = []
  const folders = new Map<string, number>()
  let page = -1
  let folder = -1
  /** The last page in page order so far: a page after it is no earlier than any link's first page. */
  let lastPage = ''
  let inOrder = true

  function grown(column: Int32Array<ArrayBuffer>): Int32Array<ArrayBuffer> {
    const larger = new Int32Array(column.length * 2)
    larger.set(column)
    return larger
  }

  /** Twice the slots, each row placed again. */
  function rehash(): void {
    slots = new Int32Array(slots.length * 2)
    const mask = slots.length - 1
    for (let row = 0; row < rows; row++) {
      let slot = (rowHash[row] as number) & mask
      while (slots[slot] !== 0) slot = (slot + 1) & mask
      slots[slot] = row + 1
    }
  }

  /** Counts the link nextValue() found; a new one gets a row. */
  function note(content: Buffer): void {
    const start = found[START] as number
    const end = found[END] as number
    const length = end - start
    const linkFolder = found[ROOT] === 1 ? -1 : folder
    const hash = found[HASH] as number
    const check = found[CHECK] as number
    // Links whose 64 bits of hash, length and folder agree are one link (two distinct links of a
    // site sharing them is not worth a byte comparison).
    const mask = slots.length - 1
    let slot = hash & mask
    for (let row = (slots[slot] as number) - 1; row !== -1; slot = (slot + 1) & mask, row = (slots[slot] as number) - 1) {
      if (rowHash[row] !== hash || rowCheck[row] !== check || rowLength[row] !== length || rowFolder[row] !== linkFolder) continue
      rowCount[row] = (rowCount[row] as number) + 1
      // Pages come in any order: keep the first place in page order, so reports do not vary.
      // (When pages come in order, no page is earlier than the first seen.)
      if (!inOrder) {
        const known = pages[rowPage[row] as number] as string
        const path = pages[page] as string
        if (path < known || (path === known && start < (rowOffset[row] as number))) {
          rowPage[row] = page
          rowOffset[row] = start
        }
      }
      return
    }
    if (rows === rowPage.length) {
      rowPage = grown(rowPage)
      rowOffset = grown(rowOffset)
      rowCount = grown(rowCount)
      rowFolder = grown(rowFolder)
      rowStart = grown(rowStart)
      rowLength = grown(rowLength)
      rowHash = grown(rowHash)
      rowCheck = grown(rowCheck)
    }
    if (pooled + length > pool.length) {
      const larger = Buffer.allocUnsafe(Math.max(pool.length * 2, pooled + length))
      pool.copy(larger, 0, 0, pooled)
      pool = larger
    }
    rowPage[rows] = page
    rowOffset[rows] = start
    rowCount[rows] = 1
    rowFolder[rows] = linkFolder
    rowStart[rows] = pooled
    rowLength[rows] = length
    rowHash[rows] = hash
    rowCheck[rows] = check
    pooled += content.copy(pool, pooled, start, end)
    slots[slot] = ++rows
    if (rows * 2 > slots.length) rehash()
  }

  function observe(path: string, content: Buffer): void {
    if (!isPage(path)) return
    page = pages.push(path) - 1
    inOrder = path > lastPage
    if (inOrder) lastPage = path
    const pageFolder = path.slice(0, path.lastIndexOf('/') + 1)
    let id = folders.get(pageFolder)
    if (id === undefined) folders.set(pageFolder, (id = folders.size))
    if (id !== folder) {
      folder = id
      let hash = 0x811c9dc5
      for (let i = 0; i < pageFolder.length; i++) hash = Math.imul(hash ^ pageFolder.charCodeAt(i), 0x01000193)
      found[FOLDER_HASH] = hash
    }
    // A link to a place in the same page (`#usage`) is not checked: it is not kept either.
    for (let at = nextValue(content, 0); at !== -1; at = nextValue(content, at)) if (content[found[START] as number] !== HASH_SIGN) note(content)
  }

  function check(files: readonly string[]): CheckedLinks {
    const known = new Set(files)
    let links = 0
    const broken: FoundLink[] = []
    for (let row = 0; row < rows; row++) {
      const start = rowStart[row] as number
      const value = pool.toString('utf8', start, start + (rowLength[row] as number))
      const page = pages[rowPage[row] as number] as string
      const target = linkTarget(page, value)
      if (target === undefined) continue
      links += rowCount[row] as number
      if (!resolves(target, known)) broken.push({ page, offset: rowOffset[row] as number, value, count: rowCount[row] as number })
    }
    return { links, broken }
  }

  function linkTarget(from: string, value: string): string | undefined {
    // Most links of a generated site are plain root paths: nothing to trim, decode or resolve.
    if (PLAIN_ROOT_PATH.test(value)) return value.slice(1)
    const raw = decodeEntities(value.trim())
    if (raw === '' || raw.startsWith('#') || raw.startsWith('//') || /^[a-z][a-z0-9+.-]*:/i.test(raw)) return undefined
    const path = raw.replace(/[?#].*$/s, '')
    if (path === '') return undefined
    let decoded: string
    try {
      decoded = path.includes('%') ? decodeURIComponent(path) : path
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

  function resolves(target: string, files: ReadonlySet<string>): boolean {
    if (target === '' || target.endsWith('/')) return files.has(`${target}index.html`)
    return files.has(target) || files.has(`${target}.html`) || files.has(`${target}/index.html`)
  }

  function decodeEntities(text: string): string {
    return text.includes('&')
      ? text
          .replace(/&amp;/g, '&')
          .replace(/&#x2f;/gi, '/')
          .replace(/&#47;/g, '/')
      : text
  }

  function linkKey(page: string, value: string): string {
    return value.startsWith('/') && !value.startsWith('//') ? value : `${page.slice(0, page.lastIndexOf('/') + 1)}\u0000${value}`
  }

  return { scanLinks, isPage, observe, check, linkTarget, resolves, linkKey }
}

const shared = linkCollector()

/** Whether a site path is an HTML page. */
export const isPage: (path: string) => boolean = shared.isPage

/** Every href/src value of an HTML page, in the order they appear. */
export const scanLinks: (page: Buffer) => PageLink[] = shared.scanLinks

/**
 * The site path a link from page `from` (a site path such as `guides/start.html`) points to, or
 * undefined for links that leave the site or point nowhere in particular: other schemes, other
 * hosts, fragments of the same page, and links that climb above the site's root.
 */
export const linkTarget: (from: string, value: string) => string | undefined = shared.linkTarget

/**
 * Whether the site serves `target`: the file itself, or as a static host maps extensionless page
 * URLs, `<path>.html` or `<path>/index.html` (the service's bundles name pages that way).
 */
export const resolves: (target: string, files: ReadonlySet<string>) => boolean = shared.resolves

/**
 * One key per distinct link target: a root link is the same from every page, a relative one the
 * same from every page of a folder. Sites repeat their navigation on every page, so this keeps
 * the links to judge few.
 */
export const linkKey: (page: string, value: string) => string = shared.linkKey

/** The 1-based line of a byte offset. */
export function lineAt(page: Buffer, offset: number): number {
  let line = 1
  for (let at = page.indexOf(0x0a); at !== -1 && at < offset; at = page.indexOf(0x0a, at + 1)) line++
  return line
}
