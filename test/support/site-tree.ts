/**
 * What a test packed beside what an unpack wrote: both as one record from entry name to what is
 * there (a file's text, or FOLDER), so one `toEqual` compares them and names every difference.
 */
import { readFile, stat } from 'node:fs/promises'
import * as path from 'node:path'
import type { ArchiveEntry } from '../../simulator/archives.js'

export const FOLDER = '<folder>'
const MISSING = '<missing>'

/** The files and folders of `entries` (links are left to the tests about links). */
export function packedTree(entries: readonly ArchiveEntry[]): Record<string, string> {
  const tree: Record<string, string> = {}
  for (const entry of entries) {
    if (entry.type === 'file') tree[entry.name] = entry.content.toString()
    else if (entry.type === 'directory') tree[entry.name] = FOLDER
  }
  return tree
}

/** The same names as found under `dir`. */
export async function writtenTree(dir: string, entries: readonly ArchiveEntry[]): Promise<Record<string, string>> {
  const tree: Record<string, string> = {}
  for (const name of Object.keys(packedTree(entries))) {
    const at = path.join(dir, name)
    const stats = await stat(at).catch(() => undefined)
    tree[name] = stats === undefined ? MISSING : stats.isDirectory() ? FOLDER : await readFile(at, 'utf8')
  }
  return tree
}
