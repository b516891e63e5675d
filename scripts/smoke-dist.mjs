// ncc can exit 0 and still write a bundle that does not load: run it once with no inputs and
// expect the action's own input error, proof that the whole module graph loaded and ran.
import { spawnSync } from 'node:child_process'

const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('INPUT_') && name !== 'GITHUB_OUTPUT'))
const result = spawnSync(process.execPath, ['dist/index.js'], { env, encoding: 'utf8', timeout: 20_000 })
const printed = `${result.stdout}${result.stderr}`
if (result.status !== 1 || !printed.includes('::error::Invalid input')) {
  console.error(`dist/index.js did not run as expected (exit ${result.status}):\n${printed}`)
  process.exit(1)
}
console.log('dist/index.js loads and runs.')
