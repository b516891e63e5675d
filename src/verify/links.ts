/**
 * The internal links of a site's HTML pages: each `href`/`src` value of a start tag (see
 * page-links.ts) that points into the site (a relative or a root path), counted, and judged
 * against the site's files. Pure.
 *
 * Pages repeat their navigation, so most links were seen before: a collector keeps each distinct
 * link once, as a row of integers (two hashes of its bytes, its length and folder, where it first
 * appears in page order, how often, and two hashes of the site path it leads to), and resolves
 * only a new one. No link's text is kept: linkAt() reads a reported one back from its page. So
 * memory grows with the distinct links (36 bytes each, and 8 to 16 in the table that finds them),
 * not with the pages.
 */
import { type PathHash, ServedPaths, linkTarget, pathBytesHash, pathHash } from './link-targets.js'
import { LinkScanner, isSpace } from './page-links.js'
import { decodeSitePath } from '../common/site-paths.js'

export { linkTarget, resolves } from './link-targets.js'
export { type PageLink, lineAt, scanLinks } from './page-links.js'

/**
 * A distinct link as a collector reports it: where it first appears in page order, and how often
 * it appears. The collector keeps no link's text: linkAt() reads it back from the page.
 */
export interface FoundLink {
  /** The page (a site path) and byte offset of its first appearance, and its length in bytes there. */
  page: string
  offset: number
  length: number
  /** The same for the same link anywhere (a root path from any page, a relative one from any page of a folder). */
  key: string
  count: number
}

/** What a collector found, judged against the site's files. */
export interface CheckedLinks {
  /** Internal links found, every occurrence counted. */
  links: number
  /** The distinct internal links that lead to no file of the site, in the order they were first seen. */
  broken: FoundLink[]
}

/** The same in short, for a report: the figures, and only the first broken links. */
export interface LinkSummary {
  /** Internal links found, every occurrence counted. */
  links: number
  /** Internal links that lead to no file of the site, every occurrence counted. */
  brokenCount: number
  /** The first distinct ones in page order (where they first appear), at most as many as asked. */
  broken: FoundLink[]
}

export interface LinkCollector {
  /** Notes the links of a file of the site (a site path); files other than HTML pages are ignored. */
  observe(path: string, content: Buffer): void
  /** Judges the distinct links noted against the site's files (site paths): every broken one. */
  check(files: readonly string[]): CheckedLinks
  /**
   * The same, with only the first `shown` broken links: a site whose links all broke may have
   * 100,000s, and a record of each would take more memory than all the rest of the check.
   */
  summary(files: readonly string[], shown: number): LinkSummary
}

/** Whether a site path is an HTML page, the only files whose links are read. */
export function isPage(path: string): boolean {
  return /\.html?$/i.test(path)
}

/** A new collector of links. */
export function linkCollector(): LinkCollector {
  return new DistinctLinks()
}

// A row of the table of distinct links: ROW_INTS integers.
const ROW_INTS = 9
/** The link's two hashes: with its length and folder, what tells two links apart. */
const ROW_HASH = 0
const ROW_CHECK = 1
const ROW_LENGTH = 2
/** The page's folder (an index), or -1 for a root path, the same link from every folder. */
const ROW_FOLDER = 3
const ROW_COUNT = 4
/** Where it first appears in page order: the page (an index) and the byte offset. */
const ROW_PAGE = 5
const ROW_OFFSET = 6
/** Two hashes of the site path it leads to; (0, 0) when it leaves the site or points nowhere in particular. */
const ROW_TARGET_HASH = 7
const ROW_TARGET_CHECK = 8

const ROOT = -1
/** The seed of a root path's hash; a relative one's is its folder's hash. */
const ROOT_SEED = 0x2f1b3c4d
const NUMBER_SIGN = 0x23

/**
 * Rows are kept in chunks of CHUNK_ROWS (576 KiB): the table grows without copying what it holds,
 * and leaves at most one chunk unused.
 */
const CHUNK_BITS = 14
const CHUNK_ROWS = 1 << CHUNK_BITS

/** A row's place: its chunk, and where it starts there. */
interface RowPlace {
  chunk: Int32Array
  at: number
}

