/**
 * A look at an unpacked site before it is deployed: it has an `index.html`, it has at least the
 * pages the export job reported, and its internal links lead to files of the site.
 *
 * Pages are scanned as the unpacking writes them, while their content is in memory: beside the
 * tar reader, or on the writer threads that inflate a zip's entries (see SiteInspector), so a large
 * site is not read a second time; each distinct link is kept once, with where it first
 * appears and how often, so memory stays small however many pages repeat the same navigation.
 * The unpacking also says which files it created, so the site is not listed from the disk.
 */
import type { Dirent } from 'node:fs'
import { readFile, readdir } from 'node:fs/promises'
import { join, relative, sep } from 'node:path'
import {
  type CheckedLinks,
  type FoundLink,
  type LinkCollector,
  isPage,
  lineAt,
  linkAt,
  linkCollector,
  linkCollectorSource
} from './links.js'

interface FileObserver {
  observe(path: string, content: Buffer): void
  result(files: readonly string[]): unknown
}
interface SiteInspector {
  review(root: string): Promise<void>
}

export interface BrokenLink {
  /** The page, as a site path, where the link first appears. */
  file: string
  /**
   * Its line and the link as written; undefined when the page no longer holds it there: the
   * archive had two entries of that page's name, and the later, different one was written.
   */
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
  /** How long the check took after the unpacking, in ms. */
  reviewMs: number
}

/** Broken links reported one by one; the rest are counted. */
const BROKEN_LINKS_SHOWN = 20
/** Pages read at once when they were not seen during the unpacking. */
const CONCURRENCY = 16

/**
 * An observer of written pages that collects their links and judges them against the site's
 * files. Self-contained, like the collector it is given: the writer threads run both from source.
 */
function linkObserver(collector: () => LinkCollector): FileObserver {
  const links = collector()
  return { observe: links.observe, result: (files) => links.check(files) }
}

export interface VerifierOptions {
  /** The export job's last page count: the site has at least as many pages. */
  expectedPages?: number | undefined
  /** Judges the check of the staged site before it replaces the old one; a throw keeps the old site. */
  judge?: (check: SiteCheck) => void
  signal?: AbortSignal | undefined
}

export class SiteVerifier implements SiteInspector {
  /** What the review of the staged site found. */
  result: SiteCheck | undefined
  /** Each writer thread collects the links of the pages it writes, and judges them once the site is complete. */
  readonly threadObserver = `() => (${linkObserver.toString()})(${linkCollectorSource})`
  /** The same, on the main thread (a tar's pages are there as they are written). */
  observer(): FileObserver {
    return linkObserver(linkCollector)
  }
  /** Both observers look at HTML pages only. */
  sees(path: string): boolean {
    return isPage(path)
  }
  /** What the threads found, and the files the unpacking created (with those of them no thread saw), when it said. */
  private checked: CheckedLinks[] = []
  private files: ReadonlySet<string> | undefined
  private unobserved: ReadonlySet<string> | undefined

  constructor(private readonly options: VerifierOptions = {}) {}

  /** The unpacking is done: what its threads found, the files it created, and which of them no thread saw. */
  unpacked(site: { files: ReadonlySet<string>; observed: unknown[]; unobserved: ReadonlySet<string> }): void {
    this.files = site.files
    this.unobserved = site.unobserved
    this.checked = (site.observed as Array<CheckedLinks | undefined>).filter((checked) => checked !== undefined)
  }

  /** The staged site, before it is swapped in: checked, then judged. */
  async review(root: string): Promise<void> {
    this.result = await this.check(root)
    this.options.judge?.(this.result)
  }

  /** Checks the site in `root`. */
  async check(root: string): Promise<SiteCheck> {
    const { expectedPages, signal } = this.options
    const started = performance.now()
    const files = this.files ?? (await siteFiles(root))
    const list = [...files]
    const pages = list.filter(isPage)
    // Pages no thread saw (large ones, links), or all of them when the unpacking did not say, are read now.
    const unobserved = this.unobserved
    const unread = unobserved === undefined ? pages : pages.filter((page) => unobserved.has(page))
    const here = linkCollector()
    let next = 0
    const reader = async (): Promise<void> => {
      while (next < unread.length) {
        signal?.throwIfAborted()
        const page = unread[next++] as string
        here.observe(page, await readFile(join(root, page)))
      }
    }
    await Promise.all(Array.from({ length: Math.min(CONCURRENCY, unread.length) }, reader))

    const problems: string[] = []
    if (!files.has('index.html')) problems.push('The site has no index.html at its root.')
    if (expectedPages !== undefined && pages.length < expectedPages) {
      problems.push(`The site has ${pages.length} HTML pages, fewer than the ${expectedPages} the export job reported.`)
    }
    // A root link may be broken on several threads' pages: one entry per distinct link.
    let links = 0
    const brokenByKey = new Map<string, FoundLink>()
    for (const checked of [...this.checked, here.check(list)]) {
      links += checked.links
      for (const link of checked.broken) {
        const known = brokenByKey.get(link.key)
        if (known === undefined) brokenByKey.set(link.key, { ...link })
        else {
          known.count += link.count
          // Keep the first place in page order, so reports do not vary.
          if (link.page < known.page || (link.page === known.page && link.offset < known.offset))
            Object.assign(known, { page: link.page, offset: link.offset })
        }
      }
    }
    const broken = [...brokenByKey.values()].sort((a, b) =>
      a.page === b.page ? a.offset - b.offset : a.page < b.page ? -1 : 1
    )
    const shown = broken.slice(0, BROKEN_LINKS_SHOWN)
    // The links shown, with their lines, are read back from their pages: a second read of at most that many pages.
    const pagesShown = new Map<string, Buffer>()
    for (const link of shown)
      if (!pagesShown.has(link.page)) pagesShown.set(link.page, await readPageBack(root, link.page))
    return {
      problems,
      htmlPages: pages.length,
      links,
      brokenCount: broken.reduce((sum, link) => sum + link.count, 0),
      broken: shown.map((link) => {
        const page = pagesShown.get(link.page) as Buffer
        const text = linkAt(link.page, page, link)
        return {
          file: link.page,
          line: text === undefined ? undefined : lineAt(page, link.offset),
          link: text,
          count: link.count
        }
      }),
      reviewMs: performance.now() - started
    }
  }
}

/**
 * A page as it is on disk now; empty when it is gone: a later entry whose name differs only in
 * case or Unicode form replaced it (see EntryIndex), and its links are then reported as those of
 * an earlier entry.
 */
async function readPageBack(root: string, page: string): Promise<Buffer> {
  try {
    return await readFile(join(root, page))
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return Buffer.alloc(0)
    throw error
  }
}

/** Checks a site on disk on its own (nothing seen during an unpacking). */
export function checkSite(root: string, expectedPages?: number): Promise<SiteCheck> {
  return new SiteVerifier({ expectedPages }).check(root)
}

/** Every file of the site as a site path (`/`-separated); links are not followed. */
async function siteFiles(root: string): Promise<Set<string>> {
  const entries: Dirent[] = await readdir(root, { recursive: true, withFileTypes: true })
  const files = new Set<string>()
  for (const entry of entries) {
    if (!entry.isFile() && !entry.isSymbolicLink()) continue
    const parent =
      (entry as Dirent & { parentPath?: string; path?: string }).parentPath ?? (entry as { path?: string }).path ?? root
    files.add(relative(root, join(parent, entry.name)).split(sep).join('/'))
  }
  return files
}
