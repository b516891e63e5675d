/**
 * The host of an address as a name or an address: an IPv6 address without the brackets a URL
 * writes it in, a name without the root's dot (`localhost.` is `localhost`, and is judged as it).
 */
export function hostOf(url: URL): string {
  return url.hostname.replace(/^\[(.*)\]$/, '$1').replace(/\.$/, '')
}
