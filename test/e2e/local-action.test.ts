// `npm run local` and `npm run local-action` (README's Development section) run src/main.ts through
// @github/local-action. That package imports some packages it does not declare (undici, in its
// @actions/github stubs), so they must be devDependencies here; this checks, in a second or two and
// without the simulator, that its command line loads all of its modules.
import { spawnSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { expect, test } from '@jest/globals'

const ROOT = fileURLToPath(new URL('../..', import.meta.url))

test('npm run local-action loads @github/local-action with every module it imports', () => {
  // `--help` makes it parse its command line, after loading the command that runs an action and its stubs.
  const run = spawnSync('npm', ['run', '-s', 'local-action', '--', '--help'], {
    cwd: ROOT,
    encoding: 'utf8',
    timeout: 60_000
  })
  expect(run.stderr).not.toContain('ERR_MODULE_NOT_FOUND')
  expect(run.status).toBe(0)
  expect(run.stdout).toContain('Usage: local-action')
})
