/** Every output of the action. A test holds action.yml and README to this list. */
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

/**
 * Where outputs go. Each value is written the moment it is known, so that a step that fails
 * later still hands on what it learned (the job id above all).
 */
export class Outputs {
  private readonly values = new Map<OutputName, string>()

  constructor(private readonly write: (name: OutputName, value: string) => void) {}

  set(name: OutputName, value: string | number | boolean | null | undefined): void {
    const text = value === null || value === undefined ? '' : String(value)
    if (this.values.get(name) === text) return
    this.values.set(name, text)
    this.write(name, text)
  }

  get(name: OutputName): string | undefined {
    return this.values.get(name)
  }
}
