/**
 * The differential suite: archives made at test time by the tools people make them with (GNU tar,
 * bsdtar, Info-ZIP zip, Python's tarfile and zipfile), each served by the simulator as the export's
 * bundle and unpacked by the BUILT action (dist/index.js, run as the runner runs it: `npm run
 * bundle` first), then held to what GNU tar or Info-ZIP unzip make of the same bytes: the same tree,
 * or, for hostile input, a clear refusal that leaves the previous site and everything outside as they
 * were. Each case runs in a folder of its own, so the cases run side by side.
 */
import { mkdir, readdir } from 'node:fs/promises'
import * as path from 'node:path'
import { beforeAll, describe, expect, test } from '@jest/globals'
import { requireTools } from '../support/archive-tools.js'
import {
  type PythonEntry,
  bsdtar,
  gnuTar,
  gnuTarOfDot,
  infoZip,
  infoZipCommentCut,
  infoZipInPipeline,
  infoZipOfStdin,
  infoZipWithPrefix,
  pythonArchive
} from '../support/archive-writers.js'
import {
  DATA_DESCRIPTORS,
  FIFO_MODE_ENTRY,
  NO_USTAR_MAGIC,
  PADDED_AFTER_END,
  PREFIXED,
  SLASH_AT_BYTE_100,
  type Trait,
  UTF8_NAMES_WITHOUT_FLAG,
  UTF8_NAMES_WITH_FLAG,
  ZIP64_LOCAL_FIELD,
  ZIP64_LOCAL_SIZES,
  ZIP64_SIZE_ONLY
} from '../support/archive-traits.js'
import { exportBundle } from '../support/bundle-export.js'
import { solarisAclTar } from '../support/hand-made-tar.js'
import { type ArchiveKind, referenceUnpack } from '../support/reference-unpack.js'
import {
  NAME_FIELD_FOLDER,
  type TreeEntry,
  ZEROS_THEN_TEXT,
  deepTree,
  innerTar,
  longNameTree,
  siteTree,
  writeTree
} from '../support/source-tree.js'
import { tempFolder } from '../support/temp.js'
import { specialsOf, treeOf, withoutSpecials } from '../support/tree-snapshot.js'

/** A case's bound, should a run hang: the cases of the file share two cores, up to five at a time. */
const CASE_TIMEOUT_MS = 120_000

/** A small tar made by GNU tar, to be a file's content (made once, in beforeAll). */
let inner: Buffer

beforeAll(async () => {
  await requireTools()
  const scratch = await tempFolder('docs-admin-diff-')
  try {
    inner = await innerTar(scratch.dir)
  } finally {
    await scratch.remove()
  }
})

test('a missing archiver fails the suite, naming the Debian package that brings it', async () => {
  const missing = {
    command: 'no-such-archiver',
    versionArgs: ['--version'],
    looksRight: /./,
    debianPackage: 'archiver-pkg'
  }
  await expect(requireTools([missing])).rejects.toThrow('no-such-archiver (Debian package archiver-pkg)')
})

interface SameTreeCase {
  name: string
  /** Which reader's tree is the reference: GNU tar's or Info-ZIP unzip's. */
  reader: ArchiveKind
  /** Makes the archive; `scratch` is a folder of its own. */
  build: (scratch: string) => Promise<Buffer>
  /** Paths the reference must hold: proof that the tools made the archive the case is about. */
  holds: string[]
  /** What the archive's bytes must show, the same proof for what a tree cannot show. */
  traits?: Trait[]
  /** More inputs of the run (`verify` is false unless a case is about the site check). */
  inputs?: Record<string, string>
  pageCount?: number
  /** Outputs the run must set. */
  outputs?: Record<string, string>
}

