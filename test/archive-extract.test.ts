import { createHash } from 'node:crypto'
import { execFileSync } from 'node:child_process'
import { lstat, mkdir, readFile, readdir, readlink, rm, stat, symlink, truncate, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import zlib from 'node:zlib'
import { afterEach, beforeEach, describe, expect, test } from '@jest/globals'
import tarStream from 'tar-stream'
import { type ArchiveEntry, buildTar, buildZip, fixtureSiteEntries } from '../simulator/archives.js'
import { CorruptArchiveError, UnsupportedArchiveError } from '../src/archive/errors.js'
import { SiteLimitError, UnsafeEntryError } from '../src/site/errors.js'
import { writeFailure } from '../src/common/write-failure.js'
import type { ArchiveFormat } from '../src/archive/format.js'
import type { ReceivedArchive } from '../src/archive/receiver.js'
import { TestUnpacking } from './support/unpacking.js'
import { type EntryKind, SiteLedger, type SiteLimits, archiveBound } from '../src/site/ledger.js'
import { checkStagedTree } from '../src/site/tree-check.js'
import { formatBytes } from '../src/common/units.js'
import { swapIntoPlace } from '../src/site/staging.js'
import { ActionError, CancelledError } from '../src/common/errors.js'
import { type RecordingLogger, recordingLogger } from './support/fake-host.js'
import { tempFolder } from './support/temp.js'
import { packedTree, writtenTree } from './support/site-tree.js'
import { solarisAclTar, sparseTar } from './support/hand-made-tar.js'
import { infoZipCommentCut } from './support/archive-writers.js'
import { runTool } from './support/archive-tools.js'

let work: { dir: string; remove: () => Promise<void> }
let siteDir: string
let outside: string
let partFile: string

beforeEach(async () => {
  work = await tempFolder('archive-extract-')
  siteDir = join(work.dir, 'site')
  outside = join(work.dir, 'outside')
  partFile = join(work.dir, 'bundle.part')
  await mkdir(outside)
  await writeFile(join(outside, 'secret.txt'), 'secret')
})
afterEach(async () => work.remove())

function build(format: ArchiveFormat, entries: ArchiveEntry[]): Promise<Buffer> {
  return format === 'zip' ? Promise.resolve(buildZip(entries)) : buildTar(entries, { gzip: format === 'tar.gz' })
}

/** Bounds no test archive comes near, unless a test sets its own. */
const ROOMY: SiteLimits = { maxBytes: 1024 ** 3 }

/** Feeds `archive` through a receiver in odd-sized chunks, as a download would, then swaps the site in. */
async function unpack(
  archive: Buffer,
  log: RecordingLogger = recordingLogger(),
  limits = ROOMY
): Promise<ReceivedArchive> {
  let fatal: unknown
  const receiver = await TestUnpacking.open({
    partFile,
    siteDir,
    log,
    onFatal: (error) => void (fatal ??= error),
    limits
  })
  try {
    for (let offset = 0; offset < archive.length; offset += 7919) {
      await receiver.write(archive.subarray(offset, offset + 7919))
      if (fatal !== undefined) throw fatal
    }
    const received = await receiver.complete()
    if (fatal !== undefined) throw fatal
    await swapIntoPlace(received.staging!, siteDir, received)
    await rm(partFile)
    return received
  } catch (error) {
    await receiver.discard()
    throw error
  }
}

/** The work folder holds only what the test put there and the site: no `.part`, no staging folder. */
async function expectNothingElseWritten(site: 'site' | 'no site'): Promise<void> {
  expect((await readdir(work.dir)).sort()).toEqual(site === 'site' ? ['outside', 'site'] : ['outside'])
  expect(await readdir(outside)).toEqual(['secret.txt'])
  expect(await readFile(join(outside, 'secret.txt'), 'utf8')).toBe('secret')
}

describe.each<ArchiveFormat>(['tar.gz', 'tar', 'zip'])('%s', (format) => {
  test('unpacks the fixture site', async () => {
    const entries = fixtureSiteEntries({ pages: 12 })
    const received = await unpack(await build(format, entries))
    expect(received.format).toBe(format)
    expect(await writtenTree(siteDir, entries)).toEqual(packedTree(entries))
    await expectNothingElseWritten('site')
  })

  test('keeps the executable bit, drops setuid/setgid/sticky', async () => {
    await unpack(
      await build(format, [
        { type: 'file', name: 'run.sh', content: '#!/bin/sh\n', mode: 0o4755 },
        { type: 'file', name: 'shared', content: 'x', mode: 0o3775 },
        { type: 'file', name: 'plain.txt', content: 'x', mode: 0o644 },
        // The umask applies as it does to any file created with a mode (a zip unpacked while it
        // downloads gets its modes afterwards, by chmod, which the umask does not mask).
        { type: 'file', name: 'open.html', content: 'x', mode: 0o666 },
        { type: 'file', name: 'open.sh', content: 'x', mode: 0o777 }
      ])
    )
    const mode = async (name: string): Promise<number> => (await stat(join(siteDir, name))).mode & 0o7777
    expect(await mode('open.html')).toBe(0o666 & ~process.umask())
    expect(await mode('open.sh')).toBe(0o777 & ~process.umask())
    expect(await mode('run.sh')).toBe(0o755 & ~process.umask())
    expect((await mode('shared')) & 0o7000).toBe(0)
    expect((await mode('shared')) & 0o100).toBe(0o100)
    expect(await mode('plain.txt')).toBe(0o644 & ~process.umask())
  })

  test('a file named twice takes the mode of its last entry', async () => {
    await unpack(
      await build(format, [
        { type: 'file', name: 'tool', content: 'first', mode: 0o755 },
        { type: 'file', name: 'page.html', content: 'first', mode: 0o644 },
        { type: 'file', name: 'tool', content: 'second', mode: 0o644 },
        { type: 'file', name: 'page.html', content: 'second', mode: 0o755 }
      ])
    )
    const mode = async (name: string): Promise<number> => (await stat(join(siteDir, name))).mode & 0o777
    expect(await mode('tool')).toBe(0o644 & ~process.umask())
    expect(await mode('page.html')).toBe(0o755 & ~process.umask())
    expect(await readFile(join(siteDir, 'tool'), 'utf8')).toBe('second')
  })

  test('creates symlinks that stay inside', async () => {
    await unpack(
      await build(format, [
        { type: 'file', name: 'assets/app.js', content: 'js' },
        { type: 'symlink', name: 'guides/app.js', target: '../assets/app.js' },
        { type: 'symlink', name: 'latest', target: 'guides' }
      ])
    )
    expect(await readlink(join(siteDir, 'guides/app.js'))).toBe('../assets/app.js')
    expect(await readFile(join(siteDir, 'latest/app.js'), 'utf8')).toBe('js')
  })

  test('the later of duplicate entries wins', async () => {
    await unpack(
      await build(format, [
        { type: 'file', name: 'a.html', content: 'first' },
        { type: 'symlink', name: 'b.html', target: 'a.html' },
        { type: 'file', name: 'a.html', content: 'second' },
        { type: 'file', name: 'b.html', content: 'a file now' }
      ])
    )
    expect(await readFile(join(siteDir, 'a.html'), 'utf8')).toBe('second')
    expect((await lstat(join(siteDir, 'b.html'))).isFile()).toBe(true)
    expect(await readFile(join(siteDir, 'b.html'), 'utf8')).toBe('a file now')
  })

  test.each([
    [
      'a folder',
      [
        { type: 'file', name: 'Guides/a.html' },
        { type: 'file', name: 'guides/b.html' }
      ],
      'guides/b.html'
    ],
    [
      'a file',
      [
        { type: 'file', name: 'Index.html' },
        { type: 'file', name: 'index.html' }
      ],
      'index.html'
    ],
    [
      'a Unicode form',
      [
        { type: 'file', name: 'caf\u00e9.html' },
        { type: 'file', name: 'cafe\u0301.html' }
      ],
      'cafe\u0301.html'
    ]
  ] as const)(
    'two names of %s that are one on macOS and Windows are refused: the site must be the same on every runner',
    async (_, names, entryName) => {
      const entries: ArchiveEntry[] = names.map((entry) => ({ ...entry, content: 'x' }))
      const error = await unpack(await build(format, entries)).catch((e: unknown) => e)
      expect(error).toBeInstanceOf(UnsafeEntryError)
      expect((error as UnsafeEntryError).entryName).toBe(entryName)
      expect((error as Error).message).toContain('differs only in case or Unicode form')
      await expectNothingElseWritten('no site')
    }
  )

  test('a symlink replacing a file, then a folder there: the file is gone before the folder exists', async () => {
    await unpack(
      await build(format, [
        { type: 'file', name: 'a', content: 'x' },
        { type: 'symlink', name: 'a', target: 'b' },
        { type: 'directory', name: 'a/' },
        { type: 'file', name: 'a/page.html', content: 'in the folder' }
      ])
    )
    expect((await lstat(join(siteDir, 'a'))).isDirectory()).toBe(true)
    expect(await readFile(join(siteDir, 'a/page.html'), 'utf8')).toBe('in the folder')
  })

  test('unpacks large files by streaming them', async () => {
    const big = Buffer.alloc(3 * 1024 * 1024 + 17, 'abcdefgh')
    await unpack(await build(format, [{ type: 'file', name: 'big.bin', content: big }]))
    expect((await readFile(join(siteDir, 'big.bin'))).equals(big)).toBe(true)
  })

  const hostile: Array<[string, ArchiveEntry[], string]> = [
    [
      'an absolute path',
      [{ type: 'file', name: '/tmp/docs-admin-evil.txt', content: 'x' }],
      '/tmp/docs-admin-evil.txt'
    ],
    ['a ".." segment', [{ type: 'file', name: '../outside/evil.txt', content: 'x' }], '../outside/evil.txt'],
    ['a drive-letter path', [{ type: 'file', name: 'C:\\evil.txt', content: 'x' }], 'C:\\evil.txt'],
    [
      'a symlink out',
      [
        { type: 'file', name: 'ok.html', content: 'x' },
        { type: 'symlink', name: 'out', target: '../outside' }
      ],
      'out'
    ],
    ['an absolute symlink', [{ type: 'symlink', name: 'out', target: '/etc' }], 'out'],
    [
      'chained symlinks out',
      [
        { type: 'file', name: 'ok.html', content: 'x' },
        { type: 'symlink', name: 'a', target: '.' },
        { type: 'symlink', name: 'd/b', target: '../a/../outside' }
      ],
      'd/b'
    ],
    [
      'a file through a symlink',
      [
        { type: 'symlink', name: 'a', target: '.' },
        { type: 'symlink', name: 'd/b', target: '../a/..' },
        { type: 'file', name: 'd/b/outside/evil.txt', content: 'x' }
      ],
      'd/b/outside/evil.txt'
    ],
    [
      'a symlink out through a folder whose name macOS reads as none (a zero-width joiner)',
      [
        { type: 'file', name: 'index.html', content: 'x' },
        { type: 'symlink', name: '\u200c/a', target: '.' },
        { type: 'symlink', name: 'p', target: 'a/../outside/secret.txt' }
      ],
      '\u200c/a'
    ],
    [
      'a symlink out through a case twin of another link (as macOS and Windows resolve it)',
      [
        { type: 'symlink', name: 'x/L', target: '..' },
        { type: 'symlink', name: 'y', target: 'X/L/../outside' }
      ],
      'y'
    ],
    [
      'a file through a case twin of a symlink',
      [
        { type: 'symlink', name: 'Up', target: '.' },
        { type: 'file', name: 'UP/evil.txt', content: 'x' }
      ],
      'UP/evil.txt'
    ]
  ]
  test.each(hostile)(
    'refuses %s, names the entry, writes nothing outside and keeps the old site',
    async (_, entries, entryName) => {
      await mkdir(siteDir)
      await writeFile(join(siteDir, 'old.html'), 'old site')
      const error = await unpack(await build(format, entries)).catch((e: unknown) => e)
      expect(error).toBeInstanceOf(UnsafeEntryError)
      expect((error as UnsafeEntryError).entryName).toBe(entryName)
      expect((error as Error).message).toContain(JSON.stringify(entryName))
      await expectNothingElseWritten('site')
      expect(await readdir(siteDir)).toEqual(['old.html'])
      await expect(stat('/tmp/docs-admin-evil.txt')).rejects.toThrow()
    }
  )

  test('unpacks files of mode 000 readable and writable by their owner', async () => {
    await unpack(
      await build(format, [
        { type: 'file', name: 'locked.html', content: 'x', mode: 0o000 },
        { type: 'file', name: 'run.sh', content: 'x', mode: 0o100 }
      ])
    )
    expect((await stat(join(siteDir, 'locked.html'))).mode & 0o600).toBe(0o600)
    expect((await stat(join(siteDir, 'run.sh'))).mode & 0o700).toBe(0o700)
  })

  test('a path too long below the staging folder fails naming the entry, not with a raw ENAMETOOLONG', async () => {
    // Fits the 4096 bytes every entry path may have, but not with the staging folder before it.
    const name = `${`${'d'.repeat(200)}/`.repeat(20)}${'f'.repeat(60)}.html`
    const error = await unpack(await build(format, [{ type: 'file', name, content: 'x' }])).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ActionError)
    expect((error as Error).message).toMatch(
      new RegExp(
        /^Could not write the archive entry "d{200}\/.*\.html" into .*\.site\.staging-\d+-[0-9a-f]{12}: /.source +
          /its name or path is too long for the file system \(ENAMETOOLONG\)$/.source
      )
    )
    await expectNothingElseWritten('no site')
  })

  test('a bomb past max-site-size fails saying which bound, writes no more, keeps the old site', async () => {
    await mkdir(siteDir)
    await writeFile(join(siteDir, 'old.html'), 'old site')
    // 6 MiB of zeros: a few KiB once compressed.
    const bomb = await build(format, [
      { type: 'file', name: 'index.html', content: 'x' },
      { type: 'file', name: 'zeros.bin', content: Buffer.alloc(6 * 1024 * 1024) }
    ])
    const error = await unpack(bomb, recordingLogger(), { maxBytes: 1024 * 1024 }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(SiteLimitError)
    expect(error).not.toBeInstanceOf(CorruptArchiveError)
    expect((error as Error).message).toContain('more than 1.0 MiB, the bound set by `max-site-size`')
    // A zip's central directory declares every size: the bound fails before the first entry is written.
    expect((error as Error).message).toContain(
      format === 'zip'
        ? "the archive's entries declare 6.0 MiB in all"
        : 'the entry "zeros.bin" (6.0 MiB) takes it to 6.0 MiB'
    )
    await expectNothingElseWritten('site')
    expect(await readdir(siteDir)).toEqual(['old.html'])
  })

  test('more entries than the bound allows fails saying so', async () => {
    const entries: ArchiveEntry[] = Array.from({ length: 30 }, (_, i) => ({
      type: 'file',
      name: `p${i}.html`,
      content: 'x'
    }))
    const error = await unpack(await build(format, entries), recordingLogger(), { ...ROOMY, maxEntries: 25 }).catch(
      (e: unknown) => e
    )
    expect(error).toBeInstanceOf(SiteLimitError)
    expect((error as Error).message).toContain('more than 25 entries, the most the action unpacks')
    await expectNothingElseWritten('no site')
    // Exactly at the bound is fine.
    await unpack(await build(format, entries.slice(0, 25)), recordingLogger(), { ...ROOMY, maxEntries: 25 })
    expect(await readdir(siteDir)).toHaveLength(25)
  })

  test('the folders a deep path implies count against the entry bound', async () => {
    // One entry, 31 paths made: a few dozen bytes could otherwise make millions of folders.
    const deep: ArchiveEntry[] = [{ type: 'file', name: `${'d/'.repeat(30)}deep.html`, content: 'x' }]
    const error = await unpack(await build(format, deep), recordingLogger(), { ...ROOMY, maxEntries: 25 }).catch(
      (e: unknown) => e
    )
    expect(error).toBeInstanceOf(SiteLimitError)
    expect((error as Error).message).toContain(
      'The bundle makes more than 25 files and folders, the most the action unpacks: the entry "d/d/'
    )
    await expectNothingElseWritten('no site')
  })

  test('reports corrupt data as CorruptArchiveError with size and sha256', async () => {
    const good = await build(format, fixtureSiteEntries({ pages: 30 }))
    const broken = Buffer.from(good)
    // zip: the central directory; tar: the first header's name (its checksum no longer matches);
    // tar.gz: the middle of the deflate stream.
    if (format === 'zip') broken.fill(0x41, broken.length - 60, broken.length - 30)
    else if (format === 'tar') broken.fill(0x41, 0, 100)
    else broken.fill(0x41, 600, 1400)
    const error = await unpack(broken).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(CorruptArchiveError)
    expect((error as Error).message).toMatch(
      new RegExp(`corrupt \\(${format.replace('.', '\\.')}, ${broken.length} bytes, sha256 [0-9a-f]{64}\\)`)
    )
    await expectNothingElseWritten('no site')
  })
})

describe('tar only', () => {
  test('hardlinks inside are linked; a later rewrite of the link leaves the target alone', async () => {
    await unpack(
      await buildTar(
        [
          { type: 'file', name: 'a.html', content: 'one' },
          { type: 'hardlink', name: 'copy/b.html', target: 'a.html' },
          { type: 'hardlink', name: 'c.html', target: 'a.html' },
          { type: 'file', name: 'c.html', content: 'two' }
        ],
        { gzip: true }
      )
    )
    const [a, b] = await Promise.all([stat(join(siteDir, 'a.html')), stat(join(siteDir, 'copy/b.html'))])
    expect(b.ino).toBe(a.ino)
    expect(await readFile(join(siteDir, 'a.html'), 'utf8')).toBe('one')
    expect(await readFile(join(siteDir, 'c.html'), 'utf8')).toBe('two')
  })

  test.each([
    ['../outside/secret.txt', 'outside'],
    // GNU tar strips the leading `/` before it says what it will link: no file of the site is called so.
    ['/etc/passwd', '"etc/passwd", which is not a regular file extracted before it'],
    ['missing.html', 'not a regular file'],
    // tar-stream reads an empty link name as null (found by the fuzzer: a TypeError before)
    ['', 'not a regular file']
  ])('refuses a hardlink to %j', async (target, reason) => {
    const archive = await buildTar([{ type: 'hardlink', name: 'h', target }], { gzip: true })
    const error = await unpack(archive).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(UnsafeEntryError)
    expect((error as Error).message).toContain(reason)
    await expectNothingElseWritten('no site')
  })

  test('an empty pax header is read wherever the download splits it; one of negative size is corrupt', async () => {
    const plain = await buildTar([{ type: 'file', name: 'index.html', content: 'ok' }], { gzip: false })
    /** A pax header block (typeflag `x`) of `size` (a base-256 field when negative), with its checksum. */
    const paxBlock = (size: number): Buffer => {
      const block = Buffer.from(plain.subarray(0, 512))
      block.fill(0, 0, 100).write('PaxHeaders/index.html', 0)
      block[156] = 0x78
      if (size >= 0) block.write(`${size.toString(8).padStart(11, '0')}\0`, 124)
      else block.fill(0xff, 124, 136).writeUInt8(0xff + size, 135)
      block.fill(0x20, 148, 156)
      const sum = block.reduce((total, byte) => total + byte, 0)
      block.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148)
      return block
    }
    // The header block alone, then the rest: the reader has the empty record and nothing held.
    for (const split of [512, 7919]) {
      const archive = Buffer.concat([paxBlock(0), plain])
      const receiver = await TestUnpacking.open({
        partFile,
        siteDir,
        log: recordingLogger(),
        onFatal: (error) => void (fatal ??= error),
        limits: ROOMY
      })
      let fatal: unknown
      await receiver.write(archive.subarray(0, split))
      await receiver.write(archive.subarray(split))
      expect(fatal).toBeUndefined()
      const received = await receiver.complete()
      expect(await readFile(join(received.staging!, 'index.html'), 'utf8')).toBe('ok')
      await receiver.discard()
    }
    const error = await unpack(Buffer.concat([paxBlock(-1), plain])).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(CorruptArchiveError)
    await expectNothingElseWritten('no site')
  })

  test('skips devices and fifos with a warning', async () => {
    const pack = tarStream.pack()
    pack.entry({ name: 'pipe', type: 'fifo' })
    pack.entry({ name: 'tty', type: 'character-device', devmajor: 4, devminor: 1 })
    pack.entry({ name: 'index.html', size: 2 }, 'ok')
    pack.finalize()
    const chunks: Buffer[] = []
    for await (const chunk of pack) chunks.push(chunk as Buffer)
    const log = recordingLogger()
    await unpack(Buffer.concat(chunks), log)
    expect(await readdir(siteDir)).toEqual(['index.html'])
    expect(log.text()).toContain('warning: Skipped the archive entry "pipe": fifo entries are not extracted')
    expect(log.text()).toContain('"tty": character device')
  })

  test('a gzip that holds no tar gets a clear, non-corrupt error', async () => {
    const error = await unpack(zlib.gzipSync(Buffer.from('<html>' + 'x'.repeat(400)))).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ActionError)
    expect(error).not.toBeInstanceOf(CorruptArchiveError)
    expect((error as Error).message).toContain('not a tar archive: it looks like an HTML page')
    await expectNothingElseWritten('no site')
  })

  test.each([true, false])(
    'a tar (gzip: %s) that ends just after the header of a large entry is corrupt, says where, leaves nothing',
    async (gzip) => {
      const tar = await buildTar([
        { type: 'file', name: 'index.html', content: 'x' },
        { type: 'file', name: 'big.bin', content: Buffer.alloc(3 * 1024 * 1024, 1) }
      ])
      // index.html's header and block, then big.bin's header: a whole, valid gzip of a cut tar.
      const cut = tar.subarray(0, 3 * 512)
      const error = await unpack(gzip ? zlib.gzipSync(cut) : cut).catch((e: unknown) => e)
      expect(error).toBeInstanceOf(CorruptArchiveError)
      expect((error as Error).message).toContain(
        'the tar data ends early, inside the entry "big.bin" (3.0 MiB declared)'
      )
      await expectNothingElseWritten('no site')
    }
  )

  test('a tar.gz padded with zero blocks after its end unpacks as GNU tar reads it: up to its end', async () => {
    const site = await buildTar([{ type: 'file', name: 'index.html', content: 'x' }])
    // 64 MiB of zeros after the end of the archive: 64 KiB once compressed.
    const padded = zlib.gzipSync(Buffer.concat([site, Buffer.alloc(64 * 1024 * 1024)]))
    const received = await unpack(padded)
    expect(received.entries).toBe(1)
    expect(await readdir(siteDir)).toEqual(['index.html'])
  })

  test.each([
    ['in the same gzip member', (first: Buffer, hidden: Buffer) => zlib.gzipSync(Buffer.concat([first, hidden]))],
    [
      'in a second gzip member',
      (first: Buffer, hidden: Buffer) => Buffer.concat([zlib.gzipSync(first), zlib.gzipSync(hidden)])
    ]
  ])('entries after the end of the archive are not unpacked (%s), as tar -tf does not list them', async (_, join_) => {
    const first = await buildTar([{ type: 'file', name: 'index.html', content: 'home' }])
    const hidden = await buildTar([{ type: 'file', name: 'hidden.html', content: 'not listed by tar -tf' }])
    // buildTar ends each archive with its end blocks: the second one's entries come after the first's end.
    await unpack(join_(first, hidden))
    expect(await readdir(siteDir)).toEqual(['index.html'])
  })

  test.each([
    ['old GNU', ['--format=gnu']],
    ['pax 0.0', ['--format=pax', '--sparse-version=0.0']],
    ['pax 0.1', ['--format=pax', '--sparse-version=0.1']],
    ['pax 1.0', ['--format=pax', '--sparse-version=1.0']]
  ])('a sparse file of GNU tar --sparse (%s) is refused, naming it; nothing is written', async (_, format) => {
    const source = join(work.dir, 'sparse-source')
    await mkdir(source)
    await writeFile(join(source, 'index.html'), 'home')
    // 5 MiB of which only the last bytes are data: GNU tar stores the holes as a map.
    await writeFile(join(source, 'data.bin'), Buffer.from('end'), { flag: 'w' })
    await truncate(join(source, 'data.bin'), 5 * 1024 * 1024)
    const archive = execFileSync('tar', ['--sparse', ...format, '-czf', '-', '-C', source, '.'])
    await rm(source, { recursive: true })
    const error = await unpack(archive).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(UnsafeEntryError)
    expect((error as Error).message).toBe(
      'The bundle archive was refused: entry "./data.bin" is a sparse file (its data in the archive is shorter ' +
        'than the 5.0 MiB GNU tar lists), which a site never holds. Nothing was written outside the staging folder.'
    )
    await expectNothingElseWritten('no site')
  })

  test.each(['0.0', '0.1', '1.0'] as const)(
    'a pax %s sparse member whose size lies (10 B listed, 64 MiB written) is refused within max-site-size',
    async (flavour) => {
      const member = { name: 'page.html', realSize: 10, regions: 64, regionBytes: 1024 * 1024 }
      const archive = zlib.gzipSync(sparseTar(flavour, member))
      expect(archive.length).toBeLessThan(128 * 1024)
      const error = await unpack(archive, recordingLogger(), { maxBytes: 1024 * 1024 }).catch((e: unknown) => e)
      expect(error).toBeInstanceOf(UnsafeEntryError)
      expect((error as Error).message).toBe(
        'The bundle archive was refused: entry "page.html" was written with 64.0 MiB where the archive lists 10 B ' +
          '(a sparse member, whose map may write past the size it lists). Nothing was written outside the ' +
          'staging folder.'
      )
      await expectNothingElseWritten('no site')
    }
  )

  test('an old GNU sparse member whose size lies is refused too (GNU tar itself says it is invalid)', async () => {
    const archive = sparseTar('gnu', { name: 'page.html', realSize: 10, regions: 4 })
    const error = await unpack(archive, recordingLogger(), { maxBytes: 1024 * 1024 }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(CorruptArchiveError)
    expect((error as Error).message).toContain('invalid sparse archive member')
    await expectNothingElseWritten('no site')
  })

  test("a Solaris tar's ACL entries are written as GNU tar writes them: files its members replace", async () => {
    const received = await unpack(solarisAclTar())
    expect(received.files?.sort()).toEqual(['file-with-nfsv4-acls', 'file-with-posix-acls'])
    expect((await lstat(join(siteDir, 'dir-with-posix-acls'))).isDirectory()).toBe(true)
    expect((await stat(join(siteDir, 'file-with-posix-acls'))).size).toBe(0)
  })

  test("a tar.gz with damaged deflate data is corrupt, in zlib's words after the action's", async () => {
    const broken = await buildTar(fixtureSiteEntries({ pages: 30 }), { gzip: true })
    broken.fill(0x41, 600, 1400)
    const error = await unpack(broken).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(CorruptArchiveError)
    expect((error as Error).message).toMatch(
      /^The bundle archive is corrupt \(tar\.gz, .*\): its gzip data cannot be read \(/
    )
    await expectNothingElseWritten('no site')
  })

  test('a tar.gz whose gunzipped data runs past the bound of `max-site-size` is refused', async () => {
    const limits: SiteLimits = { maxBytes: 1024, maxEntries: 10 }
    const bound = archiveBound(limits)
    const tar = await buildTar([{ type: 'file', name: 'index.html', content: 'ok' }], { gzip: false })
    // Zeros after the tar's end: GNU tar never reads them, no member's size counts them; they gzip a thousandfold.
    const bomb = zlib.gzipSync(Buffer.concat([tar, Buffer.alloc(bound + 1024 * 1024)]))
    const error = await unpack(bomb, recordingLogger(), limits).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(SiteLimitError)
    expect((error as Error).message).toContain(`The bundle's tar data runs past ${formatBytes(bound)}`)
    await expectNothingElseWritten('no site')
  })

  test('a truncated tar.gz is corrupt', async () => {
    const good = await buildTar(fixtureSiteEntries({ pages: 40 }), { gzip: true })
    const error = await unpack(good.subarray(0, good.length - 100)).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(CorruptArchiveError)
    expect((error as Error).message).toContain('its gzip data cannot be read (unexpected end of file)')
    await expectNothingElseWritten('no site')
  })
})

describe('zip only', () => {
  test('refuses a NUL byte in a name', async () => {
    const error = await unpack(buildZip([{ type: 'file', name: 'a\0b.html', content: 'x' }])).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(UnsafeEntryError)
    expect((error as Error).message).toContain('NUL')
  })

  test('a symlink whose target declares more than 4096 bytes is refused before it is read', async () => {
    const error = await unpack(buildZip([{ type: 'symlink', name: 'link', target: 'a/'.repeat(300_000) }])).catch(
      (e: unknown) => e
    )
    expect(error).toBeInstanceOf(UnsafeEntryError)
    expect((error as Error).message).toContain(
      '"link" is a symlink whose target is longer than 4096 bytes (it declares 600000,'
    )
    await expectNothingElseWritten('no site')
  })

  /**
   * One local entry `a` (deflate, declaring `size` bytes) whose data is `blocks` empty stored
   * blocks, and `records` central directory records that all point at it.
   */
  function sharedDataZip(records: number, blocks: number, mode: number, size = 0): Buffer {
    const name = Buffer.from('a')
    const data = Buffer.alloc(blocks * 5)
    for (let i = 0; i < blocks; i++) data.set([i === blocks - 1 ? 1 : 0, 0, 0, 0xff, 0xff], i * 5)
    const local = Buffer.alloc(30)
    local.writeUInt32LE(0x04034b50, 0)
    local.writeUInt16LE(20, 4)
    local.writeUInt16LE(8, 8)
    local.writeUInt32LE(data.length, 18)
    local.writeUInt32LE(size, 22)
    local.writeUInt16LE(name.length, 26)
    const central = Array.from({ length: records }, () => {
      const record = Buffer.alloc(46)
      record.writeUInt32LE(0x02014b50, 0)
      record.writeUInt16LE((3 << 8) | 20, 4)
      record.writeUInt16LE(20, 6)
      record.writeUInt16LE(8, 10)
      record.writeUInt32LE(data.length, 20)
      record.writeUInt32LE(size, 24)
      record.writeUInt16LE(name.length, 28)
      record.writeUInt32LE((mode << 16) >>> 0, 38)
      return Buffer.concat([record, name])
    })
    const directory = Buffer.concat(central)
    const end = Buffer.alloc(22)
    end.writeUInt32LE(0x06054b50, 0)
    end.writeUInt16LE(records, 8)
    end.writeUInt16LE(records, 10)
    end.writeUInt32LE(directory.length, 12)
    end.writeUInt32LE(local.length + name.length + data.length, 16)
    return Buffer.concat([local, name, data, directory, end])
  }

  test('central records that share their data are refused before any is read again', async () => {
    // One record: an ordinary (empty) file.
    await unpack(sharedDataZip(1, 1000, 0o100644))
    expect(await readFile(join(siteDir, 'a'), 'utf8')).toBe('')
    await rm(siteDir, { recursive: true })
    // Three records of the same 5,000 bytes: each would be read and inflated again.
    const error = await unpack(sharedDataZip(3, 1000, 0o100644)).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(CorruptArchiveError)
    expect((error as Error).message).toContain('the entries "a" and "a" overlap')
    await expectNothingElseWritten('no site')
  })

  /**
   * A stored entry whose data is another entry's local header and data, behind an extra field longer than that
   * data: a check that took a local header for 30 bytes would end the outer data before the hidden entry.
   */
  function hiddenEntryZip(): Buffer {
    const inner = buildZip([{ type: 'file', name: 'b.html', content: 'hidden page '.repeat(10) }])
    const centralAt = inner.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]))
    const hidden = inner.subarray(0, centralAt)
    const hiddenCentral = Buffer.from(inner.subarray(centralAt, inner.length - 22))
    const name = Buffer.from('a.html')
    const extra = Buffer.alloc(4 + hidden.length + 100)
    extra.writeUInt16LE(0xcafe, 0)
    extra.writeUInt16LE(extra.length - 4, 2)
    const crc = zlib.crc32(hidden)
    const local = Buffer.alloc(30)
    local.writeUInt32LE(0x04034b50, 0)
    local.writeUInt16LE(20, 4)
    local.writeUInt32LE(crc, 14)
    local.writeUInt32LE(hidden.length, 18)
    local.writeUInt32LE(hidden.length, 22)
    local.writeUInt16LE(name.length, 26)
    local.writeUInt16LE(extra.length, 28)
    const central = Buffer.alloc(46)
    central.writeUInt32LE(0x02014b50, 0)
    central.writeUInt16LE((3 << 8) | 20, 4)
    central.writeUInt16LE(20, 6)
    central.writeUInt32LE(crc, 16)
    central.writeUInt32LE(hidden.length, 20)
    central.writeUInt32LE(hidden.length, 24)
    central.writeUInt16LE(name.length, 28)
    central.writeUInt32LE((0o100644 << 16) >>> 0, 38)
    const records = Buffer.concat([local, name, extra, hidden])
    hiddenCentral.writeUInt32LE(local.length + name.length + extra.length, 42)
    const directory = Buffer.concat([central, name, hiddenCentral])
    const end = Buffer.alloc(22)
    end.writeUInt32LE(0x06054b50, 0)
    end.writeUInt16LE(2, 8)
    end.writeUInt16LE(2, 10)
    end.writeUInt32LE(directory.length, 12)
    end.writeUInt32LE(records.length, 16)
    return Buffer.concat([records, directory, end])
  }

  test("an end record whose comment runs past the file's end is refused, not read as the zip inside", async () => {
    // A whole zip stored inside: its end record, found before the real one, would be another site.
    const inner = buildZip([{ type: 'file', name: 'other.html', content: '<p>another site</p>' }])
    const entries = [
      { type: 'file', name: 'index.html', content: '<p>the site</p>' },
      { type: 'file', name: 'inner.zip', content: inner }
    ] as const
    const zip = await infoZipCommentCut(join(work.dir, 'build'), entries)
    const file = join(work.dir, 'cut.zip')
    await writeFile(file, zip)
    const listed = await runTool('unzip', ['-l', file])
    expect(listed.stdout.toString()).toContain('inner.zip')
    expect(`${listed.stdout.toString()}${listed.stderr}`).toContain('zipfile comment truncated')
    await rm(join(work.dir, 'build'), { recursive: true })
    await rm(file)
    const error = await unpack(zip).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(CorruptArchiveError)
    expect((error as Error).message).toContain(
      "its end record's comment of 100 bytes runs past the end of the file (0 bytes are there)"
    )
    await expectNothingElseWritten('no site')
  })

  test("an entry hidden in another's data behind a large extra field is refused, as `unzip -t` does", async () => {
    const zip = hiddenEntryZip()
    const file = join(work.dir, 'hidden.zip')
    await writeFile(file, zip)
    const tested = await runTool('unzip', ['-t', file])
    expect(tested.code).not.toBe(0)
    expect(`${tested.stdout.toString()}${tested.stderr}`).toContain('overlapped components')
    await rm(file)
    const error = await unpack(zip).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(CorruptArchiveError)
    expect((error as Error).message).toContain('the entries "a.html" and "b.html" overlap')
    await expectNothingElseWritten('no site')
  })

  test('a symlink whose compressed target is larger than any path is refused before it is read', async () => {
    const error = await unpack(sharedDataZip(1, 1000, 0o120777)).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(UnsafeEntryError)
    expect((error as Error).message).toContain(
      '"a" is a symlink whose target is longer than 4096 bytes (it declares 0, 5000 compressed)'
    )
    await expectNothingElseWritten('no site')
  })

  test.each([
    ['a small deflated file', { type: 'file', name: 'index.html', content: '<h1>Release notes</h1>' }],
    ['a stored (empty) file', { type: 'file', name: 'empty.txt', content: '' }],
    ['a large deflated file', { type: 'file', name: 'big.bin', content: Buffer.alloc(3 * 1024 * 1024, 7) }],
    ['a symlink', { type: 'symlink', name: 'link', target: 'index.html' }]
  ] as const)('%s whose data does not match its CRC-32 is refused as corrupt', async (_, entry) => {
    const zip = buildZip([entry])
    // The same wrong CRC in the local header and the central directory: the data is what differs.
    const central = zip.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]))
    const wrong = (zip.readUInt32LE(14) ^ 1) >>> 0
    zip.writeUInt32LE(wrong, 14)
    zip.writeUInt32LE(wrong, central + 16)
    const error = await unpack(zip).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(CorruptArchiveError)
    expect((error as Error).message).toContain(`the entry "${entry.name}" holds data that does not match its CRC-32`)
    await expectNothingElseWritten('no site')
  })

  /** Where a zip's end of central directory record starts (no comment: the last 22 bytes). */
  const endRecordAt = (zip: Buffer): number => zip.length - 22

  test.each([1, 0])(
    'an end record whose count (%d) leaves records of its central directory out is refused as corrupt',
    async (count) => {
      const zip = buildZip([
        { type: 'file', name: 'index.html', content: 'home' },
        { type: 'file', name: 'guide.html', content: 'guide' },
        { type: 'file', name: 'faq.html', content: 'faq' }
      ])
      // One flipped bit turns 3 into 1: the directory's size still covers all three records.
      zip.writeUInt16LE(count, endRecordAt(zip) + 8)
      zip.writeUInt16LE(count, endRecordAt(zip) + 10)
      const error = await unpack(zip).catch((e: unknown) => e)
      expect(error).toBeInstanceOf(CorruptArchiveError)
      expect((error as Error).message).toContain(`the central directory's ${count} entries take`)
      await expectNothingElseWritten('no site')
    }
  )

  test('a central directory that does not end where the end record starts is refused as corrupt', async () => {
    const zip = buildZip([
      { type: 'file', name: 'index.html', content: 'home' },
      { type: 'file', name: 'guide.html', content: 'guide' }
    ])
    const end = endRecordAt(zip)
    // A size short of the records.
    const short = Buffer.from(zip)
    short.writeUInt32LE(short.readUInt32LE(end + 12) - 10, end + 12)
    // Bytes between the directory and the end record, which no reader reads: any amount could hide there.
    const padded = Buffer.concat([zip.subarray(0, end), Buffer.alloc(1024, 0x41), zip.subarray(end)])
    for (const [archive, message] of [
      [short, `the central directory ends at byte ${end - 10}, but the end records start at byte ${end}`],
      [padded, `the central directory ends at byte ${end}, but the end records start at byte ${end + 1024}`]
    ] as const) {
      const error = await unpack(archive).catch((e: unknown) => e)
      expect(error).toBeInstanceOf(CorruptArchiveError)
      expect((error as Error).message).toContain(message)
      await expectNothingElseWritten('no site')
    }
  })

  /**
   * Sets `set` in the general purpose flags, or the method, of the first entry, in its local header and central record
   * alike.
   */
  function withFirstEntry(zip: Buffer, change: { flags?: number; method?: number }): Buffer {
    const central = zip.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]))
    if (change.flags !== undefined) {
      zip.writeUInt16LE(zip.readUInt16LE(6) | change.flags, 6)
      zip.writeUInt16LE(zip.readUInt16LE(central + 8) | change.flags, central + 8)
    }
    if (change.method !== undefined) {
      zip.writeUInt16LE(change.method, 8)
      zip.writeUInt16LE(change.method, central + 10)
    }
    return zip
  }

  test.each([
    ['encrypted', { flags: 1 }, '"page.html" is encrypted, which the action does not unpack'],
    [
      'compressed with bzip2',
      { method: 12 },
      '"page.html" is compressed with method 12 (neither stored nor deflate), which the action does not unpack'
    ]
  ] as const)(
    'an entry %s is refused as unsupported, not corrupt (another download would not help)',
    async (_, change, message) => {
      const zip = withFirstEntry(buildZip([{ type: 'file', name: 'page.html', content: 'x'.repeat(100) }]), change)
      const error = await unpack(zip).catch((e: unknown) => e)
      expect(error).toBeInstanceOf(UnsupportedArchiveError)
      expect((error as Error).message).toBe(`The bundle archive cannot be unpacked: entry ${message}.`)
      await expectNothingElseWritten('no site')
    }
  )

  test('a stored encrypted entry is unsupported, not a size mismatch', async () => {
    // One stored (empty) entry as ZipCrypto writes it: 12 more bytes before the content, counted in its compressed
    // size.
    const zip = buildZip([{ type: 'file', name: 'a.html', content: '' }])
    const nameAt = 30
    const dataAt = nameAt + zip.readUInt16LE(26) + zip.readUInt16LE(28)
    const encrypted = Buffer.concat([zip.subarray(0, dataAt), Buffer.alloc(12, 0x5a), zip.subarray(dataAt)])
    const central = encrypted.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]))
    expect(encrypted.readUInt16LE(8)).toBe(0) // stored
    encrypted.writeUInt16LE(encrypted.readUInt16LE(6) | 1, 6)
    encrypted.writeUInt32LE(encrypted.readUInt32LE(18) + 12, 18)
    encrypted.writeUInt16LE(encrypted.readUInt16LE(central + 8) | 1, central + 8)
    encrypted.writeUInt32LE(encrypted.readUInt32LE(central + 20) + 12, central + 20)
    encrypted.writeUInt32LE(encrypted.readUInt32LE(endRecordAt(encrypted) + 16) + 12, endRecordAt(encrypted) + 16)
    const error = await unpack(encrypted).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(UnsupportedArchiveError)
    expect((error as Error).message).toBe(
      'The bundle archive cannot be unpacked: entry "a.html" is encrypted, which the action does not unpack.'
    )
    await expectNothingElseWritten('no site')
  })

  test('an empty zip gives an empty site', async () => {
    await unpack(buildZip([]))
    expect(await readdir(siteDir)).toEqual([])
  })
})

