/**
 * Pure checks on archive entries: which names and links may be extracted, and where. No I/O, so
 * every hostile case is unit-tested without touching a disk.
 *
 * Paths here are "entry paths": relative, `/`-separated, without `.` or empty segments; '' is the
 * site root.
 */
import { foldPath, isGitFolderName } from '../common/file-names.js'
import { SiteLimitError, UnsafeEntryError } from './errors.js'

/** Both separators count: a Windows runner would read `a\..\b` as a traversal. */
const SEPARATORS = /[\\/]/
/** `/x`, `\x`, and drive-letter paths `C:x`, `C:\x`. */
const ABSOLUTE = /^(?:[\\/]|[A-Za-z]:)/
/** Symlinks resolved through other symlinks at most this many times (Linux's SYMLOOP_MAX is 40). */
const MAX_LINK_HOPS = 40
/** Characters of paths looked up while resolving all symlinks: a site's take thousands; more is built to stall. */
const MAX_SYMLINK_WORK = 20_000_000
/** NAME_MAX of Linux, macOS and Windows file systems: longer names cannot be created anywhere. */
const MAX_SEGMENT_BYTES = 255
/** PATH_MAX of Linux: a longer entry path cannot be created below any folder. */
const MAX_PATH_BYTES = 4096
/** A symlink's target is a path: no longer than PATH_MAX (a zip stores it as content). */
export const MAX_LINK_TARGET_BYTES = 4096
/**
 * What all symlink targets may add up to: each is held until the whole tree is known, and a zip
 * deflates a 4 KiB target to a few dozen bytes. A site's links name a few dozen bytes each.
 */
const MAX_LINK_TARGETS_BYTES = 16 * 1024 * 1024
/**
 * The most entries an archive may hold, and paths the index may hold: far above any real site
 * (each costs an inode and some memory in the index), far below what would exhaust either.
 */
export const MAX_SITE_ENTRIES = 1_000_000
/**
 * What the paths the index holds may add up to, in characters: each is held until the end, and
 * long paths in a small tar.gz could otherwise fill the heap within the entry bound. A site of
 * 100,000 pages holds about 8 Mi.
 */
const MAX_PATH_CHARACTERS = 64 * 1024 * 1024
/**
 * Segments Windows reads as `.` or `..` (it drops trailing dots and spaces: `.. ` is `..`), or
 * as nothing at all. `.` and `..` themselves are handled before this is asked.
 */
const DOTS_AND_SPACES = /^[. ]+$/
const NON_ASCII = /[\u0080-\uffff]/
/**
 * A name of plain segments (letters, digits, `_`, `-` and dots, none starting with a dot or over
 * NAME_MAX): no refusal applies to it but its length, so most of a generated site's names skip the
 * checks of each segment.
 */
const PLAIN_NAME = /^[\w-][\w.-]{0,254}(?:\/[\w-][\w.-]{0,254})*$/

/**
 * The entry's path inside the root, or an UnsafeEntryError for an absolute name, a `..` segment
 * (also as Windows reads one), a NUL byte, a name too long to create, or a `.git` folder (git
 * would take it for a repository's control folder, hooks and all, if a later step ran git in
 * the site). `./a//b/` becomes `a/b`; `./` becomes '' (the root itself).
 */
export function entryPath(name: string): string {
  if (name.length <= MAX_PATH_BYTES && PLAIN_NAME.test(name)) return name
  checkText(name, name, 'name')
  if (ABSOLUTE.test(name)) throw new UnsafeEntryError(name, 'has an absolute path')
  const segments: string[] = []
  for (const segment of name.split(SEPARATORS)) {
    if (segment === '' || segment === '.') continue
    if (segment === '..') throw new UnsafeEntryError(name, 'has a ".." path segment')
    if (DOTS_AND_SPACES.test(segment))
      throw new UnsafeEntryError(
        name,
        `has the path segment ${JSON.stringify(segment)}, which Windows reads as "." or ".."`
      )
    // Made only of code points HFS+ ignores (and dots): macOS reads it as no name at all, and as a
    // path it would fold to its parent's (the index would then know one file under two keys).
    if (NON_ASCII.test(segment) && foldPath(segment) === '') {
      throw new UnsafeEntryError(
        name,
        `has the path segment ${JSON.stringify(segment)}, which macOS reads as no name at all`
      )
    }
    if (isGitFolderName(segment))
      throw new UnsafeEntryError(name, 'has a ".git" path segment: a repository\'s control folder is never unpacked')
    if (Buffer.byteLength(segment) > MAX_SEGMENT_BYTES)
      throw new UnsafeEntryError(
        name,
        `has a name longer than ${MAX_SEGMENT_BYTES} bytes, more than file systems allow`
      )
    segments.push(segment)
  }
  const joined = segments.join('/')
  // The name itself when it was in this form already (it is kept for every entry).
  const path = joined === name ? name : joined
  if (Buffer.byteLength(path) > MAX_PATH_BYTES)
    throw new UnsafeEntryError(name, `has a path longer than ${MAX_PATH_BYTES} bytes, more than file systems allow`)
  return path
}

