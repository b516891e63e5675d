import { createHash, randomBytes } from 'node:crypto'
import { type ChildProcess, execFileSync, spawn } from 'node:child_process'
import { once } from 'node:events'
import { mkdir, readFile, readdir, rm, truncate, writeFile } from 'node:fs/promises'
import zlib from 'node:zlib'
import { basename, join } from 'node:path'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from '@jest/globals'
import { type ArchiveEntry, buildTar, buildZip, fixtureSiteEntries } from '../simulator/archives.js'
import { type Simulator, startSimulator } from '../simulator/server.js'
import { UnsupportedArchiveError } from '../src/archive/errors.js'
import { SiteLimitError, UnsafeEntryError } from '../src/site/errors.js'
import { ActionError, CancelledError } from '../src/common/errors.js'
import type { BundleLink } from '../src/service/export-api.js'
import { type LinkPolicy, describeLink, linkPolicy } from '../src/transfer/link.js'
import { archiveBound } from '../src/site/ledger.js'
import { type TransferOptions, transferBundle } from '../src/transfer/transfer.js'
import { type TestClock, acceleratedClock } from './support/clock.js'
import { type RecordingLogger, recordingLogger } from './support/fake-host.js'
import { type TestProxy, resolverOf, startProxy, throughProxy } from './support/proxy.js'
import { tempFolder } from './support/temp.js'
import { untrustedTlsServer } from './support/tls.js'
import { packedTree, writtenTree } from './support/site-tree.js'
import { sparseTar } from './support/hand-made-tar.js'

let sim: Simulator
/** Shared by the simulator and the transfer: moving it on expires the links the simulator issued. */
let clock: TestClock
/** The bundle operation of one completed export job, shared by the tests (each serves its own body). */
let bundleOperation: () => Promise<BundleLink>
let work: { dir: string; remove: () => Promise<void> }
let log: RecordingLogger
/** Requests recorded before the current test. */
let requestsBefore = 0
/** The links of a service on a loopback address. */
let policy: LinkPolicy

/** A run that makes its archive's staging folder as the CLI names it, says where, writes a `.part`, and waits. */
const STAGING_CHILD = `
import { writeFileSync } from 'node:fs'
import { createStagingFolder } from ${JSON.stringify(new URL('../src/site/staging.ts', import.meta.url).href)}
const staging = await createStagingFolder(process.argv[1] + '-' + process.pid)
writeFileSync(staging + '/bundle.part', 'partial')
console.log(staging)
setInterval(() => {}, 60_000)
`

const siteEntries = (): ArchiveEntry[] => fixtureSiteEntries({ pages: 20 })
let siteTarGz: Buffer
/** 4 MiB of incompressible content in a plain tar. */
let bigTar: Buffer

beforeAll(async () => {
  clock = acceleratedClock()
  sim = await startSimulator({ exportJob: { durationMs: 5, queuedMs: 0 }, now: () => clock.now() })
  bundleOperation = await exportJob()
  policy = await linkPolicy(sim.apiUrl)
  siteTarGz = await buildTar(siteEntries(), { gzip: true })
  bigTar = await buildTar([{ type: 'file', name: 'big.bin', content: randomBytes(4 * 1024 * 1024) }])
})
afterAll(async () => sim.close())

beforeEach(async () => {
  sim.clearFaults()
  requestsBefore = sim.requests.length
  work = await tempFolder('transfer-')
  log = recordingLogger()
})
afterEach(async () => work.remove())

const sha256 = (data: Buffer): string => createHash('sha256').update(data).digest('hex')

/** Runs an export job to completion and returns "call the bundle operation" (as the flow would). */
async function exportJob(): Promise<() => Promise<BundleLink>> {
  const headers = { authorization: `Bearer ${sim.apiKey}`, 'content-type': 'application/json' }
  const started = await fetch(`${sim.apiUrl}/v1/static-export/jobs`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ domain: 'docs.example.com' })
  })
  const { jobId } = (await started.json()) as { jobId: string }
  for (;;) {
    const status = (await (await fetch(`${sim.apiUrl}/v1/static-export/jobs/${jobId}`, { headers })).json()) as {
      status: string
    }
    if (status.status === 'completed') break
    await new Promise((resolve) => setTimeout(resolve, 5))
  }
  return async () => {
    const response = await fetch(`${sim.apiUrl}/v1/static-export/jobs/${jobId}/bundle`, { method: 'POST', headers })
    const bundle = (await response.json()) as { bundleUrl: string; expiresAt: string; sizeBytes?: number }
    return { url: bundle.bundleUrl, expiresAt: new Date(bundle.expiresAt), sizeBytes: bundle.sizeBytes }
  }
}