class DistinctLinks implements LinkCollector {
  private readonly chunks: Int32Array[] = []
  private rowCount = 0
  /** An open-addressing table of rows by hash (row + 1; 0: empty), at most half full. */
  private slots = new Int32Array(4096)
  private readonly pages: string[] = []
  /** The last page in page order so far: a page after it is no earlier than any link's first place. */
  private lastPage = ''
  private readonly folders = new Map<string, number>()
  private readonly scanner = new LinkScanner()
  private readonly hashed: PathHash = { hash: 0, check: 0 }

  observe(path: string, content: Buffer): void {
    if (!isPage(path)) return
    const page = this.pages.push(path) - 1
    const inOrder = path > this.lastPage
    if (inOrder) this.lastPage = path
    const folderPath = path.slice(0, path.lastIndexOf('/') + 1)
    let folder = this.folders.get(folderPath)
    if (folder === undefined) this.folders.set(folderPath, (folder = this.folders.size))
    const folderSeed = folderHash(folderPath)
    const scanner = this.scanner.reset(content)
    const hashed = this.hashed
    while (scanner.next()) {
      const { start, end } = scanner
      // A link to a place in the same page (`#usage`) is not checked: it is not kept either.
      if (content[start] === NUMBER_SIGN) continue
      const linkFolder = isRootPath(content, start, end) ? ROOT : folder
      linkHash(content, start, end, linkFolder === ROOT ? ROOT_SEED : folderSeed, hashed)
      const { hash, check } = hashed
      const length = end - start
      let slot = this.find(hash, check, length, linkFolder)
      const known = this.slots[slot] as number
      if (known !== 0) {
        const chunk = this.chunks[(known - 1) >>> CHUNK_BITS] as Int32Array
        const at = ((known - 1) & (CHUNK_ROWS - 1)) * ROW_INTS
        chunk[at + ROW_COUNT] = (chunk[at + ROW_COUNT] as number) + 1
        // Pages come in any order: keep the first place in page order, so reports do not vary.
        if (!inOrder) {
          const first = this.pages[chunk[at + ROW_PAGE] as number] as string
          if (path < first || (path === first && start < (chunk[at + ROW_OFFSET] as number))) {
            chunk[at + ROW_PAGE] = page
            chunk[at + ROW_OFFSET] = start
          }
        }
        continue
      }
      // A new link: where it leads is worked out once.
      if (this.growSlots()) slot = this.find(hash, check, length, linkFolder)
      const internal = this.leadsTo(path, content, start, end, linkFolder === ROOT)
      const row = this.rowCount++
      if (row % CHUNK_ROWS === 0) this.chunks.push(new Int32Array(CHUNK_ROWS * ROW_INTS))
      const chunk = this.chunks[row >>> CHUNK_BITS] as Int32Array
      const at = (row % CHUNK_ROWS) * ROW_INTS
      chunk[at + ROW_HASH] = hash
      chunk[at + ROW_CHECK] = check
      chunk[at + ROW_LENGTH] = length
      chunk[at + ROW_FOLDER] = linkFolder
      chunk[at + ROW_COUNT] = 1
      chunk[at + ROW_PAGE] = page
      chunk[at + ROW_OFFSET] = start
      chunk[at + ROW_TARGET_HASH] = internal ? hashed.hash : 0
      chunk[at + ROW_TARGET_CHECK] = internal ? hashed.check : 0
      this.slots[slot] = row + 1
    }
  }

  check(files: readonly string[]): CheckedLinks {
    const broken: FoundLink[] = []
    const { links } = this.judge(files, (row) => broken.push(this.found(row)))
    return { links, broken }
  }

