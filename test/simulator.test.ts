import { afterEach, describe, expect, test } from '@jest/globals'
import { spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Readable } from 'node:stream'
import { gunzipSync } from 'node:zlib'
import tarStream from 'tar-stream'
import yauzl from 'yauzl'
import { buildTar, buildZip, fixtureSiteEntries } from '../simulator/archives.js'
import type { ArchiveEntry } from '../simulator/archives.js'
import { DEFAULT_DEPLOYED_COMMIT, startSimulator } from '../simulator/server.js'
import type { Simulator, SimulatorOptions } from '../simulator/server.js'
import { type TestClock, virtualClock } from './support/clock.js'

// ---------------------------------------------------------------------------------------------
// helpers

const running: Simulator[] = []
afterEach(async () => {
  await Promise.all(running.splice(0).map((sim) => sim.close()))
})

async function start(options: SimulatorOptions = {}): Promise<Simulator> {
  const sim = await startSimulator(options)
  running.push(sim)
  return sim
}

/** A hand-driven clock: tests move time instead of sleeping. */
const fakeClock = (): TestClock => virtualClock({ start: Date.UTC(2025, 0, 1) })

interface ApiResponse {
  status: number
  headers: Headers
  // A JSON answer as the tests read it: each test knows the shape it asked for.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any
}

async function call(
  sim: Simulator,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {}
): Promise<ApiResponse> {
  const init: RequestInit = { method, headers: { authorization: `Bearer ${sim.apiKey}`, ...headers } }
  if (body !== undefined) {
    init.body = typeof body === 'string' ? body : JSON.stringify(body)
    ;(init.headers as Record<string, string>)['content-type'] = 'application/json'
  }
  const res = await fetch(`${sim.apiUrl}${path}`, init)
  const text = await res.text()
  let parsed: unknown = text
  try {
    parsed = JSON.parse(text)
  } catch {
    // keep text
  }
  return { status: res.status, headers: res.headers, body: parsed }
}

async function completedJob(
  sim: Simulator,
  clock: { advance: (ms: number) => void },
  domain = 'docs.example.com'
): Promise<string> {
  const started = await call(sim, 'POST', '/v1/static-export/jobs', { domain })
  clock.advance(10_000)
  return started.body.jobId as string
}

async function bundleLink(
  sim: Simulator,
  jobId: string
): Promise<{ bundleUrl: string; expiresAt: string; sizeBytes?: number }> {
  const res = await call(sim, 'POST', `/v1/static-export/jobs/${jobId}/bundle`)
  expect(res.status).toBe(200)
  return res.body
}

async function download(
  url: string,
  headers: Record<string, string> = {}
): Promise<{ status: number; headers: Headers; bytes: Buffer }> {
  const res = await fetch(url, { headers })
  return { status: res.status, headers: res.headers, bytes: Buffer.from(await res.arrayBuffer()) }
}

async function tarNames(
  archive: Buffer
): Promise<Array<{ name: string; type: string; linkname?: string | null; content: string }>> {
  const extract = tarStream.extract()
  const out: Array<{ name: string; type: string; linkname?: string | null; content: string }> = []
  Readable.from([archive]).pipe(extract as unknown as NodeJS.WritableStream)
  for await (const entry of extract) {
    const chunks: Buffer[] = []
    for await (const chunk of entry) chunks.push(chunk as Buffer)
    out.push({
      name: entry.header.name,
      type: String(entry.header.type),
      linkname: entry.header.linkname,
      content: Buffer.concat(chunks).toString()
    })
  }
  return out
}

async function zipEntries(
  archive: Buffer,
  options: yauzl.Options = {}
): Promise<Array<{ name: string; mode: number; content: string }>> {
  const zip = await yauzl.fromBufferPromise(archive, options)
  const out: Array<{ name: string; mode: number; content: string }> = []
  for await (const entry of zip.eachEntry()) {
    const stream = await zip.openReadStreamPromise(entry)
    const chunks: Buffer[] = []
    for await (const chunk of stream) chunks.push(chunk as Buffer)
    const name = Buffer.isBuffer(entry.fileName) ? (entry.fileName as Buffer).toString() : entry.fileName
    out.push({ name, mode: entry.externalFileAttributes >>> 16, content: Buffer.concat(chunks).toString() })
  }
  return out
}

const hostile: ArchiveEntry[] = [
  { type: 'file', name: '../escape.txt', content: 'x' },
  { type: 'file', name: '/etc/evil', content: 'y' },
  { type: 'file', name: 'a/../../up.txt', content: 'z' },
  { type: 'symlink', name: 'link', target: '../../outside' },
  { type: 'hardlink', name: 'hard', target: 'index.html' }
]

// ---------------------------------------------------------------------------------------------
// archives

