// Property tests of the site check's link scanner: on pages made of the pieces that trip it up
// (attribute names in any case, with and without the space before them and whitespace around the
// `=`; start tags, end tags, `<!`, `<?`, `&lt;` and a `>` before them; quotes that close or not,
// `=` inside values, values at a page's very edges, fragments, root and relative paths, overlong
// values, multi-byte text, whitespace runs), the scanner and the check agree with a plain, slow reading of the
// same rules, whole or read a window at a time (a window's end anywhere, whitespace runs longer than a
// value across it). `npm run test:e2e` runs a fixed seed; FUZZ_RUNS and FUZZ_SEED (a number, or `random`) run more.
import { describe, expect, test } from '@jest/globals'
import fc from 'fast-check'
import { linkTarget, resolves } from '../../src/verify/links.js'
import { checkLinks, scanLinks } from '../support/page-links.js'

const RUNS = Number(process.env.FUZZ_RUNS ?? 300)
const SEED =
  process.env.FUZZ_SEED === 'random' ? Math.floor(Math.random() * 2 ** 31) : Number(process.env.FUZZ_SEED ?? 20_261_122)
if (process.env.FUZZ_SEED === 'random') console.log(`fuzz-links: FUZZ_SEED=${SEED} FUZZ_RUNS=${RUNS}`)
/** How the property tests are named: their runs and seed. */
const seeded = `(${RUNS} runs, seed ${SEED})`

const MAX_VALUE_BYTES = 2048
const SPACE = /[ \t\n\r\f]/

/**
 * The rules of scanLinks read plainly: every `=`; before it, past whitespace, the name `href` or
 * `src` in any case with whitespace before it; before that, the nearest `<` or `>`, which must be a
 * `<` that a letter follows (a start tag); after the `=`, past whitespace, the value.
 */
function plainLinks(page: Buffer): Array<{ value: string; offset: number; length: number; line: number }> {
  const text = page.toString('latin1')
  const links: Array<{ value: string; offset: number; length: number; line: number }> = []
  let at = text.indexOf('=')
  while (at !== -1) {
    let nameEnd = at
    while (nameEnd > 0 && SPACE.test(text[nameEnd - 1] as string)) nameEnd--
    const name = /[ \t\n\r\f](href|src)$/i.exec(text.slice(Math.max(0, nameEnd - 5), nameEnd))?.[1]
    const nameStart = nameEnd - (name?.length ?? 0)
    const tag = Math.max(text.lastIndexOf('<', nameStart - 1), text.lastIndexOf('>', nameStart - 1))
    const inStartTag = tag !== -1 && text[tag] === '<' && /[a-z]/i.test(text[tag + 1] as string)
    let next = at + 1
    let valueAt = at + 1
    while (valueAt < text.length && SPACE.test(text[valueAt] as string)) valueAt++
    if (name !== undefined && inStartTag && valueAt < text.length) {
      const quote = text[valueAt]
      const quoted = quote === '"' || quote === "'"
      const start = quoted ? valueAt + 1 : valueAt
      const limit = Math.min(text.length, start + MAX_VALUE_BYTES + 1)
      let end = start
      while (end < limit && (quoted ? text[end] !== quote : !SPACE.test(text[end] as string) && text[end] !== '>'))
        end++
      if (quoted ? end < limit : end > start) {
        const line = text.slice(0, start).split('\n').length
        links.push({ value: page.toString('utf8', start, end), offset: start, length: end - start, line })
        next = end
      }
    }
    at = text.indexOf('=', next)
  }
  return links
}

