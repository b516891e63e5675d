/** A presigned bundle link: its secrets, its printable form, its expiry. */
import type { BundleLink } from '../service/export-api.js'

/**
 * Query parameters that carry a presigned link's credentials (S3, GCS, Azure SAS and the
 * simulator). Their values are secrets: anyone holding them can download the bundle.
 */
const SIGNATURE_PARAMS = /^(x-amz-signature|x-amz-security-token|x-amz-credential|x-goog-signature|x-goog-credential|signature|sig|token|se|sp|sv)$/i

/**
 * Registers the link's signature values as secrets, so that the runner masks them wherever they
 * would appear in the log, including in the whole URL when a user prints the `bundle-url` output.
 */
export function maskLinkSecrets(url: string, setSecret: (value: string) => void): void {
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    return
  }
  for (const [name, value] of parsed.searchParams) {
    if (SIGNATURE_PARAMS.test(name) && value !== '') {
      setSecret(value)
      // The masker matches text as printed: the raw and the encoded spellings may both appear.
      const encoded = encodeURIComponent(value)
      if (encoded !== value) setSecret(encoded)
    }
  }
}

/** The link without its query: safe to print in any log line. */
export function describeLink(url: string): string {
  try {
    const parsed = new URL(url)
    return `${parsed.origin}${parsed.pathname}`
  } catch {
    return '(unreadable link)'
  }
}

/** True when the link's expiry has passed, or passes within `marginMs`. */
export function isExpired(link: BundleLink, nowMs: number, marginMs = 0): boolean {
  return link.expiresAt !== undefined && link.expiresAt.getTime() - marginMs <= nowMs
}
