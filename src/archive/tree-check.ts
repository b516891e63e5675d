/**
 * The check of what was written, before the staged site is swapped in: whatever unpacked it, the
 * tree is walked as it is on disk and judged by the same rules as the archive's entries were (no
 * link leading out, no two names that are one on macOS or Windows, no `.git`), and devices, fifos
 * and sockets are removed (they are no part of a site). Names are read as bytes: a name that is
 * not UTF-8 stays itself.
 */
import type { Dirent } from 'node:fs'
import { readdir, readlink, rm } from 'node:fs/promises'
import { fileNameText } from '../common/file-names.js'
import { EntryIndex } from './entry-safety.js'

export interface StagedTree {
  /** The site's files and symlinks as site paths (`/`-separated; see fileNameText). */
  files: string[]
  /** The same files as paths on disk, below the staged folder, where the text would not find them. */
  rawPaths: Map<string, Buffer>
}

const SLASH = Buffer.from('/')

export async function checkStagedTree(root: string, signal?: AbortSignal): Promise<StagedTree> {
  const index = new EntryIndex()
  const files: string[] = []
  const rawPaths = new Map<string, Buffer>()
  const rootBytes = Buffer.from(root)
  // Folders to read: their path below the root as bytes, and as text.
  const folders: Array<{ bytes: Buffer; text: string }> = [{ bytes: Buffer.alloc(0), text: '' }]
  for (let folder = folders.pop(); folder !== undefined; folder = folders.pop()) {
    signal?.throwIfAborted()
    const onDisk = folder.bytes.length === 0 ? rootBytes : Buffer.concat([rootBytes, SLASH, folder.bytes])
    const entries = (await readdir(onDisk, { withFileTypes: true, encoding: 'buffer' })) as unknown as Dirent<Buffer>[]
    for (const entry of entries) {
      const bytes = folder.bytes.length === 0 ? entry.name : Buffer.concat([folder.bytes, SLASH, entry.name])
      const text = folder.text === '' ? fileNameText(entry.name) : `${folder.text}/${fileNameText(entry.name)}`
      if (entry.isDirectory()) {
        index.addDirectory(text)
        folders.push({ bytes, text })
      } else if (entry.isFile() || entry.isSymbolicLink()) {
        if (entry.isFile()) index.addFile(text)
        else index.addSymlink(text, fileNameText(await readlink(Buffer.concat([rootBytes, SLASH, bytes]), 'buffer')))
        files.push(text)
        // Only a name that is not UTF-8 reads longer as text (each such byte is `%XX`).
        if (Buffer.byteLength(text) !== bytes.length) rawPaths.set(text, bytes)
      } else {
        await rm(Buffer.concat([rootBytes, SLASH, bytes]), { force: true })
      }
    }
  }
  index.checkSymlinks()
  return { files, rawPaths }
}