describe('archives', () => {
  test('fixtureSiteEntries is deterministic, ~12 entries, seed changes content only', () => {
    const a = fixtureSiteEntries()
    expect(a).toHaveLength(12)
    expect(fixtureSiteEntries()).toEqual(a)
    const names = a.map((e) => e.name)
    expect(names).toEqual(
      expect.arrayContaining(['index.html', 'assets/style.css', 'assets/app.js', 'guides/advanced/'])
    )
    const b = fixtureSiteEntries({ seed: 7 })
    expect(b.map((e) => e.name)).toEqual(names)
    expect(b).not.toEqual(a)
    expect(fixtureSiteEntries({ pages: 9 }).filter((e) => e.name.endsWith('.html'))).toHaveLength(11)
  })

  test('buildTar output is read by tar-stream and by system tar, names verbatim', async () => {
    const entries = [...fixtureSiteEntries(), ...hostile]
    const gz = await buildTar(entries, { gzip: true })
    expect(gz.subarray(0, 2)).toEqual(Buffer.from([0x1f, 0x8b]))
    const plain = await buildTar(entries)
    expect(gunzipSync(gz)).toEqual(plain)
    const read = await tarNames(plain)
    expect(read.map((e) => e.name)).toEqual(entries.map((e) => e.name))
    expect(read.find((e) => e.name === 'link')).toMatchObject({ type: 'symlink', linkname: '../../outside' })
    expect(read.find((e) => e.name === 'hard')).toMatchObject({ type: 'link', linkname: 'index.html' })
    expect(read.find((e) => e.name === '../escape.txt')?.content).toBe('x')

    const listed = spawnSync('tar', ['-tzf', '-'], { input: gz })
    expect(listed.status).toBe(0)
    const lines = listed.stdout.toString().trim().split('\n')
    expect(lines).toEqual(expect.arrayContaining(['index.html', 'guides/', 'assets/app.js', 'link', 'hard']))
    expect(lines).toHaveLength(entries.length)
  })

  test('buildZip output is read by yauzl (symlink mode, directories)', async () => {
    const entries: ArchiveEntry[] = [
      ...fixtureSiteEntries(),
      { type: 'symlink', name: 'latest', target: 'guides/' },
      { type: 'directory', name: 'empty' }
    ]
    const zip = buildZip(entries)
    const read = await zipEntries(zip)
    expect(read.map((e) => e.name)).toEqual([...fixtureSiteEntries().map((e) => e.name), 'latest', 'empty/'])
    expect(read.find((e) => e.name === 'latest')).toEqual({ name: 'latest', mode: 0o120777, content: 'guides/' })
    expect(read.find((e) => e.name === 'empty/')?.mode).toBe(0o040755)
    const index = fixtureSiteEntries().find((e) => e.name === 'index.html') as { content: string }
    expect(read.find((e) => e.name === 'index.html')).toEqual({
      name: 'index.html',
      mode: 0o100644,
      content: index.content
    })

    // Hostile names are written verbatim (yauzl only shows them with decodeStrings off).
    const evil = await zipEntries(buildZip([...fixtureSiteEntries(), ...hostile]), { decodeStrings: false })
    expect(evil.map((e) => e.name)).toEqual(expect.arrayContaining(['../escape.txt', '/etc/evil', 'a/../../up.txt']))
    expect(evil.find((e) => e.name === 'hard')?.content).toBe(index.content)
  })

  // Info-ZIP's unzip, where the machine has it, as a second reader.
  const whereUnzipIs = spawnSync('unzip', ['-v']).status === 0 ? describe : describe.skip
  whereUnzipIs('unzip', () => {
    test('lists and tests buildZip output', () => {
      const dir = mkdtempSync(join(tmpdir(), 'sim-zip-'))
      try {
        writeFileSync(join(dir, 'site.zip'), buildZip(fixtureSiteEntries()))
        const listed = spawnSync('unzip', ['-l', join(dir, 'site.zip')])
        expect(listed.status).toBe(0)
        expect(listed.stdout.toString()).toContain('guides/advanced/deployment.html')
        expect(spawnSync('unzip', ['-tq', join(dir, 'site.zip')]).status).toBe(0)
      } finally {
        rmSync(dir, { recursive: true, force: true })
      }
    })
  })
})

// ---------------------------------------------------------------------------------------------
// export jobs

