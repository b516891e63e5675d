import fc from 'fast-check'
import { describe, expect, test } from '@jest/globals'
import { EntryIndex, entryPath, fileMode } from '../src/site/entry-safety.js'
import { foldPath } from '../src/common/file-names.js'
import { SiteLimitError, UnsafeEntryError } from '../src/site/errors.js'
import { describeBytes, detectFormat } from '../src/archive/format.js'
import { ActionError } from '../src/common/errors.js'

function refusal(fn: () => unknown): UnsafeEntryError {
  try {
    fn()
  } catch (error) {
    expect(error).toBeInstanceOf(UnsafeEntryError)
    expect(error).toBeInstanceOf(ActionError)
    return error as UnsafeEntryError
  }
  throw new Error('expected the entry to be refused')
}

describe('entryPath', () => {
  test.each([
    ['index.html', 'index.html'],
    ['./guides/a.html', 'guides/a.html'],
    ['guides//a.html', 'guides/a.html'],
    ['guides/', 'guides'],
    ['./', ''],
    ['a\\b.html', 'a/b.html'],
    ['..foo/bar..', '..foo/bar..']
  ])('%j -> %j', (name, path) => {
    expect(entryPath(name)).toBe(path)
  })

  test.each([
    ['/etc/passwd', 'absolute'],
    ['\\evil', 'absolute'],
    ['C:\\Windows\\evil', 'absolute'],
    ['c:evil', 'absolute'],
    ['../evil', '".."'],
    ['a/../../evil', '".."'],
    ['a\\..\\..\\evil', '".."'],
    ['a/..', '".."'],
    ['a\0b', 'NUL'],
    // Windows drops trailing dots and spaces: these are ".." there.
    ['.. /evil', 'Windows reads as'],
    ['a/.../evil', 'Windows reads as'],
    ['a\\.. \\evil', 'Windows reads as'],
    // A repository's control folder, however a file system spells it.
    ['.git/hooks/post-checkout', '".git"'],
    ['docs/.GIT/config', '".git"'],
    ['.git', '".git"'],
    ['.git./config', '".git"'],
    ['GIT~1/config', '".git"'],
    // A name made only of code points HFS+ ignores (and dots) is no name on macOS.
    ['\u200c/a', 'no name at all'],
    ['d/\ufeff/x', 'no name at all'],
    ['\u200c./x', 'no name at all'],
    // NTFS streams: `.git::$INDEX_ALLOCATION` is the folder `.git` on Windows.
    ['.git::$INDEX_ALLOCATION/hooks/post-checkout', '".git"'],
    ['.git:x/config', '".git"']
  ])('refuses %j, naming the entry', (name, reason) => {
    const error = refusal(() => entryPath(name))
    expect(error.entryName).toBe(name)
    expect(error.message).toContain(JSON.stringify(name))
    expect(error.message).toContain(reason)
  })

  test.each([
    ['a name of 256 bytes', `${'n'.repeat(251)}.html`, 'longer than 255 bytes'],
    ['a name of 128 two-byte characters', '\u00e9'.repeat(128), 'longer than 255 bytes'],
    ['a path of 4221 bytes', `${'d'.repeat(200)}/`.repeat(21), 'path longer than 4096 bytes']
  ])('refuses %s before anything is written', (_, name, reason) => {
    expect(refusal(() => entryPath(name)).message).toContain(reason)
  })

  test('a plain name is its own path, and any other reads as the checks of each segment read it', () => {
    // The checks of each segment, spelled out: what names without a quick path must give.
    const segmentByUnit = (name: string): string | 'refused' => {
      if (name.includes('\0') || /^(?:[\\/]|[A-Za-z]:)/.test(name)) return 'refused'
      const segments = name.split(/[\\/]/).filter((segment) => segment !== '' && segment !== '.')
      const gitName = (segment: string): boolean =>
        ['.git', 'git~1'].includes(
          segment
            .split(':')[0]!
            .toLowerCase()
            .replace(/[. ]+$/, '')
        )
      if (
        segments.some(
          (segment) =>
            segment === '..' || /^[. ]+$/.test(segment) || gitName(segment) || Buffer.byteLength(segment) > 255
        )
      )
        return 'refused'
      const path = segments.join('/')
      return Buffer.byteLength(path) > 4096 ? 'refused' : path
    }
    const unit = fc.constantFrom(
      'a',
      'Z',
      'g',
      'i',
      't',
      'G',
      'I',
      'T',
      '~',
      '1',
      '.',
      '.',
      ' ',
      '/',
      '/',
      '\\',
      '-',
      '_',
      ':'
    )
    const name = fc.oneof(
      fc.string({ unit, minLength: 1, maxLength: 24 }),
      fc
        .array(fc.stringMatching(/^[\w-][\w.-]{0,10}$/), { minLength: 1, maxLength: 6 })
        .map((segments) => segments.join('/')),
      fc
        .tuple(fc.integer({ min: 250, max: 260 }), fc.integer({ min: 1, max: 20 }))
        .map(([length, count]) => Array.from({ length: count }, () => 'n'.repeat(length)).join('/'))
    )
    fc.assert(
      fc.property(name, (candidate) => {
        const expected = segmentByUnit(candidate)
        const actual = (() => {
          try {
            return entryPath(candidate)
          } catch {
            return 'refused'
          }
        })()
        expect(actual).toBe(expected)
      }),
      { numRuns: 3000 }
    )
  })

  test('takes the longest names every file system can create', () => {
    expect(entryPath('n'.repeat(255))).toBe('n'.repeat(255))
    const longest = `${'d'.repeat(255)}/`.repeat(16)
    expect(entryPath(longest)).toBe(longest.slice(0, -1))
  })
})

