/**
 * Tar headers, decoded as tar-stream decodes them: ustar and GNU formats, octal and base-256
 * numbers, checksums, pax records. Pure: the reader (tar.ts) hands blocks in.
 */
import { CorruptArchiveError } from './errors.js'

export const BLOCK = 512

export interface Header {
  name: string
  mode: number
  size: number
  type: string | null
  linkname: string | null
}

const USTAR_MAGIC = Buffer.from([0x75, 0x73, 0x74, 0x61, 0x72, 0x00])
const GNU_MAGIC = Buffer.from([0x75, 0x73, 0x74, 0x61, 0x72, 0x20])
const GNU_VERSION = Buffer.from([0x20, 0x00])

/** A header block: undefined for a block of zeros (the end of the archive). */
export function decodeHeader(block: Buffer): Header | undefined {
  const checksum = blockChecksum(block)
  // The checksum's initial value: the block is all zeros.
  if (checksum === 8 * 32) return undefined
  if (checksum !== decodeOct(block, 148, 8))
    throw new CorruptArchiveError('Invalid tar header. Maybe the tar is corrupted or it needs to be gunzipped?')
  let typeflag = block[156] === 0 ? 0 : (block[156] as number) - 0x30
  let name = decodeStr(block, 0, 100)
  if (block.subarray(257, 263).equals(USTAR_MAGIC)) {
    if (block[345]) name = `${decodeStr(block, 345, 155)}/${name}`
  } else if (!(block.subarray(257, 263).equals(GNU_MAGIC) && block.subarray(263, 265).equals(GNU_VERSION))) {
    throw new CorruptArchiveError('Invalid tar header: unknown format.')
  }
  // Old tars mark folders with a trailing slash.
  if (typeflag === 0 && name.endsWith('/')) typeflag = 5
  return {
    name,
    mode: decodeOct(block, 100, 8),
    size: decodeOct(block, 124, 12),
    type: typeOf(typeflag),
    linkname: block[157] === 0 ? null : decodeStr(block, 157, 100)
  }
}

function typeOf(flag: number): string | null {
  switch (flag) {
    case 0:
      return 'file'
    case 1:
      return 'link'
    case 2:
      return 'symlink'
    case 3:
      return 'character-device'
    case 4:
      return 'block-device'
    case 5:
      return 'directory'
    case 6:
      return 'fifo'
    case 7:
      return 'contiguous-file'
    case 72:
      return 'pax-header'
    case 55:
      return 'pax-global-header'
    case 27:
      return 'gnu-long-link-path'
    case 28:
    case 30:
      return 'gnu-long-path'
    case 35:
      // 'S': GNU tar's old sparse format (the newer ones are pax records, see TarReader).
      return 'gnu-sparse'
  }
  return null
}

function blockChecksum(block: Buffer): number {
  let sum = 8 * 32
  for (let i = 0; i < 148; i++) sum += block[i] as number
  for (let i = 156; i < BLOCK; i++) sum += block[i] as number
  return sum
}

/** A NUL-terminated UTF-8 string field. */
export function decodeStr(buffer: Buffer, offset: number, length: number): string {
  let end = offset
  while (end < offset + length && buffer[end] !== 0) end++
  return buffer.toString('utf8', offset, end)
}

/** An octal number field, or a base-256 one (first byte 0x80 or 0xff). */
function decodeOct(buffer: Buffer, offset: number, length: number): number {
  const field = buffer.subarray(offset, offset + length)
  if ((field[0] as number) & 0x80) return parse256(field)
  let start = 0
  // Older tars prefix spaces.
  while (start < field.length && field[start] === 32) start++
  let end = start
  while (end < field.length && field[end] !== 32) end++
  while (start < end && field[start] === 0) start++
  if (end === start) return 0
  return parseInt(field.toString('utf8', start, end), 8)
}

function parse256(field: Buffer): number {
  let positive: boolean
  if (field[0] === 0x80) positive = true
  else if (field[0] === 0xff) positive = false
  else return NaN
  let sum = 0
  for (let i = field.length - 1, power = 1; i > 0; i--, power *= 256)
    sum += (positive ? (field[i] as number) : 0xff - (field[i] as number)) * power
  return positive ? sum : -1 * sum
}

/** Pax records: `<length> <key>=<value>\n` each. */
export function decodePax(content: Buffer): Record<string, string> {
  const result: Record<string, string> = {}
  let buffer = content
  while (buffer.length > 0) {
    let i = 0
    while (i < buffer.length && buffer[i] !== 32) i++
    const length = parseInt(buffer.toString('utf8', 0, i), 10)
    if (!length) return result
    const record = buffer.toString('utf8', i + 1, length - 1)
    const keyIndex = record.indexOf('=')
    if (keyIndex === -1) return result
    result[record.slice(0, keyIndex)] = record.slice(keyIndex + 1)
    buffer = buffer.subarray(length)
  }
  return result
}
