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
/**
 * Characters of paths looked up while resolving all of an archive's symlinks: ~0.1 s of work. A
 * site's few short links take thousands; an archive past this is built to stall the step.
 */
const MAX_SYMLINK_WORK = 20_000_000
/** NAME_MAX of Linux, macOS and Windows file systems: longer names cannot be created anywhere. */
const MAX_SEGMENT_BYTES = 255
/** PATH_MAX of Linux: a longer entry path cannot be created below any folder. */
const MAX_PATH_BYTES = 4096
/** A symlink's target is a path: no longer than PATH_MAX. Zip stores it as content, read only up to this. */
export const MAX_LINK_TARGET_BYTES = 4096
/**
 * What all of an archive's symlink targets may add up to. Each is held until the symlinks are
 * checked against the final tree (they are created last), and a zip deflates a 4 KiB target to a
 * few dozen bytes: without this bound, a 110 MiB zip of a million such links would hold 4 GiB
 * before the end. A site's links name a few dozen bytes each: this is hundreds of thousands.
 */
const MAX_LINK_TARGETS_BYTES = 16 * 1024 * 1024
/**
 * The most entries an archive may hold, and paths the index may hold: far above any real site
 * (each costs an inode and some memory in the index), far below what would exhaust either.
 */
export const MAX_SITE_ENTRIES = 1_000_000
/**
 * What the paths the index holds may add up to, in characters. Each is held here (and a folder's
 * in its writer thread) until the end: 4,000-character paths (each name under 255) took ~8 KiB
 * of heap an entry, so a tar.gz of 27 MiB could exhaust the heap within the entry bound. A site
 * of 100,000 pages holds ~8 Mi.
 */
const MAX_PATH_CHARACTERS = 64 * 1024 * 1024
/**
 * Segments Windows reads as `.` or `..` (it drops trailing dots and spaces: `.. ` is `..`), or
 * as nothing at all. `.` and `..` themselves are handled before this is asked.
 */
const DOTS_AND_SPACES = /^[. ]+$/
const NON_ASCII = /[\u0080-\uffff]/
/**
 * A name of plain segments, one `/` between them: letters, digits, `_`, `-` and dots, no segment
 * starting with a dot, none over NAME_MAX. No refusal can apply to it but the path's length, and
 * it is its own path: the entries of a generated site mostly are such, and skip the checks of
 * each segment (30,000 of them took ~45 ms of the reader's time).
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

/**
 * What the archive has put at a path, and the path it is written at: a folder as the archive
 * spelled it first, a file or symlink as the archive spelled it last (see EntryIndex).
 */
type Node =
  | { kind: 'dir'; path: string }
  | { kind: 'file'; path: string }
  | { kind: 'symlink'; path: string; target: string; entryName: string }

/**
 * Where a file or link entry is written, and the earlier file it replaces that must go first: one
 * under another spelling, or, for a symlink (created only at the very end), any.
 */
export interface Claim {
  path: string
  replaces: string | undefined
}

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
 * directory may not share a path; otherwise the later entry at a path wins. "A path" is a folded
 * one (see foldPath): `A` and `a` are one path, as a case-insensitive file system sees them.
 *
 * Twins are written as such a file system (macOS, Windows) leaves them, so that the site is the
 * same on every runner: a folder keeps the spelling it was first given, and everything below it
 * is written under that spelling (`Guides/a.html` then `guides/b.html` is one folder `Guides`);
 * a file takes the spelling of the entry that wrote it last (`Index.html` then `index.html`
 * leaves `index.html` alone), the earlier spelling being removed first (Claim.replaces).
 */
export class EntryIndex {
  /** Folded path -> what is there. */
  private readonly nodes = new Map<string, Node>([['', { kind: 'dir', path: '' }]])
  /** Folded paths of the symlinks still standing (a later file at the same path replaces one). */
  private readonly symlinks = new Set<string>()
  /** The bytes of every symlink target seen so far, replaced ones too (see MAX_LINK_TARGETS_BYTES). */
  private linkTargetBytes = 0
  /** Paths held (entries and the folders their paths imply) and their characters. */
  private paths = 0
  private pathCharacters = 0

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

