// scripts/audit.mjs audits what dist/ bundles, though every package is a devDependency: the packages
// src/ imports and what they depend on. Its parts on small inputs, then the script on this repository
// with an `npm` that answers a prepared report (the registry's audit service is not needed).
import { spawnSync } from 'node:child_process'
import { chmodSync, readFileSync, writeFileSync } from 'node:fs'
import * as path from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterEach, beforeEach, describe, expect, test } from '@jest/globals'
import { importedPackages, packageClosure, shippedVulnerabilities } from '../../scripts/audit.mjs'
import { tempFolder } from '../support/temp.js'

const ROOT = fileURLToPath(new URL('../..', import.meta.url))
const LOCK = JSON.parse(readFileSync(path.join(ROOT, 'package-lock.json'), 'utf8')) as Parameters<
  typeof packageClosure
>[0]

describe('what the bundle can contain', () => {
  test('the packages a source imports: bare specifiers cut to the package, no built-ins, no relative paths', () => {
    const source = [
      "import yauzl from 'yauzl'",
      "import type { HttpClient } from '@actions/http-client/lib/proxy'",
      "import {\n  a,\n  b\n} from 'semver'",
      "export * from './local.js'",
      "const github = await import('@actions/github')",
      "import 'node:fs'",
      "import { join } from 'path'",
      "const slash = Buffer.from('/')"
    ].join('\n')
    expect([...importedPackages(source)].sort()).toEqual(['@actions/github', '@actions/http-client', 'semver', 'yauzl'])
  })

  test('the closure follows node: a nested copy first, then the copy further up', () => {
    const lock = {
      packages: {
        '': { devDependencies: { a: '1', jest: '1' } },
        'node_modules/a': { dependencies: { b: '2', c: '1' } },
        'node_modules/a/node_modules/b': { dependencies: { c: '1' } },
        'node_modules/b': {},
        'node_modules/c': { optionalDependencies: { d: '1' } },
        'node_modules/jest': { dependencies: { b: '1' } }
      }
    }
    expect([...packageClosure(lock, ['a'])].sort()).toEqual([
      'node_modules/a',
      'node_modules/a/node_modules/b',
      'node_modules/c'
    ])
  })

  test("this repository: the toolkit and what it depends on, none of the build's tools", () => {
    const shipped = packageClosure(LOCK, ['@actions/core', '@actions/github', '@actions/http-client', 'yauzl'])
    for (const bundled of ['node_modules/@actions/core', 'node_modules/@octokit/core', 'node_modules/pend'])
      expect([bundled, shipped.has(bundled)]).toEqual([bundled, true])
    for (const tool of ['node_modules/jest', 'node_modules/typescript', 'node_modules/@vercel/ncc'])
      expect([tool, shipped.has(tool)]).toEqual([tool, false])
  })

  test('only the advisories of shipped packages count', () => {
    const report = {
      vulnerabilities: {
        pend: { name: 'pend', severity: 'high', nodes: ['node_modules/pend'] },
        jest: { name: 'jest', severity: 'critical', nodes: ['node_modules/jest'] }
      }
    }
    expect(shippedVulnerabilities(report, new Set(['node_modules/pend'])).map((v) => v.name)).toEqual(['pend'])
  })
})

describe('the script', () => {
  let bin: { dir: string; remove: () => Promise<void> }
  beforeEach(async () => {
    bin = await tempFolder()
  })
  afterEach(async () => {
    await bin.remove()
  })

  /** Runs scripts/audit.mjs with an `npm` on PATH that prints `report` as `npm audit --json` would. */
  function audit(report: unknown): { status: number | null; stdout: string } {
    const reportFile = path.join(bin.dir, 'report.json')
    writeFileSync(reportFile, JSON.stringify(report))
    const npm = path.join(bin.dir, 'npm')
    writeFileSync(npm, `#!/bin/sh\n[ "$1 $2" = "audit --json" ] || exit 9\ncat '${reportFile}'\nexit 1\n`)
    chmodSync(npm, 0o755)
    const result = spawnSync(process.execPath, ['scripts/audit.mjs'], {
      cwd: ROOT,
      encoding: 'utf8',
      env: { ...process.env, PATH: `${bin.dir}${path.delimiter}${process.env.PATH ?? ''}` }
    })
    return { status: result.status, stdout: result.stdout }
  }

  const advisory = (name: string, severity: string) => ({
    name,
    severity,
    range: '<9',
    nodes: [`node_modules/${name}`],
    via: [{ title: `${name} is broken`, url: `https://github.com/advisories/${name}` }]
  })

  test('a high advisory in a bundled package fails, naming it; one in a build tool does not count', () => {
    const bundled = audit({ vulnerabilities: { pend: advisory('pend', 'high') }, metadata: {} })
    expect(bundled.status).toBe(1)
    expect(bundled.stdout).toMatch(/npm audit of the \d+ packages bundled into dist\/ \(@actions\/core, .*yauzl and/)
    expect(bundled.stdout).toContain('0 critical, 1 high, 0 moderate, 0 low')
    expect(bundled.stdout).toContain('high: pend <9: pend is broken (https://github.com/advisories/pend)')
    const tool = audit({ vulnerabilities: { typescript: advisory('typescript', 'critical') }, metadata: {} })
    expect([tool.status, tool.stdout]).toEqual([0, expect.stringContaining('0 critical, 0 high')])
  })

  test('an audit service that refuses is said plainly and skipped', () => {
    const refused = audit({ error: { summary: '405 Method Not Allowed' } })
    expect(refused).toEqual({
      status: 0,
      stdout: 'npm audit could not run: 405 Method Not Allowed\nSkipped (set AUDIT_REQUIRED=1 to fail instead).\n'
    })
  })
})
