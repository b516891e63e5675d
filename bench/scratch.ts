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
 * runs low (below MIN_FREE_BYTES after a case, or too little for the next case's estimated
 * output) are a case's folders deleted at once, and then
 * the next case waits PAUSE_AFTER_DELETE_MS after the delete and a `sync`, and then until
 * creating files is back to its speed (the report says how long). A minute was not always
 * enough: after deleting tens of GB of output, creating 3,000 small files took 0.3-0.8 s instead
 * of 0.07-0.09 s for 5-10 minutes on the same machine. The speed is measured by creating
 * PROBE_FILES small files in a fresh folder (kept, like every output, until the end); the
 * yardstick is the fastest such probe of the run, the first made before any case. It is only as
 * good as the disk at the start, so the report prints it: a run started right after a large
 * delete shows a slow one (2,000 files took 543 ms a minute after one, 53 ms on a quiet disk).
 * The probe makes the calls that unpacking a file makes, blocking, one after another.
 * Within a case, every run is followed (untimed) by `sync`, so its writeback does not land in the
 * next run.
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process'
import { closeSync, openSync, writeSync } from 'node:fs'
import { mkdir, readdir, statfs } from 'node:fs/promises'
import { join } from 'node:path'
import { promisify } from 'node:util'

const GiB = 1024 ** 3
/** Free space under which a finished case's folders are deleted at once instead of at the end. */
const MIN_FREE_BYTES = 30 * GiB
/** After a delete, before file creation is measured again. */
export const PAUSE_AFTER_DELETE_MS = 60_000
/** Files of PROBE_FILE_BYTES each that a probe of file creation creates. */
const PROBE_FILES = 2_000
const PROBE_FILE_BYTES = 2_048
/** What a probe does, for the report. */
export const PROBE =
  `creating ${PROBE_FILES.toLocaleString('en-US')} files of ${PROBE_FILE_BYTES / 1024} KiB ` + 'in a fresh folder'
/** File creation is back to its speed when a probe takes at most this many times the fastest one. */
export const RECOVERED_FACTOR = 1.5
/** Between probes while it is not, and the most a case waits after a delete in all. */
const PROBE_EVERY_MS = 15_000
const MAX_WAIT_AFTER_DELETE_MS = 10 * 60_000

/** How the scratch area waits and measures; the benchmark's is real, a test's may be fake. */
export interface ScratchMachine {
  sleep(ms: number): Promise<void>
  now(): number
  /** The ms creating PROBE_FILES small files in `dir` (a fresh folder) takes. */
  probe(dir: string): Promise<number>
  /** Free bytes on the file system of `dir`. */
  freeBytes(dir: string): Promise<number>
}

const realMachine: ScratchMachine = {
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  now: () => performance.now(),
  probe: probeFileCreation,
  freeBytes: async (dir) => {
    const stats = await statfs(dir)
    return stats.bavail * stats.bsize
  }
}

export class Scratch {
  private deleting: Promise<void> = Promise.resolve()
  private failure: unknown
  /** A delete was started since the last settle(): the next case must wait for it, and then some. */
  private deletedSinceSettle = false
  private caseDir: string | undefined
  /** The folders of finished cases still on disk. */
  private readonly keptCases: string[] = []
  /** Cases whose folders were deleted early for lack of space, and how long the next case then waited. */
  readonly deletedEarly: Array<{ label: string; waitedMs?: number }> = []
  /** The fastest probe of file creation so far (ms), the yardstick of the waits after a delete. */
  fastestProbeMs: number | undefined
  private runs = 0
  private cases = 0
  private probes = 0

  /** `root` holds only scratch folders: whatever an earlier, interrupted benchmark left there is deleted first. */
  constructor(
    private readonly root: string,
    private readonly machine: ScratchMachine = realMachine
  ) {
    this.deleteInBackground(
      readdir(root).then(
        (names) => names.map((n) => join(root, n)),
        () => []
      )
    )
  }

  /**
   * Opens a new case that will write up to `needBytes`: its folders live until the end, or retireCase()
   * if space runs low. When the disk cannot hold it with MIN_FREE_BYTES to spare, the finished cases'
   * folders are deleted first (the next settle() waits for it).
   */
  async openCase(name: string, needBytes = 0): Promise<void> {
    if (this.keptCases.length > 0 && (await this.machine.freeBytes(this.root)) < needBytes + MIN_FREE_BYTES) {
      this.deletedEarly.push({ label: `the cases before ${name}` })
      this.deleteInBackground(Promise.resolve(this.keptCases.splice(0)))
    }
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
    if ((await this.machine.freeBytes(this.root)) >= MIN_FREE_BYTES) {
      this.keptCases.push(dir)
      return
    }
    this.deletedEarly.push({ label })
    this.deleteInBackground(Promise.resolve([dir]))
  }

  /**
   * Before a timed run: `sync`; before a case, also the wait for a delete, if one was started since
   * the last call: a pause, then until creating files is back to its speed. Returns the time waited.
   */
  async settle(): Promise<number> {
    const started = this.machine.now()
    await this.drain()
    await promisify(execFile)('sync')
    if (this.deletedSinceSettle) {
      this.deletedSinceSettle = false
      await this.machine.sleep(PAUSE_AFTER_DELETE_MS)
      while (
        (await this.probe()) > RECOVERED_FACTOR * (this.fastestProbeMs as number) &&
        this.machine.now() - started < MAX_WAIT_AFTER_DELETE_MS
      ) {
        await this.machine.sleep(PROBE_EVERY_MS)
      }
      const early = this.deletedEarly.at(-1)
      if (early !== undefined && early.waitedMs === undefined) early.waitedMs = this.machine.now() - started
    }
    return this.machine.now() - started
  }

  /** Measures how fast files are created now (ms for PROBE_FILES), in a fresh folder kept until the end. */
  async probe(): Promise<number> {
    const dir = join(this.root, `probe-${++this.probes}-${process.pid}`)
    await mkdir(dir)
    const ms = await this.machine.probe(dir)
    this.fastestProbeMs = Math.min(this.fastestProbeMs ?? ms, ms)
    return ms
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

/**
 * Creates PROBE_FILES small files in `dir` one after another with blocking calls, as a writer
 * thread of the action does (nothing else runs while the benchmark settles); returns the ms taken.
 */
async function probeFileCreation(dir: string): Promise<number> {
  const content = Buffer.alloc(PROBE_FILE_BYTES, 0x61)
  const started = performance.now()
  for (let i = 0; i < PROBE_FILES; i++) {
    const fd = openSync(join(dir, `f${i}`), 'wx')
    writeSync(fd, content)
    closeSync(fd)
  }
  return performance.now() - started
}

function exited(child: ChildProcess): Promise<void> {
  return new Promise((resolve, reject) => {
    child.once('error', reject)
    child.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`rm -rf exited with ${code}`))))
  })
}