/** Serves `body` verbatim (the link ends in `.bin`: the format must come from the bytes). */
async function serve(
  body: Buffer
): Promise<{ refreshLink: () => Promise<BundleLink>; link: BundleLink; refreshes: () => number }> {
  sim.setBundle({ body })
  let refreshes = 0
  const link = await bundleOperation()
  return {
    link,
    refreshLink: () => {
      refreshes++
      return bundleOperation()
    },
    refreshes: () => refreshes
  }
}

function options(
  served: { link: BundleLink; refreshLink: () => Promise<BundleLink> },
  extra: Partial<TransferOptions> = {}
): TransferOptions {
  return {
    link: served.link,
    refreshLink: served.refreshLink,
    archiveFolder: join(work.dir, 'bundle'),
    siteDir: join(work.dir, 'site'),
    limits: { maxBytes: 1024 ** 3 },
    deadline: clock.now() + 30 * 60_000,
    policy,
    log,
    clock,
    ...extra
  }
}

/** Everything in the work folder: no `.part` and no staging folder may be left. */
async function workListing(): Promise<string[]> {
  const top = (await readdir(work.dir)).sort()
  const bundleDir = top.includes('bundle')
    ? (await readdir(join(work.dir, 'bundle'))).map((name) => `bundle/${name}`)
    : []
  return [...top, ...bundleDir].sort()
}

/** Whether the archive's `.part` has appeared in its staging folder beside `bundle`. */
async function stagedArchive(): Promise<boolean> {
  for (const entry of await readdir(work.dir)) {
    if (/^\.bundle\.staging-/.test(entry) && (await readdir(join(work.dir, entry))).includes('bundle.part')) return true
  }
  return false
}

/** This test's requests to the storage origin. */
function storageRequests(): Simulator['requests'] {
  return sim.requests.slice(requestsBefore).filter((request) => request.origin === 'storage')
}

function downloads(): number {
  return storageRequests().length
}

describe('happy path', () => {
  test.each([
    ['tar.gz', () => Promise.resolve(siteTarGz)],
    ['tar', () => buildTar(siteEntries())],
    ['zip', () => Promise.resolve(buildZip(siteEntries()))]
  ] as const)(
    '%s: downloads, hashes, unpacks, without Authorization and without the query in the log',
    async (format, build) => {
      const body = await build()
      const served = await serve(body)
      const result = await transferBundle(options(served))

      expect(result).toMatchObject({
        format,
        sha256: sha256(body),
        sizeBytes: body.length,
        attempts: 1,
        siteDir: join(work.dir, 'site')
      })
      // The transfer names the archive by the format its bytes showed.
      expect(result.archiveFile).toBe(join(work.dir, 'bundle', `bundle.${format}`))
      expect((await readFile(result.archiveFile)).equals(body)).toBe(true)
      expect(await writtenTree(join(work.dir, 'site'), siteEntries())).toEqual(packedTree(siteEntries()))
      expect(await workListing()).toEqual(['bundle', `bundle/bundle.${format}`, 'site'])

      expect(storageRequests()).toHaveLength(1)
      for (const request of storageRequests()) expect(request.headers.authorization).toBeUndefined()
      expect(log.text()).not.toMatch(/X-Amz|Signature|\?/)
      expect(log.text()).toContain(`Downloading the bundle from ${sim.storageUrl}/bundles/`)
      expect(log.text()).toContain(`sha256 ${sha256(body)}`)
    }
  )

  test('without siteDir only the archive is kept', async () => {
    const body = siteTarGz
    const result = await transferBundle(options(await serve(body), { siteDir: undefined }))
    expect(result).toMatchObject({ format: 'tar.gz', siteDir: undefined, sha256: sha256(body) })
    expect(await workListing()).toEqual(['bundle', 'bundle/bundle.tar.gz'])
  })

  test('the archive folder is replaced whole: nothing from before is kept beside the archive', async () => {
    // Neither an earlier archive of another format nor a site unpacked there.
    await mkdir(join(work.dir, 'bundle/docs'), { recursive: true })
    await writeFile(join(work.dir, 'bundle/bundle.zip'), 'an earlier zip')
    await writeFile(join(work.dir, 'bundle/index.html'), 'an earlier site')
    await writeFile(join(work.dir, 'bundle/docs/page.html'), 'an earlier page')
    await transferBundle(options(await serve(siteTarGz), { siteDir: undefined }))
    expect(await workListing()).toEqual(['bundle', 'bundle/bundle.tar.gz'])
  })

  test('a failed download leaves the earlier archive folder as it was', async () => {
    await mkdir(join(work.dir, 'bundle'))
    await writeFile(join(work.dir, 'bundle/bundle.zip'), 'an earlier zip')
    sim.addFault({ route: 'download', status: 503, times: 10 })
    await expect(transferBundle(options(await serve(siteTarGz), { siteDir: undefined }))).rejects.toBeInstanceOf(
      ActionError
    )
    expect(await workListing()).toEqual(['bundle', 'bundle/bundle.zip'])
    expect(await readFile(join(work.dir, 'bundle/bundle.zip'), 'utf8')).toBe('an earlier zip')
  })

  test('what a killed run left beside the archive folder is swept', async () => {
    await mkdir(join(work.dir, '.bundle.staging-0123456789ab'))
    await writeFile(join(work.dir, '.bundle.staging-0123456789ab/bundle.part'), 'half')
    await transferBundle(options(await serve(siteTarGz), { siteDir: undefined }))
    expect(await workListing()).toEqual(['bundle', 'bundle/bundle.tar.gz'])
  })

  test('replaces an earlier site whole', async () => {
    await mkdir(join(work.dir, 'site/old'), { recursive: true })
    await writeFile(join(work.dir, 'site/old/page.html'), 'old')
    await transferBundle(options(await serve(siteTarGz)))
    const site = await readdir(join(work.dir, 'site'))
    expect(site).toContain('index.html')
    expect(site).not.toContain('old')
    expect(await workListing()).toEqual(['bundle', 'bundle/bundle.tar.gz', 'site'])
  })

  test('logs progress lines with bytes, percent and rate, at most every 5 s', async () => {
    const body = bigTar
    // Each reading of this clock is one second later: a line is due every five readings.
    let now = 0
    const slow = { ...acceleratedClock(), now: () => (now += 1000) }
    await transferBundle(options(await serve(body), { clock: slow, deadline: Infinity }))
    const lines = log.lines.filter((line) => /^progress: Downloaded .+ of 4\.0 MiB \(\d+%\) at .+\/s$/.test(line))
    expect(lines.length).toBeGreaterThan(0)
    // Over loopback the download takes far less than 5 s: no progress line at all.
    const quiet = recordingLogger()
    await transferBundle(options(await serve(body), { log: quiet, clock: acceleratedClock({ speed: 1 }) }))
    expect(quiet.lines.filter((line) => line.includes('%)'))).toEqual([])
  })
})