  summary(files: readonly string[], shown: number): LinkSummary {
    // The first `shown` in page order, kept in that order: a row goes in only if it comes before the last one kept.
    const first: Array<RowPlace & { page: string }> = []
    const before = (row: RowPlace & { page: string }, other: RowPlace & { page: string }): boolean =>
      row.page === other.page
        ? (row.chunk[row.at + ROW_OFFSET] as number) < (other.chunk[other.at + ROW_OFFSET] as number)
        : row.page < other.page
    const { links, brokenCount } = this.judge(files, ({ chunk, at }) => {
      if (shown === 0) return
      const row = { chunk, at, page: this.pages[chunk[at + ROW_PAGE] as number] as string }
      const last = first[first.length - 1]
      if (first.length === shown && last !== undefined && !before(row, last)) return
      let place = first.length
      while (place > 0 && before(row, first[place - 1] as RowPlace & { page: string })) place--
      first.splice(place, 0, row)
      if (first.length > shown) first.pop()
    })
    return { links, brokenCount, broken: first.map((row) => this.found(row)) }
  }

  /** Counts the internal links and hands each broken row to `broken`. */
  private judge(files: readonly string[], broken: (row: RowPlace) => void): { links: number; brokenCount: number } {
    let links = 0
    let brokenCount = 0
    if (this.rowCount === 0) return { links, brokenCount }
    const served = new ServedPaths(files)
    for (let row = 0; row < this.rowCount; row++) {
      const chunk = this.chunks[row >>> CHUNK_BITS] as Int32Array
      const at = (row % CHUNK_ROWS) * ROW_INTS
      const targetHash = chunk[at + ROW_TARGET_HASH] as number
      const targetCheck = chunk[at + ROW_TARGET_CHECK] as number
      if (targetHash === 0 && targetCheck === 0) continue
      const count = chunk[at + ROW_COUNT] as number
      links += count
      if (served.has(targetHash, targetCheck)) continue
      brokenCount += count
      broken({ chunk, at })
    }
    return { links, brokenCount }
  }

  /** The report of a row. */
  private found({ chunk, at }: RowPlace): FoundLink {
    const length = chunk[at + ROW_LENGTH] as number
    return {
      page: this.pages[chunk[at + ROW_PAGE] as number] as string,
      offset: chunk[at + ROW_OFFSET] as number,
      length,
      key: linkKey(chunk[at + ROW_HASH] as number, chunk[at + ROW_CHECK] as number, length),
      count: chunk[at + ROW_COUNT] as number
    }
  }

  /** The slot of the row with these hashes, length and folder, or of the free slot where it would go. */
  private find(hash: number, check: number, length: number, folder: number): number {
    const slots = this.slots
    const mask = slots.length - 1
    let slot = hash & mask
    for (let known = slots[slot] as number; known !== 0; known = slots[slot] as number) {
      // Links whose 64 bits of hash, length and folder agree are one link (two distinct links of a
      // site sharing them is not worth keeping their bytes to compare).
      const chunk = this.chunks[(known - 1) >>> CHUNK_BITS] as Int32Array
      const at = ((known - 1) & (CHUNK_ROWS - 1)) * ROW_INTS
      if (
        chunk[at + ROW_HASH] === hash &&
        chunk[at + ROW_CHECK] === check &&
        chunk[at + ROW_LENGTH] === length &&
        chunk[at + ROW_FOLDER] === folder
      )
        return slot
      slot = (slot + 1) & mask
    }
    return slot
  }

  /** Makes room in the slots for one more row; true when they were laid out anew. */
  private growSlots(): boolean {
    if ((this.rowCount + 1) * 2 <= this.slots.length) return false
    const slots = new Int32Array(this.slots.length * 2)
    const mask = slots.length - 1
    for (let row = 0; row < this.rowCount; row++) {
      const chunk = this.chunks[row >>> CHUNK_BITS] as Int32Array
      let slot = (chunk[(row % CHUNK_ROWS) * ROW_INTS + ROW_HASH] as number) & mask
      while (slots[slot] !== 0) slot = (slot + 1) & mask
      slots[slot] = row + 1
    }
    this.slots = slots
    return true
  }

  /**
   * Puts into `hashed` the hashes of the site path a new link leads to; false when it leaves the
   * site or points nowhere in particular. Most links of a generated site are plain root paths,
   * whose site path is hashed from the page's bytes; the others are resolved from their text.
   */
  private leadsTo(page: string, content: Buffer, start: number, end: number, root: boolean): boolean {
    const pathEnd = root ? plainRootPathEnd(content, start, end) : -1
    if (pathEnd !== -1) {
      pathBytesHash(content, start + 1, pathEnd, this.hashed)
      return true
    }
    const target = linkTarget(page, decodeSitePath(content.subarray(start, end)))
    if (target === undefined) return false
    pathHash(target, target.length, this.hashed)
    return true
  }
}