const P = NAME_FIELD_FOLDER
/** Paths every tree made from siteTree() holds. */
const SITE = ['guides/café.html', '日本語/ページ.html', 'empty.html', 'assets/zeros.bin', 'docs', 'zz-last.html']
const LONG = [`${P}/empty.html`, `${P}/inner.tar`, `${P}/page.html`, `${P}/zeros.bin`, 'zz-after.html']
const LATIN1 = [
  { type: 'file', name: Buffer.from('caf\xe9.html', 'latin1'), content: 'é in latin-1\n' },
  { type: 'file', name: Buffer.from('caf\xe8.html', 'latin1'), content: 'è in latin-1\n' },
  { type: 'file', name: 'index.html', content: '<p>index</p>\n' }
] satisfies TreeEntry[]
const LATIN1_NAMES = ['caf\\xe9.html', 'caf\\xe8.html']

/** A small page named after itself. */
const page = (name: string): PythonEntry => ({ type: 'file', name, content: `<p>${name}</p>\n` })

/** One trap of a name whose 100th byte is `/`, alone, and an entry after it that must not go missing. */
function longNameTrap(file: string, content: Buffer | string): TreeEntry[] {
  return [
    { type: 'dir', name: P },
    { type: 'file', name: `${P}/${file}`, content },
    { type: 'file', name: 'zz-after.html', content: '<p>after</p>\n' }
  ]
}

/** Zip has no hard links: the site tree with its hard link as a copy, for Python's zipfile. */
function siteForZip(): PythonEntry[] {
  return siteTree(inner).map((entry) =>
    entry.type === 'hardlink' ? { type: 'file', name: entry.name, content: '<h1>Intro</h1>\n' } : entry
  )
}

