// Archive builders for the simulator and for tests.
//
// Why hand-rolled: tests need byte-exact control over what a bundle contains, including hostile
// entries (path traversal, absolute names, symlinks pointing outside) that regular archivers
// refuse to write. Names are therefore written verbatim, never sanitised.
import type { Readable } from 'node:stream'
import zlib from 'node:zlib'
import tarStream from 'tar-stream'
import { seededRandom } from './random.js'

export type ArchiveEntry =
  | { type: 'file'; name: string; content: string | Buffer; mode?: number }
  | { type: 'directory'; name: string; mode?: number }
  | { type: 'symlink'; name: string; target: string }
  | { type: 'hardlink'; name: string; target: string }

// A fixed timestamp keeps archives byte-for-byte reproducible (stable ETag, stable sizes).
const FIXED_MTIME = new Date(Date.UTC(2024, 0, 1, 0, 0, 0))

/** Writes a ustar/pax archive with tar-stream, optionally gzip-compressed. */
export async function buildTar(entries: ArchiveEntry[], options: { gzip?: boolean } = {}): Promise<Buffer> {
  const pack = tarStream.pack()
  // @types/tar-stream's Pack is a Readable at runtime but its typing lacks newer Readable members.
  const packStream = pack as unknown as Readable
  const output = options.gzip ? packStream.pipe(zlib.createGzip()) : packStream
  // Start draining before adding entries so a large archive cannot stall on backpressure.
  const collected = collect(output)
  for (const entry of entries) await addTarEntry(pack, entry)
  pack.finalize()
  return collected
}

function addTarEntry(pack: tarStream.Pack, entry: ArchiveEntry): Promise<void> {
  return new Promise((resolve, reject) => {
    const done = (err?: Error | null): void => (err ? reject(err) : resolve())
    const base = { name: entry.name, mtime: FIXED_MTIME, uid: 1000, gid: 1000 }
    switch (entry.type) {
      case 'file': {
        const content = typeof entry.content === 'string' ? Buffer.from(entry.content) : entry.content
        pack.entry({ ...base, type: 'file', mode: entry.mode ?? 0o644, size: content.length }, content, done)
        return
      }
      case 'directory':
        pack.entry({ ...base, type: 'directory', mode: entry.mode ?? 0o755 }, done)
        return
      case 'symlink':
        pack.entry({ ...base, type: 'symlink', mode: 0o777, linkname: entry.target }, done)
        return
      case 'hardlink':
        pack.entry({ ...base, type: 'link', mode: 0o644, linkname: entry.target }, done)
        return
    }
  })
}

async function collect(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = []
  for await (const chunk of stream) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk))
  return Buffer.concat(chunks)
}

// ---------------------------------------------------------------------------------------------
// Zip: local file headers + central directory + end-of-central-directory record (no zip64).

const S_IFREG = 0o100000
const S_IFDIR = 0o040000
const S_IFLNK = 0o120000
const VERSION_MADE_BY_UNIX = (3 << 8) | 20 // high byte 3 = unix, so external attrs carry a mode
const VERSION_NEEDED = 20
const FLAG_UTF8 = 0x0800
// MS-DOS date/time of FIXED_MTIME (2024-01-01 00:00:00).
const DOS_DATE = ((2024 - 1980) << 9) | (1 << 5) | 1
const DOS_TIME = 0

/**
 * Writes a zip archive. Symlinks are stored with unix mode 0o120777 and the target as content
 * (the Info-ZIP convention); zip has no hardlinks, so a hardlink is stored as a copy of the file
 * it names (like `zip` does), and must name a file entry that appears in `entries`.
 */
