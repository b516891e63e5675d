/** A presigned bundle link: its secrets, its printable form, where it may point, its expiry. */
import { lookup as systemLookup } from 'node:dns'
import { BlockList, type LookupFunction, isIP } from 'node:net'
import { decodeOrNot, isCredentialSegment } from '../common/link-secrets.js'
import { serviceText } from '../common/text.js'
import { hostOf } from '../common/url-host.js'
import type { BundleLink } from '../service/export-api.js'

/**
 * The link without its query, credentials, and path segments that look like a credential (see
 * isCredentialSegment): safe to print in any log line. A link with no host (`file:`) is shown with its
 * scheme, not as the `null` origin the URL API gives it.
 */
export function describeLink(url: string): string {
  try {
    const parsed = new URL(url)
    const path = parsed.pathname
      .split('/')
      .map((segment) => (isCredentialSegment(decodeOrNot(segment)) ? '…' : segment))
      .join('/')
    return serviceText(`${parsed.protocol}//${parsed.host}${path}`)
  } catch {
    return '(unreadable link)'
  }
}

/** True when the link's expiry has passed. */
export function isExpired(link: BundleLink, nowMs: number): boolean {
  return link.expiresAt !== undefined && link.expiresAt.getTime() <= nowMs
}

/** Where an address leads: anywhere, or somewhere a link from outside has no business going. */
type Reach = 'public' | 'private' | 'loopback' | 'link-local' | 'reserved'

const REACHES: Array<[Exclude<Reach, 'public'>, string, BlockList]> = [
  ['loopback', 'a loopback address (this machine)', blockList(['127.0.0.0/8', '0.0.0.0/8'], ['::1/128', '::/128'])],
  [
    'link-local',
    'a link-local address (such as a cloud metadata service)',
    blockList(['169.254.0.0/16'], ['fe80::/10'])
  ],
  [
    'private',
    'a private network address',
    blockList(['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', '100.64.0.0/10'], ['fc00::/7'])
  ],
  ['reserved', 'a multicast or reserved address', blockList(['224.0.0.0/3'], ['ff00::/8'])]
]

function blockList(v4: string[], v6: string[]): BlockList {
  const list = new BlockList()
  for (const [subnets, type] of [
    [v4, 'ipv4'],
    [v6, 'ipv6']
  ] as const) {
    for (const subnet of subnets) {
      const [address = '', prefix = ''] = subnet.split('/')
      list.addSubnet(address, Number(prefix), type)
    }
  }
  return list
}

function reachOf(address: string): Reach {
  const family = isIP(address)
  if (family === 0) return 'public'
  const type = family === 4 ? 'ipv4' : 'ipv6'
  return REACHES.find(([, , list]) => list.check(address, type))?.[0] ?? 'public'
}

/**
 * Where the bundle link, and every redirect of its download, may lead. A link comes from the
 * service and is fetched from inside the runner's network, so it may not lead where `base-url`
 * does not: plain http only when `base-url` is itself plain http on a loopback host (a local
 * service), and loopback, link-local or private addresses only when `base-url` is on one.
 */
export interface LinkPolicy {
  allowHttp: boolean
  /** The non-public reaches `base-url` is on. */
  allowed: ReadonlySet<Reach>
  /** How this machine resolves host names: the system's lookup unless a test gives its own names. */
  lookup?: typeof systemLookup | undefined
}

/** The policy for links of the service at `baseUrl`; a host name counts by the addresses it resolves to. */
export async function linkPolicy(baseUrl: string, lookup: typeof systemLookup = systemLookup): Promise<LinkPolicy> {
  const url = new URL(baseUrl)
  const host = hostOf(url)
  const addresses =
    isIP(host) !== 0 || host === 'localhost'
      ? [host === 'localhost' ? '127.0.0.1' : host]
      : await resolveAll(host, lookup)
  const allowed = new Set(addresses.map(reachOf).filter((reach) => reach !== 'public'))
  return { allowHttp: url.protocol === 'http:' && allowed.has('loopback'), allowed, lookup }
}

/** Every address the name resolves to; none when it does not resolve. */
function resolveAll(host: string, lookup: typeof systemLookup): Promise<string[]> {
  return new Promise((resolve) => {
    lookup(host, { all: true }, (error, addresses) => resolve(error ? [] : addresses.map((a) => a.address)))
  })
}

/** Why the link may not be fetched, or undefined when it may. */
export function refuseLink(url: URL, policy: LinkPolicy): string | undefined {
  const where = describeLink(url.href)
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && policy.allowHttp)) {
    return (
      `Refusing to fetch the bundle from ${where}: it does not use https:// (plain http is allowed only when ` +
      `\`base-url\` is plain http on a loopback host)`
    )
  }
  const host = hostOf(url)
  return refuseAddress(host === 'localhost' || host.endsWith('.localhost') ? '127.0.0.1' : host, where, policy)
}

function refuseAddress(address: string, where: string, policy: LinkPolicy): string | undefined {
  const reach = reachOf(address)
  if (reach === 'public' || policy.allowed.has(reach)) return undefined
  const said = REACHES.find(([name]) => name === reach)?.[1] ?? reach
  return `Refusing to fetch the bundle from ${where}: it leads to ${said}, and \`base-url\` does not`
}

/**
 * Why a link fetched through a proxy may not be, judged by what its host name resolves to on this
 * machine (undefined when it may). The proxy resolves the name again and connects, so without this
 * a name of an internal address would reach it through the proxy (refuseLink sees only addresses).
 * A name that does not resolve here is left to the proxy: runners that reach the outside only
 * through a proxy often have no DNS of their own for outside names. Where it leads is then the
 * proxy's to say, as it is for a name this machine resolves otherwise than the proxy does.
 */
export async function refuseNameForProxy(url: URL, policy: LinkPolicy): Promise<string | undefined> {
  const host = hostOf(url)
  if (isIP(host) !== 0) return undefined
  const where = describeLink(url.href)
  for (const address of await resolveAll(host, policy.lookup ?? systemLookup)) {
    const refused = refuseAddress(address, where, policy)
    if (refused !== undefined) return refused
  }
  return undefined
}

/** Thrown by the guarded lookup: the host name resolved to an address the policy refuses. */
export class RefusedAddressError extends Error {
  override readonly name = 'RefusedAddressError'
}

/**
 * The policy's lookup (the system's), but a host name that resolves to a refused address fails, so that a link
 * cannot reach by name what it may not reach by address. For direct connections: through a proxy,
 * the proxy resolves the name, and refuseNameForProxy judges it before.
 */
export function guardedLookup(policy: LinkPolicy, where: string): LookupFunction {
  const lookup = policy.lookup ?? systemLookup
  return (hostname, options, callback) => {
    lookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, '', 0)
      for (const { address } of addresses) {
        const refused = refuseAddress(address, where, policy)
        if (refused !== undefined) return callback(new RefusedAddressError(refused), '', 0)
      }
      const [first] = addresses
      if (options.all) (callback as unknown as (e: null, all: typeof addresses) => void)(null, addresses)
      else callback(null, first?.address ?? '', first?.family ?? 4)
    })
  }
}
