// `npm run demo` and its modes run to the end against the built dist/, as a person runs them.
import { describe, expect, test } from '@jest/globals'
import { spawn } from 'node:child_process'
import * as path from 'node:path'

const ROOT = path.resolve(import.meta.dirname, '../..')

function demo(mode: string | undefined): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve, reject) => {
    const args = ['--import', 'tsx', 'scripts/demo.ts', ...(mode === undefined ? [] : [mode])]
    const child = spawn(process.execPath, args, { cwd: ROOT, env: { ...process.env, NO_COLOR: '1' } })
    let out = ''
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()))
    child.stderr.on('data', (chunk: Buffer) => (out += chunk.toString()))
    child.on('error', reject)
    child.on('close', (code) => resolve({ code, out }))
  })
}

describe('npm run demo', () => {
  test('preview: two pushes, one comment on the pull request edited, the deployment linked', async () => {
    const { code, out } = await demo('preview')
    expect(code).toBe(0)
    expect(out).toContain('✅ **Ready**: branch `docs-install`')
    expect(out).toMatch(/github-actions\[bot\] \(edited \d+×\)/)
    expect(out).toContain('success: https://proj_123-docs-install.mintlify.app')
    // The runner's log, not its workflow commands.
    expect(out).not.toMatch(/^::(group|warning|debug)::/m)
  }, 60_000)

  test('an unknown mode says which there are', async () => {
    const { code, out } = await demo('bogus')
    expect(code).toBe(2)
    expect(out).toContain('`preview`')
  }, 30_000)
})
