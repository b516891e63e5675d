import type { LookupAddress } from 'node:dns'
import { describe, expect, test } from '@jest/globals'
import { maskLinkSecrets } from '../src/common/link-secrets.js'
import { type LinkPolicy, describeLink, guardedLookup, linkPolicy, refuseLink } from '../src/transfer/link.js'

const masked = (url: string): string[] => {
  const secrets: string[] = []
  maskLinkSecrets(url, (secret) => secrets.push(secret))
  return secrets
}

describe('the secrets of a presigned link', () => {
  test('are masked in every spelling the link carries: raw, decoded, encoded, lower-case escapes', () => {
    const secrets = masked(
      'https://storage.example.com/b/site.zip' +
        '?sv=2020-01-01&sp=r&se=2026-01-01T00%3A00%3A00Z&sig=AbC%2Bd/Ef%2bGh+IjKl%3D'
    )
    expect(secrets).toEqual(
      expect.arrayContaining([
        // The whole query, as it stands and decoded.
        'sv=2020-01-01&sp=r&se=2026-01-01T00%3A00%3A00Z&sig=AbC%2Bd/Ef%2bGh+IjKl%3D',
        'sv=2020-01-01&sp=r&se=2026-01-01T00:00:00Z&sig=AbC+d/Ef+Gh+IjKl=',
        'AbC%2Bd/Ef%2bGh+IjKl%3D', // as it stands in the URL, a raw `+` and a lower-case escape included
        'AbC+d/Ef+Gh+IjKl=', // decoded
        'AbC%2Bd%2FEf%2BGh%2BIjKl%3D', // encoded again
        'AbC%2bd/Ef%2bGh+IjKl%3d', // as it stands, escapes in lower case
        'AbC%2bd%2fEf%2bGh%2bIjKl%3d', // encoded, escapes in lower case
        'AbC+d\\/Ef+Gh+IjKl=', // decoded, in JSON that escapes `/`
        'AbC+d\\/Ef+Gh+IjKl\\u003d', // and `=` too
        // the query, in Go's JSON
        'sv\\u003d2020-01-01\\u0026sp\\u003dr\\u0026se\\u003d2026-01-01T00:00:00Z' +
          '\\u0026sig\\u003dAbC+d\\/Ef+Gh+IjKl\\u003d',
        encodeURIComponent('AbC%2Bd/Ef%2bGh+IjKl%3D') // as it stands, inside another link's query
      ])
    )
  })

  test('S3 signature, credential and token are secrets; dates, expiry and algorithm are not', () => {
    const secrets = masked(
      'https://b.s3.amazonaws.com/site.tar.gz?X-Amz-Algorithm=AWS4-HMAC-SHA256' +
        '&X-Amz-Credential=AKIAEXAMPLE%2F20260101%2Fus-east-1%2Fs3%2Faws4_request' +
        '&X-Amz-Date=20260101T000000Z&X-Amz-Expires=900&X-Amz-SignedHeaders=host' +
        '&X-Amz-Security-Token=FQoGZXIvYXdzEXAMPLE&X-Amz-Signature=0123456789abcdef'
    )
    expect(secrets).toEqual(
      expect.arrayContaining([
        '0123456789abcdef',
        'FQoGZXIvYXdzEXAMPLE',
        'AKIAEXAMPLE%2F20260101%2Fus-east-1%2Fs3%2Faws4_request',
        'AKIAEXAMPLE/20260101/us-east-1/s3/aws4_request'
      ])
    )
    expect(secrets).not.toContain('900')
    expect(secrets).not.toContain('host')
    expect(secrets).not.toContain('20260101T000000Z')
    expect(secrets).not.toContain('AWS4-HMAC-SHA256')
  })

  test('short values and non-secret parameters are never masked alone (they would blank out words everywhere)', () => {
    const secrets = masked('https://s.example.com/x?sv=2020-01-01&sp=r&se=2026&sig=abc&token=')
    expect(secrets).toContain('sv=2020-01-01&sp=r&se=2026&sig=abc&token=')
    for (const short of ['abc', '2026', 'r', '2020-01-01']) expect(secrets).not.toContain(short)
    expect(secrets.every((secret) => secret.length >= 8)).toBe(true)
  })

  test("other stores' signatures, a password in the URL, and any signature inside the whole query are masked", () => {
    expect(
      masked(
        'https://b-1250000000.cos.ap-guangzhou.myqcloud.com/site.zip' +
          '?q-sign-algorithm=sha1&q-ak=AKIDexample&q-signature=3f1c0e8d9a7b6c5d'
      )
    ).toContain('3f1c0e8d9a7b6c5d')
    expect(masked('https://f000.backblazeb2.com/file/b/site.zip?Authorization=3_20260101_abcdef0123456789')).toContain(
      '3_20260101_abcdef0123456789'
    )
    expect(masked('https://deploy:s3cr3t-passw0rd@storage.example.com/site.zip')).toContain('s3cr3t-passw0rd')
    const query = 'v=1&opaque=0123456789abcdefXYZ'
    expect(masked(`https://cdn.example.com/site.zip?${query}`)).toContain(query)
  })

  test('a path segment that looks like a credential (a JWT, a token) is masked and not shown', () => {
    const jwt =
      'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJqb2IiOiJleHBfMSIsImV4cCI6MTc2NzIyNTYwMH0.' +
      'c2lnbmF0dXJlX29mX3RoZV90b2tlbl9yaWdodF9oZXJl'
    const unsigned = 'eyJhbGciOiJub25lIn0.eyJqb2IiOiJleHBfMSJ9.'
    const token = 'AbCdEf0123456789GhIjKlMnOpQrSt'
    for (const secret of [jwt, unsigned, token]) {
      const link = `https://cdn.example.com/dl/${secret}/site.tar.gz`
      expect(describeLink(link)).toBe('https://cdn.example.com/dl/…/site.tar.gz')
      expect(masked(link)).toContain(secret)
    }
    // Percent-encoded in the path: masked as it stands and decoded.
    expect(masked(`https://cdn.example.com/dl/${jwt.replace(/\./g, '%2E')}/site.zip`)).toEqual(
      expect.arrayContaining([jwt, jwt.replace(/\./g, '%2E')])
    )
  })

  test('file names, versions and hosts in a path are no credential: shown, and masked nowhere', () => {
    const link =
      'https://cdn.example.com/docs.acme.com/v1.2.3/release-2026.01.15/' +
      '3f2a9c1e5b7d4f6a8c0e2b4d6f8a0c2e4b6d8f0a2c4e6b8d0f2a4c6e8b0d2f4a.tar.gz'
    expect(describeLink(link)).toBe(link)
    expect(masked(link)).toEqual([])
  })

  test('an unreadable link masks nothing and does not throw', () => {
    expect(masked('not a url')).toEqual([])
    expect(masked('https://s.example.com/x?sig=%E0%A4%A')).toEqual(
      expect.arrayContaining(['sig=%E0%A4%A', '%E0%A4%A', '%25E0%25A4%25A', '%e0%a4%A'])
    )
  })
})

