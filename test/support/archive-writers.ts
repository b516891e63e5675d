/**
 * Archives made by the tools people make them with, at test time: GNU tar, bsdtar, Info-ZIP zip,
 * and Python's tarfile and zipfile. Each returns the archive's bytes.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises'
import * as path from 'node:path'
import { fileURLToPath } from 'node:url'
import { mustRun } from './archive-tools.js'
import { type EntryName, type TreeEntry, nameBytes, topLevelNames, writeTree } from './source-tree.js'

/** The names an archiver is asked to pack, NUL-separated on its standard input (latin-1 names stay bytes). */
function nameList(entries: readonly TreeEntry[]): Buffer {
  return Buffer.concat(topLevelNames(entries).flatMap((name) => [name, Buffer.from([0])]))
}

export interface GnuTarOptions {
  /** `--format=`: gnu (GNU tar's default), posix, ustar, oldgnu or v7. */
  format: 'gnu' | 'posix' | 'ustar' | 'oldgnu' | 'v7'
  gzip?: boolean
  /** More options before `-cf` (`--label=...`, `--listed-incremental=...`). */
  args?: string[]
}

/** GNU tar of `entries`, written below `scratch/source` first; members in name order. */
export async function gnuTar(scratch: string, entries: readonly TreeEntry[], options: GnuTarOptions): Promise<Buffer> {
  const source = path.join(scratch, 'source')
  await writeTree(source, entries)
  const args = [`--format=${options.format}`, '--sort=name', ...(options.args ?? [])]
  if (options.gzip) args.push('-z')
  return mustRun('tar', [...args, '-cf', '-', '-C', source, '--null', '-T', '-'], { input: nameList(entries) })
}

/** GNU tar of a folder given as `.`, as the reproducer packs it: every name starts with `./`. */
export async function gnuTarOfDot(scratch: string, entries: readonly TreeEntry[], gzip: boolean): Promise<Buffer> {
  const source = path.join(scratch, 'source')
  await writeTree(source, entries)
  return mustRun('tar', [gzip ? '-czf' : '-cf', '-', '-C', source, '.'])
}

/**
 * bsdtar (libarchive) of `entries`, written below `scratch/source` first. To its standard output by
 * default, where it pads every archive to a whole block (10 KiB), a zip too, after its end record;
 * `toFile`: to a file, where a zip ends at its end record.
 */
export async function bsdtar(
  scratch: string,
  entries: readonly TreeEntry[],
  options: { format: 'gnutar' | 'pax' | 'ustar' | 'v7' | 'zip'; args?: string[]; toFile?: boolean }
): Promise<Buffer> {
  const source = path.join(scratch, 'source')
  await writeTree(source, entries)
  const output = options.toFile ? path.join(scratch, `bsdtar.${options.format}`) : '-'
  const args = ['--format', options.format, ...(options.args ?? []), '-cf', output, '-C', source, '--null', '-T', '-']
  const stdout = await mustRun('bsdtar', args, { input: nameList(entries) })
  return options.toFile ? readFile(output) : stdout
}

export interface InfoZipOptions {
  /** Options before the archive's name: `-y` (symlinks as links), `-0` (stored), `-fz` (zip64), `-D`. */
  args: string[]
  /** Written to a pipe, which zip cannot seek back in: every entry's sizes follow it in a data descriptor. */
  stream?: boolean
}

/** Info-ZIP zip of `entries` (UTF-8 names, as under a UTF-8 locale), written below `scratch/source` first. */
export async function infoZip(
  scratch: string,
  entries: readonly TreeEntry[],
  options: InfoZipOptions
): Promise<Buffer> {
  const source = path.join(scratch, 'source')
  await writeTree(source, entries)
  const names = topLevelNames(entries).map((name) => name.toString())
  const env = { LC_ALL: 'C.UTF-8' }
  if (options.stream) return mustRun('zip', ['-q', '-r', ...options.args, '-', ...names], { cwd: source, env })
  const archive = path.join(scratch, 'info-zip.zip')
  await mustRun('zip', ['-q', '-r', ...options.args, archive, ...names], { cwd: source, env })
  return readFile(archive)
}

/**
 * Info-ZIP zip of `entries` (stored: `-0`), its end record then saying that a comment of 100 bytes
 * follows, which is not there: a zip cut short. unzip reads it with a warning ("zipfile comment truncated").
 */
