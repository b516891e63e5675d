/**
 * The check of what was written, before the staged site is swapped in: whatever unpacked it, the
 * tree is walked as it is on disk and judged by the same rules as the archive's entries were (no
 * link leading out, no two names that are one on macOS or Windows, no `.git`), and devices, fifos
 * and sockets are removed (they are no part of a site). Names are read as bytes (see site-paths).
 */
import { readlink, rm } from 'node:fs/promises'
import { decodeSitePath, walkTree } from '../common/site-paths.js'
import { EntryIndex } from './entry-safety.js'

/** The site's files and symlinks, as site paths: what the site check reads. */
export async function checkStagedTree(root: string, signal?: AbortSignal): Promise<string[]> {
  const index = new EntryIndex()
  const files: string[] = []
  await walkTree(
    root,
    async ({ path, onDisk, entry }) => {
      if (entry.isDirectory()) index.addDirectory(path)
      else if (entry.isFile()) index.addFile(path)
      else if (entry.isSymbolicLink()) index.addSymlink(path, decodeSitePath(await readlink(onDisk, 'buffer')))
      else return void (await rm(onDisk, { force: true }))
      if (!entry.isDirectory()) files.push(path)
    },
    signal
  )
  index.checkSymlinks()
  return files
}
