// The site check's memory follows no page's size: it reads pages a window at a time. A sparse 3 GB page and a real
// 1 GiB one (a 277-byte and a 1 MB tar.gz make such pages) are checked in a process of their own, whose peak RSS
// must stay under 200 MiB, and the links on both sides of the windows' ends are all found, with their lines.
import { spawn } from 'node:child_process'
import { open, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, expect, test } from '@jest/globals'
import { tempFolder } from '../support/temp.js'

const MiB = 1024 * 1024
/** The scanner's window (src/verify/page-links.ts): the first one ends there. */
const WINDOW_BYTES = MiB
const PEAK_RSS_BOUND = 200 * MiB
const SPARSE_BYTES = 3_000_000_000
const CHILD = fileURLToPath(new URL('../support/check-site-child.ts', import.meta.url))

let site: { dir: string; remove: () => Promise<void> }
beforeAll(async () => {
  site = await tempFolder('site-check-memory-')
})
afterAll(async () => site?.remove())

/** Writes `parts` to a page in order, each (a Buffer, or a string written `times` over); where each begins. */
async function writePage(
  file: string,
  parts: Array<{ text: string; times?: number }>
): Promise<Array<{ offset: number; line: number }>> {
  const handle = await open(file, 'w')
  const starts: Array<{ offset: number; line: number }> = []
  let [offset, line] = [0, 1]
  for (const { text, times = 1 } of parts) {
    starts.push({ offset, line })
    const bytes = Buffer.from(text)
    const lines = text.split('\n').length - 1
    // Written 8 MiB or so at a time.
    const batch = Math.max(1, Math.min(times, Math.floor((8 * MiB) / bytes.length)))
    const chunk = Buffer.concat(Array.from({ length: batch }, () => bytes))
    for (let left = times; left > 0; left -= batch) {
      const count = Math.min(left, batch)
      await handle.write(chunk, 0, count * bytes.length)
      ;[offset, line] = [offset + count * bytes.length, line + count * lines]
    }
  }
  await handle.close()
  return starts
}

/** The site check run in a child process over the staged site. */
function checkInChild(dir: string): Promise<{ check: Record<string, unknown>; maxRssBytes: number }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', CHILD, dir], { stdio: ['ignore', 'pipe', 'pipe'] })
    let [out, err] = ['', '']
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()))
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()))
    child.on('error', reject)
    child.on('close', (code) =>
      code === 0 ? resolve(JSON.parse(out)) : reject(new Error(`the check exited ${code}: ${err}`))
    )
  })
}

test('a sparse 3 GB page and a real 1 GiB page: every link found, peak RSS under 200 MiB', async () => {
  await writeFile(join(site.dir, 'index.html'), '<p>home</p>')
  // A page of 1 GiB: blocks of two links that are served, one broken link across the first window's end,
  // one that ends the page.
  const block = '<p>Some words, a link <a href="/index.html">home</a> and <a href=huge.html>one more</a>.</p>\n'
  const across = '<a href="/gone-across-the-window">x</a>\n'
  const before = Math.floor((WINDOW_BYTES - 13) / block.length)
  const filler = 'x'.repeat(WINDOW_BYTES - 13 - before * block.length)
  const after = Math.ceil((1024 * MiB) / block.length) - before
  const big = await writePage(join(site.dir, 'big.html'), [
    { text: filler },
    { text: block, times: before },
    { text: across },
    { text: block, times: after },
    { text: '<a href=/gone-at-the-end' }
  ])
  // A sparse page of 3 GB: zeros (read, not stored), a few links written into it.
  const huge = await open(join(site.dir, 'huge.html'), 'w')
  await huge.truncate(SPARSE_BYTES)
  const sparseLinks = [
    { at: 100, text: '\n<a href="/gone-early">x</a>\n' },
    { at: WINDOW_BYTES - 14, text: '<a href="/gone-across">x</a>\n' },
    { at: SPARSE_BYTES - 100, text: '<a href="/gone-late">x</a>' }
  ]
  for (const { at, text } of sparseLinks) await huge.write(text, at)
  await huge.close()

  const { check, maxRssBytes } = await checkInChild(site.dir)
  expect(check).toMatchObject({
    problems: [],
    htmlPages: 3,
    links: 2 * (before + after) + 2 + 3,
    brokenCount: 5,
    broken: [
      { file: 'big.html', offset: WINDOW_BYTES - 4, line: before + 1, link: '/gone-across-the-window', count: 1 },
      { file: 'big.html', offset: big[4]!.offset + 8, line: before + after + 2, link: '/gone-at-the-end', count: 1 },
      { file: 'huge.html', offset: 110, line: 2, link: '/gone-early', count: 1 },
      { file: 'huge.html', offset: WINDOW_BYTES - 5, line: 3, link: '/gone-across', count: 1 },
      { file: 'huge.html', offset: SPARSE_BYTES - 91, line: 4, link: '/gone-late', count: 1 }
    ]
  })
  expect(big[4]!.offset).toBeGreaterThan(1024 * MiB)
  expect(maxRssBytes).toBeLessThan(PEAK_RSS_BOUND)
}, 600_000)