const piece = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.constantFrom(
      ' href=',
      ' src=',
      '\nhref=',
      '\tsrc=',
      'href=',
      'data-src=',
      ' xhref=',
      ' srcset=',
      ' class='
    )
  },
  {
    weight: 3,
    arbitrary: fc.constantFrom(
      ' HREF=',
      ' Src=',
      '\fhReF=',
      ' sRC =',
      ' href = ',
      '\rhref\n=\t',
      ' src=\n',
      ' href  ',
      ' ='
    )
  },
  { weight: 6, arbitrary: fc.constantFrom('"', "'", '>', ' ', '\n', '=', '<a', '</a>') },
  {
    weight: 8,
    arbitrary: fc.constantFrom(
      '/',
      '//',
      '#',
      '../',
      './',
      'guides/',
      'start',
      '.html',
      '/index.html',
      '?q=1',
      '%20',
      '&amp;',
      'é',
      'x'
    )
  },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      'y'.repeat(MAX_VALUE_BYTES - 2),
      'z'.repeat(MAX_VALUE_BYTES + 5),
      // Whitespace longer than a value, which a window carries cut short.
      ' '.repeat(MAX_VALUE_BYTES + 9),
      '\n\t'.repeat(MAX_VALUE_BYTES)
    )
  }
)
/** What comes before attributes: start tags (some names in upper case), and what makes them text. */
const opener = fc.oneof(
  { weight: 5, arbitrary: fc.constantFrom('<a', '<A', '<img', '<Link', '<h1', '<a\n') },
  {
    weight: 4,
    arbitrary: fc.constantFrom(
      '',
      '</a',
      '<!doctype',
      '<!--',
      '-->',
      '<?xml',
      '<',
      '<1',
      '&lt;a',
      '<code>&lt;a',
      '&gt;',
      '>'
    )
  }
)
const page = fc
  .array(fc.tuple(opener, fc.array(piece, { maxLength: 10 })), { maxLength: 10 })
  .map((tags) => Buffer.from(tags.map(([start, pieces]) => start + pieces.join('')).join('')))
const pagePath = fc.constantFrom(
  'index.html',
  'guides/start.html',
  'guides/index.html',
  'guides/deep/a.html',
  'b.htm',
  'assets/app.css'
)
const siteFiles = [
  'index.html',
  'guides/start.html',
  'guides/index.html',
  'guides/deep/a.html',
  'b.htm',
  'assets/app.css',
  'start.html',
  'x',
  'guides/.html',
  'é.html'
]

/**
 * One key per distinct link: a root path is the same link from every page, a relative one from every page of a
 * folder.
 */
const linkKey = (page: string, value: string): string =>
  value.startsWith('/') && !value.startsWith('//') ? value : `${page.slice(0, page.lastIndexOf('/') + 1)}\u0000${value}`

/**
 * What a check reports for `pages` (one content each) read in page order on a site of `siteList`,
 * against a plain reading of the rules: every internal link counted, each broken one once at its
 * first place in page order, as written there, and in that order.
 */
function expectPlainCheck(pages: Array<[string, Buffer]>, siteList: string[], windowBytes?: number): void {
  const files = new Set(siteList)
  let links = 0
  const broken = new Map<string, { file: string; offset: number; line: number; link: string; count: number }>()
  for (const [path, bytes] of pages) {
    if (!/\.html?$/.test(path)) continue
    for (const { value, offset, line } of plainLinks(bytes)) {
      const target = linkTarget(path, value)
      if (target === undefined) continue
      links++
      if (resolves(target, files)) continue
      const key = linkKey(path, value)
      const known = broken.get(key)
      if (known === undefined) broken.set(key, { file: path, offset, line, link: value, count: 1 })
      else {
        known.count++
        if (path < known.file || (path === known.file && offset < known.offset))
          Object.assign(known, { file: path, offset, line, link: value })
      }
    }
  }
  const byPlace = (a: { file: string; offset: number }, b: { file: string; offset: number }): number =>
    a.file === b.file ? a.offset - b.offset : a.file < b.file ? -1 : 1
  const expected = [...broken.values()].sort(byPlace)
  const inPageOrder = [...pages].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
  const brokenCount = expected.reduce((sum, link) => sum + link.count, 0)
  const check = checkLinks(siteList, inPageOrder, { shown: Infinity, windowBytes })
  expect({ links: check.links, brokenCount: check.brokenCount, broken: check.broken }).toEqual({
    links,
    brokenCount,
    broken: expected
  })
  expect(new Set(check.broken.map((link) => linkKey(link.file, link.link))).size).toBe(check.broken.length)
  // For a report: the same figures, and the first broken links in page order.
  for (const shown of [0, 1, 3]) {
    const first = checkLinks(siteList, inPageOrder, { shown, windowBytes })
    expect({ links: first.links, brokenCount: first.brokenCount, broken: first.broken }).toEqual({
      links,
      brokenCount,
      broken: expected.slice(0, shown)
    })
  }
}