/**
 * Permission bits to create a file with: setuid, setgid and sticky dropped, the rest (x too)
 * kept, and always readable and writable by its owner (a site nobody can read or replace is no
 * site).
 */
export function fileMode(mode: number | undefined): number {
  return ((mode ?? 0o644) & 0o777) | 0o600
}

function checkText(entryName: string, text: string, what: string): void {
  if (text.includes('\0')) throw new UnsafeEntryError(entryName, `has a NUL byte in its ${what}`)
}

/** The folder of an entry path ('' for one at the root). */
export function parentOf(path: string): string {
  const slash = path.lastIndexOf('/')
  return slash < 0 ? '' : path.slice(0, slash)
}

/** What the archive has put at a path, and how the path is spelled there. */
export type JudgedNode = Node

type Node =
  | { kind: 'dir'; path: string }
  | { kind: 'file'; path: string; size: number }
  | { kind: 'symlink'; path: string; target: string; entryName: string }

/**
 * What an archive puts where, in archive order: each `add*` checks one entry against the entries
 * before it and returns its path; `checkSymlinks()` checks every symlink against the final tree.
 * It judges an unpacker's account of an archive as it goes, and the tree written, once whole.
 *
 * Rules: no entry under a symlink; a hardlink only to a regular file seen earlier; a file and a
 * folder may not share a path; the later entry at a path wins. Paths are folded (see foldPath):
 * `A` and `a`, or `é` in NFC and NFD, would be one file on macOS and Windows and two on Linux, so
 * two spellings of one folded path are refused: the site must be the same on every runner.
 */
export class EntryIndex {
  /** Folded path -> what is there. */
  private readonly nodes = new Map<string, Node>([['', { kind: 'dir', path: '' }]])
  /** Folded paths of the symlinks still standing (a later entry at the same path replaces one). */
  private readonly symlinks = new Set<string>()
  /** The bytes of every symlink target seen so far, replaced ones too (see MAX_LINK_TARGETS_BYTES). */
  private linkTargetBytes = 0
  /** Paths held (entries and the folders their paths imply) and their characters. */
  private paths = 0
  private pathCharacters = 0
  private readonly bounds: { paths: number; pathCharacters: number }

  /**
   * `paths`: the most paths the index holds, folders that entries' paths imply included;
   * `pathCharacters`: what they may add up to.
   */
  constructor(bounds: { paths?: number; pathCharacters?: number } = {}) {
    this.bounds = {
      paths: bounds.paths ?? MAX_SITE_ENTRIES,
      pathCharacters: bounds.pathCharacters ?? MAX_PATH_CHARACTERS
    }
  }

  /** Returns the folder's path, '' for the root. */
  /**
   * `replacesFile`: the reader replaces a file at the folder's path with the folder (GNU tar does,
   * as a later member wins; unzip refuses), so the later entry wins here too.
   */
  addDirectory(name: string, replacesFile = false): string {
    const path = entryPath(name)
    const key = foldPath(path)
    const existing = this.nodes.get(key)
    if (existing?.kind === 'dir') return this.sameSpelling(existing, path, name)
    this.claimParents(path, name)
    if (existing?.kind === 'file' && !replacesFile) {
      throw new UnsafeEntryError(name, 'is a directory where an earlier entry is a file')
    }
    if (existing === undefined) this.hold(1, path.length, name)
    else this.sameSpelling(existing, path, name)
    this.symlinks.delete(key)
    this.nodes.set(key, { kind: 'dir', path })
    return path
  }

  /** `size`: the bytes the file is counted as (what must be found written). */
  addFile(name: string, size = 0): string {
    const { path, key } = this.claimLeaf(name)
    this.nodes.set(key, { kind: 'file', path, size })
    return path
  }

  /** What was judged to be at `path`, spelled as it is there; undefined where nothing was. */
  judgedAt(path: string): JudgedNode | undefined {
    const node = this.nodes.get(foldPath(path))
    return node?.path === path ? node : undefined
  }

