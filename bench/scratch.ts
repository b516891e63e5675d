/**
 * Output folders for the timed runs, and when the old ones are deleted.
 *
 * Every timed run writes into a fresh folder that no run has used. Deleting is what must stay away
 * from the timed runs: on ext4, freeing many files makes file creation that follows several times
 * slower (journal commits, and on a disk mounted with `discard` the discards of the freed blocks),
 * and `sync` alone does not end it: it lasts until the disk has worked through them. Measured on
 * the machine of docs/benchmarks.md, extracting 30,000 small files took 1.4 s into a clean
 * filesystem, 11.2 s right after deleting 180,000 files, 10.5 s after the delete and a `sync`,
 * 3.3 s 30 s later, and 1.1-1.4 s again after a minute.
 *
 * So: a case's folders stay until the case is over. Then they are deleted in bulk, in the
 * background (`rm -rf` in a child process) while the next case gets ready (e.g. generates its
 * bundle); before its first timed run, the next case waits for the delete, runs `sync`, and waits
 * until the disk is quiet: Linux's I/O pressure (/proc/pressure/io) shows tasks stalled on I/O
 * less than 2% of the time over 2 s. Within a case, every run is followed (untimed) by `sync` and
 * a shorter quiet wait (0.5 s), so one run's writeback does not land in the next; there is no
 * delete to wait for there.
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process'
import { mkdir, readFile, readdir } from 'node:fs/promises'
import { join } from 'node:path'
import { promisify } from 'node:util'

/** Stalled share of time under which the disk counts as quiet. */
const QUIET_SHARE = 0.02

export interface Settled {
  /** Time spent waiting for the disk, after the delete and sync. */
  waitedMs: number
  /** false: gave up after the limit, the disk was still busy (other work on the machine?). */
  quiet: boolean
}

export class Scratch {
  private deleting: Promise<void> = Promise.resolve()
  private failure: unknown
  private caseDir: string | undefined
  private runs = 0
  private cases = 0

  /** `root` holds only scratch folders: whatever an earlier, interrupted benchmark left there is deleted first. */
  constructor(private readonly root: string) {
    this.deleteInBackground(readdir(root).then((names) => names.map((n) => join(root, n)), () => []))
  }

  /** Opens a new case: its folders live until retireCase(). */
  async openCase(name: string): Promise<void> {
    this.caseDir = join(this.root, `${++this.cases}-${name.replace(/[^\w.-]+/g, '_')}-${process.pid}`)
    await mkdir(this.caseDir, { recursive: true })
  }

  /** A fresh, never-used folder (created, empty) for one run. */
  async fresh(label: string): Promise<string> {
    if (this.caseDir === undefined) throw new Error('Scratch: no open case')
    const dir = join(this.caseDir, `${String(++this.runs).padStart(3, '0')}-${label}`)
    await mkdir(dir)
    return dir
  }

  /** Starts deleting every folder of the case in the background; settle() waits for it. */
  retireCase(): void {
    if (this.caseDir !== undefined) this.deleteInBackground(Promise.resolve([this.caseDir]))
    this.caseDir = undefined
  }

  /** Waits for pending deletes, syncs, then waits (at most `limitMs`) until the disk has been quiet for `windowMs`. */
  async settle(windowMs: number, limitMs: number): Promise<Settled> {
    await this.drain()
    await promisify(execFile)('sync')
    return waitForQuietDisk(windowMs, limitMs)
  }

  /** Waits for the background deletes (at the end, so no output is left behind). */
  async drain(): Promise<void> {
    await this.deleting
    if (this.failure !== undefined) throw this.failure
  }

  private deleteInBackground(paths: Promise<string[]>): void {
    this.deleting = Promise.all([this.deleting, paths]).then(async ([, list]) => {
      if (list.length > 0) await exited(spawn('rm', ['-rf', '--', ...list], { stdio: 'ignore' }))
    }).catch((error: unknown) => {
      // Kept for settle() to throw: a rejection nobody awaits yet would end the process.
      this.failure ??= error
    })
  }
}

function exited(child: ChildProcess): Promise<void> {
  return new Promise((resolve, reject) => {
    child.once('error', reject)
    child.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`rm -rf exited with ${code}`))))
  })
}

/** Microseconds some task was stalled on I/O since boot (PSI), or undefined where there is no PSI. */
async function ioStallMicros(): Promise<number | undefined> {
  const text = await readFile('/proc/pressure/io', 'utf8').catch(() => '')
  const total = /^some .*total=(\d+)/m.exec(text)?.[1]
  return total === undefined ? undefined : Number(total)
}

async function waitForQuietDisk(windowMs: number, limitMs: number): Promise<Settled> {
  const started = performance.now()
  const elapsed = (): number => performance.now() - started
  const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms))
  const first = await ioStallMicros()
  if (first === undefined) {
    // No PSI (not Linux, or disabled): a fixed pause is the best there is.
    await sleep(Math.min(limitMs, 5_000))
    return { waitedMs: elapsed(), quiet: true }
  }
  // Quiet = four quarter-windows in a row each below the share: one short burst resets it.
  const step = windowMs / 4
  let before = first
  let quietSteps = 0
  while (quietSteps < 4) {
    if (elapsed() >= limitMs) return { waitedMs: elapsed(), quiet: false }
    await sleep(step)
    const now: number = (await ioStallMicros()) ?? before
    quietSteps = (now - before) / 1000 < QUIET_SHARE * step ? quietSteps + 1 : 0
    before = now
  }
  return { waitedMs: elapsed(), quiet: true }
}
