/**
 * Deterministic docs-site bundles for the download benchmark, generated once and cached, each as
 * a tar.gz and as a zip of the same files (written in one pass over the generated site).
 *
 * HTML pages are text drawn from a pseudo-word vocabulary with Zipf-like frequencies (seeded
 * PRNG), so they gzip about as well as real prose (~3-4x), not like repeated filler. Images and
 * downloads are keystream bytes (incompressible, like PNG/PDF). Both archives are written as
 * streams (tar-stream -> gzip -> file; bench/zip-writer.ts), so a 1 GiB site needs no GiB of
 * memory.
 */
import { createCipheriv, createHash } from 'node:crypto'
import { createReadStream, createWriteStream } from 'node:fs'
import { mkdir, readFile, rename, stat, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { pipeline } from 'node:stream/promises'
import zlib from 'node:zlib'
import tarStream from 'tar-stream'
import { seededRandom } from '../simulator/random.js'
import { ZipWriter } from './zip-writer.js'

/** Bump when the generated content changes: cached bundles of another version are rebuilt. */
const GENERATOR_VERSION = 3
const KiB = 1024
const MiB = 1024 * KiB
/** A fixed date: the same bytes on every machine. */
const MTIME = new Date('2024-01-01T00:00:00Z')

export type Format = 'tar.gz' | 'zip'
export const FORMATS: readonly Format[] = ['tar.gz', 'zip']

export interface BundleSpec {
  name: string
  /** Short label for the report. */
  label: string
  seed: number
  pages: number
  /** HTML page size range, uniform. Pages under 8 KiB get no navigation sidebar (it alone is ~6 KiB). */
  pageBytes: [number, number]
  /** Images (random bytes), uniform size range. */
  images: number
  imageBytes: [number, number]
  /** Large downloads (random bytes) above the unpacker's 1 MiB in-memory limit. */
  downloads: number
  downloadBytes: [number, number]
  /** search-index.json, text. */
  searchIndexBytes: number
}

/** Files besides pages, images and downloads: index.html, 8 CSS, 12 JS, search-index.json. */
const FIXED_FILES = 22

export const SITE_3000: BundleSpec = {
  name: 'site-3000',
  label: '3,000 pages',
  seed: 3000,
  pages: 3000,
  pageBytes: [20 * KiB, 80 * KiB],
  images: 400,
  imageBytes: [4 * KiB, 200 * KiB],
  downloads: 3,
  downloadBytes: [2 * MiB, 8 * MiB],
  searchIndexBytes: 8 * MiB
}

/** Per-file cost: 30,000 files of 0.5-6 KiB, where creating files, not bytes, is the work. */
export const SITE_30K_SMALL: BundleSpec = {
  name: 'site-30k-small',
  label: '30,000 small files',
  seed: 30_000,
  pages: 30_000 - FIXED_FILES,
  pageBytes: [512, 6 * KiB],
  images: 0,
  imageBytes: [0, 0],
  downloads: 0,
  downloadBytes: [0, 0],
  searchIndexBytes: 2 * MiB
}

export const SITE_1G: BundleSpec = {
  name: 'site-1g',
  label: '1 GiB',
  seed: 1024,
  pages: 15_000,
  pageBytes: [20 * KiB, 80 * KiB],
  images: 2000,
  imageBytes: [4 * KiB, 200 * KiB],
  downloads: 12,
  downloadBytes: [2 * MiB, 10 * MiB],
  searchIndexBytes: 40 * MiB
}

/** For --short: the same kinds of site, a tenth of the size, generated in seconds on a clean clone. */
export const SITE_300: BundleSpec = {
  ...SITE_3000,
  name: 'site-300',
  label: '300 pages',
  seed: 300,
  pages: 300,
  images: 40,
  downloads: 1,
  searchIndexBytes: MiB
}
export const SITE_3K_SMALL: BundleSpec = {
  ...SITE_30K_SMALL,
  name: 'site-3k-small',
  label: '3,000 small files',
  seed: 3001,
  pages: 3_000 - FIXED_FILES,
  searchIndexBytes: 256 * KiB
}

export interface Archive {
  file: string
  sizeBytes: number
  sha256: string
}

export interface Bundle {
  spec: BundleSpec
  archives: Record<Format, Archive>
  unpackedBytes: number
  files: number
  directories: number
  version: number
}

/** The cached bundle, generated first when missing or stale. */
export async function ensureBundle(
  spec: BundleSpec,
  cacheDir: string,
  log: (line: string) => void = () => {}
): Promise<Bundle> {
  await mkdir(cacheDir, { recursive: true })
  const fileOf = (format: Format): string => join(cacheDir, `${spec.name}.${format}`)
  const manifestFile = join(cacheDir, `${spec.name}.json`)
  const cached = await readManifest(manifestFile)
  // The manifest names its archives by file name only: the cache may move with the checkout.
  for (const f of FORMATS) if (cached?.archives?.[f]) cached.archives[f].file = fileOf(f)
  if (cached && cached.version === GENERATOR_VERSION && JSON.stringify(cached.spec) === JSON.stringify(spec)) {
    const sizes = await Promise.all(
      FORMATS.map((f) =>
        stat(cached.archives[f].file).then(
          (s) => s.size,
          () => -1
        )
      )
    )
    if (FORMATS.every((f, i) => sizes[i] === cached.archives[f].sizeBytes)) return cached
  }
  log(`Generating the ${spec.label} bundle (once; cached in the bench output folder)...`)
  const started = performance.now()
  const partial = (format: Format): string => `${fileOf(format)}.part`
  const counts = await writeBundle(spec, partial('tar.gz'), partial('zip'))
  const archives = {} as Record<Format, Archive>
  for (const format of FORMATS) {
    await rename(partial(format), fileOf(format))
    archives[format] = {
      file: fileOf(format),
      sizeBytes: (await stat(fileOf(format))).size,
      sha256: await sha256Of(fileOf(format))
    }
  }
  const bundle: Bundle = { spec, archives, ...counts, version: GENERATOR_VERSION }
  const named = Object.fromEntries(FORMATS.map((f) => [f, { ...archives[f], file: `${spec.name}.${f}` }]))
  await writeFile(manifestFile, JSON.stringify({ ...bundle, archives: named }, null, 2))
  const sizes = FORMATS.map((f) => `${(archives[f].sizeBytes / MiB).toFixed(0)} MiB ${f}`).join(', ')
  const seconds = ((performance.now() - started) / 1000).toFixed(1)
  log(`  ${bundle.files} files, ${(bundle.unpackedBytes / MiB).toFixed(0)} MiB unpacked, ${sizes}, in ${seconds} s`)
  return bundle
}

async function readManifest(path: string): Promise<Bundle | undefined> {
  try {
    return JSON.parse(await readFile(path, 'utf8')) as Bundle
  } catch {
    return undefined
  }
}

async function sha256Of(file: string): Promise<string> {
  const hash = createHash('sha256')
  for await (const chunk of createReadStream(file, { highWaterMark: MiB })) hash.update(chunk as Buffer)
  return hash.digest('hex')
}

// --- generation -----------------------------------------------------------------------------------

interface Entry {
  path: string
  content: Buffer
}

async function writeBundle(
  spec: BundleSpec,
  tarGzFile: string,
  zipFile: string
): Promise<Pick<Bundle, 'files' | 'directories' | 'unpackedBytes'>> {
  const pack = tarStream.pack()
  // Level 6 (zlib's default) is what servers and `tar -z` use. A deep input buffer lets gzip
  // (on the libuv pool) work while the next pages are generated on the main thread.
  // (node's zlib streams take stream options; @types/node's ZlibOptions does not list them.)
  const gzip = zlib.createGzip({ level: 6, chunkSize: 256 * KiB, writableHighWaterMark: 8 * MiB } as zlib.ZlibOptions)
  const written = pipeline(pack, gzip, createWriteStream(tarGzFile))
  const zip = new ZipWriter(zipFile, MTIME)
  const counts = { files: 0, directories: 0, unpackedBytes: 0 }
  const seenDirs = new Set<string>()
  for (const entry of siteEntries(spec)) {
    // Directory entries first, as `tar -c` and `zip -r` write them.
    const parts = entry.path.split('/').slice(0, -1)
    for (let i = 1; i <= parts.length; i++) {
      const dir = parts.slice(0, i).join('/')
      if (seenDirs.has(dir)) continue
      seenDirs.add(dir)
      counts.directories++
      await new Promise<void>((resolve, reject) =>
        pack.entry({ name: `${dir}/`, type: 'directory', mode: 0o755, mtime: MTIME }, (e) =>
          e ? reject(e) : resolve()
        )
      )
      await zip.add(`${dir}/`)
    }
    counts.files++
    counts.unpackedBytes += entry.content.length
    // Resolves once the entry is in the pack and the pack is below its high-water mark (backpressure).
    await new Promise<void>((resolve, reject) =>
      pack.entry({ name: entry.path, mode: 0o644, mtime: MTIME, size: entry.content.length }, entry.content, (e) =>
        e ? reject(e) : resolve()
      )
    )
    await zip.add(entry.path, entry.content)
  }
  pack.finalize()
  await Promise.all([written, zip.finish()])
  return counts
}

/** Every file of the site, in archive order. */
function* siteEntries(spec: BundleSpec): Generator<Entry> {
  const random = seededRandom(spec.seed)
  const words = new Vocabulary(random)
  const between = ([min, max]: [number, number]): number => min + Math.floor(random() * (max - min + 1))
  const site = new SiteMap(words, spec)
  words.site = site

  yield { path: 'index.html', content: page(words, random, site, 'Home', 30 * KiB, 0, BROKEN_LINK) }
  for (let i = 0; i < 8; i++)
    yield { path: `assets/css/theme-${i}.css`, content: css(words, random, between([8 * KiB, 60 * KiB])) }
  for (let i = 0; i < 12; i++)
    yield { path: `assets/js/chunk-${i}.js`, content: javascript(words, random, between([20 * KiB, 300 * KiB])) }

  for (let i = 0; i < spec.pages; i++) {
    yield { path: site.pagePath(i), content: page(words, random, site, words.title(4), between(spec.pageBytes), i) }
  }
  for (let i = 0; i < spec.images; i++) {
    yield { path: site.imagePath(i), content: randomBytes(`${spec.seed}/img/${i}`, between(spec.imageBytes)) }
  }
  for (let i = 0; i < spec.downloads; i++) {
    const size = between(spec.downloadBytes)
    const key = `${spec.seed}/dl/${i}`
    yield { path: `downloads/guide-${i}.pdf`, content: randomBytes(key, size) }
  }
  yield {
    path: 'search-index.json',
    content: Buffer.concat([...searchIndexChunks(words, random, spec.searchIndexBytes)])
  }
}

/**
 * The one broken link of a site, in index.html: real sites have a few, and the site check's report
 * of one (its page and line) is part of what it costs. Every other link leads to a file of the site.
 */
const BROKEN_LINK = '<p>The <a href="/docs/release-notes-2019.html">release notes of 2019</a> have moved.</p>\n'
/** Pages per section folder, as a docs generator lays them out. */
const PAGES_PER_SECTION = 40

/**
 * Where a site's files are, so that its pages link to files the bundle holds: pages in section
 * folders under `docs/` (served from the site's root, so `/docs/...` is the page's URL), images
 * under `assets/img/`.
 */
class SiteMap {
  constructor(
    private readonly words: Vocabulary,
    private readonly spec: BundleSpec
  ) {}

  get pages(): number {
    return this.spec.pages
  }

  get images(): number {
    return this.spec.images
  }

  sectionOf(page: number): number {
    return Math.floor(page / PAGES_PER_SECTION)
  }

  /** `docs/<section>/<page>.html` */
  pagePath(page: number): string {
    const section = this.sectionOf(page)
    return `docs/${this.words.slug(section % 97)}-${section}/${this.pageFile(page)}`
  }

  pageFile(page: number): string {
    return `${this.words.slug(page)}-${page}.html`
  }

  imagePath(image: number): string {
    return `assets/img/${Math.floor(image / 100)}/figure-${image}.png`
  }

  /**
   * A link to page `page` in one of the ways generated docs write them: a root path, a root path
   * without the extension (a static host serves `<path>.html`), or one with a fragment.
   */
  pageLink(page: number): string {
    const path = `/${this.pagePath(page)}`
    switch (page % 3) {
      case 0:
        return path
      case 1:
        return path.slice(0, -'.html'.length)
      default:
        return `${path}#${this.words.slug(page + 1)}`
    }
  }
}

/** Pseudo-words with Zipf frequencies (s = 1): a few very common, a long tail of rare ones. */
class Vocabulary {
  /** Set once the site's layout is known: inline links lead to its pages. */
  site: SiteMap | undefined

  private readonly words: string[]
  private readonly table: Uint16Array

  constructor(
    private readonly random: () => number,
    size = 16_000
  ) {
    const syllables: string[] = []
    for (const c of [
      '',
      'b',
      'c',
      'd',
      'f',
      'g',
      'h',
      'k',
      'l',
      'm',
      'n',
      'p',
      'r',
      's',
      't',
      'v',
      'w',
      'st',
      'tr',
      'ch',
      'pl'
    ]) {
      for (const v of ['a', 'e', 'i', 'o', 'u', 'ou', 'ea']) syllables.push(c + v)
    }
    const common = [
      'the',
      'of',
      'and',
      'to',
      'a',
      'in',
      'is',
      'for',
      'that',
      'with',
      'on',
      'as',
      'be',
      'this',
      'by',
      'an',
      'or',
      'it',
      'can',
      'you'
    ]
    const seen = new Set<string>(common)
    this.words = [...common]
    while (this.words.length < size) {
      const n = 1 + Math.floor(random() * random() * 4) + (random() < 0.5 ? 1 : 0)
      let word = ''
      for (let i = 0; i < n; i++) word += syllables[Math.floor(random() * syllables.length)]
      if (random() < 0.3) word += ['n', 'r', 's', 'ng', 'tion', 'ment', 'ed'][Math.floor(random() * 7)]
      if (!seen.has(word)) {
        seen.add(word)
        this.words.push(word)
      }
    }
    // Inverse CDF quantised to 2^16 steps: one table read per word instead of a search.
    const table = new Uint16Array(1 << 16)
    let total = 0
    for (let i = 0; i < size; i++) total += 1 / (i + 1)
    let cumulative = 0
    let word = 0
    for (let k = 0; k < table.length; k++) {
      const target = ((k + 0.5) / table.length) * total
      while (cumulative + 1 / (word + 1) < target && word < size - 1) cumulative += 1 / ++word
      table[k] = word
    }
    this.table = table
  }

  word(): string {
    return this.words[this.table[(this.random() * 65536) | 0]!]!
  }

  sentence(min: number, max: number): string {
    const n = min + Math.floor(this.random() * (max - min))
    let text = this.word()
    text = text[0]!.toUpperCase() + text.slice(1)
    for (let i = 1; i < n; i++) {
      const r = this.random()
      // Inline markup, as rendered docs have it: links, code spans, emphasis.
      if (r < 0.03) text += ` <a href="${this.inlineLink(r / 0.03)}" class="md-link">${this.word()} ${this.word()}</a>`
      else if (r < 0.05) text += ` <code class="md-code">${this.word()}.${this.word()}()</code>`
      else if (r < 0.06) text += ` <strong>${this.word()}</strong>`
      else text += ' ' + this.word()
    }
    return text + '.'
  }

  /** A link to a page of the site, chosen by `r` in [0, 1). */
  private inlineLink(r: number): string {
    const site = this.site
    if (site === undefined || site.pages === 0) return '/index.html'
    return site.pageLink(Math.floor(r * site.pages))
  }

  title(words: number): string {
    const parts: string[] = []
    for (let i = 0; i < words; i++) {
      const w = this.word()
      parts.push(w[0]!.toUpperCase() + w.slice(1))
    }
    return parts.join(' ')
  }

  /** A stable slug for a number (same input, same slug). */
  slug(n: number): string {
    return `${this.words[(n * 7919 + 101) % this.words.length]}-${this.words[(n * 104_729 + 7) % this.words.length]}`
  }
}

/** An HTML page of about `target` bytes: shared chrome, headings, paragraphs, lists, code. */
function page(
  words: Vocabulary,
  random: () => number,
  site: SiteMap,
  title: string,
  target: number,
  n: number,
  extra = ''
): Buffer {
  const head =
    '<!doctype html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n' +
    '<meta name="viewport" content="width=device-width, initial-scale=1">\n' +
    `<title>${title} | Docs</title>\n<link rel="stylesheet" href="/assets/css/theme-${n % 8}.css">\n` +
    `<script defer src="/assets/js/chunk-${n % 12}.js"></script>\n</head>\n<body>\n`
  // The sidebar is the same on every page of a section, as generated docs have it; small pages
  // (fragments, redirects, short reference entries) have none.
  // Links relative to the page's own folder, as generators write a section's sidebar; the last
  // section may hold fewer pages than a full one.
  const section = site.sectionOf(n)
  const first = section * PAGES_PER_SECTION
  const nav: string[] = ['<nav class="md-nav md-nav--primary" aria-label="Navigation"><ul class="md-nav__list">']
  for (let i = first; i < (target < 8 * KiB ? first : Math.min(first + PAGES_PER_SECTION, site.pages)); i++) {
    const href = n === 0 ? `/${site.pagePath(i)}` : site.pageFile(i)
    const active = i === n ? ' md-nav__link--active' : ''
    nav.push(
      `<li class="md-nav__item"><a href="${href}" class="md-nav__link${active}">` +
        `${words.slug(i).replace('-', ' ')}</a></li>`
    )
  }
  nav.push(
    '</ul></nav>\n<main class="md-main"><article class="md-content__inner md-typeset">\n',
    `<h1>${title}</h1>\n`,
    extra
  )
  const parts: string[] = [head, nav.join('\n')]
  let size = parts.reduce((s, p) => s + p.length, 0)
  const tail = `</article></main>\n<footer><p>${words.sentence(8, 14)}</p></footer>\n</body>\n</html>\n`
  while (size + tail.length < target) {
    const r = random()
    let block: string
    if (r < 0.1) {
      const id = words.slug(Math.floor(random() * 1e6))
      block =
        `<h2 id="${id}">${words.title(3)}` +
        `<a class="headerlink" href="#${id}" title="Permanent link">&para;</a></h2>\n`
    } else if (r < 0.2) {
      const items = Array.from(
        { length: 3 + Math.floor(random() * 4) },
        () => `<li class="md-list__item">${words.sentence(4, 12)}</li>`
      )
      block = `<ul>\n${items.join('\n')}\n</ul>\n`
    } else if (r < 0.3)
      block =
        '<div class="highlight"><pre><code class="language-ts">' +
        `${code(words, random, 4 + Math.floor(random() * 10))}</code></pre></div>\n`
    else if (r < 0.33 && site.images > 0)
      block =
        `<figure><img src="/${site.imagePath(Math.floor(((r - 0.3) / 0.03) * site.images))}" ` +
        `alt="${words.title(2)}"></figure>\n`
    else
      block = `<p>${Array.from({ length: 2 + Math.floor(random() * 5) }, () => words.sentence(6, 22)).join(' ')}</p>\n`
    parts.push(block)
    size += block.length
  }
  parts.push(tail)
  return fit(parts.join(''), target)
}

/** A code block with syntax-highlighting spans, as static-site generators render it. */
function code(words: Vocabulary, random: () => number, lines: number): string {
  const out: string[] = []
  const tok = (kind: string, text: string): string => `<span class="token ${kind}">${text}</span>`
  for (let i = 0; i < lines; i++) {
    const r = random()
    if (r < 0.3) {
      out.push(
        `${tok('keyword', 'const')} ${words.word()}${words.title(1)} ${tok('operator', '=')} ` +
          `${tok('keyword', 'await')} ${words.word()}${tok('punctuation', '.')}${tok('function', words.word())}` +
          `${tok('punctuation', '(')}${words.word()}${tok('punctuation', ',')} ` +
          `${tok('number', String(Math.floor(random() * 1000)))}${tok('punctuation', ')')}`
      )
    } else if (r < 0.6) {
      out.push(
        `  ${tok('property', words.word())}${tok('operator', ':')} ` +
          `${tok('string', JSON.stringify(words.word()))}${tok('punctuation', ',')}`
      )
    } else {
      out.push(tok('comment', `// ${words.word()} ${words.word()} ${words.word()} ${words.word()}`))
    }
  }
  return out.join('\n')
}

function css(words: Vocabulary, random: () => number, target: number): Buffer {
  const parts: string[] = []
  let size = 0
  while (size < target) {
    const rule = `.${words.word()}-${words.word()} { margin: ${Math.floor(random() * 32)}px; color: #${Math.floor(
      random() * 0xffffff
    )
      .toString(16)
      .padStart(6, '0')}; display: ${random() < 0.5 ? 'flex' : 'block'}; }\n`
    parts.push(rule)
    size += rule.length
  }
  return fit(parts.join(''), target)
}

function javascript(words: Vocabulary, random: () => number, target: number): Buffer {
  const parts: string[] = []
  let size = 0
  while (size < target) {
    const line =
      `function ${words.word()}_${Math.floor(random() * 1e4)}(${words.word()},${words.word()})` +
      `{return ${words.word()}.${words.word()}(${Math.floor(random() * 1e5)})||"${words.word()}"}\n`
    parts.push(line)
    size += line.length
  }
  return fit(parts.join(''), target)
}

function* searchIndexChunks(words: Vocabulary, random: () => number, size: number): Generator<Buffer> {
  let left = size
  let first = true
  while (left > 0) {
    const records: string[] = []
    let length = 0
    while (length < 256 * KiB) {
      const record =
        `${first ? '[' : ','}{"t":${JSON.stringify(words.title(3))},` +
        `"u":"/docs/${words.slug(Math.floor(random() * 1e5))}.html","b":${JSON.stringify(words.sentence(10, 30))}}\n`
      first = false
      records.push(record)
      length += record.length
    }
    const chunk = Buffer.from(records.join(''), 'utf8').subarray(0, left)
    left -= chunk.length
    yield chunk
  }
}

/** Exactly `target` bytes (pages are ASCII): cut or padded with spaces. */
function fit(text: string, target: number): Buffer {
  const buffer = Buffer.from(text, 'latin1')
  if (buffer.length >= target) return buffer.subarray(0, target)
  return Buffer.concat([buffer, Buffer.alloc(target - buffer.length, 0x20)])
}

/** Incompressible, deterministic bytes: an AES-CTR keystream keyed by `key`. */
function randomBytes(key: string, size: number): Buffer {
  return keystream(key).update(Buffer.alloc(size))
}

function keystream(key: string): ReturnType<typeof createCipheriv> {
  return createCipheriv('aes-256-ctr', createHash('sha256').update(key).digest(), Buffer.alloc(16))
}
