/**
 * The secrets a link carries (a presigned bundle link's signature, token, credential; its whole
 * query; a password in the address; a path segment that looks like a credential, a JWT say),
 * found by parsing the link, wherever it appears and however
 * it is spelled: as it stands, JSON-escaped (`http:\/\/…`, `\u0026`), percent-encoded (a link
 * inside another link), with any scheme (`s3://`, `gs://`). Each is registered in every spelling
 * the log, a summary or an answer may show it in, so that it is masked before anything prints it.
 * Pure, but for the registering.
 */

/**
 * Query parameters whose values let anyone holding them download the bundle: by name (S3, GCS,
 * Azure SAS, CloudFront, OSS, COS `q-signature`, B2 `Authorization`, the simulator) and by what
 * the name says (any `…signature`, `…token`, `…credential`, `…secret`). The others (version,
 * expiry, permissions such as `sp=r`, key ids) are no secret, and masking a short value would
 * cut it out of every log line. The whole query is masked as well.
 */
const SECRET_PARAMS = /^(?:sig|authorization)$|signature|token|credential|secret/i

/** Shorter values are no signature, and masked they would blank out common words everywhere. */
const MIN_SECRET_LENGTH = 8

/**
 * A part of a path segment that may be a credential (a share token, a signature, a JWT's part): 24
 * or more characters of letters, digits and the marks of base64 and of hex ids, with a digit and a
 * letter among them.
 */
const TOKEN_PART = /^(?=.*\d)(?=.*[a-z])[\w~+=-]{24,}$/i
/** A JWT's header or claims: base64url of a JSON object, which starts `{"`. */
const JWT_PART = /^eyJ[\w-]{13,}$/
/** A file name's extension (`gz` of `site.tar.gz`): short letters and digits after a dot. */
const EXTENSION = /^[a-z\d]{1,5}$/i

/**
 * Whether a path segment (decoded) may be a credential: a token (see TOKEN_PART), or parts joined
 * by dots one of which is a token or a JWT's (a JWT: `eyJ….eyJ….<signature>`). A file name is none,
 * whatever its stem (`site.tar.gz`, `3f2a….zip`): a name and extensions is what a file is called.
 */
export function isCredentialSegment(segment: string): boolean {
  const parts = segment.split('.')
  while (parts.length > 1 && EXTENSION.test(parts.at(-1) ?? '')) parts.pop()
  if (parts.length === 1) return TOKEN_PART.test(segment)
  return parts.every((part) => /^[\w~+=-]*$/.test(part)) && parts.some((p) => TOKEN_PART.test(p) || JWT_PART.test(p))
}

/**
 * A link with a scheme, up to what ends it in text (white space, quotes, brackets, a backslash). The
 * scheme's length is bounded, so that a long run of letters costs linear time, not quadratic.
 */
