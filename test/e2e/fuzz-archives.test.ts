// Property-based fuzzing of hostile archives: random tar, tar.gz and zip archives of hostile names
// (`..`, absolute, backslashes, NUL, case and Unicode twins, `.git`, very long), links in chains,
// duplicates, sizes past the bounds and damaged bytes, fed through the real receiver into a
// staging folder in a temp folder. The invariant: either the site unpacks, wholly inside its
// folder and readable, or the unpacking fails with an ActionError and leaves everything as it
// was; nothing is ever written outside.
//
// `npm run test:e2e` runs a fixed seed a bounded number of times; `npm run fuzz:archives` runs more with a
// random seed. FUZZ_RUNS and FUZZ_SEED (a number, or `random`) set either; a random seed is
// printed, so that a failure can be replayed with FUZZ_SEED.
import { existsSync } from 'node:fs'
import { lstat, mkdir, readFile, readdir, readlink, realpath, rm, writeFile } from 'node:fs/promises'
import * as os from 'node:os'
import * as path from 'node:path'
import { afterAll, beforeAll, expect, test } from '@jest/globals'
import fc from 'fast-check'
import { type ArchiveEntry, buildTar, buildZip } from '../../simulator/archives.js'
import type { ArchiveFormat } from '../../src/archive/format.js'
import { TestUnpacking } from '../support/unpacking.js'
import type { SiteLimits } from '../../src/site/ledger.js'
import { swapIntoPlace } from '../../src/site/staging.js'
import { ActionError } from '../../src/common/errors.js'
import { recordingLogger } from '../support/fake-host.js'
import { tempFolder } from '../support/temp.js'

const RUNS = Number(process.env.FUZZ_RUNS ?? 200)
const SEED =
  process.env.FUZZ_SEED === 'random' ? Math.floor(Math.random() * 2 ** 31) : Number(process.env.FUZZ_SEED ?? 20_240_601)
if (process.env.FUZZ_SEED === 'random') console.log(`fuzz-archives: FUZZ_SEED=${SEED} FUZZ_RUNS=${RUNS}`)

/** A name no test would create on purpose: if it turns up outside the site, something escaped. */
const MARKER = `zz-fuzz-escape-${process.pid}`

/** Names a site may have, with case and Unicode twins among them. */
const PLAIN = [
  'a',
  'A',
  'b',
  'index.html',
  'Index.HTML',
  'd',
  'D',
  'x',
  'caf\u00e9',
  'cafe\u0301',
  'stra\u00dfe',
  'STRASSE',
  'a\u200cb',
  'ab'
]
/** Names no archive may write, however spelled. */
const HOSTILE = [
  '..',
  '.',
  '',
  '...',
  '.. ',
  '. ',
  'x.',
  '.git',
  '.GIT',
  'git~1',
  'C:',
  'a\0b',
  'n'.repeat(256),
  'e\u0301'.repeat(40),
  MARKER
]

const segment = fc.oneof(
  { weight: 8, arbitrary: fc.constantFrom(...PLAIN) },
  { weight: 1, arbitrary: fc.constantFrom(...HOSTILE) }
)
const separator = fc.constantFrom('/', '/', '/', '\\')
/** Mostly relative, sometimes absolute: one to four segments. */
const start = fc.oneof(
  { weight: 12, arbitrary: fc.constant('') },
  { weight: 1, arbitrary: fc.constantFrom('./', '/', '\\', '/tmp/') }
)
const path_ = (segments: fc.Arbitrary<string>): fc.Arbitrary<string> =>
  fc
    .tuple(start, fc.array(fc.tuple(segments, separator), { minLength: 1, maxLength: 4 }), fc.boolean())
    .map(
      ([first, parts, trailing]) =>
        first + parts.map(([s, sep], i) => (i === parts.length - 1 && !trailing ? s : s + sep)).join('')
    )
