/**
 * A look at an unpacked site before it is deployed: it has an `index.html`, it has at least the
 * pages the export job reported, and its internal links lead to files of the site.
 */
import type { Dirent } from 'node:fs'
import { readFile, readdir } from 'node:fs/promises'
import { join, relative, sep } from 'node:path'
import { SiteLinks, lineAt, scanLinks } from './links.js'

export interface BrokenLink {
  /** The page, as a site path. */
  file: string
  line: number
  /** The link as written. */
  link: string
}

export interface SiteCheck {
  /** What is wrong with the site as a whole (no index page, too few pages). */
  problems: string[]
  htmlPages: number
  /** Internal links found. */
  links: number
  /** Internal links that lead to no file of the site. */
  brokenCount: number
  /** The first broken links, in page order, with their lines. */
  broken: BrokenLink[]
}

/** Broken links reported one by one; the rest are counted. */
export const BROKEN_LINKS_SHOWN = 20
/** Pages read at once. */
const CONCURRENCY = 16

export async function checkSite(siteDir: string, options: { expectedPages?: number | undefined; signal?: AbortSignal | undefined }): Promise<SiteCheck> {
  const files = await siteFiles(siteDir)
  const pages = [...files].filter((file) => /\.html?$/i.test(file)).sort()
  const problems: string[] = []
  if (!files.has('index.html')) problems.push('The site has no index.html at its root.')
  if (options.expectedPages !== undefined && pages.length < options.expectedPages) {
    problems.push(`The site has ${pages.length} HTML pages, fewer than the ${options.expectedPages} the export job reported.`)
  }

  const siteLinks = new SiteLinks(files)
  const broken: Array<{ file: string; offset: number; link: string }> = []
  let brokenCount = 0
  let links = 0
  let next = 0
  const perPage = new Map<string, Array<{ offset: number; link: string }>>()
  const worker = async (): Promise<void> => {
    while (next < pages.length) {
      options.signal?.throwIfAborted()
      const file = pages[next++] as string
      for (const { value, offset } of scanLinks(await readFile(join(siteDir, file)))) {
        const served = siteLinks.check(file, value)
        if (served === undefined) continue
        links++
        if (served) continue
        brokenCount++
        const list = perPage.get(file) ?? []
        list.push({ offset, link: value })
        perPage.set(file, list)
      }
    }
  }
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, pages.length) }, worker))
  for (const file of pages) {
    for (const found of perPage.get(file) ?? []) {
      if (broken.length === BROKEN_LINKS_SHOWN) break
      broken.push({ file, ...found })
    }
  }
  // Lines are counted only for the links shown: a second read of at most that many pages.
  const shown: BrokenLink[] = []
  for (const file of new Set(broken.map((b) => b.file))) {
    const page = await readFile(join(siteDir, file))
    for (const found of broken.filter((b) => b.file === file)) shown.push({ file, line: lineAt(page, found.offset), link: found.link })
  }
  return { problems, htmlPages: pages.length, links, brokenCount, broken: shown }
}

/** Every file of the site as a site path (`/`-separated); links are not followed. */
async function siteFiles(siteDir: string): Promise<Set<string>> {
  const entries: Dirent[] = await readdir(siteDir, { recursive: true, withFileTypes: true })
  const files = new Set<string>()
  for (const entry of entries) {
    if (!entry.isFile() && !entry.isSymbolicLink()) continue
    const parent = (entry as Dirent & { parentPath?: string; path?: string }).parentPath ?? (entry as { path?: string }).path ?? siteDir
    files.add(relative(siteDir, join(parent, entry.name)).split(sep).join('/'))
  }
  return files
}
