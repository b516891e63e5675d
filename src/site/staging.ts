/**
 * The site is unpacked into a staging folder next to its destination (same parent, so the final
 * move is a rename on one file system) and swapped in only when whole: a failed or cancelled run
 * never leaves a half-written site, and an earlier site stays until the new one is complete.
 *
 * Every folder of ours beside the site is named `.<site>.<kind>-<pid>-<12 hex>`: `staging` while
 * it fills, `old` for the previous site during the swap, `trash` once it is only waiting to be
 * removed. A run that was killed may leave one behind; the next run beside the same site sweeps
 * them first, and any run sweeps what a dead process left beside another (the CLI's archive
 * folder is named after its process, so no later run has its name).
 */
import { spawn } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { mkdir, readdir, rename, rm, rmdir, stat } from 'node:fs/promises'
import { basename, dirname, join } from 'node:path'
import type { Logger } from '../common/log.js'

type Kind = 'staging' | 'old' | 'trash'

/** A fresh name `.<site>.<kind>-<pid>-<random>` beside `siteDir`. */
function besideSite(siteDir: string, kind: Kind): string {
  return join(dirname(siteDir), `.${basename(siteDir)}.${kind}-${process.pid}-${randomBytes(6).toString('hex')}`)
}

/** `.<site>.<kind>-<pid>-<12 hex>`, and `.<site>.<kind>-<12 hex>` as earlier versions named them. */
const OURS = /^\.(.+)\.(staging|old|trash)-(?:(\d+)-)?[0-9a-f]{12}$/

/** Whether process `pid` still runs (one of another user's counts: it cannot be signalled, but it is there). */
export function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}

/**
 * Whether `entry` is a folder a dead run left beside another site: its staging or trash (a
 * previous site moved aside is its own site's to put back).
 */
function isDeadRunsLeftover(entry: string, siteName: string): boolean {
  const match = OURS.exec(entry)
  if (match === null || match[1] === siteName || match[2] === 'old' || match[3] === undefined) return false
  const pid = Number(match[3])
  return pid !== process.pid && !isRunning(pid)
}

/** A fresh, empty folder `.<name>.staging-<random>` beside `siteDir`. */
export async function createStagingFolder(siteDir: string): Promise<string> {
  const staging = besideSite(siteDir, 'staging')
  // Its parent is made only when missing: a recursive mkdir says EEXIST where a part of the path is a file.
  await mkdir(staging).catch(async (error: unknown) => {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error
    await mkdir(dirname(siteDir), { recursive: true })
    await mkdir(staging)
  })
  return staging
}

/**
 * A folder of up to this many entries is removed by this process (some tens of milliseconds); a
 * larger one by a detached process, so that a cancelled run can end at once.
 */
const QUICK_REMOVAL_ENTRIES = 2000

/**
 * Moves `staging` to `siteDir`: the old site is renamed aside, the new one renamed in, then the
 * old one removed. If the second rename fails, the old site is put back. `entries`, the new
 * site's, tells how large the old one likely is: a large one is removed by a detached process,
 * waited for unless `signal` fires (see discardFolder).
 */
export async function swapIntoPlace(
  staging: string,
  siteDir: string,
  how: { entries: number; signal?: AbortSignal | undefined }
): Promise<void> {
  const aside = besideSite(siteDir, 'old')
  let movedAside = false
  try {
    await rename(siteDir, aside)
    movedAside = true
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error
  }
  try {
    await rename(staging, siteDir)
  } catch (error) {
    if (movedAside) await rename(aside, siteDir).catch(() => undefined)
    throw error
  }
  if (!movedAside) return
  // An empty folder where the site goes (made by the workflow, or a checkout's placeholder) is
  // removed at once: a process of its own for it would cost 50 ms or more, whatever the new site's size.
  const wasEmpty = await rmdir(aside).then(
    () => true,
    () => false
  )
  if (wasEmpty) return
  if (how.entries <= QUICK_REMOVAL_ENTRIES) await removeQuietly(aside)
  else await removeDetached([aside], how.signal)
}

