/**
 * Reads the lines GNU tar prints while it extracts with `-vv -R --quoting-style=c --numeric-owner`
 * (LC_ALL=C): one line per member, as GNU tar itself understood it, before it writes the member,
 * led by the block where the member's data starts. This is how the action sees what is being
 * unpacked without a tar reader of its own. Pure.
 *
 *   block 1: -rw-r--r-- 0/0      1234 2026-11-27 01:42 "guides/caf\303\251.html"
 *   block 5: lrwxrwxrwx 0/0         0 2026-11-27 01:42 "latest" -> "v2"
 *   block 6: hrw-r--r-- 0/0         0 2026-11-27 01:42 "copy.html" link to "index.html"
 *   block 7: drwxr-xr-x                  Creating directory: "guides"
 *   block 9: ** Block of NULs **
 */

/** `end`: the archive's end (its zero blocks, or the end of its data), not a member. */
export type MemberKind = 'file' | 'directory' | 'symlink' | 'hardlink' | 'special' | 'none' | 'end'

export interface TarMember {
  kind: MemberKind
  /** The type letter GNU tar shows (`-`, `d`, `l`, `h`, `S`, `c`, `p`, `V`, ...). */
  type: string
  /** Permission bits as listed (before the umask). */
  mode: number
  /** Bytes the member writes (0 for all but regular files). */
  size: number
  /** The member's name and link target as raw bytes (names need not be UTF-8). */
  name: Buffer
  target: Buffer | undefined
  /** A folder GNU tar made for a member's path ("Creating directory:"), not a member of its own. */
  implied: boolean
  /** The 512-byte block of the archive where its data starts (after all of its headers). */
  block: number
}

/** GNU tar's type letters: regular files of every flavour are written as files (`?`: unknown types). */
const KINDS: Record<string, MemberKind> = {
  '-': 'file',
  C: 'file',
  S: 'file',
  '?': 'file',
  d: 'directory',
  l: 'symlink',
  h: 'hardlink',
  b: 'special',
  c: 'special',
  p: 'special',
  s: 'special',
  V: 'none',
  M: 'none',
  N: 'none',
  L: 'none'
}
const IMPLIED_DIRECTORY = 'Creating directory:'
const SYMLINK_ARROW = ' -> '
const HARDLINK_WORDS = ' link to '

/** A header GNU tar could not read leaves its prefix alone before the next line's ("block 3: block 12: ..."). */
const BLOCK_PREFIX = /^(?:block \d+: )*block (\d+): /
const ARCHIVE_END = /^\*\* (?:Block of NULs|End of File) \*\*$/

/** One listing line, or undefined when it is not one GNU tar writes for a member or the archive's end. */
export function parseListingLine(prefixed: string): TarMember | undefined {
  const prefix = BLOCK_PREFIX.exec(prefixed)
  if (prefix === null) return undefined
  const block = Number(prefix[1])
  const line = prefixed.slice(prefix[0].length)
  if (ARCHIVE_END.test(line)) {
    return { kind: 'end', type: '', mode: 0, size: 0, name: Buffer.alloc(0), target: undefined, implied: false, block }
  }
  const quote = line.indexOf('"')
  if (quote < 0) return undefined
  const head = line.slice(0, quote)
  const modeText = head.slice(0, 10)
  const kind = KINDS[modeText[0] ?? '']
  if (kind === undefined || modeText.length < 10) return undefined
  const name = readQuoted(line, quote)
  if (name === undefined) return undefined
  const rest = line.slice(name.end)
  const member = {
    type: modeText[0] as string,
    mode: permissions(modeText),
    name: name.bytes,
    target: undefined,
    block
  }
  if (head.includes(IMPLIED_DIRECTORY)) {
    return rest === '' ? { ...member, kind: 'directory', size: 0, implied: true } : undefined
  }
  const fields = head.trim().split(/ +/)
  const sizeText = fields[2] ?? ''
  // Devices show `major,minor` where the size goes.
  const size = /^\d+$/.test(sizeText) ? Number(sizeText) : /^\d+,\d+$/.test(sizeText) ? 0 : undefined
  if (size === undefined) return undefined
  if (kind === 'symlink' || kind === 'hardlink') {
    const words = kind === 'symlink' ? SYMLINK_ARROW : HARDLINK_WORDS
    if (!rest.startsWith(words)) return undefined
    const target = readQuoted(line, name.end + words.length)
    if (target === undefined || target.end !== line.length) return undefined
    return { ...member, kind, size: 0, target: target.bytes, implied: false }
  }
  // Only files write their size: a directory's or a device's size field says nothing GNU tar writes.
  return { ...member, kind, size: kind === 'file' ? size : 0, implied: false }
}

/** The bits of `rwxr-xr-x`: `s` and `t` hold an x, `S` and `T` none (setuid and the like are dropped anyway). */
function permissions(modeText: string): number {
  let mode = 0
  for (let i = 0; i < 9; i++) if ('rwxst'.includes(modeText[i + 1] as string)) mode |= 1 << (8 - i)
  return mode
}

/** Printable ASCII but `"` and `\\`. */
const PLAIN_RUN = /^[\x20\x21\x23-\x5b\x5d-\x7e]+/
const ESCAPES: Record<string, number> = { a: 7, b: 8, t: 9, n: 10, v: 11, f: 12, r: 13, '\\': 92, '"': 34, '?': 63 }

/**
 * A C-style quoted string starting at `at` (GNU quotearg's `c` style): its bytes and where it ends.
 * Adjacent quoted pieces (`"a""b"`, how the style splits `??` trigraphs) are one string.
 */
export function readQuoted(line: string, at: number): { bytes: Buffer; end: number } | undefined {
  const bytes: number[] = []
  let i = at
  while (line[i] === '"') {
    i++
    for (;;) {
      // A run without escapes is taken whole (most names are one): a byte at a time showed in a profile.
      const run = PLAIN_RUN.exec(line.slice(i))?.[0] ?? ''
      for (let k = 0; k < run.length; k++) bytes.push(run.charCodeAt(k))
      i += run.length
      const char = line[i]
      if (char === undefined) return undefined
      if (char === '"') break
      // LC_ALL=C: every byte outside printable ASCII comes as an octal escape.
      if (char !== '\\') return undefined
      const next = line[i + 1] ?? ''
      const octal = /^[0-7]{3}/.exec(line.slice(i + 1, i + 4))
      if (octal !== null) {
        bytes.push(parseInt(octal[0], 8) & 0xff)
        i += 4
      } else if (ESCAPES[next] !== undefined) {
        bytes.push(ESCAPES[next])
        i += 2
      } else return undefined
    }
    i++
  }
  return i === at ? undefined : { bytes: Buffer.from(bytes), end: i }
}