describe('retries', () => {
  test('a refused (expired) link is renewed through refreshLink and the download retried', async () => {
    const body = siteTarGz
    const served = await serve(body)
    clock.advance(60 * 60 * 1000) // the storage now considers the link expired; we do not know
    const result = await transferBundle(options({ ...served, link: { ...served.link, expiresAt: undefined } }))
    expect(served.refreshes()).toBe(1)
    expect(result.link.url).not.toBe(served.link.url)
    expect(result).toMatchObject({ attempts: 2, sha256: sha256(body) })
    expect(storageRequests().map((request) => request.status)).toEqual([403, 200])
    expect(log.text()).toContain('refused (HTTP 403); asking for a fresh one')
  })

  test('a link already expired is renewed before downloading', async () => {
    const served = await serve(siteTarGz)
    const result = await transferBundle(
      options({ ...served, link: { ...served.link, expiresAt: new Date(Date.now() - 1000) } })
    )
    expect(served.refreshes()).toBe(1)
    expect(result.attempts).toBe(1)
    expect(storageRequests()).toHaveLength(1)
    expect(storageRequests()[0]!.query['X-Amz-Credential']).toBe(
      new URL(result.link.url).searchParams.get('X-Amz-Credential')
    )
  })

  test('500, 429 with Retry-After and a dropped connection are retried', async () => {
    const body = siteTarGz
    const served = await serve(body)
    sim.addFault({ route: 'download', status: 500 })
    sim.addFault({ route: 'download', status: 429, retryAfter: '3' })
    sim.addFault({ route: 'download', drop: true })
    const sleepsBefore = clock.sleeps.length
    const result = await transferBundle(options(served))
    expect(result).toMatchObject({ attempts: 4, sha256: sha256(body) })
    expect(downloads()).toBe(4)
    expect(clock.sleeps.slice(sleepsBefore)).toContain(3000) // Retry-After honoured
    expect(log.text()).toContain('HTTP 500')
    expect(log.text()).toContain('ECONNRESET')
    expect(await workListing()).toEqual(['bundle', 'bundle/bundle.tar.gz', 'site'])
  })

  test('a truncated body and a stall (no byte for 30 s) are retried', async () => {
    const body = siteTarGz
    const served = await serve(body)
    sim.addFault({ route: 'download', truncateAt: 1000 })
    sim.addFault({ route: 'download', stallAt: 1000 })
    const result = await transferBundle(options(served))
    expect(result).toMatchObject({ attempts: 3, sha256: sha256(body) })
    expect(downloads()).toBe(3)
    expect(log.text()).toContain('after 1000 bytes')
    expect(log.text()).toContain('ESTALLED: no data arrived for 30s')
    expect(await workListing()).toEqual(['bundle', 'bundle/bundle.tar.gz', 'site'])
  })

  test('gives up after the attempts with a clear message and no leftovers', async () => {
    const served = await serve(siteTarGz)
    sim.addFault({ route: 'download', status: 503, times: 10 })
    const error = await transferBundle(options(served)).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ActionError)
    expect((error as Error).message).toMatch(
      /^Could not download the bundle from http:\/\/127\.0\.0\.1:\d+\/bundles\/[^?]+ \(4 attempts\): HTTP 503/
    )
    expect(downloads()).toBe(4)
    expect(await workListing()).toEqual([])
  })

  test('a body shorter than sizeBytes is a truncation: retried, then a clear failure', async () => {
    const body = siteTarGz
    const served = await serve(body)
    const error = await transferBundle(
      options({ ...served, link: { ...served.link, sizeBytes: body.length + 10 } })
    ).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ActionError)
    expect((error as Error).message).toContain(`${body.length} of ${body.length + 10} bytes`)
    expect(downloads()).toBe(4)
    expect(await workListing()).toEqual([])
  })

  test('a body larger than sizeBytes fails at once', async () => {
    const body = siteTarGz
    const served = await serve(body)
    const error = await transferBundle(
      options({ ...served, link: { ...served.link, sizeBytes: body.length - 10 } })
    ).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ActionError)
    expect((error as Error).message).toContain(`the bundle operation said the archive has ${body.length - 10} bytes`)
    expect(downloads()).toBe(1)
  })
})