const SAME_TREE: SameTreeCase[] = [
  // GNU tar, every format it writes, and its archives that are more than members.
  ...(['gnu', 'posix', 'ustar', 'oldgnu', 'v7'] as const).map((format): SameTreeCase => ({
    name: `GNU tar --format=${format}: the site tree`,
    reader: 'tar',
    build: (scratch) => gnuTar(scratch, siteTree(inner), { format, gzip: format === 'gnu' }),
    holds: SITE,
    traits: format === 'v7' ? [NO_USTAR_MAGIC] : []
  })),
  {
    name: 'GNU tar --label: a volume label before the members',
    reader: 'tar',
    build: (scratch) => gnuTar(scratch, siteTree(inner), { format: 'gnu', args: ['--label=Docs site'] }),
    holds: SITE
  },
  {
    name: 'GNU tar --listed-incremental: folders as dumpdir entries',
    reader: 'tar',
    build: (scratch) =>
      gnuTar(scratch, siteTree(inner), {
        format: 'gnu',
        args: [`--listed-incremental=${path.join(scratch, 'snapshot')}`]
      }),
    holds: [...SITE, 'assets/empty']
  },
  {
    name: 'GNU tar: a fifo in the tree (skipped, with a warning)',
    reader: 'tar',
    build: (scratch) =>
      gnuTar(
        scratch,
        [
          { type: 'file', name: 'index.html', content: '<p>index</p>\n' },
          { type: 'fifo', name: 'pipe' },
          { type: 'file', name: 'zz-after.html', content: '<p>after</p>\n' }
        ],
        { format: 'gnu' }
      ),
    holds: ['pipe', 'zz-after.html']
  },
  {
    // No tool here writes one: built as libarchive's test data of Solaris tar lays it out.
    name: 'Solaris tar with ACL entries: each written as a file, then replaced by its member',
    reader: 'tar',
    build: () => Promise.resolve(solarisAclTar()),
    holds: ['file-with-posix-acls', 'dir-with-posix-acls', 'file-with-nfsv4-acls', 'dir-with-nfsv4-acls']
  },
  // bsdtar's tar formats.
  ...(['gnutar', 'pax', 'ustar', 'v7'] as const).map((format): SameTreeCase => ({
    name: `bsdtar --format=${format}: the site tree`,
    reader: 'tar',
    build: (scratch) => bsdtar(scratch, siteTree(inner), { format, args: format === 'pax' ? ['-z'] : [] }),
    holds: SITE,
    traits: format === 'v7' ? [NO_USTAR_MAGIC] : []
  })),
  // Python's tarfile.
  ...(['gnu', 'pax', 'ustar'] as const).map((format): SameTreeCase => ({
    name: `Python tarfile ${format.toUpperCase()}: the site tree`,
    reader: 'tar',
    build: () => pythonArchive({ kind: 'tar', format, entries: siteTree(inner) }),
    holds: SITE
  })),

  // Names whose 100th byte is `/`: a reader that judges the entry by the truncated name field
  // before the long name replaces it takes the entry for a folder.
  {
    // Packed as `.`, every name starts with `./`, which moves the `/` to byte 102; the cases after
    // it put the `/` at byte 100.
    name: "the issue's reproducer: GNU tar -czf of `.`, a page below a folder of 99 bytes",
    reader: 'tar',
    build: (scratch) =>
      gnuTarOfDot(scratch, [{ type: 'file', name: `${'d'.repeat(99)}/page.html`, content: 'hi\n' }], true),
    holds: [`${'d'.repeat(99)}/page.html`]
  },
  {
    name: 'GNU tar: an empty file whose 100th name byte is `/` (not a folder)',
    reader: 'tar',
    build: (scratch) => gnuTar(scratch, longNameTrap('empty.html', ''), { format: 'gnu', gzip: true }),
    holds: [`${P}/empty.html`, 'zz-after.html'],
    traits: [SLASH_AT_BYTE_100]
  },
  {
    name: 'GNU tar: a file that starts with 512+ zero bytes, its 100th name byte `/` (not the end)',
    reader: 'tar',
    build: (scratch) => gnuTar(scratch, longNameTrap('zeros.bin', ZEROS_THEN_TEXT), { format: 'gnu', gzip: true }),
    holds: [`${P}/zeros.bin`, 'zz-after.html'],
    traits: [SLASH_AT_BYTE_100]
  },
  {
    name: 'GNU tar: a file whose content is a tar, its 100th name byte `/` (its entries not unpacked)',
    reader: 'tar',
    build: (scratch) => gnuTar(scratch, longNameTrap('inner.tar', inner), { format: 'gnu', gzip: true }),
    holds: [`${P}/inner.tar`, 'zz-after.html'],
    traits: [SLASH_AT_BYTE_100]
  },
  {
    name: 'GNU tar: an ordinary page whose 100th name byte is `/`',
    reader: 'tar',
    build: (scratch) => gnuTar(scratch, longNameTrap('page.html', '<p>page</p>\n'), { format: 'gnu' }),
    holds: [`${P}/page.html`, 'zz-after.html'],
    traits: [SLASH_AT_BYTE_100]
  },
  ...(['posix', 'oldgnu', 'ustar'] as const).map((format): SameTreeCase => ({
    name: `GNU tar --format=${format}: names whose 100th byte is \`/\``,
    reader: 'tar',
    build: (scratch) => gnuTar(scratch, longNameTree(inner), { format }),
    holds: LONG,
    // Not a trap for these two: ustar splits such a name into its prefix and name fields, oldgnu
    // ends the truncated name with a NUL at byte 100.
    traits: format === 'posix' ? [SLASH_AT_BYTE_100] : []
  })),
  ...(['gnutar', 'pax', 'ustar'] as const).map((format): SameTreeCase => ({
    name: `bsdtar --format=${format}: names whose 100th byte is \`/\``,
    reader: 'tar',
    build: (scratch) => bsdtar(scratch, longNameTree(inner), { format }),
    holds: LONG,
    traits: format === 'ustar' ? [] : [SLASH_AT_BYTE_100]
  })),
  ...(['gnu', 'pax', 'ustar'] as const).map((format): SameTreeCase => ({
    name: `Python tarfile ${format.toUpperCase()}: names whose 100th byte is \`/\``,
    reader: 'tar',
    build: () => pythonArchive({ kind: 'tar', format, entries: longNameTree(inner) }),
    holds: LONG,
    traits: format === 'ustar' ? [] : [SLASH_AT_BYTE_100]
  })),
  ...(['gnu', 'posix'] as const).map((format): SameTreeCase => ({
    name: `GNU tar --format=${format}: a tree 40 folders deep (~370-byte path)`,
    reader: 'tar',
    build: (scratch) => gnuTar(scratch, deepTree(), { format }),
    holds: ['zz-after.html']
  })),

  // Names that are not UTF-8: bytes in, the same bytes out, two names two files.
  {
    name: 'GNU tar --format=gnu: latin-1 names caf\\xe9.html and caf\\xe8.html side by side',
    reader: 'tar',
    build: (scratch) => gnuTar(scratch, LATIN1, { format: 'gnu' }),
    holds: LATIN1_NAMES
  },
  {
    name: 'GNU tar --format=posix: latin-1 names side by side',
    reader: 'tar',
    build: (scratch) => gnuTar(scratch, LATIN1, { format: 'posix' }),
    holds: LATIN1_NAMES
  },
  {
    name: 'Python tarfile PAX: latin-1 names side by side (pax hdrcharset=BINARY)',
    reader: 'tar',
    build: () => pythonArchive({ kind: 'tar', format: 'pax', entries: LATIN1 }),
    holds: LATIN1_NAMES
  },

  // Headers that readers meet and tools seldom write.
  {
    // Python's tarfile writes a header-only entry's size field as it is given (Go's hdr-only.tar
    // has such entries): no data follows them, and GNU tar reads none.
    name: 'Python tarfile: header-only entries (fifo, devices, links, folder) with a non-zero size field',
    reader: 'tar',
    build: () =>
      pythonArchive({
        kind: 'tar',
        format: 'gnu',
        entries: [
          { type: 'file', name: 'a.html', content: '<p>a</p>\n' },
          { type: 'fifo', name: 'fifo', declaredSize: 1000 },
          { type: 'chr', name: 'char-device', declaredSize: 1000 },
          { type: 'blk', name: 'block-device', declaredSize: 1000 },
          { type: 'hardlink', name: 'hard.html', target: 'a.html', declaredSize: 1000 },
          { type: 'symlink', name: 'soft.html', target: 'a.html', declaredSize: 1000 },
          { type: 'dir', name: 'folder', declaredSize: 1000 },
          { type: 'file', name: 'zz-after.html', content: '<p>after</p>\n' }
        ]
      }),
    holds: ['fifo', 'hard.html', 'soft.html', 'folder', 'zz-after.html']
  },
  {
    name: 'Python tarfile PAX: a global pax `path` names the entry that has no pax header of its own',
    reader: 'tar',
    build: () =>
      pythonArchive({
        kind: 'tar',
        format: 'pax',
        globalPax: { path: 'renamed.html' },
        entries: [{ type: 'file', name: 'original.html', content: '<p>renamed by the global header</p>\n' }]
      }),
    holds: ['renamed.html']
  },
  {
    // No tool writes it: a size field of NULs before its digits, which GNU tar reads as 0 (one
    // leading NUL it skips; the next ends the number). Built with tarfile, the field written over.
    name: 'a size field with leading NULs (GNU tar reads 0)',
    reader: 'tar',
    build: () =>
      pythonArchive({
        kind: 'tar',
        format: 'ustar',
        entries: [
          { type: 'file', name: 'nul-size.html', content: '', sizeField: Buffer.from('\0'.repeat(9) + '14\0') },
          { type: 'file', name: 'zz-after.html', content: '<p>after</p>\n' }
        ]
      }),
    holds: ['nul-size.html', 'zz-after.html']
  },
  {
    // Stands in for the 8 GiB file (`tar --format=posix` writes its size only as a pax
    // record): a small file whose header says 0 while its pax `size` record says 1000. No tool
    // writes the 0 for so small a file: tarfile's header, its size field written over.
    name: 'a pax `size` record overrides the header size field (instead of an 8 GiB file)',
    reader: 'tar',
    build: () =>
      pythonArchive({
        kind: 'tar',
        format: 'pax',
        entries: [
          {
            type: 'file',
            name: 'pax-size.html',
            content: 'x'.repeat(1000),
            pax: { size: '1000' },
            sizeField: Buffer.from('00000000000\0')
          },
          { type: 'file', name: 'zz-after.html', content: '<p>after</p>\n' }
        ]
      }),
    holds: ['pax-size.html', 'zz-after.html']
  },
  {
    name: 'Python tarfile PAX, gzip: a pax record over 4 MiB',
    reader: 'tar',
    build: () =>
      pythonArchive({
        kind: 'tar',
        format: 'pax',
        gzip: true,
        entries: [
          { type: 'file', name: 'big-record.html', content: '<p>x</p>\n', pax: { comment: 'x'.repeat(4.5 * 2 ** 20) } },
          { type: 'file', name: 'zz-after.html', content: '<p>after</p>\n' }
        ]
      }),
    holds: ['big-record.html', 'zz-after.html']
  },
  {
    name: 'Python tarfile: the same name twice (the later entry wins)',
    reader: 'tar',
    build: () =>
      pythonArchive({
        kind: 'tar',
        format: 'gnu',
        entries: [
          { type: 'file', name: 'page.html', content: '<p>first</p>\n' },
          { type: 'file', name: 'page.html', content: '<p>second, longer</p>\n' }
        ]
      }),
    holds: ['page.html']
  },

  // Info-ZIP zip (names in UTF-8 without the UTF-8 flag, as under a UTF-8 locale).
  ...(
    [
      ['-y', 'symlinks as links, deflated'],
      ['-y -0', 'stored'],
      ['-y -fz', 'zip64 records'],
      ['-y -D', 'no folder entries']
    ] as const
  ).map(([args, what]): SameTreeCase => ({
    name: `Info-ZIP zip ${args}: the site tree, ${what}`,
    reader: 'zip',
    build: (scratch) => infoZip(scratch, siteTree(inner), { args: args.split(' ') }),
    holds: SITE,
    traits: args.includes('-fz') ? [UTF8_NAMES_WITHOUT_FLAG, ZIP64_LOCAL_SIZES] : [UTF8_NAMES_WITHOUT_FLAG]
  })),
  {
    // Info-ZIP stores a symlink, which it cannot do to a pipe: without -y, it packs what they lead to.
    name: 'Info-ZIP zip to a pipe: the site tree, data descriptors after the entries',
    reader: 'zip',
    build: (scratch) => infoZip(scratch, siteTree(inner), { args: [], stream: true }),
    holds: SITE,
    traits: [DATA_DESCRIPTORS, UTF8_NAMES_WITHOUT_FLAG]
  },
  {
    name: 'Info-ZIP zip -A: a zip behind a prefix, its offsets adjusted',
    reader: 'zip',
    build: (scratch) =>
      infoZipWithPrefix(scratch, siteTree(inner), '#!/bin/sh\necho "a self-extracting stub"\nexit 0\n'),
    holds: SITE,
    traits: [PREFIXED]
  },
  {
    name: 'Info-ZIP zip: a tree 40 folders deep',
    reader: 'zip',
    build: (scratch) => infoZip(scratch, deepTree(), { args: ['-y'] }),
    holds: ['zz-after.html']
  },
  {
    name: 'Info-ZIP zip: a page linking to guides/café.html (UTF-8, no flag), with `verify: strict`',
    reader: 'zip',
    build: (scratch) =>
      infoZip(
        scratch,
        [
          { type: 'file', name: 'index.html', content: '<a href="guides/café.html">Café</a>\n' },
          { type: 'file', name: 'guides/café.html', content: '<a href="../index.html">Home</a>\n' }
        ],
        { args: [] }
      ),
    holds: ['guides/café.html'],
    traits: [UTF8_NAMES_WITHOUT_FLAG],
    inputs: { verify: 'strict' },
    pageCount: 2,
    outputs: { 'broken-links': '0' }
  },
  // bsdtar's zips.
  {
    name: 'bsdtar --format=zip to a pipe: the site tree, padded after the end record to 10 KiB',
    reader: 'zip',
    build: (scratch) => bsdtar(scratch, siteTree(inner), { format: 'zip' }),
    holds: SITE,
    traits: [PADDED_AFTER_END]
  },
  {
    // To a file, not padded: only the zip64 records and the data descriptors are new here.
    name: 'bsdtar --format=zip --options zip:zip64: zip64 local sizes with a data descriptor',
    reader: 'zip',
    build: (scratch) =>
      bsdtar(scratch, siteTree(inner), { format: 'zip', args: ['--options', 'zip:zip64'], toFile: true }),
    holds: SITE,
    traits: [ZIP64_LOCAL_SIZES, DATA_DESCRIPTORS]
  },
  {
    // As libarchive's zip64b.zip: local zip64 sizes, the uncompressed one given, the rest after the data.
    name: 'Info-ZIP zip < file | …: zip64 local sizes with a data descriptor (one entry `-`)',
    reader: 'zip',
    build: (scratch) => infoZipOfStdin(scratch, '<p>from standard input</p>\n'),
    holds: ['-'],
    traits: [ZIP64_LOCAL_SIZES, DATA_DESCRIPTORS]
  },
  {
    name: 'a zip64 local field of the uncompressed size only, a data descriptor after the data (as zip64b.zip)',
    reader: 'zip',
    build: () =>
      pythonArchive({
        kind: 'zip',
        zip64SizeFirst: true,
        entries: [page('index.html'), page('guides/intro.html'), page('zz-after.html')]
      }),
    holds: ['index.html', 'guides/intro.html', 'zz-after.html'],
    traits: [ZIP64_SIZE_ONLY, DATA_DESCRIPTORS]
  },
  {
    // The entry's mode says fifo (zip's standard input was one), its data is the page: unzip writes
    // a file, and so must the action; a fifo the action skips is one that unzip would make.
    name: 'Info-ZIP zip in a shell pipeline: the entry `-` has a fifo mode and data (unzip writes a file)',
    reader: 'zip',
    build: () => infoZipInPipeline('<p>from a pipeline</p>\n'),
    holds: ['-'],
    traits: [ZIP64_LOCAL_SIZES, DATA_DESCRIPTORS, FIFO_MODE_ENTRY]
  },
  // Python's zipfile.
  {
    name: 'Python zipfile: the site tree, UTF-8 names with the UTF-8 flag',
    reader: 'zip',
    build: () => pythonArchive({ kind: 'zip', entries: siteForZip() }),
    holds: SITE,
    traits: [UTF8_NAMES_WITH_FLAG]
  },
  {
    name: "Python zipfile: the site tree, UTF-8 names without the UTF-8 flag (macOS's way)",
    reader: 'zip',
    build: () => pythonArchive({ kind: 'zip', utf8Flag: false, entries: siteForZip() }),
    holds: SITE,
    traits: [UTF8_NAMES_WITHOUT_FLAG]
  },
  {
    name: 'Python zipfile to a stream, zip64: data descriptors and zip64 extra fields',
    reader: 'zip',
    build: () => pythonArchive({ kind: 'zip', stream: true, zip64: true, entries: siteForZip() }),
    holds: SITE,
    traits: [DATA_DESCRIPTORS, ZIP64_LOCAL_FIELD]
  }
]