  /** `target` is another entry's name (tar hardlinks name their target from the archive root). */
  addHardlink(name: string, target: string): string {
    checkText(name, target, 'link target')
    if (ABSOLUTE.test(target))
      throw new UnsafeEntryError(name, `is a hardlink to the absolute path ${JSON.stringify(target)}`)
    let targetKey: string
    try {
      targetKey = foldPath(entryPath(target))
    } catch {
      throw new UnsafeEntryError(name, `is a hardlink to ${JSON.stringify(target)}, outside the site folder`)
    }
    const linked = this.nodes.get(targetKey)
    if (linked?.kind !== 'file') {
      throw new UnsafeEntryError(
        name,
        `is a hardlink to ${JSON.stringify(target)}, which is not a regular file extracted before it`
      )
    }
    const { path, key } = this.claimLeaf(name)
    if (key === targetKey) throw new UnsafeEntryError(name, 'is a hardlink to itself')
    // The file as it is now: a later entry at the target's path replaces it, not what is linked.
    this.nodes.set(key, { kind: 'file', path, size: linked.size })
    return path
  }

  addSymlink(name: string, target: string): string {
    checkText(name, target, 'link target')
    if (target === '') throw new UnsafeEntryError(name, 'is a symlink with an empty target')
    const targetBytes = Buffer.byteLength(target)
    if (targetBytes > MAX_LINK_TARGET_BYTES)
      throw new UnsafeEntryError(name, `is a symlink whose target is longer than ${MAX_LINK_TARGET_BYTES} bytes`)
    this.linkTargetBytes += targetBytes
    if (this.linkTargetBytes > MAX_LINK_TARGETS_BYTES) {
      throw new UnsafeEntryError(
        name,
        `is a symlink past ${MAX_LINK_TARGETS_BYTES / 1024 / 1024} MiB of symlink targets in the archive, far ` +
          `more than a site's links name`
      )
    }
    if (ABSOLUTE.test(target))
      throw new UnsafeEntryError(name, `is a symlink to the absolute path ${JSON.stringify(target)}`)
    for (const segment of target.split(SEPARATORS)) {
      if (segment !== '.' && segment !== '..' && DOTS_AND_SPACES.test(segment)) {
        throw new UnsafeEntryError(
          name,
          `is a symlink to ${JSON.stringify(target)}, which has a segment Windows reads as "." or ".."`
        )
      }
      if (Buffer.byteLength(segment) > MAX_SEGMENT_BYTES)
        throw new UnsafeEntryError(
          name,
          `is a symlink to a name longer than ${MAX_SEGMENT_BYTES} bytes, which no file system has`
        )
    }
    const { path, key } = this.claimLeaf(name)
    // Fail fast on the plain case; chains through other links are checked once all are known.
    if (resolveLexically(parentOf(path), target) === undefined) {
      throw new UnsafeEntryError(name, `is a symlink to ${JSON.stringify(target)}, outside the site folder`)
    }
    this.nodes.set(key, { kind: 'symlink', path, target, entryName: name })
    this.symlinks.add(key)
    return path
  }

  /** Checks that each symlink, resolved through all the others as the OS would, stays inside the root. */
  checkSymlinks(): void {
    const linkAt = (at: string): string | undefined => {
      const node = this.nodes.get(foldPath(at))
      return node?.kind === 'symlink' ? node.target : undefined
    }
    // One budget for the whole archive: chains of long targets, each walked again for every link
    // that leads into them, would otherwise take hours of a blocked thread for a few KiB of archive.
    const budget = { hops: MAX_LINK_HOPS, work: MAX_SYMLINK_WORK }
    for (const key of this.symlinks) {
      const node = this.nodes.get(key)
      if (node?.kind !== 'symlink') continue
      const { path, target, entryName } = node
      budget.hops = MAX_LINK_HOPS
      const verdict = walk(parentOf(path), target, linkAt, budget)
      if (verdict === 'too much') {
        throw new UnsafeEntryError(
          entryName,
          `is a symlink, and the archive's symlinks lead through each other more than a site's would (over ` +
            `${MAX_SYMLINK_WORK / 1_000_000} million characters of paths looked up)`
        )
      }
      if (verdict === 'loop')
        throw new UnsafeEntryError(
          entryName,
          `is a symlink to ${JSON.stringify(target)} that loops through other symlinks`
        )
      if (verdict === undefined) {
        throw new UnsafeEntryError(
          entryName,
          `is a symlink to ${JSON.stringify(target)}, which leads outside the site folder through the archive's ` +
            `symlinks`
        )
      }
    }
  }

