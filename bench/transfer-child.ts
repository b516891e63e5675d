/**
 * The action's download + unpack, alone in its own process, so that its wall time and peak RSS
 * can be compared with the shell pipelines process for process. Bundled to plain JS by
 * bench/download.ts before the runs (no TypeScript compile inside the measured time).
 *
 *   node transfer-child.mjs '{"url":"...","sizeBytes":123,"archiveFile":"/abs/a.tar.gz","siteDir":"/abs/site"}'
 *
 * Prints one JSON line: the result, the time inside transferBundle, and maxRSS (KiB).
 */
import { dirname } from 'node:path'
import { systemClock } from '../src/common/clock.js'
import type { Logger } from '../src/common/log.js'
import { transferBundle } from '../src/transfer/transfer.js'

export interface ChildRequest {
  url: string
  sizeBytes: number
  archiveFile: string
  siteDir: string
}

export interface ChildReport {
  transferMs: number
  maxRssKiB: number
  sha256: string
  sizeBytes: number
  files: number
  log: string[]
}

async function main(): Promise<void> {
  const request = JSON.parse(process.argv[2] ?? '') as ChildRequest
  const lines: string[] = []
  // Kept, not printed: the real action writes these few lines to the job log.
  const log: Logger = {
    debug: () => {},
    info: (m) => void lines.push(m),
    warning: (m) => void lines.push(`warning: ${m}`),
    group: (_title, fn) => fn()
  }
  const started = performance.now()
  const result = await transferBundle({
    link: { url: request.url, expiresAt: undefined, sizeBytes: request.sizeBytes },
    refreshLink: () => Promise.reject(new Error('the benchmark link does not expire')),
    archiveFolder: dirname(request.archiveFile),
    siteDir: request.siteDir,
    limits: { maxBytes: Infinity },
    deadline: Infinity,
    log,
    clock: systemClock
  })
  const transferMs = performance.now() - started
  const files = /: (\d+) files/.exec(lines.find((l) => l.startsWith('Unpacked')) ?? '')?.[1]
  const report: ChildReport = {
    transferMs,
    maxRssKiB: process.resourceUsage().maxRSS,
    sha256: result.sha256,
    sizeBytes: result.sizeBytes,
    files: Number(files ?? NaN),
    log: lines
  }
  process.stdout.write(`${JSON.stringify(report)}\n`)
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`)
  process.exit(1)
})
