/**
 * How an export knows that the folder it is about to replace is one an earlier export wrote: a
 * small record beside `path`, `.<name>.exported`, holding the folder's identity (its inode and
 * birth time) as the swap left it. Not inside the folder, which is published as it is; not named
 * like the staging folders (`.<name>.<kind>-<hex>`), which every run sweeps away. A folder made
 * again by hand, or restored from elsewhere, has another identity.
 */
import { readFile, stat } from 'node:fs/promises'
import * as path from 'node:path'
import { errorMessage } from '../common/errors.js'
import type { Logger } from '../common/log.js'
import { writeFileAtomically } from './helm-values.js'

const NOTE =
  'An export of docs-admin wrote the folder beside this file, with the identity below; the next export ' +
  'replaces it without a warning. Deleting this file is harmless.'

/** The record of `folder`: `.<name>.exported` beside it. */
export function exportRecordOf(folder: string): string {
  return path.join(path.dirname(folder), `.${path.basename(folder)}.exported`)
}

/**
 * Records that an export wrote `folder` (just swapped in). A record that cannot be written costs
 * only a warning on the next export.
 */
export async function recordExport(folder: string, log: Logger): Promise<void> {
  const identity = await identityOf(folder)
  if (identity === undefined) return
  try {
    await writeFileAtomically(exportRecordOf(folder), `${NOTE}\nfolder ${identity}\n`)
  } catch (error) {
    log.info(`Could not record that the export wrote ${folder} (${errorMessage(error)}): the next export warns.`)
  }
}

/** Whether `folder` is the very folder an earlier export wrote (see recordExport). */
export async function writtenByExport(folder: string): Promise<boolean> {
  const [identity, record] = await Promise.all([
    identityOf(folder),
    readFile(exportRecordOf(folder), 'utf8').catch(() => '')
  ])
  return identity !== undefined && record.split('\n').includes(`folder ${identity}`)
}

/** A folder's inode and birth time (where the file system keeps none, what node reads in its place). */
async function identityOf(folder: string): Promise<string | undefined> {
  const info = await stat(folder, { bigint: true }).catch(() => undefined)
  return info?.isDirectory() === true ? `${info.ino}:${info.birthtimeNs}` : undefined
}
