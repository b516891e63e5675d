/**
 * What a failed attempt means: worth another try? may the service have acted on it anyway? One
 * classification, used by the retry policy and by every message that explains a failure, so the
 * two can never disagree. Pure.
 */

/**
 * How safe it is to send a request again.
 * - `idempotent`: GETs, the bundle POST (it only makes a fresh link) and downloads.
 * - `once`: requests that create something (start an export, send an agent message). They are
 *   repeated only when the service surely did not process the first one.
 */
export type RequestKind = 'idempotent' | 'once'

/**
 * What went wrong with one attempt.
 * - `network`: no status came (refused, reset, timed out before the headers).
 * - `status`: the service refused the request with an error status.
 * - `answer`: the service said yes (2xx), but its answer could not be used: cut short, too
 *   large, or not JSON. It acted on the request, so the request counts as processed.
 */
export type AttemptFailure =
  | { kind: 'network'; code: string | undefined; message: string }
  | { kind: 'status'; status: number; retryAfter?: string | undefined }
  | { kind: 'answer'; status: number; problem: string }

export interface Verdict {
  /** Another attempt may succeed, and sending one is safe for this kind of request. */
  retry: boolean
  /** The service may have acted on the request despite the failure. */
  mayHaveBeenProcessed: boolean
}

/** A request the action did not send at all (no time was left for it): it cannot have been processed. */
export const NOT_SENT = 'ENOTSENT'
/**
 * Network error codes that prove the request never reached a server: the action did not send it,
 * the connection was refused, or the host name did not resolve (no connection was even tried;
 * EAI_AGAIN is often a passing failure of the resolver).
 */
const NOT_SENT_CODES = new Set(['ECONNREFUSED', NOT_SENT, 'ENOTFOUND', 'EAI_AGAIN', 'EAI_FAIL'])

/**
 * The server's certificate was refused (node's names for OpenSSL's verification results, and its
 * own host name check). The client checks the certificate before the handshake ends, and nothing
 * of the request is sent before that: not sent. Trying again meets the same certificate.
 */
const CERTIFICATE_REFUSALS = new Set([
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_CRL',
  'UNABLE_TO_DECRYPT_CERT_SIGNATURE',
  'UNABLE_TO_DECRYPT_CRL_SIGNATURE',
  'UNABLE_TO_DECODE_ISSUER_PUBLIC_KEY',
  'CERT_SIGNATURE_FAILURE',
  'CRL_SIGNATURE_FAILURE',
  'CERT_NOT_YET_VALID',
  'CERT_HAS_EXPIRED',
  'CRL_NOT_YET_VALID',
  'CRL_HAS_EXPIRED',
  'ERROR_IN_CERT_NOT_BEFORE_FIELD',
  'ERROR_IN_CERT_NOT_AFTER_FIELD',
  'ERROR_IN_CRL_LAST_UPDATE_FIELD',
  'ERROR_IN_CRL_NEXT_UPDATE_FIELD',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'CERT_CHAIN_TOO_LONG',
  'CERT_REVOKED',
  'INVALID_CA',
  'PATH_LENGTH_EXCEEDED',
  'INVALID_PURPOSE',
  'CERT_UNTRUSTED',
  'CERT_REJECTED',
  'HOSTNAME_MISMATCH',
  'ERR_TLS_CERT_ALTNAME_INVALID',
  'ERR_TLS_CERT_ALTNAME_FORMAT'
])

/**
 * OpenSSL failures (`ERR_SSL_…`) of the handshake itself: no protocol version or cipher in common,
 * plain http where TLS was expected, an alert refusing the handshake or our (absent) certificate.
 * Not sent, and the same again on another try. Other `ERR_SSL_…` codes (a bad record, a decryption
 * failure) may come after the request went out, in the answer: they stay "may have been processed".
 */
const HANDSHAKE_FAILURE = new RegExp(
  `^ERR_SSL_(?:${[
    '.*HANDSHAKE.*',
    '.*PROTOCOL_VERSION',
    'UNSUPPORTED_PROTOCOL',
    'NO_PROTOCOLS_AVAILABLE',
    'WRONG_VERSION_NUMBER',
    '.*UNKNOWN_CA',
    '.*BAD_CERTIFICATE',
    '.*CERTIFICATE_REQUIRED',
    '.*UNRECOGNIZED_NAME',
    '.*INSUFFICIENT_SECURITY',
    '.*KEY_TOO_SMALL',
    'CA_MD_TOO_WEAK',
    'NO_SHARED_CIPHER',
    'UNSAFE_LEGACY_RENEGOTIATION_DISABLED'
  ].join('|')})$`
)

/** Whether the TLS handshake failed: the request was not sent, and another try would fail alike. */
function isTlsRefusal(code: string): boolean {
  return CERTIFICATE_REFUSALS.has(code) || HANDSHAKE_FAILURE.test(code)
}

/** Statuses that say the service did not act: it was too busy to take the request. */
const NOT_PROCESSED_TRANSIENT = new Set([429, 503])

