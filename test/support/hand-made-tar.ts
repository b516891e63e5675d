/**
 * Tars no tool here writes, built by hand: a Solaris tar with ACL entries, and sparse tar members
 * in each flavour GNU tar reads (old GNU `S`, pax 0.0, 0.1 and 1.0), whose size may lie: the
 * member says it is `realSize` bytes while its map writes `regions` pieces of data, `spacing`
 * bytes apart. GNU tar lists the size it is told and writes what the map says.
 */
import { TAR_BLOCK_BYTES } from '../../src/archive/format.js'

export type SparseFlavour = 'gnu' | '0.0' | '0.1' | '1.0'

export interface SparseMember {
  name: string
  realSize: number
  regions: number
  /** Bytes of data in each region (1 KiB unless said), and from one region's start to the next's (1 MiB). */
  regionBytes?: number
  spacing?: number
}

/** A plain tar holding one sparse member of `flavour`, and its end blocks. */
export function sparseTar(flavour: SparseFlavour, member: SparseMember): Buffer {
  const regionBytes = member.regionBytes ?? 1024
  const offsets = Array.from({ length: member.regions }, (_, i) => i * (member.spacing ?? 1024 * 1024))
  const data = Buffer.alloc(member.regions * regionBytes, 'x')
  const end = Buffer.alloc(2 * TAR_BLOCK_BYTES)
  const size = String(member.realSize)
  const pax = (records: Array<[string, string]>, name: string, body: Buffer): Buffer => {
    const text = Buffer.from(records.map(([key, value]) => paxRecord(key, value)).join(''))
    return Buffer.concat([
      header(`PaxHeaders/${member.name}`, text.length, 'x'),
      padded(text),
      header(name, body.length, '0'),
      padded(body)
    ])
  }
  switch (flavour) {
    case 'gnu': {
      if (member.regions > 4) throw new Error('an old GNU header holds four regions')
      const fields: Array<[number, string]> = offsets.flatMap((offset, i): Array<[number, string]> => [
        [386 + 24 * i, octal(offset, 12)],
        [398 + 24 * i, octal(regionBytes, 12)]
      ])
      fields.push([483, octal(member.realSize, 12)])
      return Buffer.concat([header(member.name, data.length, 'S', fields, 'ustar  \0'), padded(data), end])
    }
    case '0.0': {
      const map = offsets.flatMap((offset): Array<[string, string]> => [
        ['GNU.sparse.offset', String(offset)],
        ['GNU.sparse.numbytes', String(regionBytes)]
      ])
      const records: Array<[string, string]> = [
        ['GNU.sparse.size', size],
        ['GNU.sparse.numblocks', String(member.regions)]
      ]
      return Buffer.concat([pax([...records, ...map], member.name, data), end])
    }
    case '0.1': {
      const map = offsets.map((offset) => `${offset},${regionBytes}`).join(',')
      const records: Array<[string, string]> = [
        ['GNU.sparse.size', size],
        ['GNU.sparse.numblocks', String(member.regions)],
        ['GNU.sparse.map', map]
      ]
      return Buffer.concat([pax(records, member.name, data), end])
    }
    case '1.0': {
      const map = padded(
        Buffer.from(`${member.regions}\n${offsets.map((offset) => `${offset}\n${regionBytes}\n`).join('')}`)
      )
      const records: Array<[string, string]> = [
        ['GNU.sparse.major', '1'],
        ['GNU.sparse.minor', '0'],
        ['GNU.sparse.name', member.name],
        ['GNU.sparse.realsize', size]
      ]
      return Buffer.concat([pax(records, `GNUSparseFile.0/${member.name}`, Buffer.concat([map, data])), end])
    }
  }
}

/** A ustar header block (`magic`: POSIX's by default, old GNU's `ustar  \0`), its checksum computed. */
function header(
  name: string,
  size: number,
  type: string,
  fields: Array<[number, string]> = [],
  magic = 'ustar\u000000',
  mode = 0o644
) {
  const block = Buffer.alloc(TAR_BLOCK_BYTES)
  block.write(name, 0, 100, 'utf8')
  block.write(octal(mode, 8), 100, 'latin1')
  block.write(octal(0, 8), 108, 'latin1')
  block.write(octal(0, 8), 116, 'latin1')
  block.write(octal(size, 12), 124, 'latin1')
  block.write(octal(0, 12), 136, 'latin1')
  block.write(type, 156, 'latin1')
  block.write(magic, 257, 'latin1')
  for (const [at, text] of fields) block.write(text, at, 'latin1')
  block.fill(0x20, 148, 156)
  const sum = block.reduce((total, byte) => total + byte, 0)
  block.write(`${octal(sum, 7)} `, 148, 'latin1')
  return block
}

/** `width - 1` octal digits and a NUL. */
function octal(value: number, width: number): string {
  return `${value.toString(8).padStart(width - 1, '0')}\0`
}

/** A pax record, `<length> <key>=<value>\n`, its length counting its own digits. */
function paxRecord(key: string, value: string): string {
  const body = ` ${key}=${value}\n`
  let length = body.length + 1
  while (String(length).length + body.length !== length) length++
  return `${length}${body}`
}

function padded(data: Buffer): Buffer {
  const rest = data.length % TAR_BLOCK_BYTES
  return rest === 0 ? data : Buffer.concat([data, Buffer.alloc(TAR_BLOCK_BYTES - rest)])
}

/** A member of solarisAclTar: a file or folder (name ending in `/`) and its ACL in Solaris tar's text. */
interface AclMember {
  name: string
  type: '0' | '5'
  mode: number
  acl: string
}

/**
 * A tar as Solaris tar writes one with ACLs (laid out as libarchive's test data of it): before each
 * member, an entry of type `A` under the member's name whose data is the ACL (its kind, a NUL, the
 * entries, a NUL). GNU tar knows no type `A`: it writes each as a file, which the member then replaces.
 */
export function solarisAclTar(): Buffer {
  const members: AclMember[] = [
    {
      name: 'file-with-posix-acls',
      type: '0',
      mode: 0o644,
      acl: '1000007\0user::rw-,user:lp:--x:71,group::r--,mask:r--,other:r--'
    },
    {
      name: 'dir-with-posix-acls/',
      type: '5',
      mode: 0o750,
      acl: '1000014\0user::rwx,group::r-x,mask:r-x,other:---,defaultuser::rwx'
    },
    {
      name: 'file-with-nfsv4-acls',
      type: '0',
      mode: 0o640,
      acl: '3000006\0group:daemon:rwxp--aARWcCos:-------:deny:12,owner@:rw-p--aARWcCos:-------:allow'
    },
    {
      name: 'dir-with-nfsv4-acls/',
      type: '5',
      mode: 0o750,
      acl: '3000005\0owner@:rwxp-DaARWcCos:-------:allow,everyone@:r-x---a-R-c--s:-------:allow'
    }
  ]
  const blocks = members.flatMap(({ name, type, mode, acl }) => {
    const data = Buffer.from(`${acl}\0`, 'latin1')
    return [
      header(name, data.length, 'A', [], undefined, mode),
      padded(data),
      header(name, 0, type, [], undefined, mode)
    ]
  })
  return Buffer.concat([...blocks, Buffer.alloc(2 * TAR_BLOCK_BYTES)])
}
