import { describe, expect, test } from '@jest/globals'
import { type AttemptFailure, classify, describeFailure } from '../src/service/failure.js'
import {
  AttemptError,
  LONGEST_RETRY_AFTER_MS,
  backoffDelay,
  describeWaitEnd,
  parseRetryAfter,
  retryDelay,
  withRetries
} from '../src/service/retry.js'
import { virtualClock } from './support/clock.js'

const status = (code: number, retryAfter?: string): AttemptFailure => ({ kind: 'status', status: code, retryAfter })
const network = (code: string): AttemptFailure => ({ kind: 'network', code, message: code })

const isRetryable = (kind: 'idempotent' | 'once', failure: AttemptFailure): boolean => classify(kind, failure).retry

describe('which failures are retried', () => {
  test.each([408, 429, 500, 502, 503, 504])('idempotent requests retry HTTP %d', (code) => {
    expect(isRetryable('idempotent', status(code))).toBe(true)
  })
  test.each([400, 401, 403, 404, 409, 422])('idempotent requests do not retry HTTP %d', (code) => {
    expect(isRetryable('idempotent', status(code))).toBe(false)
  })
  test.each(['ECONNRESET', 'ETIMEDOUT', 'ECONNREFUSED', 'EPIPE'])('idempotent requests retry %s', (code) => {
    expect(isRetryable('idempotent', network(code))).toBe(true)
  })
  test('requests that create something retry only where nothing was processed', () => {
    expect(isRetryable('once', network('ECONNREFUSED'))).toBe(true)
    expect(isRetryable('once', status(429))).toBe(true)
    expect(isRetryable('once', status(503))).toBe(true)
    for (const failure of [
      status(500),
      status(502),
      status(504),
      status(408),
      network('ECONNRESET'),
      network('ETIMEDOUT')
    ]) {
      expect(isRetryable('once', failure)).toBe(false)
    }
  })
  test('what is retried for a request that creates something was surely not processed, and the other way round', () => {
    const failures = [301, 303, 307, 408, 429, 500, 502, 503, 504, 400, 404, 409].map((code) => status(code))
    const notSent = ['ENOTFOUND', 'EAI_AGAIN', 'DEPTH_ZERO_SELF_SIGNED_CERT', 'ERR_SSL_WRONG_VERSION_NUMBER'].map(
      network
    )
    for (const failure of [
      ...failures,
      ...notSent,
      network('ECONNREFUSED'),
      network('ECONNRESET'),
      network('ETIMEDOUT')
    ]) {
      const verdict = classify('once', failure)
      expect(verdict.retry && verdict.mayHaveBeenProcessed).toBe(false)
    }
    expect(classify('once', status(503)).mayHaveBeenProcessed).toBe(false)
    expect(classify('once', status(500)).mayHaveBeenProcessed).toBe(true)
    expect(classify('once', network('ECONNRESET')).mayHaveBeenProcessed).toBe(true)
    expect(classify('once', status(409)).mayHaveBeenProcessed).toBe(false)
    // A redirect, which the action does not follow, came from a service that read the request.
    for (const code of [301, 302, 303, 307, 308])
      expect(classify('once', status(code))).toEqual({ retry: false, mayHaveBeenProcessed: true })
  })
  test('a host name that did not resolve was never sent: a request that creates something is tried again', () => {
    for (const code of ['ENOTFOUND', 'EAI_AGAIN'])
      expect(classify('once', network(code))).toEqual({ retry: true, mayHaveBeenProcessed: false })
  })
  test.each([
    'DEPTH_ZERO_SELF_SIGNED_CERT',
    'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
    'CERT_HAS_EXPIRED',
    'ERR_TLS_CERT_ALTNAME_INVALID',
    'ERR_SSL_WRONG_VERSION_NUMBER',
    'ERR_SSL_SSLV3_ALERT_HANDSHAKE_FAILURE',
    'ERR_SSL_TLSV1_ALERT_PROTOCOL_VERSION'
  ])('a TLS handshake refused (%s) was never sent, and fails at once, saying so', (code) => {
    for (const kind of ['once', 'idempotent'] as const)
      expect(classify(kind, network(code))).toEqual({ retry: false, mayHaveBeenProcessed: false })
    expect(describeFailure(network(code))).toBe(`the TLS handshake failed, so nothing was sent (${code}: ${code})`)
  })
  test("of OpenSSL's failures only the handshake's prove nothing was sent: a bad record may come in the answer", () => {
    expect(classify('once', network('ERR_SSL_UNSUPPORTED_PROTOCOL'))).toEqual({
      retry: false,
      mayHaveBeenProcessed: false
    })
    expect(classify('once', network('ERR_SSL_DECRYPTION_FAILED_OR_BAD_RECORD_MAC'))).toEqual({
      retry: false,
      mayHaveBeenProcessed: true
    })
  })
})

