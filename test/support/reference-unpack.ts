/**
 * What the world's readers make of an archive: GNU tar (`tar -xf`, which tells gzip by itself) for
 * a tar, Info-ZIP unzip (`unzip -q`) for a zip, each into a fresh folder. The differential suite
 * holds the action to the tree they leave.
 */
import { mkdir, writeFile } from 'node:fs/promises'
import * as path from 'node:path'
import { runTool } from './archive-tools.js'

export type ArchiveKind = 'tar' | 'zip'

/** Unpacks `archive` into `folder` (made here); throws when the reader fails. */
export async function referenceUnpack(archive: Buffer, kind: ArchiveKind, folder: string): Promise<void> {
  await mkdir(folder, { recursive: true })
  const file = `${folder}.${kind}`
  await writeFile(file, archive)
  const run =
    kind === 'tar'
      ? await runTool('tar', ['-xf', file, '-C', folder])
      : await runTool('unzip', ['-q', file, '-d', folder], { env: { LC_ALL: 'C.UTF-8' } })
  if (run.code === 0 || (kind === 'tar' && onlyMknodRefused(run.stderr))) return
  throw new Error(`The reference reader failed on the case's own archive (${path.basename(file)}): ${run.stderr}`)
}

/**
 * GNU tar run by someone who may not make devices stops short of them and exits 2: the rest is
 * unpacked, and the action skips devices anyway.
 */
function onlyMknodRefused(stderr: string): boolean {
  const problems = stderr.split('\n').filter((line) => line !== '' && !/Exiting with failure status/.test(line))
  return problems.length > 0 && problems.every((line) => /Cannot mknod: Operation not permitted/.test(line))
}
