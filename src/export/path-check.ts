/**
 * The export's pre-flight, before any request: may `path` be written (and, unpacked, replaced
 * whole)? Settings judged the path as written; here it is judged as the file system will resolve
 * it (a symlinked parent counts), against the runner's own folders, the archive's folder, and
 * what is already there.
 */
import { lstat, opendir, readdir, realpath, rm } from 'node:fs/promises'
import * as os from 'node:os'
import * as path from 'node:path'
import type { FlowHost } from '../action/context.js'
import type { RunnerVariable } from '../action/host.js'
import {
  type GuardedFolder,
  HOME_FOLDERS,
  RUNNER_FILES,
  RUNNER_OWN_FOLDERS,
  fileProblem,
  folderProblem,
  homeFileProblem,
  runnerTempFolders
} from '../action/path-guard.js'
import type { ExportSettings } from '../action/settings.js'
import { ActionError, InputError, errorMessage } from '../common/errors.js'
import { foldPath } from '../common/file-names.js'
import type { Logger } from '../common/log.js'
import { isRunning } from '../site/staging.js'
import { serviceText } from '../common/text.js'
import { writtenByExport } from './export-record.js'
import { firstTrackedFile } from './tracked-files.js'

/** The archive of an unpacked export is kept in `<runner temp>/docs-export-<job>`. */
const ARCHIVE_FOLDER_PREFIX = 'docs-export-'

/** The runner's temp folder: where the archive of an unpacked export is kept. */
function runnerTemp(host: Pick<FlowHost, 'env'>): string {
  return host.env('RUNNER_TEMP') ?? os.tmpdir()
}

/**
 * Where the archive of an unpacked export of `jobName` is kept: `<runner temp>/docs-export-<job>`,
 * a runner's temp folder being the job's own. Outside a runner (the CLI, in a temp folder every
 * run shares) the process id is part of the name, so that runs side by side never share a folder
 * (nor clear each other's leftovers).
 */
export function archiveFolderOf(host: Pick<FlowHost, 'env'>, jobName: string): string {
  const own = host.env('RUNNER_TEMP') === undefined ? `-${process.pid}` : ''
  return path.join(runnerTemp(host), `${ARCHIVE_FOLDER_PREFIX}${jobName}${own}`)
}

/** An archive folder outside a runner: `docs-export-<job>-<pid>` (see archiveFolderOf). */
const CLI_ARCHIVE_FOLDER = new RegExp(`^${ARCHIVE_FOLDER_PREFIX}.+-(\\d+)$`)

/**
 * Outside a runner, the archive folders that runs killed before their end left in the shared temp
 * folder (their process no longer runs): nothing else would ever remove them. Best-effort.
 */
export async function sweepDeadRunsArchives(host: Pick<FlowHost, 'env'>, log: Logger): Promise<void> {
  if (archiveOutlivesRun(host)) return
  const temp = runnerTemp(host)
  const entries = await readdir(temp).catch((): string[] => [])
  for (const entry of entries) {
    const pid = Number(CLI_ARCHIVE_FOLDER.exec(entry)?.[1])
    if (!Number.isSafeInteger(pid) || pid === process.pid || isRunning(pid)) continue
    await rm(path.join(temp, entry), { recursive: true, force: true, maxRetries: 2 }).then(
      () => log.info(`Removed ${entry} from the temp folder: a run that was killed left it.`),
      (error: unknown) => log.debug(`Could not remove ${entry} from the temp folder: ${errorMessage(error)}`)
    )
  }
}

/**
 * Whether the archive of an unpacked export outlives the run. A runner's temp folder is the job's:
 * the archive stays there for the job's later steps (`bundle-path`), and the runner empties it
 * after the job. Outside a runner (the CLI) the temp folder is shared and nobody empties it, so
 * every run would leave its archive behind for good: the run removes it when it ends.
 */
