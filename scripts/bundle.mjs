// `npm run bundle`: builds what users run, from an empty dist/ so no stale chunk survives.
//   dist/index.js   the action (action.yml runs it)
//   dist/cli/       the docs-admin CLI, bundled apart (ncc numbers its chunks per build)
//   dist/cli.js     the CLI's executable entry (package.json `bin`); these two are all `npm pack` ships
// ncc can exit 0 and still write a bundle that does not load, so both are smoke-run after.
import { execFileSync } from 'node:child_process'
import { chmodSync, rmSync, writeFileSync } from 'node:fs'

const ncc = (entry, out) =>
  execFileSync('npx', ['ncc', 'build', entry, '-o', out, '--license', 'licenses.txt'], { stdio: 'inherit' })

rmSync('dist', { recursive: true, force: true })
ncc('src/index.ts', 'dist')
ncc('src/cli/main.ts', 'dist/cli')
writeFileSync(
  'dist/cli.js',
  '#!/usr/bin/env node\n' +
    '// The docs-admin CLI: `docs-admin --help` once installed, or `node dist/cli.js --help`.\n' +
    "import './cli/index.js'\n"
)
chmodSync('dist/cli.js', 0o755)
execFileSync(process.execPath, ['scripts/smoke-dist.mjs'], { stdio: 'inherit' })