describe('static export', () => {
  test('lifecycle: queued -> running (progress, pageCount grow) -> completed', async () => {
    const clock = fakeClock()
    const sim = await start({ now: clock.now, exportJob: { durationMs: 1000, queuedMs: 100 } })
    const started = await call(sim, 'POST', '/v1/static-export/jobs', { domain: 'docs.example.com', version: 'v2' })
    expect(started.status).toBe(202)
    expect(started.body).toEqual({ jobId: expect.stringMatching(/^exp_/), status: 'queued' })
    const path = `/v1/static-export/jobs/${started.body.jobId}`

    const queued = await call(sim, 'GET', path)
    expect(queued.body).toMatchObject({ status: 'queued', progress: 0, pageCount: 0, domain: 'docs.example.com' })
    expect((await call(sim, 'POST', `${path}/bundle`)).status).toBe(409)

    clock.advance(400)
    const early = await call(sim, 'GET', path)
    clock.advance(400)
    const late = await call(sim, 'GET', path)
    expect(early.body.status).toBe('running')
    expect(late.body.status).toBe('running')
    expect(early.body.progress).toBeGreaterThan(0)
    expect(late.body.progress).toBeGreaterThan(early.body.progress)
    expect(late.body.progress).toBeLessThan(100)
    expect(Number.isInteger(late.body.progress)).toBe(true)
    expect(late.body.pageCount).toBeGreaterThan(early.body.pageCount)

    clock.advance(200)
    const done = await call(sim, 'GET', path)
    expect(done.body).toEqual({
      jobId: started.body.jobId,
      status: 'completed',
      progress: 100,
      pageCount: 7,
      domain: 'docs.example.com',
      version: 'v2'
    })
    expect(sim.count('export-status')).toBe(4)
    expect(sim.exportJobs.get(started.body.jobId)?.version).toBe('v2')
  })

  test('real clock: a short job completes', async () => {
    const sim = await start({ exportJob: { durationMs: 60, queuedMs: 10 } })
    const { body } = await call(sim, 'POST', '/v1/static-export/jobs', { domain: 'd' })
    await new Promise((r) => setTimeout(r, 80))
    expect((await call(sim, 'GET', `/v1/static-export/jobs/${body.jobId}`)).body.status).toBe('completed')
  })

  test('failed jobs, per-domain behaviour, stall/absent progress, extra status, pageCount', async () => {
    const clock = fakeClock()
    const sim = await start({
      now: clock.now,
      exportJob: {
        durationMs: 1000,
        queuedMs: 0,
        pageCount: 50,
        byDomain: {
          'bad.example.com': { failWith: 'render error on /guides' },
          'stall.example.com': { progress: 'stall' },
          'quiet.example.com': { progress: 'absent', extraStatus: 'packaging' }
        }
      }
    })
    const ids: Record<string, string> = {}
    for (const domain of ['bad.example.com', 'stall.example.com', 'quiet.example.com']) {
      ids[domain] = (await call(sim, 'POST', '/v1/static-export/jobs', { domain })).body.jobId
    }
    const status = async (domain: string): Promise<ApiResponse['body']> =>
      (await call(sim, 'GET', `/v1/static-export/jobs/${ids[domain]}`)).body

    clock.advance(300)
    expect((await status('stall.example.com')).progress).toBe(40)
    clock.advance(300)
    expect((await status('stall.example.com')).progress).toBe(40)
    clock.advance(250)
    const quiet = await status('quiet.example.com')
    expect(quiet.status).toBe('packaging')
    expect(quiet).not.toHaveProperty('progress')
    expect(quiet.pageCount).toBe(42)
    expect((await status('stall.example.com')).progress).toBeGreaterThan(40)

    clock.advance(150)
    const bad = await status('bad.example.com')
    expect(bad).toMatchObject({ status: 'failed', error: 'render error on /guides' })
    expect((await call(sim, 'POST', `/v1/static-export/jobs/${ids['bad.example.com']}/bundle`)).status).toBe(409)
    expect(await status('quiet.example.com')).toEqual({
      jobId: ids['quiet.example.com'],
      status: 'completed',
      pageCount: 50,
      domain: 'quiet.example.com'
    })
  })

  test('extraStatus: a job read only after its end still shows the unknown status once, then completes', async () => {
    const clock = fakeClock()
    const sim = await start({ now: clock.now, exportJob: { durationMs: 1000, queuedMs: 0, extraStatus: 'packaging' } })
    const { jobId } = (await call(sim, 'POST', '/v1/static-export/jobs', { domain: 'docs.acme.com' })).body
    clock.advance(5000)
    expect((await call(sim, 'POST', `/v1/static-export/jobs/${jobId}/bundle`)).status).toBe(409)
    expect((await call(sim, 'GET', `/v1/static-export/jobs/${jobId}`)).body).toMatchObject({
      status: 'packaging',
      progress: 99
    })
    expect((await call(sim, 'GET', `/v1/static-export/jobs/${jobId}`)).body.status).toBe('completed')
  })

  test('validation and unknown jobs', async () => {
    const sim = await start()
    expect((await call(sim, 'POST', '/v1/static-export/jobs', {})).status).toBe(400)
    const blank = await call(sim, 'POST', '/v1/static-export/jobs', { domain: '  ' })
    expect(blank).toMatchObject({ status: 400, body: { error: expect.any(String) } })
    expect((await call(sim, 'POST', '/v1/static-export/jobs', '{not json')).status).toBe(400)
    expect((await call(sim, 'GET', '/v1/static-export/jobs/nope')).body).toEqual({ error: 'export job not found' })
    expect((await call(sim, 'POST', '/v1/static-export/jobs/nope/bundle')).status).toBe(404)
    expect(sim.exportJobs.size).toBe(0)
  })

  test('auth: missing or wrong key -> 401 {error}, recorded', async () => {
    const sim = await start({ apiKey: 'dsk_custom' })
    const none = await fetch(`${sim.apiUrl}/v1/static-export/jobs/x`)
    expect(none.status).toBe(401)
    expect(await none.json()).toEqual({ error: expect.any(String) })
    const wrong = await call(sim, 'GET', '/v1/static-export/jobs/x', undefined, { authorization: 'Bearer dsk_other' })
    expect(wrong.status).toBe(401)
    expect(sim.requests.map((r) => [r.route, r.status])).toEqual([
      ['export-status', 401],
      ['export-status', 401]
    ])
    expect(sim.requests[1]?.headers.authorization).toBe('Bearer dsk_other')
  })

  test('path prefix: routes live under it only', async () => {
    const sim = await start({ pathPrefix: '/docs-api/' })
    expect(sim.apiUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/docs-api$/)
    expect((await call(sim, 'POST', '/v1/static-export/jobs', { domain: 'd' })).status).toBe(202)
    const origin = new URL(sim.apiUrl).origin
    const bare = await fetch(`${origin}/v1/static-export/jobs`, {
      method: 'POST',
      headers: { authorization: `Bearer ${sim.apiKey}` },
      body: '{"domain":"d"}'
    })
    expect(bare.status).toBe(404)
    expect(sim.requests.map((r) => [r.route, r.path])).toEqual([
      ['export-start', '/docs-api/v1/static-export/jobs'],
      ['unknown', '/v1/static-export/jobs']
    ])
  })
})

// ---------------------------------------------------------------------------------------------
// bundles and storage