export async function infoZipCommentCut(scratch: string, entries: readonly TreeEntry[]): Promise<Buffer> {
  const zip = await infoZip(scratch, entries, { args: ['-0', '-X'] })
  zip.writeUInt16LE(100, zip.length - 2)
  return zip
}

/**
 * Info-ZIP zip reading a file on its standard input and writing to a pipe (`zip < page | ...`): one
 * entry named `-`. Not knowing what it will write, zip gives the local header zip64 sizes (the
 * uncompressed one first), the others in a data descriptor after the data.
 */
export async function infoZipOfStdin(scratch: string, content: string): Promise<Buffer> {
  await mkdir(scratch, { recursive: true })
  const input = path.join(scratch, 'standard-input')
  await writeFile(input, content)
  return mustRun('zip', ['-q'], { inputFile: input, env: { LC_ALL: 'C.UTF-8' } })
}

/**
 * Info-ZIP zip in a shell pipeline (`printf ... | zip | ...`): as above, and the entry `-` takes the
 * mode of zip's standard input, a fifo, while it holds the data written to it.
 */
export function infoZipInPipeline(content: string): Promise<Buffer> {
  return mustRun('sh', ['-c', 'printf %s "$1" | zip -q', 'sh', content], { env: { LC_ALL: 'C.UTF-8' } })
}

/**
 * A zip behind a prefix (a self-extracting stub), its offsets adjusted by `zip -A` as Info-ZIP does
 * for such archives: readers find the zip from its end.
 */
export async function infoZipWithPrefix(
  scratch: string,
  entries: readonly TreeEntry[],
  prefix: string
): Promise<Buffer> {
  const zip = await infoZip(scratch, entries, { args: ['-y'] })
  const archive = path.join(scratch, 'prefixed.zip')
  await writeFile(archive, Buffer.concat([Buffer.from(prefix), zip]))
  await mustRun('zip', ['-q', '-A', archive])
  return readFile(archive)
}

/** An entry for Python's writers: TreeEntry's kinds and the devices, with what a case needs of a header. */
export interface PythonEntry {
  type: TreeEntry['type'] | 'chr' | 'blk'
  name: EntryName
  content?: Buffer | string
  target?: EntryName
  mode?: number
  /** tar: pax records of this entry's own extended header. */
  pax?: Record<string, string>
  /** tar: the size field of a header-only entry (no data follows it). */
  declaredSize?: number
  /** tar: the raw 12 bytes of the size field, written over what tarfile wrote (see python-archive.py). */
  sizeField?: Buffer
}

export type PythonSpec =
  | {
      kind: 'tar'
      format: 'gnu' | 'pax' | 'ustar'
      /** Records of a global extended header before the first entry. */
      globalPax?: Record<string, string>
      gzip?: boolean
      entries: readonly PythonEntry[]
    }
  | {
      kind: 'zip'
      /** false: non-ASCII names in UTF-8 without the UTF-8 flag (macOS's way). Default true. */
      utf8Flag?: boolean
      /** Written to a stream zipfile cannot seek in: data descriptors after every entry. */
      stream?: boolean
      /** A zip64 extra field on every entry, sizes in it. */
      zip64?: boolean
      /**
       * Files only, deflated, built with struct: local zip64 fields with only the uncompressed size,
       * the rest in zip64 data descriptors (libarchive's zip64b.zip); see python-archive.py.
       */
      zip64SizeFirst?: boolean
      entries: readonly PythonEntry[]
    }

const PYTHON_WRITER = fileURLToPath(new URL('./python-archive.py', import.meta.url))

function base64(value: Buffer | string | undefined): string | undefined {
  return value === undefined ? undefined : Buffer.from(value).toString('base64')
}

/** Python's tarfile or zipfile, writing what `spec` says. */
export function pythonArchive(spec: PythonSpec): Promise<Buffer> {
  const entries = spec.entries.map((entry) => ({
    ...entry,
    name: base64(nameBytes(entry.name)),
    content: base64(entry.content),
    target: entry.target === undefined ? undefined : base64(nameBytes(entry.target)),
    sizeField: base64(entry.sizeField)
  }))
  return mustRun('python3', [PYTHON_WRITER], { input: JSON.stringify({ ...spec, entries }) })
}
