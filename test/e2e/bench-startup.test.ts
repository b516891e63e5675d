// Start-up (issue 42): an operation loads only what it uses before its first request to the service. The built
// dist/ runs as the runner starts it, once per operation, with module hooks that list the files node loads; the
// run ends at its first request (bench/startup.ts, which also times it: nothing here is timed).
import { readFile, readdir } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { beforeAll, describe, expect, test } from '@jest/globals'
import { OPERATIONS, type Operation, loadedBeforeFirstRequest } from '../../bench/startup.js'
import { DIST_ENTRY } from '../support/runner.js'

/** What marks each part in the bundle: the modules webpack concatenated say their source; yauzl by its text. */
const PARTS = {
  'the agent flow': 'CONCATENATED MODULE: ./src/agent/',
  'the export flow': 'CONCATENATED MODULE: ./src/export/',
  'the site check': 'CONCATENATED MODULE: ./src/verify/',
  'the archive readers': 'CONCATENATED MODULE: ./src/archive/',
  Octokit: 'CONCATENATED MODULE: ./node_modules/@octokit/core/',
  yauzl: 'invalid central directory file header signature'
} as const
type Part = keyof typeof PARTS

const DIST = dirname(DIST_ENTRY)
const texts = new Map<string, string>()

beforeAll(async () => {
  for (const name of await readdir(DIST)) {
    if (name.endsWith('.js')) texts.set(name, await readFile(join(DIST, name), 'utf8'))
  }
})

const operation = (name: Operation['name']): Operation => OPERATIONS.find((op) => op.name === name)!

/** The parts whose code is in the files `name` loads before its first request. */
async function partsLoaded(name: Operation['name']): Promise<Part[]> {
  const files = await loadedBeforeFirstRequest(operation(name), process.execPath)
  expect(files.map((f) => f.name)).toContain('index.js')
  const loaded = files.map((f) => texts.get(f.name) ?? '')
  return (Object.keys(PARTS) as Part[]).filter((part) => loaded.some((text) => text.includes(PARTS[part])))
}

describe('what each operation loads before its first request', () => {
  test('every part is found in the bundle, so that its absence below means something', () => {
    const all = [...texts.values()]
    for (const marker of Object.values(PARTS))
      expect([marker, all.some((t) => t.includes(marker))]).toEqual([marker, true])
  })

  test('export: its flow; not the agent flow or Octokit, nor yet the site check or the archives', async () => {
    // The site check and the archive readers load with the download, after the job's requests.
    expect(await partsLoaded('export')).toEqual(['the export flow'])
  }, 30_000)

  // Not yauzl, the archive readers, the site check, the export flow or Octokit.
  test('agent with a prompt: its own flow and nothing else it checks', async () => {
    expect(await partsLoaded('agent')).toEqual(['the agent flow'])
  }, 30_000)

  test('deploy: none of these parts', async () => {
    expect(await partsLoaded('deploy')).toEqual([])
  }, 30_000)
})