  /** Checks a file, hardlink or symlink entry's path; an earlier file or symlink there is replaced. */
  private claimLeaf(name: string): { path: string; key: string } {
    const path = entryPath(name)
    if (path === '') throw new UnsafeEntryError(name, 'has an empty path')
    this.claimParents(path, name)
    const key = foldPath(path)
    const existing = this.nodes.get(key)
    if (existing?.kind === 'dir') throw new UnsafeEntryError(name, 'would replace a directory')
    if (existing === undefined) this.hold(1, path.length, name)
    else this.sameSpelling(existing, path, name)
    this.symlinks.delete(key)
    return { path, key }
  }

  /** An entry at a known folded path must spell it as the earlier one did. */
  private sameSpelling(existing: Node, path: string, name: string): string {
    if (existing.path === path) return path
    throw new UnsafeEntryError(
      name,
      `differs only in case or Unicode form from ${JSON.stringify(existing.path)}: one file on macOS and ` +
        `Windows, two on Linux`
    )
  }

  /**
   * Counts `added` new paths of `characters` in all against the index's bounds: a folder that a
   * deep path implies is no entry of the archive, but it is made on disk and held here all the same.
   */
  private hold(added: number, characters: number, name: string): void {
    const unchanged = 'Nothing was unpacked into the site folder, and the previous site was left as it was.'
    if (this.paths + added > this.bounds.paths) {
      throw new SiteLimitError(
        `The bundle makes more than ${this.bounds.paths.toLocaleString('en-US')} files and folders, the most the ` +
          `action unpacks: the entry ${JSON.stringify(name)} takes it past that (the folders its path implies ` +
          `count too). ${unchanged}`
      )
    }
    if (this.pathCharacters + characters > this.bounds.pathCharacters) {
      throw new SiteLimitError(
        `The bundle's paths add up to more than ${this.bounds.pathCharacters.toLocaleString('en-US')} ` +
          `characters, far more than a site's: the entry ${JSON.stringify(name)} takes them past that. ${unchanged}`
      )
    }
    this.paths += added
    this.pathCharacters += characters
  }

  /** Every ancestor becomes a folder; none may be a symlink (that would write through it) or a file. */
  private claimParents(path: string, name: string): void {
    let characters = 0
    let added = 0
    const newDirectories: Array<{ key: string; path: string }> = []
    // Ancestors of a known folder are known folders: the common case costs one lookup.
    for (let parent = parentOf(path); ; parent = parentOf(parent)) {
      const key = foldPath(parent)
      const node = this.nodes.get(key)
      if (node?.kind === 'dir') {
        this.sameSpelling(node, parent, name)
        break
      }
      if (node?.kind === 'symlink')
        throw new UnsafeEntryError(name, `would be written through the symlink ${JSON.stringify(node.entryName)}`)
      if (node?.kind === 'file')
        throw new UnsafeEntryError(name, `is inside ${JSON.stringify(node.path)}, which an earlier entry made a file`)
      newDirectories.push({ key, path: parent })
      characters += parent.length
      added++
    }
    if (added > 0) this.hold(added, characters, name)
    for (const directory of newDirectories) this.nodes.set(directory.key, { kind: 'dir', path: directory.path })
  }
}

/** `target` from directory `from` without following links; undefined when it climbs above the root. */
function resolveLexically(from: string, target: string): string | undefined {
  return walk(from, target, undefined, { hops: MAX_LINK_HOPS, work: Number.POSITIVE_INFINITY }) as string | undefined
}

/**
 * Walks `target` from directory `from` like path resolution does: where `linkAt` names a symlink's
 * target for the path reached, the walk goes where that symlink leads before the next segment (so
 * a `..` after it climbs from there). Undefined when the walk leaves the root at any step; 'loop'
 * after too many links; 'too much' once the characters of the paths looked up pass `budget.work`.
 */
function walk(
  from: string,
  target: string,
  linkAt: ((path: string) => string | undefined) | undefined,
  budget: { hops: number; work: number }
): string | undefined | 'loop' | 'too much' {
  // The path reached, kept as one string: joining its segments at every step would cost the
  // square of a long target's length.
  let at = from
  for (const segment of target.split(SEPARATORS)) {
    if (segment === '' || segment === '.') continue
    if (segment === '..') {
      if (at === '') return undefined
      at = parentOf(at)
      continue
    }
    at = at === '' ? segment : `${at}/${segment}`
    if (linkAt === undefined) continue
    budget.work -= at.length
    if (budget.work < 0) return 'too much'
    const link = linkAt(at)
    if (link === undefined) continue
    if (--budget.hops < 0) return 'loop'
    const resolved = walk(parentOf(at), link, linkAt, budget)
    if (resolved === undefined || resolved === 'loop' || resolved === 'too much') return resolved
    at = resolved
  }
  return at
}
