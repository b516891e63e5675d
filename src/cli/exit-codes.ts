/**
 * The CLI's exit codes, one for each way a run ends (FailureKind, see src/failure-kind.ts), and
 * what each means for `--help`; docs/cli.md's table says the same. 0, 1, 2 and 130 keep the meanings
 * they had before the causes of 1 were told apart. Pure.
 */
import type { FailureKind } from '../action/host.js'

export type Ending = FailureKind | 'ok'

export const EXIT_CODES: Record<Ending, number> = {
  ok: 0,
  failed: 1,
  input: 2,
  refused: 3,
  unavailable: 4,
  timeout: 5,
  cancelled: 130
}

export const EXIT_CODE_MEANINGS: Record<Ending, string> = {
  ok: 'success',
  failed: 'the job failed, or what it made was refused (a bad archive, --verify strict)',
  input: 'bad input or command line; nothing was sent',
  refused:
    'the service or the storage refused a request: HTTP 4xx (401/403: the key, 404: no such job, 429: rate limit)',
  unavailable: 'the service or the storage could not be reached or failed: a network error, HTTP 5xx',
  timeout: '--timeout ran out; the job goes on: resume it with --job-id',
  cancelled: 'cancelled (SIGINT, SIGTERM); the job goes on: resume it with --job-id'
}
