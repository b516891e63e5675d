/**
 * Runs one process and measures it from the outside: wall time from spawn to exit (parent's
 * clock), and peak RSS from GNU time's "Maximum resident set size" when /usr/bin/time exists.
 * Every tool is measured the same way, wrapper included, so the comparison stays process vs
 * process.
 */
import { spawn } from 'node:child_process'
import { accessSync, constants } from 'node:fs'
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import os from 'node:os'
import { join } from 'node:path'

const GNU_TIME = '/usr/bin/time'

export const hasGnuTime = ((): boolean => {
  try {
    accessSync(GNU_TIME, constants.X_OK)
    return true
  } catch {
    return false
  }
})()

export interface Measured {
  /** performance.now() at spawn, to place the child's requests on the parent's clock. */
  startedAt: number
  wallMs: number
  /**
   * Largest single process of the tree (GNU time reports the max over waited-for children); undefined without GNU
   * time.
   */
  peakRssKiB: number | undefined
  /** User + system CPU time of the whole tree (GNU time), ms; undefined without GNU time. */
  cpuMs: number | undefined
  exitCode: number | null
  stdout: string
  stderr: string
}

/**
 * The environment children get: the parent's, minus what would change how node starts, and minus
 * proxy settings: every request here goes to loopback, and a proxy in between would be measured.
 */
export function childEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => name !== 'NODE_OPTIONS' && !/^(https?|all|no)_proxy$/i.test(name))
  )
  return { ...env, ...extra }
}

export async function measure(
  command: string,
  args: string[],
  options: { env?: NodeJS.ProcessEnv; timeoutMs?: number } = {}
): Promise<Measured> {
  const dir = hasGnuTime ? await mkdtemp(join(os.tmpdir(), 'bench-time-')) : undefined
  const timeFile = dir === undefined ? undefined : join(dir, 'time.txt')
  const [file, argv] = timeFile === undefined ? [command, args] : [GNU_TIME, ['-v', '-o', timeFile, command, ...args]]
  try {
    const started = performance.now()
    const child = spawn(file, argv, { env: options.env ?? childEnv(), stdio: ['ignore', 'pipe', 'pipe'] })
    let stdout = ''
    let stderr = ''
    child.stdout.setEncoding('utf8').on('data', (s: string) => (stdout += s))
    child.stderr.setEncoding('utf8').on('data', (s: string) => (stderr += s))
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 15 * 60_000)
    const exitCode = await new Promise<number | null>((resolve, reject) => {
      child.on('error', reject)
      child.on('exit', (code) => resolve(code))
    })
    const wallMs = performance.now() - started
    clearTimeout(timer)
    // Let the pipes drain after the exit was timed.
    if (child.stdout.readable) await new Promise((resolve) => child.stdout.once('close', resolve))
    let peakRssKiB: number | undefined
    let cpuMs: number | undefined
    if (timeFile !== undefined) {
      const report = await readFile(timeFile, 'utf8').catch(() => '')
      const rss = /Maximum resident set size \(kbytes\): (\d+)/.exec(report)
      if (rss) peakRssKiB = Number(rss[1])
      const user = /User time \(seconds\): ([\d.]+)/.exec(report)
      const system = /System time \(seconds\): ([\d.]+)/.exec(report)
      if (user && system) cpuMs = (Number(user[1]) + Number(system[1])) * 1000
    }
    return { startedAt: started, wallMs, peakRssKiB, cpuMs, exitCode, stdout, stderr }
  } finally {
    if (dir !== undefined) await rm(dir, { recursive: true, force: true })
  }
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  const mid = Math.floor(sorted.length / 2)
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2
}

/**
 * A distribution-free interval that holds the true median with at least 95% confidence: the
 * k-th smallest and k-th largest value, for the largest k with P(Binomial(n, 1/2) < k) <= 2.5%.
 * It assumes nothing about the noise (a loaded disk makes it far from normal); with few values it
 * is the whole range (n <= 8; with 5 or fewer even that holds the median with less than 95%
 * confidence), and it narrows as rounds are added.
 */
export function medianInterval(values: readonly number[]): [number, number] {
  const sorted = [...values].sort((a, b) => a - b)
  const n = sorted.length
  // P(X = i) for X ~ Binomial(n, 1/2), summed while the tail stays within 2.5%.
  let k = 1
  let tail = 0.5 ** n
  for (let term = 0.5 ** n, i = 0; ;) {
    term = (term * (n - i)) / (i + 1)
    i++
    if (tail + term > 0.025) break
    tail += term
    k = i + 1
  }
  return [sorted[Math.min(k, n) - 1]!, sorted[Math.max(n - k, 0)]!]
}
