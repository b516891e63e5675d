import { describe, expect, test } from '@jest/globals'
import { counted, formatFromNow, formatMoment, formatUtc } from '../src/common/units.js'

describe('counts', () => {
  test('one is singular, any other count plural; a noun without an s gives its own', () => {
    expect([0, 1, 2].map((n) => counted(n, 'page'))).toEqual(['0 pages', '1 page', '2 pages'])
    expect(counted(1, 'more place')).toBe('1 more place')
    expect([1, 3].map((n) => counted(n, 'entry', 'entries'))).toEqual(['1 entry', '3 entries'])
  })
})

describe('moments', () => {
  const now = Date.parse('2025-06-01T14:18:00Z')
  const at = (iso: string): Date => new Date(iso)

  test('in UTC to the second, the zone said', () => {
    expect(formatUtc(at('2025-06-01T14:32:05.123Z'))).toBe('2025-06-01 14:32:05 UTC')
    expect(formatUtc(at('2025-06-01T16:32:05+02:00'))).toBe('2025-06-01 14:32:05 UTC')
  })

  test('from now, rounded down so that a link said to last 14 min does', () => {
    expect(formatFromNow(at('2025-06-01T14:32:59Z'), now)).toBe('in 14 min')
    expect(formatFromNow(at('2025-06-01T14:18:40Z'), now)).toBe('in 40 s')
    expect(formatFromNow(at('2025-06-01T14:18:00.400Z'), now)).toBe('now')
    expect(formatFromNow(at('2025-06-01T14:15:00Z'), now)).toBe('3 min ago')
    expect(formatFromNow(at('2025-06-01T17:23:00Z'), now)).toBe('in 3 h 5 min')
    expect(formatFromNow(at('2025-06-01T16:18:00Z'), now)).toBe('in 2 h')
    expect(formatFromNow(at('2025-06-03T13:18:00Z'), now)).toBe('in 47 h')
    expect(formatFromNow(at('2025-06-03T14:18:00Z'), now)).toBe('in 2 days')
    expect(formatFromNow(at('2025-05-25T14:18:00Z'), now)).toBe('7 days ago')
  })

  test('both together', () => {
    expect(formatMoment(at('2025-06-01T14:32:05Z'), now)).toBe('2025-06-01 14:32:05 UTC (in 14 min)')
  })
})