export function buildZip(entries: ArchiveEntry[]): Buffer {
  const locals: Buffer[] = []
  const centrals: Buffer[] = []
  let offset = 0
  for (const entry of entries) {
    const { name, data, mode, isDir } = zipEntryParts(entry, entries)
    const nameBytes = Buffer.from(name, 'utf8')
    const crc = crc32(data)
    // Deflate real file content; store symlink targets, directories and empty files.
    const deflate = entry.type !== 'symlink' && data.length > 0
    const stored = deflate ? zlib.deflateRawSync(data) : data
    const method = deflate ? 8 : 0

    const local = Buffer.alloc(30)
    local.writeUInt32LE(0x04034b50, 0)
    local.writeUInt16LE(VERSION_NEEDED, 4)
    local.writeUInt16LE(FLAG_UTF8, 6)
    local.writeUInt16LE(method, 8)
    local.writeUInt16LE(DOS_TIME, 10)
    local.writeUInt16LE(DOS_DATE, 12)
    local.writeUInt32LE(crc, 14)
    local.writeUInt32LE(stored.length, 18)
    local.writeUInt32LE(data.length, 22)
    local.writeUInt16LE(nameBytes.length, 26)
    local.writeUInt16LE(0, 28)
    locals.push(local, nameBytes, stored)

    const central = Buffer.alloc(46)
    central.writeUInt32LE(0x02014b50, 0)
    central.writeUInt16LE(VERSION_MADE_BY_UNIX, 4)
    central.writeUInt16LE(VERSION_NEEDED, 6)
    central.writeUInt16LE(FLAG_UTF8, 8)
    central.writeUInt16LE(method, 10)
    central.writeUInt16LE(DOS_TIME, 12)
    central.writeUInt16LE(DOS_DATE, 14)
    central.writeUInt32LE(crc, 16)
    central.writeUInt32LE(stored.length, 20)
    central.writeUInt32LE(data.length, 24)
    central.writeUInt16LE(nameBytes.length, 28)
    central.writeUInt16LE(0, 30) // extra length
    central.writeUInt16LE(0, 32) // comment length
    central.writeUInt16LE(0, 34) // disk number start
    central.writeUInt16LE(0, 36) // internal attributes
    // Unix mode in the high 16 bits; MS-DOS directory bit in the low byte for directories.
    central.writeUInt32LE(((mode << 16) | (isDir ? 0x10 : 0)) >>> 0, 38)
    central.writeUInt32LE(offset, 42)
    centrals.push(central, nameBytes)

    offset += local.length + nameBytes.length + stored.length
  }
  const centralDir = Buffer.concat(centrals)
  const end = Buffer.alloc(22)
  end.writeUInt32LE(0x06054b50, 0)
  end.writeUInt16LE(0, 4) // this disk
  end.writeUInt16LE(0, 6) // disk with central directory
  end.writeUInt16LE(entries.length, 8)
  end.writeUInt16LE(entries.length, 10)
  end.writeUInt32LE(centralDir.length, 12)
  end.writeUInt32LE(offset, 16)
  end.writeUInt16LE(0, 20) // comment length
  return Buffer.concat([...locals, centralDir, end])
}

function zipEntryParts(
  entry: ArchiveEntry,
  all: ArchiveEntry[]
): { name: string; data: Buffer; mode: number; isDir: boolean } {
  switch (entry.type) {
    case 'file':
      return {
        name: entry.name,
        data: toBuffer(entry.content),
        mode: S_IFREG | ((entry.mode ?? 0o644) & 0o7777),
        isDir: false
      }
    case 'directory':
      return {
        name: entry.name.endsWith('/') ? entry.name : `${entry.name}/`,
        data: Buffer.alloc(0),
        mode: S_IFDIR | ((entry.mode ?? 0o755) & 0o7777),
        isDir: true
      }
    case 'symlink':
      return { name: entry.name, data: Buffer.from(entry.target, 'utf8'), mode: S_IFLNK | 0o777, isDir: false }
    case 'hardlink': {
      const source = all.find((e) => e.type === 'file' && e.name === entry.target)
      if (!source || source.type !== 'file')
        throw new Error(`buildZip: hardlink ${entry.name} -> ${entry.target}: no such file entry`)
      return {
        name: entry.name,
        data: toBuffer(source.content),
        mode: S_IFREG | ((source.mode ?? 0o644) & 0o7777),
        isDir: false
      }
    }
  }
}

function toBuffer(content: string | Buffer): Buffer {
  return typeof content === 'string' ? Buffer.from(content, 'utf8') : content
}

// zlib.crc32 exists from Node 20.15 / 22.2; keep a table fallback so older 20.x still works.
let crcTable: Uint32Array | undefined
function crc32(data: Buffer): number {
  if (typeof zlib.crc32 === 'function') return zlib.crc32(data) >>> 0
  crcTable ??= Uint32Array.from({ length: 256 }, (_, n) => {
    let c = n
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1
    return c >>> 0
  })
  let crc = 0xffffffff
  for (const byte of data) crc = crcTable[(crc ^ byte) & 0xff]! ^ (crc >>> 8)
  return (crc ^ 0xffffffff) >>> 0
}