describe('the step timeout bounds the download', () => {
  test('a body sent one byte at a time ends at the deadline, naming `timeout`, with no leftovers', async () => {
    const served = await serve(siteTarGz)
    sim.addFault({ route: 'download', trickleMs: 20 })
    const deadline = clock.now() + 10_000
    const error = await transferBundle(options(served, { deadline })).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ActionError)
    expect((error as Error).message).toMatch(
      /ETIMEDOUT: `timeout` ran out after \d+ bytes of the download\. Stopped retrying/
    )
    // The deadline plus the short grace of a request under way (and 20 s of test clock, 0.2 s of real
    // time, for a loaded machine); without the bound it would run ~18 s of real time, 30 min of test clock.
    expect(clock.now()).toBeLessThan(deadline + 2000 + 20_000)
    expect(downloads()).toBe(1)
    expect(await workListing()).toEqual([])
  })

  test('a Retry-After past the deadline is not waited for', async () => {
    const served = await serve(siteTarGz)
    sim.addFault({ route: 'download', status: 503, retryAfter: '600' })
    const before = clock.now()
    const error = await transferBundle(options(served, { deadline: before + 60_000 })).catch((e: unknown) => e)
    expect((error as Error).message).toMatch(/HTTP 503\. Stopped retrying: the next wait would pass the step timeout/)
    // Far from the 600 s asked for, and from the deadline 60 s away (with 0.3 s of real time to spare).
    expect(clock.now() - before).toBeLessThan(30_000)
  })
})

describe('where a link may lead', () => {
  test('a redirect to a link-local address is refused before it is followed', async () => {
    const served = await serve(siteTarGz)
    sim.addFault({ route: 'download', status: 302, headers: { location: 'http://169.254.169.254/latest/meta-data/' } })
    const error = await transferBundle(options(served)).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ActionError)
    expect((error as Error).message).toBe(
      'Refusing to fetch the bundle from http://169.254.169.254/latest/meta-data/: ' +
        'it leads to a link-local address (such as a cloud metadata service), and `base-url` does not.'
    )
    expect(downloads()).toBe(1)
    expect(await workListing()).toEqual([])
  })

  test('plain http is refused when the service is not itself plain http on a loopback host', async () => {
    const served = await serve(siteTarGz)
    const https = await linkPolicy('https://127.0.0.1:1')
    const error = await transferBundle(options(served, { policy: https })).catch((e: unknown) => e)
    expect((error as Error).message).toMatch(
      /^Refusing to fetch the bundle from http:\/\/127\.0\.0\.1:\d+\/bundles\/[^?]+: it does not use https:\/\//
    )
    expect(downloads()).toBe(0)
  })

  test('localhost counts as a loopback address', async () => {
    const served = await serve(siteTarGz)
    const url = new URL(served.link.url)
    url.hostname = 'localhost'
    const elsewhere = { allowHttp: true, allowed: new Set<never>() }
    const error = await transferBundle(
      options({ ...served, link: { ...served.link, url: url.href } }, { policy: elsewhere })
    ).catch((e: unknown) => e)
    expect((error as Error).message).toMatch(
      /^Refusing to fetch the bundle from http:\/\/localhost:\d+\/bundles\/[^?]+: it leads to a loopback address/
    )
    expect(downloads()).toBe(0)
  })
})

