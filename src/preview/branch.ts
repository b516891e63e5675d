/**
 * What a preview is of, read from the event before any request: the branch (given, or the pull
 * request's head branch, or the branch pushed to), the commit, and whether the pull request comes
 * from a fork, which Mintlify cannot preview and whose run has no secrets anyway. Pure.
 */
import type { RunnerEvent, RunnerVariable } from '../action/host.js'
import { InputError } from '../common/errors.js'
import { asObject } from '../service/answer.js'

const PULL_REQUEST_EVENTS = new Set(['pull_request', 'pull_request_target'])

/** The pull request a pull-request event is about: its head branch and commit, and both repositories. */
function pullRequestOf(event: RunnerEvent): Record<string, unknown> | undefined {
  if (!PULL_REQUEST_EVENTS.has(event.name ?? '')) return undefined
  const pull = asObject(event.payload.pull_request)
  return typeof pull.number === 'number' ? pull : undefined
}

/**
 * The repository a pull-request event's head branch lives in, when it is not the base repository
 * (a fork's pull request); undefined otherwise.
 */
export function forkOf(event: RunnerEvent): string | undefined {
  const pull = pullRequestOf(event)
  if (pull === undefined) return undefined
  const head = asObject(asObject(pull.head).repo).full_name
  const base = asObject(asObject(pull.base).repo).full_name
  // A head repository that was deleted is null: a fork that is gone.
  if (typeof base !== 'string') return undefined
  if (head === null) return 'a deleted fork'
  return typeof head === 'string' && head.toLowerCase() !== base.toLowerCase() ? head : undefined
}

/** The branch to preview: `branch`, else the event's; an InputError naming `branch` when there is none. */
export function previewBranch(
  branch: string | undefined,
  event: RunnerEvent,
  env: (name: RunnerVariable) => string | undefined
): string {
  if (branch !== undefined) return branch
  const head = asObject(pullRequestOf(event)?.head).ref
  if (typeof head === 'string' && head !== '') return head
  const pushed = env('GITHUB_REF_NAME')
  if (event.name === 'push' && env('GITHUB_REF_TYPE') === 'branch' && pushed) return pushed
  throw new InputError(
    `\`branch\` is required for \`preview\` on \`${event.name ?? 'no event'}\`: only a pull request (its head ` +
      'branch) or a push to a branch gives one by itself.'
  )
}

/** The commit the preview shows: the pull request's head commit, else the one the workflow runs on. */
export function previewCommit(
  event: RunnerEvent,
  env: (name: RunnerVariable) => string | undefined
): string | undefined {
  const sha = asObject(asObject(pullRequestOf(event)?.head)).sha
  return typeof sha === 'string' && /^[0-9a-f]{7,64}$/i.test(sha) ? sha : env('GITHUB_SHA')
}

/** The pull request a pull-request event is about, by number; undefined on any other event. */
export function pullRequestNumber(event: RunnerEvent): number | undefined {
  return pullRequestOf(event)?.number as number | undefined
}
