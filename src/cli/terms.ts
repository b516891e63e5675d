/**
 * The shared core speaks in a workflow's terms: inputs (`base-url`), `operation: ...` with
 * `job-id: ...` to pick a job up again, and the workspace. On a terminal those are flags,
 * subcommands, the environment and the current folder (where relative paths start).
 * Pure.
 */
import { INPUTS, type InputName } from '../action/inputs.js'
import { ENVIRONMENT } from './args.js'

/** How the CLI takes an input that is not simply its flag. */
const FROM_ENVIRONMENT: Partial<Record<InputName, string>> = {
  'api-key': `\`${ENVIRONMENT.apiKey}\``,
  'base-url': `\`--base-url\` or \`${ENVIRONMENT.baseUrl}\``
}

/** A message of the core (an error, a warning), with inputs named as the CLI takes them. */
export function inTerminalTerms(message: string): string {
  return (
    message
      .replace(/`operation: ([a-z-]+)` and `job-id: ([^`]+)`/g, '`docs-admin $1 --job-id $2`')
      // `job-id: j_1`, `path: static-export`: an input with its value is a flag with its value.
      .replace(/`([a-z-]+): ([^`]+)`/g, (whole, name: string, value: string) =>
        Object.hasOwn(INPUTS, name) && name !== 'operation' ? `\`--${name} ${value}\`` : whole
      )
      .replace(/\bthe workspace\b/g, 'the current folder')
      .replace(/`([a-z-]+)`/g, (whole, name: string) => {
        if (!Object.hasOwn(INPUTS, name)) return whole
        return FROM_ENVIRONMENT[name as InputName] ?? `\`--${name}\``
      })
  )
}