describe('through a proxy (HTTP_PROXY, HTTPS_PROXY)', () => {
  let proxy: TestProxy
  // The proxy resolves every name of these tests to the simulator's address; this machine, only some.
  beforeEach(async () => {
    proxy = await startProxy({
      'bundles.internal': '127.0.0.1',
      'storage.outside': '127.0.0.1',
      'metadata.internal': '127.0.0.1'
    })
  })
  afterEach(async () => proxy.close())

  /** The link with another host name, which only a name lookup tells the address of. */
  const named = (link: BundleLink, hostname: string): BundleLink => {
    const url = new URL(link.url)
    url.hostname = hostname
    return { ...link, url: url.href }
  }
  /** Links of a service on a public address, as this machine resolves names. */
  const outside = (names: Record<string, string>): LinkPolicy => ({
    allowHttp: true,
    allowed: new Set(),
    lookup: resolverOf(names)
  })

  test('a name that resolves here to a loopback address is refused before the proxy is asked to reach it', async () => {
    const served = await serve(siteTarGz)
    const link = named(served.link, 'bundles.internal')
    const policy = outside({ 'bundles.internal': '127.0.0.1' })
    const error = await throughProxy(proxy, () => transferBundle(options({ ...served, link }, { policy }))).catch(
      (e: unknown) => e
    )
    expect(error).toBeInstanceOf(ActionError)
    expect((error as Error).message).toBe(
      `Refusing to fetch the bundle from ${describeLink(link.url)}: ` +
        `it leads to a loopback address (this machine), and \`base-url\` does not.`
    )
    expect(proxy.connects).toEqual([])
    expect(downloads()).toBe(0)
    expect(await workListing()).toEqual([])
  })

  test('a name not resolving here is left to the proxy; a redirect to a link-local one is refused', async () => {
    // One that resolves here to a link-local address.
    const served = await serve(siteTarGz)
    const link = named(served.link, 'storage.outside')
    sim.addFault({
      route: 'download',
      status: 302,
      headers: { location: 'http://metadata.internal/latest/meta-data/' }
    })
    const policy = outside({ 'metadata.internal': '169.254.169.254' })
    const error = await throughProxy(proxy, () => transferBundle(options({ ...served, link }, { policy }))).catch(
      (e: unknown) => e
    )
    expect((error as Error).message).toBe(
      'Refusing to fetch the bundle from http://metadata.internal/latest/meta-data/: ' +
        'it leads to a link-local address (such as a cloud metadata service), and `base-url` does not.'
    )
    expect(proxy.connects).toEqual([new URL(link.url).host])
    expect(downloads()).toBe(1)
  })

  test("a redirect's body is not read: its connection is closed at once, even one with no end", async () => {
    const body = siteTarGz
    const served = await serve(body)
    const link = named(served.link, 'storage.outside')
    sim.addFault({ route: 'download', status: 302, headers: { location: link.url }, endless: true })
    const result = await throughProxy(proxy, () =>
      transferBundle(options({ ...served, link }, { policy: outside({}) }))
    )
    expect(result).toMatchObject({ sha256: sha256(body), attempts: 1 })
    expect(proxy.connects).toHaveLength(2)
    // The download's own tunnel closes as its answer ends; the redirect's, read on and on, would not.
    for (let waited = 0; proxy.openTunnels() > 0 && waited < 1000; waited += 10)
      await new Promise((resolve) => setTimeout(resolve, 10))
    expect(proxy.openTunnels()).toBe(0)
  })
})

describe('a redirect to the other protocol', () => {
  test('is followed over it: http to https (the TLS handshake is made, meets an untrusted certificate)', async () => {
    const tls = await untrustedTlsServer()
    try {
      const served = await serve(siteTarGz)
      sim.addFault({ route: 'download', status: 302, headers: { location: `${tls.url}/bundles/site.bin` } })
      const error = await transferBundle(options(served)).catch((e: unknown) => e)
      expect(error).toBeInstanceOf(ActionError)
      // Node 24 adds a hint of its own after its message (`; if the root CA is installed locally, ...`).
      expect((error as Error).message).toMatch(
        new RegExp(
          /^Could not download the bundle from http:\/\/127\.0\.0\.1:\d+\/bundles\/[^ ]+ /.source +
            /\(1 attempt\): the TLS handshake failed, so nothing was sent /.source +
            /\(DEPTH_ZERO_SELF_SIGNED_CERT: self-signed certificate(; [^()]+)?\)\.$/.source
        )
      )
      expect(tls.handshakes()).toBe(1)
      expect(tls.requestBytes()).toBe(0)
    } finally {
      await tls.close()
    }
  })
})

