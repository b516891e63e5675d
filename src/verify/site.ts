/**
 * A look at an unpacked site before it is deployed: it has an `index.html`, it has at least the
 * pages the export job reported, and its internal links lead to files of the site.
 *
 * The pages are read back from the staged folder once the unpacking is done, a few at a time into
 * buffers each reader keeps, so memory stays flat whatever the site's size; each distinct link is
 * kept once (see links.ts). Only the pages of the broken links shown are read a second time, for
 * the links' text and lines.
 */
import * as fs from 'node:fs'
import { readFile } from 'node:fs/promises'
import { setImmediate as setImmediatePromise } from 'node:timers/promises'
import { type FoundLink, isPage, lineAt, linkAt, linkCollector } from './links.js'
import { fileSystemPath, listSite } from '../common/site-paths.js'
import { counted } from '../common/units.js'

export interface BrokenLink {
  /** The page, as a site path, where the link first appears. */
  file: string
  /** Its line and the link as written; undefined when the page no longer holds it (it changed during the check). */
  line: number | undefined
  link: string | undefined
  /** Places it appears in all. */
  count: number
}

export interface SiteCheck {
  /** What is wrong with the site as a whole (no index page, too few pages). */
  problems: string[]
  htmlPages: number
  /** Internal links found, every occurrence counted. */
  links: number
  /** Internal links that lead to no file of the site, every occurrence counted. */
  brokenCount: number
  /** The first distinct broken links, in page order, with where they first appear. */
  broken: BrokenLink[]
  /** How long the check took, in ms. */
  reviewMs: number
}

export interface SiteCheckOptions {
  /**
   * The site's regular files and symbolic links as site paths (see site-paths.ts), when the caller
   * has them (the unpacking walks the staged tree anyway); otherwise the tree is listed.
   */
  files?: readonly string[] | undefined
  /** The export job's last page count: the site has at least as many pages. */
  expectedPages?: number | undefined
  signal?: AbortSignal | undefined
}

/** Broken links reported one by one; the rest are counted. */
const BROKEN_LINKS_SHOWN = 20
/** The buffer pages are read into to begin with; one grown past RETAINED_BYTES for a large page is let go after it. */
const BUFFER_BYTES = 128 * 1024
const RETAINED_BYTES = 1024 * 1024
/** Pages are read with plain blocking calls; the event loop gets a turn this often (a cancellation, the log). */
const TURN_EVERY_MS = 10

/** Checks the site in `root`. */
export async function checkSite(root: string, options: SiteCheckOptions = {}): Promise<SiteCheck> {
  const { expectedPages, signal } = options
  const started = performance.now()
  const files = options.files ?? (await listSite(root, signal))
  const pages = files.filter(isPage)
  const collector = linkCollector()
  await readPages(root, pages, (page, content) => collector.observe(page, content), signal)

  const problems: string[] = []
  if (!files.includes('index.html')) problems.push('The site has no index.html at its root.')
  if (expectedPages !== undefined && pages.length < expectedPages) {
    problems.push(
      `The site has ${counted(pages.length, 'HTML page')}, fewer than the ${expectedPages} the export job reported.`
    )
  }
  const { links, brokenCount, broken } = collector.summary(files, BROKEN_LINKS_SHOWN)
  return {
    problems,
    htmlPages: pages.length,
    links,
    brokenCount,
    broken: await readBack(root, broken),
    reviewMs: performance.now() - started
  }
}

/**
 * Reads each page and hands it to `use` (which must not keep it: the buffer is read into again).
 * Blocking reads of pages in the page cache cost a third of what the thread pool's round trips do
 * on a site of many small pages (see docs/benchmarks.md).
 */
async function readPages(
  root: string,
  pages: readonly string[],
  use: (page: string, content: Buffer) => void,
  signal: AbortSignal | undefined
): Promise<void> {
  const room = { buffer: Buffer.allocUnsafe(BUFFER_BYTES) }
  let turnAt = performance.now() + TURN_EVERY_MS
  for (const page of pages) {
    if (performance.now() >= turnAt) {
      await setImmediatePromise()
      turnAt = performance.now() + TURN_EVERY_MS
    }
    signal?.throwIfAborted()
    const content = readPage(fileSystemPath(root, page), room)
    if (content !== undefined) use(page, content)
    if (room.buffer.length > RETAINED_BYTES) room.buffer = Buffer.allocUnsafe(BUFFER_BYTES)
  }
}

/**
 * A page's content, read into `room.buffer` (made larger when the page does not fit). Undefined
 * for a symbolic link that leads to no file: the site has the page's name but no content to check.
 */
function readPage(path: string | Buffer, room: { buffer: Buffer }): Buffer | undefined {
  let fd: number
  try {
    fd = fs.openSync(path, READ_FLAGS)
  } catch (error) {
    if (isNoFile(error)) return undefined
    throw error
  }
  try {
    let filled = 0
    for (;;) {
      if (filled === room.buffer.length) {
        const larger = Buffer.allocUnsafe(room.buffer.length * 2)
        room.buffer.copy(larger, 0, 0, filled)
        room.buffer = larger
      }
      const read = fs.readSync(fd, room.buffer, filled, room.buffer.length - filled, null)
      if (read === 0) return room.buffer.subarray(0, filled)
      filled += read
    }
  } catch (error) {
    if (isNoFile(error)) return undefined
    throw error
  } finally {
    fs.closeSync(fd)
  }
}

/**
 * Reading only; without waiting for a writer, should a page be a link to a named pipe of the site
 * (it then reads as empty): a regular file is read the same either way.
 */
const READ_FLAGS = fs.constants.O_RDONLY | (fs.constants.O_NONBLOCK ?? 0)

/** A link that leads nowhere, in a loop, or to a folder. */
function isNoFile(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException).code
  return code === 'ENOENT' || code === 'ELOOP' || code === 'EISDIR'
}

/** The links shown, with their text and lines read back from their pages (each page read once). */
async function readBack(root: string, shown: FoundLink[]): Promise<BrokenLink[]> {
  const contents = new Map<string, Buffer>()
  for (const link of shown) {
    if (contents.has(link.page)) continue
    let content: Buffer
    try {
      content = await readFile(fileSystemPath(root, link.page))
    } catch (error) {
      if (!isNoFile(error)) throw error
      content = Buffer.alloc(0)
    }
    contents.set(link.page, content)
  }
  return shown.map((link) => {
    const content = contents.get(link.page) as Buffer
    const text = linkAt(link.page, content, link)
    return {
      file: link.page,
      line: text === undefined ? undefined : lineAt(content, link.offset),
      link: text,
      count: link.count
    }
  })
}
