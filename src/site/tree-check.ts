/**
 * The check of what was written, before the staged site is swapped in: every entry was judged as
 * the reader announced it (see ledger.ts), so the tree is walked only for what the announcements
 * cannot tell. Each folder, file and symlink on disk must be one that was judged at that path
 * (the same kind, a symlink with the same target), each file as large as it was counted against
 * `max-site-size`; devices, fifos and sockets are removed (they are no part of a site). Names are
 * read as bytes (see site-paths).
 */
import { lstatSync } from 'node:fs'
import { readlink, rm } from 'node:fs/promises'
import { decodeSitePath, walkTree } from '../common/site-paths.js'
import { formatBytes } from '../common/units.js'
import type { JudgedNode } from './entry-safety.js'
import { UnsafeEntryError } from './errors.js'

/**
 * The site's files and symlinks, as site paths: what the site check reads. `judgedAt` says what
 * was judged at a path: a file written larger or smaller than counted (a sparse member whose map
 * leads past the size it lists) would pass `max-site-size` unseen, and anything not judged at all
 * would pass every rule.
 */
export async function checkStagedTree(
  root: string,
  judgedAt: (path: string) => JudgedNode | undefined,
  signal?: AbortSignal
): Promise<string[]> {
  const files: string[] = []
  await walkTree(
    root,
    async ({ path, onDisk, entry }) => {
      const judged = judgedAt(path)
      if (entry.isDirectory()) {
        if (judged?.kind !== 'dir') throw notJudged(path, 'a folder')
      } else if (entry.isFile()) {
        checkWrittenSize(path, lstatSync(onDisk).size, judged?.kind === 'file' ? judged.size : undefined)
        files.push(path)
      } else if (entry.isSymbolicLink()) {
        const target = decodeSitePath(await readlink(onDisk, 'buffer'))
        if (judged?.kind !== 'symlink' || judged.target !== target) throw notJudged(path, 'a symlink')
        files.push(path)
      } else await rm(onDisk, { force: true })
    },
    signal
  )
  return files
}

function notJudged(path: string, what: string): UnsafeEntryError {
  return new UnsafeEntryError(path, `was written as ${what}, which is not what the archive's entries said is there`)
}

function checkWrittenSize(path: string, written: number, counted: number | undefined): void {
  if (written === counted) return
  const listed = counted === undefined ? 'no file there' : formatBytes(counted)
  throw new UnsafeEntryError(
    path,
    `was written with ${formatBytes(written)} where the archive lists ${listed} (a sparse member, whose map ` +
      'may write past the size it lists)'
  )
}