const name = path_(segment)
/** Link targets climb more often than names do: chains of `..` through other links. */
const target = path_(fc.oneof({ weight: 3, arbitrary: fc.constantFrom('..', '.') }, { weight: 5, arbitrary: segment }))

const content = fc.oneof(
  { weight: 12, arbitrary: fc.string({ maxLength: 40 }).map((text) => Buffer.from(text)) },
  // A small bomb: compresses to almost nothing, unpacks past a small bound.
  { weight: 1, arbitrary: fc.constant(Buffer.alloc(300 * 1024)) },
  // Past the size read into memory: streamed to disk.
  { weight: 1, arbitrary: fc.constant(Buffer.alloc(1024 * 1024 + 1, 'x')) }
)

const entry: fc.Arbitrary<ArchiveEntry> = fc.oneof(
  {
    weight: 5,
    arbitrary: fc.record({
      type: fc.constant('file' as const),
      name,
      content,
      mode: fc.constantFrom(0o644, 0o000, 0o755, 0o4777, 0o200)
    })
  },
  { weight: 2, arbitrary: fc.record({ type: fc.constant('directory' as const), name }) },
  { weight: 3, arbitrary: fc.record({ type: fc.constant('symlink' as const), name, target }) },
  { weight: 2, arbitrary: fc.record({ type: fc.constant('hardlink' as const), name, target: name }) }
)

/** What is done to the archive's bytes after it is built. */
type Damage = { kind: 'none' } | { kind: 'truncate'; at: number } | { kind: 'flip'; at: number; byte: number }
const damage: fc.Arbitrary<Damage> = fc.oneof(
  { weight: 6, arbitrary: fc.constant({ kind: 'none' as const }) },
  {
    weight: 1,
    arbitrary: fc.record({ kind: fc.constant('truncate' as const), at: fc.double({ min: 0, max: 1, noNaN: true }) })
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('flip' as const),
      at: fc.double({ min: 0, max: 1, noNaN: true }),
      byte: fc.integer({ min: 0, max: 255 })
    })
  }
)

const limits: fc.Arbitrary<SiteLimits> = fc.oneof(
  { weight: 4, arbitrary: fc.constant({ maxBytes: 64 * 1024 * 1024 }) },
  {
    weight: 1,
    arbitrary: fc.record({
      maxBytes: fc.integer({ min: 1, max: 512 * 1024 }),
      maxEntries: fc.integer({ min: 1, max: 12 })
    })
  }
)

const archiveCase = fc.record({
  format: fc.constantFrom<ArchiveFormat>('tar', 'tar.gz', 'zip'),
  entries: fc.array(entry, { minLength: 0, maxLength: 12 }),
  damage,
  limits,
  oldSite: fc.boolean()
})

let root: { dir: string; remove: () => Promise<void> }
beforeAll(async () => {
  root = await tempFolder('fuzz-archives-')
})
afterAll(async () => root.remove())

/** The archive's bytes, or undefined when the builders cannot write these entries at all. */
async function build(format: ArchiveFormat, entries: ArchiveEntry[]): Promise<Buffer | undefined> {
  try {
    if (format !== 'zip') return await buildTar(entries, { gzip: format === 'tar.gz' })
    // Zip has no hardlinks: the builder stores a copy of the file they name, which must exist.
    return buildZip(
      entries.filter((e) => e.type !== 'hardlink' || entries.some((f) => f.type === 'file' && f.name === e.target))
    )
  } catch {
    return undefined
  }
}

function damaged(archive: Buffer, how: Damage): Buffer {
  if (how.kind === 'none' || archive.length === 0) return archive
  const at = Math.min(archive.length - 1, Math.floor(how.at * archive.length))
  if (how.kind === 'truncate') return archive.subarray(0, Math.max(1, at))
  const copy = Buffer.from(archive)
  copy[at] = how.byte
  return copy
}