describe('fileMode', () => {
  test('drops setuid, setgid and sticky bits, keeps the executable bits', () => {
    expect(fileMode(0o4755)).toBe(0o755)
    expect(fileMode(0o2755)).toBe(0o755)
    expect(fileMode(0o1777)).toBe(0o777)
    expect(fileMode(0o100644)).toBe(0o644)
    expect(fileMode(undefined)).toBe(0o644)
  })

  test('a file is always readable and writable by its owner', () => {
    expect(fileMode(0o000)).toBe(0o600)
    expect(fileMode(0o400)).toBe(0o600)
    expect(fileMode(0o111)).toBe(0o711)
    expect(fileMode(0o4000)).toBe(0o600)
  })
})

describe('foldPath', () => {
  test.each([
    ['Index.HTML', 'index.html'],
    // NFD (as HFS+ stores it) and NFC are one name.
    ['cafe\u0301/x', 'caf\u00e9/x'],
    ['STRASSE', 'stra\u00dfe'],
    // Capital sharp s is its own upper case: it must still meet `ß` and `ss`.
    ['stra\u1e9ee', 'strasse'],
    ['\u1e9e', '\u00df'],
    ['\u03c3', '\u03c2'],
    ['\u212a', 'k'],
    // HFS+ ignores these code points; Windows drops trailing dots and spaces.
    ['a\u200cb', 'ab'],
    ['\ufeffx', 'x'],
    ['dir. /file.', 'dir/file'],
    ['a\\b. ', 'a\\b']
  ])('%j and %j are one name', (one, other) => {
    expect(foldPath(one)).toBe(foldPath(other))
  })

  test.each([
    ['a', 'b'],
    ['a.html', 'ahtml'],
    ['x/y', 'xy']
  ])('%j and %j stay apart', (one, other) => {
    expect(foldPath(one)).not.toBe(foldPath(other))
  })

  test('an ASCII path folds as the full fold does (the quick way it takes is the same)', () => {
    const full = (path: string): string =>
      path
        .replace(/[\u200c-\u200f\u202a-\u202e\u206a-\u206f\ufeff]/g, '')
        .normalize('NFC')
        .toLowerCase()
        .toUpperCase()
        .toLowerCase()
        .normalize('NFC')
        .replace(/[. ]+(?=[\\/]|$)/g, '')
    const ascii = fc.string({
      unit: fc.constantFrom('a', 'Z', 'q', '.', ' ', '/', '\\', '-', '_', '0', 'I', 'i', '~'),
      maxLength: 24
    })
    fc.assert(
      fc.property(ascii, (path) => foldPath(path) === full(path)),
      { numRuns: 2000, seed: 7 }
    )
    for (const path of ['docs/Guide.HTML', 'a./b', 'a /b', 'a.', 'a\\b. ', 'index.html', '.git', 'x.y/z'])
      expect(foldPath(path)).toBe(full(path))
  })
})