describe('bundle links and storage', () => {
  test('download a tar.gz bundle; each call yields a fresh link on another origin', async () => {
    const clock = fakeClock()
    const sim = await start({ now: clock.now })
    const jobId = await completedJob(sim, clock)
    // Empty and non-JSON bodies are accepted by the bundle operation.
    const first = await bundleLink(sim, jobId)
    const second = (await call(sim, 'POST', `/v1/static-export/jobs/${jobId}/bundle`, 'not json')).body
    expect(second.bundleUrl).not.toBe(first.bundleUrl)
    expect(new URL(first.bundleUrl).origin).toBe(sim.storageUrl)
    expect(new URL(first.bundleUrl).origin).not.toBe(new URL(sim.apiUrl).origin)
    expect(first.bundleUrl).toMatch(
      /\/bundles\/exp_[0-9a-f]+\/site\.tar\.gz\?X-Amz-Algorithm=AWS4-HMAC-SHA256&.*X-Amz-Signature=[0-9a-f]{64}$/
    )
    expect(Date.parse(first.expiresAt)).toBe(clock.now() + 15 * 60 * 1000)

    const got = await download(first.bundleUrl)
    expect(got.status).toBe(200)
    expect(got.headers.get('content-type')).toBe('application/octet-stream')
    expect(got.headers.get('accept-ranges')).toBe('bytes')
    expect(got.headers.get('etag')).toMatch(/^"[0-9a-f]{32}"$/)
    expect(Number(got.headers.get('content-length'))).toBe(got.bytes.length)
    expect(first.sizeBytes).toBe(got.bytes.length)
    const names = (await tarNames(gunzipSync(got.bytes))).map((e) => e.name)
    expect(names).toEqual(fixtureSiteEntries().map((e) => e.name))
    // The same job's archive is built once and reused.
    expect((await download(second.bundleUrl)).bytes).toEqual(got.bytes)
    expect(sim.requests.filter((r) => r.origin === 'storage').map((r) => r.route)).toEqual(['download', 'download'])
  })

  test('expired link and bad signature -> 403; Authorization header -> 400', async () => {
    const clock = fakeClock()
    const sim = await start({ now: clock.now, bundle: { linkTtlMs: 1000 } })
    const link = await bundleLink(sim, await completedJob(sim, clock))

    const withAuth = await download(link.bundleUrl, { authorization: `Bearer ${sim.apiKey}` })
    expect(withAuth.status).toBe(400)
    expect(withAuth.bytes.toString()).toContain('<Code>InvalidArgument</Code>')
    expect(withAuth.bytes.toString()).toContain('Only one auth mechanism allowed')

    const tampered = link.bundleUrl.replace(
      /X-Amz-Signature=([0-9a-f])/,
      (_, c: string) => `X-Amz-Signature=${c === '0' ? '1' : '0'}`
    )
    expect((await download(tampered)).status).toBe(403)
    expect((await download(link.bundleUrl.replace('X-Amz-Expires=1', 'X-Amz-Expires=9'))).status).toBe(403)

    clock.advance(999)
    expect((await download(link.bundleUrl)).status).toBe(200)
    clock.advance(1)
    const expired = await download(link.bundleUrl)
    expect(expired.status).toBe(403)
    expect(expired.bytes.toString()).toContain(
      '<Error><Code>AccessDenied</Code><Message>Request has expired</Message></Error>'
    )
    // Calling the bundle operation again gives a working link.
    expect((await download((await bundleLink(sim, link.bundleUrl.split('/')[4]!)).bundleUrl)).status).toBe(200)
  })

  test('Range: bytes=N- -> 206 with Content-Range', async () => {
    const clock = fakeClock()
    const sim = await start({ now: clock.now })
    const link = await bundleLink(sim, await completedJob(sim, clock))
    const full = await download(link.bundleUrl)
    const part = await download(link.bundleUrl, { range: 'bytes=100-' })
    expect(part.status).toBe(206)
    expect(part.headers.get('content-range')).toBe(`bytes 100-${full.bytes.length - 1}/${full.bytes.length}`)
    expect(part.bytes).toEqual(full.bytes.subarray(100))
    expect((await download(link.bundleUrl, { range: `bytes=${full.bytes.length}-` })).status).toBe(416)
  })

  test('formats, verbatim body, setBundle for new links, reportSize', async () => {
    const clock = fakeClock()
    const sim = await start({ now: clock.now, bundle: { format: 'zip' } })
    const jobId = await completedJob(sim, clock)
    const zipLink = await bundleLink(sim, jobId)
    expect(zipLink.bundleUrl).toContain('/site.zip?')
    const zip = await download(zipLink.bundleUrl)
    expect(zip.bytes.subarray(0, 2).toString()).toBe('PK')
    expect((await zipEntries(zip.bytes)).map((e) => e.name)).toContain('index.html')

    sim.setBundle({ format: 'tar', entries: [{ type: 'file', name: 'only.html', content: 'hi' }], reportSize: false })
    const tarLink = await bundleLink(sim, jobId)
    expect(tarLink).not.toHaveProperty('sizeBytes')
    expect((await tarNames((await download(tarLink.bundleUrl)).bytes)).map((e) => e.name)).toEqual(['only.html'])
    // Links issued before setBundle keep serving their archive.
    expect((await download(zipLink.bundleUrl)).bytes).toEqual(zip.bytes)

    const body = Buffer.alloc(3 * 1024 * 1024 + 17, 7)
    body.write('not an archive')
    sim.setBundle({ body })
    const raw = await download((await bundleLink(sim, jobId)).bundleUrl)
    expect(raw.bytes.equals(body)).toBe(true)
  })

  test('pageCount defaults to the html pages of the bundle entries', async () => {
    const clock = fakeClock()
    const sim = await start({ now: clock.now, bundle: { entries: fixtureSiteEntries({ pages: 10 }) } })
    const jobId = await completedJob(sim, clock)
    expect((await call(sim, 'GET', `/v1/static-export/jobs/${jobId}`)).body.pageCount).toBe(12)
  })
})

// ---------------------------------------------------------------------------------------------
// faults

