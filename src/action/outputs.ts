/** Every output of the action. A test holds action.yml and docs/reference.md to this list. */
export const OUTPUT_NAMES = [
  'job-id',
  'status',
  'page-count',
  'progress',
  'bundle-url',
  'expires-at',
  'bundle-path',
  'site-path',
  'bundle-sha256',
  'bundle-size',
  'cache-hit',
  'helm-values',
  'broken-links',
  'deployed-commit',
  'preview-url',
  'automation-run-id',
  'pr-link',
  'model',
  'source-repository',
  'source-ref',
  'created-at',
  'archived-at',
  'pr-number',
  'comment-url',
  'skipped',
  'skip-reason'
] as const

export type OutputName = (typeof OUTPUT_NAMES)[number]
/** An output's value with its type (a count, a yes or no): GitHub's outputs are its text, the CLI's JSON keeps it. */
export type OutputValue = string | number | boolean

/**
 * Where outputs go. Each value is written the moment it is known, so that a step that fails
 * later still hands on what it learned (the job id above all).
 */
export class Outputs {
  private readonly values = new Map<OutputName, string>()

  constructor(private readonly write: (name: OutputName, value: OutputValue) => void) {}

  /** Nothing (null, undefined) is the empty text. */
  set(name: OutputName, value: OutputValue | null | undefined): void {
    const typed = value === null || value === undefined ? '' : value
    const text = String(typed)
    if (this.values.get(name) === text) return
    this.values.set(name, text)
    this.write(name, typed)
  }

  get(name: OutputName): string | undefined {
    return this.values.get(name)
  }
}