const LINK = /[a-z][a-z0-9+.-]{0,31}:\/\/[^\s"'<>`\\]+/gi

/**
 * Registers the secrets of `url` (see the module's comment) with `add`, in every spelling: as
 * the value stands in the URL (a raw `+` included), decoded, encoded again, with lower-case
 * percent escapes, and each of those JSON-escaped and percent-encoded once more.
 */
export function maskLinkSecrets(url: string, add: (secret: string) => void): void {
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    return
  }
  const values = new Set<string>()
  // The whole query (and a fragment's, where some links carry tokens): a signature under a name
  // not listed above is still inside it.
  for (const part of [parsed.search, parsed.hash]) {
    const query = part.replace(/^[?#]/, '')
    if (query === '') continue
    values.add(query)
    values.add(decodeOrNot(query))
    for (const pair of query.split('&')) {
      const at = pair.indexOf('=')
      if (at <= 0 || !SECRET_PARAMS.test(decodeOrNot(pair.slice(0, at)))) continue
      const raw = pair.slice(at + 1)
      const decoded = decodeOrNot(raw)
      const encoded = encodeURIComponent(decoded)
      for (const value of [raw, decoded, encoded, lowerEscapes(raw), lowerEscapes(encoded)]) values.add(value)
    }
  }
  // A credential in the path (`/dl/<jwt>/site.tar.gz`), as it stands and decoded.
  for (const segment of parsed.pathname.split('/')) {
    if (isCredentialSegment(decodeOrNot(segment)))
      for (const value of [segment, decodeOrNot(segment)]) values.add(value)
  }
  // A password in the address (`https://user:password@host/`).
  if (parsed.password !== '') for (const value of [parsed.password, decodeOrNot(parsed.password)]) values.add(value)
  const spellings = new Set<string>()
  for (const value of values) for (const spelling of spellingsOf(value)) spellings.add(spelling)
  for (const spelling of spellings) if (spelling.length >= MIN_SECRET_LENGTH) add(spelling)
}

/**
 * Registers the secrets of every link in `text` (an answer's body, whole or cut, JSON or not),
 * however the link is spelled there: as it stands, JSON-escaped, percent-encoded.
 */
export function maskLinksIn(text: string, add: (secret: string) => void): void {
  if (!/(?::|%3a)(?:\/|\\\/|%2f)/i.test(text)) return
  const unescaped = jsonUnescaped(text)
  for (const variant of new Set([text, unescaped, percentDecoded(text), percentDecoded(unescaped)])) {
    for (const [link] of variant.matchAll(LINK)) maskLinkSecrets(link, add)
  }
}

/**
 * `text` with the query, fragment and credentials of every link cut off, in any of the spellings
 * above: for a preview of someone else's text, where a link may be cut short (a secret of it only
 * partly there, which no masking knows).
 */
export function withoutLinkSecrets(text: string): string {
  return text.replace(LINK_IN_ANY_SPELLING, (link: string, start: string, authority: string, path: string) => {
    const host = authority.replace(/^.*(?:@|%40)/i, '')
    const rest = link.length > start.length + authority.length + path.length
    return `${start}${host}${path}${rest ? '?…' : ''}`
  })
}

/**
 * A link in any spelling: its scheme and `//` (`$1`, also `\/\/` and `%2F%2F`), its authority
 * (`$2`, credentials included), its path (`$3`, with escaped slashes), then anything up to where
 * text ends it: the query, the fragment, or what a cut left.
 */
const LINK_IN_ANY_SPELLING = new RegExp(
  [
    String.raw`([a-z][a-z0-9+.-]{0,31}(?::|%3a)(?:\/\/|\\\/\\\/|%2f%2f))`,
    String.raw`([^\s"'<>${'`'}\\/?#%]*(?:%40[^\s"'<>${'`'}\\/?#%]*)?)`,
    String.raw`((?:(?:\/|\\\/|%2f)[^\s"'<>${'`'}\\/?#&%]*)*)`,
    String.raw`[^\s"'<>${'`'}]*`
  ].join(''),
  'gi'
)

/** A value as it may appear: itself, JSON-escaped (`/` as `\/` too, `&<>=` as `\u00xx`), percent-encoded. */
function spellingsOf(value: string): string[] {
  const json = JSON.stringify(value).slice(1, -1)
  const escapedSlashes = json.replace(/\//g, '\\/')
  const unicode = escapedSlashes.replace(/[&<>=]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)
  return [value, json, escapedSlashes, unicode, encodeURIComponent(value), lowerEscapes(encodeURIComponent(value))]
}

/** JSON's escapes undone where they stand (`\/`, `\uXXXX`, `\\`), in text that need not be whole JSON. */
function jsonUnescaped(text: string): string {
  return text.replace(/\\(?:u([0-9a-fA-F]{4})|([\\/"]))/g, (_, hex: string | undefined, plain: string | undefined) =>
    hex === undefined ? (plain ?? '') : String.fromCharCode(parseInt(hex, 16))
  )
}

/** Every run of percent escapes decoded where it stands (a run that does not decode stays). */
function percentDecoded(text: string): string {
  return text.replace(/(?:%[0-9a-fA-F]{2})+/g, decodeOrNot)
}

/** `text` percent-decoded, or as it is when it is no valid percent-encoding. */
export function decodeOrNot(text: string): string {
  try {
    return decodeURIComponent(text)
  } catch {
    return text
  }
}

function lowerEscapes(text: string): string {
  return text.replace(/%[0-9A-F]{2}/g, (escape) => escape.toLowerCase())
}
