/** Markdown helpers and the machine description for docs/benchmarks.md (generic facts only, no paths). */
import { readFile, readdir, realpath } from 'node:fs/promises'
import os from 'node:os'

export function table(header: string[], rows: string[][]): string {
  const line = (cells: string[]): string => `| ${cells.join(' | ')} |`
  return [line(header), line(header.map(() => '---')), ...rows.map(line)].join('\n')
}

export function formatMs(ms: number): string {
  return ms >= 10_000
    ? `${(ms / 1000).toFixed(1)} s`
    : ms >= 1000
      ? `${(ms / 1000).toFixed(2)} s`
      : `${ms.toFixed(0)} ms`
}

export function formatMiB(bytes: number): string {
  return bytes >= 1024 ** 3
    ? `${(bytes / 1024 ** 3).toFixed(2)} GiB`
    : `${(bytes / 1024 ** 2).toFixed(bytes >= 100 * 1024 ** 2 ? 0 : 1)} MiB`
}

export function mark(ok: boolean): string {
  return ok ? 'met' : '**not met**'
}

export interface Machine {
  cpu: string
  cores: number
  memory: string
  node: string
  os: string
  date: string
  /** File system the timed runs write to, e.g. "ext4, mounted with discard". */
  filesystem: string
  /** Whether the VM hands the memory it frees back to its host (see freePageReporting). */
  freePageReporting: boolean
}

/** `nodeVersion`: the version of the node that runs the action. */
export async function describeMachine(outputDir: string, nodeVersion: string): Promise<Machine> {
  const cpus = os.cpus()
  const release = await readFile('/etc/os-release', 'utf8').catch(() => '')
  const distro = /^PRETTY_NAME="?([^"\n]+)"?/m.exec(release)?.[1]
  return {
    cpu: (cpus[0]?.model ?? 'unknown').replace(/\s+/g, ' ').trim(),
    cores: cpus.length,
    memory: `${(os.totalmem() / 1024 ** 3).toFixed(1)} GiB`,
    node: nodeVersion,
    // Kernel major.minor only: the full release string can name the host's build.
    os: `${distro ?? os.type()} (${os.type()} ${os.release().split('.').slice(0, 2).join('.')}, ${os.arch()})`,
    date: new Date().toISOString().replace(/\.\d+Z$/, 'Z'),
    filesystem: await filesystemOf(outputDir),
    freePageReporting: await freePageReporting()
  }
}

/**
 * Whether a virtio balloon with free page reporting is there (virtio device 5, feature bit 5): the
 * guest hands memory it frees back to its host, and the next use of such a page takes a fault on
 * the host, so writes (new page cache) and a process's own new memory may cost more CPU in some
 * phases than in others. On the machine of docs/benchmarks.md the same file writes took two to
 * four times the system time in runs minutes apart.
 */
async function freePageReporting(): Promise<boolean> {
  const devices = await readdir('/sys/bus/virtio/devices').catch((): string[] => [])
  for (const device of devices) {
    const [id, features] = await Promise.all(
      ['device', 'features'].map((file) =>
        readFile(`/sys/bus/virtio/devices/${device}/${file}`, 'utf8').catch(() => '')
      )
    )
    if (id?.trim() === '0x0005' && features?.[5] === '1') return true
  }
  return false
}

/** Type and the mount option that matters here (discard), never the device or mount point. */
async function filesystemOf(dir: string): Promise<string> {
  const path = await realpath(dir).catch(() => dir)
  const mounts = (await readFile('/proc/mounts', 'utf8').catch(() => ''))
    .split('\n')
    .map((line) => line.split(' '))
    .filter((f) => f.length >= 4 && (path === f[1] || path.startsWith(f[1] === '/' ? '/' : `${f[1]}/`)))
    .sort((a, b) => b[1]!.length - a[1]!.length)
  const mount = mounts[0]
  if (mount === undefined) return 'unknown'
  return `${mount[2]}${mount[3]!.split(',').includes('discard') ? ', mounted with discard' : ''}`
}

export function machineLine(m: Machine): string {
  const balloon = m.freePageReporting
    ? '; a VM that hands freed memory back to its host (virtio-balloon free page reporting)'
    : ''
  return (
    `${m.cpu}, ${m.cores} cores, ${m.memory} memory${balloon}; ` +
    `Node ${m.node}; ${m.os}; output folders on ${m.filesystem}; ${m.date}.`
  )
}

/** CPU time counters from /proc/stat (Linux), to report how much the hypervisor took during the run. */
export interface CpuTicks {
  total: number
  steal: number
}

export async function readCpuTicks(): Promise<CpuTicks | undefined> {
  const stat = await readFile('/proc/stat', 'utf8').catch(() => '')
  const fields = /^cpu\s+(.*)$/m.exec(stat)?.[1]?.trim().split(/\s+/).map(Number)
  if (fields === undefined || fields.length < 8) return undefined
  // user nice system idle iowait irq softirq steal [guest guest_nice: already in user/nice]
  return { total: fields.slice(0, 8).reduce((a, b) => a + b, 0), steal: fields[7]! }
}

/** Share of CPU time stolen by the hypervisor between two readings, in percent. */
export function stealPercent(from: CpuTicks | undefined, to: CpuTicks | undefined): number | undefined {
  if (from === undefined || to === undefined || to.total <= from.total) return undefined
  return (100 * (to.steal - from.steal)) / (to.total - from.total)
}
