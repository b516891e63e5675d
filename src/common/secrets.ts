/**
 * Every secret of a run, known in one place: the inputs' (the API key, the GitHub token) from the
 * start, a bundle link's signatures as they are seen. Each is handed to the runner, which masks it
 * in its log from then on, and `redact` takes all of them out of any text before it is cut (a cut
 * through a secret leaves a part of it that nobody masks) and before it leaves by another way than
 * the runner's log (the job summary, a comment, the CLI's log).
 *
 * Any secret is also found where a line break splits it (see BREAK), and a credential the service
 * may echo (the key, the token) in the shapes base64 gives it too (see encodedShapes). The runner
 * is told those shapes as well; it could not mask a split secret (it masks line by line), and the
 * text that may split one (the service's) is redacted here where it is read.
 */
import { noop } from './cancellation.js'
import { cutShort } from './text.js'

/** A line break inside a secret, as text may hold it: itself (`\r\n`, `\r`, `\n`) or JSON-escaped. */
const BREAK = /\r\n|[\r\n]|\\r\\n|\\[rn]/g
const HAS_BREAK = new RegExp(BREAK.source)

/** Shorter secrets get no encoded shapes: those would be a few characters that may stand in any base64 text. */
const MIN_ENCODED_LENGTH = 8

export class Secrets {
  /** Every spelling known: the secrets and their encoded shapes. */
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

  /** Registers a credential the service may echo (the API key, the GitHub token), with its encoded shapes. */
  addCredential(secret: string): void {
    if (secret === '') return
    for (const spelling of [secret, ...encodedShapes(secret)]) this.add(spelling)
  }

  /**
   * `text` with every secret replaced by `***`: in any of its shapes, also where a line break
   * splits it. Where two overlap, both go as one. Any length counts: a secret the user gave is
   * one, however short; the runner masks it too.
   */
  redact(text: string): string {
    if (this.known.size === 0 || text === '') return text
    this.matcher ??= matcherOf(this.known)
    const found = placesOf(text, this.matcher)
    if (HAS_BREAK.test(text)) found.push(...placesAcrossBreaks(text, this.matcher))
    return found.length === 0 ? text : masked(text, found)
  }

  /** `text` redacted, then cut to `max` characters (see cutShort): never a part of a secret. */
  cut(text: string, max: number, note?: string): string {
    return cutShort(this.redact(text), max, note)
  }
}

/**
 * The shapes base64 gives `secret` (as UTF-8) in standard and URL-safe letters: encoded alone
 * (padded or not), and the part that is the same wherever it stands in a longer encoded text.
 * Base64 writes 3 bytes as 4 characters, so a secret that starts at byte 3k, 3k+1 or 3k+2 of that
 * text is spelled one of three ways, but for its first and last characters, which it shares with
 * the bytes around it; those are left out.
 */
function encodedShapes(secret: string): string[] {
  if (secret.length < MIN_ENCODED_LENGTH) return []
  const bytes = Buffer.from(secret, 'utf8')
  const shapes = [bytes.toString('base64'), bytes.toString('base64url')]
  for (const offset of [0, 1, 2]) {
    const encoded = Buffer.concat([Buffer.alloc(offset), bytes]).toString('base64')
    const inner = encoded.slice(Math.ceil((8 * offset) / 6), Math.floor((8 * (offset + bytes.length)) / 6))
    shapes.push(inner, inner.replace(/\+/g, '-').replace(/\//g, '_'))
  }
  return [...new Set(shapes)]
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

/**
 * The places of secrets that a line break splits: found in `text` with its breaks taken out, and
 * said in `text`'s own positions (the breaks inside a secret go with it).
 */
function placesAcrossBreaks(text: string, matcher: RegExp): Place[] {
  /** For each break taken out: where it was in the text without breaks, and the length taken out up to it. */
  const cuts: Array<{ at: number; removed: number }> = []
  let joined = ''
  let from = 0
  for (const found of text.matchAll(BREAK)) {
    joined += text.slice(from, found.index)
    from = found.index + found[0].length
    cuts.push({ at: joined.length, removed: (cuts.at(-1)?.removed ?? 0) + found[0].length })
  }
  joined += text.slice(from)
  // Where the character at `i` of the text without breaks stands in the text.
  const inText = (i: number): number => {
    let removed = 0
    for (const cut of cuts) {
      if (cut.at > i) break
      removed = cut.removed
    }
    return i + removed
  }
  return placesOf(joined, matcher).map(([start, end]): Place => [inText(start), inText(end - 1) + 1])
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