/**
 * Removes a staging folder of `siteDir` that will not be used. When the run is being cancelled
 * and the folder holds many entries, removing them would take seconds, more than the runner
 * waits after its signal (and node's recursive removal stalls the event loop meanwhile): the
 * folder is renamed to a trash name at once and removed by a detached process; whatever that
 * process does not finish, the next run sweeps.
 */
export async function discardFolder(
  folder: string,
  siteDir: string,
  how: { cancelled: boolean; entries: number }
): Promise<void> {
  if (!how.cancelled || how.entries <= QUICK_REMOVAL_ENTRIES) return removeQuietly(folder)
  const trash = besideSite(siteDir, 'trash')
  try {
    await rename(folder, trash)
  } catch {
    return removeQuietly(folder)
  }
  void removeDetached([trash], AbortSignal.abort())
}

/**
 * Removes the folders an earlier run left beside `siteDir` when it was stopped or killed. One
 * exception: when the site itself is missing but a previous site was moved aside (the run died
 * inside the swap), that previous site is put back rather than removed. The removal runs in a
 * process of its own (it may be many thousand files): a cancellation stops the wait, not the
 * removal.
 */
export async function sweepStaleFolders(siteDir: string, log: Logger, signal: AbortSignal | undefined): Promise<void> {
  const name = basename(siteDir)
  const entries = await readdir(dirname(siteDir)).catch((): string[] => [])
  const stale = entries.filter((entry) => OURS.exec(entry)?.[1] === name)
  const dead = entries.filter((entry) => isDeadRunsLeftover(entry, name))
  if (stale.length === 0 && dead.length === 0) return
  const siteExists = await stat(siteDir).then(
    () => true,
    () => false
  )
  const previous = siteExists ? undefined : stale.find((entry) => OURS.exec(entry)?.[2] === 'old')
  if (previous !== undefined) {
    await rename(join(dirname(siteDir), previous), siteDir)
    log.info(
      `Put back the previous ${siteDir}, which an earlier run had moved aside to ${previous} when it was stopped`
    )
  }
  const removed = stale.filter((entry) => entry !== previous)
  if (removed.length > 0) {
    log.info(
      `Removing ${removed.length} folder${removed.length === 1 ? '' : 's'} that an earlier run left beside ` +
        `${siteDir}: ${removed.join(', ')}`
    )
  }
  if (dead.length > 0) {
    log.info(
      `Removing ${dead.length} folder${dead.length === 1 ? '' : 's'} that runs no longer running left in ` +
        `${dirname(siteDir)}: ${dead.join(', ')}`
    )
  }
  removed.push(...dead)
  if (removed.length === 0) return
  await removeDetached(
    removed.map((entry) => join(dirname(siteDir), entry)),
    signal
  )
}

/** Removes a file or folder tree if it is there; cleanup must not hide the error that caused it. */
export async function removeQuietly(path: string): Promise<void> {
  // A tree deeper than the longest path node can name (GNU tar can make one) goes by the system's rm.
  await rm(path, { recursive: true, force: true, maxRetries: 2 }).catch(() => removeDetached([path], undefined))
}

/**
 * The system's own removal (`rm -rf`, `rmdir /s` on Windows) in a process of its own removes
 * `paths`, so this one does not stall, and trees deeper than a path can name go too. Resolves when
 * that process ends, or as soon as `until` fires: the process then goes on alone, and this one may
 * end without waiting for it. Never rejects: whatever it leaves, the next run sweeps.
 */
function removeDetached(paths: string[], until: AbortSignal | undefined): Promise<void> {
  const [command, args] =
    process.platform === 'win32'
      ? ['cmd.exe', ['/d', '/c', 'rmdir', '/s', '/q', ...paths]]
      : ['rm', ['-rf', '--', ...paths]]
  return new Promise((resolve) => {
    try {
      const remover = spawn(command, args, { detached: true, stdio: 'ignore', windowsHide: true })
      const letGo = (): void => {
        remover.unref()
        resolve()
      }
      remover.on('error', () => resolve())
      remover.on('exit', () => {
        until?.removeEventListener('abort', letGo)
        resolve()
      })
      if (until?.aborted) letGo()
      else until?.addEventListener('abort', letGo, { once: true })
    } catch {
      resolve()
    }
  })
}
