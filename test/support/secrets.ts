import { Secrets } from '../../src/common/secrets.js'

/** A run's Secrets knowing `values` as they are spelled (no encoded shapes). */
export function secretsOf(...values: string[]): Secrets {
  const secrets = new Secrets()
  for (const value of values) secrets.add(value)
  return secrets
}
