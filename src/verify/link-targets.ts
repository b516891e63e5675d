/**
 * Where a link leads in the site, and which site paths the site serves. Pure. Site paths are
 * `/`-separated and relative to the site's root (`guides/start.html`); see site-paths.ts for
 * names that are not UTF-8.
 */
import { decodeSitePath, encodeSitePath } from '../common/site-paths.js'

/**
 * The site path a link from page `from` (a site path such as `guides/start.html`) points to, or
 * undefined for links that leave the site or point nowhere in particular: other schemes, other
 * hosts, fragments of the same page, and links that climb above the site's root. A path that ends
 * in `/` (`guides/`) names its folder's index page.
 */
export function linkTarget(from: string, value: string): string | undefined {
  const raw = decodeEntities(value.trim())
  if (raw === '' || raw.startsWith('#') || raw.startsWith('//') || /^[a-z][a-z0-9+.-]*:/i.test(raw)) return undefined
  const path = raw.replace(/[?#].*$/s, '')
  if (path === '') return undefined
  const decoded = path.includes('%') ? decodePercent(path) : path
  const segments = decoded.startsWith('/') ? [] : from.split('/').slice(0, -1)
  for (const segment of decoded.split('/')) {
    if (segment === '' || segment === '.') continue
    if (segment === '..') {
      if (segments.length === 0) return undefined
      segments.pop()
    } else segments.push(segment)
  }
  const target = segments.join('/')
  return decoded.endsWith('/') && target !== '' ? `${target}/` : target
}

/**
 * Whether the site serves `target`: the file itself, or as a static host maps extensionless page
 * URLs, `<path>.html` or `<path>/index.html` (the service's bundles name pages that way).
 */
export function resolves(target: string, files: ReadonlySet<string>): boolean {
  if (target === '' || target.endsWith('/')) return files.has(`${target}index.html`)
  return files.has(target) || files.has(`${target}.html`) || files.has(`${target}/index.html`)
}

function decodeEntities(text: string): string {
  return text.includes('&')
    ? text
        .replace(/&amp;/g, '&')
        .replace(/&#x2f;/gi, '/')
        .replace(/&#47;/g, '/')
    : text
}

/**
 * A path's percent escapes decoded. Escapes that do not make UTF-8 (`caf%E9.html`, a Latin-1
 * name) name a file's bytes as site-paths.ts carries them; a path with a `%` that starts no
 * escape is taken as written.
 */
function decodePercent(path: string): string {
  try {
    return decodeURIComponent(path)
  } catch {
    if (/%(?![0-9a-f]{2})/i.test(path)) return path
    const bytes: Buffer[] = []
    let text = 0
    for (const escape of path.matchAll(/%([0-9a-f]{2})/gi)) {
      bytes.push(encodeSitePath(path.slice(text, escape.index)), Buffer.of(parseInt(escape[1] as string, 16)))
      text = escape.index + 3
    }
    bytes.push(encodeSitePath(path.slice(text)))
    return decodeSitePath(Buffer.concat(bytes))
  }
}

/** The two 32-bit hashes of a site path that stand for it (see ServedPaths): `hash` and `check`. */
export interface PathHash {
  hash: number
  check: number
}

/**
 * Hashes of the first `length` UTF-16 units of `path` into `out` (no string is cut for it). An
 * ASCII path gives the same as pathBytesHash() of its bytes.
 */
export function pathHash(path: string, length: number, out: PathHash): void {
  let hash = 0x811c9dc5
  let check = 0x3c6ef372
  for (let at = 0; at < length; at++) {
    const unit = path.charCodeAt(at)
    hash = Math.imul(hash ^ unit, 0x01000193)
    check = Math.imul(check ^ unit, 0x5bd1e995)
  }
  finish(hash, check, out)
}

/** The same as pathHash() for the ASCII bytes `start` to `end` of a page. */
export function pathBytesHash(page: Buffer, start: number, end: number, out: PathHash): void {
  let hash = 0x811c9dc5
  let check = 0x3c6ef372
  for (let at = start; at < end; at++) {
    const byte = page[at] as number
    hash = Math.imul(hash ^ byte, 0x01000193)
    check = Math.imul(check ^ byte, 0x5bd1e995)
  }
  finish(hash, check, out)
}

function finish(hash: number, check: number, out: PathHash): void {
  out.hash = hash ^ (hash >>> 15)
  // (0, 0) marks an empty slot of ServedPaths.
  out.check = (check ^ (check >>> 13)) | (out.hash === 0 ? 1 : 0)
}

/**
 * The site paths a site serves, as hashes: each file, and the URLs a static host maps to it (as
 * resolves() does). An open-addressing table of pairs, at most half full: 8 bytes a slot, where a
 * set of strings would hold up to four new strings per file.
 */
export class ServedPaths {
  private slots = new Int32Array(2 * 1024)
  private taken = 0
  private readonly hashed: PathHash = { hash: 0, check: 0 }

  constructor(files: readonly string[]) {
    for (const file of files) {
      this.add(file, file.length)
      // `<path>.html` serves `<path>`; `<folder>/index.html` serves `<folder>/` and `<folder>`.
      if (file.endsWith('.html') && file.length > 5 && file[file.length - 6] !== '/') this.add(file, file.length - 5)
      if (file === 'index.html' || file.endsWith('/index.html')) {
        const folder = file.length - 'index.html'.length
        this.add(file, folder)
        if (folder !== 0) this.add(file, folder - 1)
      }
    }
  }

  /** Whether the site serves the site path with these hashes. */
  has(hash: number, check: number): boolean {
    const slots = this.slots
    const mask = slots.length / 2 - 1
    for (let slot = hash & mask; slots[slot * 2] !== 0 || slots[slot * 2 + 1] !== 0; slot = (slot + 1) & mask)
      if (slots[slot * 2] === hash && slots[slot * 2 + 1] === check) return true
    return false
  }

  /** Adds the first `length` units of `path`. */
  private add(path: string, length: number): void {
    if (++this.taken * 4 > this.slots.length) {
      const larger = new Int32Array(this.slots.length * 2)
      const old = this.slots
      for (let at = 0; at < old.length; at += 2)
        if (old[at] !== 0 || old[at + 1] !== 0) place(larger, old[at] as number, old[at + 1] as number)
      this.slots = larger
    }
    pathHash(path, length, this.hashed)
    if (!this.has(this.hashed.hash, this.hashed.check)) place(this.slots, this.hashed.hash, this.hashed.check)
  }
}

function place(slots: Int32Array, hash: number, check: number): void {
  const mask = slots.length / 2 - 1
  let slot = hash & mask
  while (slots[slot * 2] !== 0 || slots[slot * 2 + 1] !== 0) slot = (slot + 1) & mask
  slots[slot * 2] = hash
  slots[slot * 2 + 1] = check
}