describe('archives that cannot be used', () => {
  test('a corrupt archive is downloaded once, then fails naming its size and sha256', async () => {
    // The same link serves the same bytes.
    const body = Buffer.from(siteTarGz)
    body.fill(0x41, 500, 1500)
    const error = await transferBundle(options(await serve(body))).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ActionError)
    const message = (error as Error).message
    expect(message).toContain('corrupt')
    expect(message).toContain(`${body.length} bytes, sha256 ${sha256(body)}`)
    expect(downloads()).toBe(1)
    expect(await workListing()).toEqual([])
  })

  test('an HTML page instead of an archive fails at once, saying so', async () => {
    const page = Buffer.from('<!DOCTYPE html>\n<html><body><h1>Sign in to continue</h1></body></html>\n')
    const error = await transferBundle(options(await serve(page))).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ActionError)
    expect((error as Error).message).toContain(
      'not a zip, tar.gz or tar archive: its first bytes look like an HTML page'
    )
    // Its kind only: what such a page says may be anything, credentials included.
    expect((error as Error).message).not.toMatch(/DOCTYPE|Sign in/)
    expect(downloads()).toBe(1)
    expect(await workListing()).toEqual([])
  })

  test('an archive the action does not unpack fails at once: never downloaded again, not called corrupt', async () => {
    // Here, one with an encrypted zip entry.
    const zip = buildZip(siteEntries())
    // The encryption flag on the first entry, in its local header and its central record alike.
    const central = zip.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]))
    zip.writeUInt16LE(zip.readUInt16LE(6) | 1, 6)
    zip.writeUInt16LE(zip.readUInt16LE(central + 8) | 1, central + 8)
    const error = await transferBundle(options(await serve(zip))).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(UnsupportedArchiveError)
    expect((error as Error).message).toMatch(
      /^The bundle archive cannot be unpacked: entry "[^"]+" is encrypted, which the action does not unpack\.$/
    )
    expect(downloads()).toBe(1)
    expect(await workListing()).toEqual([])
  })

  test('an unsafe entry fails at once, is never downloaded again, and keeps the old site', async () => {
    await mkdir(join(work.dir, 'site'))
    await writeFile(join(work.dir, 'site/index.html'), 'old')
    const entries: ArchiveEntry[] = [
      ...siteEntries(),
      { type: 'symlink', name: 'a', target: '.' },
      { type: 'symlink', name: 'd/b', target: '../a/../x' }
    ]
    const error = await transferBundle(options(await serve(await buildTar(entries, { gzip: true })))).catch(
      (e: unknown) => e
    )
    expect(error).toBeInstanceOf(UnsafeEntryError)
    expect((error as Error).message).toContain('"d/b"')
    expect(downloads()).toBe(1)
    expect(await readFile(join(work.dir, 'site/index.html'), 'utf8')).toBe('old')
    expect(await workListing()).toEqual(['site'])
  })
})

