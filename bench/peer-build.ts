/**
 * Builds the peer of the download + unpack benchmark (bench/peer/: the action an author would write
 * with @actions/tool-cache) as such an author ships it: bundled by ncc, as dist/ is, into
 * bench/out/peer/index.js, from an empty folder so that no stale chunk survives. Then one untimed
 * start without inputs: it must load and fail on the missing input (this also reads the bundle into
 * the page cache before the first timed run, as the start-up part does for dist/).
 */
import { execFile } from 'node:child_process'
import { rm } from 'node:fs/promises'
import { dirname, join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { childEnv } from './measure.js'

const BENCH_DIR = dirname(fileURLToPath(import.meta.url))
const ROOT = join(BENCH_DIR, '..')
export const PEER_ACTION_YML = join(BENCH_DIR, 'peer', 'action.yml')
const PEER_SOURCE = join(BENCH_DIR, 'peer', 'index.ts')

/** Bundles the peer into `outDir` and checks that it starts; returns its entry file. */
export async function buildPeer(outDir: string, node: string): Promise<string> {
  await rm(outDir, { recursive: true, force: true })
  const run = promisify(execFile)
  // npx resolves the project's own ncc (a devDependency), the bundler of dist/.
  await run('npx', ['ncc', 'build', relative(ROOT, PEER_SOURCE), '-o', relative(ROOT, outDir)], {
    cwd: ROOT,
    maxBuffer: 16 * 1024 * 1024
  }).catch((error: { stdout?: string; stderr?: string; message: string }) => {
    throw new Error(`ncc could not bundle the peer: ${error.message}\n${error.stdout ?? ''}${error.stderr ?? ''}`)
  })
  const entry = join(outDir, 'index.js')
  const env = Object.fromEntries(Object.entries(childEnv()).filter(([name]) => !name.startsWith('INPUT_')))
  const started = await run(node, [entry], { env }).then(
    (): { code: number; stdout: string } => ({ code: 0, stdout: '' }),
    (error: { code?: number; stdout?: string }) => ({ code: error.code ?? -1, stdout: error.stdout ?? '' })
  )
  if (started.code !== 1 || !started.stdout.includes('Input required and not supplied: url'))
    throw new Error(`the bundled peer did not start as expected (exit ${started.code}):\n${started.stdout}`)
  return entry
}
