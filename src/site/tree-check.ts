/**
 * The check of what was written, before the staged site is swapped in: whatever unpacked it, the
 * tree is walked as it is on disk and judged by the same rules as the archive's entries were (no
 * link leading out, no two names that are one on macOS or Windows, no `.git`), every file must be
 * as large as it was counted against `max-site-size`, and devices, fifos and sockets are removed
 * (they are no part of a site). Names are read as bytes (see site-paths).
 */
import { lstatSync } from 'node:fs'
import { readlink, rm } from 'node:fs/promises'
import { decodeSitePath, walkTree } from '../common/site-paths.js'
import { formatBytes } from '../common/units.js'
import { EntryIndex } from './entry-safety.js'
import { UnsafeEntryError } from './errors.js'

/**
 * The site's files and symlinks, as site paths: what the site check reads. `countedSize` says
 * what each file was counted as: a file written larger or smaller (a sparse member whose map
 * leads past the size it lists) would pass `max-site-size` unseen.
 */
export async function checkStagedTree(
  root: string,
  countedSize: (path: string) => number | undefined,
  signal?: AbortSignal
): Promise<string[]> {
  const index = new EntryIndex()
  const files: string[] = []
  await walkTree(
    root,
    async ({ path, onDisk, entry }) => {
      if (entry.isDirectory()) index.addDirectory(path)
      else if (entry.isFile()) index.addFile(checkWrittenSize(path, lstatSync(onDisk).size, countedSize(path)))
      else if (entry.isSymbolicLink()) index.addSymlink(path, decodeSitePath(await readlink(onDisk, 'buffer')))
      else return void (await rm(onDisk, { force: true }))
      if (!entry.isDirectory()) files.push(path)
    },
    signal
  )
  index.checkSymlinks()
  return files
}

function checkWrittenSize(path: string, written: number, counted: number | undefined): string {
  if (written === counted) return path
  const listed = counted === undefined ? 'no file there' : formatBytes(counted)
  throw new UnsafeEntryError(
    path,
    `was written with ${formatBytes(written)} where the archive lists ${listed} (a sparse member, whose map ` +
      'may write past the size it lists)'
  )
}