describe('bounds', () => {
  // With a site of at most 1 MiB in 2,048 entries, an archive may take 2 MiB, 2 MiB for the entries and 64 MiB of
  // headers and padding.
  const limits = { maxBytes: 1024 * 1024, maxEntries: 2048 }
  const bound = 68 * 1024 * 1024
  const tooLarge = (detail: string): string =>
    `The bundle archive is larger than 68.0 MiB (${detail}), the most \`max-site-size\` (1.0 MiB) allows: ` +
    `twice the site, 1 KiB for each of the 2,048 entries it may hold, ` +
    `and 64.0 MiB for an archive's headers and padding. ` +
    'Nothing of it was kept, and `path` was left as it was; raise `max-site-size` if the site really is this large.'

  test('a tar of many tiny files fits: every entry may take 1 KiB, whatever the site', async () => {
    // 70,000 files of one byte: a 70 KB site, a tar of 512-byte headers and 512-byte blocks.
    const tar = await buildTar([{ type: 'file', name: 'a', content: 'x' }])
    const perEntry = tar.length - 1024 // less the end blocks
    expect(perEntry).toBe(1024)
    expect(archiveBound({ maxBytes: 1024 * 1024, maxEntries: 70_000 })).toBeGreaterThanOrEqual(
      70_000 * perEntry + 10 * 1024
    )
    // And the default: a million entries.
    expect(archiveBound({ maxBytes: 1024 * 1024 })).toBeGreaterThanOrEqual(1_000_000 * perEntry + 10 * 1024)
  })

  test('an archive the bundle operation says is larger than `max-site-size` allows is not downloaded', async () => {
    const served = await serve(siteTarGz)
    const error = await transferBundle(
      options({ ...served, link: { ...served.link, sizeBytes: bound + 1 } }, { limits })
    ).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(SiteLimitError)
    expect((error as Error).message).toBe(tooLarge('the bundle operation says it has 68.0 MiB'))
    expect(downloads()).toBe(0)
    expect(await workListing()).toEqual([])
  })

  test('a Content-Length past that bound is refused as the answer comes, not read, and not asked again', async () => {
    const served = await serve(siteTarGz)
    sim.addFault({ route: 'download', contentLength: 1024 ** 4 })
    const error = await transferBundle(
      options({ ...served, link: { ...served.link, sizeBytes: undefined } }, { limits })
    ).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(SiteLimitError)
    expect((error as Error).message).toBe(tooLarge('the storage announced 1.0 TiB'))
    expect(downloads()).toBe(1)
    expect(await workListing()).toEqual([])
  })

  // A plain tar unpacked is stopped earlier, by what its entries account for (SiteWriter.checkArchiveBytes).
  test.each([
    ['a tar kept as it is (`extract: false`)', undefined, 'tar'],
    ['a tar.gz unpacked, with bytes after the end of its gzip member', 'site', 'tar.gz'],
    ['a zip unpacked, with bytes after the end of its central directory', 'site', 'zip']
  ])('an archive of unknown length, %s, stops at that bound; what was in `path` stays', async (_, site, format) => {
    const earlier = site === undefined ? 'bundle' : 'site'
    await mkdir(join(work.dir, earlier))
    await writeFile(join(work.dir, earlier, 'index.html'), 'earlier')
    const entries: ArchiveEntry[] = [{ type: 'file', name: 'index.html', content: '<a href="/">home</a>' }]
    const page = format === 'zip' ? buildZip(entries) : await buildTar(entries, { gzip: format === 'tar.gz' })
    const served = await serve(page)
    sim.addFault({ route: 'download', trailingBytes: bound })
    const siteDir = site === undefined ? undefined : join(work.dir, site)
    const error = await transferBundle(
      options({ ...served, link: { ...served.link, sizeBytes: undefined } }, { limits, siteDir })
    ).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(SiteLimitError)
    expect((error as Error).message).toBe(tooLarge('more than 68.0 MiB arrived'))
    expect(downloads()).toBe(1)
    expect(await workListing()).toEqual(site === undefined ? ['bundle', 'bundle/index.html'] : ['site'])
    expect(await readFile(join(work.dir, earlier, 'index.html'), 'utf8')).toBe('earlier')
  })

  test('an archive past max-site-size fails at once: never downloaded again, not called corrupt', async () => {
    // The old site is kept.
    await mkdir(join(work.dir, 'site'))
    await writeFile(join(work.dir, 'site/index.html'), 'old')
    const bomb = await buildTar(
      [...siteEntries(), { type: 'file', name: 'zeros.bin', content: Buffer.alloc(8 * 1024 * 1024) }],
      { gzip: true }
    )
    expect(bomb.length).toBeLessThan(64 * 1024)
    const error = await transferBundle(options(await serve(bomb), { limits: { maxBytes: 2 * 1024 * 1024 } })).catch(
      (e: unknown) => e
    )
    expect(error).toBeInstanceOf(SiteLimitError)
    expect((error as Error).message).toContain('the bound set by `max-site-size`')
    expect((error as Error).message).not.toContain('corrupt')
    expect(downloads()).toBe(1)
    expect(await readFile(join(work.dir, 'site/index.html'), 'utf8')).toBe('old')
    expect(await workListing()).toEqual(['site'])
  })
})

describe('sparse members (a site has none)', () => {
  const sparseSource = async (): Promise<Buffer> => {
    const source = join(work.dir, 'source')
    await mkdir(source)
    await writeFile(join(source, 'index.html'), 'new')
    await writeFile(join(source, 'data.bin'), 'end')
    await truncate(join(source, 'data.bin'), 5 * 1024 * 1024)
    const archive = execFileSync('tar', ['--sparse', '--format=pax', '-czf', '-', '-C', source, '.'])
    await rm(source, { recursive: true })
    return archive
  }
  const lyingPax = (): Promise<Buffer> =>
    // 259 bytes of tar.gz: a page listed as 10 bytes whose map writes a byte past 1 TiB.
    Promise.resolve(zlib.gzipSync(sparseTar('1.0', { name: 'page.html', realSize: 10, regions: 2, spacing: 2 ** 40 })))

  test.each([
    ['GNU tar --sparse', sparseSource, 1024 ** 3, 'is a sparse file'],
    [
      'pax 1.0, 10 B listed, 1 TiB written',
      lyingPax,
      1024 * 1024,
      'was written with 1.0 TiB where the archive lists 10 B'
    ]
  ])('a sparse member (%s) fails: nothing published, `path` as it was', async (_, build, maxBytes, reason) => {
    await mkdir(join(work.dir, 'site'))
    await writeFile(join(work.dir, 'site/index.html'), 'old')
    const served = await serve(await build())
    const error = await transferBundle(options(served, { limits: { maxBytes } })).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(UnsafeEntryError)
    expect((error as Error).message).toContain(reason)
    expect(downloads()).toBe(1)
    expect(await readFile(join(work.dir, 'site/index.html'), 'utf8')).toBe('old')
    expect(await workListing()).toEqual(['site'])
  })
})

test("a folder that cannot be made is said in the user's terms", async () => {
  await writeFile(join(work.dir, 'a-file'), 'x')
  const error = await transferBundle(
    options(await serve(siteTarGz), { archiveFolder: join(work.dir, 'a-file/bundle') })
  ).catch((e: unknown) => e)
  expect(error).toBeInstanceOf(ActionError)
  expect((error as Error).message).toBe(
    `Could not write the folder ${join(work.dir, 'a-file/bundle')} for the bundle: ` +
      `a part of its path is a file, not a folder (ENOTDIR)`
  )
  expect(downloads()).toBe(0)
})

