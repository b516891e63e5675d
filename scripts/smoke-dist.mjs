// ncc can exit 0 and still write a bundle that does not load: run each built entry once in a way
// that touches the whole start-up and expect its own answer, proof that the module graph loaded.
//   dist/index.js with no inputs: the action's input error.
//   dist/cli.js export with no key: the CLI's usage error (exit 2).
import { spawnSync } from 'node:child_process'

const env = Object.fromEntries(
  Object.entries(process.env).filter(
    ([name]) => !name.startsWith('INPUT_') && !name.startsWith('GITHUB_') && !name.startsWith('DOCS_ADMIN_')
  )
)
const checks = [
  { entry: 'dist/index.js', args: [], status: 1, expect: '::error::Invalid input' },
  { entry: 'dist/cli.js', args: ['export'], status: 2, expect: 'error: no API key' },
  { entry: 'dist/cli.js', args: ['export', '--help'], status: 0, expect: 'Usage: docs-admin export' }
]
for (const check of checks) {
  const result = spawnSync(process.execPath, [check.entry, ...check.args], { env, encoding: 'utf8', timeout: 20_000 })
  const printed = `${result.stdout}${result.stderr}`
  if (result.status !== check.status || !printed.includes(check.expect)) {
    console.error(`${check.entry} ${check.args.join(' ')} did not run as expected (exit ${result.status}):\n${printed}`)
    process.exit(1)
  }
}
console.log('dist/index.js and dist/cli.js load and run.')
