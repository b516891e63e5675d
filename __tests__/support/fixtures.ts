import { mkdtemp, rm } from 'node:fs/promises'
import { createServer } from 'node:net'
import * as os from 'node:os'
import * as path from 'node:path'
import { type Clock, realClock } from '../../src/clock.js'

/** A clock that keeps real time but cuts every wait short, and remembers what was asked. */
export function quickClock(capMs = 5): Clock & { waits: number[] } {
  const waits: number[] = []
  return {
    waits,
    now: () => Date.now(),
    sleep: (ms, signal) => {
      waits.push(ms)
      return realClock.sleep(Math.min(ms, capMs), signal)
    }
  }
}

/** A fresh temporary folder, removed by the returned function. */
export async function tempFolder(prefix = 'docs-admin-test-'): Promise<{ dir: string; remove: () => Promise<void> }> {
  const dir = await mkdtemp(path.join(os.tmpdir(), prefix))
  return { dir, remove: () => rm(dir, { recursive: true, force: true }) }
}

/** A loopback port that nothing listens on (it was free a moment ago). */
export async function unusedPort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as { port: number }
  await new Promise<void>((resolve) => server.close(() => resolve()))
  return port
}

/** Retry waits for tests: tiny, so faults resolve in milliseconds. */
export const FAST_RETRY = { initialMs: 1, maxMs: 4, maxAttempts: 4 }
