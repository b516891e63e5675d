/**
 * A folder as the differential suite compares it: every path below it, named by its raw bytes,
 * with what is there. A file by its size, sha256 and owner-executable bit; a symlink by its
 * target; a folder as such; fifos and devices by their kind. Not compared: times, owners and the
 * other mode bits (the action applies the umask, keeps files owner-readable and -writable, drops
 * setuid, setgid and sticky). One record, so that one `toEqual` names every difference.
 */
import { createHash } from 'node:crypto'
import type { Dirent, Stats } from 'node:fs'
import { lstat, readFile, readdir, readlink } from 'node:fs/promises'

export type Tree = Record<string, string>

export const FOLDER = 'folder'
const SPECIAL_KINDS = ['fifo', 'character device', 'block device', 'socket']

const utf8 = new TextDecoder('utf-8', { fatal: true })

/** Bytes as text when they are UTF-8; otherwise each byte past ASCII as `\xNN` (latin-1 names stay apart). */
export function shownName(bytes: Buffer): string {
  try {
    return utf8.decode(bytes)
  } catch {
    return [...bytes].map((byte) => (byte < 0x80 ? String.fromCharCode(byte) : `\\x${byte.toString(16)}`)).join('')
  }
}

/** Everything below `root` ({} when it does not exist). */
export async function treeOf(root: string): Promise<Tree> {
  const tree: Tree = {}
  await walk(Buffer.from(root), Buffer.alloc(0), tree)
  return tree
}

async function walk(root: Buffer, relative: Buffer, tree: Tree): Promise<void> {
  const folder = relative.length === 0 ? root : Buffer.concat([root, Buffer.from('/'), relative])
  const names = (await readdir(folder, { encoding: 'buffer' }).catch(() => [] as Buffer[])) as Buffer[]
  for (const name of names.sort(Buffer.compare)) {
    const path = relative.length === 0 ? name : Buffer.concat([relative, Buffer.from('/'), name])
    const at = Buffer.concat([folder, Buffer.from('/'), name])
    const stats = await lstat(at)
    tree[shownName(path)] = await describe(at, stats)
    if (stats.isDirectory()) await walk(root, path, tree)
  }
}

async function describe(at: Buffer, stats: Stats): Promise<string> {
  if (stats.isDirectory()) return FOLDER
  if (stats.isSymbolicLink()) return `symlink -> ${shownName((await readlink(at, { encoding: 'buffer' })) as Buffer)}`
  if (stats.isFile()) {
    const sha256 = createHash('sha256')
      .update(await readFile(at))
      .digest('hex')
    const executable = (stats.mode & 0o100) !== 0 ? ', owner-executable' : ''
    return `file, ${stats.size} bytes, sha256 ${sha256.slice(0, 16)}${executable}`
  }
  return kindOf(stats)
}

function kindOf(stats: Stats | Dirent): string {
  if (stats.isFIFO()) return 'fifo'
  if (stats.isCharacterDevice()) return 'character device'
  if (stats.isBlockDevice()) return 'block device'
  return 'socket'
}

/** The tree without its fifos and devices, which the action skips (with a warning). */
export function withoutSpecials(tree: Tree): Tree {
  return Object.fromEntries(Object.entries(tree).filter(([, what]) => !SPECIAL_KINDS.includes(what)))
}

/** The paths of the tree's fifos and devices. */
export function specialsOf(tree: Tree): string[] {
  return Object.entries(tree)
    .filter(([, what]) => SPECIAL_KINDS.includes(what))
    .map(([name]) => name)
}