describe('the built action unpacks what GNU tar / Info-ZIP unzip unpack, as they unpack it', () => {
  test.concurrent.each(SAME_TREE)(
    '$name',
    async (c) => {
      const scratch = await tempFolder('docs-admin-diff-')
      try {
        const { dir } = scratch
        const bundle = await c.build(path.join(dir, 'build'))
        await referenceUnpack(bundle, c.reader, path.join(dir, 'reference'))
        const reference = await treeOf(path.join(dir, 'reference'))
        expect(c.holds.filter((name) => !(name in reference))).toEqual([])
        expect((c.traits ?? []).filter((trait) => !trait.holds(bundle)).map((trait) => trait.what)).toEqual([])

        const [work, runnerTemp] = [path.join(dir, 'work'), path.join(dir, 'runner-temp')]
        await Promise.all([mkdir(work), mkdir(runnerTemp)])
        const run = await exportBundle({
          bundle,
          workspace: work,
          runnerTemp,
          inputs: c.inputs,
          pageCount: c.pageCount
        })
        expect({ error: run.error, tree: await treeOf(path.join(work, 'site')) }).toEqual({
          error: undefined,
          tree: withoutSpecials(reference)
        })
        expect(run.exitCode).toBe(0)
        // Fifos and devices are skipped, each with a warning that names it.
        const unwarned = specialsOf(reference).filter((name) => !run.warnings.some((line) => line.includes(name)))
        expect(unwarned).toEqual([])
        expect(run.outputs).toMatchObject(c.outputs ?? {})
        // Nothing beside `path` but the record that an export wrote it: the staging folder went.
        expect((await readdir(work)).sort()).toEqual(['.site.exported', 'site'])
      } finally {
        await scratch.remove()
      }
    },
    CASE_TIMEOUT_MS
  )
})

