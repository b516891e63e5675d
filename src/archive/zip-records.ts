/**
 * The records of the zip format as this action reads them: the signatures, flags and methods it
 * knows, a local header and a central directory header decoded (zip64 sizes and offsets, names as
 * yauzl decodes them), what kind of entry the directory says an entry is, and the checks that a
 * local header agrees with its directory entry and can be unpacked on its own. Pure: no I/O.
 */
import yauzl from 'yauzl'
import { UnsafeEntryError, corrupt } from './errors.js'

export const LOCAL_HEADER = 0x04034b50
export const CENTRAL_HEADER = 0x02014b50
export const END_OF_DIRECTORY = 0x06054b50
export const ZIP64_END_OF_DIRECTORY = 0x06064b50
export const ZIP64_LOCATOR = 0x07064b50
export const LOCAL_HEADER_BYTES = 30
export const CENTRAL_HEADER_BYTES = 46
export const END_BYTES = 22
export const LOCATOR_BYTES = 20
export const ZIP64_END_BYTES = 56
export const MAX_COMMENT_BYTES = 0xffff
export const FLAG_ENCRYPTED = 0x0001
const FLAG_DATA_DESCRIPTOR = 0x0008
export const FLAG_STRONG_ENCRYPTION = 0x0040
export const STORED = 0
export const DEFLATED = 8
const ZIP64_EXTRA = 0x0001
const UNICODE_PATH_EXTRA = 0x7075
const MORE_THAN_32_BITS = 0xffffffff

const S_IFMT = 0o170000
const S_IFREG = 0o100000
const S_IFDIR = 0o040000
const S_IFLNK = 0o120000
/** "Version made by" high byte of archives written on unix: only they carry a unix mode. */
const MADE_BY_UNIX = 3
const MSDOS_DIRECTORY = 0x10
const KIND_NAMES: Record<number, string> = {
  0o010000: 'fifo',
  0o020000: 'character device',
  0o060000: 'block device',
  0o140000: 'socket'
}

/** What a local header says of its entry. */
export interface LocalEntry {
  offset: number
  flags: number
  method: number
  crc: number
  compressedSize: number
  size: number
  /** The name's bytes, one character per byte (the same string as `name` when they read the same). */
  rawName: string
  /** As the local header's flags and extra fields decode it. */
  name: string
  /** Where its data starts. */
  dataStart: number
}

/** What the central directory says of an entry. */
export interface CentralEntry {
  versionMadeBy: number
  flags: number
  method: number
  crc: number
  compressedSize: number
  size: number
  /** The name's bytes, one character per byte (the same string as `name` when they read the same). */
  rawName: string
  /** As the directory's flags and extra fields decode it (yauzl's decoder: UTF-8 flag, Info-ZIP unicode path, CP437). */
  name: string
  externalAttributes: number
  offset: number
}

type Kind =
  | { kind: 'directory' }
  | { kind: 'file'; mode: number | undefined }
  | { kind: 'symlink' }
  | { kind: 'special'; what: string }

/** What an entry is, as the central directory says (unix mode, MS-DOS folder bit, trailing slash). */
export function kindOf(entry: CentralEntry): Kind {
  const unixMode = entry.versionMadeBy >> 8 === MADE_BY_UNIX ? entry.externalAttributes >>> 16 : 0
  const kind = unixMode & S_IFMT
  if (
    kind === S_IFDIR ||
    entry.name.endsWith('/') ||
    (kind === 0 && (entry.externalAttributes & MSDOS_DIRECTORY) !== 0)
  )
    return { kind: 'directory' }
  if (kind === S_IFLNK) return { kind: 'symlink' }
  if (kind !== 0 && kind !== S_IFREG) return { kind: 'special', what: KIND_NAMES[kind] ?? 'special file' }
  return { kind: 'file', mode: unixMode & 0o777 ? unixMode : undefined }
}

