/**
 * Which folders `path` may not be. An export replaces `path` whole, so it must not be, or hold,
 * anything the job still needs: the repository's `.git`, the workspace, the runner's own folders.
 * And where a file the export writes (the Helm values) may not be: in `.git`, or in a folder that
 * is replaced whole or is the runner's. Pure: settings judge the paths as written, the export's
 * pre-flight judges the real ones.
 */
import * as path from 'node:path'
import { foldPath, isGitFolderName } from '../common/file-names.js'
import type { RunnerVariable } from './host.js'

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

/**
 * What a file the export writes (the Helm values) may not replace or be in, beside `.git` and
 * `path`: the runner's own files (the file commands, which later steps read, and the event), its
 * own folders (the tool cache and the action's folder hold code later steps run; in its temp folder,
 * see runnerTempFolders) and the home folder (see homeFileProblem).
 */
export const RUNNER_FILES: ReadonlyArray<[RunnerVariable, string]> = [
  ['GITHUB_OUTPUT', "the runner's output file (GITHUB_OUTPUT)"],
  ['GITHUB_ENV', "the runner's environment file (GITHUB_ENV)"],
  ['GITHUB_PATH', "the runner's PATH file (GITHUB_PATH)"],
  ['GITHUB_STATE', "the runner's state file (GITHUB_STATE)"],
  ['GITHUB_STEP_SUMMARY', "the runner's job summary file (GITHUB_STEP_SUMMARY)"],
  ['GITHUB_EVENT_PATH', "the runner's event file (GITHUB_EVENT_PATH)"]
]
export const RUNNER_OWN_FOLDERS: ReadonlyArray<[RunnerVariable, string]> = [
  ['RUNNER_TOOL_CACHE', "the runner's tool cache (RUNNER_TOOL_CACHE)"],
  ['GITHUB_ACTION_PATH', "the action's own folder (GITHUB_ACTION_PATH)"]
]
export const HOME_FOLDERS: ReadonlyArray<[RunnerVariable, string]> = [
  ['HOME', 'the home folder (HOME)'],
  ['USERPROFILE', 'the home folder (USERPROFILE)']
]

/** Whether `file` is inside `folder` (both absolute), compared folded (see foldPath). */
function isInside(file: string, folder: string): boolean {
  const relative = path.relative(foldPath(folder), foldPath(file))
  return relative !== '' && relative !== '..' && !relative.startsWith(`..${path.sep}`) && !path.isAbsolute(relative)
}

/**
 * The runner's own folders in its temp folder `temp`: each folder of `temp` that holds one of the
 * runner's `files` (`_runner_file_commands`, `_github_workflow`). The rest of the temp folder is
 * the job's scratch space, a good place for a file that holds a credential (it is emptied after
 * the job, and never in the checkout).
 */
export function runnerTempFolders(temp: string, files: readonly GuardedFolder[]): GuardedFolder[] {
  const found: GuardedFolder[] = []
  for (const file of files) {
    if (!isInside(file.path, temp)) continue
    const [first = '', ...rest] = path.relative(temp, file.path).split(path.sep)
    if (rest.length > 0)
      found.push({
        path: path.join(temp, first),
        name: `the runner's own \`${first}\` folder, which holds ${file.name}`
      })
  }
  return found
}

/**
 * Why the file `file` may not be written in the home folder `home` (both absolute), as the end of
 * a sentence; undefined when it may. A name starting with a dot there is the user's settings,
 * keys or shell start-up (`.bashrc`, `.ssh/`, `.npmrc`), which outlive the job on a self-hosted
 * runner. On a runner (`jobFolders` given: the workspace and the temp folder, under the home folder
 * on GitHub's runners, are the job's), the rest of the home folder is the runner's too: the
 * actions it downloaded, the runner itself.
 */
export function homeFileProblem(
  file: string,
  home: GuardedFolder,
  jobFolders: readonly string[] | undefined
): string | undefined {
  if (!isInside(file, home.path) || jobFolders?.some((folder) => isInside(file, folder)) === true) return undefined
  if (path.relative(foldPath(home.path), foldPath(file)).startsWith('.'))
    return `is in ${home.name} among its settings and keys (a name starting with a dot)`
  if (jobFolders !== undefined)
    return `is in ${home.name} outside the workspace and the temp folder, where the runner keeps its own files`
  return undefined
}
