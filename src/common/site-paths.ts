/**
 * Site paths, and the names on disk they stand for. A site path is a file's path from the site's
 * root, `/`-separated, as a string (`guides/start.html`).
 *
 * A name that is not UTF-8 (`caf\xe9.html` from a Latin-1 tar) keeps its bytes: each byte that is
 * no part of valid UTF-8 is carried as the lone surrogate U+DC80 + (byte - 0x80), as Python's
 * `surrogateescape` does. No valid UTF-8 decodes to those, so two such names stay two, and a file
 * is opened by its own bytes again (fileSystemPath).
 */
import { type Dirent, readdirSync } from 'node:fs'
import { sep } from 'node:path'

const ESCAPE_BASE = 0xdc00

/** A name (or a path of names) as a site path: UTF-8, with the bytes that are not carried as escapes. */
export function decodeSitePath(name: Buffer): string {
  const text = name.toString('utf8')
  // Invalid UTF-8 decodes to U+FFFD; a name without one needs nothing more.
  if (!text.includes('\ufffd')) return text
  let path = ''
  let run = 0
  for (let at = 0; at < name.length;) {
    const length = utf8SequenceLength(name, at)
    if (length !== 0) {
      at += length
      continue
    }
    path += name.toString('utf8', run, at) + String.fromCharCode(ESCAPE_BASE + (name[at] as number))
    run = ++at
  }
  return path + name.toString('utf8', run)
}

/** The bytes of the name a site path stands for: the inverse of decodeSitePath(). */
export function encodeSitePath(path: string): Buffer {
  if (!hasEscapes(path)) return Buffer.from(path, 'utf8')
  const parts: Buffer[] = []
  let run = 0
  for (let at = 0; at < path.length; at++) {
    const unit = path.charCodeAt(at)
    if (isHighSurrogate(unit) && isLowSurrogate(path.charCodeAt(at + 1))) at++
    else if (isEscape(unit)) {
      parts.push(Buffer.from(path.slice(run, at), 'utf8'), Buffer.of(unit - ESCAPE_BASE))
      run = at + 1
    }
  }
  parts.push(Buffer.from(path.slice(run), 'utf8'))
  return Buffer.concat(parts)
}

/** The path to open for a site path of the site in `root`: a string, or its bytes when the name is not UTF-8. */
export function fileSystemPath(root: string, path: string): string | Buffer {
  // A site path needs no normalising (path.join's cost, once a page, showed in a site check's profile).
  return hasEscapes(path) ? Buffer.concat([Buffer.from(root + sep), encodeSitePath(path)]) : `${root}${sep}${path}`
}

/** One entry of a tree: its site path, its path on disk (bytes: the name need not be UTF-8), and what it is. */
export interface TreeEntry {
  path: string
  onDisk: Buffer
  entry: Dirent<Buffer>
}

/** Visits every entry below `root`, each folder before what it holds; links are not followed. */
export async function walkTree(
  root: string,
  visit: (entry: TreeEntry) => void | Promise<void>,
  signal?: AbortSignal
): Promise<void> {
  // Folders are read by their bytes, so that a name that is not UTF-8 is found as it is.
  const folders: Array<{ onDisk: Buffer; path: string }> = [{ onDisk: Buffer.from(root), path: '' }]
  for (let folder = folders.pop(); folder !== undefined; folder = folders.pop()) {
    signal?.throwIfAborted()
    for (const entry of readdirSync(folder.onDisk, { withFileTypes: true, encoding: 'buffer' })) {
      const path = folder.path + decodeSitePath(entry.name)
      const onDisk = Buffer.concat([folder.onDisk, SEPARATOR, entry.name])
      await visit({ path, onDisk, entry })
      if (entry.isDirectory()) folders.push({ onDisk, path: `${path}/` })
    }
  }
}

/** Every regular file and symbolic link of the site in `root`, as site paths. */
export async function listSite(root: string, signal?: AbortSignal): Promise<string[]> {
  const files: string[] = []
  await walkTree(
    root,
    ({ path, entry }) => void ((entry.isFile() || entry.isSymbolicLink()) && files.push(path)),
    signal
  )
  return files
}

const SEPARATOR = Buffer.from(sep)

function hasEscapes(path: string): boolean {
  for (let at = 0; at < path.length; at++) {
    const unit = path.charCodeAt(at)
    if (isHighSurrogate(unit) && isLowSurrogate(path.charCodeAt(at + 1))) at++
    else if (isEscape(unit)) return true
  }
  return false
}

const isHighSurrogate = (unit: number): boolean => unit >= 0xd800 && unit <= 0xdbff
const isLowSurrogate = (unit: number): boolean => unit >= 0xdc00 && unit <= 0xdfff
/** What an escaped byte (0x80 to 0xff: bytes below are always valid UTF-8) becomes. */
const isEscape = (unit: number): boolean => unit >= ESCAPE_BASE + 0x80 && unit <= ESCAPE_BASE + 0xff

/** The length of the valid UTF-8 sequence at `at` (1 to 4), or 0 when the byte there starts none. */
function utf8SequenceLength(bytes: Buffer, at: number): number {
  const first = bytes[at] as number
  if (first < 0x80) return 1
  // The range of the second byte, which rules out overlong forms, surrogates and code points past U+10FFFF.
  let length: number
  let low = 0x80
  let high = 0xbf
  if (first >= 0xc2 && first <= 0xdf) length = 2
  else if (first >= 0xe0 && first <= 0xef) {
    length = 3
    if (first === 0xe0) low = 0xa0
    else if (first === 0xed) high = 0x9f
  } else if (first >= 0xf0 && first <= 0xf4) {
    length = 4
    if (first === 0xf0) low = 0x90
    else if (first === 0xf4) high = 0x8f
  } else return 0
  if (at + length > bytes.length) return 0
  const second = bytes[at + 1] as number
  if (second < low || second > high) return 0
  for (let next = at + 2; next < at + length; next++) if (((bytes[next] as number) & 0xc0) !== 0x80) return 0
  return length
}
