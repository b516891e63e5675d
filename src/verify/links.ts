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

/**
 * A distinct link as a collector reports it: where it first appears in page order, and how often
 * it appears. The collector keeps no link's text: linkAt() reads it back from the page.
 */
export interface FoundLink {
  /** The page (a site path) and byte offset of its first appearance, and its length in bytes there. */
  page: string
  offset: number
  length: number
  /** The same for the same link on every collector (a root path from any page, a relative one from any page of a folder). */
  key: string
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
  /** The text of a link check() reported, read back from its page; undefined when the page no longer has it there. */
  linkAt(path: string, content: Buffer, link: { offset: number; length: number; key: string }): string | undefined
}

/**
 * Finds the links of HTML pages and keeps each distinct one once. Pages repeat their navigation,
 * so most links were seen before: they are recognised by two hashes of their bytes, their length
 * and their folder, and only a new one is resolved, to two hashes of the site path it leads to.
 * Attributes are found with one native byte search for `=`; the bytes before it must read `href`
 * or `src` after whitespace (generated HTML writes attribute names in lower case).
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
  const QUESTION_MARK = 0x3f
  const DOT = 0x2e
  const PERCENT = 0x25
  const AMPERSAND = 0x26
  /** Attribute values are short; a longer run is not one (a broken page, or a script). */
  const MAX_VALUE_BYTES = 2048
  const isPage = (path: string): boolean => /\.html?$/i.test(path)
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

  // The distinct links, one row of ROW_INTS integers each, side by side in one array. A row keeps
  // what its link leads to (two hashes of the site path), not the link's bytes: a site with 100,000s
  // of distinct links keeps a few MiB, and judging them at the end makes no strings. A broken link's
  // bytes are read back from its page for the report (see linkAt).
  const ROW_INTS = 10
  /** The link's two hashes: with its length and folder, what tells two links apart. */
  const ROW_HASH = 0
  const ROW_CHECK = 1
  const ROW_LENGTH = 2
  /** The folder of a relative link (part of its key), or -1 for a root path. */
  const ROW_FOLDER = 3
  const ROW_COUNT = 4
  /** Where it first appears in page order: the page (an index into `pages`) and the byte offset. */
  const ROW_PAGE = 5
  const ROW_OFFSET = 6
  /** 1 when the link points into the site, 0 when it leaves it or points nowhere in particular. */
  const ROW_INTERNAL = 7
  /** Two hashes of the site path it points to (see hashBytes), when it points into the site. */
  const ROW_TARGET = 8
  const ROW_TARGET_CHECK = 9
  let rows = 0
  let table = new Int32Array(1024 * ROW_INTS)
  /** An open-addressing table of the rows by hash: slot -> row + 1 (0: empty), at most half full. */
  let slots = new Int32Array(4096)
  const pages: string[] = []
  const folders = new Map<string, number>()
  let page = -1
  let folder = -1
  /** The last page in page order so far: a page after it is no earlier than any link's first page. */
  let lastPage = ''
  let inOrder = true

  /**
   * Two independent 32-bit hashes of a site path's UTF-8 bytes, into `hashed`: FNV-1a, and a
   * multiply-xor with another seed and prime. Made from a page's bytes (a plain root path, see
   * note()) or from a string (any other link, and the site's files) alike.
   */
  const hashed = new Int32Array(2)
  function hashBytes(bytes: Uint8Array, from: number, to: number): void {
    let hash = 0x811c9dc5
    let check = 0x3c6ef372
    for (let at = from; at < to; at++) {
      const byte = bytes[at] as number
      hash = Math.imul(hash ^ byte, 0x01000193)
      check = Math.imul(check ^ byte, 0x5bd1e995)
    }
    hashed[0] = hash ^ (hash >>> 15)
    hashed[1] = check ^ (check >>> 13)
  }
  /**
   * Where a text's UTF-8 bytes are put to be hashed: one buffer, grown as needed. Judging a site of
   * 30,000 files hashes 60,000 paths at its very end; a buffer for each was megabytes of garbage
   * there, which raised the peak memory of the whole unpacking.
   */
  let scratch = Buffer.alloc(1024)
  /** Puts `text` as UTF-8 at the start of `scratch`; returns its length in bytes. */
  function toScratch(text: string): number {
    // UTF-8 takes at most 3 bytes for each UTF-16 unit.
    if (text.length * 3 > scratch.length) scratch = Buffer.alloc(text.length * 3)
    return scratch.write(text, 'utf8')
  }
  function hashText(text: string): void {
    // (In this order: toScratch() may replace the buffer.)
    const bytes = toScratch(text)
    hashBytes(scratch, 0, bytes)
  }

  /**
   * Where the site path of a root link ends, when the link is a plain root path followed by
   * nothing or by a query or a fragment: segments of printable ASCII with nothing to decode (`%`,
   * `&`), none empty or starting with a dot. Its site path is then its own bytes from `start + 1`
   * to there, as linkTarget() would resolve it. -1 for any other link, which is resolved from its
   * text.
   */
  function plainRootPathEnd(content: Buffer, start: number, end: number): number {
    let at = start
    for (;;) {
      // At a `/`: what follows is the end, a query or a fragment (a trailing slash), or a segment.
      if (++at === end) return at
      let byte = content[at] as number
      if (byte === QUESTION_MARK || byte === HASH_SIGN) return at
      if (byte === SLASH || byte === DOT) return -1
      while (byte !== SLASH) {
        if (byte === QUESTION_MARK || byte === HASH_SIGN) return at
        // Escapes and entities need decoding, whitespace trimming, and other bytes a closer look.
        if (byte === PERCENT || byte === AMPERSAND || byte <= 0x20 || byte >= 0x7f) return -1
        if (++at === end) return at
        byte = content[at] as number
      }
    }
  }

  /** Twice the slots, each row placed again. */
  function rehash(): void {
    slots = new Int32Array(slots.length * 2)
    const mask = slots.length - 1
    for (let row = 0; row < rows; row++) {
      let slot = (table[row * ROW_INTS + ROW_HASH] as number) & mask
      while (slots[slot] !== 0) slot = (slot + 1) & mask
      slots[slot] = row + 1
    }
  }

  /**
   * Counts the link nextValue() found; a new one gets a row (see addRow). This runs for every
   * link of the site and stays small on purpose: V8 optimises it as one unit with whatever it
   * calls inlined, and with the work of a new row in it, a site made V8 compile it three times at
   * ~25 ms each, on both threads, as rarely taken branches were reached for the first time.
   */
  function note(content: Buffer): void {
    const start = found[START] as number
    const length = (found[END] as number) - start
    const linkFolder = found[ROOT] === 1 ? -1 : folder
    const hash = found[HASH] as number
    const check = found[CHECK] as number
    // Links whose 64 bits of hash, length and folder agree are one link (two distinct links of a
    // site sharing them is not worth a byte comparison).
    const mask = slots.length - 1
    let slot = hash & mask
    for (let row = (slots[slot] as number) - 1; row !== -1; slot = (slot + 1) & mask, row = (slots[slot] as number) - 1) {
      const at = row * ROW_INTS
      if (table[at + ROW_HASH] !== hash || table[at + ROW_CHECK] !== check || table[at + ROW_LENGTH] !== length || table[at + ROW_FOLDER] !== linkFolder) continue
      table[at + ROW_COUNT] = (table[at + ROW_COUNT] as number) + 1
      // Pages come in any order: keep the first place in page order, so reports do not vary.
      // (When pages come in order, no page is earlier than the first seen.)
      if (!inOrder) keepEarlierPlace(at, start)
      return
    }
    addRow(content, slot, linkFolder)
  }

  /** The row at `at` appears again on this page, at `start`: its place becomes this one if it is earlier in page order. */
  function keepEarlierPlace(at: number, start: number): void {
    const known = pages[table[at + ROW_PAGE] as number] as string
    const path = pages[page] as string
    if (path < known || (path === known && start < (table[at + ROW_OFFSET] as number))) {
      table[at + ROW_PAGE] = page
      table[at + ROW_OFFSET] = start
    }
  }

  /** A row for a link seen for the first time, in the free slot `slot`, with where it leads. */
  function addRow(content: Buffer, slot: number, linkFolder: number): void {
    const start = found[START] as number
    const end = found[END] as number
    const at = rows * ROW_INTS
    if (at === table.length) {
      const larger = new Int32Array(table.length * 2)
      larger.set(table)
      table = larger
    }
    // Where it leads: most links of a generated site are plain root paths, whose site path is
    // hashed from the page's bytes; the others are resolved from their text.
    const pathEnd = linkFolder === -1 ? plainRootPathEnd(content, start, end) : -1
    let internal = 1
    if (pathEnd !== -1) hashBytes(content, start + 1, pathEnd)
    else {
      const target = linkTarget(pages[page] as string, content.toString('utf8', start, end))
      if (target === undefined) internal = 0
      else hashText(target)
    }
    table[at + ROW_HASH] = found[HASH] as number
    table[at + ROW_CHECK] = found[CHECK] as number
    table[at + ROW_LENGTH] = end - start
    table[at + ROW_FOLDER] = linkFolder
    table[at + ROW_COUNT] = 1
    table[at + ROW_PAGE] = page
    table[at + ROW_OFFSET] = start
    table[at + ROW_INTERNAL] = internal
    table[at + ROW_TARGET] = internal === 1 ? (hashed[0] as number) : 0
    table[at + ROW_TARGET_CHECK] = internal === 1 ? (hashed[1] as number) : 0
    slots[slot] = ++rows
    if (rows * 2 > slots.length) rehash()
  }

  /** Makes `found[FOLDER_HASH]` the hash of `pageFolder` (`guides/`), which seeds the hashes of its pages' relative links. */
  function enterFolder(pageFolder: string): void {
    let hash = 0x811c9dc5
    for (let i = 0; i < pageFolder.length; i++) hash = Math.imul(hash ^ pageFolder.charCodeAt(i), 0x01000193)
    found[FOLDER_HASH] = hash
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
      enterFolder(pageFolder)
    }
    // A link to a place in the same page (`#usage`) is not checked: it is not kept either.
    for (let at = nextValue(content, 0); at !== -1; at = nextValue(content, at)) if (content[found[START] as number] !== HASH_SIGN) note(content)
  }

  /**
   * The site paths the site serves, as hashes in an open-addressing table of pairs (0, 0: empty):
   * each file, and the URLs a static host maps to it (see resolves()).
   */
  function servedPaths(files: readonly string[]): Int32Array {
    // Two integers per slot, at most half the slots taken: twice the slots when they would be more.
    let served = new Int32Array(2 * 1024)
    let taken = 0
    const place = (table: Int32Array, hash: number, check: number): void => {
      const mask = table.length / 2 - 1
      let slot = hash & mask
      while (table[slot * 2] !== 0 || table[slot * 2 + 1] !== 0) slot = (slot + 1) & mask
      table[slot * 2] = hash
      table[slot * 2 + 1] = check
    }
    /** Adds the path that is the first `bytes` bytes of the file in `scratch`. */
    const add = (bytes: number): void => {
      if (++taken * 4 > served.length) {
        const larger = new Int32Array(served.length * 2)
        for (let at = 0; at < served.length; at += 2) if (served[at] !== 0 || served[at + 1] !== 0) place(larger, served[at] as number, served[at + 1] as number)
        served = larger
      }
      hashBytes(scratch, 0, bytes)
      place(served, hashed[0] as number, hashed[1] as number)
    }
    for (const file of files) {
      // The paths a file serves are the start of its own (the endings cut are ASCII: as many bytes as characters).
      const bytes = toScratch(file)
      add(bytes)
      // `<path>.html` serves `<path>`; `<folder>/index.html` serves `<folder>/` and `<folder>`.
      if (file.endsWith('.html') && file.length > 5 && file[file.length - 6] !== '/') add(bytes - '.html'.length)
      if (file === 'index.html' || file.endsWith('/index.html')) {
        const folderBytes = bytes - 'index.html'.length
        add(folderBytes)
        if (folderBytes !== 0) add(folderBytes - 1)
      }
    }
    return served
  }

  function isServed(served: Int32Array, hash: number, check: number): boolean {
    // A pair of zeros marks an empty slot: a path hashed to it is taken as not served.
    const mask = served.length / 2 - 1
    for (let slot = hash & mask; served[slot * 2] !== 0 || served[slot * 2 + 1] !== 0; slot = (slot + 1) & mask) {
      if (served[slot * 2] === hash && served[slot * 2 + 1] === check) return true
    }
    return false
  }

  function check(files: readonly string[]): CheckedLinks {
    let links = 0
    const broken: FoundLink[] = []
    if (rows === 0) return { links, broken }
    const served = servedPaths(files)
    for (let row = 0; row < rows; row++) {
      const at = row * ROW_INTS
      if (table[at + ROW_INTERNAL] === 0) continue
      const count = table[at + ROW_COUNT] as number
      links += count
      if (isServed(served, table[at + ROW_TARGET] as number, table[at + ROW_TARGET_CHECK] as number)) continue
      const length = table[at + ROW_LENGTH] as number
      broken.push({
        page: pages[table[at + ROW_PAGE] as number] as string,
        offset: table[at + ROW_OFFSET] as number,
        length,
        key: `${table[at + ROW_HASH]}:${table[at + ROW_CHECK]}:${length}`,
        count
      })
    }
    return { links, broken }
  }

  /**
   * The link `check()` reported at `link.offset` of `content`, the page `path` read back: its
   * text, or undefined when the page there is no longer what was scanned (a later entry of the
   * archive replaced it).
   */
  function linkAt(path: string, content: Buffer, link: { offset: number; length: number; key: string }): string | undefined {
    enterFolder(path.slice(0, path.lastIndexOf('/') + 1))
    // The next page observed, whatever its folder, sets the folder's hash again.
    folder = -1
    // A value starts one or two bytes after its `=`.
    const from = Math.max(0, link.offset - 2)
    if (nextValue(content, from) === -1 || found[START] !== link.offset || found[END] !== link.offset + link.length) return undefined
    if (`${found[HASH]}:${found[CHECK]}:${link.length}` !== link.key) return undefined
    return content.toString('utf8', link.offset, link.offset + link.length)
  }

  function linkTarget(from: string, value: string): string | undefined {
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

  return { scanLinks, isPage, observe, check, linkTarget, resolves, linkAt }
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
 * The text of a link a collector reported, read back from its page `path` (a site path) with
 * content `content`; undefined when the page no longer has that link there.
 */
export const linkAt: (path: string, content: Buffer, link: { offset: number; length: number; key: string }) => string | undefined = shared.linkAt

/** The 1-based line of a byte offset. */
export function lineAt(page: Buffer, offset: number): number {
  let line = 1
  for (let at = page.indexOf(0x0a); at !== -1 && at < offset; at = page.indexOf(0x0a, at + 1)) line++
  return line
}
