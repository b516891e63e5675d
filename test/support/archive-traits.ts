/**
 * What a case's archive must show in its bytes for the case to be about anything: a tool that one
 * day writes otherwise (a zip with the UTF-8 flag after all, a tar without the long-name trap) fails
 * the case instead of passing it for nothing. Read by signature scans, enough for archives made here.
 */
import { gunzipSync } from 'node:zlib'

export interface Trait {
  what: string
  holds: (archive: Buffer) => boolean
}

const LOCAL_HEADER = Buffer.from('PK\x03\x04', 'latin1')
const CENTRAL_HEADER = Buffer.from('PK\x01\x02', 'latin1')
const END_RECORD = Buffer.from('PK\x05\x06', 'latin1')

function plainTar(archive: Buffer): Buffer {
  return archive[0] === 0x1f && archive[1] === 0x8b ? gunzipSync(archive) : archive
}

/** The tar's header blocks that carry a ustar magic (every format but v7). */
function ustarHeaders(archive: Buffer): Buffer[] {
  const tar = plainTar(archive)
  const headers: Buffer[] = []
  for (let at = 0; at + 512 <= tar.length; at += 512) {
    if (tar.toString('latin1', at + 257, at + 262) === 'ustar') headers.push(tar.subarray(at, at + 512))
  }
  return headers
}

interface LocalHeader {
  flags: number
  compressedSize: number
  size: number
  name: Buffer
  extra: Buffer
}

/** The zip's local headers, found by their signature. */
function localHeaders(zip: Buffer): LocalHeader[] {
  const headers: LocalHeader[] = []
  for (let at = zip.indexOf(LOCAL_HEADER); at >= 0 && at + 30 <= zip.length; at = zip.indexOf(LOCAL_HEADER, at + 4)) {
    const nameLength = zip.readUInt16LE(at + 26)
    const extraLength = zip.readUInt16LE(at + 28)
    const name = zip.subarray(at + 30, at + 30 + nameLength)
    const extra = zip.subarray(at + 30 + nameLength, at + 30 + nameLength + extraLength)
    const [flags, compressedSize, size] = [
      zip.readUInt16LE(at + 6),
      zip.readUInt32LE(at + 18),
      zip.readUInt32LE(at + 22)
    ]
    headers.push({ flags, compressedSize, size, name, extra })
  }
  return headers
}

const UTF8_FLAG = 0x800
const DATA_DESCRIPTOR_FLAG = 0x8
const nonAscii = (name: Buffer): boolean => name.some((byte) => byte >= 0x80)

export const SLASH_AT_BYTE_100: Trait = {
  what: "a tar header whose name field's 100th byte is `/`",
  holds: (archive) => ustarHeaders(archive).some((header) => header[99] === 0x2f)
}

export const NO_USTAR_MAGIC: Trait = {
  what: 'a first tar header without a ustar magic (v7)',
  holds: (archive) => plainTar(archive).toString('latin1', 257, 262) !== 'ustar'
}

export const UTF8_NAMES_WITHOUT_FLAG: Trait = {
  what: 'zip entries with non-ASCII names and no UTF-8 flag',
  holds: (zip) => localHeaders(zip).some((header) => nonAscii(header.name) && (header.flags & UTF8_FLAG) === 0)
}

export const UTF8_NAMES_WITH_FLAG: Trait = {
  what: 'zip entries with non-ASCII names and the UTF-8 flag',
  holds: (zip) => localHeaders(zip).some((header) => nonAscii(header.name) && (header.flags & UTF8_FLAG) !== 0)
}

export const DATA_DESCRIPTORS: Trait = {
  what: 'zip entries whose sizes follow them in a data descriptor',
  holds: (zip) => localHeaders(zip).some((header) => (header.flags & DATA_DESCRIPTOR_FLAG) !== 0)
}

export const ZIP64_LOCAL_SIZES: Trait = {
  what: 'zip local headers whose sizes are in a zip64 extra field',
  holds: (zip) =>
    localHeaders(zip).some((header) => header.compressedSize === 0xffffffff && extraIds(header.extra).includes(1))
}

/**
 * A zip64 block in local headers, whatever their size fields say: streaming, Debian's Python 3.11.2 writes
 * zeros there and Python 3.11.7 writes 0xffffffff.
 */
export const ZIP64_LOCAL_FIELD: Trait = {
  what: 'zip local headers with a zip64 extra field',
  holds: (zip) => localHeaders(zip).some((header) => extraIds(header.extra).includes(1))
}

export const ZIP64_SIZE_ONLY: Trait = {
  what: 'zip local headers whose zip64 field holds only the uncompressed size',
  holds: (zip) =>
    localHeaders(zip).some(
      (header) => header.size === 0xffffffff && header.compressedSize !== 0xffffffff && zip64Length(header.extra) === 8
    )
}

/** The ids of an extra field's blocks (zip64's is 1). */
function extraIds(extra: Buffer): number[] {
  const ids: number[] = []
  for (let at = 0; at + 4 <= extra.length; at += 4 + extra.readUInt16LE(at + 2)) ids.push(extra.readUInt16LE(at))
  return ids
}

/** The length of the zip64 block of an extra field (-1: none). */
function zip64Length(extra: Buffer): number {
  for (let at = 0; at + 4 <= extra.length; at += 4 + extra.readUInt16LE(at + 2)) {
    if (extra.readUInt16LE(at) === 1) return extra.readUInt16LE(at + 2)
  }
  return -1
}

export const PADDED_AFTER_END: Trait = {
  what: 'bytes after the zip end record (and its comment)',
  holds: (zip) => {
    const end = zip.lastIndexOf(END_RECORD)
    return end >= 0 && end + 22 + zip.readUInt16LE(end + 20) < zip.length
  }
}

export const PREFIXED: Trait = {
  what: 'bytes before the first zip record',
  holds: (zip) => zip.indexOf(LOCAL_HEADER) > 0
}

export const FIFO_MODE_ENTRY: Trait = {
  what: 'a zip entry whose Unix mode (in its central record) says fifo',
  holds: (zip) => {
    for (let at = zip.indexOf(CENTRAL_HEADER); at >= 0; at = zip.indexOf(CENTRAL_HEADER, at + 4)) {
      if (((zip.readUInt32LE(at + 38) >>> 16) & 0o170000) === 0o010000) return true
    }
    return false
  }
}
