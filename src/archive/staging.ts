/**
 * The site is unpacked into a staging folder next to its destination (same parent, so the final
 * move is a rename on one file system) and swapped in only when whole: a failed or cancelled run
 * never leaves a half-written site, and an earlier site stays until the new one is complete.
 */
import { randomBytes } from 'node:crypto'
import { mkdir, rename, rm } from 'node:fs/promises'
import { basename, dirname, join } from 'node:path'

/** A fresh, empty folder `.<name>.staging-<random>` beside `siteDir`. */
export async function createStagingFolder(siteDir: string): Promise<string> {
  const parent = dirname(siteDir)
  await mkdir(parent, { recursive: true })
  const staging = join(parent, `.${basename(siteDir)}.staging-${randomBytes(6).toString('hex')}`)
  await mkdir(staging)
  return staging
}

/**
 * Moves `staging` to `siteDir`: the old site is renamed aside, the new one renamed in, then the
 * old one removed. If the second rename fails, the old site is put back.
 */
export async function swapIntoPlace(staging: string, siteDir: string): Promise<void> {
  const aside = join(dirname(siteDir), `.${basename(siteDir)}.old-${randomBytes(6).toString('hex')}`)
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
  if (movedAside) await removeQuietly(aside)
}

/** Removes a file or folder tree if it is there; cleanup must not hide the error that caused it. */
export async function removeQuietly(path: string): Promise<void> {
  await rm(path, { recursive: true, force: true, maxRetries: 2 }).catch(() => undefined)
}
