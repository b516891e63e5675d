// `npm run demo`: starts the built-in simulator, runs the built action (dist/index.js) exactly
// as the runner would to export a docs site, and leaves the unpacked site in ./demo-output/site.
import { readdir, rm } from 'node:fs/promises'
import * as path from 'node:path'
import { startSimulator } from '../simulator/server.js'
import { runDist } from '../test/support/runner.js'

const workspace = path.resolve('demo-output')
const simulator = await startSimulator({ exportJob: { durationMs: 3000, queuedMs: 500 } })
try {
  console.log(`Simulator: API ${simulator.apiUrl}, storage ${simulator.storageUrl}\n`)
  await rm(path.join(workspace, 'tmp'), { recursive: true, force: true })
  const run = await runDist({
    inputs: {
      operation: 'export',
      'api-key': simulator.apiKey,
      'base-url': simulator.apiUrl,
      domain: 'docs.example.com',
      'poll-interval': '500ms',
      path: 'site',
      'export-version': 'demo',
      'helm-values-file': 'values.static-export.yaml'
    },
    env: { GITHUB_WORKSPACE: workspace, RUNNER_TEMP: path.join(workspace, 'tmp') }
  })
  process.stdout.write(run.stdout.replace(/^::(debug|add-mask)::.*\n/gm, ''))
  process.stderr.write(run.stderr)
  console.log('\nOutputs:')
  for (const [name, value] of Object.entries(run.outputs)) console.log(`  ${name}: ${value.replace(/\n/g, '\n    ')}`)
  if (run.exitCode !== 0) {
    console.error(`\nThe action failed (exit ${run.exitCode}).`)
    process.exitCode = 1
  } else {
    const site = run.outputs['site-path'] ?? ''
    console.log(`\nThe unpacked site is in ${path.relative(process.cwd(), site)}: ${(await readdir(site)).join(', ')}`)
  }
} finally {
  await simulator.close()
}
