/**
 * The staged site looked at before it is deployed: an `index.html`, at least the pages the export
 * job reported, internal links that lead to files of it. Pages are read in page order.
 */
import * as fs from 'node:fs'
import { setImmediate as setImmediatePromise } from 'node:timers/promises'
import { type FoundLink, LinkCheck, isPage } from './links.js'
import { fileSystemPath, listSite } from '../common/site-paths.js'
import { counted } from '../common/units.js'

/** A broken link as a report shows it (it has its page's byte offset too, of no use there). */
export type BrokenLink = Omit<FoundLink, 'offset'>

/** What is wrong with the site as a whole; its internal links and broken ones (all counted), the first shown. */
export interface SiteCheck {
  problems: string[]
  htmlPages: number
  links: number
  brokenCount: number
  broken: BrokenLink[]
  reviewMs: number
}

/** Checks the site in `root`, of `files` (site paths) when the caller has them; else it is listed. */
export async function checkSite(
  root: string,
  options: { files?: readonly string[]; expectedPages?: number | undefined; signal?: AbortSignal } = {}
): Promise<SiteCheck> {
  const { expectedPages, signal } = options
  const started = performance.now()
  const files = options.files ?? (await listSite(root, signal))
  const pages = files.filter(isPage).sort()
  const check = new LinkCheck(files)
  for (const [at, page] of pages.entries()) {
    // Pages are read with blocking calls: the event loop gets a turn now and then (a cancellation, the log).
    if (at % 64 === 63) await setImmediatePromise()
    signal?.throwIfAborted()
    readPage(fileSystemPath(root, page), (read) => check.observe(page, read))
  }
  const problems: string[] = []
  if (!files.includes('index.html')) problems.push('The site has no index.html at its root.')
  if (expectedPages !== undefined && pages.length < expectedPages) {
    problems.push(
      `The site has ${counted(pages.length, 'HTML page')}, fewer than the ${expectedPages} the export job reported.`
    )
  }
  const { links, brokenCount, broken } = check
  return { problems, htmlPages: pages.length, links, brokenCount, broken, reviewMs: performance.now() - started }
}

/**
 * Hands `use` a reader of the page at `path`, blocking (see docs/benchmarks.md). A link to no file or
 * a folder has nothing to read; one to a named pipe reads as empty.
 */
function readPage(path: string | Buffer, use: (read: (into: Buffer, at: number) => number) => void): void {
  try {
    const fd = fs.openSync(path, fs.constants.O_RDONLY | (fs.constants.O_NONBLOCK ?? 0))
    try {
      use((into, at) => fs.readSync(fd, into, at, into.length - at, null))
    } finally {
      fs.closeSync(fd)
    }
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    if (code !== 'ENOENT' && code !== 'ELOOP' && code !== 'EISDIR') throw error
  }
}
