/**
 * Every secret of a run, known in one place: the inputs' (the API key, the GitHub token) from the
 * start, a bundle link's signatures as they are seen. Each is handed to the runner, which masks it
 * in its log from then on, and `redact` takes all of them out of any text before it is cut (a cut
 * through a secret leaves a part of it that nobody masks) and before it leaves by another way than
 * the runner's log (the job summary, a comment, the CLI's log).
 */
import { cutShort, redact } from './text.js'

export class Secrets {
  private readonly known = new Set<string>()

  /** `register`: the runner's masking (Host.setSecret). */
  constructor(private readonly register: (secret: string) => void = () => undefined) {}

  /** Registers `secret`; the empty string is none. */
  add(secret: string): void {
    if (secret === '' || this.known.has(secret)) return
    this.known.add(secret)
    this.register(secret)
  }

  /** Every secret registered so far. */
  values(): readonly string[] {
    return [...this.known]
  }

  /** `text` with every secret replaced by `***`. */
  redact(text: string): string {
    return redact(text, this.known)
  }

  /** `text` redacted, then cut to `max` characters (see cutShort): never a part of a secret. */
  cut(text: string, max: number, note?: string): string {
    return cutShort(this.redact(text), max, note)
  }
}