/** Every path below `dir` (lstat'ed, links not followed), relative to it. */
async function walk(dir: string, prefix = ''): Promise<string[]> {
  const found: string[] = []
  for (const name of await readdir(path.join(dir, prefix))) {
    const relative = path.join(prefix, name)
    found.push(relative)
    if ((await lstat(path.join(dir, relative))).isDirectory()) found.push(...(await walk(dir, relative)))
  }
  return found
}

const inside = (folder: string, target: string): boolean => target === folder || target.startsWith(folder + path.sep)

let runs = 0
test(
  `hostile archives unpack wholly inside the site or fail leaving nothing (${RUNS} runs, seed ${SEED})`,
  async () => {
    await fc.assert(
      fc.asyncProperty(archiveCase, async ({ format, entries, damage: how, limits: bounds, oldSite }) => {
        const archive = await build(format, entries)
        fc.pre(archive !== undefined)
        const work = path.join(root.dir, `run-${runs++}`)
        const siteDir = path.join(work, 'site')
        const outside = path.join(work, 'outside')
        const partFile = path.join(work, 'bundle.part')
        await mkdir(outside, { recursive: true })
        await writeFile(path.join(outside, 'secret.txt'), 'secret')
        if (oldSite) {
          await mkdir(siteDir)
          await writeFile(path.join(siteDir, 'old.html'), 'old site')
        }

        let outcome: unknown
        let fatal: unknown
        const receiver = await TestUnpacking.open({
          partFile,
          siteDir,
          log: recordingLogger(),
          onFatal: (error) => void (fatal ??= error),
          limits: bounds
        })
        try {
          const bytes = damaged(archive!, how)
          for (let offset = 0; offset < bytes.length; offset += 4093) {
            await receiver.write(bytes.subarray(offset, offset + 4093))
            if (fatal !== undefined) throw fatal
          }
          const received = await receiver.complete()
          await swapIntoPlace(received.staging!, siteDir, received)
          await rm(partFile)
        } catch (error) {
          outcome = error
          await receiver.discard()
        }

        // Nothing outside, whatever happened.
        expect(await readdir(outside)).toEqual(['secret.txt'])
        expect(await readFile(path.join(outside, 'secret.txt'), 'utf8')).toBe('secret')
        for (const escaped of [
          path.join(work, MARKER),
          path.join(root.dir, MARKER),
          path.join(os.tmpdir(), MARKER),
          path.join('/tmp', MARKER)
        ]) {
          expect(existsSync(escaped)).toBe(false)
        }
        if (outcome !== undefined) {
          // A failure is one the user can read, and leaves the work folder as it was.
          if (!(outcome instanceof ActionError)) throw outcome
          expect((await readdir(work)).sort()).toEqual(oldSite ? ['outside', 'site'] : ['outside'])
          if (oldSite) {
            expect(await readdir(siteDir)).toEqual(['old.html'])
            expect(await readFile(path.join(siteDir, 'old.html'), 'utf8')).toBe('old site')
          }
        } else {
          // A success: only the site beside what was there, every file in it readable, every
          // link resolving inside it (or nowhere).
          expect((await readdir(work)).sort()).toEqual(['outside', 'site'])
          const realSite = await realpath(siteDir)
          for (const relative of await walk(siteDir)) {
            const at = path.join(siteDir, relative)
            const stats = await lstat(at)
            if (stats.isFile()) expect(stats.mode & 0o600).toBe(0o600)
            if (stats.isDirectory()) expect(stats.mode & 0o700).toBe(0o700)
            if (!stats.isSymbolicLink()) continue
            const target = await readlink(at)
            expect(path.isAbsolute(target)).toBe(false)
            const resolved = await realpath(at).catch((error: NodeJS.ErrnoException) => {
              expect(error.code).toBe('ENOENT')
              return undefined
            })
            if (resolved !== undefined) expect(inside(realSite, resolved)).toBe(true)
          }
        }
        await rm(work, { recursive: true, force: true })
      }),
      { numRuns: RUNS, seed: SEED }
    )
  },
  Math.max(60_000, RUNS * 200)
)
