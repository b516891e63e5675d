/**
 * A forward proxy as a self-hosted runner meets it (HTTP_PROXY, HTTPS_PROXY), and the names this
 * machine resolves. The proxy answers CONNECT (which @actions/http-client's agents send for http
 * and https alike) with a tunnel, resolving host names by its own table: the proxy-only DNS of a
 * locked-down runner, where the runner itself resolves other names or none. It records what it was
 * asked to reach and how many tunnels are open.
 */
import type { LookupAddress, lookup as systemLookup } from 'node:dns'
import { type Server, createServer } from 'node:http'
import { type AddressInfo, type Socket, connect } from 'node:net'

export interface TestProxy {
  /** `http://127.0.0.1:<port>`, for HTTP_PROXY and HTTPS_PROXY. */
  url: string
  /** Every CONNECT target asked for, `host:port`, in order. */
  readonly connects: string[]
  /** Tunnels whose client side is still open. */
  openTunnels(): number
  close(): Promise<void>
}

/** A CONNECT proxy on 127.0.0.1 that reaches the names in `names` at their address, any other host as it is. */
export async function startProxy(names: Record<string, string> = {}): Promise<TestProxy> {
  const connects: string[] = []
  const tunnels = new Set<Socket>()
  const server: Server = createServer((_request, response) => response.writeHead(405).end())
  server.on('connect', (request, client: Socket, head: Buffer) => {
    connects.push(request.url ?? '')
    tunnels.add(client)
    client.on('close', () => tunnels.delete(client))
    let target: URL
    try {
      target = new URL(`http://${request.url ?? ''}`)
    } catch {
      // `CONNECT ::1:80`, say: no host:port a proxy can read.
      client.end('HTTP/1.1 400 Bad Request\r\n\r\n')
      return
    }
    const upstream = connect(
      Number(target.port),
      names[target.hostname] ?? target.hostname.replace(/^\[(.*)\]$/, '$1'),
      () => {
        client.write('HTTP/1.1 200 Connection Established\r\n\r\n')
        upstream.write(head)
        upstream.pipe(client)
        client.pipe(upstream)
      }
    )
    upstream.on('error', () => client.destroy())
    upstream.on('close', () => client.destroy())
    client.on('error', () => upstream.destroy())
    client.on('close', () => upstream.destroy())
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    connects,
    openTunnels: () => tunnels.size,
    close: () => {
      for (const tunnel of tunnels) tunnel.destroy()
      return new Promise<void>((resolve) => server.close(() => resolve()))
    }
  }
}

/**
 * Runs `body` with HTTP_PROXY and HTTPS_PROXY set to `proxy` (and no NO_PROXY), as a runner's
 * environment sets them; puts back what was there after.
 */
export async function throughProxy<T>(proxy: TestProxy, body: () => Promise<T>): Promise<T> {
  const names = ['HTTP_PROXY', 'HTTPS_PROXY', 'http_proxy', 'https_proxy', 'NO_PROXY', 'no_proxy']
  const saved = names.map((name) => [name, process.env[name]] as const)
  for (const name of names) delete process.env[name]
  process.env.HTTP_PROXY = proxy.url
  process.env.HTTPS_PROXY = proxy.url
  try {
    return await body()
  } finally {
    for (const [name, value] of saved) {
      if (value === undefined) delete process.env[name]
      else process.env[name] = value
    }
  }
}

/**
 * This machine's resolver, as far as a test's host names go: these names resolve, any other fails
 * with ENOTFOUND. It answers as a lookup with `{ all: true }` does, the only way the action asks.
 */
export function resolverOf(names: Record<string, string>): typeof systemLookup {
  const lookup = (
    hostname: string,
    options: unknown,
    callback: (error: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void
  ): void => {
    const address = names[hostname]
    if (address === undefined) {
      const error: NodeJS.ErrnoException = new Error(`getaddrinfo ENOTFOUND ${hostname}`)
      error.code = 'ENOTFOUND'
      return callback(error, [])
    }
    callback(null, [{ address, family: address.includes(':') ? 6 : 4 }])
  }
  return lookup as typeof systemLookup
}
