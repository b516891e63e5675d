import { readFile } from 'node:fs/promises'
import { ActionError, errorMessage } from '../common/errors.js'
import type { RunnerEvent } from './host.js'

/**
 * The events whose payload carries a comment or a review. Whatever the operation, the comment gate
 * judges their author (see gate/comment-gate.ts).
 */
const COMMENT_EVENTS = [
  'issue_comment',
  'pull_request_review_comment',
  'pull_request_review',
  'discussion_comment',
  'commit_comment'
] as const
export type CommentEvent = (typeof COMMENT_EVENTS)[number]

/**
 * GitHub's other events that start a workflow: none carries a comment or a review. An event not
 * named here or above is one the gate does not know, and it fails closed on it (see eventKind).
 */
const OTHER_EVENTS: ReadonlySet<string> = new Set([
  'branch_protection_rule',
  'check_run',
  'check_suite',
  'create',
  'delete',
  'deployment',
  'deployment_status',
  'discussion',
  'fork',
  'gollum',
  'issues',
  'label',
  'merge_group',
  'milestone',
  'page_build',
  'public',
  'pull_request',
  'pull_request_target',
  'push',
  'registry_package',
  'release',
  'repository_dispatch',
  'schedule',
  'status',
  'watch',
  'workflow_call',
  'workflow_dispatch',
  'workflow_run'
])

export function isCommentEvent(name: string | undefined): name is CommentEvent {
  return (COMMENT_EVENTS as readonly string[]).includes(name ?? '')
}

/**
 * What the gate makes of an event: `comment` when its name is a comment event's or its payload
 * carries a comment or a review (whatever its name), `unknown` for a name GitHub's list above does
 * not hold, `other` for the rest (and for a run outside a workflow, which has no event).
 */
export function eventKind(event: RunnerEvent): 'comment' | 'other' | 'unknown' {
  const { name, payload } = event
  if (isCommentEvent(name) || isObject(payload.comment) || isObject(payload.review)) return 'comment'
  return name === undefined || OTHER_EVENTS.has(name) ? 'other' : 'unknown'
}

function isObject(value: unknown): boolean {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
}

/**
 * The event that started the run, as the runner describes it: its name in GITHUB_EVENT_NAME and
 * its webhook payload in the JSON file at GITHUB_EVENT_PATH.
 */
export async function readRunnerEvent(
  env: (name: 'GITHUB_EVENT_NAME' | 'GITHUB_EVENT_PATH') => string | undefined
): Promise<RunnerEvent> {
  const name = env('GITHUB_EVENT_NAME') || undefined
  const file = env('GITHUB_EVENT_PATH')
  if (!file) return { name, payload: {} }
  let text: string
  try {
    text = await readFile(file, 'utf8')
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { name, payload: {} }
    throw new ActionError(`Could not read the event payload at GITHUB_EVENT_PATH (${file}): ${errorMessage(error)}`)
  }
  let payload: unknown
  try {
    payload = JSON.parse(text)
  } catch (error) {
    throw new ActionError(`The event payload at GITHUB_EVENT_PATH (${file}) is not JSON: ${errorMessage(error)}`)
  }
  return { name, payload: isObject(payload) ? (payload as Record<string, unknown>) : {} }
}
