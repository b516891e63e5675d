/**
 * The `href`/`src` values of an HTML page's start tags, from its bytes, read a window at a time. A
 * value follows `href` or `src` in any case with whitespace before it (not `data-src`, `xhref`),
 * optional whitespace, `=`, optional whitespace: quoted either way, up to its closing quote within
 * MAX_VALUE_BYTES, or unquoted, up to whitespace or `>`. Only in a start tag: going back from the
 * name, the nearest `<` or `>` is a `<` that an ASCII letter follows; so HTML shown as text
 * (`&lt;a href="/about"&gt;`), prose, `</a href=x>`, `<!`, `<?` and a page's start hold no link.
 * Known limits: a `>` (or `<`) in an earlier quoted value of the tag decides instead (`<a title="a >
 * b" href="/x">` hides the link), and links inside comments count.
 */

/** Attribute values are short; a longer run is not one (a broken page, or a script). */
const MAX_VALUE_BYTES = 2048
/** A page is read this much at a time: memory stays flat whatever the pages' size. */
const WINDOW_BYTES = 1024 * 1024
/** A longer run of whitespace reads the same as one of this length (no value holds it). */
const RUN_BYTES = MAX_VALUE_BYTES + 1
const [EQUALS, LESS, GREATER, LINE_FEED, DOUBLE_QUOTE, SINGLE_QUOTE] = [0x3d, 0x3c, 0x3e, 0x0a, 0x22, 0x27]
const LOWER = 0x20
const NAMES = [Buffer.from('href'), Buffer.from('src')]

/** HTML's whitespace. */
const isSpace = (byte: number | undefined): boolean =>
  byte === 0x20 || byte === 0x0a || byte === 0x09 || byte === 0x0d || byte === 0x0c

/** Reads a page's next bytes into `into`, from `at` to its end; 0 at the page's end. */
export type ReadPage = (into: Buffer, at: number) => number

/**
 * Walks the link values of pages: each `=` found by Buffer's native search, a start tag looked for
 * back to the name judged before at most (`tagAt`). The next window starts five bytes (a name and
 * the byte before it) before the whitespace ahead of an `=` waiting for its value, or of the window's
 * end, its whitespace runs cut to RUN_BYTES (under 7 KiB in all), before any value still to find.
 */
export class PageScanner {
  /** The value found last: `window` from `start` to `end`, at page offset `base + start`. */
  window: Buffer = Buffer.alloc(0)
  start = 0
  end = 0
  base = 0
  /** The line of the window's start; the lines of the window before `lineAt`. */
  private lineBase = 1
  private lineAt = 0
  private lines = 0
  private readonly buffer: Buffer
  private final = false
  /** Where the search for the next `=` starts; once the window is done, where the next one takes up. */
  private from = 0
  /** Whether a start tag is open at the window's start, and at the name judged last (`tagAt`). */
  private startOpen = false
  private tagAt = 0
  private tagOpen = false

  /** At least 8 KiB: room for what a window carries and more. */
  constructor(windowBytes = WINDOW_BYTES) {
    this.buffer = Buffer.allocUnsafe(Math.max(windowBytes, 8 * 1024))
  }

  /** The 1-based line of the value found last, counted on from the one asked before (values come in order). */
  line(): number {
    this.lines += countLines(this.window.subarray(this.lineAt, this.start))
    this.lineAt = this.start
    return this.lineBase + this.lines
  }

  /** Reads a page through `read`, calling `found` for each link value in page order. */
  scan(read: ReadPage, found: () => void): void {
    let filled = 0
    ;[this.from, this.base, this.lineBase, this.startOpen] = [0, 0, 1, false]
    for (;;) {
      for (let bytes = -1; bytes !== 0 && filled < this.buffer.length; filled += bytes)
        bytes = read(this.buffer, filled)
      this.final = filled < this.buffer.length
      this.window = this.buffer.subarray(0, filled)
      ;[this.tagAt, this.tagOpen, this.lineAt, this.lines] = [0, this.startOpen, 0, 0]
      while (this.next()) found()
      if (this.final) return
      filled = this.carry()
    }
  }

