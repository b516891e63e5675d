/**
 * Which folders `path` may not be. An export replaces `path` whole, so it must not be, or hold,
 * anything the job still needs: the repository's `.git`, the workspace, the runner's own folders.
 * And where a file the export writes (the Helm values) may not be: in `.git`, or in a folder that
 * is replaced whole or is the runner's. Pure: settings judge the paths as written, the export's
 * pre-flight judges the real ones.
 */
import * as path from 'node:path'
import { foldPath, isGitFolderName } from '../common/file-names.js'

export interface GuardedFolder {
  /** Absolute. */
  path: string
  /** For the message: `the workspace`, `the runner's temp folder (RUNNER_TEMP)`... */
  name: string
}

/**
 * Why `folder` (absolute) may not be replaced, as the end of a sentence starting with its name;
 * undefined when it may. Names are compared folded (see foldPath): on a case-insensitive disk
 * `/Work` is `/work`.
 */
export function folderProblem(folder: string, guarded: GuardedFolder[]): string | undefined {
  if (folder === path.parse(folder).root) return 'is the root of the file system'
  if (folder.split(/[\\/]/).some(isGitFolderName))
    return "is a `.git` folder or inside one (the repository's own files)"
  const key = foldPath(folder)
  for (const { path: other, name } of guarded) {
    const relative = path.relative(key, foldPath(other))
    if (relative === '') return `is ${name}`
    // Above `folder` is `..` or starts with `../`; a name inside it may start with two dots too.
    const above = relative === '..' || relative.startsWith(`..${path.sep}`)
    if (!above && !path.isAbsolute(relative)) return `holds ${name}`
  }
  return undefined
}

/**
 * Why the file `file` (absolute) may not be written, as the end of a sentence starting with its
 * name; undefined when it may: not a folder's name, not in `.git`, not in (or one of) `folders`.
 */
export function fileProblem(file: string, folders: GuardedFolder[]): string | undefined {
  if (file === path.parse(file).root) return 'is the root of the file system'
  if (file.split(/[\\/]/).some(isGitFolderName))
    return "is in a `.git` folder (the repository's own files, which a write there would change)"
  const key = foldPath(file)
  for (const { path: folder, name } of folders) {
    const relative = path.relative(foldPath(folder), key)
    if (relative === '') return `is ${name}`
    if (relative !== '..' && !relative.startsWith(`..${path.sep}`) && !path.isAbsolute(relative)) return `is in ${name}`
  }
  return undefined
}