describe('EntryIndex', () => {
  test('accepts an ordinary site with inside links', () => {
    const index = new EntryIndex()
    index.addDirectory('assets/')
    index.addFile('assets/app.js')
    index.addFile('guides/a.html')
    expect(index.addHardlink('guides/b.html', 'guides/a.html')).toBe('guides/b.html')
    expect(index.addSymlink('latest', 'guides')).toBe('latest')
    index.addSymlink('guides/style.js', '../assets/app.js')
    index.addSymlink('dangling', 'nowhere/yet')
    expect(() => index.checkSymlinks()).not.toThrow()
  })

  test('refuses a symlink out of the root, absolute or relative', () => {
    expect(refusal(() => new EntryIndex().addSymlink('l', '/etc')).message).toContain('absolute')
    expect(refusal(() => new EntryIndex().addSymlink('l', 'C:\\Windows')).message).toContain('absolute')
    expect(refusal(() => new EntryIndex().addSymlink('d/l', '../../x')).message).toContain('outside')
    expect(refusal(() => new EntryIndex().addSymlink('l', '..')).message).toContain('outside')
    expect(refusal(() => new EntryIndex().addSymlink('l', '..\\x')).message).toContain('outside')
    expect(refusal(() => new EntryIndex().addSymlink('l', 'a\0b')).message).toContain('NUL')
  })

  test('refuses symlinks that only escape when chained through each other', () => {
    // a -> . ; d/b -> ../a/../x : lexically "x", but through a the OS reaches ../x.
    const chained = new EntryIndex()
    chained.addSymlink('a', '.')
    chained.addSymlink('d/b', '../a/../x')
    expect(refusal(() => chained.checkSymlinks()).entryName).toBe('d/b')

    // The same with the links in the other order.
    const reversed = new EntryIndex()
    reversed.addSymlink('d/b', '../a/../x')
    reversed.addSymlink('a', '.')
    expect(refusal(() => reversed.checkSymlinks()).entryName).toBe('d/b')

    // sub/up -> .. is the root; l -> sub/up/.. climbs above it.
    const climbing = new EntryIndex()
    climbing.addSymlink('sub/up', '..')
    climbing.addSymlink('l', 'sub/up/..')
    expect(refusal(() => climbing.checkSymlinks()).entryName).toBe('l')
  })

  test('refuses symlink loops (bounded resolution)', () => {
    const loop = new EntryIndex()
    loop.addSymlink('a', 'b')
    loop.addSymlink('b', 'a')
    expect(refusal(() => loop.checkSymlinks()).message).toContain('loops')
  })

  test('resolving symlinks is bounded: chains of long targets are refused at once, a long target alone is fine', () => {
    // Each l<i> climbs down 800 folders and back up to the next: every x<j> walks the whole chain.
    const chains = new EntryIndex()
    for (let i = 1; i <= 39; i++)
      chains.addSymlink(`l${i}`, `${'b/'.repeat(800)}${'../'.repeat(800)}${i === 39 ? 'end' : `l${i + 1}`}`)
    for (let j = 0; j < 200; j++) chains.addSymlink(`x${j}`, 'l1')
    const started = performance.now()
    expect(refusal(() => chains.checkSymlinks()).message).toContain(
      "the archive's symlinks lead through each other more than a site's would"
    )
    // Before the bound, this took about 40 s (each hop joined and folded the whole path again).
    expect(performance.now() - started).toBeLessThan(5000)

    const long = new EntryIndex()
    long.addSymlink('deep', `${'b/'.repeat(800)}${'../'.repeat(800)}index.html`)
    long.addSymlink('via', 'deep')
    expect(() => long.checkSymlinks()).not.toThrow()
  })

  test('what all symlink targets add up to is bounded as they come, not only once they are resolved', () => {
    // A folder and back, 16 times: 4,064 bytes that stay at the root, each target fine alone (a
    // zip deflates one to a few dozen bytes).
    const target = `${'x'.repeat(250)}/../`.repeat(16)
    const index = new EntryIndex()
    // 16 MiB of targets: 4,128 of these pass, the next one does not.
    for (let i = 0; i < 4128; i++) index.addSymlink(`l${i}`, target)
    const refused = refusal(() => index.addSymlink('l4128', target))
    expect(refused.entryName).toBe('l4128')
    expect(refused.message).toContain('is a symlink past 16 MiB of symlink targets in the archive')
  })

  test('the folders a path implies count against the bound on paths, as entries do', () => {
    const index = new EntryIndex({ paths: 25 })
    index.addFile('a.html')
    // One entry, 30 folders: 31 paths, past 25.
    const refused = (() => {
      try {
        index.addFile(`${'d/'.repeat(30)}deep.html`)
      } catch (error) {
        return error
      }
      return undefined
    })()
    expect(refused).toBeInstanceOf(SiteLimitError)
    expect((refused as Error).message).toContain(
      'The bundle makes more than 25 files and folders, the most the action unpacks: the entry "d/d/'
    )
    // 23 more paths (a folder of 22 files) fit: 24 in all.
    for (let i = 0; i < 22; i++) index.addFile(`guides/p${i}.html`)
  })

  test('what the paths held add up to is bounded', () => {
    // Names under 255 bytes and paths under 4,096, each fine alone: 3,815 characters an entry.
    const folder = `${'f'.repeat(240)}/`.repeat(15)
    const index = new EntryIndex({ pathCharacters: 1024 * 1024 })
    const add = (i: number): void => void index.addFile(`${folder}${String(i).padStart(200, '0')}`)
    let i = 0
    const refused = (() => {
      try {
        for (; ; i++) add(i)
      } catch (error) {
        return error
      }
    })()
    expect(refused).toBeInstanceOf(SiteLimitError)
    expect((refused as Error).message).toContain(
      `The bundle's paths add up to more than 1,048,576 characters, far more than a site's: the entry "${folder}`
    )
    // The 15 folders (240, 481, ... characters), then files of 3,815 each.
    const folders = Array.from({ length: 15 }, (_, k) => 241 * (k + 1) - 1).reduce((sum, length) => sum + length)
    expect(i).toBe(Math.floor((1024 * 1024 - folders) / (folder.length + 200)))
    // The default is 64 Mi characters: far above a site of 100,000 pages, far below the heap.
    expect(() => new EntryIndex().addFile(`${folder}${'x'.repeat(200)}`)).not.toThrow()
  })

  test('refuses any entry written through a symlink', () => {
    const index = new EntryIndex()
    index.addSymlink('s', 'sub')
    expect(refusal(() => index.addFile('s/evil')).message).toContain('through the symlink "s"')
    expect(refusal(() => index.addDirectory('s/d/')).message).toContain('through the symlink')
    expect(refusal(() => index.addSymlink('s/l', 'x')).message).toContain('through the symlink')
    index.addFile('real')
    expect(refusal(() => index.addHardlink('s/h', 'real')).message).toContain('through the symlink')
  })

  test('refuses a symlink where earlier entries made a directory', () => {
    const index = new EntryIndex()
    index.addFile('d/f')
    expect(refusal(() => index.addSymlink('d', '.')).message).toContain('replace a directory')
  })

  test('refuses hardlinks out of the root, to nothing, or to non-files', () => {
    const index = new EntryIndex()
    index.addFile('f')
    index.addSymlink('s', 'f')
    index.addDirectory('dir')
    expect(refusal(() => index.addHardlink('h', '/etc/passwd')).message).toContain('absolute')
    expect(refusal(() => index.addHardlink('h', '../outside')).message).toContain('outside')
    expect(refusal(() => index.addHardlink('h', 'missing')).message).toContain('not a regular file')
    expect(refusal(() => index.addHardlink('h', 's')).message).toContain('not a regular file')
    expect(refusal(() => index.addHardlink('h', 'dir')).message).toContain('not a regular file')
    expect(refusal(() => index.addHardlink('f', 'f')).message).toContain('itself')
  })

  test('the later entry wins at a path, except between files and folders', () => {
    const index = new EntryIndex()
    // x leads out only through a: caught once every symlink is known.
    index.addSymlink('a', '.')
    index.addSymlink('x', 'a/..')
    index.addFile('x') // a file replaces the earlier symlink: it no longer counts
    expect(() => index.checkSymlinks()).not.toThrow()
    index.addSymlink('x', 'a/..') // and a symlink replaces the file: it counts
    expect(refusal(() => index.checkSymlinks()).entryName).toBe('x')
    index.addFile('x')
    index.addFile('f')
    index.addFile('f')
    expect(refusal(() => index.addDirectory('f/')).message).toContain('is a file')
    expect(refusal(() => index.addFile('f/g')).message).toContain('made a file')
    index.addDirectory('d')
    expect(refusal(() => index.addFile('d')).message).toContain('replace a directory')
  })

  test('refuses symlinks that escape through a case or Unicode twin of another link', () => {
    // x/L -> .. is the root; on a case-insensitive disk X/L is the same link, and X/L/.. is above the root.
    const cased = new EntryIndex()
    cased.addSymlink('x/L', '..')
    cased.addSymlink('y', 'X/L/..')
    expect(refusal(() => cased.checkSymlinks()).entryName).toBe('y')

    // The same with a decomposed name (as HFS+ stores it) against a composed one.
    const unicode = new EntryIndex()
    unicode.addSymlink('caf\u00e9/up', '..')
    unicode.addSymlink('y', 'cafe\u0301/up/../etc')
    expect(refusal(() => unicode.checkSymlinks()).entryName).toBe('y')

    // Writing through a link named in another case is writing through it.
    const through = new EntryIndex()
    through.addSymlink('Out', '.')
    expect(refusal(() => through.addFile('out/evil')).message).toContain('through the symlink "Out"')
    expect(refusal(() => through.addFile('OUT./evil')).message).toContain('through the symlink "Out"')
  })

  test('case and Unicode twins are refused, whatever their kinds: one file on macOS and Windows, two on Linux', () => {
    const twin = (first: (index: EntryIndex) => unknown, second: (index: EntryIndex) => unknown): string => {
      const index = new EntryIndex()
      first(index)
      return refusal(() => second(index)).message
    }
    expect(
      twin(
        (i) => i.addFile('Readme.md'),
        (i) => i.addFile('README.md')
      )
    ).toContain('differs only in case or Unicode form from "Readme.md"')
    expect(
      twin(
        (i) => i.addDirectory('Guides'),
        (i) => i.addFile('guides/a.html')
      )
    ).toContain('"Guides"')
    expect(
      twin(
        (i) => i.addFile('Guides/a.html'),
        (i) => i.addDirectory('GUIDES/')
      )
    ).toContain('"Guides"')
    expect(
      twin(
        (i) => i.addFile('caf\u00e9.html'),
        (i) => i.addFile('cafe\u0301.html')
      )
    ).toContain('Unicode form')
    expect(
      twin(
        (i) => i.addFile('a.html'),
        (i) => i.addSymlink('A.html', 'b')
      )
    ).toContain('"a.html"')
    // A file and a folder of one folded path still conflict as such.
    expect(
      twin(
        (i) => i.addFile('Readme.md'),
        (i) => i.addFile('README.MD/x')
      )
    ).toContain('made a file')
    expect(
      twin(
        (i) => i.addDirectory('Assets'),
        (i) => i.addFile('assets')
      )
    ).toContain('replace a directory')
    // The same spelling again is the later entry at one path.
    const index = new EntryIndex()
    index.addFile('Guides/Start.html')
    expect(index.addFile('Guides/Start.html')).toBe('Guides/Start.html')
    expect(index.addHardlink('copy.html', 'guides/start.html')).toBe('copy.html')
  })

  test('refuses symlink targets no file system would take, or that Windows reads as ".."', () => {
    expect(refusal(() => new EntryIndex().addSymlink('l', 'a/'.repeat(2049))).message).toContain(
      'longer than 4096 bytes'
    )
    expect(refusal(() => new EntryIndex().addSymlink('d/l', '.. /x')).message).toContain('Windows reads as')
    expect(refusal(() => new EntryIndex().addSymlink('l', `a/${'n'.repeat(256)}`)).message).toContain(
      'a name longer than 255 bytes'
    )
    expect(new EntryIndex().addSymlink('l', './a/../b')).toBe('l')
  })

  test('refuses an empty file name', () => {
    expect(refusal(() => new EntryIndex().addFile('./')).message).toContain('empty path')
  })
})

