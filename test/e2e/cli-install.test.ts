// The CLI installs as README says: `npm pack` makes the tarball a release carries, `npm install -g`
// takes it with no registry at hand (nothing but the bundle is installed), and the installed
// `docs-admin` runs an export against the simulator as a user would run it.
import { spawnSync } from 'node:child_process'
import { existsSync, readFileSync, readdirSync } from 'node:fs'
import * as path from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, jest, test } from '@jest/globals'
import { cliTarball } from '../../scripts/release.mjs'
import { type Simulator, startSimulator } from '../../simulator/server.js'
import { spawnCommand } from '../support/runner.js'
import { tempFolder } from '../support/temp.js'

const ROOT = fileURLToPath(new URL('../..', import.meta.url))
const PACKAGE = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
  name: string
  version: string
  repository: { url: string }
}

// Packing and installing take npm a few seconds each on a busy machine.
jest.setTimeout(120_000)

/** The environment of a user's shell: this node first on PATH, nothing of a run's own inputs. */
const shell = {
  ...Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !/^(INPUT_|GITHUB_|DOCS_ADMIN_|npm_)/.test(name))
  ),
  PATH: `${path.dirname(process.execPath)}${path.delimiter}${process.env.PATH ?? ''}`
}

function run(command: string, args: string[], options: { cwd?: string; env?: Record<string, string> } = {}) {
  const result = spawnSync(command, args, {
    cwd: options.cwd ?? ROOT,
    encoding: 'utf8',
    env: { ...shell, ...options.env },
    maxBuffer: 64 * 1024 * 1024
  })
  return { status: result.status, stdout: result.stdout, stderr: result.stderr }
}

describe('the CLI from its packed tarball', () => {
  let scratch: { dir: string; remove: () => Promise<void> }
  let tarball: string
  let prefix: string
  let installed: ReturnType<typeof run>
  let sim: Simulator

  beforeAll(async () => {
    scratch = await tempFolder()
    const packed = run('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', scratch.dir])
    if (packed.status !== 0) throw new Error(`npm pack failed: ${packed.stderr}`)
    tarball = path.join(scratch.dir, (JSON.parse(packed.stdout) as Array<{ filename: string }>)[0]?.filename ?? '')
    prefix = path.join(scratch.dir, 'prefix')
    // Offline, with an empty cache and a registry that does not exist: anything to fetch would fail.
    installed = run('npm', [
      'install',
      '--global',
      '--prefix',
      prefix,
      '--offline',
      '--cache',
      path.join(scratch.dir, 'cache'),
      '--registry',
      'http://127.0.0.1:9/',
      '--no-audit',
      '--no-fund',
      tarball
    ])
    sim = await startSimulator({ exportJob: { durationMs: 40, queuedMs: 0 } })
  })
  afterAll(async () => {
    await sim?.close()
    await scratch?.remove()
  })

  test('the tarball is the one the release script attaches and README installs', () => {
    const release = cliTarball(PACKAGE, PACKAGE.version)
    expect(path.basename(tarball)).toBe(release.file)
    const readme = readFileSync(path.join(ROOT, 'README.md'), 'utf8')
    expect(readme).toContain(`npm install -g ${release.url}`)
    // Never a registry name the project does not own.
    expect(readme).not.toMatch(/npx [^\n`]*docs-admin-action|npm (?:i|install) [^\n`]*-g docs-admin/)
  })

  test('installs from the tarball alone: the bundle, nothing else', () => {
    expect([installed.status, installed.stderr]).toEqual([0, expect.any(String)])
    const lib = path.join(prefix, 'lib', 'node_modules')
    expect(readdirSync(lib)).toEqual([PACKAGE.name])
    const home = path.join(lib, PACKAGE.name)
    expect(existsSync(path.join(home, 'node_modules'))).toBe(false)
    const files = readdirSync(home, { recursive: true }).map(String).sort()
    // What a user needs: the CLI's entry, its bundle and the bundled licenses; not the action's bundle.
    expect(files.filter((file) => !file.startsWith(`dist${path.sep}cli${path.sep}`))).toEqual([
      'LICENSE',
      'README.md',
      'dist',
      'dist/cli',
      'dist/cli.js',
      'package.json'
    ])
    expect(files).toContain('dist/cli/licenses.txt')
  })

  test('`docs-admin --help` runs from the install, with the exit codes', () => {
    const help = run(path.join(prefix, 'bin', 'docs-admin'), ['--help'])
    expect(help.status).toBe(0)
    expect(help.stdout).toContain('Usage: docs-admin <operation> [flags]')
    expect(help.stdout).toMatch(/^Exit codes:\n {2}0 {4}success\n/m)
  })

  test('`docs-admin export` against the simulator: the site unpacked, the outputs as JSON', async () => {
    const work = await tempFolder()
    try {
      // Spawned, not run synchronously: the simulator answers from this process.
      const exported = await spawnCommand(
        path.join(prefix, 'bin', 'docs-admin'),
        ['export', '--domain', 'docs.acme.com', '--path', 'site', '--poll-interval', '20ms', '--json'],
        { ...shell, DOCS_ADMIN_API_KEY: sim.apiKey, DOCS_ADMIN_BASE_URL: sim.apiUrl, TMPDIR: work.dir },
        work.dir
      )
      expect([exported.exitCode, exported.stderr]).toEqual([0, expect.stringContaining('Unpacked the tar.gz bundle')])
      expect(JSON.parse(exported.stdout)).toMatchObject({
        status: 'completed',
        'site-path': path.join(work.dir, 'site')
      })
      expect(existsSync(path.join(work.dir, 'site', 'index.html'))).toBe(true)
    } finally {
      await work.remove()
    }
  })
})
