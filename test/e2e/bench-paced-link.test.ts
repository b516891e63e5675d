// The benchmark's paced link stands for object storage serving a runner: it must deliver no more than its rate,
// after its first-byte delay, to curl and to node alike; that its bucket lets the whole rate through is checked on
// a virtual clock (a busy machine delivers less, and no stopwatch here may fail for that). A short run on it must
// produce the paced rows for the action, the tool-cache peer and the shell pipe. Nothing here times the action.
import { randomBytes } from 'node:crypto'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals'
import { SITE_300, type BundleSpec } from '../../bench/bundles.js'
import { fastestTotalMs, probeLink } from '../../bench/link-probe.js'
import { DEFAULT_PACED_LINK, PIECE_BYTES, TokenBucket, parseLink } from '../../bench/link.js'
import { Scratch } from '../../bench/scratch.js'
import { startService } from '../../bench/service.js'
import { runUnpackBench } from '../../bench/unpack.js'
import { renderUnpack } from '../../bench/unpack-report.js'

const MiB = 1024 * 1024
/** A site of a few dozen pages: a run takes a fraction of a second on the paced link. */
const TINY: BundleSpec = {
  ...SITE_300,
  name: 'site-tiny-paced',
  label: '40 pages',
  seed: 40,
  pages: 40,
  images: 4,
  downloads: 0,
  searchIndexBytes: 64 * 1024
}

let root: string
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'bench-paced-'))
})
afterAll(async () => {
  await rm(root, { recursive: true, force: true })
})

describe('the paced link', () => {
  test('delivers no more than its rate, after its first-byte delay, to curl and to node', async () => {
    const sizeBytes = 20 * MiB
    const file = join(root, 'payload.bin')
    await writeFile(file, randomBytes(sizeBytes))
    const service = await startService({ file, sizeBytes, pages: 1, extension: 'tar.gz' }, DEFAULT_PACED_LINK)
    try {
      // probeLink itself fails when either tool got the body sooner than the link allows or its first byte early.
      const delivered = await probeLink(service.bundleUrl, sizeBytes, DEFAULT_PACED_LINK, process.execPath)
      for (const tool of [delivered.curl, delivered.node]) {
        expect(tool.firstByteMs).toBeGreaterThanOrEqual(DEFAULT_PACED_LINK.firstByteMs)
        // 30 ms, then 20 MiB at 40 MiB/s; longer only when the machine is busy (the bucket's own test rules out less).
        expect(fastestTotalMs(sizeBytes, DEFAULT_PACED_LINK)).toBe(530)
        expect(tool.totalMs).toBeGreaterThanOrEqual(530 / 1.03)
      }
      expect(service.requests.map((r) => r.route)).toEqual(['download', 'download'])
    } finally {
      await service.close()
    }
  }, 30_000)

  test('is refused when it is faster than it claims: an unpaced server judged as a 1 MiB/s link', async () => {
    // No first-byte delay claimed, so only the whole download's time can refuse it: 8 MiB cannot take 8 s here.
    const sizeBytes = 8 * MiB
    const file = join(root, 'unpaced.bin')
    await writeFile(file, randomBytes(sizeBytes))
    const service = await startService({ file, sizeBytes, pages: 1, extension: 'tar.gz' }, undefined)
    try {
      const probe = probeLink(service.bundleUrl, sizeBytes, { bytesPerSecond: MiB, firstByteMs: 0 }, process.execPath)
      await expect(probe).rejects.toThrow(/to curl: faster than the link it stands for/)
    } finally {
      await service.close()
    }
  }, 30_000)

  test('lets through its rate, no less: 20 MiB at 40 MiB/s take half a second of its clock', async () => {
    // A virtual clock: a sleep moves it on by exactly what was asked, so only the bucket's arithmetic counts.
    let now = 0
    const time = { now: () => now, sleep: async (ms: number) => void (now += ms) }
    const bucket = new TokenBucket(DEFAULT_PACED_LINK.bytesPerSecond, time)
    for (let sent = 0; sent < 20 * MiB; sent += PIECE_BYTES) await bucket.take(PIECE_BYTES)
    expect(now).toBeGreaterThan(500 - 10)
    expect(now).toBeLessThanOrEqual(500)
  })

  test('is read from --link: paced with its defaults, a rate and a delay, or loopback', () => {
    expect(parseLink('paced')).toEqual({ bytesPerSecond: 40 * MiB, firstByteMs: 30 })
    expect(parseLink('paced,12.5MiB/s,80ms')).toEqual({ bytesPerSecond: 12.5 * MiB, firstByteMs: 80 })
    expect(parseLink('loopback')).toBeUndefined()
    expect(() => parseLink('paced,fast')).toThrow(/--link/)
  })
})

describe('a short run on the paced link', () => {
  test('produces its rows: the peer, the action and the shell pipe, for a tar.gz and a zip', async () => {
    // Disk space is never short here: no case's output is deleted early, so no wait follows a delete.
    const scratch = new Scratch(join(root, 'work'), {
      sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
      now: () => performance.now(),
      probe: async () => 1,
      freeBytes: async () => Number.MAX_SAFE_INTEGER
    })
    const result = await runUnpackBench(
      (['tar.gz', 'zip'] as const).map((format) => ({ spec: TINY, format, rounds: 1, link: DEFAULT_PACED_LINK })),
      {
        bundleDir: join(root, 'bundles'),
        peerDir: join(root, 'peer'),
        scratch,
        node: process.execPath,
        log: () => {}
      }
    )
    await scratch.deleteAll()
    expect(result.rows.map((r) => [r.format, r.link, r.runs.peer.length, r.runs.shell.length])).toEqual([
      ['tar.gz', DEFAULT_PACED_LINK, 1, 1],
      ['zip', DEFAULT_PACED_LINK, 1, 1]
    ])
    for (const row of result.rows) {
      expect([row.unchecked.target, row.pipe.target, row.checked.target]).toEqual([
        row.format === 'zip' ? 1.0 : 0.9,
        1.3,
        undefined
      ])
      // Each paced row carries what the probe measured for both tools (the probe has judged it already).
      for (const tool of [row.delivered?.curl, row.delivered?.node])
        expect(tool?.totalMs).toBeGreaterThan(DEFAULT_PACED_LINK.firstByteMs)
    }
    const markdown = renderUnpack(result.rows, result.growth, scratch)
    expect(markdown).toContain('### Paced link (40 MiB/s, 30 ms before the first byte)')
    expect(markdown).not.toContain('### Loopback')
    expect(markdown).toMatch(/\| 40 pages \([\d,]+ files, [\d.]+ MiB\) \| tar\.gz \|/)
    expect(markdown).toMatch(/\| 40 pages \([\d,]+ files, [\d.]+ MiB\) \| zip \|/)
    expect(markdown).toMatch(/- 40 pages, tar\.gz, paced: .*verify: false \/ shell pipe [\d.]+x, target <= 1\.30x/)
  }, 180_000)
})
