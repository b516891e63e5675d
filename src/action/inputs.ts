/**
 * Every input of the action, with the default that action.yml declares. A test holds action.yml
 * and README to this table, so the three never drift apart.
 */
export const INPUT_DEFAULTS = {
  operation: undefined,
  'api-key': undefined,
  'base-url': undefined,
  domain: undefined,
  'job-id': undefined,
  'docs-version': undefined,
  paths: undefined,
  wait: 'true',
  timeout: '30m',
  'poll-interval': '5s',
  'max-poll-interval': '60s',
  path: 'static-export',
  download: 'true',
  extract: 'true',
  'max-site-size': '5g',
  'export-version': undefined,
  'helm-values-file': undefined,
  'project-id': undefined,
  prompt: undefined,
  'comment-command': undefined,
  'github-token': '${{ github.token }}',
  'comment-reply': 'true'
} as const satisfies Record<string, string | undefined>

export type InputName = keyof typeof INPUT_DEFAULTS

/** Inputs whose values are secrets: masked before anything else happens. */
export const SECRET_INPUTS = ['api-key', 'github-token'] as const satisfies readonly InputName[]

export const OPERATIONS = ['export', 'agent-message', 'agent-status', 'agent-create'] as const
export type Operation = (typeof OPERATIONS)[number]
