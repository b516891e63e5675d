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