interface RefusalCase {
  name: string
  /** Makes the archive; `outside` is a folder beside the workspace that must stay as it is. */
  build: (outside: string) => Promise<Buffer>
  /** The step's error must name one of these entries (as the archive spells them), or say what is wrong. */
  names: (outside: string) => string[]
}

/** A pattern that finds any of `names` as they are. */
function anyOf(names: string[]): RegExp {
  return new RegExp(names.map((name) => name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|'))
}

const tar = (entries: PythonEntry[]): Promise<Buffer> => pythonArchive({ kind: 'tar', format: 'gnu', entries })
const zip = (entries: PythonEntry[]): Promise<Buffer> => pythonArchive({ kind: 'zip', entries })
const NFC = 'caf\u00e9.html'
const NFD = 'cafe\u0301.html'

/**
 * The expected refusals, each made by Python's tarfile or zipfile (GNU tar and Info-ZIP zip strip
 * what makes them hostile). `path` is `work/site`; `outside` is `work/../outside`.
 */
const REFUSALS: RefusalCase[] = [
  {
    name: 'tar: an absolute name',
    build: (outside) => tar([page('index.html'), page(`${outside}/escape.html`)]),
    names: (outside) => [`${outside}/escape.html`]
  },
  {
    name: 'tar: a name with ".." segments',
    build: () => tar([page('index.html'), page('guides/../../../escape.html')]),
    names: () => ['guides/../../../escape.html']
  },
  {
    name: 'tar: a symlink that leads out, relative',
    build: () => tar([page('index.html'), { type: 'symlink', name: 'out', target: '../../outside' }]),
    names: () => ['out']
  },
  {
    name: 'tar: a symlink that leads out, absolute',
    build: (outside) => tar([page('index.html'), { type: 'symlink', name: 'out', target: outside }]),
    names: () => ['out']
  },
  {
    name: 'tar: a file written through a symlink that leads out',
    build: (outside) => tar([{ type: 'symlink', name: 'out', target: outside }, page('out/escape.html')]),
    names: () => ['out/escape.html', 'out']
  },
  {
    name: 'tar: a file written through a symlink inside the site',
    build: () =>
      tar([page('guides/intro.html'), { type: 'symlink', name: 'alias', target: 'guides' }, page('alias/new.html')]),
    names: () => ['alias/new.html', 'alias']
  },
  {
    name: 'tar: a hard link to a file outside, by its absolute path',
    build: (outside) =>
      tar([page('index.html'), { type: 'hardlink', name: 'pwn.html', target: `${outside}/secret.html` }]),
    names: () => ['pwn.html']
  },
  {
    name: 'tar: a hard link to a file outside, through ".."',
    build: () => tar([page('index.html'), { type: 'hardlink', name: 'pwn.html', target: '../../outside/secret.html' }]),
    names: () => ['pwn.html']
  },
  {
    name: 'tar: two names that differ only in case',
    build: () => tar([page('Guide.html'), page('guide.html')]),
    names: () => ['guide.html', 'Guide.html']
  },
  {
    name: 'tar: two folders that differ only in case',
    build: () => tar([page('Docs/a.html'), page('docs/b.html')]),
    names: () => ['docs/b.html', 'Docs/a.html']
  },
  {
    name: 'tar: two names equal once Unicode is normalised (NFC and NFD)',
    build: () => tar([page(NFC), page(NFD)]),
    names: () => [NFD, NFC]
  },
  {
    name: 'tar: a .git folder',
    build: () => tar([page('index.html'), { type: 'file', name: '.git/config', content: '[core]\n' }]),
    names: () => ['.git/config']
  },
  {
    // unzip reads it with a warning; an earlier end record (the zip stored inside) would be another site.
    name: "zip: an end record whose comment runs past the file's end, a whole zip stored inside",
    build: async () => {
      const scratch = await tempFolder('docs-admin-diff-')
      try {
        const inner = await pythonArchive({ kind: 'zip', entries: [page('other.html')] })
        return await infoZipCommentCut(scratch.dir, [
          { type: 'file', name: 'index.html', content: '<p>the site</p>\n' },
          { type: 'file', name: 'inner.zip', content: inner }
        ])
      } finally {
        await scratch.remove()
      }
    },
    names: () => ["end record's comment of 100 bytes runs past the end of the file"]
  },
  {
    name: 'zip: an absolute name',
    build: (outside) => zip([page('index.html'), page(`${outside}/escape.html`)]),
    names: (outside) => [`${outside}/escape.html`]
  },
  {
    name: 'zip: a name with ".." segments',
    build: () => zip([page('index.html'), page('guides/../../../escape.html')]),
    names: () => ['guides/../../../escape.html']
  },
  {
    name: 'zip: a symlink that leads out, relative',
    build: () => zip([page('index.html'), { type: 'symlink', name: 'out', target: '../../outside' }]),
    names: () => ['out']
  },
  {
    name: 'zip: a symlink that leads out, absolute',
    build: (outside) => zip([page('index.html'), { type: 'symlink', name: 'out', target: outside }]),
    names: () => ['out']
  },
  {
    name: 'zip: a file written through a symlink that leads out',
    build: (outside) => zip([{ type: 'symlink', name: 'out', target: outside }, page('out/escape.html')]),
    names: () => ['out/escape.html', 'out']
  },
  {
    name: 'zip: two names that differ only in case',
    build: () => zip([page('Guide.html'), page('guide.html')]),
    names: () => ['guide.html', 'Guide.html']
  },
  {
    name: 'zip: two names equal once Unicode is normalised (NFC and NFD)',
    build: () => zip([page(NFC), page(NFD)]),
    names: () => [NFD, NFC]
  },
  {
    name: 'zip: a .git folder below the root',
    build: () => zip([page('index.html'), { type: 'file', name: 'guides/.git/config', content: '[core]\n' }]),
    names: () => ['guides/.git/config']
  }
]

/** The site `path` holds before a hostile run, which must hold it after. */
const PREVIOUS_SITE: TreeEntry[] = [
  { type: 'file', name: 'index.html', content: '<p>the previous site</p>\n' },
  { type: 'file', name: 'guides/old.html', content: '<p>a previous page</p>\n' }
]

describe('hostile archives: a clear refusal, the previous site kept, nothing written outside', () => {
  test.concurrent.each(REFUSALS)(
    '$name',
    async (c) => {
      const scratch = await tempFolder('docs-admin-diff-')
      try {
        const { dir } = scratch
        const outside = path.join(dir, 'outside')
        const work = path.join(dir, 'work')
        const site = path.join(work, 'site')
        const runnerTemp = path.join(dir, 'runner-temp')
        await mkdir(runnerTemp)
        await writeTree(outside, [{ type: 'file', name: 'secret.html', content: '<p>outside the site</p>\n' }])
        await writeTree(site, PREVIOUS_SITE)
        const [siteBefore, outsideBefore] = [await treeOf(site), await treeOf(outside)]
        const bundle = await c.build(outside)

        const run = await exportBundle({ bundle, workspace: work, runnerTemp })
        expect({ exitCode: run.exitCode, error: run.error, site: await treeOf(site) }).toEqual({
          exitCode: 1,
          error: expect.stringMatching(anyOf(c.names(outside))),
          site: siteBefore
        })
        expect(await readdir(work)).toEqual(['site'])
        expect(await treeOf(outside)).toEqual(outsideBefore)
        expect((await readdir(dir)).sort()).toEqual(['outside', 'runner-temp', 'work'])
      } finally {
        await scratch.remove()
      }
    },
    CASE_TIMEOUT_MS
  )
})
