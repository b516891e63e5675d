/** How file systems compare names: the one fold for archive entries and the runner's folders alike. */

/** Code points HFS+ ignores in names (the list git checks for `.git`): `a\u200cb` is `ab` there. */
const IGNORED_BY_HFS = /[\u200c-\u200f\u202a-\u202e\u206a-\u206f\ufeff]/g
/** Windows drops the trailing dots and spaces of each name. */
const TRAILING_DOTS_AND_SPACES = /[. ]+(?=[\\/]|$)/g

/**
 * The key under which a file system may know a path: two paths with one key may be one file.
 * macOS and Windows runners compare names without case, macOS without Unicode normalisation
 * (HFS+ stores NFD) and HFS+ ignoring some invisible code points, Windows without trailing dots
 * and spaces. Folded the same on every OS: what is safe must be safe wherever it runs, and on
 * Linux the fold only makes the checks stricter.
 */
export function foldPath(path: string): string {
  return foldAscii(path) ?? foldAny(path)
}

function foldAny(path: string): string {
  // Upper then lower case folds more than lower case alone (`ß` and `ss`, `ς` and `σ`); lower case
  // first, so that `ẞ`, whose upper case is itself, folds with them (`ẞ`, `ß`, `ss`).
  return path
    .replace(IGNORED_BY_HFS, '')
    .normalize('NFC')
    .toLowerCase()
    .toUpperCase()
    .toLowerCase()
    .normalize('NFC')
    .replace(TRAILING_DOTS_AND_SPACES, '')
}

/**
 * The fold of an ASCII path without a trailing dot or space on any of its names (nearly every
 * path of a site): lower case, and the same string when it is lower case already. Undefined for
 * any other path (foldAny folds it): the same result, without normalising text that has nothing
 * to normalise.
 */
function foldAscii(path: string): string | undefined {
  let upper = false
  for (let i = 0; i < path.length; i++) {
    const code = path.charCodeAt(i)
    if (code > 0x7f) return undefined
    if (code >= 0x41 && code <= 0x5a) upper = true
    else if (code === 0x2e || code === 0x20) {
      const next = i + 1 === path.length ? 0x2f : path.charCodeAt(i + 1)
      if (next === 0x2f || next === 0x5c) return undefined
    }
  }
  return upper ? path.toLowerCase() : path
}

/**
 * `.git` as any of the file systems above may spell it (`.GIT`, `.git.`, `git~1`, the 8.3 short
 * name), also with an NTFS stream after it: Windows reads `.git::$INDEX_ALLOCATION` as the folder.
 */
export function isGitFolderName(name: string): boolean {
  const colon = name.indexOf(':')
  const folded = foldPath(colon < 0 ? name : name.slice(0, colon))
  return folded === '.git' || folded === 'git~1'
}
