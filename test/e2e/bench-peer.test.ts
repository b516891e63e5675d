// The benchmark's peer (bench/peer/: what an action author would write with @actions/tool-cache)
// must do the job it is timed on, started as the benchmark starts it: inputs from its action.yml as
// INPUT_*, one download of the link, the site unpacked into `path`, its output set; a failed
// download must fail the step, or a broken peer could look fast.
import { execFileSync, spawn } from 'node:child_process'
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals'
import { runnerEnv } from '../../bench/action-env.js'
import { PEER_ACTION_YML } from '../../bench/peer-build.js'
import { ZipWriter } from '../../bench/zip-writer.js'
import { parseOutputFile } from '../support/runner.js'

const ROOT = fileURLToPath(new URL('../..', import.meta.url))
const PEER_SOURCE = join(ROOT, 'bench', 'peer', 'index.ts')
const SITE: Record<string, string> = {
  'index.html': '<a href="guides/start.html">Start</a>',
  'guides/start.html': '<h1>Start</h1>',
  'assets/logo.svg': '<svg/>'
}

let root: string
let server: http.Server
let base: string
const downloads: string[] = []

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'bench-peer-'))
  const site = join(root, 'source')
  for (const [name, content] of Object.entries(SITE)) {
    await mkdir(join(site, name, '..'), { recursive: true })
    await writeFile(join(site, name), content)
  }
  execFileSync('tar', ['-czf', join(root, 'site.tar.gz'), '-C', site, '.'])
  const zip = new ZipWriter(join(root, 'site.zip'), new Date('2024-01-01T00:00:00Z'))
  for (const [name, content] of Object.entries(SITE)) await zip.add(name, Buffer.from(content))
  await zip.finish()
  server = http.createServer((req, res) => {
    const name = new URL(req.url ?? '/', 'http://storage.invalid').pathname.slice(1)
    downloads.push(name)
    readFile(join(root, name)).then(
      (body) => res.writeHead(200, { 'content-length': String(body.length) }).end(body),
      () => res.writeHead(404).end()
    )
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve))
  await rm(root, { recursive: true, force: true })
})

/** Runs the peer's source (through tsx) as the benchmark runs its bundle: the runner's environment. */
async function runPeer(
  name: string,
  inputs: Record<string, string>
): Promise<{ code: number | null; stdout: string; outputs: Record<string, string>; site: string }> {
  const dir = join(root, name)
  const site = join(dir, 'site')
  const { env, outputFile } = await runnerEnv(
    { ...inputs, path: site },
    { folder: dir, temp: join(dir, 'runner-temp'), workspace: dir },
    PEER_ACTION_YML
  )
  const child = spawn(process.execPath, ['--import', 'tsx', PEER_SOURCE], { cwd: ROOT, env })
  let stdout = ''
  child.stdout.setEncoding('utf8').on('data', (s: string) => (stdout += s))
  child.stderr.setEncoding('utf8').on('data', (s: string) => (stdout += s))
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve))
  return { code, stdout, outputs: parseOutputFile(await readFile(outputFile, 'utf8')), site }
}

async function expectSite(site: string): Promise<void> {
  for (const [name, content] of Object.entries(SITE)) expect(await readFile(join(site, name), 'utf8')).toBe(content)
}

describe('the tool-cache peer of the unpack benchmark', () => {
  test('unpacks a tar.gz (its action.yml default format) with one download, and names the site', async () => {
    downloads.length = 0
    const run = await runPeer('tar', { url: `${base}/site.tar.gz` })
    expect(run.code).toBe(0)
    expect(downloads).toEqual(['site.tar.gz'])
    expect(run.outputs['site-path']).toBe(run.site)
    await expectSite(run.site)
  }, 30_000)

  test('unpacks a zip with one download', async () => {
    downloads.length = 0
    const run = await runPeer('zip', { url: `${base}/site.zip`, format: 'zip' })
    expect(run.code).toBe(0)
    expect(downloads).toEqual(['site.zip'])
    await expectSite(run.site)
  }, 30_000)

  test('fails the step when the link answers 404', async () => {
    const run = await runPeer('missing', { url: `${base}/missing.tar.gz` })
    expect(run.code).toBe(1)
    expect(run.stdout).toContain('::error::Unexpected HTTP response: 404')
  }, 30_000)
})