describe('detectFormat', () => {
  const tarHead = Buffer.alloc(512)
  tarHead.write('index.html', 0)
  tarHead.write('ustar\x0000', 257, 'latin1')

  test('knows zip, empty zip, gzip and tar by their first bytes', () => {
    expect(detectFormat(Buffer.from('PK\x03\x04rest', 'latin1'), false)).toEqual({ format: 'zip' })
    expect(detectFormat(Buffer.from('PK\x05\x06', 'latin1'), false)).toEqual({ format: 'zip' })
    expect(detectFormat(Buffer.from([0x1f, 0x8b, 8, 0]), false)).toEqual({ format: 'tar.gz' })
    expect(detectFormat(tarHead, false)).toEqual({ format: 'tar' })
  })

  test('waits for more bytes until it can tell a tar', () => {
    expect(detectFormat(tarHead.subarray(0, 100), false)).toBeUndefined()
    expect(detectFormat(Buffer.from('P'), false)).toBeUndefined()
  })

  test('names what a non-archive looks like', () => {
    const html = Buffer.from('<!DOCTYPE html>\n<html><head><title>Error</title></head>' + ' '.repeat(600))
    expect(detectFormat(html, false)).toEqual({ unknown: expect.stringContaining('an HTML page') })
    expect(detectFormat(Buffer.from('<?xml version="1.0"?><Error/>'), true)).toEqual({
      unknown: expect.stringContaining('an XML document')
    })
    expect(detectFormat(Buffer.from('{"error":"nope"}'), true)).toEqual({ unknown: expect.stringContaining('JSON') })
    expect(detectFormat(Buffer.alloc(0), true)).toEqual({ unknown: expect.stringContaining('empty') })
    expect(describeBytes(Buffer.from([0, 1, 2, 0xff]))).toBe('binary data of an unknown kind')
  })
})