/** Whether an entry can be unpacked from its local header alone. */
export function streamable(entry: LocalEntry): boolean {
  if ((entry.flags & (FLAG_DATA_DESCRIPTOR | FLAG_ENCRYPTED | FLAG_STRONG_ENCRYPTION)) !== 0) return false
  if (entry.method === STORED) return entry.compressedSize === entry.size
  return entry.method === DEFLATED
}

/**
 * A refusal when a local header disagrees with the central directory on its raw name, method,
 * encryption, or (when the local header has them) CRC and sizes.
 */
export function disagreement(entry: CentralEntry, local: LocalEntry): void {
  const differs = (what: string): never => {
    throw new UnsafeEntryError(
      entry.name,
      `has a local header that disagrees with the zip's central directory (${what}), as archives made to show different tools different files do`
    )
  }
  if (entry.rawName !== local.rawName) differs(`its name there is ${JSON.stringify(local.name)}`)
  if (entry.method !== local.method) differs('compression method')
  if ((entry.flags & FLAG_ENCRYPTED) !== (local.flags & FLAG_ENCRYPTED)) differs('encryption')
  if ((local.flags & FLAG_DATA_DESCRIPTOR) !== 0) return
  if (entry.crc !== local.crc) differs('CRC')
  if (entry.compressedSize !== local.compressedSize) differs('compressed size')
  if (entry.size !== local.size) differs('size')
}

/** The local header at `at` of `buffer`; `offset` is where it sits in the archive. */
export function parseLocalHeader(buffer: Buffer, at: number, offset: number): LocalEntry {
  const nameStart = at + LOCAL_HEADER_BYTES
  const nameEnd = nameStart + buffer.readUInt16LE(at + 26)
  const extraEnd = nameEnd + buffer.readUInt16LE(at + 28)
  const flags = buffer.readUInt16LE(at + 6)
  const extra = scanExtra(buffer, nameEnd, extraEnd)
  let compressedSize = buffer.readUInt32LE(at + 18)
  let size = buffer.readUInt32LE(at + 22)
  if (compressedSize === MORE_THAN_32_BITS || size === MORE_THAN_32_BITS) {
    // A local header's zip64 field holds both sizes, the original one first.
    if (extra.zip64 < 0 || extra.zip64End - extra.zip64 < 16)
      throw corrupt(new Error('a zip64 local header without its sizes'))
    size = readUInt64(buffer, extra.zip64)
    compressedSize = readUInt64(buffer, extra.zip64 + 8)
  }
  const { name, rawName } = decodeName(flags, buffer, nameStart, nameEnd, extra)
  return {
    offset,
    flags,
    method: buffer.readUInt16LE(at + 8),
    crc: buffer.readUInt32LE(at + 14),
    compressedSize,
    size,
    rawName,
    name,
    dataStart: offset + (extraEnd - at)
  }
}

/** The central directory record at `at` of `buffer`, whole: its fixed part, name, extra field and comment. */
export function parseCentralHeader(buffer: Buffer, at: number): CentralEntry {
  const nameStart = at + CENTRAL_HEADER_BYTES
  const nameEnd = nameStart + buffer.readUInt16LE(at + 28)
  const flags = buffer.readUInt16LE(at + 8)
  const extra = scanExtra(buffer, nameEnd, nameEnd + buffer.readUInt16LE(at + 30))
  let size = buffer.readUInt32LE(at + 24)
  let compressedSize = buffer.readUInt32LE(at + 20)
  let offset = buffer.readUInt32LE(at + 42)
  if (extra.zip64 >= 0) {
    // Only the fields that do not fit 32 bits are there, in this order.
    let field = extra.zip64
    const next = (what: string): number => {
      if (field + 8 > extra.zip64End)
        throw corrupt(new Error(`zip64 extended information extra field does not include ${what}`))
      const value = readUInt64(buffer, field)
      field += 8
      return value
    }
    if (size === MORE_THAN_32_BITS) size = next('uncompressed size')
    if (compressedSize === MORE_THAN_32_BITS) compressedSize = next('compressed size')
    if (offset === MORE_THAN_32_BITS) offset = next('relative header offset')
  }
  const { name, rawName } = decodeName(flags, buffer, nameStart, nameEnd, extra)
  return {
    versionMadeBy: buffer.readUInt16LE(at + 4),
    flags,
    method: buffer.readUInt16LE(at + 10),
    crc: buffer.readUInt32LE(at + 16),
    compressedSize,
    size,
    rawName,
    name,
    externalAttributes: buffer.readUInt32LE(at + 38),
    offset
  }
}

