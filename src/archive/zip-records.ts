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
const MORE_THAN_32_BITS = 0xffffffff

const S_IFMT = 0o170000
const S_IFREG = 0o100000
const S_IFDIR = 0o040000
const S_IFLNK = 0o120000
/** "Version made by" high byte of archives written on unix: only they carry a unix mode. */
const MADE_BY_UNIX = 3
const MSDOS_DIRECTORY = 0x10
const KIND_NAMES: Record<number, string> = { 0o010000: 'fifo', 0o020000: 'character device', 0o060000: 'block device', 0o140000: 'socket' }

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
  nameRaw: Buffer
  /** As the directory's flags and extra fields decode it (yauzl's decoder: UTF-8 flag, Info-ZIP unicode path, CP437). */
  name: string
  externalAttributes: number
  offset: number
}

type Kind = { kind: 'directory' } | { kind: 'file'; mode: number | undefined } | { kind: 'symlink' } | { kind: 'special'; what: string }

/** What an entry is, as the central directory says (unix mode, MS-DOS folder bit, trailing slash). */
export function kindOf(entry: CentralEntry): Kind {
  const unixMode = entry.versionMadeBy >> 8 === MADE_BY_UNIX ? entry.externalAttributes >>> 16 : 0
  const kind = unixMode & S_IFMT
  if (kind === S_IFDIR || entry.name.endsWith('/') || (kind === 0 && (entry.externalAttributes & MSDOS_DIRECTORY) !== 0)) return { kind: 'directory' }
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
  if (entry.nameRaw.toString('latin1') !== local.rawName) differs(`its name there is ${JSON.stringify(local.name)}`)
  if (entry.method !== local.method) differs('compression method')
  if ((entry.flags & FLAG_ENCRYPTED) !== (local.flags & FLAG_ENCRYPTED)) differs('encryption')
  if ((local.flags & FLAG_DATA_DESCRIPTOR) !== 0) return
  if (entry.crc !== local.crc) differs('CRC')
  if (entry.compressedSize !== local.compressedSize) differs('compressed size')
  if (entry.size !== local.size) differs('size')
}

/** The local header at `at` of `buffer`; `offset` is where it sits in the archive. */
export function parseLocalHeader(buffer: Buffer, at: number, offset: number): LocalEntry {
  const nameBytes = buffer.readUInt16LE(at + 26)
  const extraBytes = buffer.readUInt16LE(at + 28)
  const nameRaw = buffer.subarray(at + LOCAL_HEADER_BYTES, at + LOCAL_HEADER_BYTES + nameBytes)
  const extra = buffer.subarray(at + LOCAL_HEADER_BYTES + nameBytes, at + LOCAL_HEADER_BYTES + nameBytes + extraBytes)
  const flags = buffer.readUInt16LE(at + 6)
  const extraFields = extraFieldsOf(extra)
  let compressedSize = buffer.readUInt32LE(at + 18)
  let size = buffer.readUInt32LE(at + 22)
  if (compressedSize === MORE_THAN_32_BITS || size === MORE_THAN_32_BITS) {
    // A local header's zip64 field holds both sizes, the original one first.
    const zip64 = extraFields.find((field) => field.id === ZIP64_EXTRA)?.data
    if (zip64 === undefined || zip64.length < 16) throw corrupt(new Error('a zip64 local header without its sizes'))
    size = readUInt64(zip64, 0)
    compressedSize = readUInt64(zip64, 8)
  }
  const name = yauzl.getFileNameLowLevel(flags, nameRaw, extraFields, true)
  const rawName = nameRaw.toString('latin1')
  return {
    offset,
    flags,
    method: buffer.readUInt16LE(at + 8),
    crc: buffer.readUInt32LE(at + 14),
    compressedSize,
    size,
    rawName: rawName === name ? name : rawName,
    name,
    dataStart: offset + LOCAL_HEADER_BYTES + nameBytes + extraBytes
  }
}

/** One central directory record, whole: its fixed part, name, extra field and comment. */
export function parseCentralHeader(record: Buffer): CentralEntry {
  const nameBytes = record.readUInt16LE(28)
  const extraBytes = record.readUInt16LE(30)
  const flags = record.readUInt16LE(8)
  const nameRaw = Buffer.from(record.subarray(CENTRAL_HEADER_BYTES, CENTRAL_HEADER_BYTES + nameBytes))
  const extraFields = extraFieldsOf(record.subarray(CENTRAL_HEADER_BYTES + nameBytes, CENTRAL_HEADER_BYTES + nameBytes + extraBytes))
  let size = record.readUInt32LE(24)
  let compressedSize = record.readUInt32LE(20)
  let offset = record.readUInt32LE(42)
  const zip64 = extraFields.find((field) => field.id === ZIP64_EXTRA)?.data
  if (zip64 !== undefined) {
    // Only the fields that do not fit 32 bits are there, in this order.
    let at = 0
    const next = (what: string): number => {
      if (at + 8 > zip64.length) throw corrupt(new Error(`zip64 extended information extra field does not include ${what}`))
      const value = readUInt64(zip64, at)
      at += 8
      return value
    }
    if (size === MORE_THAN_32_BITS) size = next('uncompressed size')
    if (compressedSize === MORE_THAN_32_BITS) compressedSize = next('compressed size')
    if (offset === MORE_THAN_32_BITS) offset = next('relative header offset')
  }
  return {
    versionMadeBy: record.readUInt16LE(4),
    flags,
    method: record.readUInt16LE(10),
    crc: record.readUInt32LE(16),
    compressedSize,
    size,
    nameRaw,
    // With decodeStrings off, yauzl leaves names undecoded; this is its own decoder. "Strict"
    // keeps backslashes as they are, so errors name the entry as the archive spells it; our
    // checks treat them as separators.
    name: yauzl.getFileNameLowLevel(flags, nameRaw, extraFields, true),
    externalAttributes: record.readUInt32LE(38),
    offset
  }
}

function extraFieldsOf(extra: Buffer): yauzl.ExtraField[] {
  try {
    return yauzl.parseExtraFields(extra)
  } catch (error) {
    throw corrupt(error)
  }
}

/** A little-endian 64-bit field, refused past what a number holds exactly. */
export function readUInt64(buffer: Buffer, at: number): number {
  const value = buffer.readUInt32LE(at) + buffer.readUInt32LE(at + 4) * 0x100000000
  if (!Number.isSafeInteger(value)) throw corrupt(new Error('a zip64 size past what can be handled'))
  return value
}