describe("file system failures in the user's terms", () => {
  const failure = (code: string, syscall = 'write'): NodeJS.ErrnoException =>
    Object.assign(new Error(`${code}: raw`), { code, syscall })

  test.each([
    ['ENOSPC', 'the disk is full (ENOSPC), after 1.5 GiB had been written'],
    ['EDQUOT', 'the disk quota is used up (EDQUOT), after 1.5 GiB had been written'],
    ['EACCES', 'permission denied (EACCES)'],
    ['EPERM', 'the operation is not permitted (EPERM)'],
    ['EROFS', 'the file system is read-only (EROFS)'],
    ['EWHATEVER', 'EWHATEVER: raw (EWHATEVER)']
  ])('%s', (code, said) => {
    const error = writeFailure(failure(code), 'the archive entry "a.html" into /site', 1.5 * 1024 ** 3)
    expect(error).toBeInstanceOf(ActionError)
    expect((error as Error).message).toBe(`Could not write the archive entry "a.html" into /site: ${said}`)
  })

  test('a stop, a refusal and corrupt data stay as they are', () => {
    for (const error of [
      new CancelledError(),
      new UnsafeEntryError('x', 'is bad'),
      new CorruptArchiveError('bad data'),
      Object.assign(new Error('aborted'), { name: 'AbortError' })
    ]) {
      expect(writeFailure(error, 'x')).toBe(error)
    }
  })
})

