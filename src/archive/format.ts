/**
 * Which kind of archive a body is, judged from its first bytes (never from the URL or the
 * Content-Type, which storage often gets wrong).
 */

export type ArchiveFormat = 'zip' | 'tar.gz' | 'tar'

/** A tar is told by its first header block, whole. */
export const TAR_BLOCK_BYTES = 512
export const FORMAT_SNIFF_BYTES = TAR_BLOCK_BYTES

export type FormatVerdict = { format: ArchiveFormat } | { unknown: string }

/**
 * The archive format of a body starting with `head`. `complete` says that `head` is the whole
 * body; until then an undecided head answers undefined (give me more bytes).
 */
export function detectFormat(head: Uint8Array, complete: true): FormatVerdict
export function detectFormat(head: Uint8Array, complete: boolean): FormatVerdict | undefined
export function detectFormat(head: Uint8Array, complete: boolean): FormatVerdict | undefined {
  if (startsWith(head, [0x50, 0x4b, 0x03, 0x04]) || startsWith(head, [0x50, 0x4b, 0x05, 0x06])) return { format: 'zip' }
  if (startsWith(head, [0x1f, 0x8b])) return { format: 'tar.gz' }
  if (looksLikeTar(head)) return { format: 'tar' }
  if (head.length < FORMAT_SNIFF_BYTES && !complete) return undefined
  return { unknown: describeBytes(head) }
}

/**
 * True when a tar header block starts at `head`: its checksum holds, as every tar format (v7,
 * ustar, GNU, pax) writes it, with or without the `ustar` magic. A block of zeros is an empty tar.
 */
export function isTarHeader(head: Uint8Array): boolean {
  if (head.length < TAR_BLOCK_BYTES) return false
  let unsigned = 0
  let signed = 0
  let zeros = true
  for (let i = 0; i < TAR_BLOCK_BYTES; i++) {
    const byte = i >= 148 && i < 156 ? 0x20 : (head[i] as number)
    if (head[i] !== 0) zeros = false
    unsigned += byte
    signed += byte > 0x7f ? byte - 0x100 : byte
  }
  if (zeros) return true
  const field = /^[ \0]*([0-7]{1,8})[ \0]*$/.exec(Buffer.from(head.subarray(148, 156)).toString('latin1'))
  if (field === null) return false
  const sum = parseInt(field[1] as string, 8)
  return sum === unsigned || sum === signed
}

/**
 * A tar's first block: its checksum tells every tar format, and the `ustar` magic one whose first
 * header is damaged (GNU tar then says what is wrong with it).
 */
export function looksLikeTar(head: Uint8Array): boolean {
  return (
    isTarHeader(head) || (head.length >= 262 && Buffer.from(head.subarray(257, 262)).toString('latin1') === 'ustar')
  )
}

/**
 * What the bytes look like, for "this is not an archive" errors: only their kind, never the bytes
 * themselves (a link may lead to a page that holds credentials, and anything shown reaches the log).
 */
export function describeBytes(head: Uint8Array): string {
  if (head.length === 0) return 'nothing at all (the body is empty)'
  const text = Buffer.from(head.buffer, head.byteOffset, Math.min(head.length, 64)).toString('latin1')
  // A UTF-8 byte order mark reads as "ï»¿" in latin1.
  const trimmed = text.replace(/^(?:\u00ef\u00bb\u00bf)?\s*/, '')
  if (/^<!doctype html|^<html|^<head|^<body/i.test(trimmed)) return 'an HTML page'
  if (/^<\?xml|^<Error>/i.test(trimmed)) return 'an XML document'
  if (/^[{[]/.test(trimmed)) return 'JSON'
  if (/^[\x20-\x7e\t\r\n]+$/.test(text)) return 'text'
  return 'binary data of an unknown kind'
}

function startsWith(head: Uint8Array, signature: number[]): boolean {
  return head.length >= signature.length && signature.every((byte, i) => head[i] === byte)
}

/**
 * Holds the first bytes of a stream until `judge` can decide what they are; then hands back the
 * verdict and every byte held, so nothing is lost. `judge` answers undefined for "more bytes".
 */
export class HeadSniffer<V> {
  private held: Buffer[] | undefined = []

  constructor(private readonly judge: (head: Buffer, complete: boolean) => V | undefined) {}

  /** True until the verdict is out. */
  get pending(): boolean {
    return this.held !== undefined
  }

  /** Adds a chunk; the verdict and the whole head once `judge` decides. */
  push(chunk: Buffer): { verdict: V; head: Buffer } | undefined {
    if (this.held === undefined) throw new Error('HeadSniffer: the verdict is out already')
    this.held.push(chunk)
    const head = this.held.length === 1 ? chunk : Buffer.concat(this.held)
    const verdict = this.judge(head, false)
    if (verdict === undefined) return undefined
    this.held = undefined
    return { verdict, head }
  }

  /** The stream ended early: the verdict on what was held (`judge` must decide now). */
  end(): { verdict: V; head: Buffer } {
    const head = Buffer.concat(this.held ?? [])
    this.held = undefined
    const verdict = this.judge(head, true)
    if (verdict === undefined) throw new Error('HeadSniffer: the judge must decide on a complete stream')
    return { verdict, head }
  }
}
