/**
 * Every secret of a run, known in one place: the inputs' (the API key, the GitHub token) from the
 * start, a bundle link's signatures as they are seen. Each is handed to the runner, which masks it
 * in its log from then on, and `redact` takes all of them out of any text before it is cut (a cut
 * through a secret leaves a part of it that nobody masks) and before it leaves by another way than
 * the runner's log (the job summary, a comment, the CLI's log).
 */
import { noop } from './cancellation.js'
import { cutShort } from './text.js'

export class Secrets {
  /** Every secret known, as it is spelled. */
  private readonly known = new Set<string>()
  /** Finds, at each place of a text, the longest spelling that starts there; made again after an add. */
  private matcher: RegExp | undefined

  /** `register`: the runner's masking (Host.setSecret), told each spelling once. */
  constructor(private readonly register: (spelling: string) => void = noop) {}

  /** Registers `secret` as it is spelled (a link's signature, JSON-escaped, say); the empty string is none. */
  add(secret: string): void {
    if (secret === '' || this.known.has(secret)) return
    this.known.add(secret)
    this.register(secret)
    this.matcher = undefined
  }

  /**
   * `text` with every secret replaced by `***`. Where two overlap, both go as one. Any length counts: a secret the user gave is
   * one, however short; the runner masks it too.
   */
  redact(text: string): string {
    if (this.known.size === 0 || text === '') return text
    this.matcher ??= matcherOf(this.known)
    const found = placesOf(text, this.matcher)
    return found.length === 0 ? text : masked(text, found)
  }

  /** `text` redacted, then cut to `max` characters (see cutShort): never a part of a secret. */
  cut(text: string, max: number, note?: string): string {
    return cutShort(this.redact(text), max, note)
  }
}

/** A zero-width search for every spelling, the longest first, so that each place yields the longest found there. */
function matcherOf(spellings: Iterable<string>): RegExp {
  const longestFirst = [...spellings].sort((a, b) => b.length - a.length)
  return new RegExp(`(?=(${longestFirst.map((s) => s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')).join('|')}))`, 'g')
}

type Place = [start: number, end: number]

function placesOf(text: string, matcher: RegExp): Place[] {
  return Array.from(text.matchAll(matcher), (match): Place => [match.index, match.index + (match[1]?.length ?? 0)])
}

/** `text` with each run of overlapping places replaced by one `***`. */
function masked(text: string, places: Place[]): string {
  places.sort((a, b) => a[0] - b[0])
  let out = ''
  /** Where the text is not handled yet. */
  let copied = 0
  for (const [start, end] of places) {
    if (start < copied) {
      // Inside or across the run masked last: that run goes on to here.
      copied = Math.max(copied, end)
      continue
    }
    out += `${text.slice(copied, start)}***`
    copied = end
  }
  return out + text.slice(copied)
}
