import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import zlib from 'node:zlib'
import { describe, expect, test } from '@jest/globals'
import fc from 'fast-check'
import yauzl from 'yauzl'
import { READ_BYTES, ZipFile } from '../src/archive/zip-file.js'
import {
  CENTRAL_HEADER,
  CENTRAL_HEADER_BYTES,
  END_OF_DIRECTORY,
  LOCAL_HEADER_BYTES,
  parseCentralHeader,
  parseLocalHeader
} from '../src/archive/zip-records.js'
import { tempFolder } from './support/temp.js'

const MORE_THAN_32_BITS = 0xffffffff

/** An extra field: its id and data (or a field that claims more bytes than there are). */
type Field = { id: number; data: Buffer } | { truncated: true }

/** Name bytes of the kinds that decode differently: printable ASCII, controls, CP437's upper half, UTF-8, backslashes. */
const nameBytes = fc.oneof(
  fc.stringMatching(/^[ -~]{1,40}$/).map((s) => Buffer.from(s, 'latin1')),
  fc.uint8Array({ minLength: 1, maxLength: 40 }).map((a) => Buffer.from(a)),
  fc.string({ unit: 'grapheme', minLength: 1, maxLength: 20 }).map((s) => Buffer.from(s, 'utf8')),
  fc
    .constantFrom('docs\\page.html', 'a\u0001b', 'caf\u00e9.html', 'tilde~/del\u007f')
    .map((s) => Buffer.from(s, 'latin1'))
)

/** Extra fields for a name: zip64 fields of any length, unicode path fields right and wrong, others, a truncated one. */
function fieldsFor(name: Buffer): fc.Arbitrary<Field[]> {
  const u64 = fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER })
  const zip64 = fc.array(u64, { maxLength: 3 }).map((values) => {
    const data = Buffer.alloc(values.length * 8)
    values.forEach((value, i) => data.writeBigUInt64LE(BigInt(value), i * 8))
    return { id: 0x0001, data }
  })
  const unicodePath = fc
    .record({
      version: fc.constantFrom(1, 1, 2),
      rightCrc: fc.boolean(),
      text: fc.string({ minLength: 0, maxLength: 12 }),
      short: fc.boolean()
    })
    .map(({ version, rightCrc, text, short }) => {
      const data = Buffer.concat([Buffer.from([version]), Buffer.alloc(4), Buffer.from(text, 'utf8')])
      data.writeUInt32LE(rightCrc ? zlib.crc32(name) : (zlib.crc32(name) + 1) >>> 0, 1)
      return { id: 0x7075, data: short ? data.subarray(0, 5) : data }
    })
  const other = fc.record({
    id: fc.constantFrom(0x5455, 0x7875, 0x000a),
    data: fc.uint8Array({ maxLength: 12 }).map((a) => Buffer.from(a))
  })
  const field: fc.Arbitrary<Field> = fc.oneof(zip64, unicodePath, other)
  return fc
    .tuple(fc.array(field, { maxLength: 3 }), fc.constantFrom<Field[]>([], [], [], [{ truncated: true }]))
    .map(([fields, end]) => [...fields, ...end])
}

function extraBytes(fields: Field[], trailing: number): Buffer {
  const parts = fields.map((field) => {
    if ('truncated' in field) return Buffer.from([0x55, 0x54, 0x09, 0x00, 0x01])
    const head = Buffer.alloc(4)
    head.writeUInt16LE(field.id, 0)
    head.writeUInt16LE(field.data.length, 2)
    return Buffer.concat([head, field.data])
  })
  // 1 to 3 bytes left over at the end are not a field (yauzl ignores them).
  return Buffer.concat([...parts, Buffer.alloc(trailing, 0x7a)])
}

/** What yauzl makes of a record's name and zip64 field: the reference the quick parse must match. */
function reference(flags: number, name: Buffer, extra: Buffer): { name: string; zip64: Buffer | undefined } {
  const fields = yauzl.parseExtraFields(extra)
  return {
    name: yauzl.getFileNameLowLevel(flags, name, fields, true),
    zip64: fields.find((field) => field.id === 0x0001)?.data
  }
}

