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
  // Upper then lower case folds more than lower case alone (`ß` and `ss`, `ς` and `σ`).
  return path.replace(IGNORED_BY_HFS, '').normalize('NFC').toUpperCase().toLowerCase().normalize('NFC').replace(TRAILING_DOTS_AND_SPACES, '')
}

/** `.git` as any of the file systems above may spell it (`.GIT`, `.git.`, `git~1`, the 8.3 short name). */
export function isGitFolderName(name: string): boolean {
  const folded = foldPath(name)
  return folded === '.git' || folded === 'git~1'
}