describe('the .part file', () => {
  test('a large body fed in small chunks is kept whole (backpressure never waits forever)', async () => {
    const archive = await buildTar([{ type: 'file', name: 'big.bin', content: Buffer.alloc(12 * 1024 * 1024, 'docs') }])
    const receiver = await TestUnpacking.open({
      partFile,
      siteDir: undefined,
      log: recordingLogger(),
      onFatal: (error) => {
        throw error
      },
      limits: ROOMY
    })
    for (let offset = 0; offset < archive.length; offset += 4096)
      await receiver.write(archive.subarray(offset, offset + 4096))
    const received = await receiver.complete()
    expect(received).toMatchObject({
      format: 'tar',
      sizeBytes: archive.length,
      staging: undefined,
      sha256: createHash('sha256').update(archive).digest('hex')
    })
    expect((await readFile(partFile)).equals(archive)).toBe(true)
  }, 5000)
})

/** A receiver that the test stops through `signal`; a fatal failure reported along the way fails the test. */
function stoppableReceiver(signal: AbortSignal): Promise<TestUnpacking> {
  const onFatal = (error: unknown): never => {
    throw error
  }
  return TestUnpacking.open({ partFile, siteDir, log: recordingLogger(), onFatal, signal, limits: ROOMY })
}

describe('stopping', () => {
  test('a stop while a zip is unpacked (after its download) ends the unpacking at once', async () => {
    // Enough pages that the unpacking is still under way when its first page is seen.
    const archive = buildZip(fixtureSiteEntries({ pages: 8000 }))
    const controller = new AbortController()
    const receiver = await stoppableReceiver(controller.signal)
    await receiver.write(archive)
    const completing = receiver.complete()
    // Wait until the staging folder has its first page, then stop.
    const staging = async (): Promise<string[]> => {
      const name = (await readdir(work.dir)).find((entry) => entry.startsWith('.site.staging-'))
      return name === undefined ? [] : readdir(join(work.dir, name, 'guides')).catch((): string[] => [])
    }
    while ((await staging()).length === 0) await new Promise((resolve) => setTimeout(resolve, 1))
    const reason = new CancelledError()
    controller.abort(reason)
    // The stop's reason is the failure, as it is.
    await expect(completing).rejects.toBe(reason)
    await receiver.discard()
    await expectNothingElseWritten('no site')
  })

  test('a cancelled large unpacking hands its staging folder to a detached removal and returns at once', async () => {
    // 60 folders of 50 empty files, in order: once the last folder has files, far more than the
    // few thousand entries a cancelled run still removes itself are on disk.
    const entries: ArchiveEntry[] = []
    for (let d = 0; d < 60; d++)
      for (let f = 0; f < 50; f++) entries.push({ type: 'file', name: `d${d}/f${f}.html`, content: '' })
    const controller = new AbortController()
    const receiver = await stoppableReceiver(controller.signal)
    await receiver.write(buildZip(entries))
    const completing = receiver.complete().catch((e: unknown) => e)
    const ours = async (): Promise<string[]> => (await readdir(work.dir)).filter((name) => name.startsWith('.site.'))
    const lastFolder = async (): Promise<string[]> =>
      readdir(join(work.dir, (await ours())[0] ?? 'none', 'd59')).catch((): string[] => [])
    while ((await lastFolder()).length === 0) await new Promise((resolve) => setTimeout(resolve, 2))
    controller.abort(new CancelledError())
    await completing
    await receiver.discard(true)
    // Renamed to a trash name at once; the detached process then removes it.
    expect(await ours()).toEqual([expect.stringMatching(/^\.site\.trash-\d+-[0-9a-f]{12}$/)])
    for (let waited = 0; (await ours()).length > 0 && waited < 10_000; waited += 20)
      await new Promise((resolve) => setTimeout(resolve, 20))
    await expectNothingElseWritten('no site')
  })

  test('a stop while GNU tar unpacks a tar.gz ends it at once: nothing is written after, nothing is left', async () => {
    const archive = await buildTar(fixtureSiteEntries({ pages: 1500 }), { gzip: true })
    const controller = new AbortController()
    const receiver = await stoppableReceiver(controller.signal)
    const half = Math.floor(archive.length / 2)
    await receiver.write(archive.subarray(0, half))
    const reason = new CancelledError()
    controller.abort(reason)
    await receiver.discard(true)
    await expectNothingElseWritten('no site')
  })
})