describe('faults', () => {
  test('status + Retry-After for `times` requests, then normal', async () => {
    const sim = await start()
    sim.addFault({ route: 'export-status', status: 503, retryAfter: '1', times: 2 })
    const a = await call(sim, 'GET', '/v1/static-export/jobs/x')
    const b = await call(sim, 'GET', '/v1/static-export/jobs/x')
    const c = await call(sim, 'GET', '/v1/static-export/jobs/x')
    expect([a.status, b.status, c.status]).toEqual([503, 503, 404])
    expect(a.body).toEqual({ error: 'simulated 503' })
    expect(a.headers.get('retry-after')).toBe('1')
    sim.addFault({ route: 'export-start', status: 429, body: { error: 'slow down', code: 'rate' } })
    expect(await call(sim, 'POST', '/v1/static-export/jobs', { domain: 'd' })).toMatchObject({
      status: 429,
      body: { error: 'slow down', code: 'rate' }
    })
    expect(sim.exportJobs.size).toBe(0)
    expect(sim.requests.map((r) => r.status)).toEqual([503, 503, 404, 429])
  })

  test('drop: no response; with process the job is still created', async () => {
    const sim = await start()
    sim.addFault({ route: 'export-start', drop: true })
    await expect(call(sim, 'POST', '/v1/static-export/jobs', { domain: 'd' })).rejects.toThrow()
    expect(sim.exportJobs.size).toBe(0)
    sim.addFault({ route: 'export-start', drop: true, process: true })
    await expect(call(sim, 'POST', '/v1/static-export/jobs', { domain: 'd' })).rejects.toThrow()
    expect(sim.exportJobs.size).toBe(1)
    expect(sim.requests.map((r) => [r.route, r.status])).toEqual([
      ['export-start', 0],
      ['export-start', 0]
    ])
    expect((await call(sim, 'POST', '/v1/static-export/jobs', { domain: 'd' })).status).toBe(202)
  })

  test('process with status: agent message counted although the answer is a 502', async () => {
    const clock = fakeClock()
    const sim = await start({ now: clock.now })
    sim.addFault({ route: 'agent-message', status: 502, process: true })
    const res = await call(sim, 'POST', '/v2/agent/proj_123/job/job_abc/message', { prompt: 'fix typos' })
    expect(res.status).toBe(502)
    expect(sim.agentJobs.get('proj_123/job_abc')?.prompts).toEqual(['fix typos'])
    expect((await call(sim, 'GET', '/v2/agent/proj_123/job/job_abc')).body.status).toBe('active')
  })

  test('delayMs delays the answer', async () => {
    const sim = await start()
    sim.addFault({ route: 'export-status', delayMs: 120 })
    const t0 = Date.now()
    expect((await call(sim, 'GET', '/v1/static-export/jobs/x')).status).toBe(404)
    expect(Date.now() - t0).toBeGreaterThanOrEqual(100)
  })

  test('truncateAt: full Content-Length, partial body, then reset', async () => {
    const clock = fakeClock()
    const sim = await start({ now: clock.now, bundle: { body: Buffer.alloc(200_000, 1) } })
    const link = await bundleLink(sim, await completedJob(sim, clock))
    sim.addFault({ route: 'download', truncateAt: 1000 })
    const res = await fetch(link.bundleUrl)
    expect(res.status).toBe(200)
    expect(res.headers.get('content-length')).toBe('200000')
    const reader = res.body!.getReader()
    let received = 0
    await expect(
      (async () => {
        for (;;) {
          const { done, value } = await reader.read()
          if (done) return
          received += value.length
        }
      })()
    ).rejects.toThrow()
    expect(received).toBe(1000)
    expect(sim.requests.at(-1)).toMatchObject({ route: 'download', status: 200 })
    // Resuming with Range works afterwards.
    const rest = await download(link.bundleUrl, { range: 'bytes=1000-' })
    expect(rest.status).toBe(206)
    expect(rest.bytes.length).toBe(199_000)
  })

  test('stallAt: bytes then silence until close()', async () => {
    const clock = fakeClock()
    const sim = await start({ now: clock.now, bundle: { body: Buffer.alloc(100_000, 2) } })
    const link = await bundleLink(sim, await completedJob(sim, clock))
    sim.addFault({ route: 'download', stallAt: 500 })
    const res = await fetch(link.bundleUrl)
    const reader = res.body!.getReader()
    let received = 0
    while (received < 500) received += (await reader.read()).value?.length ?? 0
    expect(received).toBe(500)
    const next = reader.read()
    const outcome = await Promise.race([
      next.then(() => 'data'),
      new Promise((r) => setTimeout(() => r('stalled'), 100))
    ])
    expect(outcome).toBe('stalled')
    const t0 = Date.now()
    await sim.close()
    expect(Date.now() - t0).toBeLessThan(1000)
    await expect(next).rejects.toThrow()
  })

  test('faults apply to the GitHub fake too', async () => {
    const sim = await start()
    sim.addFault({ route: 'github-comment', status: 502 })
    const res = await fetch(`${sim.githubApiUrl}/repos/acme/docs/issues/5/comments`, {
      method: 'POST',
      headers: { authorization: 'token ghs_x' },
      body: JSON.stringify({ body: 'hi' })
    })
    expect(res.status).toBe(502)
  })
})

// ---------------------------------------------------------------------------------------------
// agent