/** The bytes of a central directory record at `at` of `buffer` (its fixed part must be there). */
export function centralRecordBytes(buffer: Buffer, at: number): number {
  return (
    CENTRAL_HEADER_BYTES + buffer.readUInt16LE(at + 28) + buffer.readUInt16LE(at + 30) + buffer.readUInt16LE(at + 32)
  )
}

/** What a record's extra field holds that this action reads. */
interface ExtraArea {
  /** Where its extra field starts and ends in the buffer. */
  start: number
  end: number
  /** Where the data of its first zip64 field starts and ends (-1: none). */
  zip64: number
  zip64End: number
  /** Whether it has an Info-ZIP unicode path field (then yauzl's decoder reads the name). */
  unicodePath: boolean
}

/**
 * The fields of an extra field that this action reads, found in place. The walk is
 * yauzl.parseExtraFields' (a field that runs past the end is refused; fewer than 4 bytes left are
 * ignored), without its array of fields and views: every local header and directory record goes
 * through here, 60,000 times for a zip of 30,000 files.
 */
function scanExtra(buffer: Buffer, start: number, end: number): ExtraArea {
  const area: ExtraArea = { start, end, zip64: -1, zip64End: -1, unicodePath: false }
  for (let at = start; at < end - 3;) {
    const id = buffer.readUInt16LE(at)
    const dataEnd = at + 4 + buffer.readUInt16LE(at + 2)
    if (dataEnd > end) throw corrupt(new Error('extra field length exceeds extra field buffer size'))
    if (id === ZIP64_EXTRA && area.zip64 < 0) {
      area.zip64 = at + 4
      area.zip64End = dataEnd
    } else if (id === UNICODE_PATH_EXTRA) {
      area.unicodePath = true
    }
    at = dataEnd
  }
  return area
}

/**
 * A name as yauzl's decoder reads it (an Info-ZIP unicode path field, else UTF-8 when flagged,
 * else CP437; backslashes kept), and its bytes one character per byte. A name of printable ASCII
 * alone reads the same in UTF-8, CP437 and Latin-1, so with no unicode path field it is taken as
 * it is (one string for both), without the decoder's character-by-character CP437 join.
 */
function decodeName(
  flags: number,
  buffer: Buffer,
  start: number,
  end: number,
  extra: ExtraArea
): { name: string; rawName: string } {
  const rawName = buffer.toString('latin1', start, end)
  if (!extra.unicodePath && isPrintableAscii(buffer, start, end)) return { name: rawName, rawName }
  // (scanExtra walked the area as yauzl does and refused what yauzl would: this parse cannot throw.)
  const fields = extra.unicodePath ? yauzl.parseExtraFields(buffer.subarray(extra.start, extra.end)) : []
  // "Strict" keeps backslashes as they are, so errors name the entry as the archive spells it;
  // our checks treat them as separators.
  const name = yauzl.getFileNameLowLevel(flags, buffer.subarray(start, end), fields, true)
  return { name, rawName: rawName === name ? name : rawName }
}

/** Whether bytes are all printable ASCII (space to tilde): the characters CP437 shares with ASCII. */
function isPrintableAscii(buffer: Buffer, start: number, end: number): boolean {
  for (let at = start; at < end; at++) {
    const byte = buffer[at] as number
    if (byte < 0x20 || byte > 0x7e) return false
  }
  return true
}

/** A little-endian 64-bit field, refused past what a number holds exactly. */
export function readUInt64(buffer: Buffer, at: number): number {
  const value = buffer.readUInt32LE(at) + buffer.readUInt32LE(at + 4) * 0x100000000
  if (!Number.isSafeInteger(value)) throw corrupt(new Error('a zip64 size past what can be handled'))
  return value
}
