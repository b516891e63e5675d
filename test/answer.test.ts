import { describe, expect, test } from '@jest/globals'
import { readAgentJob } from '../src/service/agent-api.js'
import { asObject, count, finiteNumber, httpLink, percent, plain, text, timestamp } from '../src/service/answer.js'

describe('reading service answers', () => {
  test('asObject takes only plain objects', () => {
    expect(asObject({ a: 1 })).toEqual({ a: 1 })
    for (const value of [null, undefined, [1], 'x', 3]) expect(asObject(value)).toEqual({})
  })
  test('text is non-blank and trimmed; numbers count as their text', () => {
    expect(text(' exp_1 ')).toBe('exp_1')
    expect(text(42)).toBe('42')
    for (const value of ['', '   ', null, {}, Number.NaN]) expect(text(value)).toBeUndefined()
  })
  test('plain keeps an id or link as is (but for surrounding white space), or refuses it rather than alter it', () => {
    expect(plain(' exp_1 ')).toBe('exp_1')
    expect(plain('a::b/c')).toBe('a::b/c')
    expect(plain(7)).toBe('7')
    // Text the log would have to change would name something else once changed.
    for (const value of ['', '  ', 'exp##[x', '::set-output', 'a\nb', 'a\u202eb', 'job_\ud800x', null, {}])
      expect(plain(value)).toBeUndefined()
    expect(plain('job_😀')).toBe('job_😀')
    expect(readAgentJob({ id: 'job##[1', status: 'active' }).id).toBeUndefined()
    expect(readAgentJob({ id: ' job_1 ', status: 'active' }).id).toBe('job_1')
    // A link is never changed to be shown: one it would have to change is no link.
    expect(httpLink('http://[::1]:9000/b/site.zip?X-Amz-Signature=1')).toBe(
      'http://[::1]:9000/b/site.zip?X-Amz-Signature=1'
    )
    expect(httpLink('https://s3.example.com/b\n::add-mask::x')).toBeUndefined()
  })
  test('finiteNumber accepts numbers and numeric strings only', () => {
    expect(finiteNumber(40)).toBe(40)
    expect(finiteNumber('12.5')).toBe(12.5)
    for (const value of ['', 'ten', Number.POSITIVE_INFINITY, null]) expect(finiteNumber(value)).toBeUndefined()
  })
  test('httpLink accepts http(s) addresses only', () => {
    expect(httpLink('https://s3.example.com/b?X-Amz-Signature=1')).toBe('https://s3.example.com/b?X-Amz-Signature=1')
    for (const value of ['ftp://x/y', 'javascript:alert(1)', 'not a url', 42]) expect(httpLink(value)).toBeUndefined()
  })
  test('timestamp reads ISO 8601 and epoch seconds or milliseconds', () => {
    const iso = '2026-11-22T03:39:47.000Z'
    expect(timestamp(iso)?.toISOString()).toBe(iso)
    expect(timestamp(Date.parse(iso) / 1000)?.toISOString()).toBe(iso)
    expect(timestamp(String(Date.parse(iso)))?.toISOString()).toBe(iso)
    expect(timestamp('soon')).toBeUndefined()
  })
  test('a date and time without a zone is UTC, whatever the zone of the machine', () => {
    const zone = process.env.TZ
    process.env.TZ = 'America/New_York'
    try {
      expect(timestamp('2025-01-01T10:00:00')?.toISOString()).toBe('2025-01-01T10:00:00.000Z')
      expect(timestamp('2025-01-01 10:00:00.5')?.toISOString()).toBe('2025-01-01T10:00:00.500Z')
      expect(timestamp('2025-01-01T10:00:00+02:00')?.toISOString()).toBe('2025-01-01T08:00:00.000Z')
    } finally {
      if (zone === undefined) delete process.env.TZ
      else process.env.TZ = zone
    }
  })
  test('a time no Date can hold reads as absent, instead of throwing when printed', () => {
    for (const value of [1e308, '1e308', 9e15 * 1000, '99999999999999999999']) expect(timestamp(value)).toBeUndefined()
    expect(readAgentJob({ id: 'job_1', status: 'active', createdAt: 1e308, archivedAt: 9e18 })).toMatchObject({
      createdAt: undefined,
      archivedAt: undefined
    })
  })
  test('percent is 0..100 and count a whole non-negative number, or absent', () => {
    expect(percent(40)).toBe(40)
    expect(percent('99.5')).toBe(99.5)
    for (const value of [1e308, -1, 101, 'lots', null]) expect(percent(value)).toBeUndefined()
    expect(count(12)).toBe(12)
    expect(count('7')).toBe(7)
    for (const value of [-3, 12.5, 1e308, 'many', true]) expect(count(value)).toBeUndefined()
  })
})
