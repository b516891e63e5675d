import { afterAll, beforeAll } from '@jest/globals'
import { mkdtemp, rm } from 'node:fs/promises'
import { createServer } from 'node:net'
import * as os from 'node:os'
import * as path from 'node:path'

/** A fresh temporary folder, removed by the returned function. */
export async function tempFolder(prefix = 'docs-admin-test-'): Promise<{ dir: string; remove: () => Promise<void> }> {
  const dir = await mkdtemp(path.join(os.tmpdir(), prefix))
  return { dir, remove: () => rm(dir, { recursive: true, force: true }) }
}

/** For a test file, called at its top level: one temporary folder for its tests, removed after the last. */
export function tempFolderPerFile(prefix: string): { readonly dir: string } {
  let folder: { dir: string; remove: () => Promise<void> } | undefined
  beforeAll(async () => {
    folder = await tempFolder(prefix)
  })
  afterAll(async () => {
    await folder?.remove()
  })
  return {
    get dir() {
      if (folder === undefined) throw new Error('The temporary folder is made before the first test.')
      return folder.dir
    }
  }
}

/** A loopback port that nothing listens on (it was free a moment ago). */
export async function unusedPort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as { port: number }
  await new Promise<void>((resolve) => server.close(() => resolve()))
  return port
}