/**
 * The text of a link a collector reported, read back from its page `path` (a site path) with
 * content `content`; undefined when the page no longer has that link there.
 */
export function linkAt(
  path: string,
  content: Buffer,
  link: { offset: number; length: number; key: string }
): string | undefined {
  // A value starts after its `=`, any whitespace, and its quote: the search starts at that `=`.
  let from = link.offset - 1
  if (from >= 0 && (content[from] === 0x22 || content[from] === 0x27)) from--
  while (from > 0 && isSpace(content[from])) from--
  const scanner = new LinkScanner().reset(content, Math.max(0, from))
  if (!scanner.next() || scanner.start !== link.offset || scanner.end !== link.offset + link.length) return undefined
  const { start, end } = scanner
  const seed = isRootPath(content, start, end) ? ROOT_SEED : folderHash(path.slice(0, path.lastIndexOf('/') + 1))
  const hashed = { hash: 0, check: 0 }
  linkHash(content, start, end, seed, hashed)
  if (linkKey(hashed.hash, hashed.check, link.length) !== link.key) return undefined
  return content.toString('utf8', start, end)
}

function linkKey(hash: number, check: number, length: number): string {
  return `${hash}:${check}:${length}`
}

/** A root path is the same link from every page; a relative one (`//host` too), from every page of a folder. */
function isRootPath(content: Buffer, start: number, end: number): boolean {
  return content[start] === 0x2f && (end === start + 1 || content[start + 1] !== 0x2f)
}

/** The hash of a folder (`guides/`), which seeds the hashes of its pages' relative links. */
function folderHash(folder: string): number {
  let hash = 0x811c9dc5
  for (let at = 0; at < folder.length; at++) hash = Math.imul(hash ^ folder.charCodeAt(at), 0x01000193)
  return hash
}

/**
 * Two hashes of a link's bytes: FNV-1a's step seeded with `seed`, and a multiply-xor with another
 * seed and prime, over four bytes at a time and then the last bytes one by one (every link seen is
 * hashed: a multiplication per four bytes instead of one per byte).
 */
function linkHash(content: Buffer, start: number, end: number, seed: number, out: PathHash): void {
  let hash = seed
  let check = 0x5bd1e995
  let at = start
  for (; at + 4 <= end; at += 4) {
    const word =
      (content[at] as number) |
      ((content[at + 1] as number) << 8) |
      ((content[at + 2] as number) << 16) |
      ((content[at + 3] as number) << 24)
    hash = Math.imul(hash ^ word, 0x01000193)
    check = Math.imul(check ^ word, 0x5bd1e995)
  }
  for (; at < end; at++) {
    const byte = content[at] as number
    hash = Math.imul(hash ^ byte, 0x01000193)
    check = Math.imul(check ^ byte, 0x5bd1e995)
  }
  out.hash = hash ^ (hash >>> 15)
  out.check = check
}

/**
 * Where the site path of a root link ends, when the link is a plain root path followed by nothing
 * or by a query or a fragment: segments of printable ASCII with nothing to decode (`%`, `&`), none
 * empty or starting with a dot. Its site path is then its own bytes from `start + 1` to there, as
 * linkTarget() would resolve it. -1 for any other link.
 */
function plainRootPathEnd(content: Buffer, start: number, end: number): number {
  let at = start
  for (;;) {
    // At a `/`: what follows is the end, a query or a fragment (after a trailing slash), or a segment.
    if (++at === end) return at
    let byte = content[at] as number
    if (byte === 0x3f || byte === 0x23) return at
    if (byte === 0x2f || byte === 0x2e) return -1
    while (byte !== 0x2f) {
      if (byte === 0x3f || byte === 0x23) return at
      // Escapes and entities need decoding, whitespace trimming, and other bytes a closer look.
      if (byte === 0x25 || byte === 0x26 || byte <= 0x20 || byte >= 0x7f) return -1
      if (++at === end) return at
      byte = content[at] as number
    }
  }
}