describe('the link scanner against a plain reading of its rules', () => {
  test(`scanLinks finds the values and offsets the rules give ${seeded}`, () => {
    fc.assert(
      fc.property(page, (bytes) => {
        expect(scanLinks(bytes)).toEqual(plainLinks(bytes).map(({ value, offset, line }) => ({ value, offset, line })))
      }),
      { numRuns: RUNS, seed: SEED }
    )
  })

  test(`a window at a time, scanLinks finds what the whole page gives ${seeded}`, () => {
    // Pages of many windows, runs of whitespace longer than a value, and a window's end anywhere.
    const longPage = fc.array(fc.oneof(page, fc.constantFrom(Buffer.from(' '.repeat(5000)))), { maxLength: 12 })
    fc.assert(
      fc.property(longPage, fc.integer({ min: 8 * 1024, max: 12 * 1024 }), (parts, windowBytes) => {
        const bytes = Buffer.concat(parts)
        expect(scanLinks(bytes, windowBytes)).toEqual(
          plainLinks(bytes).map(({ value, offset, line }) => ({ value, offset, line }))
        )
      }),
      { numRuns: RUNS, seed: SEED }
    )
  })

  test(`a check counts all links, reports each broken one once, at its first place in page order ${seeded}`, () => {
    const pages = fc.uniqueArray(fc.tuple(pagePath, page), { maxLength: 8, selector: ([path]) => path })
    fc.assert(
      fc.property(pages, fc.subarray(siteFiles), (pages, siteList) => expectPlainCheck(pages, siteList)),
      { numRuns: RUNS, seed: SEED }
    )
  })

  test('thousands of distinct links and a page of many windows agree with the plain reading', () => {
    // Thousands of distinct links, a page far larger than the rest and than a window (and of a
    // size that is no multiple of 16), and pages given out of page order.
    const pages: Array<[string, Buffer]> = []
    for (let p = 29; p >= 0; p--) {
      // (Each page also links to two missing pages every page links to: their first place in
      // page order is found by comparing the pages' paths.)
      const links = Array.from(
        { length: 150 },
        (_, i) =>
          `<a href="${i % 3 === 0 ? `/docs/p${p}/l${i}.html` : i % 3 === 1 ? `rel${p}-${i}` : `/index.html`}">x</a>`
      )
      links.splice(
        (p * 37) % 150,
        0,
        '<a href="/missing-everywhere.html">m</a>',
        `<a href="missing-in-folder${p % 4}">m</a>`
      )
      pages.push([`docs/s${p % 4}/page${p}.html`, Buffer.from(`<html>${links.join('\n')}</html>`)])
    }
    const large = Array.from(
      { length: 6000 },
      (_, i) => `<img src="/img/${i}.png" alt="${'y'.repeat(40)}"> <a href="../up${i}">u</a>`
    ).join('\n')
    pages.splice(7, 0, ['docs/large.html', Buffer.from(large)])
    expect(pages[7]![1].length).toBeGreaterThan(4 * 64 * 1024)
    const served = ['index.html', 'docs/p3/l3.html', 'img/17.png', 'docs/s1/rel5-4', 'up12']
    expectPlainCheck(pages, served)
    expectPlainCheck(pages, served, 8 * 1024)
  })

  test(`a root path judged from its bytes is judged as its resolved text is ${seeded}`, () => {
    const segment = fc.constantFrom(
      'a',
      'B',
      '.well-known',
      '..',
      '.',
      '',
      'x y',
      'p%2Fq',
      'r&amp;s',
      'index.html',
      'é',
      'a.html',
      '\t'
    )
    const served = [
      'index.html',
      'a.html',
      'B/index.html',
      'a/B.html',
      '.well-known/a',
      'x y.html',
      'p/q',
      'r&s',
      'é.html',
      'a/index.html'
    ]
    fc.assert(
      fc.property(
        fc.array(segment, { maxLength: 5 }),
        fc.boolean(),
        fc.constantFrom('', '?q=1', '#top', '?a#b'),
        (segments, trailing, suffix) => {
          const value = `/${segments.join('/')}${trailing ? '/' : ''}${suffix}`
          const { links, broken } = checkLinks(served, [['guides/deep/a.html', `<a href="${value}">x</a>`]])
          const target = linkTarget('guides/deep/a.html', value)
          const counted = target === undefined ? 0 : 1
          expect([value, links, broken.length]).toEqual([
            value,
            counted,
            counted === 1 && !resolves(target as string, new Set(served)) ? 1 : 0
          ])
        }
      ),
      { numRuns: RUNS, seed: SEED }
    )
  })
})
