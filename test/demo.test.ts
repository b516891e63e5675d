// `npm run demo` as a person sees it: the runner's log read from the action's stdout, the job summary as text,
// and the demo's site served as a static host serves an export.
import { mkdir, symlink, writeFile } from 'node:fs/promises'
import type { Server } from 'node:http'
import * as path from 'node:path'
import { afterEach, beforeEach, describe, expect, test } from '@jest/globals'
import { resolveRequest, serveSite } from '../scripts/demo-serve.js'
import { runnerLog, summaryText } from '../scripts/demo-view.js'
import { exportInputs, simulatorPerTest } from './support/harness.js'
import { tempFolder } from './support/temp.js'

let work: { dir: string; remove: () => Promise<void> }
beforeEach(async () => {
  work = await tempFolder('docs-admin-demo-')
})
afterEach(async () => {
  await work.remove()
})

describe('the log as the runner shows it', () => {
  test('a group is its title, its lines under it; a warning has its marker; masks and debug hide', () => {
    const stdout = [
      '::add-mask::s3cr3t',
      '::group::Start the export',
      'Started export job exp_1 with s3cr3t in it.',
      '::debug::GET /v1/static-export/jobs/exp_1 (attempt 1)',
      '::endgroup::',
      '::warning::Broken link in index.html line 19:%0A  "/old" leads to no file (100%25 sure).',
      '::error file=docs/a.mdx,line=3::Export job exp_1 failed: s3cr3t',
      '::notice::Rerun with `job-id: exp_1`.',
      '::stop-commands::pause-1',
      '::warning::printed as it is',
      '::pause-1::',
      'Done.'
    ].join('\n')
    expect(runnerLog(`${stdout}\n`)).toBe(
      [
        '▾ Start the export',
        '  Started export job exp_1 with *** in it.',
        'Warning: Broken link in index.html line 19:',
        '           "/old" leads to no file (100% sure).',
        'Error: Export job exp_1 failed: *** (docs/a.mdx:3)',
        'Notice: Rerun with `job-id: exp_1`.',
        '::warning::printed as it is',
        'Done.'
      ].join('\n')
    )
  })

  test('in colour, the title is bold and the warning marker yellow', () => {
    expect(runnerLog('::group::Wait\n::warning::slow\n', { color: true })).toBe(
      '▾ \u001b[1mWait\u001b[0m\n  \u001b[33mWarning:\u001b[0m slow'
    )
  })
})