export function archiveOutlivesRun(host: Pick<FlowHost, 'env'>): boolean {
  return host.env('RUNNER_TEMP') !== undefined
}

const RUNNER_FOLDERS: Array<[RunnerVariable, string]> = [
  ['GITHUB_WORKSPACE', 'the workspace'],
  ['RUNNER_TOOL_CACHE', "the runner's tool cache (RUNNER_TOOL_CACHE)"],
  ['GITHUB_ACTION_PATH', "the action's own folder (GITHUB_ACTION_PATH)"],
  ['HOME', 'the home folder (HOME)'],
  ['USERPROFILE', 'the home folder (USERPROFILE)']
]

/**
 * Throws an InputError naming `path` when the export may not use it. Unpacked or not, the folder
 * is replaced whole (with `extract: false` by a folder holding the archive). A folder of files
 * the git repository tracks is refused; one that holds files no earlier export wrote is warned of.
 */
export async function checkExportPath(settings: ExportSettings, host: Pick<FlowHost, 'env' | 'log'>): Promise<void> {
  if (!settings.download) return // nothing is written
  const refuse = (why: string, real?: string): InputError =>
    new InputError(
      `\`path\` must be a folder of its own (it is replaced whole by each export), not ${settings.path}` +
        `${real !== undefined && real !== settings.path ? ` (really ${real})` : ''}, which ${why}.`
    )

  const real = await realPathOf(settings.path, 'path')
  const temp = await realPathOf(runnerTemp(host), 'path')
  const tempName =
    host.env('RUNNER_TEMP') === undefined ? `the temp folder (${temp})` : "the runner's temp folder (RUNNER_TEMP)"
  const guarded: GuardedFolder[] = [{ path: temp, name: tempName }]
  for (const [variable, name] of RUNNER_FOLDERS) {
    const value = host.env(variable)
    if (value !== undefined && path.isAbsolute(value)) guarded.push({ path: await realPathOf(value, 'path'), name })
  }
  const problem = folderProblem(real, guarded)
  if (problem !== undefined) throw refuse(problem, real)
  if (settings.extract) {
    const inTemp = path.relative(foldPath(temp), foldPath(real))
    if (!inTemp.includes(path.sep) && inTemp.startsWith(ARCHIVE_FOLDER_PREFIX))
      throw refuse('is where the archive is downloaded to', real)
  }

  const existing = await lstat(settings.path).catch(() => undefined)
  if (existing !== undefined && !existing.isDirectory() && !existing.isSymbolicLink()) throw refuse('is a file')
  if ((await lstat(path.join(settings.path, '.git')).catch(() => undefined)) !== undefined) {
    const what = settings.extract ? 'the site' : 'the archive'
    throw refuse(
      `holds a git repository (.git) that replacing the folder would delete; put ${what} in a folder of its own ` +
        `inside it`
    )
  }
  const tracked = await firstTrackedFile(real, host.log)
  if (tracked !== undefined) {
    const other = path.basename(real) === 'static-export' ? 'site-export' : 'static-export'
    throw refuse(
      `holds ${tracked}, a file its git repository tracks, which replacing the folder would delete; export into ` +
        `a folder that holds no tracked file, such as \`path: ${other}\``,
      real
    )
  }
  await warnOfOtherFiles(real, host.log)
}

/**
 * Warns when `folder` holds something an earlier export did not write (see export-record.ts): a
 * folder the team keeps other files in, which the export is about to replace.
 */
async function warnOfOtherFiles(folder: string, log: Logger): Promise<void> {
  const first = await firstEntryOf(folder)
  if (first === undefined || (await writtenByExport(folder))) return
  log.warning(
    `\`path\` (${folder}) holds files that no earlier export wrote (${serviceText(first)}, maybe more): the export ` +
      `replaces the folder whole, and they will be gone. If they are to stay, give \`path\` a folder of its own.`
  )
}

