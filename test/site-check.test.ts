// The site check as the export flow runs it, against the simulator: a bundle with no page at all would replace a
// site with nothing, so it is refused unless `verify: false`, and the previous site stays.
import { mkdir, readFile, readdir, writeFile } from 'node:fs/promises'
import * as path from 'node:path'
import { afterEach, beforeEach, describe, expect, test } from '@jest/globals'
import type { ArchiveEntry } from '../simulator/archives.js'
import { exportInputs, simulatorPerTest } from './support/harness.js'
import { tempFolder } from './support/temp.js'

const sims = simulatorPerTest()
let workspace: { dir: string; remove: () => Promise<void> }
beforeEach(async () => {
  workspace = await tempFolder()
})
afterEach(async () => workspace.remove())

const PREVIOUS_PAGES = 120

/** A site of 120 pages already in `path`, and a simulator whose job reports 120 pages and serves `entries`. */
async function previousSiteAnd(entries: ArchiveEntry[], format: 'tar.gz' | 'zip'): Promise<string> {
  await sims.start({
    exportJob: { durationMs: 3000, queuedMs: 500, pageCount: PREVIOUS_PAGES },
    bundle: { entries, format }
  })
  const site = path.join(workspace.dir, 'static-export')
  await mkdir(site)
  for (let page = 0; page < PREVIOUS_PAGES; page++) await writeFile(path.join(site, `page-${page}.html`), 'previous')
  return site
}

async function runExport(verify: string) {
  const { sim } = sims.current
  const inputs = exportInputs(sim, { 'poll-interval': '1s', 'max-poll-interval': '5s', verify })
  const env = { GITHUB_WORKSPACE: workspace.dir, RUNNER_TEMP: path.join(workspace.dir, 'runner-temp') }
  const result = await sims.current.run(inputs, { env })
  return { ...result, outputs: Object.fromEntries(result.outputs) }
}

describe('a bundle with no page at all', () => {
  test.each(['tar.gz', 'zip'] as const)(
    '(%s) is refused under `verify: true`; the previous site stays',
    async (format) => {
      const site = await previousSiteAnd([], format)
      const { failure, outputs, log } = await runExport('true')
      expect(failure).toMatch(/^Export job exp_\w+: The site check failed: the bundle has no HTML page at all, /)
      expect(failure).toMatch(
        /which only `verify: false` lets replace the site\. The previous site was left as it was\.$/
      )
      // What the check found is said as well.
      expect(log.lines).toContainEqual('warning: The site has no index.html at its root.')
      expect(log.lines).toContainEqual(
        'warning: The site has 0 HTML pages, fewer than the 120 the export job reported.'
      )
      expect(outputs['broken-links']).toBe('0')
      expect(outputs['site-path']).toBeUndefined()
      expect(await readdir(site)).toHaveLength(PREVIOUS_PAGES)
      expect(await readFile(path.join(site, 'page-7.html'), 'utf8')).toBe('previous')
      expect((await readdir(workspace.dir)).filter((name) => name.startsWith('.'))).toEqual([])
    }
  )

  test('is refused under `verify: strict` too, and goes in only with `verify: false`', async () => {
    // Files that are no page count for nothing.
    const site = await previousSiteAnd([{ type: 'file', name: 'assets/app.css', content: 'body {}' }], 'tar.gz')
    const strict = await runExport('strict')
    expect(strict.failure).toContain('the bundle has no HTML page at all')
    expect(await readdir(site)).toHaveLength(PREVIOUS_PAGES)
    const off = await runExport('false')
    expect(off.failure).toBeUndefined()
    expect(await readdir(site)).toEqual(['assets'])
  })

  test('one page is enough: the rest of the check only warns', async () => {
    const site = await previousSiteAnd([{ type: 'file', name: 'guide.html', content: '<a href="/gone">x</a>' }], 'zip')
    const { failure, outputs, log } = await runExport('true')
    expect(failure).toBeUndefined()
    expect(outputs['broken-links']).toBe('1')
    expect(log.lines).toContainEqual('warning: The site has no index.html at its root.')
    expect(await readdir(site)).toEqual(['guide.html'])
  })
})
