// `npm run demo -- serve`: the demo's site served as a static host serves an export. Its pages are named
// `guides/start.html` for the address `/guides/start`, which `python3 -m http.server` does not map: here
// `/guides/start` is `guides/start.html`, or `guides/start/index.html` (after a redirect to `/guides/start/`, so
// that the page's relative links resolve as on a host). On 127.0.0.1 only; nothing outside the site is served.
import { createReadStream } from 'node:fs'
import { realpath, stat } from 'node:fs/promises'
import { type Server, createServer } from 'node:http'
import * as path from 'node:path'

export type Resolution = { file: string } | { redirect: string } | undefined

/**
 * What a static host answers for `urlPath` (the request's path, still percent-encoded) from the site in `root`:
 * the file to send, a redirect to the folder's address, or nothing (404). A path that leaves the site, also by a
 * symlink, is nothing.
 */
export async function resolveRequest(root: string, urlPath: string): Promise<Resolution> {
  let decoded: string
  try {
    decoded = decodeURIComponent(urlPath.split('?')[0] ?? '')
  } catch {
    return undefined
  }
  if (decoded.includes('\0')) return undefined
  // Normalised from the root, `..` cannot climb above it.
  const relative = path.posix.normalize(`/${decoded}`).slice(1)
  const base = path.join(root, ...relative.split('/').filter((name) => name !== ''))
  const folderAddress = decoded.endsWith('/') || relative === ''
  const candidates = folderAddress ? [path.join(base, 'index.html')] : [base, `${base}.html`]
  for (const candidate of candidates) if (await isSiteFile(root, candidate)) return { file: candidate }
  if (!folderAddress && (await isSiteFile(root, path.join(base, 'index.html'))))
    return { redirect: `/${relative.split('/').map(encodeURIComponent).join('/')}/` }
  return undefined
}

/** Whether `file` is a file whose real path is inside the site's real folder. */
async function isSiteFile(root: string, file: string): Promise<boolean> {
  const info = await stat(file).catch(() => undefined)
  if (info?.isFile() !== true) return false
  const [site, real] = await Promise.all([realpath(root), realpath(file)])
  return real.startsWith(`${site}${path.sep}`)
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.ico': 'image/x-icon',
  '.txt': 'text/plain; charset=utf-8',
  '.xml': 'application/xml',
  '.woff2': 'font/woff2'
}

/** Serves the site in `root` on 127.0.0.1:`port` (0: any free port); a missing page gets the site's 404.html. */
export async function serveSite(root: string, port: number): Promise<{ server: Server; url: string }> {
  const server = createServer((request, response) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      response.writeHead(405, { allow: 'GET, HEAD' }).end()
      return
    }
    void (async () => {
      const found = await resolveRequest(root, request.url ?? '/')
      if (found !== undefined && 'redirect' in found) {
        response.writeHead(301, { location: found.redirect }).end()
        return
      }
      const missing = path.join(root, '404.html')
      const file = found?.file ?? ((await isSiteFile(root, missing)) ? missing : undefined)
      if (file === undefined) {
        response.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('Not found\n')
        return
      }
      const type = TYPES[path.extname(file).toLowerCase()] ?? 'application/octet-stream'
      response.writeHead(found === undefined ? 404 : 200, { 'content-type': type })
      if (request.method === 'HEAD') response.end()
      else
        createReadStream(file)
          .on('error', () => response.destroy())
          .pipe(response)
    })().catch(() => response.destroy())
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(port, '127.0.0.1', () => resolve())
  })
  const address = server.address()
  const bound = typeof address === 'object' && address !== null ? address.port : port
  return { server, url: `http://127.0.0.1:${bound}/` }
}