  /** Finds the next link value of the window; false when it has no more it can judge. */
  private next(): boolean {
    const page = this.window
    for (let at = page.indexOf(EQUALS, this.from); at !== -1; at = page.indexOf(EQUALS, at + 1)) {
      const name = attributeNameStart(page, at)
      if (name === -1 || !this.inStartTag(name)) continue
      let start = at + 1
      while (isSpace(page[start])) start++
      const quote = page[start] === DOUBLE_QUOTE || page[start] === SINGLE_QUOTE ? page[start++] : undefined
      if (!this.final && start + MAX_VALUE_BYTES + 1 > page.length) {
        // The value may go on past the window: the next one judges this `=`.
        this.from = at
        return false
      }
      const limit = Math.min(page.length, start + MAX_VALUE_BYTES + 1)
      let end = quote === undefined ? start : page.indexOf(quote, start)
      if (quote === undefined) while (end < limit && !isSpace(page[end]) && page[end] !== GREATER) end++
      if (quote === undefined ? end === start : end === -1 || end >= limit) continue
      // An `=` inside the value starts nothing.
      ;[this.start, this.end, this.from] = [start, end, end]
      return true
    }
    this.from = page.length
    return false
  }

  /** Moves what the next window needs to the buffer's start (see the class); returns its length. */
  private carry(): number {
    const { window, buffer } = this
    let keep = this.from
    while (isSpace(window[keep - 1])) keep--
    keep = Math.max(0, keep - 5)
    this.startOpen = this.inStartTag(keep)
    this.lineBase += countLines(window.subarray(0, keep))
    this.base += keep
    let [out, run, from] = [0, 0, -1]
    for (let at = keep; at < window.length; at++) {
      const byte = window[at] as number
      if (at === this.from) from = out
      run = isSpace(byte) ? run + 1 : 0
      if (run <= RUN_BYTES) buffer[out++] = byte
      else [this.base, this.lineBase] = [this.base + 1, this.lineBase + (byte === LINE_FEED ? 1 : 0)]
    }
    this.from = from === -1 ? out : from
    return out
  }

  /** Whether the nearest `<` or `>` before `name` is a `<` that a letter follows (see the class). */
  private inStartTag(name: number): boolean {
    const page = this.window
    const known = this.tagAt <= name
    let open = known ? this.tagOpen : this.startOpen
    for (let back = name - 1; back >= (known ? this.tagAt : 0); back--) {
      const byte = page[back] as number
      if (byte !== LESS && byte !== GREATER) continue
      open = byte === LESS && (((page[back + 1] as number) | LOWER) - 0x61) >>> 0 < 26
      break
    }
    ;[this.tagAt, this.tagOpen] = [name, open]
    return open
  }
}

function countLines(bytes: Buffer): number {
  let lines = 0
  for (let at = bytes.indexOf(LINE_FEED); at !== -1; at = bytes.indexOf(LINE_FEED, at + 1)) lines++
  return lines
}

/** Where the name before the `=` at `at` starts, past whitespace, when it is `href` or `src` in any case; else -1. */
function attributeNameStart(page: Buffer, at: number): number {
  // Most `=` follow another name's letter: rejected at once (whitespace gives 0x2d or less once LOWER is set).
  const last = (page[at - 1] as number) | LOWER
  if (last !== 0x66 && last !== 0x63 && last > 0x2d) return -1
  let nameEnd = at
  while (isSpace(page[nameEnd - 1])) nameEnd--
  for (const name of NAMES) {
    const start = nameEnd - name.length
    let same = start > 0 && isSpace(page[start - 1])
    for (let i = 0; same && i < name.length; i++) same = ((page[start + i] as number) | LOWER) === name[i]
    if (same) return start
  }
  return -1
}
