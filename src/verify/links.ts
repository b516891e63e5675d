/**
 * The internal links of an HTML page: every `href`/`src` value that points into the site (a
 * relative or a root path), and whether the site has a file for it. Pure, and fast on large
 * sites: the pages are read by a small WebAssembly module (link-scan.wat) that finds each `=` 16
 * bytes at a time and recognises a link already seen by its hashes, and only a new link is
 * resolved. An attribute name counts in any case, with whitespace around its `=`, and only inside
 * a start tag: the nearest `<` or `>` before it is a `<` and a letter, so an HTML sample shown as
 * text (`&lt;a href="/about"&gt;`) is no link. Known limits (link-scan.wat): a `>` inside an
 * earlier quoted value of the same tag hides a link, and links inside comments count.
 */
import { LINK_SCAN_WASM } from './link-scan-wasm.js'

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
  /** Every href/src value of the start tags of an HTML page, in the order they appear. */
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
 * The scanning and that bookkeeping are the module's (`scanner`: link-scan.wat, compiled, in
 * base64); resolving a link that is not a plain root path, and judging, are done here.
 *
 * Self-contained: the writer threads run it from its source text (see linkCollectorSource), so
 * nothing in it may refer to anything outside its body but globals.
 */
export function collectorWithScanner(scanner: string): LinkCollector {
  const isPage = (path: string): boolean => /\.html?$/i.test(path)

  // A row of the module's table of distinct links: ROW_INTS integers (see link-scan.wat).
  const ROW_INTS = 10
  const ROW_BYTES = ROW_INTS * 4
  /** The link's two hashes: with its length and folder, what tells two links apart. */
  const ROW_HASH = 0
  const ROW_CHECK = 1
  const ROW_LENGTH = 2
  const ROW_COUNT = 4
  /** Where it first appears in page order: the page (an index into `pages`) and the byte offset. */
  const ROW_PAGE = 5
  const ROW_OFFSET = 6
  /** 1 when the link points into the site, 0 when it leaves it or points nowhere in particular. */
  const ROW_INTERNAL = 7
  /** Two hashes of the site path it points to, when it points into the site. */
  const ROW_TARGET = 8
  const ROW_TARGET_CHECK = 9
  /** Where the table of distinct links starts (the module keeps the bytes before it for itself). */
  const TABLE_AT = 128
  /** The module reads a page 16 bytes at a time: this much room follows the page's bytes. */
  const VECTOR_BYTES = 16
  const WASM_PAGE_BYTES = 65536

  /** The module's memory and exports as this uses them (node's WebAssembly types are not in the project's libraries). */
  interface Memory {
    buffer: ArrayBuffer
    grow(pages: number): number
  }
  interface Global {
    value: number
  }
  interface Runtime {
    Module: new (bytes: Uint8Array) => object
    Instance: new (module: object, imports: object) => { exports: unknown }
  }
  interface Scanner {
    memory: Memory
    next(base: number, length: number, from: number, folderHash: number): number
    observe(
      base: number,
      length: number,
      from: number,
      folder: number,
      folderHash: number,
      page: number,
      inOrder: number,
      table: number,
      capacity: number,
      slots: number,
      mask: number,
      scratch: number
    ): number
    rehash(table: number, slots: number, mask: number): void
    hashBytes(address: number, length: number): void
    /** Where the module's reading back for start tags stopped last: 0 forgets it (see linkAt). */
    tagAt: Global
    start: Global
    end: Global
    hash: Global
    check: Global
    pathHash: Global
    pathCheck: Global
    rows: Global
  }

  const pages: string[] = []
  const folders = new Map<string, number>()
  let page = -1
  let folder = -1
  /** The hash of the folder of the page being read: a relative link is the same link only from the same folder. */
  let folderHash = 0
  /** The last page in page order so far: a page after it is no earlier than any link's first place. */
  let lastPage = ''
  /** The page being read, for resolve(). */
  const NO_PAGE = Buffer.alloc(0)
  let current: Buffer = NO_PAGE

  const { Module, Instance } = (globalThis as unknown as { WebAssembly: Runtime }).WebAssembly
  const scan = new Instance(new Module(Buffer.from(scanner, 'base64')), {
    links: {
      // A new link that is not a plain root path: its site path's UTF-8 in the scratch area, or -1.
      resolve: (start: number, end: number): number => {
        const target = linkTarget(pages[page] as string, current.toString('utf8', start, end))
        return target === undefined ? -1 : toScratch(target)
      },
      // How two pages (indexes) compare in page order: -1, 0 (the same path) or 1.
      order: (one: number, other: number): number => {
        const a = pages[one] as string
        const b = pages[other] as string
        return a < b ? -1 : a === b ? 0 : 1
      }
    }
  }).exports as unknown as Scanner

  // The module's memory: its own bytes (to TABLE_AT), the table of distinct links, its slots (an
  // open-addressing table of rows by hash, at most half full), the page being read, and the
  // scratch area (to the end). Each grows by doubling; the table keeps its place, the rest moves.
  let capacity = 1024
  let slotCount = 4096
  let pageBytes = 64 * 1024
  let slots = 0
  let pageAt = 0
  let scratchAt = 0
  let views: { buffer: ArrayBuffer; bytes: Buffer; ints: Int32Array } | undefined
  const SCRATCH_BYTES = 16 * 1024

  /** Views of the module's memory (made anew once it has grown). */
  function bytes(): Buffer {
    const buffer = scan.memory.buffer
    if (views?.buffer !== buffer) views = { buffer, bytes: Buffer.from(buffer), ints: new Int32Array(buffer) }
    return views.bytes
  }
  function ints(): Int32Array {
    bytes()
    return (views as { ints: Int32Array }).ints
  }

  /** Places the regions for the sizes asked, grows the memory to hold them, and places every row in the slots again. */
  function layOut(): void {
    slots = TABLE_AT + capacity * ROW_BYTES
    pageAt = slots + slotCount * 4
    scratchAt = pageAt + pageBytes + VECTOR_BYTES
    const needed = scratchAt + SCRATCH_BYTES
    const size = scan.memory.buffer.byteLength
    if (needed > size) scan.memory.grow(Math.ceil((needed - size) / WASM_PAGE_BYTES))
    bytes().fill(0, slots, slots + slotCount * 4)
    scan.rehash(TABLE_AT, slots, slotCount - 1)
  }
  layOut()

  /** Puts `text` as UTF-8 at the start of the scratch area; returns its length in bytes. */
  function toScratch(text: string): number {
    // UTF-8 takes at most 3 bytes for each UTF-16 unit.
    if (scratchAt + text.length * 3 > scan.memory.buffer.byteLength) {
      const more = scratchAt + text.length * 3 - scan.memory.buffer.byteLength
      scan.memory.grow(Math.ceil(more / WASM_PAGE_BYTES))
    }
    return bytes().write(text, scratchAt, 'utf8')
  }

  /** Copies a page into the module's memory, making room for it first. */
  function load(content: Buffer): void {
    if (content.length > pageBytes) {
      pageBytes = Math.max(content.length, pageBytes * 2)
      layOut()
    }
    bytes().set(content, pageAt)
  }

  /** Makes `folderHash` the hash of `pageFolder` (`guides/`), which seeds the hashes of its pages' relative links. */
  function enterFolder(pageFolder: string): void {
    let hash = 0x811c9dc5
    for (let i = 0; i < pageFolder.length; i++) hash = Math.imul(hash ^ pageFolder.charCodeAt(i), 0x01000193)
    folderHash = hash
  }

  /** Every href/src value of the start tags of a page, with the offsets of the values. */
  function scanLinks(content: Buffer): PageLink[] {
    load(content)
    const links: PageLink[] = []
    for (
      let at = scan.next(pageAt, content.length, 0, folderHash);
      at !== -1;
      at = scan.next(pageAt, content.length, at, folderHash)
    ) {
      const start = scan.start.value
      links.push({ value: content.toString('utf8', start, scan.end.value), offset: start })
    }
    return links
  }

  function observe(path: string, content: Buffer): void {
    if (!isPage(path)) return
    page = pages.push(path) - 1
    const inOrder = path > lastPage
    if (inOrder) lastPage = path
    const pageFolder = path.slice(0, path.lastIndexOf('/') + 1)
    let id = folders.get(pageFolder)
    if (id === undefined) folders.set(pageFolder, (id = folders.size))
    if (id !== folder) {
      folder = id
      enterFolder(pageFolder)
    }
    current = content
    load(content)
    // The module stops when its table is full, at a place it reads again once there is room.
    for (let from = 0; ;) {
      from = scan.observe(
        pageAt,
        content.length,
        from,
        folder,
        folderHash,
        page,
        inOrder ? 1 : 0,
        TABLE_AT,
        capacity,
        slots,
        slotCount - 1,
        scratchAt
      )
      if (from === -1) break
      const rows = scan.rows.value
      if (rows >= capacity) capacity *= 2
      if ((rows + 1) * 2 > slotCount) slotCount *= 2
      layOut()
      bytes().set(content, pageAt)
    }
    current = NO_PAGE
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
    /** Adds the path that is the first `length` bytes of the file in the scratch area. */
    const add = (length: number): void => {
      if (++taken * 4 > served.length) {
        const larger = new Int32Array(served.length * 2)
        for (let at = 0; at < served.length; at += 2)
          if (served[at] !== 0 || served[at + 1] !== 0) place(larger, served[at] as number, served[at + 1] as number)
        served = larger
      }
      scan.hashBytes(scratchAt, length)
      place(served, scan.pathHash.value, scan.pathCheck.value)
    }
    for (const file of files) {
      // The paths a file serves are the start of its own (the endings cut are ASCII: as many bytes as characters).
      const length = toScratch(file)
      add(length)
      // `<path>.html` serves `<path>`; `<folder>/index.html` serves `<folder>/` and `<folder>`.
      if (file.endsWith('.html') && file.length > 5 && file[file.length - 6] !== '/') add(length - '.html'.length)
      if (file === 'index.html' || file.endsWith('/index.html')) {
        const folderBytes = length - 'index.html'.length
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
    const rows = scan.rows.value
    if (rows === 0) return { links, broken }
    const served = servedPaths(files)
    const table = ints()
    for (let row = 0; row < rows; row++) {
      const at = TABLE_AT / 4 + row * ROW_INTS
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
  function linkAt(
    path: string,
    content: Buffer,
    link: { offset: number; length: number; key: string }
  ): string | undefined {
    enterFolder(path.slice(0, path.lastIndexOf('/') + 1))
    // The next page observed, whatever its folder, sets the folder's hash again.
    folder = -1
    load(content)
    // A value starts after its `=`, any whitespace, and its quote: the search starts at that `=`.
    let from = link.offset - 1
    if (from >= 0 && (content[from] === 0x22 || content[from] === 0x27)) from--
    while (
      from > 0 &&
      (content[from] === 0x20 ||
        content[from] === 0x0a ||
        content[from] === 0x09 ||
        content[from] === 0x0d ||
        content[from] === 0x0c)
    )
      from--
    from = Math.max(0, from)
    // The module forgets what it knew of the last page's start tags when it searches from a page's
    // start; this search starts elsewhere.
    scan.tagAt.value = 0
    if (
      scan.next(pageAt, content.length, from, folderHash) === -1 ||
      scan.start.value !== link.offset ||
      scan.end.value !== link.offset + link.length
    )
      return undefined
    if (`${scan.hash.value}:${scan.check.value}:${link.length}` !== link.key) return undefined
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

/** A collector of links, with the scanner module (see collectorWithScanner). */
export function linkCollector(): LinkCollector {
  return collectorWithScanner(LINK_SCAN_WASM)
}

/** The same as source text, for the writer threads: a function that makes a collector. */
export const linkCollectorSource = `() => (${collectorWithScanner.toString()})(${JSON.stringify(LINK_SCAN_WASM)})`

const shared = linkCollector()

/** Whether a site path is an HTML page. */
export const isPage: (path: string) => boolean = shared.isPage

/** Every href/src value of the start tags of an HTML page, in the order they appear. */
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
export const linkAt: (
  path: string,
  content: Buffer,
  link: { offset: number; length: number; key: string }
) => string | undefined = shared.linkAt

/** The 1-based line of a byte offset. */
export function lineAt(page: Buffer, offset: number): number {
  let line = 1
  for (let at = page.indexOf(0x0a); at !== -1 && at < offset; at = page.indexOf(0x0a, at + 1)) line++
  return line
}
