// Standalone simulator: `npm run simulator -- --port 8787`. Runs until SIGINT/SIGTERM.
import { parseArgs } from 'node:util'
import { fixtureSiteEntries } from './archives.js'
import { startSimulator } from './server.js'
import type { SimulatorOptions } from './server.js'

const USAGE = `Usage: tsx simulator/cli.ts [options]

  --port N            API port (default 8787; 0 picks a free port)
  --storage-port N    object-storage port (default: API port + 1, or 0 when --port is 0)
  --host HOST         listen address (default 127.0.0.1)
  --api-key KEY       admin API key clients must send (default dsk_test_simulator)
  --path-prefix P     serve the API under a path prefix, e.g. /docs-api
  --job-duration D    export/agent job and deployment duration, e.g. 300ms, 5s, 1m (default 5s)
  --format F          bundle format: tar.gz | tar | zip (default tar.gz)
  --pages N           guide pages in the generated site (default 5)
  --link-ttl D        bundle link lifetime, e.g. 15m (default 15m)
  --github-user U=R   a GitHub user's role on the repository, e.g. octocat=write (repeatable;
                      anyone else has read)
  -h, --help          show this help`

/** Parses '250', '250ms', '5s', '2m' into milliseconds. */
function parseDuration(value: string): number {
  const match = /^(\d+(?:\.\d+)?)(ms|s|m|h)?$/.exec(value.trim())
  if (!match) throw new Error(`invalid duration: ${value} (use e.g. 300ms, 5s, 1m)`)
  const unit = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 }[(match[2] ?? 'ms') as 'ms' | 's' | 'm' | 'h']
  return Math.round(Number(match[1]) * unit)
}

function parsePort(value: string | undefined, name: string): number | undefined {
  if (value === undefined) return undefined
  const port = Number(value)
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`invalid ${name}: ${value}`)
  return port
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      port: { type: 'string' },
      'storage-port': { type: 'string' },
      host: { type: 'string' },
      'api-key': { type: 'string' },
      'path-prefix': { type: 'string' },
      'job-duration': { type: 'string' },
      format: { type: 'string' },
      pages: { type: 'string' },
      'link-ttl': { type: 'string' },
      'github-user': { type: 'string', multiple: true },
      help: { type: 'boolean', short: 'h' }
    },
    strict: true
  })
  if (values.help) {
    console.log(USAGE)
    return
  }

  const apiPort = parsePort(values.port, '--port') ?? 8787
  const storagePort = parsePort(values['storage-port'], '--storage-port') ?? (apiPort === 0 ? 0 : apiPort + 1)
  const format = values.format ?? 'tar.gz'
  if (format !== 'tar.gz' && format !== 'tar' && format !== 'zip') throw new Error(`invalid --format: ${format}`)
  const pages = values.pages === undefined ? undefined : Number(values.pages)
  if (pages !== undefined && (!Number.isInteger(pages) || pages < 0))
    throw new Error(`invalid --pages: ${values.pages}`)
  // A human watching the CLI should see queued/running for a few seconds, hence 5s by default.
  const durationMs = parseDuration(values['job-duration'] ?? '5s')
  const permissions: Record<string, string> = {}
  for (const pair of values['github-user'] ?? []) {
    const [login, role] = pair.split('=')
    if (!login || !role) throw new Error(`invalid --github-user: ${pair} (use LOGIN=ROLE, e.g. octocat=write)`)
    permissions[login] = role
  }

  const options: SimulatorOptions = {
    apiPort,
    storagePort,
    host: values.host,
    apiKey: values['api-key'],
    pathPrefix: values['path-prefix'],
    exportJob: { durationMs, queuedMs: Math.min(1000, Math.floor(durationMs / 5)) },
    agent: { durationMs },
    deployment: { durationMs, queuedMs: Math.min(1000, Math.floor(durationMs / 5)) },
    github: { permissions },
    bundle: {
      format,
      entries: fixtureSiteEntries({ pages }),
      linkTtlMs: values['link-ttl'] === undefined ? undefined : parseDuration(values['link-ttl'])
    }
  }
  const sim = await startSimulator(options)
  const example =
    `curl -s -X POST -H 'Authorization: Bearer ${sim.apiKey}' -H 'Content-Type: application/json' ` +
    `-d '{"domain":"docs.example.com"}' ${sim.apiUrl}/v1/static-export/jobs`

  console.log(`Docs service simulator is running.
  API URL:        ${sim.apiUrl}
  Storage URL:    ${sim.storageUrl}
  GitHub API URL: ${sim.githubApiUrl}
  API key:        ${sim.apiKey}
  Agent job:      project proj_123, job job_abc
  Deployments:    any project id, e.g. POST ${sim.apiUrl}/v1/project/update/proj_123
  Automations:    project proj_123, automation wf_changelog (also wf_paused, inactive; wf_on_push, not on
                  a custom schedule), e.g. POST ${sim.apiUrl}/v1/workflow/proj_123/wf_changelog/trigger

Example:
  ${example}

Press Ctrl+C to stop.`)

  let stopping = false
  const stop = (signal: string): void => {
    if (stopping) return
    stopping = true
    console.log(`\nReceived ${signal}, shutting down (${sim.requests.length} requests served).`)
    sim.close().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error(error)
        process.exit(1)
      }
    )
  }
  process.on('SIGINT', () => stop('SIGINT'))
  process.on('SIGTERM', () => stop('SIGTERM'))
}

main().catch((error: unknown) => {
  console.error(`simulator: ${error instanceof Error ? error.message : String(error)}`)
  console.error(USAGE)
  process.exit(1)
})
