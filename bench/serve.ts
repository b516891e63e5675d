/**
 * A minimal "object storage" for the download benchmark: serves one file at an unguessable path
 * over loopback, like a presigned link (GET, Content-Length, no Authorization), streamed from
 * disk so the parent process stays small whatever the bundle size.
 *
 * Why not the simulator's storage: it serves from a Buffer and computes an MD5 ETag of the whole
 * archive on every request before the first byte, a serial delay every tool would pay, which
 * would pull each ratio towards 1.
 */
import { randomBytes } from 'node:crypto'
import { createReadStream } from 'node:fs'
import { stat } from 'node:fs/promises'
import http from 'node:http'
import type { AddressInfo } from 'node:net'

export interface FileServer {
  url: string
  close(): Promise<void>
}

export async function serveFile(file: string): Promise<FileServer> {
  const size = (await stat(file)).size
  const path = `/bundles/${randomBytes(8).toString('hex')}/site.tar.gz`
  const server = http.createServer((req, res) => {
    if (req.method !== 'GET' || req.url?.split('?')[0] !== path) {
      res.writeHead(404).end()
      return
    }
    res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': String(size) })
    createReadStream(file, { highWaterMark: 1024 * 1024 }).pipe(res)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}${path}?X-Amz-Signature=${randomBytes(32).toString('hex')}`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      })
  }
}
