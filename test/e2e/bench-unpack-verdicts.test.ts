// The unpack benchmark's verdicts: ratios are medians of per-round ratios, each link has its targets,
// memory growth is judged only between the two named bundles of one format on loopback, and a run that
// did not fetch the link exactly once (or, for the action, skipped or repeated an export call) is refused.
import { describe, expect, test } from '@jest/globals'
import { type Bundle, SITE_1G, SITE_3000, SITE_30K_SMALL, type BundleSpec, type Format } from '../../bench/bundles.js'
import type { Route } from '../../bench/service.js'
import { DEFAULT_PACED_LINK } from '../../bench/link.js'
import { type Run, type UnpackRow, checkRequests, ratioOfRounds, rssGrowth, targetsOf } from '../../bench/unpack.js'

const run = (wallMs: number): Run => ({
  startedAt: 0,
  wallMs,
  peakRssKiB: undefined,
  cpuMs: undefined,
  exitCode: 0,
  stdout: '',
  stderr: ''
})

/**
 * A row with only what the growth bound reads: its bundle, format and peak RSS with the site check. The spec is a
 * copy, as a cached bundle's is (read back from its manifest).
 */
const row = (spec: BundleSpec, format: Format, peakMiB: number, link = false): UnpackRow =>
  ({
    bundle: { spec: structuredClone(spec) } as Bundle,
    format,
    peakMiB,
    link: link ? DEFAULT_PACED_LINK : undefined
  }) as UnpackRow

const requests = (...routes: Route[]): { route: Route; at: number }[] => routes.map((route) => ({ route, at: 0 }))

describe('ratioOfRounds', () => {
  test('takes the median of the per-round ratios, not the ratio of the medians', () => {
    // Rounds: 1.0/2.0, 3.0/1.0, 2.0/2.5 -> 0.5, 3, 0.8: median 0.8; the ratio of medians would be 1.0.
    const ratio = ratioOfRounds([run(1000), run(3000), run(2000)], [run(2000), run(1000), run(2500)], 1.0)
    expect(ratio.perRound).toEqual([0.5, 3, 0.8])
    expect(ratio.median).toBeCloseTo(0.8)
    expect(ratio.met).toBe(true)
  })

  test('is not met above the target, and judges nothing without one', () => {
    expect(ratioOfRounds([run(1600), run(1600)], [run(1000), run(1000)], 1.5).met).toBe(false)
    expect(ratioOfRounds([run(1600)], [run(1000)], undefined).met).toBeUndefined()
  })
})

describe('targetsOf', () => {
  test('loopback: 1.0x the peer without the site check, 1.3x with it; no target on the pipe', () => {
    expect(targetsOf('tar.gz', undefined)).toEqual({ unchecked: 1.0, checked: 1.3, pipe: undefined })
    expect(targetsOf('zip', undefined)).toEqual({ unchecked: 1.0, checked: 1.3, pipe: undefined })
  })

  test('paced: 0.9x the peer (a zip 1.0x) and 1.3x the pipe without the site check', () => {
    expect(targetsOf('tar.gz', DEFAULT_PACED_LINK)).toEqual({ unchecked: 0.9, checked: undefined, pipe: 1.3 })
    expect(targetsOf('zip', DEFAULT_PACED_LINK)).toEqual({ unchecked: 1.0, checked: undefined, pipe: 1.3 })
  })
})

describe('rssGrowth', () => {
  const pair: [BundleSpec, BundleSpec] = [SITE_3000, SITE_1G]

  test('compares the large bundle with the small one of the same format, within 40 MiB', () => {
    const rows = [
      row(SITE_3000, 'tar.gz', 150),
      row(SITE_30K_SMALL, 'tar.gz', 300),
      row(SITE_1G, 'tar.gz', 190),
      row(SITE_3000, 'zip', 150),
      row(SITE_1G, 'zip', 191)
    ]
    const growth = rssGrowth(rows, pair)
    expect(growth.map((g) => [g.small.format, g.growthMiB, g.met])).toEqual([
      ['tar.gz', 40, true],
      ['zip', 41, false]
    ])
  })

  test('leaves the paced rows out: the growth is judged on loopback', () => {
    const rows = [row(SITE_3000, 'tar.gz', 150, true), row(SITE_1G, 'tar.gz', 250, true)]
    expect(rssGrowth(rows, pair)).toEqual([])
    const growth = rssGrowth([...rows, row(SITE_3000, 'tar.gz', 150), row(SITE_1G, 'tar.gz', 160)], pair)
    expect(growth.map((g) => g.growthMiB)).toEqual([10])
  })

  test('judges nothing without both bundles, without a pair, or without measured RSS', () => {
    expect(rssGrowth([row(SITE_3000, 'tar.gz', 150)], pair)).toEqual([])
    expect(rssGrowth([row(SITE_3000, 'tar.gz', 150), row(SITE_1G, 'tar.gz', 150)], undefined)).toEqual([])
    expect(rssGrowth([row(SITE_3000, 'zip', NaN), row(SITE_1G, 'zip', NaN)], pair)).toEqual([])
  })
})

describe('checkRequests', () => {
  test('accepts one download for the peer and the shell, and the export calls plus one download for the action', () => {
    expect(() => checkRequests('peer', requests('download'))).not.toThrow()
    expect(() => checkRequests('shell', requests('download'))).not.toThrow()
    const action = requests('export-start', 'export-status', 'export-status', 'export-bundle', 'download')
    expect(() => checkRequests('checked', action)).not.toThrow()
  })

  test.each([
    ['peer', requests('download', 'download')],
    ['peer', requests()],
    ['shell', requests('download', 'unknown')],
    ['unchecked', requests('export-start', 'export-status', 'export-bundle', 'download', 'download')],
    ['checked', requests('export-start', 'export-start', 'export-status', 'export-bundle', 'download')],
    ['checked', requests('export-status', 'export-bundle', 'download')]
  ] as const)('refuses a %s run with other requests', (tool, list) => {
    expect(() => checkRequests(tool, list)).toThrow(/expected/)
  })
})
