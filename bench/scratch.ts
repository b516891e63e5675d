/**
 * Output folders for the timed runs, and when the old ones are deleted.
 *
 * Every timed run writes into a fresh folder that no run has used. Deleting is what must stay away
 * from the timed runs: on ext4, freeing many files makes the file creation that follows several
 * times slower, and neither `sync` nor a quiet disk ends it. Measured on the machine of
 * docs/benchmarks.md (ext4 mounted with `discard`, a virtual disk), extracting 30,000 small files
 * took 1.4 s into a clean file system, 11.2 s right after deleting 180,000 files, 10.5 s after
 * the delete and a `sync`, 3.3 s 30 s later, and 1.1-1.4 s again after a minute. Waiting until
 * Linux's I/O pressure (/proc/pressure/io) showed the disk idle did not help either: runs started
 * that way right after a delete took up to 2.5x as long as the runs before it.
 *
 * So nothing is deleted while the benchmark runs: every case's folders are kept to the end and
 * deleted in bulk after the last timed run (`rm -rf` in a child process). Only when free space
 * runs low (below MIN_FREE_BYTES after a case) are a case's folders deleted at once, and then
 * the next case waits PAUSE_AFTER_DELETE_MS after the delete and a `sync` (the report says so).
 * Within a case, every run is followed (untimed) by `sync`, so its writeback does not land in the
 * next run.
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process'
import { mkdir, readdir, statfs } from 'node:fs/promises'
import { join } from 'node:path'
import { promisify } from 'node:util'

const GiB = 1024 ** 3
/** Free space under which a finished case's folders are deleted at once instead of at the end. */
const MIN_FREE_BYTES = 30 * GiB
/** After a delete: long enough, by the measurements above, for file creation to be back to normal. */
const PAUSE_AFTER_DELETE_MS = 60_000

export class Scratch {
  private deleting: Promise<void> = Promise.resolve()
  private failure: unknown
  /** A delete was started since the last settle(): the next case must wait for it, and then some. */
  private deletedSinceSettle = false
  private caseDir: string | undefined
  /** Cases whose folders were deleted early for lack of space. */
  readonly deletedEarly: string[] = []
  private runs = 0
  private cases = 0

  /** `root` holds only scratch folders: whatever an earlier, interrupted benchmark left there is deleted first. */
  constructor(private readonly root: string) {
    this.deleteInBackground(
      readdir(root).then(
        (names) => names.map((n) => join(root, n)),
        () => []
      )
    )
  }

  /** Opens a new case: its folders live until the end, or retireCase() if space runs low. */
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

  /** Closes the case; its folders are deleted now (in the background) only when free space is low. */
  async retireCase(label: string): Promise<void> {
    const dir = this.caseDir
    this.caseDir = undefined
    if (dir === undefined) return
    const free = await statfs(this.root).then((s) => s.bavail * s.bsize)
    if (free >= MIN_FREE_BYTES) return
    this.deletedEarly.push(label)
    this.deleteInBackground(Promise.resolve([dir]))
  }

  /** Before a timed run: `sync`; before a case, also the wait for a delete, if one was started since the last call. Returns the time waited. */
  async settle(): Promise<number> {
    const started = performance.now()
    await this.drain()
    await promisify(execFile)('sync')
    if (this.deletedSinceSettle) {
      this.deletedSinceSettle = false
      await new Promise((resolve) => setTimeout(resolve, PAUSE_AFTER_DELETE_MS))
    }
    return performance.now() - started
  }

  /** Deletes every folder, after the last timed run, and waits for it. */
  async deleteAll(): Promise<void> {
    this.deleteInBackground(
      readdir(this.root).then(
        (names) => names.map((n) => join(this.root, n)),
        () => []
      )
    )
    await this.drain()
  }

  private async drain(): Promise<void> {
    await this.deleting
    if (this.failure !== undefined) throw this.failure
  }

  private deleteInBackground(paths: Promise<string[]>): void {
    this.deleting = Promise.all([this.deleting, paths])
      .then(async ([, list]) => {
        if (list.length === 0) return
        this.deletedSinceSettle = true
        await exited(spawn('rm', ['-rf', '--', ...list], { stdio: 'ignore' }))
      })
      .catch((error: unknown) => {
        // Kept for drain() to throw: a rejection nobody awaits yet would end the process.
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
