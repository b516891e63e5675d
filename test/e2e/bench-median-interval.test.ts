// The benchmark's verdicts rest on medians of noisy rounds; the interval it prints beside each
// must be the exact distribution-free one, or a "met" would look surer than it is.
import { describe, expect, it } from '@jest/globals'
import { medianInterval } from '../../bench/measure.js'

/** P(Binomial(n, 1/2) <= j), exactly enough for small n. */
function binomialTail(n: number, j: number): number {
  let sum = 0
  let term = 0.5 ** n
  for (let i = 0; i <= j; i++) {
    sum += term
    term = (term * (n - i)) / (i + 1)
  }
  return sum
}

describe('medianInterval', () => {
  it.each([5, 7, 8, 9, 11, 21, 31])(
    'takes the widest-confidence order statistics that still hold 95%%, for %i rounds',
    (n) => {
      const values = Array.from({ length: n }, (_, i) => n - i) // given in reverse: the function sorts
      const [low, high] = medianInterval(values)
      const k = low // values are 1..n, so the k-th smallest is k
      expect(high).toBe(n + 1 - k)
      // Coverage at least 95% with k, and k + 1 would fall short; 5 rounds or fewer reach no 95%
      // interval at all, and get the whole range.
      const coverage = 1 - 2 * binomialTail(n, k - 1)
      expect(n > 5 ? coverage >= 0.95 : k === 1).toBe(true)
      expect(1 - 2 * binomialTail(n, k)).toBeLessThan(0.95)
    }
  )

  it('gives the known intervals', () => {
    const rounds = (n: number): number[] => Array.from({ length: n }, (_, i) => i + 1)
    expect(medianInterval(rounds(7))).toEqual([1, 7])
    expect(medianInterval(rounds(9))).toEqual([2, 8])
    expect(medianInterval(rounds(21))).toEqual([6, 16])
  })
})
