import { execFileSync } from 'node:child_process'
import { mkdir, readFile, symlink, writeFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { afterEach, beforeEach, describe, expect, test } from '@jest/globals'
import { linkTarget, resolves } from '../src/verify/links.js'
import { checkSite } from '../src/verify/site.js'
import { decodeSitePath, encodeSitePath, fileSystemPath, listSite } from '../src/common/site-paths.js'
import { checkLinks, scanLinks } from './support/page-links.js'
import { tempFolder } from './support/temp.js'

/** What a check found: its figures and every broken link it shows. */
const found = (check: ReturnType<typeof checkLinks>) => ({
  links: check.links,
  brokenCount: check.brokenCount,
  broken: check.broken
})

describe('links of a page', () => {
  test('href and src values, quoted either way or not at all; data-src and srcset are not links', () => {
    const page = Buffer.from(
      '<a href="/guides/start">x</a>\n<img src=\'img/a.png\' data-src="no.png" srcset="no.png 2x">\n' +
        '<a href=plain>y</a><script src="app.js"></script>'
    )
    expect(scanLinks(page).map((l) => l.value)).toEqual(['/guides/start', 'img/a.png', 'plain', 'app.js'])
    const [first] = scanLinks(page)
    expect(page.toString('utf8', first!.offset, first!.offset + 13)).toBe('/guides/start')
    expect(scanLinks(page).map((l) => l.line)).toEqual([1, 2, 3, 3])
  })

  test('a value reads to its end: an `=` in it starts nothing; an unclosed or overlong quoted value is no link', () => {
    const long = 'x'.repeat(3000)
    const page = Buffer.from(
      `<a href="/search?q=1 src=/not-a-link">s</a><a href="/${long}">l</a><img src=/img.png><a href="/never-closed`
    )
    expect(scanLinks(page).map((l) => l.value)).toEqual(['/search?q=1 src=/not-a-link', '/img.png'])
  })

  test('the edges of a page: a value that ends the page counts', () => {
    // An attribute with no value, no space before it or no tag does not.
    expect(scanLinks(Buffer.from('src=/start.png <a href=/')).map((l) => l.value)).toEqual(['/'])
    expect(scanLinks(Buffer.from('= <a href=')).map((l) => l.value)).toEqual([])
    expect(scanLinks(Buffer.from('<a href="')).map((l) => l.value)).toEqual([])
    expect(scanLinks(Buffer.from(' src=x')).map((l) => l.value)).toEqual([])
    expect(scanLinks(Buffer.from('<a src=x')).map((l) => l.value)).toEqual(['x'])
    expect(scanLinks(Buffer.from('<a href = ')).map((l) => l.value)).toEqual([])
    // The same root link ending a page and inside one is one link, from any folder.
    const check = checkLinks(
      ['a/one.html', 'b/two.html'],
      [
        ['a/one.html', '<a href=/'],
        ['b/two.html', '<a href="/">home</a>']
      ]
    )
    expect(found(check)).toEqual({
      links: 2,
      brokenCount: 2,
      broken: [{ file: 'a/one.html', offset: 8, line: 1, link: '/', count: 2 }]
    })
  })

  test('attribute names in any case, with whitespace on either side of the `=`', () => {
    const page = Buffer.from(
      '<A HREF="/d">d</A><IMG Src=\'/i.png\'><a href = "/e">e</a>' +
        '<a\nhref\n=\n/f>f</a><link rel=x sRc\t=\t"/g"><a hReF =\r\n\f/h>'
    )
    const links = scanLinks(page)
    expect(links.map((l) => l.value)).toEqual(['/d', '/i.png', '/e', '/f', '/g', '/h'])
    expect(links.map((l) => page.toString('utf8', l.offset, l.offset + l.value.length))).toEqual([
      '/d',
      '/i.png',
      '/e',
      '/f',
      '/g',
      '/h'
    ])
    // Still an attribute of its own: `data-src` and `xhref` are not links, spaced or not.
    expect(
      scanLinks(Buffer.from('<img data-SRC = "/x.png"><a XHREF = "/y"><a DATA-href="/z">')).map((l) => l.value)
    ).toEqual([])
  })

  test('only inside a start tag: an HTML sample in a code block, prose, an end tag, `<!` and `<?` are text', () => {
    const text = (html: string): string[] => scanLinks(Buffer.from(html)).map((l) => l.value)
    // What a docs generator writes for `<a href="/about">` in a code block: quotes are not escaped in text.
    expect(
      text(
        '<pre><code class="language-html">&lt;a href="/about"&gt;About&lt;/a&gt;\n' +
          '&lt;img src="/logo.png"&gt;</code></pre>'
      )
    ).toEqual([])
    expect(text('<p>Set href="/in-text" on the link.</p>')).toEqual([])
    expect(text('</a href="/closing">')).toEqual([])
    expect(text('<!doctype html src="/doctype"><!x href="/bang"><?xml href="/pi"?>')).toEqual([])
    expect(text('<1 href="/digit"> < href="/lone"> <=a href="/sign">')).toEqual([])
    // At the very start of a page, before any tag.
    expect(text(' href="/first"\nsrc=/second <a href="/a">')).toEqual(['/a'])
    // Any start tag, whatever case its name and however many attributes and lines come first.
    expect(
      text(
        '<IMG\n  alt="x"\n  class="y"\n  src="/i.png"><Link rel=icon href=/f.ico><a href="/one" title="t" href="/two">'
      )
    ).toEqual(['/i.png', '/f.ico', '/one', '/two'])
    // A `>` or an end tag closes what came before: the same attribute after it is text.
    expect(text('<a href="/in">x</a> href="/out" <br> src="/out2"')).toEqual(['/in'])
  })

  test('known limits: a `>` in an earlier quoted value of its tag hides a link; a link in a comment counts', () => {
    expect(scanLinks(Buffer.from('<a title="a > b" href="/hidden">')).map((l) => l.value)).toEqual([])
    expect(scanLinks(Buffer.from('<a title="1 < 2" href="/hidden-too">')).map((l) => l.value)).toEqual([])
    expect(scanLinks(Buffer.from('<!-- <a href="/commented"> -->')).map((l) => l.value)).toEqual(['/commented'])
  })

  test('reading back for a start tag costs one pass a page; nothing is carried to the next page', () => {
    // One tag of 100,000 attributes, and 100,000 attributes in text with no tag before them: each
    // reads back only to the one before (read back to the tag each, they would take minutes).
    const many = ' href=/x src="/y"'.repeat(50_000)
    expect(scanLinks(Buffer.from(`<a${many}>`))).toHaveLength(100_000)
    expect(scanLinks(Buffer.from(many))).toHaveLength(0)
    // A page that ends inside a start tag, then pages with none.
    expect(scanLinks(Buffer.from('<p>x</p><a class="c" href="/a" '))).toHaveLength(1)
    expect(scanLinks(Buffer.from('<p>Some text that goes on for a while, then href="/b" in it.</p>'))).toEqual([])
    const { broken } = checkLinks(
      ['index.html'],
      [
        ['a.html', '<p>x</p><a class="c" href="/a" '],
        ['b.html', 'Some text that goes on for a while, then href="/b" in it.']
      ]
    )
    expect(broken).toEqual([{ file: 'a.html', offset: 27, line: 1, link: '/a', count: 1 }])
    // The same bytes at the same place, in text: no link; in a tag: the link.
    expect(scanLinks(Buffer.from(`${'<p>'.padEnd(20, 'x')} href="/a"`))).toEqual([])
    expect(scanLinks(Buffer.from(`${'<p>'.padEnd(18, 'x')}<a href="/a"`))).toEqual([
      { value: '/a', offset: 27, line: 1 }
    ])
  })

  test('a broken link is found with text and line, whitespace around its `=`, its name in upper case', () => {
    // A code sample is no broken link.
    const page = '<p>\n<a href = "/gone">x</a>\n<pre><code>&lt;a href="/about"&gt;</code></pre>\n<IMG SRC =\n/lost.png>'
    const { links: count, broken } = checkLinks(['index.html'], [['index.html', page]])
    expect(count).toBe(2)
    expect(broken.map((link) => [link.link, link.line])).toEqual([
      ['/gone', 2],
      ['/lost.png', 5]
    ])
  })

  test('a distinct link is kept once, at its first place; a folder has relative links of its own', () => {
    // A root path is the same link from any page; a relative one, from any page of its folder.
    const check = checkLinks(
      ['a/y.html'],
      [
        ['a/one.html', '<a href="/x">1</a>\n<a href="y">2</a> <a href="y">3</a>'],
        ['a/style.css', '<a href="/a-stylesheet-is-not-a-page">'],
        ['b/two.html', '<a href="/x">1</a> <a href="y">2</a> <a href="#same-page">3</a>'],
        ['c/two.html', '<a href="y">2</a>']
      ]
    )
    expect(found(check)).toEqual({
      links: 6,
      brokenCount: 4,
      broken: [
        { file: 'a/one.html', offset: 9, line: 1, link: '/x', count: 2 },
        { file: 'b/two.html', offset: 28, line: 1, link: 'y', count: 1 },
        { file: 'c/two.html', offset: 9, line: 1, link: 'y', count: 1 }
      ]
    })
  })

  test('a site of folder index pages only (four served paths per file) is judged whole', () => {
    const folders = Array.from({ length: 3000 }, (_, i) => `f${i}`)
    const page =
      folders
        .flatMap((f) => [`<a href="/${f}">a</a>`, `<a href="/${f}/">b</a>`, `<a href="/${f}/index">c</a>`])
        .join('\n') + '<a href="/f3000/">d</a>'
    const files = ['index.html', ...folders.map((f) => `${f}/index.html`)]
    const { links: count, broken } = checkLinks(files, [['index.html', page]])
    expect(count).toBe(9001)
    expect(broken.map((link) => link.link)).toEqual(['/f3000/'])
  })

  test('a root path is judged with its query or fragment cut off, its escapes and entities decoded', () => {
    const values = [
      '/a',
      '/a.html',
      '/a?x=1',
      '/a#top',
      '/b/',
      '/b/?q',
      '/?home',
      '/#top',
      '/b/c#x',
      '/b//c',
      '/b/./c',
      '/b/%63',
      '/b/c&amp;d',
      '/é',
      '/.hidden',
      'b/c',
      '/missing#x'
    ]
    const files = ['index.html', 'a.html', 'b/index.html', 'b/c.html', 'c&d.html', 'é.html', '.hidden.html']
    const page = values.map((value) => `<a href="${value}">x</a>`).join('\n')
    const { links: count, broken } = checkLinks(files, [['index.html', page]])
    expect(count).toBe(values.length)
    expect(broken.map((link) => link.link)).toEqual(['/b/c&amp;d', '/missing#x'])
    // Each is judged as linkTarget() and resolves() judge it.
    const served = new Set(files)
    expect(values.filter((value) => !resolves(linkTarget('index.html', value) as string, served))).toEqual([
      '/b/c&amp;d',
      '/missing#x'
    ])
  })

  test('files with long and non-ASCII paths serve the paths a static host maps to them', () => {
    // Two- and three-byte characters, and paths longer than a link value may be.
    const folder = `${'ü'.repeat(300)}/${'日'.repeat(400)}`
    const files = ['index.html', `${folder}/index.html`, `${folder}/é.html`, `${'x'.repeat(2000)}.html`]
    const values = [
      `/${folder}`,
      `/${folder}/`,
      `/${folder}/index.html`,
      `/${folder}/é`,
      `/${folder}/é.html`,
      `/${'x'.repeat(2000)}`,
      `/${folder}/e`,
      `/${'x'.repeat(1999)}`
    ]
    const page = values.map((value) => `<a href="${value}">x</a>`).join('\n')
    const { links: count, broken } = checkLinks(files, [['index.html', page]])
    expect(count).toBe(values.length)
    expect(broken.map((link) => link.link)).toEqual([`/${folder}/e`, `/${'x'.repeat(1999)}`])
  })

  test('a check tells tens of thousands of distinct links apart', () => {
    const page = Array.from({ length: 40_000 }, (_, i) => `<a href="/p/${i}">a</a><a href="/p/${i}">b</a>`).join('\n')
    const files = ['index.html', 'p/7.html', 'p/39999.html']
    const { links: count, broken } = checkLinks(files, [['index.html', page]], { shown: Infinity })
    expect(count).toBe(80_000)
    expect(broken).toHaveLength(39_998)
    expect(broken.every((link) => link.count === 2)).toBe(true)
    const texts = broken.map((link) => link.link)
    expect(new Set(texts).size).toBe(39_998)
    expect(texts).not.toContain('/p/7')
    expect(texts[39_997]).toBe('/p/39998')
    expect(broken[39_997]).toMatchObject({ line: 39_999, offset: page.indexOf('"/p/39998"') + 1 })
  })

  test('past the verdicts a check keeps, every link is still judged and counted, shown ones too', () => {
    // 300,000 distinct links, each twice; the first shown comes back after the last.
    const pages: Array<[string, string]> = [['a.html', '<a href="/gone-first">x</a>']]
    for (let p = 0; p < 30; p++) {
      const links = Array.from({ length: 10_000 }, (_, i) => `<a href="/p/${p * 10_000 + i}">`)
      pages.push([`b${String(p).padStart(2, '0')}.html`, links.join('\n') + links.join('')])
    }
    // Judged again when met again: one kept (served), one past the bound (broken).
    pages.push(['c.html', '<a href="/gone-first">y</a> <a href="/p/3">z</a> <a href="/p/299999">w</a>'])
    const files = ['index.html', 'p/3.html', ...pages.map(([page]) => page)]
    const check = checkLinks(files, pages)
    expect(found(check)).toMatchObject({ links: 600_004, brokenCount: 600_001 })
    expect(check.broken).toHaveLength(20)
    expect(check.broken[0]).toEqual({ file: 'a.html', offset: 9, line: 1, link: '/gone-first', count: 2 })
    expect(check.broken.slice(1).map((link) => [link.link, link.count])).toEqual(
      [0, 1, 2, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19].map((i) => [`/p/${i}`, 2])
    )
  })

  test('targets: relative to the page, root paths from the site root', () => {
    // Other schemes, hosts and fragments are not checked.
    expect(linkTarget('guides/advanced/x.html', '../start')).toBe('guides/start')
    expect(linkTarget('guides/x.html', '/assets/app.css?v=3#top')).toBe('assets/app.css')
    expect(linkTarget('index.html', 'guides/')).toBe('guides/')
    expect(linkTarget('index.html', './a%20b.html')).toBe('a b.html')
    expect(linkTarget('index.html', 'search?q=1&amp;p=2')).toBe('search')
    // Root paths, plain ones and those that need resolving, give the same kind of site path.
    const fromRoot = {
      '/': '',
      '/guides/': 'guides/',
      '/guides/start': 'guides/start',
      '/a//b': 'a/b',
      '/a/./b/../c': 'a/c',
      '/.well-known/x': '.well-known/x',
      '/a%2Fb': 'a/b',
      '/x&amp;y': 'x&y',
      ' /spaced ': 'spaced'
    }
    for (const [value, target] of Object.entries(fromRoot))
      expect([value, linkTarget('deep/down/x.html', value)]).toEqual([value, target])
    for (const external of [
      'https://acme.com/x',
      '//cdn.acme.com/x.js',
      'mailto:a@b',
      'javascript:void(0)',
      'data:image/png;base64,xx',
      '#intro',
      '',
      '../../out'
    ]) {
      expect(linkTarget('guides/x.html', external)).toBeUndefined()
    }
  })

  test('a target is served by the file, <path>.html or <path>/index.html, as static hosts map URLs', () => {
    const files = new Set(['index.html', 'guides/start.html', 'guides/index.html', 'assets/app.css'])
    expect(resolves('guides/start', files)).toBe(true)
    expect(resolves('guides/start.html', files)).toBe(true)
    expect(resolves('guides', files)).toBe(true)
    expect(resolves('guides/', files)).toBe(true)
    expect(resolves('', files)).toBe(true)
    expect(resolves('assets/app.css', files)).toBe(true)
    expect(resolves('guides/missing', files)).toBe(false)
    expect(resolves('assets/', files)).toBe(false)
  })
})

describe('checking a site', () => {
  let site: { dir: string; remove: () => Promise<void> }
  beforeEach(async () => {
    site = await tempFolder('verify-')
  })
  afterEach(async () => site.remove())

  const write = async (files: Record<string, string>): Promise<void> => {
    for (const [name, content] of Object.entries(files)) {
      await mkdir(dirname(join(site.dir, name)), { recursive: true })
      await writeFile(join(site.dir, name), content)
    }
  }

  test('a whole site passes', async () => {
    await write({
      'index.html': '<a href="guides/start">Start</a><link href="/assets/s.css">',
      'guides/start.html': '<a href="../">home</a>',
      'assets/s.css': ''
    })
    expect(await checkSite(site.dir, { expectedPages: 2 })).toEqual({
      problems: [],
      htmlPages: 2,
      links: 3,
      brokenCount: 0,
      broken: [],
      reviewMs: expect.any(Number)
    })
  })

  test('no index page, too few pages, and broken links with file and line', async () => {
    // The first 20 distinct broken links, every occurrence counted.
    const many = Array.from({ length: 25 }, (_, i) => `<a href="/gone-${i}">x</a>`).join('\n')
    await write({
      'home.html': `<p>\n<a href="missing.html">a</a> <a href="/gone-3">again</a>`,
      'z.html': many,
      'sub/y.html': '<a href="../missing.html">up</a>'
    })
    const check = await checkSite(site.dir, { expectedPages: 5 })
    expect(check.problems).toEqual([
      'The site has no index.html at its root.',
      'The site has 3 HTML pages, fewer than the 5 the export job reported.'
    ])
    expect(check.brokenCount).toBe(28)
    expect(check.broken).toHaveLength(20)
    expect(check.broken[0]).toEqual({ file: 'home.html', offset: 13, line: 2, link: 'missing.html', count: 1 })
    expect(check.broken[1]).toEqual({ file: 'home.html', offset: 42, line: 2, link: '/gone-3', count: 2 })
    // The same relative link from another folder is another link.
    expect(check.broken[2]).toEqual({ file: 'sub/y.html', offset: 9, line: 1, link: '../missing.html', count: 1 })
    expect(check.broken[19]).toEqual({
      file: 'z.html',
      offset: many.indexOf('/gone-17'),
      line: 18,
      link: '/gone-17',
      count: 1
    })
  })

  test("the unpacking's file list is the site: a file on disk it does not name is no page, not served", async () => {
    await write({
      'index.html': '<a href="/guides/start">s</a> <a href="/stray">x</a>',
      'guides/start.html': '<a href="/index.html">home</a>',
      'stray.html': '<a href="/nowhere">n</a>'
    })
    const check = await checkSite(site.dir, { files: ['index.html', 'guides/start.html'] })
    expect(check).toMatchObject({ problems: [], htmlPages: 2, links: 3, brokenCount: 1 })
    expect(check.broken).toEqual([{ file: 'index.html', offset: 39, line: 1, link: '/stray', count: 1 }])
  })

  test('a page that is a symlink: a page of its own, its relative links read from where served', async () => {
    await write({
      'index.html': '<a href="/latest">latest</a> <a href="guides/v2">v2</a>',
      'guides/v2.html': '<a href="setup">setup</a> <a href="/index.html">home</a>',
      'guides/setup.html': ''
    })
    // Served at latest.html, its `setup` is /setup, which the site does not have. A link that leads
    // nowhere, or to a folder, is a page with nothing to read.
    await symlink('guides/v2.html', join(site.dir, 'latest.html'))
    await symlink('nowhere.html', join(site.dir, 'dangling.html'))
    await symlink('guides', join(site.dir, 'folder.html'))
    expect((await listSite(site.dir)).sort()).toEqual([
      'dangling.html',
      'folder.html',
      'guides/setup.html',
      'guides/v2.html',
      'index.html',
      'latest.html'
    ])
    const check = await checkSite(site.dir)
    expect(check).toMatchObject({ problems: [], htmlPages: 6, links: 6, brokenCount: 1 })
    expect(check.broken).toEqual([{ file: 'latest.html', offset: 9, line: 1, link: 'setup', count: 1 }])
  })

  test('a page symlinked to a named pipe of the site reads as empty: the check waits for no writer', async () => {
    await write({ 'index.html': '<a href="/pipe">p</a>' })
    execFileSync('mkfifo', [join(site.dir, 'fifo')])
    await symlink('fifo', join(site.dir, 'pipe.html'))
    expect(await checkSite(site.dir)).toMatchObject({ problems: [], htmlPages: 2, links: 1, brokenCount: 0 })
  })

  test('non-UTF-8 file names stay apart, are read by their bytes, serve links naming their bytes', async () => {
    // caf\xe9.html and caf\xe8.html (Latin-1): one name each, whatever a UTF-8 reading makes of them.
    const name = (byte: number): Buffer => Buffer.concat([Buffer.from('caf'), Buffer.of(byte), Buffer.from('.html')])
    await write({ 'index.html': '<a href="caf%E9.html">e</a> <a href="caf%E7">c</a>' })
    await writeFile(Buffer.concat([Buffer.from(site.dir + '/'), name(0xe9)]), '<p>\n<a href="/gone">x</a>')
    await writeFile(Buffer.concat([Buffer.from(site.dir + '/'), name(0xe8)]), '<a href="/index.html">home</a>')
    const files = await listSite(site.dir)
    expect(files.sort()).toEqual(['caf\udce8.html', 'caf\udce9.html', 'index.html'])
    expect(encodeSitePath('caf\udce9.html')).toEqual(name(0xe9))
    expect(await readFile(fileSystemPath(site.dir, 'caf\udce9.html'), 'utf8')).toContain('/gone')
    const check = await checkSite(site.dir)
    expect(check).toMatchObject({ problems: [], htmlPages: 3, links: 4, brokenCount: 2 })
    expect(check.broken).toEqual([
      { file: 'caf\udce9.html', offset: 13, line: 2, link: '/gone', count: 1 },
      { file: 'index.html', offset: 37, line: 1, link: 'caf%E7', count: 1 }
    ])
  })

  test('site paths carry non-UTF-8 bytes and give them back; valid UTF-8 (4-byte too) reads as is', () => {
    const samples = [
      Buffer.from('guides/日本/é😀.html'),
      Buffer.of(0x61, 0xe9, 0x2f, 0xc3),
      // Overlong, surrogate and past-U+10FFFF forms, and a lone continuation byte.
      Buffer.of(0xc0, 0xaf, 0xed, 0xa0, 0x80, 0xf4, 0x90, 0x80, 0x80, 0x80),
      Buffer.from('\udce9 is three bytes of valid UTF-8 here', 'utf8')
    ]
    for (const bytes of samples) expect(encodeSitePath(decodeSitePath(bytes))).toEqual(bytes)
    expect(decodeSitePath(samples[0]!)).toBe('guides/日本/é😀.html')
    expect(decodeSitePath(samples[1]!)).toBe('a\udce9/\udcc3')
    expect(decodeSitePath(samples[2]!)).toHaveLength(10)
  })

  test('a page far bigger than a window is read in windows, lines counted across; all pages read', async () => {
    const large = `${'<p>filler</p>\n'.repeat(300_000)}<a href="/missing-at-the-end">x</a>`
    const pages: Record<string, string> = { 'index.html': large }
    for (let i = 0; i < 40; i++) pages[`p/${i}.html`] = `<a href="/p/${i + 1}">next</a>`
    await write(pages)
    const check = await checkSite(site.dir)
    expect(check).toMatchObject({ problems: [], htmlPages: 41, links: 41, brokenCount: 2 })
    expect(check.broken).toEqual([
      { file: 'index.html', offset: 14 * 300_000 + 9, line: 300_001, link: '/missing-at-the-end', count: 1 },
      { file: 'p/39.html', offset: 9, line: 1, link: '/p/40', count: 1 }
    ])
  })

  test('a check stops with the reason of its signal', async () => {
    await write({ 'index.html': '<a href="/x">x</a>' })
    const reason = new Error('cancelled')
    await expect(checkSite(site.dir, { signal: AbortSignal.abort(reason) })).rejects.toBe(reason)
    await expect(checkSite(site.dir, { files: ['index.html'], signal: AbortSignal.abort(reason) })).rejects.toBe(reason)
  })
})