  private readonly bounds: { paths: number; pathCharacters: number }

  /** Returns the directory's path (as first spelled), '' for the root. */
  addDirectory(name: string): string {
    const spelled = entryPath(name)
    const key = foldPath(spelled)
    const existing = this.nodes.get(key)
    if (existing?.kind === 'dir') return existing.path
    const path = this.claimParents(spelled, name)
    if (existing?.kind === 'file') throw new UnsafeEntryError(name, 'is a directory where an earlier entry is a file')
    if (existing === undefined) this.hold(1, path.length, name)
    // An earlier symlink here is replaced: it exists only in this index until the very end.
    this.symlinks.delete(key)
    this.nodes.set(key, { kind: 'dir', path })
    return path
  }

  addFile(name: string): Claim {
    const claim = this.claimLeaf(name)
    this.nodes.set(claim.key, { kind: 'file', path: claim.path })
    return { path: claim.path, replaces: claim.replaces }
  }

  /** The path a file entry written earlier is at (its mode may come after its content). */
  fileAt(name: string): string | undefined {
    const node = this.nodes.get(foldPath(entryPath(name)))
    return node?.kind === 'file' ? node.path : undefined
  }

  /**
   * `target` is another entry's name (tar hardlinks name their target from the archive root);
   * `targetPath` is that entry's path as the archive spelled it.
   */
  addHardlink(name: string, target: string): Claim & { targetPath: string } {
    checkText(name, target, 'link target')
    if (ABSOLUTE.test(target))
      throw new UnsafeEntryError(name, `is a hardlink to the absolute path ${JSON.stringify(target)}`)
    let targetKey: string
    try {
      targetKey = foldPath(entryPath(target))
    } catch {
      throw new UnsafeEntryError(name, `is a hardlink to ${JSON.stringify(target)}, outside the site folder`)
    }
    const targetNode = this.nodes.get(targetKey)
    if (targetNode?.kind !== 'file') {
      throw new UnsafeEntryError(
        name,
        `is a hardlink to ${JSON.stringify(target)}, which is not a regular file extracted before it`
      )
    }
    const claim = this.claimLeaf(name)
    if (claim.key === targetKey) throw new UnsafeEntryError(name, 'is a hardlink to itself')
    this.nodes.set(claim.key, { kind: 'file', path: claim.path })
    return { path: claim.path, replaces: claim.replaces, targetPath: targetNode.path }
  }

