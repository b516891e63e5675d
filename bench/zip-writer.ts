/**
 * A streaming zip writer for the generated bundles: entries go to the file as they come, so a
 * 1 GiB site needs no GiB of memory (the simulator's buildZip builds the whole archive in memory,
 * which is right for its small test archives, not for these).
 *
 * Written like `zip -r -6` writes a file: directory entries, each file deflated at level 6 or
 * stored when deflating does not make it smaller (images, PDFs), sizes and CRC in the local
 * header (no data descriptors), Unix modes in the central directory. No zip64: the bundles stay
 * below 4 GiB and 65,535 entries, and the writer refuses anything larger.
 */
import { createWriteStream, type WriteStream } from 'node:fs'
import { promisify } from 'node:util'
import zlib from 'node:zlib'

const deflateRaw = promisify(zlib.deflateRaw)
/** Deflates in flight at once: the libuv pool compresses while the caller generates the next files. */
const WINDOW = 8
const VERSION_MADE_BY_UNIX = (3 << 8) | 20
const VERSION_NEEDED = 20

interface Prepared {
  name: Buffer
  crc: number
  size: number
  method: 0 | 8
  data: Buffer
  mode: number
}

export class ZipWriter {
  private readonly out: WriteStream
  private readonly central: Buffer[] = []
  private readonly pending: Promise<Prepared>[] = []
  private offset = 0
  private entries = 0
  private readonly dosDate: number
  private readonly dosTime: number

  constructor(file: string, mtime: Date) {
    this.out = createWriteStream(file)
    this.dosDate = ((mtime.getUTCFullYear() - 1980) << 9) | ((mtime.getUTCMonth() + 1) << 5) | mtime.getUTCDate()
    this.dosTime = (mtime.getUTCHours() << 11) | (mtime.getUTCMinutes() << 5) | (mtime.getUTCSeconds() >> 1)
  }

  /** A file (`content`) or a directory (`name` ending in '/', no content). */
  async add(name: string, content?: Buffer): Promise<void> {
    this.pending.push(prepare(name, content))
    if (this.pending.length >= WINDOW) await this.writeOne()
  }

  async finish(): Promise<void> {
    while (this.pending.length > 0) await this.writeOne()
    const directory = Buffer.concat(this.central)
    const end = Buffer.alloc(22)
    end.writeUInt32LE(0x06054b50, 0)
    end.writeUInt16LE(this.entries, 8)
    end.writeUInt16LE(this.entries, 10)
    end.writeUInt32LE(directory.length, 12)
    end.writeUInt32LE(this.offset, 16)
    await this.write(directory)
    await this.write(end)
    await new Promise<void>((resolve, reject) =>
      this.out.end((error?: Error | null) => (error ? reject(error) : resolve()))
    )
  }

  /** Writes the oldest prepared entry: entries keep the order they were added in. */
  private async writeOne(): Promise<void> {
    const entry = await this.pending.shift()!
    if (++this.entries > 0xffff || this.offset + 30 + entry.name.length + entry.data.length > 0xffffffff) {
      throw new Error('zip-writer: the archive would need zip64, which this writer does not write')
    }
    const local = Buffer.alloc(30)
    local.writeUInt32LE(0x04034b50, 0)
    local.writeUInt16LE(VERSION_NEEDED, 4)
    local.writeUInt16LE(entry.method, 8)
    local.writeUInt16LE(this.dosTime, 10)
    local.writeUInt16LE(this.dosDate, 12)
    local.writeUInt32LE(entry.crc, 14)
    local.writeUInt32LE(entry.data.length, 18)
    local.writeUInt32LE(entry.size, 22)
    local.writeUInt16LE(entry.name.length, 26)

    const central = Buffer.alloc(46)
    central.writeUInt32LE(0x02014b50, 0)
    central.writeUInt16LE(VERSION_MADE_BY_UNIX, 4)
    central.writeUInt16LE(VERSION_NEEDED, 6)
    central.writeUInt16LE(entry.method, 10)
    central.writeUInt16LE(this.dosTime, 12)
    central.writeUInt16LE(this.dosDate, 14)
    central.writeUInt32LE(entry.crc, 16)
    central.writeUInt32LE(entry.data.length, 20)
    central.writeUInt32LE(entry.size, 24)
    central.writeUInt16LE(entry.name.length, 28)
    // Unix mode in the high half; the MS-DOS directory bit for directories.
    central.writeUInt32LE(((entry.mode << 16) | (entry.mode & 0o040000 ? 0x10 : 0)) >>> 0, 38)
    central.writeUInt32LE(this.offset, 42)
    this.central.push(central, entry.name)

    await this.write(local)
    await this.write(entry.name)
    await this.write(entry.data)
    this.offset += local.length + entry.name.length + entry.data.length
  }

  private write(chunk: Buffer): Promise<void> {
    if (this.out.write(chunk)) return Promise.resolve()
    return new Promise((resolve) => this.out.once('drain', resolve))
  }
}

async function prepare(name: string, content: Buffer | undefined): Promise<Prepared> {
  const nameBytes = Buffer.from(name, 'utf8')
  if (content === undefined)
    return { name: nameBytes, crc: 0, size: 0, method: 0, data: Buffer.alloc(0), mode: 0o040755 }
  const crc = zlib.crc32(content) >>> 0
  const deflated = content.length === 0 ? content : await deflateRaw(content, { level: 6 })
  const stored = deflated.length >= content.length
  return {
    name: nameBytes,
    crc,
    size: content.length,
    method: stored ? 0 : 8,
    data: stored ? content : deflated,
    mode: 0o100644
  }
}