describe('the tree written is what was judged', () => {
  /** A staged tree beside a ledger that judged `judged` only. */
  async function check(judged: Array<[EntryKind, string, string?]>): Promise<unknown> {
    const root = join(work.dir, 'tree')
    await mkdir(join(root, 'guides'), { recursive: true })
    await writeFile(join(root, 'index.html'), 'home')
    await writeFile(join(root, 'guides/a.html'), 'page a')
    await symlink('index.html', join(root, 'latest'))
    const ledger = new SiteLedger(ROOMY, recordingLogger(), root)
    for (const [kind, name, target] of judged) {
      ledger.entry(kind, name, { size: name === 'index.html' ? 4 : 6, target })
    }
    ledger.finish()
    return checkStagedTree(root, (path) => ledger.judgedAt(path)).catch((e: unknown) => e)
  }
  const all: Array<[EntryKind, string, string?]> = [
    ['file', 'index.html'],
    ['directory', 'guides'],
    ['file', 'guides/a.html'],
    ['symlink', 'latest', 'index.html']
  ]

  test('a tree of judged entries passes, its files and symlinks listed', async () => {
    expect(((await check(all)) as string[]).sort()).toEqual(['guides/a.html', 'index.html', 'latest'])
  })

  test.each([
    [
      'a file no entry named',
      all.filter(([, name]) => name !== 'guides/a.html'),
      '"guides/a.html" was written with 6 B'
    ],
    [
      'a symlink to another target',
      [...all.slice(0, 3), ['symlink', 'latest', 'guides/a.html']],
      '"latest" was written'
    ],
    [
      'a file where a symlink was judged',
      [...all.slice(0, 2), ['symlink', 'guides/a.html', '../index.html'], all[3]!],
      '"guides/a.html" was written'
    ]
  ] as Array<[string, Array<[EntryKind, string, string?]>, string]>)('%s is refused', async (_, judged, reason) => {
    const error = await check(judged)
    expect(error).toBeInstanceOf(UnsafeEntryError)
    expect((error as Error).message).toContain(reason)
  })
})