describe('agent jobs', () => {
  const jobPath = '/v2/agent/proj_123/job/job_abc'

  test('get seeded job, 404 for unknown job or project', async () => {
    const sim = await start()
    const res = await call(sim, 'GET', jobPath)
    expect(res.status).toBe(200)
    expect(res.body).toEqual({
      id: 'job_abc',
      status: 'completed',
      source: { repository: 'https://github.com/acme/docs', ref: 'main' },
      model: expect.any(String),
      prLink: expect.stringMatching(/^https:\/\/github\.com\/acme\/docs\/pull\/\d+$/),
      createdAt: expect.any(String),
      archivedAt: null
    })
    expect(await call(sim, 'GET', '/v2/agent/proj_123/job/nope')).toMatchObject({
      status: 404,
      body: { error: 'job not found' }
    })
    expect((await call(sim, 'GET', '/v2/agent/other/job/job_abc')).status).toBe(404)
    expect(sim.count('agent-get')).toBe(3)
  })

  test('message validation: 400 blank/missing prompt, 404 unknown job', async () => {
    const sim = await start()
    expect((await call(sim, 'POST', `${jobPath}/message`, { prompt: '' })).status).toBe(400)
    expect((await call(sim, 'POST', `${jobPath}/message`, { prompt: '   ' })).status).toBe(400)
    expect((await call(sim, 'POST', `${jobPath}/message`, {})).body).toEqual({ error: expect.any(String) })
    expect((await call(sim, 'POST', '/v2/agent/proj_123/job/nope/message', { prompt: 'x' })).status).toBe(404)
    expect((await call(sim, 'POST', '/v2/agent/proj_123/job', { prompt: '' })).status).toBe(400)
  })

  test('message -> active, then completed/failed/archived/no change by prompt', async () => {
    const clock = fakeClock()
    const sim = await start({ now: clock.now, agent: { durationMs: 1000 } })
    const accepted = await call(sim, 'POST', `${jobPath}/message`, { prompt: 'Document the new flag' })
    expect(accepted.status).toBe(200)
    expect(accepted.body).toMatchObject({ id: 'job_abc', status: 'active', prLink: null })
    clock.advance(999)
    expect((await call(sim, 'GET', jobPath)).body.status).toBe('active')
    clock.advance(1)
    const done = (await call(sim, 'GET', jobPath)).body
    expect(done.status).toBe('completed')
    // A follow-up updates the job's own pull request (the seeded job opened #42).
    expect(done.prLink).toBe('https://github.com/acme/docs/pull/42')
    expect(sim.github.thread('acme/docs', 42)).toMatchObject({ isPullRequest: true })

    const outcomes: Array<[string, Record<string, unknown>]> = [
      ['please FAIL now', { status: 'failed', prLink: null }],
      ['NOCHANGE needed', { status: 'completed', prLink: null }],
      ['ARCHIVE it', { status: 'archived', archivedAt: new Date(clock.now() + 3000).toISOString() }]
    ]
    for (const [prompt, expected] of outcomes) {
      expect((await call(sim, 'POST', `${jobPath}/message`, { prompt })).body.status).toBe('active')
      clock.advance(1000)
      expect((await call(sim, 'GET', jobPath)).body).toMatchObject(expected)
    }
    // An archived job takes no more messages (the simulator's choice: the spec leaves it open).
    const refused = await call(sim, 'POST', `${jobPath}/message`, { prompt: 'one more' })
    expect(refused).toMatchObject({ status: 409, body: { error: 'job is archived and takes no more messages' } })
  })

  test('create -> 201 new active job; extraStatus near the end', async () => {
    const clock = fakeClock()
    const sim = await start({ now: clock.now, agent: { durationMs: 1000, extraStatus: 'reviewing' } })
    const created = await call(sim, 'POST', '/v2/agent/proj_9/job', { prompt: 'Write a quickstart' })
    expect(created.status).toBe(201)
    expect(created.body).toMatchObject({
      id: expect.stringMatching(/^job_/),
      status: 'active',
      prLink: null,
      archivedAt: null
    })
    const path = `/v2/agent/proj_9/job/${created.body.id}`
    clock.advance(850)
    expect((await call(sim, 'GET', path)).body.status).toBe('reviewing')
    clock.advance(150)
    const done = (await call(sim, 'GET', path)).body
    expect(done.status).toBe('completed')
    expect(sim.agentJobs.has(`proj_9/${created.body.id}`)).toBe(true)
    // A new job opens its pull request in the simulated GitHub repository.
    const number = Number(/\/pull\/(\d+)$/.exec(done.prLink)?.[1])
    expect(sim.github.thread('acme/docs', number)).toMatchObject({ isPullRequest: true, body: 'Write a quickstart' })
  })

  test('extraStatus: a run read only after its end still shows the unknown status once, then ends', async () => {
    const clock = fakeClock()
    const sim = await start({ now: clock.now, agent: { durationMs: 1000, extraStatus: 'reviewing' } })
    const created = await call(sim, 'POST', '/v2/agent/proj_9/job', { prompt: 'Write a quickstart' })
    const path = `/v2/agent/proj_9/job/${created.body.id}`
    clock.advance(5000)
    expect((await call(sim, 'GET', path)).body.status).toBe('reviewing')
    expect((await call(sim, 'GET', path)).body.status).toBe('completed')
  })

  test('429 with Retry-After after messagesPerHour per project, window slides', async () => {
    const clock = fakeClock()
    const sim = await start({
      now: clock.now,
      agent: {
        messagesPerHour: 2,
        jobs: [
          {
            projectId: 'p',
            id: 'j',
            status: 'completed',
            source: { repository: 'https://github.com/acme/docs', ref: null },
            model: 'm',
            prLink: null,
            createdAt: '2024-01-01T00:00:00Z',
            archivedAt: null
          }
        ]
      }
    })
    const send = (): Promise<ApiResponse> => call(sim, 'POST', '/v2/agent/p/job/j/message', { prompt: 'go' })
    expect((await send()).status).toBe(200)
    clock.advance(60_000)
    expect((await send()).status).toBe(200)
    const limited = await send()
    expect(limited.status).toBe(429)
    expect(limited.body.error).toMatch(/rate limit/)
    expect(limited.headers.get('retry-after')).toBe(String(3600 - 60))
    expect((await call(sim, 'GET', jobPath)).status).toBe(404) // seeds replaced the default job
    clock.advance(3600_000 - 60_000)
    expect((await send()).status).toBe(200)
  })
})

// ---------------------------------------------------------------------------------------------
// deployments

