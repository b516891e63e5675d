import { describe, expect, test } from '@jest/globals'
import { Secrets } from '../src/common/secrets.js'
import { secretsOf } from './support/secrets.js'

describe('the run’s secrets', () => {
  test('secrets are cut out of text the runner does not mask, however short, the longest first', () => {
    expect(secretsOf('dsk_secret_key', 'ghs_token_123').redact('key dsk_secret_key, token ghs_token_123')).toBe(
      'key ***, token ***'
    )
    // A key of three characters is a secret too: the runner masks it as well.
    expect(secretsOf('', 'ab').redact('abc')).toBe('***c')
    // One secret inside another: the longer goes whole, leaving no part of it.
    expect(secretsOf('0123', 'sig=0123456789abcdef').redact('sig=0123456789abcdef')).toBe('***')
  })

  test('two secrets that overlap go as one, leaving no part of either', () => {
    expect(secretsOf('abcdef', 'defghijk').redact('x abcdefghijk y')).toBe('x *** y')
    expect(secretsOf('abc', 'bcdefg').redact('abcdefg abc')).toBe('*** ***')
  })

  test('a secret added later is cut out from then on; each spelling goes to the runner once', () => {
    const registered: string[] = []
    const secrets = new Secrets((spelling) => registered.push(spelling))
    secrets.add('first_secret')
    expect(secrets.redact('first_secret second_secret')).toBe('*** second_secret')
    secrets.add('second_secret')
    secrets.add('first_secret')
    secrets.add('')
    expect(secrets.redact('first_secret second_secret')).toBe('*** ***')
    expect(registered).toEqual(['first_secret', 'second_secret'])
  })
})

describe('a credential in the shapes text from elsewhere gives it', () => {
  const KEY = 'mint_live_Q7w9ZkX2vB4nM8pL3rT6yH1jD5fG0sAe?'
  /** The characters of base64(`before` + KEY + `after`) the key's bits alone make (it shares its first and last). */
  const encodedKey = (before: string, after: string, url = false): string => {
    const encoded = Buffer.from(`${before}${KEY}${after}`).toString(url ? 'base64url' : 'base64')
    const from = Math.ceil((8 * before.length) / 6)
    return encoded.slice(from, Math.floor((8 * (before.length + KEY.length)) / 6))
  }
  /** The runs of 8 characters of `secret` found in `text`: any is a part of it that was not masked. */
  const leaked = (text: string, secret: string): string[] =>
    Array.from({ length: secret.length - 7 }, (_, at) => secret.slice(at, at + 8)).filter((part) => text.includes(part))

  test('split by a line break, \\r\\n or an escaped \\n anywhere: masked whole, and only the key', () => {
    const secrets = new Secrets()
    secrets.addCredential(KEY)
    for (const lineBreak of ['\n', '\r\n', '\r', '\\n', '\\r\\n']) {
      for (let at = 1; at < KEY.length; at++) {
        const split = `${KEY.slice(0, at)}${lineBreak}${KEY.slice(at)}`
        expect(secrets.redact(`key:\n${split}\nnext line`)).toBe('key:\n***\nnext line')
      }
    }
    // A line break between two texts that are no secret stays.
    expect(secrets.redact('mint_live\nQ7w9 and more\r\n')).toBe('mint_live\nQ7w9 and more\r\n')
  })

  test('base64 and base64url, alone and wherever the key stands in a longer encoded text', () => {
    const registered: string[] = []
    const secrets = new Secrets((spelling) => registered.push(spelling))
    secrets.addCredential(KEY)
    for (const encoding of ['base64', 'base64url'] as const) {
      const alone = Buffer.from(KEY).toString(encoding)
      expect(secrets.redact(`echo ${alone} end`)).toBe('echo *** end')
    }
    for (const url of [false, true]) {
      for (const before of ['Authorization: Bearer ', 'Bearer: ', 'x:']) {
        const encoded = Buffer.from(`${before}${KEY}\n`).toString(url ? 'base64url' : 'base64')
        const shown = secrets.redact(`header ${encoded}`)
        expect(shown).toContain('***')
        expect(leaked(shown, encodedKey(before, '\n', url))).toEqual([])
        // Wrapped at 76 characters as MIME writes base64: masked across the line break too.
        const wrapped = secrets.redact(encoded.replace(/.{76}/g, '$&\r\n'))
        expect(leaked(wrapped.replace(/\r\n/g, ''), encodedKey(before, '\n', url))).toEqual([])
      }
    }
    // The runner is told every shape too: it knows no base64url, nor an encoded key that is not padded.
    expect(registered).toContain(KEY)
    expect(registered).toContain(Buffer.from(KEY).toString('base64url'))
    expect(registered).toContain(encodedKey('x:', '', true))
    expect(new Set(registered).size).toBe(registered.length)
  })

  test('a short secret has no encoded shapes (they would be a few letters of any base64 text)', () => {
    const registered: string[] = []
    new Secrets((spelling) => registered.push(spelling)).addCredential('k3y')
    expect(registered).toEqual(['k3y'])
  })
})