describe('staging swap', () => {
  test('replaces the old site whole and leaves no staging folder', async () => {
    await mkdir(join(siteDir, 'old'), { recursive: true })
    await writeFile(join(siteDir, 'old/page.html'), 'old')
    await unpack(await buildTar(fixtureSiteEntries(), { gzip: true }))
    const listing = await readdir(siteDir)
    expect(listing).not.toContain('old')
    expect(listing).toContain('index.html')
    expect((await readdir(work.dir)).filter((name) => name.startsWith('.'))).toEqual([])
  })

  test('a large old site is removed by a detached process: waited for, unless the run is cancelled', async () => {
    const oldSite = async (): Promise<void> => {
      await mkdir(join(siteDir, 'old'), { recursive: true })
      await writeFile(join(siteDir, 'old/page.html'), 'old')
    }
    const staged = async (): Promise<string> => {
      const staging = join(work.dir, '.site.staging-0123456789ab')
      await mkdir(staging)
      await writeFile(join(staging, 'index.html'), 'new')
      return staging
    }
    const ours = async (): Promise<string[]> => (await readdir(work.dir)).filter((name) => name.startsWith('.site.'))
    await oldSite()
    await swapIntoPlace(await staged(), siteDir, { entries: 5000 })
    expect(await ours()).toEqual([])
    expect(await readdir(siteDir)).toEqual(['index.html'])

    await rm(siteDir, { recursive: true })
    await oldSite()
    await swapIntoPlace(await staged(), siteDir, { entries: 5000, signal: AbortSignal.abort() })
    expect(await readdir(siteDir)).toEqual(['index.html'])
    for (let waited = 0; (await ours()).length > 0 && waited < 10_000; waited += 20)
      await new Promise((resolve) => setTimeout(resolve, 20))
    expect(await ours()).toEqual([])

    // An empty folder where the site goes is gone when the swap resolves, even when cancelled:
    // no process is started for it.
    await rm(siteDir, { recursive: true })
    await mkdir(siteDir)
    await swapIntoPlace(await staged(), siteDir, { entries: 5000, signal: AbortSignal.abort() })
    expect(await ours()).toEqual([])
    expect(await readdir(siteDir)).toEqual(['index.html'])
  })

  test('a failed unpack keeps the old site as it was', async () => {
    await mkdir(siteDir)
    await writeFile(join(siteDir, 'index.html'), 'old')
    const entries: ArchiveEntry[] = [...fixtureSiteEntries(), { type: 'file', name: '../escape.html', content: 'x' }]
    await expect(unpack(await buildTar(entries, { gzip: true }))).rejects.toBeInstanceOf(UnsafeEntryError)
    expect(await readdir(siteDir)).toEqual(['index.html'])
    expect(await readFile(join(siteDir, 'index.html'), 'utf8')).toBe('old')
    await expectNothingElseWritten('site')
  })
})
