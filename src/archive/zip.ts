/**
 * Unpacks a downloaded zip file. Zip keeps its directory at the end, so unlike tar it cannot be
 * unpacked while it downloads: it is read from the finished file with yauzl.
 */
import yauzl from 'yauzl'
import type { Entry, ZipFile } from 'yauzl'
import { MAX_LINK_TARGET_BYTES } from './entry-safety.js'
import { type EntryStream, readEntry } from './entry-streams.js'
import { UnsafeEntryError, corrupt } from './errors.js'
import type { SiteWriter } from './site-writer.js'

const S_IFMT = 0o170000
const S_IFREG = 0o100000
const S_IFDIR = 0o040000
const S_IFLNK = 0o120000
/** "Version made by" high byte of archives written on unix: only they carry a unix mode. */
const MADE_BY_UNIX = 3
const MSDOS_DIRECTORY = 0x10

const KIND_NAMES: Record<number, string> = { 0o010000: 'fifo', 0o020000: 'character device', 0o060000: 'block device', 0o140000: 'socket' }

export async function unpackZip(file: string, writer: SiteWriter): Promise<void> {
  let zip: ZipFile
  try {
    // decodeStrings: false, so that names are judged by our checks (with messages naming the
    // entry), not refused by yauzl as a generic error that would look like a corrupt archive.
    zip = await yauzl.openPromise(file, { lazyEntries: true, decodeStrings: false, validateEntrySizes: true, autoClose: false })
  } catch (error) {
    throw corrupt(error)
  }
  try {
    // The central directory says how many entries follow: too many fails before any is written.
    // Each entry's size is checked as it comes, before it is inflated (a second pass over the
    // directory to add them all up first would cost a quarter of the time of a site of small
    // files), and its bytes as they are written.
    writer.checkDeclared(zip.entryCount)
    await new Promise<void>((resolve, reject) => {
      zip.on('entry', (entry: Entry) => {
        unpackEntry(zip, entry, writer).then(() => zip.readEntry(), reject)
      })
      zip.on('end', () => resolve())
      zip.on('error', (error: unknown) => reject(corrupt(error)))
      zip.readEntry()
    })
  } finally {
    zip.close()
  }
}

async function unpackEntry(zip: ZipFile, entry: Entry, writer: SiteWriter): Promise<void> {
  // With decodeStrings off, yauzl leaves the name undecoded; this is its own decoder (UTF-8 flag,
  // Info-ZIP unicode path field, CP437 otherwise). "Strict" keeps backslashes as they are, so
  // errors name the entry as the archive spells it; our checks treat them as separators.
  const name = yauzl.getFileNameLowLevel(entry.generalPurposeBitFlag, entry.fileNameRaw, entry.extraFields, true)
  const unixMode = entry.versionMadeBy >> 8 === MADE_BY_UNIX ? entry.externalFileAttributes >>> 16 : 0
  const kind = unixMode & S_IFMT
  if (kind === S_IFDIR || name.endsWith('/') || (kind === 0 && (entry.externalFileAttributes & MSDOS_DIRECTORY) !== 0)) {
    await writer.directory(name)
    return
  }
  if (kind === S_IFLNK) {
    // The target is the entry's content: read only what a path can hold, never a bomb's worth.
    if (entry.uncompressedSize > MAX_LINK_TARGET_BYTES) {
      throw new UnsafeEntryError(name, `is a symlink whose target is longer than ${MAX_LINK_TARGET_BYTES} bytes (it declares ${entry.uncompressedSize})`)
    }
    const target = Buffer.concat(await readEntry(await openEntry(zip, entry), entry.uncompressedSize))
    writer.symlink(name, target.toString('utf8'))
    return
  }
  if (kind !== 0 && kind !== S_IFREG) {
    writer.skip(name, KIND_NAMES[kind] ?? 'special file')
    return
  }
  const mode = unixMode & 0o777 ? unixMode : undefined
  await writer.file(name, mode, entry.uncompressedSize, await openEntry(zip, entry))
}

async function openEntry(zip: ZipFile, entry: Entry): Promise<EntryStream> {
  try {
    return await zip.openReadStreamPromise(entry)
  } catch (error) {
    throw corrupt(error)
  }
}