describe('deployments', () => {
  test('trigger -> 202 {statusId}; queued -> in_progress (logs grow) -> success with endedAt', async () => {
    // The commit throughout.
    const clock = fakeClock()
    const sim = await start({ now: clock.now, deployment: { durationMs: 1000, queuedMs: 100 } })
    const triggered = await call(sim, 'POST', '/v1/project/update/proj_123')
    expect(triggered).toMatchObject({ status: 202, body: { statusId: expect.stringMatching(/^[0-9a-f]{24}$/) } })
    const path = `/v1/project/update-status/${triggered.body.statusId}`

    const queued = await call(sim, 'GET', path)
    expect(queued.body).toMatchObject({
      _id: triggered.body.statusId,
      projectId: 'proj_123',
      status: 'queued',
      source: 'api',
      commit: DEFAULT_DEPLOYED_COMMIT
    })
    expect(queued.body.endedAt).toBeUndefined()
    clock.advance(200)
    const early = await call(sim, 'GET', path)
    clock.advance(600)
    const late = await call(sim, 'GET', path)
    expect([early.body.status, late.body.status]).toEqual(['in_progress', 'in_progress'])
    expect(late.body.logs.length).toBeGreaterThan(early.body.logs.length)
    expect(early.body.logs.length).toBeGreaterThan(queued.body.logs.length)

    clock.advance(200)
    const done = await call(sim, 'GET', path)
    expect(done.body).toMatchObject({
      status: 'success',
      createdAt: new Date(Date.UTC(2025, 0, 1)).toISOString(),
      endedAt: new Date(Date.UTC(2025, 0, 1) + 1000).toISOString()
    })
    expect(done.body.logs.at(-1)).toBe('Deployed')
    expect(sim.deployments.get(triggered.body.statusId)?.projectId).toBe('proj_123')
    expect((await call(sim, 'GET', '/v1/project/update-status/nope')).status).toBe(404)
  })

  test('failure with summary and an error line; per-project commit and logs; unknown status near the end', async () => {
    const clock = fakeClock()
    const sim = await start({
      now: clock.now,
      deployment: {
        durationMs: 1000,
        queuedMs: 0,
        byProject: {
          broken: { failWith: 'mdx: unexpected token in docs/index.mdx', logs: ['one', 'two'] },
          other: { commit: { sha: 'abc123', filesChanged: { added: [], modified: ['a.mdx'], removed: [] } } },
          slow: { extraStatus: 'verifying' }
        }
      }
    })
    const ids = await Promise.all(
      ['broken', 'other', 'slow'].map(async (project) => {
        const { body } = await call(sim, 'POST', `/v1/project/update/${project}`)
        return body.statusId as string
      })
    )
    const read = async (id: string | undefined) => (await call(sim, 'GET', `/v1/project/update-status/${id}`)).body
    clock.advance(900)
    expect((await read(ids[2])).status).toBe('verifying')
    clock.advance(100)
    const [broken, other, slow] = [await read(ids[0]), await read(ids[1]), await read(ids[2])]
    expect(broken).toMatchObject({ status: 'failure', summary: 'mdx: unexpected token in docs/index.mdx' })
    expect(broken.logs.slice(1)).toEqual(['one', 'two', 'Error: mdx: unexpected token in docs/index.mdx'])
    expect(other.commit).toEqual({
      ...DEFAULT_DEPLOYED_COMMIT,
      sha: 'abc123',
      filesChanged: { added: [], modified: ['a.mdx'], removed: [] }
    })
    expect(slow.status).toBe('success')
  })

  test('faults apply to both routes; with process the deployment is triggered though the answer is a 500', async () => {
    const sim = await start()
    sim.addFault({ route: 'deploy-trigger', status: 500, process: true })
    sim.addFault({ route: 'deploy-status', status: 503, retryAfter: '2' })
    expect((await call(sim, 'POST', '/v1/project/update/proj_123')).status).toBe(500)
    expect(sim.deployments.size).toBe(1)
    const [id] = sim.deployments.keys()
    const busy = await call(sim, 'GET', `/v1/project/update-status/${id}`)
    expect([busy.status, busy.headers.get('retry-after')]).toEqual([503, '2'])
    expect((await call(sim, 'GET', `/v1/project/update-status/${id}`)).status).toBe(200)
    expect(
      (await call(sim, 'POST', '/v1/project/update/proj_123', undefined, { authorization: 'Bearer x' })).status
    ).toBe(401)
    expect(sim.requests.map((r) => r.route)).toEqual([
      'deploy-trigger',
      'deploy-status',
      'deploy-status',
      'deploy-trigger'
    ])
  })
})

// ---------------------------------------------------------------------------------------------
// automations

describe('automations', () => {
  const triggerPath = (project: string, automation: string) => `/v1/workflow/${project}/${automation}/trigger`

  test('an active automation on a custom schedule runs: 202 {schemaId, instanceId, jobId}, kept', async () => {
    const clock = fakeClock()
    const sim = await start({ now: clock.now })
    const triggered = await call(sim, 'POST', triggerPath('proj_123', 'wf_changelog'))
    expect(triggered).toMatchObject({
      status: 202,
      body: {
        schemaId: 'wf_changelog',
        instanceId: expect.stringMatching(/^[0-9a-f]{24}$/),
        jobId: expect.stringMatching(/^[0-9a-f]{24}$/)
      }
    })
    expect(sim.automationRuns).toEqual([{ projectId: 'proj_123', ...triggered.body, at: Date.UTC(2025, 0, 1) }])
    expect(sim.requests.map((r) => r.route)).toEqual(['automation-trigger'])
  })

  test('refusals: 404 for another project or id, 400 inactive, not custom, or malformed', async () => {
    const sim = await start({
      automation: {
        byProject: { proj_a: { auto_1: {}, auto_off: { active: false }, auto_push: { customSchedule: false } } }
      }
    })
    const answer = async (project: string, automation: string) => {
      const { status, body } = await call(sim, 'POST', triggerPath(project, automation))
      return [status, body.error]
    }
    expect(await answer('proj_a', 'auto_1')).toEqual([202, undefined])
    expect(await answer('proj_123', 'auto_1')).toEqual([404, 'Automation not found in this project'])
    expect(await answer('proj_a', 'wf_changelog')).toEqual([404, 'Automation not found in this project'])
    expect(await answer('proj_a', 'auto_off')).toEqual([400, 'Automation is not active'])
    expect(await answer('proj_a', 'auto_push')).toEqual([400, 'Automation is not on a custom schedule'])
    expect(await answer('proj_a', 'auto.1')).toEqual([400, 'Invalid automation id'])
    expect(sim.automationRuns).toHaveLength(1)
  })

  test('10 triggers in 10 s, deployments and automations alike; the 11th gets 429, Retry-After', async () => {
    const clock = fakeClock()
    const sim = await start({ now: clock.now })
    const deploy = () => call(sim, 'POST', '/v1/project/update/proj_123')
    const automation = () => call(sim, 'POST', triggerPath('proj_123', 'wf_changelog'))
    // One a second, one of each in turn.
    for (let i = 0; i < 10; i++) {
      if (i > 0) clock.advance(1000)
      expect((await (i % 2 === 0 ? deploy : automation)()).status).toBe(202)
    }
    // The oldest of the ten came 9 s ago: it leaves the window in 1 s; a refusal takes no place.
    for (const refused of [await deploy(), await automation()]) {
      expect([refused.status, refused.headers.get('retry-after'), refused.body.error]).toEqual([
        429,
        '1',
        'Too many requests: at most 10 deployment and automation triggers in 10 s per organization'
      ])
    }
    clock.advance(1000)
    expect((await automation()).status).toBe(202)
    expect((await deploy()).status).toBe(429)
    // A key the service does not know takes no place either.
    clock.advance(1000)
    expect(
      (await call(sim, 'POST', '/v1/project/update/proj_123', undefined, { authorization: 'Bearer x' })).status
    ).toBe(401)
    expect((await deploy()).status).toBe(202)
    expect([sim.deployments.size, sim.automationRuns.length]).toEqual([6, 6])
  })
})