const record = fc
  .record({
    name: nameBytes,
    utf8: fc.boolean(),
    trailing: fc.constantFrom(0, 0, 1, 3),
    big: fc.boolean(),
    prefix: fc.nat({ max: 7 })
  })
  .chain((r) => fieldsFor(r.name).map((fields) => ({ ...r, fields })))

/** What a parse gave, or the refusal it threw (by the phrase that names it): one value to compare. */
function outcome<T>(parse: () => T): T | { refused: string } {
  try {
    return parse()
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error)
    const known = [
      'extra field length exceeds extra field buffer size',
      'a zip64 local header without its sizes',
      'zip64 extended information extra field does not include'
    ]
    return { refused: known.find((phrase) => message.includes(phrase)) ?? message }
  }
}

describe('zip records', () => {
  test('a local header reads as yauzl reads it: name, bytes, zip64 sizes, refusals', () => {
    fc.assert(
      fc.property(record, ({ name, utf8, trailing, fields, big, prefix }) => {
        const extra = extraBytes(fields, trailing)
        const fixed = Buffer.alloc(LOCAL_HEADER_BYTES)
        fixed.writeUInt32LE(0x04034b50, 0)
        fixed.writeUInt16LE(utf8 ? 0x0800 : 0, 6)
        fixed.writeUInt16LE(8, 8)
        fixed.writeUInt32LE(0x1234abcd, 14)
        fixed.writeUInt32LE(big ? MORE_THAN_32_BITS : 100, 18)
        fixed.writeUInt32LE(big ? MORE_THAN_32_BITS : 200, 22)
        fixed.writeUInt16LE(name.length, 26)
        fixed.writeUInt16LE(extra.length, 28)
        const buffer = Buffer.concat([Buffer.alloc(prefix, 0xee), fixed, name, extra, Buffer.from('data')])
        const parsed = outcome(() => {
          const entry = parseLocalHeader(buffer, prefix, 5000)
          return {
            name: entry.name,
            rawName: entry.rawName,
            crc: entry.crc,
            sizes: [entry.size, entry.compressedSize],
            dataStart: entry.dataStart
          }
        })
        const expected = outcome(() => {
          const { name: decoded, zip64 } = reference(utf8 ? 0x0800 : 0, name, extra)
          // A local header's zip64 field holds both sizes, the original one first.
          if (big && (zip64 === undefined || zip64.length < 16))
            throw new Error('a zip64 local header without its sizes')
          const sizes =
            big && zip64 !== undefined
              ? [Number(zip64.readBigUInt64LE(0)), Number(zip64.readBigUInt64LE(8))]
              : [200, 100]
          return {
            name: decoded,
            rawName: name.toString('latin1'),
            crc: 0x1234abcd,
            sizes,
            dataStart: 5000 + LOCAL_HEADER_BYTES + name.length + extra.length
          }
        })
        expect(parsed).toEqual(expected)
      }),
      { numRuns: 2000 }
    )
  })

  test('a central directory record reads as yauzl reads it: name, bytes, the zip64 fields that are there, refusals', () => {
    fc.assert(
      fc.property(record, fc.boolean(), ({ name, utf8, trailing, fields, big, prefix }, bigOffset) => {
        const extra = extraBytes(fields, trailing)
        const fixed = Buffer.alloc(CENTRAL_HEADER_BYTES)
        fixed.writeUInt32LE(CENTRAL_HEADER, 0)
        fixed.writeUInt16LE((3 << 8) | 20, 4)
        fixed.writeUInt16LE(utf8 ? 0x0800 : 0, 8)
        fixed.writeUInt16LE(8, 10)
        fixed.writeUInt32LE(big ? MORE_THAN_32_BITS : 100, 20)
        fixed.writeUInt32LE(big ? MORE_THAN_32_BITS : 200, 24)
        fixed.writeUInt16LE(name.length, 28)
        fixed.writeUInt16LE(extra.length, 30)
        fixed.writeUInt16LE(3, 32)
        fixed.writeUInt32LE(0o100644 * 0x10000, 38)
        fixed.writeUInt32LE(bigOffset ? MORE_THAN_32_BITS : 777, 42)
        const buffer = Buffer.concat([Buffer.alloc(prefix, 0xee), fixed, name, extra, Buffer.from('abc')])
        const parsed = outcome(() => {
          const entry = parseCentralHeader(buffer, prefix)
          return {
            name: entry.name,
            rawName: entry.rawName,
            values: [entry.size, entry.compressedSize, entry.offset],
            mode: entry.externalAttributes >>> 16
          }
        })
        const expected = outcome(() => {
          const { name: decoded, zip64 } = reference(utf8 ? 0x0800 : 0, name, extra)
          const values = [
            big ? MORE_THAN_32_BITS : 200,
            big ? MORE_THAN_32_BITS : 100,
            bigOffset ? MORE_THAN_32_BITS : 777
          ]
          // Only the fields that overflow are in the zip64 field, in this order.
          let at = 0
          for (const [i, overflows] of [big, big, bigOffset].entries()) {
            if (!overflows || zip64 === undefined) continue
            if (at + 8 > zip64.length) throw new Error('zip64 extended information extra field does not include')
            values[i] = Number(zip64.readBigUInt64LE(at))
            at += 8
          }
          return { name: decoded, rawName: name.toString('latin1'), values, mode: 0o100644 }
        })
        expect(parsed).toEqual(expected)
      }),
      { numRuns: 2000 }
    )
  })

  test('a central directory past one read is walked whole, records cut by the window included', async () => {
    const { dir, remove } = await tempFolder()
    try {
      // Names of many lengths (one of 60,000 bytes, with an extra field and a comment) so that
      // records straddle the 1 MiB windows at every offset.
      const names: string[] = []
      const records: Buffer[] = []
      let bytes = 0
      for (let i = 0; bytes < 2.5 * READ_BYTES; i++) {
        const name =
          i === 9000 ? `long/${'n'.repeat(60_000)}.html` : `docs/section-${i % 97}/${'p'.repeat(i % 151)}${i}.html`
        const extra = i % 5 === 0 ? Buffer.from([0x55, 0x54, 0x05, 0x00, 0x03, 1, 2, 3, 4]) : Buffer.alloc(0)
        const comment = i === 9000 ? Buffer.alloc(4000, 0x63) : Buffer.alloc(0)
        const fixed = Buffer.alloc(CENTRAL_HEADER_BYTES)
        fixed.writeUInt32LE(CENTRAL_HEADER, 0)
        fixed.writeUInt16LE(Buffer.byteLength(name), 28)
        fixed.writeUInt16LE(extra.length, 30)
        fixed.writeUInt16LE(comment.length, 32)
        fixed.writeUInt32LE(i, 42)
        records.push(fixed, Buffer.from(name), extra, comment)
        bytes += fixed.length + Buffer.byteLength(name) + extra.length + comment.length
        names.push(name)
      }
      const end = Buffer.alloc(22)
      end.writeUInt32LE(END_OF_DIRECTORY, 0)
      end.writeUInt16LE(names.length, 8)
      end.writeUInt16LE(names.length, 10)
      end.writeUInt32LE(bytes, 12)
      end.writeUInt32LE(0, 16)
      const path = join(dir, 'directory.zip')
      await writeFile(path, Buffer.concat([...records, end]))
      const file = await ZipFile.open(path)
      try {
        const directory = await file.directory()
        const read: { name: string; offset: number }[] = []
        for await (const batch of file.centralEntries(directory))
          for (const entry of batch) read.push({ name: entry.name, offset: entry.offset })
        expect(read).toEqual(names.map((name, i) => ({ name, offset: i })))
      } finally {
        await file.close()
      }
    } finally {
      await remove()
    }
  })
})
