/**
 * One export of given archive bytes by the built action: a simulator of its own serves the bytes
 * as the export's bundle, and dist/index.js runs as the runner runs it (runDist), `path` being
 * `site` in `workspace`. Returns how the step ended and what it said.
 */
import { startSimulator } from '../../simulator/server.js'
import { runDist } from './runner.js'

export interface BundleExport {
  exitCode: number | null
  /** The step's failure message (its `::error::` line, unescaped); undefined when it gave none. */
  error: string | undefined
  /** Its `::warning::` lines, unescaped. */
  warnings: string[]
  outputs: Record<string, string>
}

export interface BundleExportOptions {
  bundle: Buffer
  /** GITHUB_WORKSPACE; `path` is `site` in it. */
  workspace: string
  runnerTemp: string
  /** More inputs, or other values (`verify`, false unless given). */
  inputs?: Record<string, string>
  /** Pages the export job reports (what `verify` expects at least). */
  pageCount?: number
}

export async function exportBundle(options: BundleExportOptions): Promise<BundleExport> {
  const sim = await startSimulator({
    exportJob: { durationMs: 0, queuedMs: 0, pageCount: options.pageCount ?? 1 },
    bundle: { body: options.bundle }
  })
  try {
    const run = await runDist({
      inputs: {
        operation: 'export',
        'api-key': sim.apiKey,
        'base-url': sim.apiUrl,
        domain: 'docs.acme.com',
        'poll-interval': '10ms',
        path: 'site',
        verify: 'false',
        ...options.inputs
      },
      env: { GITHUB_WORKSPACE: options.workspace, RUNNER_TEMP: options.runnerTemp }
    })
    return {
      exitCode: run.exitCode,
      error: workflowMessages(run.stdout, 'error')[0],
      warnings: workflowMessages(run.stdout, 'warning'),
      outputs: run.outputs
    }
  } finally {
    await sim.close()
  }
}

/** The messages of one workflow command in stdout, as @actions/core escaped them undone. */
function workflowMessages(stdout: string, command: 'error' | 'warning'): string[] {
  const pattern = new RegExp(`^::${command}(?: [^:]*)?::(.*)$`, 'gm')
  return [...stdout.matchAll(pattern)].map(([, message = '']) =>
    message.replace(/%0D/g, '\r').replace(/%0A/g, '\n').replace(/%25/g, '%')
  )
}
