/**
 * Pure checks on archive entries: which names and links may be extracted, and where. No I/O, so
 * every hostile case is unit-tested without touching a disk.
 *
 * Paths here are "entry paths": relative, `/`-separated, without `.` or empty segments; '' is the
 * site root.
 */
import { UnsafeEntryError } from './errors.js'

/** Both separators count: a Windows runner would read `a\..\b` as a traversal. */
const SEPARATORS = /[\\/]/
/** `/x`, `\x`, and drive-letter paths `C:x`, `C:\x`. */
const ABSOLUTE = /^(?:[\\/]|[A-Za-z]:)/
/** Symlinks resolved through other symlinks at most this many times (Linux's SYMLOOP_MAX is 40). */
const MAX_LINK_HOPS = 40

/**
 * The entry's path inside the root, or an UnsafeEntryError for an absolute name, a `..` segment
 * or a NUL byte. `./a//b/` becomes `a/b`; `./` becomes '' (the root itself).
 */
export function entryPath(name: string): string {
  checkText(name, name, 'name')
  if (ABSOLUTE.test(name)) throw new UnsafeEntryError(name, 'has an absolute path')
  const segments: string[] = []
  for (const segment of name.split(SEPARATORS)) {
    if (segment === '' || segment === '.') continue
    if (segment === '..') throw new UnsafeEntryError(name, 'has a ".." path segment')
    segments.push(segment)
  }
  return segments.join('/')
}

/** Permission bits to create a file with: setuid, setgid and sticky dropped, the rest (x too) kept. */
export function fileMode(mode: number | undefined): number {
  return (mode ?? 0o644) & 0o777
}

function checkText(entryName: string, text: string, what: string): void {
  if (text.includes('\0')) throw new UnsafeEntryError(entryName, `has a NUL byte in its ${what}`)
}

function parentOf(path: string): string {
  const slash = path.lastIndexOf('/')
  return slash < 0 ? '' : path.slice(0, slash)
}

type Node = { kind: 'dir' } | { kind: 'file' } | { kind: 'symlink'; target: string; entryName: string }

const DIR: Node = { kind: 'dir' }
const FILE: Node = { kind: 'file' }

export interface PlannedSymlink {
  path: string
  target: string
}

/**
 * What the archive has put where so far, in archive order. Each `add*` checks one entry against
 * the entries before it and returns the entry path to write; `symlinksToCreate()` checks every
 * symlink against the final tree. The writer creates symlinks only after that, so nothing is ever
 * written through a link.
 *
 * Rules: no entry under a symlink; a hardlink only to a regular file seen earlier; a file and a
 * directory may not share a path; otherwise the later entry at a path wins.
 */
export class EntryIndex {
  private readonly nodes = new Map<string, Node>([['', DIR]])
  /** Symlinks still standing (a later file at the same path replaces one). */
  private readonly symlinks = new Map<string, string>()

  /** Returns the directory's path, '' for the root. */
  addDirectory(name: string): string {
    const path = entryPath(name)
    const existing = this.nodes.get(path)
    if (existing?.kind === 'dir') return path
    this.claimParents(path, name)
    if (existing?.kind === 'file') throw new UnsafeEntryError(name, 'is a directory where an earlier entry is a file')
    // An earlier symlink here is replaced: it exists only in this index until the very end.
    this.symlinks.delete(path)
    this.nodes.set(path, DIR)
    return path
  }

  addFile(name: string): string {
    const path = this.claimLeaf(name)
    this.nodes.set(path, FILE)
    return path
  }

  /** `target` is another entry's name (tar hardlinks name their target from the archive root). */
  addHardlink(name: string, target: string): { path: string; targetPath: string } {
    checkText(name, target, 'link target')
    if (ABSOLUTE.test(target)) throw new UnsafeEntryError(name, `is a hardlink to the absolute path ${JSON.stringify(target)}`)
    let targetPath: string
    try {
      targetPath = entryPath(target)
    } catch {
      throw new UnsafeEntryError(name, `is a hardlink to ${JSON.stringify(target)}, outside the site folder`)
    }
    if (this.nodes.get(targetPath)?.kind !== 'file') {
      throw new UnsafeEntryError(name, `is a hardlink to ${JSON.stringify(target)}, which is not a regular file extracted before it`)
    }
    const path = this.claimLeaf(name)
    if (path === targetPath) throw new UnsafeEntryError(name, 'is a hardlink to itself')
    this.nodes.set(path, FILE)
    return { path, targetPath }
  }