/** The name of one entry of `folder`; undefined when it is empty or no folder. Reads one entry, not the whole list. */
async function firstEntryOf(folder: string): Promise<string | undefined> {
  const entries = await opendir(folder).catch(() => undefined)
  if (entries === undefined) return undefined
  try {
    return (await entries.read())?.name
  } finally {
    await entries.close()
  }
}

/**
 * Throws an InputError naming `helm-values-file` when the export may not write it, judged as
 * `path` is, on the real file system before any request: a folder, a file in `.git`, in `path`
 * (replaced whole by the export), one of the runner's own files or in its own folders (in its temp
 * folder: those holding its files, and the archive's), or in the home folder (see homeFileProblem).
 * Writing replaces the file itself (a symlink there is replaced, not followed).
 */
export async function checkHelmValuesFile(settings: ExportSettings, host: Pick<FlowHost, 'env'>): Promise<void> {
  const file = settings.helmValuesFile
  if (file === undefined) return
  const refuse = (why: string, real?: string): InputError =>
    new InputError(
      `\`helm-values-file\` must be a file of its own, not ` +
        `${file}${real !== undefined && real !== file ? ` (really ${real})` : ''}, which ${why}.`
    )
  const real = await realPathOf(file, 'helm-values-file')
  const realOf = async (variables: ReadonlyArray<[RunnerVariable, string]>): Promise<GuardedFolder[]> => {
    const found: GuardedFolder[] = []
    for (const [variable, name] of variables) {
      const value = host.env(variable)
      if (value !== undefined && path.isAbsolute(value))
        found.push({ path: await realPathOf(value, 'helm-values-file'), name })
    }
    return found
  }
  const runnerFiles = await realOf(RUNNER_FILES)
  const guarded = [...runnerFiles, ...(await realOf(RUNNER_OWN_FOLDERS))]
  const temp = host.env('RUNNER_TEMP')
  const realTemp = temp === undefined ? undefined : await realPathOf(temp, 'helm-values-file')
  if (realTemp !== undefined) guarded.push(...runnerTempFolders(realTemp, runnerFiles))
  if (settings.download)
    guarded.push({ path: await realPathOf(settings.path, 'path'), name: '`path`, which each export replaces whole' })
  const problem = fileProblem(real, guarded)
  if (problem !== undefined) throw refuse(problem, real)
  if (realTemp !== undefined) {
    const inTemp = path.relative(foldPath(realTemp), foldPath(real))
    if (inTemp.startsWith(ARCHIVE_FOLDER_PREFIX) && inTemp.includes(path.sep))
      throw refuse('is in a folder the export keeps its archive in, which it replaces whole', real)
  }
  const workspace = host.env('GITHUB_WORKSPACE')
  const jobFolders =
    workspace === undefined
      ? undefined
      : [await realPathOf(workspace, 'helm-values-file'), ...(realTemp === undefined ? [] : [realTemp])]
  for (const home of await realOf(HOME_FOLDERS)) {
    const inHome = homeFileProblem(real, home, jobFolders)
    if (inHome !== undefined) throw refuse(inHome, real)
  }
  if ((await lstat(file).catch(() => undefined))?.isDirectory() === true) throw refuse('is a folder')
}

/**
 * The real path of `target`: that of its nearest existing ancestor (symlinks resolved) with the
 * missing rest appended as written. `input`: the input it stands for, for the message.
 */
async function realPathOf(target: string, input: 'path' | 'helm-values-file'): Promise<string> {
  const missing: string[] = []
  for (let at = path.resolve(target); ; at = path.dirname(at)) {
    try {
      return path.join(await realpath(at), ...missing.reverse())
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code
      if ((code !== 'ENOENT' && code !== 'ENOTDIR') || path.dirname(at) === at) {
        throw new ActionError(`Could not check \`${input}\` (${target}): ${errorMessage(error)}`, { cause: error })
      }
      missing.push(path.basename(at))
    }
  }
}