/**
 * A redirect: the action follows none (the key goes only to `base-url`'s origin). The service
 * answered it having read the request, and may have acted on it (`303 See Other` says the result
 * is elsewhere), so a request that creates something is not sent again after one.
 */
function isRedirect(status: number): boolean {
  return status >= 300 && status < 400
}

export function classify(kind: RequestKind, failure: AttemptFailure): Verdict {
  // Asked again, the service answers again; a request that creates something would create it twice.
  if (failure.kind === 'answer') return { retry: kind === 'idempotent', mayHaveBeenProcessed: true }
  if (failure.kind === 'network') {
    const code = failure.code ?? ''
    if (isTlsRefusal(code)) return { retry: false, mayHaveBeenProcessed: false }
    const mayHaveBeenProcessed = !NOT_SENT_CODES.has(code)
    return { retry: kind === 'idempotent' || !mayHaveBeenProcessed, mayHaveBeenProcessed }
  }
  const { status } = failure
  const mayHaveBeenProcessed =
    (status >= 500 && !NOT_PROCESSED_TRANSIENT.has(status)) || status === 408 || isRedirect(status)
  const transient = status === 408 || status === 429 || (status >= 500 && status <= 599)
  return { retry: transient && (kind === 'idempotent' || !mayHaveBeenProcessed), mayHaveBeenProcessed }
}

/**
 * Whether the other side answered and said no (a 4xx but 408, a 429 included): the same request
 * gets the same answer until something changes on our side or in time. Every other failure (no
 * answer, a redirect, a 408 or 5xx, an unusable answer) is the network or the service failing.
 */
export function isRefusal(failure: AttemptFailure): boolean {
  return failure.kind === 'status' && failure.status >= 400 && failure.status < 500 && failure.status !== 408
}

export function describeFailure(failure: AttemptFailure): string {
  if (failure.kind === 'network') {
    if (failure.code === NOT_SENT) return failure.message
    if (isTlsRefusal(failure.code ?? ''))
      return `the TLS handshake failed, so nothing was sent (${failure.code}: ${failure.message})`
    return `network error${failure.code ? ` ${failure.code}` : ''}: ${failure.message}`
  }
  if (failure.kind === 'answer') return `HTTP ${failure.status} with an unusable answer: ${failure.problem}`
  return isRedirect(failure.status) ? `HTTP ${failure.status}, a redirect (not followed)` : `HTTP ${failure.status}`
}

/** How a failure that may have been processed happened, for the "not sent again" message. */
export function describeAmbiguity(failure: AttemptFailure): string {
  if (failure.kind === 'network') {
    return (
      `the connection failed after the request was sent ` +
      `(${failure.code ? `${failure.code}: ` : ''}${failure.message})`
    )
  }
  if (failure.kind === 'answer')
    return `the service answered HTTP ${failure.status}, but its answer was unusable (${failure.problem})`
  if (isRedirect(failure.status))
    return (
      `the service answered HTTP ${failure.status}, a redirect, which the action does not follow ` +
      "(the key goes only to `base-url`'s origin)"
    )
  return `the service answered HTTP ${failure.status}`
}

/** A feature an organization may not have, which a 403 to a request that needs it can mean. */
export type Feature = 'static export' | 'previews'

/** What a refusal is about: a read-only key refuses only POSTs, a missing feature only the requests that need it. */
export interface RefusedRequest {
  method: 'GET' | 'POST'
  feature?: Feature | undefined
}

/** The causes the service's reference gives for a 403, each with what to do about it. */
const READ_ONLY_KEY = 'a key limited to reading, used for this POST (use a key with full access)'
const IP_ALLOWLIST =
  "an IP allowlist on the key that does not hold this machine's address (GitHub-hosted runners change addresses: " +
  'use a runner with a fixed address, or lift the allowlist)'
const FEATURE_OFF: Record<Feature, string> = {
  'static export': 'static export not enabled for the organization (a private beta under an enterprise agreement)',
  previews: "preview deployments not available on the organization's plan"
}

/**
 * What to check after a 401 or 403, in the terms of the service's reference: a 401 is a key that
 * is wrong or expired; a 403, of its causes, those that can apply to `request` (`afterReason`: said
 * after the service's own reason, as the other causes).
 */
export function refusalAdvice(
  status: 401 | 403,
  request: RefusedRequest,
  said: { afterReason?: boolean } = {}
): string {
  if (status === 401) {
    return (
      '`api-key` is wrong or has expired: check the secret, ' +
      "or make a new admin key on the API keys page of the organization's settings."
    )
  }
  const causes = [
    ...(request.method === 'POST' ? [READ_ONLY_KEY] : []),
    IP_ALLOWLIST,
    ...(request.feature === undefined ? [] : [FEATURE_OFF[request.feature]])
  ]
  const listed = causes.length === 1 ? causes[0] : `${causes.slice(0, -1).join('; ')}; or ${causes.at(-1)}`
  if (said.afterReason === true) return `If that is not the whole story, the service's reference also gives: ${listed}.`
  return `The service's reference gives ${causes.length === 1 ? 'this cause' : 'these causes'}: ${listed}.`
}