  addSymlink(name: string, target: string): Claim {
    checkText(name, target, 'link target')
    if (target === '') throw new UnsafeEntryError(name, 'is a symlink with an empty target')
    const targetBytes = Buffer.byteLength(target)
    if (targetBytes > MAX_LINK_TARGET_BYTES)
      throw new UnsafeEntryError(name, `is a symlink whose target is longer than ${MAX_LINK_TARGET_BYTES} bytes`)
    this.linkTargetBytes += targetBytes
    if (this.linkTargetBytes > MAX_LINK_TARGETS_BYTES) {
      throw new UnsafeEntryError(
        name,
        `is a symlink past ${MAX_LINK_TARGETS_BYTES / 1024 / 1024} MiB of symlink targets in the archive, far more than a site's links name`
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
    const claim = this.claimLeaf(name, 'symlink')
    // Fail fast on the plain case; chains through other links are checked once all are known.
    if (resolveLexically(parentOf(claim.path), target) === undefined) {
      throw new UnsafeEntryError(name, `is a symlink to ${JSON.stringify(target)}, outside the site folder`)
    }
    this.nodes.set(claim.key, { kind: 'symlink', path: claim.path, target, entryName: name })
    this.symlinks.add(claim.key)
    return { path: claim.path, replaces: claim.replaces }
  }

  /**
   * The symlinks to create, after checking that each one, resolved through all the archive's
   * symlinks as the OS would, stays inside the root.
   */
  symlinksToCreate(): PlannedSymlink[] {
    const planned: PlannedSymlink[] = []
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
          `is a symlink, and the archive's symlinks lead through each other more than a site's would (over ${MAX_SYMLINK_WORK / 1_000_000} million characters of paths looked up)`
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
          `is a symlink to ${JSON.stringify(target)}, which leads outside the site folder through the archive's symlinks`
        )
      }
      planned.push({ path, target })
    }
    return planned
  }

  /** Checks a file, hardlink or symlink entry's path; an earlier file or symlink there is replaced. */
  private claimLeaf(name: string, kind: 'symlink' | 'other' = 'other'): Claim & { key: string } {
    const spelled = entryPath(name)
    if (spelled === '') throw new UnsafeEntryError(name, 'has an empty path')
    const path = this.claimParents(spelled, name)
    const key = foldPath(spelled)
    // The path as written must be known under the key it is checked under (see entryPath).
    if (path !== spelled && foldPath(path) !== key)
      throw new UnsafeEntryError(name, "has a path that its folders' first spelling would change")
    const existing = this.nodes.get(key)
    if (existing?.kind === 'dir') throw new UnsafeEntryError(name, 'would replace a directory')
    if (existing === undefined) this.hold(1, path.length, name)
    this.symlinks.delete(key)
    // An earlier symlink exists only in this index until the very end; an earlier file is on disk.
    // A symlink's file goes now even at the same spelling: a later folder there must not find it in its way.
    const replaced = existing?.kind === 'file' && (kind === 'symlink' || existing.path !== path)
    return { path, key, replaces: replaced ? existing.path : undefined }
  }

  /**
   * Counts `added` new paths of `characters` in all against the index's bounds: a folder that a
   * deep path implies is no entry of the archive, but it is made on disk and held here all the same.
   */
  private hold(added: number, characters: number, name: string): void {
    const unchanged = 'Nothing was unpacked into the site folder, and the previous site was left as it was.'
    if (this.paths + added > this.bounds.paths) {
      throw new SiteLimitError(
        `The bundle makes more than ${this.bounds.paths.toLocaleString('en-US')} files and folders, the most the action unpacks: the entry ${JSON.stringify(name)} takes it past that (the folders its path implies count too). ${unchanged}`
      )
    }
    if (this.pathCharacters + characters > this.bounds.pathCharacters) {
      throw new SiteLimitError(
        `The bundle's paths add up to more than ${this.bounds.pathCharacters.toLocaleString('en-US')} characters, far more than a site's: the entry ${JSON.stringify(name)} takes them past that. ${unchanged}`
      )
    }
    this.paths += added
    this.pathCharacters += characters
  }

  /**
   * Every ancestor becomes a directory; none may be a symlink (that would write through it) or a
   * file. Returns `path` below its folder as first spelled.
   */
  private claimParents(path: string, name: string): string {
    const newDirectories: Array<{ key: string; spelled: string }> = []
    // Ancestors of a known directory are known directories: the common case costs one lookup.
    let parent = parentOf(path)
    let folder: string
    for (;;) {
      const key = foldPath(parent)
      const node = this.nodes.get(key)
      if (node?.kind === 'dir') {
        folder = node.path
        break
      }
      if (node?.kind === 'symlink')
        throw new UnsafeEntryError(name, `would be written through the symlink ${JSON.stringify(node.entryName)}`)
      if (node?.kind === 'file')
        throw new UnsafeEntryError(name, `is inside ${JSON.stringify(node.path)}, which an earlier entry made a file`)
      newDirectories.push({ key, spelled: parent })
      parent = parentOf(parent)
    }
    // Below the known folder, as this entry spells it; the folder as it was first spelled. (No
    // closure for this: capturing the loop's variables made every entry ~60% slower.)
    if (newDirectories.length > 0) {
      let characters = 0
      for (const directory of newDirectories) characters += directory.spelled.length
      this.hold(newDirectories.length, characters, name)
    }
    const same = parent === '' || folder === parent
    for (const directory of newDirectories)
      this.nodes.set(directory.key, {
        kind: 'dir',
        path: same ? directory.spelled : folder + directory.spelled.slice(parent.length)
      })
    return same ? path : folder + path.slice(parent.length)
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