describe('folders an earlier run left', () => {
  const stale = ['.site.staging-0123456789ab', '.site.old-0123456789ab', '.site.trash-0123456789ab']

  test('are removed before the download; folders of other names are left alone', async () => {
    await mkdir(join(work.dir, 'site'))
    for (const name of [...stale, '.other.staging-0123456789ab', '.site.staging-mine']) {
      await mkdir(join(work.dir, name, 'deep'), { recursive: true })
      await writeFile(join(work.dir, name, 'deep/page.html'), 'left over')
    }
    await transferBundle(options(await serve(siteTarGz)))
    expect(await workListing()).toEqual([
      '.other.staging-0123456789ab',
      '.site.staging-mine',
      'bundle',
      'bundle/bundle.tar.gz',
      'site'
    ])
    expect(log.text()).toContain('Removing 3 folders that an earlier run left beside')
  })

  test("a killed run's staging folders of another name are swept once its process is gone", async () => {
    // Two earlier runs of the CLI, each with an archive folder named after its process: one killed, one alive.
    const started = async (): Promise<{ child: ChildProcess; staging: string }> => {
      const child = spawn(
        process.execPath,
        ['--import', 'tsx', '--input-type=module', '-e', STAGING_CHILD, join(work.dir, 'docs-export-job')],
        { stdio: ['ignore', 'pipe', 'inherit'] }
      )
      const [line] = (await once(child.stdout!.setEncoding('utf8'), 'data')) as [string]
      return { child, staging: line.trim() }
    }
    const killed = await started()
    const alive = await started()
    try {
      killed.child.kill('SIGKILL')
      await once(killed.child, 'exit')
      expect(await readdir(killed.staging)).toEqual(['bundle.part'])
      await transferBundle(options(await serve(siteTarGz)))
      const left = await readdir(work.dir)
      expect(left).not.toContain(basename(killed.staging))
      expect(left).toContain(basename(alive.staging))
      expect(log.text()).toContain(`that runs no longer running left in ${work.dir}: ${basename(killed.staging)}`)
    } finally {
      alive.child.kill('SIGKILL')
      await once(alive.child, 'exit')
    }
  })

  test('a site an earlier run moved aside and never put back is restored (and kept if this run fails)', async () => {
    await mkdir(join(work.dir, '.site.old-0123456789ab'))
    await writeFile(join(work.dir, '.site.old-0123456789ab/index.html'), 'previous')
    await mkdir(join(work.dir, '.site.staging-0123456789ab'))
    const entries: ArchiveEntry[] = [...siteEntries(), { type: 'file', name: '../escape.html', content: 'x' }]
    await expect(transferBundle(options(await serve(await buildTar(entries, { gzip: true }))))).rejects.toBeInstanceOf(
      UnsafeEntryError
    )
    expect(await readFile(join(work.dir, 'site/index.html'), 'utf8')).toBe('previous')
    expect(await workListing()).toEqual(['site'])
  })
})

describe('cancellation', () => {
  test('mid-download: rejects with CancelledError promptly and leaves no .part or staging folder', async () => {
    await mkdir(join(work.dir, 'site'))
    await writeFile(join(work.dir, 'site/index.html'), 'old')
    const served = await serve(bigTar)
    sim.addFault({ route: 'download', stallAt: 1024 * 1024 })
    const controller = new AbortController()
    const transfer = transferBundle(options(served, { signal: controller.signal }))
    // Wait until the body has started to arrive, then cancel.
    while (!(await stagedArchive())) await new Promise((r) => setTimeout(r, 5))
    await new Promise((r) => setTimeout(r, 50))
    const cancelledAt = Date.now()
    controller.abort()
    await expect(transfer).rejects.toBeInstanceOf(CancelledError)
    // The stall never ends, so the rejection is the cancellation; the bound rules out a wait for the stall timeout.
    expect(Date.now() - cancelledAt).toBeLessThan(2000)
    expect(await workListing()).toEqual(['site'])
    expect(await readFile(join(work.dir, 'site/index.html'), 'utf8')).toBe('old')
  })

  test('during a retry wait', async () => {
    const served = await serve(siteTarGz)
    sim.addFault({ route: 'download', status: 503, retryAfter: '60' })
    const controller = new AbortController()
    const transfer = transferBundle(options(served, { signal: controller.signal }))
    while (downloads() === 0) await new Promise((r) => setTimeout(r, 5))
    await new Promise((r) => setTimeout(r, 30))
    controller.abort()
    await expect(transfer).rejects.toBeInstanceOf(CancelledError)
    expect(await workListing()).toEqual([])
  })
})
