import { readFile, readdir, realpath } from 'node:fs/promises'
import { createRequire } from 'node:module'
import * as path from 'node:path'
import { describe, expect, test } from '@jest/globals'

const require = createRequire(import.meta.url)
const root = path.resolve(import.meta.dirname ?? path.dirname(new URL(import.meta.url).pathname), '..')

/** Every `.js` file below `dir`. */
async function jsFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => [])
  return entries.filter((e) => e.isFile() && e.name.endsWith('.js')).map((e) => path.join(e.parentPath ?? (e as { path: string }).path, e.name))
}

describe('the lazy stand-in for undici', () => {
  test('forwards every name the installed @actions and @octokit packages import from undici', async () => {
    const files = [
      ...(await jsFiles(path.join(root, 'node_modules/@actions'))),
      ...(await jsFiles(path.join(root, 'node_modules/@octokit')))
    ]
    const imported = new Set<string>()
    for (const file of files) {
      const text = await readFile(file, 'utf8')
      for (const match of text.matchAll(/import\s*\{([^}]*)\}\s*from\s*['"]undici['"]/g)) {
        for (const name of (match[1] ?? '').split(',')) imported.add(name.trim().split(/\s+as\s+/)[0] as string)
      }
      expect(text).not.toMatch(/import\s+\*\s+as\s+\w+\s+from\s+['"]undici['"]|require\(['"]undici['"]\)\.(?!ProxyAgent|fetch)/)
    }
    imported.delete('')
    expect(imported.size).toBeGreaterThan(0)
    const shim = require('undici-lazy') as Record<string, unknown>
    for (const name of imported) expect([name, typeof shim[name]]).toEqual([name, 'function'])
  })

  test('@actions/http-client gets the stand-in, not the real undici', async () => {
    const installed = await realpath(path.join(root, 'node_modules/@actions/http-client/node_modules/undici'))
    expect(installed).toBe(await realpath(path.join(root, 'deps/undici-lazy')))
  })

  test('after preload, ProxyAgent is the real one; before, it says what is missing', async () => {
    const shim = require('undici-lazy') as typeof import('undici-lazy')
    const real = require('undici-real') as { ProxyAgent: new (options: unknown) => { close(): Promise<void> } }
    await shim.preload()
    const agent = new shim.ProxyAgent({ uri: 'http://127.0.0.1:9' }) as { close(): Promise<void> }
    expect(agent).toBeInstanceOf(real.ProxyAgent)
    await agent.close()
  })
})