// ---------------------------------------------------------------------------------------------
// Fixture site: a small deterministic documentation site, the default bundle content.

const TOPICS = [
  'getting-started',
  'configuration',
  'deployment',
  'plugins',
  'theming',
  'search',
  'versioning',
  'migration',
  'troubleshooting',
  'api-reference'
]

/**
 * A deterministic docs site: index.html, 404.html, assets/{style.css,app.js}, and `pages`
 * (default 5) guide pages under guides/ (every third one nested in guides/advanced/).
 * The default yields 12 entries, 7 of them HTML pages. `seed` varies the content, not the layout.
 */
export function fixtureSiteEntries(options: { pages?: number; seed?: number } = {}): ArchiveEntry[] {
  const pages = Math.max(0, Math.floor(options.pages ?? 5))
  const random = seededRandom(options.seed ?? 1)
  const buildId = Math.floor(random() * 0xffffffff)
    .toString(16)
    .padStart(8, '0')

  // As the service's bundles are laid out: a page URL has no extension (`/guides/install`), its
  // file does (`guides/install.html`); a static host maps one to the other.
  const guidePaths: string[] = []
  for (let i = 0; i < pages; i++) {
    const topic = TOPICS[i % TOPICS.length]!
    const slug = i < TOPICS.length ? topic : `${topic}-${Math.floor(i / TOPICS.length) + 1}`
    guidePaths.push((i + 1) % 3 === 0 ? `guides/advanced/${slug}.html` : `guides/${slug}.html`)
  }
  const pageUrl = (path: string): string => `/${path.replace(/\.html$/, '')}`
  const page = (title: string, depth: number, body: string): string => {
    const up = '../'.repeat(depth)
    return (
      `<!doctype html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n<title>${title}</title>\n` +
      `<link rel="stylesheet" href="${up}assets/style.css">\n<meta name="build" content="${buildId}">\n</head>\n` +
      `<body>\n<nav><a href="/">Home</a></nav>\n<main>\n<h1>${title}</h1>\n${body}\n</main>\n` +
      `<script src="${up}assets/app.js"></script>\n</body>\n</html>\n`
    )
  }
  const paragraph = (): string =>
    `<p>Section ${Math.floor(random() * 1000)}: this page was pre-rendered for static hosting.</p>`

  const links = guidePaths.map((p) => `<li><a href="${pageUrl(p)}">${p}</a></li>`)
  // One link to a page the site no longer has: the site check finds it.
  links.push('<li><a href="/guides/removed-page">An old page</a></li>')
  const entries: ArchiveEntry[] = [
    { type: 'file', name: 'index.html', content: page('Documentation', 0, `<ul>\n${links.join('\n')}\n</ul>`) },
    { type: 'file', name: '404.html', content: page('Page not found', 0, '<p>Nothing here.</p>') },
    { type: 'directory', name: 'assets/' },
    {
      type: 'file',
      name: 'assets/style.css',
      content:
        `/* build ${buildId} */\n` + 'body { font-family: system-ui, sans-serif; margin: 0 auto; max-width: 48rem; }\n'
    },
    {
      type: 'file',
      name: 'assets/app.js',
      content: `// build ${buildId}\ndocument.documentElement.dataset.build = '${buildId}';\n`
    },
    { type: 'directory', name: 'guides/' },
    { type: 'directory', name: 'guides/advanced/' }
  ]
  for (const path of guidePaths) {
    const title = path
      .replace(/^.*\//, '')
      .replace(/\.html$/, '')
      .replace(/-/g, ' ')
    entries.push({ type: 'file', name: path, content: page(title, path.split('/').length - 1, paragraph()) })
  }
  return entries
}

/** The links of fixtureSiteEntries that lead nowhere: the site check's finding. */
export const FIXTURE_BROKEN_LINKS = ['/guides/removed-page']

/** Number of HTML pages in a list of entries (the default final pageCount of an export). */
export function countHtmlPages(entries: ArchiveEntry[]): number {
  return entries.filter((e) => e.type === 'file' && /\.html?$/i.test(e.name)).length
}