describe('waits', () => {
  const policy = { initialMs: 1000, maxMs: 8000, maxAttempts: 10 }
  test('grow exponentially with equal jitter, capped', () => {
    expect(backoffDelay(1, policy, () => 0)).toBe(500)
    expect(backoffDelay(1, policy, () => 1)).toBe(1000)
    expect(backoffDelay(3, policy, () => 0.5)).toBe(3000)
    expect(backoffDelay(10, policy, () => 1)).toBe(8000)
  })
  test('Retry-After in seconds or as an HTTP date wins over the backoff', () => {
    const now = Date.parse('2026-01-01T00:00:00Z')
    expect(parseRetryAfter('7', now)).toBe(7000)
    expect(parseRetryAfter('0.25', now)).toBe(250)
    expect(parseRetryAfter('Thu, 01 Jan 2026 00:00:30 GMT', now)).toBe(30_000)
    expect(parseRetryAfter('Wed, 31 Dec 2025 23:00:00 GMT', now)).toBe(0)
    expect(parseRetryAfter('soon', now)).toBeUndefined()
    // Date.parse would read these as dates long past, i.e. "retry at once".
    for (const value of ['-1', '-600', '1e3', '12 apples', '0x10', '', '  '])
      expect(parseRetryAfter(value, now)).toBeUndefined()
    expect(parseRetryAfter('Thursday, 01-Jan-26 00:00:10 GMT', now)).toBe(10_000)
    expect(parseRetryAfter('Thu Jan  1 00:00:20 2026', now)).toBe(20_000)
    expect(parseRetryAfter(undefined, now)).toBeUndefined()
    expect(retryDelay(1, status(429, '12'), policy, now, () => 0)).toBe(12_000)
    expect(retryDelay(1, status(429, 'garbage'), policy, now, () => 0)).toBe(500)
  })
})

describe('a Retry-After longer than any step', () => {
  const now = Date.parse('2026-01-01T00:00:00Z')
  const week = 7 * 24 * 3_600_000

  test('is taken as a week, the longest `timeout`, in seconds or as a date', () => {
    expect(LONGEST_RETRY_AFTER_MS).toBe(week)
    // Past what a Date can hold from now, and past what a number can hold.
    for (const value of ['99999999999999', '9'.repeat(400), 'Fri, 31 Dec 9999 23:59:59 GMT'])
      expect(parseRetryAfter(value, now)).toBe(week)
    expect(parseRetryAfter(String(week / 1000 - 1), now)).toBe(week - 1000)
  })

  test('is said to end a week from now "or later", a time a Date can hold', () => {
    expect(describeWaitEnd(120_000, now)).toEqual({ at: '2026-01-01 00:02:00 UTC', after: '2m 00s' })
    expect(describeWaitEnd(parseRetryAfter('99999999999999', now)!, now)).toEqual({
      at: '2026-01-08 00:00:00 UTC or later',
      after: '168h 00m or more'
    })
  })

  test('without a deadline, is waited for a week at most', async () => {
    const clock = virtualClock()
    let calls = 0
    const value = await withRetries(
      async () => {
        if (++calls === 1) throw new AttemptError(status(503, '99999999999999'))
        return 'ok'
      },
      { kind: 'idempotent', policy: { initialMs: 100, maxMs: 1000, maxAttempts: 4 }, clock }
    )
    expect(value).toBe('ok')
    expect(clock.sleeps).toEqual([week])
  })
})

describe('withRetries', () => {
  const policy = { initialMs: 100, maxMs: 1000, maxAttempts: 4 }

  test('retries until success, sleeping the policy waits', async () => {
    const clock = Object.assign(virtualClock(), { random: () => 1 })
    let calls = 0
    const value = await withRetries(
      async () => {
        calls++
        if (calls < 3) throw new AttemptError(status(503))
        return 'ok'
      },
      { kind: 'idempotent', policy, clock }
    )
    expect(value).toBe('ok')
    expect(calls).toBe(3)
    expect(clock.now()).toBe(100 + 200)
  })

  test('stops at a final failure and says how many attempts were made', async () => {
    const clock = virtualClock()
    const error = await withRetries(() => Promise.reject(new AttemptError(status(500))), {
      kind: 'idempotent',
      policy,
      clock
    }).catch((e) => e)
    expect(error).toBeInstanceOf(AttemptError)
    expect(error.attempts).toBe(4)
    const once = await withRetries(() => Promise.reject(new AttemptError(status(500))), {
      kind: 'once',
      policy,
      clock
    }).catch((e) => e)
    expect(once.attempts).toBe(1)
  })

  test('does not start a wait that ends past the deadline', async () => {
    const clock = virtualClock()
    const error = await withRetries(() => Promise.reject(new AttemptError(status(429, '60'))), {
      kind: 'once',
      policy,
      clock,
      deadline: 30_000
    }).catch((e) => e)
    expect(error.stoppedByDeadline).toBe(true)
    expect(clock.now()).toBe(0)
  })

  test('does not start another attempt once the deadline has passed, even when a wait overran', async () => {
    // This clock's waits end late, as a loaded machine's may.
    const base = virtualClock()
    const clock = { ...base, sleep: (ms: number, signal?: AbortSignal) => base.sleep(ms + 5000, signal) }
    let calls = 0
    const error = await withRetries(
      async () => {
        calls++
        throw new AttemptError(status(503, '1'))
      },
      { kind: 'idempotent', policy, clock, deadline: 3000 }
    ).catch((e) => e)
    expect(calls).toBe(1)
    expect(error.stoppedByDeadline).toBe(true)
  })

  test('other errors pass through at once', async () => {
    let calls = 0
    await expect(
      withRetries(
        async () => {
          calls++
          throw new Error('bug')
        },
        { kind: 'idempotent', policy, clock: virtualClock() }
      )
    ).rejects.toThrow('bug')
    expect(calls).toBe(1)
  })
})