describe('where a link may lead', () => {
  const ACCEPTED = '(accepted)'
  const policy = (baseUrl: string): Promise<LinkPolicy> =>
    linkPolicy(baseUrl, ((_host: string, _options: unknown, callback: (error: null, all: LookupAddress[]) => void) =>
      callback(null, [{ address: '93.184.216.34', family: 4 }])) as never)

  test.each([
    ['https://api.example.com', 'https://storage.example.com/b/x.zip', undefined],
    ['https://api.example.com', 'http://storage.example.com/b/x.zip', /does not use https:\/\//],
    ['https://api.example.com', 'https://169.254.169.254/latest/meta-data/', /link-local address/],
    ['https://api.example.com', 'https://[fe80::1]/x', /link-local address/],
    ['https://api.example.com', 'https://[::ffff:169.254.169.254]/x', /link-local address/],
    ['https://api.example.com', 'https://2852039166/x', /link-local address/],
    ['https://api.example.com', 'https://127.0.0.1/x', /loopback address/],
    ['https://api.example.com', 'https://0.0.0.0/x', /loopback address/],
    ['https://api.example.com', 'https://localhost./x', /loopback address/],
    ['https://api.example.com', 'https://10.1.2.3/x', /private network address/],
    ['https://api.example.com', 'https://[fd00::1]/x', /private network address/],
    ['https://api.example.com', 'https://224.0.0.1/x', /multicast or reserved/],
    ['https://10.0.0.5', 'https://10.9.9.9/x', undefined],
    ['https://10.0.0.5', 'https://169.254.169.254/x', /link-local address/],
    ['http://127.0.0.1:8787', 'http://127.0.0.1:8788/x', undefined],
    ['http://127.0.0.1:8787', 'http://10.0.0.1/x', /private network address/],
    ['https://127.0.0.1:8787', 'http://127.0.0.1:8788/x', /does not use https:\/\//]
  ])('base-url %s, link %s', async (baseUrl, link, refused) => {
    const problem = refuseLink(new URL(link), await policy(baseUrl))
    expect(problem ?? ACCEPTED).toMatch(refused ?? ACCEPTED)
  })

  test('a host name counts by the addresses it resolves to', async () => {
    const onPrivate = await linkPolicy('https://docs-api.corp', ((
      _h: string,
      _o: unknown,
      callback: (e: null, all: LookupAddress[]) => void
    ) => callback(null, [{ address: '10.0.0.7', family: 4 }])) as never)
    expect(refuseLink(new URL('https://10.3.3.3/x'), onPrivate)).toBeUndefined()
  })

  test('a name that resolves to a refused address fails at connect time', async () => {
    const lookup = guardedLookup({ allowHttp: false, allowed: new Set() }, 'https://localhost/x')
    const error = await new Promise<Error | null>((resolve) => lookup('localhost', { all: true }, (e) => resolve(e)))
    expect(error?.message).toMatch(
      /^Refusing to fetch the bundle from https:\/\/localhost\/x: it leads to a loopback address/
    )
    const allowed = guardedLookup({ allowHttp: true, allowed: new Set(['loopback']) }, 'http://localhost/x')
    const address = await new Promise<unknown>((resolve) => allowed('localhost', {}, (_e, a) => resolve(a)))
    expect(address).toMatch(/^(127\.0\.0\.1|::1)$/)
  })
})
