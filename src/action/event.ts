import { readFile } from 'node:fs/promises'
import { ActionError, errorMessage } from '../common/errors.js'
import type { RunnerEvent } from './host.js'

/** The events of a comment on an issue or pull request. */
const COMMENT_EVENTS = ['issue_comment', 'pull_request_review_comment'] as const
export type CommentEvent = (typeof COMMENT_EVENTS)[number]

export function isCommentEvent(name: string | undefined): name is CommentEvent {
  return (COMMENT_EVENTS as readonly string[]).includes(name ?? '')
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
  return {
    name,
    payload:
      payload !== null && typeof payload === 'object' && !Array.isArray(payload)
        ? (payload as Record<string, unknown>)
        : {}
  }
}
