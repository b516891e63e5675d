/**
 * Finding the `href`/`src` values of an HTML page's start tags, from its bytes. Pure.
 *
 * A link value follows the attribute name `href` or `src` in any case, with whitespace before the
 * name (`data-src` and `xhref` are not links), then optional whitespace, `=` and optional
 * whitespace: quoted either way, up to its closing quote within MAX_VALUE_BYTES; or unquoted, up to
 * whitespace or `>`. It counts only inside a start tag: going back from the name, the nearest `<` or
 * `>` is a `<` that an ASCII letter follows. So an HTML sample shown as text (`&lt;a href="/about"&gt;`),
 * prose, `</a href=x>`, `<!...`, `<?...` and a page's start before any tag hold no link. Known limits
 * of looking no further back: a `>` (or `<`) inside an earlier quoted value of the same tag decides
 * instead (`<a title="a > b" href="/x">` hides the link), and links inside comments count.
 */

/** Attribute values are short; a longer run is not one (a broken page, or a script). */
export const MAX_VALUE_BYTES = 2048

const EQUALS = 0x3d
const LESS = 0x3c
const GREATER = 0x3e
const DOUBLE_QUOTE = 0x22
const SINGLE_QUOTE = 0x27
/** An ASCII byte with this bit set is its lower case (for letters; other bytes are compared as they come). */
const LOWER = 0x20

/** HTML's whitespace: tab, line feed, form feed, carriage return, space. */
export function isSpace(byte: number | undefined): boolean {
  return byte === 0x20 || byte === 0x0a || byte === 0x09 || byte === 0x0d || byte === 0x0c
}

/**
 * Walks the link values of one page: each next() finds the next one and sets `start` and `end`
 * (byte offsets). One object walks page after page (reset()), so a scan allocates nothing per link.
 *
 * Candidates are found with Buffer's native search for `=`; only the bytes around each `=` are
 * read in JavaScript. Whether a name is inside a start tag is read back to the name judged before
 * it at most (`tagAt`), so a page is read back once in all, however many attributes a tag has.
 */
export class LinkScanner {
  /** Where the value found last starts and ends. */
  start = 0
  end = 0
  private page: Buffer = Buffer.alloc(0)
  /** Where the search for the next `=` starts. */
  private from = 0
  /** The start of the attribute name judged last (0: nothing known), and whether it was inside a start tag. */
  private tagAt = 0
  private tagOpen = false

  /** Starts on `page`, from byte `from`; nothing is carried over from the page before. */
  reset(page: Buffer, from = 0): this {
    this.page = page
    this.from = from
    this.tagAt = 0
    this.tagOpen = false
    return this
  }

  /** Finds the next link value; false when the page has no more. */
  next(): boolean {
    const page = this.page
    const length = page.length
    for (let at = page.indexOf(EQUALS, this.from); at !== -1; at = page.indexOf(EQUALS, at + 1)) {
      // ` src=` is the shortest start of a value.
      if (at < 4) continue
      const nameStart = attributeNameStart(page, at)
      if (nameStart === -1 || !this.inStartTag(nameStart)) continue
      // The value, past any whitespace after the `=`; a page that ends first has none.
      let start = at + 1
      while (start < length && isSpace(page[start])) start++
      if (start === length) continue
      const quote = page[start]
      const quoted = quote === DOUBLE_QUOTE || quote === SINGLE_QUOTE
      if (quoted) start++
      if (start === length) continue
      const limit = Math.min(length, start + MAX_VALUE_BYTES + 1)
      let end: number
      if (quoted) {
        // (Every quoted value's search ends at the next such quote at the latest, which a later
        // quoted value of the page starts with: the searches of a page overlap little.)
        end = page.indexOf(quote as number, start)
        if (end === -1 || end >= limit) continue
      } else {
        end = start
        while (end < limit && !isSpace(page[end]) && page[end] !== GREATER) end++
        if (end === start) continue
      }
      this.start = start
      this.end = end
      // An `=` inside the value starts nothing.
      this.from = end
      return true
    }
    this.from = length
    return false
  }

  /**
   * Whether the attribute name at `name` is inside a start tag: the nearest `<` or `>` before it
   * is a `<` that a letter follows. Read back only to the name judged last (which is known); a
   * name before that one is read back to the page's start.
   */
  private inStartTag(name: number): boolean {
    const page = this.page
    let readTo = this.tagAt
    if (readTo > name) readTo = 0
    let open = readTo === 0 ? false : this.tagOpen
    for (let back = name - 1; back >= readTo; back--) {
      const byte = page[back] as number
      if (byte !== LESS && byte !== GREATER) continue
      open = byte === LESS && (((page[back + 1] as number) | LOWER) - 0x61) >>> 0 < 26
      break
    }
    this.tagAt = name
    this.tagOpen = open
    return open
  }
}

/**
 * Where the attribute name before the `=` at `at` starts, past any whitespace, when that name is
 * `href` or `src` in any case with whitespace before it; -1 otherwise. `at` is 4 or more.
 */
function attributeNameStart(page: Buffer, at: number): number {
  let nameEnd = at
  let last = (page[nameEnd - 1] as number) | LOWER
  // Most `=` follow another name's letter: rejected at once, and the whitespace before an `=` is
  // read only when there is some (whitespace gives 0x2d or less once LOWER is set).
  if (last !== 0x66 && last !== 0x63) {
    if (last > 0x2d) return -1
    while (isSpace(page[nameEnd - 1])) if (--nameEnd < 4) return -1
    last = (page[nameEnd - 1] as number) | LOWER
  }
  let nameStart: number
  if (last === 0x66) {
    // `href`
    if (nameEnd < 5) return -1
    if (((page[nameEnd - 2] as number) | LOWER) !== 0x65) return -1
    if (((page[nameEnd - 3] as number) | LOWER) !== 0x72) return -1
    if (((page[nameEnd - 4] as number) | LOWER) !== 0x68) return -1
    nameStart = nameEnd - 4
  } else if (last === 0x63) {
    // `src`
    if (((page[nameEnd - 2] as number) | LOWER) !== 0x72) return -1
    if (((page[nameEnd - 3] as number) | LOWER) !== 0x73) return -1
    nameStart = nameEnd - 3
  } else return -1
  return isSpace(page[nameStart - 1]) ? nameStart : -1
}

/** A link as written in a page. */
export interface PageLink {
  /** The attribute value as written. */
  value: string
  /** Byte offset of the value in the page, to find its line later. */
  offset: number
}

/** Every href/src value of the start tags of an HTML page, in the order they appear. */
export function scanLinks(page: Buffer): PageLink[] {
  const links: PageLink[] = []
  const scanner = new LinkScanner().reset(page)
  while (scanner.next()) links.push({ value: page.toString('utf8', scanner.start, scanner.end), offset: scanner.start })
  return links
}

/** The 1-based line of a byte offset. */
export function lineAt(page: Buffer, offset: number): number {
  let line = 1
  for (let at = page.indexOf(0x0a); at !== -1 && at < offset; at = page.indexOf(0x0a, at + 1)) line++
  return line
}
