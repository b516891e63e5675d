/**
 * A fake documentation service for the download benchmark: the three export calls answered at
 * once (start -> completed on the first status poll -> bundle link), and a separate "storage"
 * origin serving the bundle file behind a presigned-style link (GET, Content-Length, no
 * Authorization), streamed from disk.
 *
 * Why not the simulator: its storage serves a Buffer (a 1 GiB bundle would sit in the parent's
 * memory) and hashes the whole archive for an ETag before the first byte of every download, a
 * serial delay that would land in the action's time and the baselines' alike and pull every
 * ratio towards 1. The simulator remains the reference for the API's behaviour; this answers
 * only the happy path, as fast as a local server can.
 *
 * The storage serves over loopback, or over a paced link (bench/link.ts) that every tool shares.
 *
 * Every request is recorded with its arrival time (performance.now() of this process, the same
 * clock the runs are timed with), so a run can be checked (one download, no retries) and the
 * action's time before its download can be reported.
 */
import { randomBytes } from 'node:crypto'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { type PacedLink, sendFile } from './link.js'

export const API_KEY = 'dsk_bench_0123456789abcdef'
const JOBS = '/v1/static-export/jobs'

export type Route = 'export-start' | 'export-status' | 'export-bundle' | 'download' | 'unknown'

export interface Recorded {
  route: Route
  at: number
}

export interface FakeService {
  apiUrl: string
  /** The presigned-style link; baselines fetch it as is. */
  bundleUrl: string
  requests: Recorded[]
  close(): Promise<void>
}

/** `link`: how the storage sends the bundle (bench/link.ts); loopback when undefined. The API answers at once. */
export async function startService(
  bundle: {
    file: string
    sizeBytes: number
    pages: number
    extension: string
  },
  link?: PacedLink
): Promise<FakeService> {
  const requests: Recorded[] = []
  const record = (route: Route): void => void requests.push({ route, at: performance.now() })
  const bundlePath = `/bundles/${randomBytes(8).toString('hex')}/site.${bundle.extension}`
  const signature = randomBytes(32).toString('hex')
  let jobs = 0

  const storage = await listen((req, res) => {
    const url = new URL(req.url ?? '/', 'http://storage.invalid')
    const valid =
      req.method === 'GET' && url.pathname === bundlePath && url.searchParams.get('X-Amz-Signature') === signature
    // Storage refuses a second auth mechanism: an Authorization header here is a leaked API key.
    if (!valid || req.headers.authorization !== undefined) {
      record('unknown')
      res
        .writeHead(req.headers.authorization === undefined ? 403 : 400, { 'content-type': 'application/xml' })
        .end('<Error><Code>AccessDenied</Code></Error>')
      return
    }
    record('download')
    sendFile(res, bundle.file, bundle.sizeBytes, link).catch(() => res.destroy())
  })
  const presigned = 'X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Expires=900'
  const bundleUrl = `${storage.url}${bundlePath}?${presigned}&X-Amz-Signature=${signature}`

  const api = await listen((req, res) => {
    const send = (status: number, body: unknown): void =>
      void res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body))
    // The body is drained before answering, as a real server would read it.
    req.resume()
    req.on('end', () => {
      const path = new URL(req.url ?? '/', 'http://api.invalid').pathname
      const id = path.slice(JOBS.length + 1).split('/')[0] ?? ''
      if (req.headers.authorization !== `Bearer ${API_KEY}`) {
        record('unknown')
        return send(401, { error: 'invalid API key' })
      }
      if (req.method === 'POST' && path === JOBS) {
        record('export-start')
        return send(202, { jobId: `exp_bench_${++jobs}`, status: 'queued' })
      }
      if (req.method === 'GET' && path === `${JOBS}/${id}`) {
        record('export-status')
        return send(200, { jobId: id, status: 'completed', progress: 100, pageCount: bundle.pages })
      }
      if (req.method === 'POST' && path === `${JOBS}/${id}/bundle`) {
        record('export-bundle')
        return send(200, {
          jobId: id,
          bundleUrl,
          expiresAt: new Date(Date.now() + 15 * 60_000).toISOString(),
          sizeBytes: bundle.sizeBytes
        })
      }
      record('unknown')
      send(404, { error: 'not found' })
    })
  })

  return {
    apiUrl: api.url,
    bundleUrl,
    requests,
    close: async () => void (await Promise.all([api.close(), storage.close()]))
  }
}

async function listen(handler: http.RequestListener): Promise<{ url: string; close(): Promise<void> }> {
  const server = http.createServer(handler)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      })
  }
}