describe('the job summary as text', () => {
  const sims = simulatorPerTest()

  test("an export's summary: its heading, the table lined up, the fold of broken links", async () => {
    const { sim, run } = await sims.start({ exportJob: { durationMs: 1000, queuedMs: 0 } })
    const env = { GITHUB_WORKSPACE: work.dir, RUNNER_TEMP: path.join(work.dir, 'runner-temp') }
    const result = await run(exportInputs(sim, { 'poll-interval': '1s' }), { env })
    expect(result.failure).toBeUndefined()
    const lines = summaryText(result.summary).split('\n')
    expect(lines[0]).toBe('Static export of docs.acme.com')
    const header = lines.findIndex((line) => /^Item +Value$/.test(line))
    expect(lines[header + 1]).toMatch(/^─+ {2}─+$/)
    // Every value starts in one column, under `Value`.
    const column = lines[header]?.indexOf('Value')
    const rows = lines.slice(header + 2, lines.indexOf('', header))
    expect(rows.map((row) => row.search(/(?<= {2})\S/))).toEqual(rows.map(() => column))
    expect(rows).toContainEqual(expect.stringMatching(/^Status +completed$/))
    expect(lines).toContain('▾ 1 internal link leads to no file of the site: page and line → link')
    expect(lines).toContain('  • index.html line 19 → /guides/removed-page')
    expect(lines.join('\n')).not.toMatch(/<|&#/)
  })

  test('a link shows its address; text keeps its characters; a folded part is marked so', () => {
    const html =
      '<h3>Agent job</h3><table><tr><th>Item</th><th>Value</th></tr>' +
      '<tr><td>Pull request</td><td><a href="https://github.com/o/r/pull/8">' +
      'https://github.com/o/r/pull/8</a></td></tr>' +
      '<tr><td>Run</td><td><a href="https://github.com/o/r/actions/runs/1?a=1&#38;b=2">the run</a></td></tr>' +
      '</table><p>❌ It said &#60;no&#62;: <code>a &#38; b</code><br>again</p>' +
      '<details><summary>Log</summary><pre>one<br>two</pre></details>'
    expect(summaryText(html)).toBe(
      [
        'Agent job',
        '',
        'Item          Value',
        `${'─'.repeat(12)}  ${'─'.repeat('the run (https://github.com/o/r/actions/runs/1?a=1&b=2)'.length)}`,
        'Pull request  https://github.com/o/r/pull/8',
        'Run           the run (https://github.com/o/r/actions/runs/1?a=1&b=2)',
        '',
        '❌ It said <no>: a & b',
        'again',
        '',
        '▸ Log',
        '  one',
        '  two'
      ].join('\n')
    )
  })
})

describe('npm run demo -- serve', () => {
  async function site(): Promise<string> {
    const root = path.join(work.dir, 'site')
    const files = {
      'index.html': 'home',
      '404.html': 'not here',
      'guides/start.html': 'start',
      'api/index.html': 'api',
      'assets/style.css': 'body {}'
    }
    for (const [name, content] of Object.entries(files)) {
      await mkdir(path.dirname(path.join(root, name)), { recursive: true })
      await writeFile(path.join(root, name), content)
    }
    await writeFile(path.join(work.dir, 'secret.txt'), 'outside the site')
    await symlink(path.join(work.dir, 'secret.txt'), path.join(root, 'leak.txt'))
    return root
  }

  test('an extensionless address is its .html page, or its folder index after a redirect', async () => {
    const root = await site()
    const at = (urlPath: string) => resolveRequest(root, urlPath)
    expect(await at('/')).toEqual({ file: path.join(root, 'index.html') })
    expect(await at('/guides/start')).toEqual({ file: path.join(root, 'guides/start.html') })
    expect(await at('/guides/start.html')).toEqual({ file: path.join(root, 'guides/start.html') })
    expect(await at('/guides/start?from=nav')).toEqual({ file: path.join(root, 'guides/start.html') })
    expect(await at('/api')).toEqual({ redirect: '/api/' })
    expect(await at('/api/')).toEqual({ file: path.join(root, 'api/index.html') })
    expect(await at('/assets/style.css')).toEqual({ file: path.join(root, 'assets/style.css') })
    for (const outside of ['/guides/nope', '/guides', '/../secret.txt', '/%2e%2e/secret.txt', '/leak.txt', '/%E0%A4%A'])
      expect([outside, await at(outside)]).toEqual([outside, undefined])
    // A redirect stays on this host, whatever the address looks like.
    await mkdir(path.join(root, 'evil.com'))
    await writeFile(path.join(root, 'evil.com/index.html'), 'x')
    expect(await at('//evil.com')).toEqual({ redirect: '/evil.com/' })
  })

  test('over HTTP on 127.0.0.1: the page, its type, the redirect, the 404 page, no other method', async () => {
    const root = await site()
    let server: Server | undefined
    try {
      const served = await serveSite(root, 0)
      server = served.server
      expect(served.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/)
      const page = await fetch(new URL('guides/start', served.url))
      expect([page.status, page.headers.get('content-type'), await page.text()]).toEqual([
        200,
        'text/html; charset=utf-8',
        'start'
      ])
      const folder = await fetch(new URL('api', served.url), { redirect: 'manual' })
      expect([folder.status, folder.headers.get('location')]).toEqual([301, '/api/'])
      const missing = await fetch(new URL('nope', served.url))
      expect([missing.status, await missing.text()]).toEqual([404, 'not here'])
      expect((await fetch(new URL('guides/start', served.url), { method: 'POST' })).status).toBe(405)
    } finally {
      await new Promise((resolve) => server?.close(resolve) ?? resolve(undefined))
    }
  })
})
