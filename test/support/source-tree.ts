/**
 * The trees the differential suite packs: entries in archive order, written to a folder for the
 * archivers that read one (GNU tar, bsdtar, zip) or handed as they are to Python's writers. A name
 * is text (UTF-8) or raw bytes (a latin-1 tar name is not UTF-8, and must stay those bytes).
 */
import { link, mkdir, symlink, writeFile } from 'node:fs/promises'
import * as path from 'node:path'
import { mustRun } from './archive-tools.js'

export type EntryName = string | Buffer

export type TreeEntry =
  | { type: 'file'; name: EntryName; content: Buffer | string; mode?: number }
  | { type: 'dir'; name: EntryName; mode?: number }
  | { type: 'symlink'; name: EntryName; target: EntryName }
  /** `target` is another entry's name, as tar names it: from the archive's root. */
  | { type: 'hardlink'; name: EntryName; target: EntryName }
  | { type: 'fifo'; name: EntryName }

/** A name as bytes, the way the file system and the archive hold it. */
export function nameBytes(name: EntryName): Buffer {
  return typeof name === 'string' ? Buffer.from(name) : name
}

/** `name` below `root`, as bytes: a name that is not UTF-8 cannot go through a JS string. */
function below(root: string, name: EntryName): Buffer {
  return Buffer.concat([Buffer.from(`${root}/`), nameBytes(name)])
}

function parentOf(file: Buffer): Buffer {
  return file.subarray(0, file.lastIndexOf('/'))
}

/** Creates the entries below `root` (folders their names imply too). */
export async function writeTree(root: string, entries: readonly TreeEntry[]): Promise<void> {
  for (const entry of entries) {
    const at = below(root, entry.name)
    await mkdir(parentOf(at), { recursive: true })
    if (entry.type === 'dir') await mkdir(at, { recursive: true, mode: entry.mode ?? 0o755 })
    else if (entry.type === 'file') await writeFile(at, entry.content, { mode: entry.mode ?? 0o644 })
    else if (entry.type === 'symlink') await symlink(nameBytes(entry.target), at)
    else if (entry.type === 'hardlink') await link(below(root, entry.target), at)
    // Node has no mkfifo: the command's, with the name as UTF-8 (a fifo's name in these trees is).
    else await mustRun('mkfifo', [at.toString()])
  }
}

/** The top-level names of a tree, in order of first appearance (what an archiver is asked to pack). */
export function topLevelNames(entries: readonly TreeEntry[]): Buffer[] {
  const seen = new Map<string, Buffer>()
  for (const entry of entries) {
    const name = nameBytes(entry.name)
    const slash = name.indexOf('/')
    const top = slash < 0 ? name : name.subarray(0, slash)
    seen.set(top.toString('hex'), top)
  }
  return [...seen.values()]
}

/** A folder name of 99 bytes: below it, the 100th byte of every entry's name is `/`. */
export const NAME_FIELD_FOLDER = 'd'.repeat(99)

/** 1.5 KiB of zeros, then text: a tar reader that takes a zero block for the end stops in it. */
export const ZEROS_THEN_TEXT = Buffer.concat([Buffer.alloc(1536), Buffer.from('text after the zeros\n')])

/** A small tar made by GNU tar, to be the content of a file: its entries are no entries of the bundle. */
export async function innerTar(scratch: string): Promise<Buffer> {
  const root = path.join(scratch, 'inner-tar-source')
  await writeTree(root, [
    { type: 'file', name: 'inner-page.html', content: '<p>inside the inner tar</p>\n' },
    { type: 'file', name: 'inner-folder/other.html', content: '<p>also inside</p>\n' }
  ])
  return mustRun('tar', ['--format=gnu', '--sort=name', '-cf', '-', '-C', root, '.'])
}

/**
 * A small site with what sites and archivers meet: UTF-8 names, an empty file, a file that starts
 * with zero blocks, a file that is a tar, an executable, an empty folder, a deep path, a symlink
 * to a file and one to a folder, a hard link. Every name fits tar's 100-byte name field (v7 has no
 * other).
 */
export function siteTree(inner: Buffer): TreeEntry[] {
  return [
    { type: 'file', name: 'index.html', content: '<a href="guides/intro.html">Intro</a>\n' },
    { type: 'file', name: 'guides/intro.html', content: '<h1>Intro</h1>\n' },
    { type: 'file', name: 'guides/café.html', content: '<h1>Café</h1>\n' },
    { type: 'file', name: '日本語/ページ.html', content: '<h1>ページ</h1>\n' },
    { type: 'file', name: 'empty.html', content: '' },
    { type: 'file', name: 'assets/zeros.bin', content: ZEROS_THEN_TEXT },
    { type: 'file', name: 'assets/inner.tar', content: inner },
    { type: 'file', name: 'assets/run.sh', content: '#!/bin/sh\necho hi\n', mode: 0o755 },
    { type: 'dir', name: 'assets/empty' },
    { type: 'file', name: 'a/b/c/d/e/f/g/h/i/j/k/l/m/n/o/p/deep.html', content: '<p>deep</p>\n' },
    { type: 'symlink', name: 'guides/latest.html', target: 'intro.html' },
    { type: 'symlink', name: 'docs', target: 'guides' },
    { type: 'hardlink', name: 'guides/copy.html', target: 'guides/intro.html' },
    { type: 'file', name: 'zz-last.html', content: '<p>the last entry</p>\n' }
  ]
}

/** Entries whose 100th name byte is `/` (NAME_FIELD_FOLDER), then one more that must not go missing. */
export function longNameTree(inner: Buffer): TreeEntry[] {
  const folder = NAME_FIELD_FOLDER
  return [
    { type: 'dir', name: folder },
    { type: 'file', name: `${folder}/empty.html`, content: '' },
    { type: 'file', name: `${folder}/inner.tar`, content: inner },
    { type: 'file', name: `${folder}/page.html`, content: '<p>a page</p>\n' },
    { type: 'file', name: `${folder}/zeros.bin`, content: ZEROS_THEN_TEXT },
    { type: 'file', name: 'zz-after.html', content: '<p>after the long names</p>\n' }
  ]
}

/** One file at a path of 40 folders (~370 bytes: past ustar's 256), and a later entry. */
export function deepTree(): TreeEntry[] {
  const folders = Array.from({ length: 40 }, (_, i) => `level-${String(i).padStart(2, '0')}`).join('/')
  return [
    { type: 'file', name: `${folders}/page.html`, content: '<p>deep down</p>\n' },
    { type: 'file', name: 'zz-after.html', content: '<p>after the deep tree</p>\n' }
  ]
}