// ---------------------------------------------------------------------------------------------
// GitHub fake

describe('GitHub REST fake', () => {
  test('reactions and comments, auth, recorded routes', async () => {
    const sim = await start()
    const post = (path: string, body: unknown, auth?: string): Promise<Response> =>
      fetch(`${sim.githubApiUrl}${path}`, {
        method: 'POST',
        headers: auth
          ? { authorization: auth, 'content-type': 'application/json' }
          : { 'content-type': 'application/json' },
        body: JSON.stringify(body)
      })
    expect((await post('/repos/acme/docs/issues/comments/11/reactions', { content: 'eyes' })).status).toBe(401)

    const r1 = await post('/repos/acme/docs/issues/comments/11/reactions', { content: 'eyes' }, 'token ghs_abc')
    expect(r1.status).toBe(201)
    expect(await r1.json()).toMatchObject({ id: expect.any(Number), content: 'eyes' })
    expect(
      (await post('/repos/acme/docs/pulls/comments/12/reactions', { content: 'rocket' }, 'Bearer ghs_abc')).status
    ).toBe(201)
    expect(
      (await post('/repos/acme/docs/pulls/comments/12/reactions', { content: 'nope' }, 'Bearer ghs_abc')).status
    ).toBe(422)

    const c = await post('/repos/acme/docs/issues/7/comments', { body: 'Started job_abc' }, 'token ghs_abc')
    expect(c.status).toBe(201)
    const comment = (await c.json()) as { id: number; html_url: string; body: string }
    expect(comment.body).toBe('Started job_abc')
    expect(comment.html_url).toBe(`https://github.com/acme/docs/issues/7#issuecomment-${comment.id}`)
    const reply = await post('/repos/acme/docs/pulls/7/comments/12/replies', { body: 'done' }, 'token ghs_abc')
    expect(reply.status).toBe(201)
    expect(await reply.json()).toMatchObject({ body: 'done', in_reply_to_id: 12 })

    expect((await post('/repos/acme/docs/unknown', {}, 'token ghs_abc')).status).toBe(404)
    expect(sim.count('github-reaction')).toBe(4)
    expect(sim.count('github-comment')).toBe(2)
    expect(sim.requests.filter((r) => r.origin === 'github')).toHaveLength(7)
    expect(sim.requests[1]).toMatchObject({ route: 'github-reaction', body: { content: 'eyes' }, status: 201 })
  })

  test('permissions per user, comments paged by Link headers, edits, repos the token may not write to', async () => {
    const sim = await start({ github: { permissions: { octocat: 'maintain' }, writableRepos: ['acme/docs'] } })
    const gh = (method: string, path: string, body?: unknown): Promise<Response> =>
      fetch(`${sim.githubApiUrl}${path}`, {
        method,
        headers: { authorization: 'token ghs_abc', 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body)
      })
    expect(await (await gh('GET', '/repos/acme/docs/collaborators/octocat/permission')).json()).toMatchObject({
      permission: 'write',
      role_name: 'maintain'
    })
    expect(await (await gh('GET', '/repos/acme/docs/collaborators/someone/permission')).json()).toMatchObject({
      permission: 'read',
      role_name: 'read'
    })

    for (let i = 0; i < 5; i++) sim.github.addComment('acme/docs', 9, `c${i}`)
    const first = await gh('GET', '/repos/acme/docs/issues/9/comments?per_page=2&page=1')
    expect(((await first.json()) as Array<{ body: string }>).map((c) => c.body)).toEqual(['c0', 'c1'])
    expect(first.headers.get('link')).toMatch(
      new RegExp(
        /<http:\/\/127\.0\.0\.1:\d+\/github-api\/repos\/acme\/docs\/issues\/9\/comments\?per_page=2&page=2>/.source +
          /; rel="next", <[^>]+page=3>; rel="last"/.source
      )
    )
    const last = await gh('GET', '/repos/acme/docs/issues/9/comments?per_page=2&page=3')
    expect(((await last.json()) as Array<{ body: string }>).map((c) => c.body)).toEqual(['c4'])
    expect(last.headers.get('link')).toBeNull()

    const posted = (await (await gh('POST', '/repos/acme/docs/issues/9/comments', { body: 'working' })).json()) as {
      id: number
      user: { type: string }
    }
    expect(posted.user).toEqual({ login: 'github-actions[bot]', type: 'Bot' })
    expect((await gh('PATCH', `/repos/acme/docs/issues/comments/${posted.id}`, { body: 'done' })).status).toBe(200)
    expect(sim.github.thread('acme/docs', 9).comments.at(-1)).toMatchObject({
      body: 'done',
      history: ['working', 'done']
    })
    expect((await gh('PATCH', '/repos/acme/docs/issues/comments/999999', { body: 'x' })).status).toBe(404)
    expect((await gh('POST', '/repos/acme/handbook/issues/1/comments', { body: 'x' })).status).toBe(403)
  })
})