  addSymlink(name: string, target: string): string {
    checkText(name, target, 'link target')
    if (target === '') throw new UnsafeEntryError(name, 'is a symlink with an empty target')
    if (ABSOLUTE.test(target)) throw new UnsafeEntryError(name, `is a symlink to the absolute path ${JSON.stringify(target)}`)
    const path = this.claimLeaf(name)
    // Fail fast on the plain case; chains through other links are checked once all are known.
    if (resolveLexically(parentOf(path), target) === undefined) {
      throw new UnsafeEntryError(name, `is a symlink to ${JSON.stringify(target)}, outside the site folder`)
    }
    this.nodes.set(path, { kind: 'symlink', target, entryName: name })
    this.symlinks.set(path, target)
    return path
  }

  /**
   * The symlinks to create, after checking that each one, resolved through all the archive's
   * symlinks as the OS would, stays inside the root.
   */
  symlinksToCreate(): PlannedSymlink[] {
    const planned: PlannedSymlink[] = []
    for (const [path, target] of this.symlinks) {
      const node = this.nodes.get(path)
      const entryName = node?.kind === 'symlink' ? node.entryName : path
      const verdict = walk(parentOf(path), target, (at) => {
        const node = this.nodes.get(at)
        return node?.kind === 'symlink' ? node.target : undefined
      })
      if (verdict === 'loop') throw new UnsafeEntryError(entryName, `is a symlink to ${JSON.stringify(target)} that loops through other symlinks`)
      if (verdict === undefined) {
        throw new UnsafeEntryError(entryName, `is a symlink to ${JSON.stringify(target)}, which leads outside the site folder through the archive's symlinks`)
      }
      planned.push({ path, target })
    }
    return planned
  }

  /** Checks a file, hardlink or symlink entry's path; an earlier file or symlink there is replaced. */
  private claimLeaf(name: string): string {
    const path = entryPath(name)
    if (path === '') throw new UnsafeEntryError(name, 'has an empty path')
    this.claimParents(path, name)
    const existing = this.nodes.get(path)
    if (existing?.kind === 'dir') throw new UnsafeEntryError(name, 'would replace a directory')
    this.symlinks.delete(path)
    return path
  }

  /** Every ancestor becomes a directory; none may be a symlink (that would write through it) or a file. */
  private claimParents(path: string, name: string): void {
    const newDirectories: string[] = []
    // Ancestors of a known directory are known directories: the common case costs one lookup.
    for (let parent = parentOf(path); ; parent = parentOf(parent)) {
      const node = this.nodes.get(parent)
      if (node?.kind === 'dir') break
      if (node?.kind === 'symlink') throw new UnsafeEntryError(name, `would be written through the symlink ${JSON.stringify(node.entryName)}`)
      if (node?.kind === 'file') throw new UnsafeEntryError(name, `is inside ${JSON.stringify(parent)}, which an earlier entry made a file`)
      newDirectories.push(parent)
    }
    for (const directory of newDirectories) this.nodes.set(directory, DIR)
  }
}

/** `target` from directory `from` without following links; undefined when it climbs above the root. */
export function resolveLexically(from: string, target: string): string | undefined {
  return walk(from, target, () => undefined) as string | undefined
}

/**
 * Walks `target` from directory `from` like path resolution does: where `linkAt` names a symlink's
 * target for the path reached, the walk goes where that symlink leads before the next segment (so
 * a `..` after it climbs from there). Undefined when the walk leaves the root at any step; 'loop'
 * after too many links.
 */
function walk(from: string, target: string, linkAt: (path: string) => string | undefined, budget = { hops: MAX_LINK_HOPS }): string | undefined | 'loop' {
  const segments = from === '' ? [] : from.split('/')
  for (const segment of target.split(SEPARATORS)) {
    if (segment === '' || segment === '.') continue
    if (segment === '..') {
      if (segments.length === 0) return undefined
      segments.pop()
      continue
    }
    segments.push(segment)
    const link = linkAt(segments.join('/'))
    if (link === undefined) continue
    if (--budget.hops < 0) return 'loop'
    segments.pop()
    const resolved = walk(segments.join('/'), link, linkAt, budget)
    if (resolved === undefined || resolved === 'loop') return resolved
    segments.length = 0
    if (resolved !== '') segments.push(...resolved.split('/'))
  }
  return segments.join('/')
}
