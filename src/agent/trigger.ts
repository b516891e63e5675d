/**
 * The comment that triggered a run (issue_comment, pull_request_review_comment), read from the
 * event payload, and what it asks for: nothing (skipped) or an instruction. Pure.
 */
import type { RepoRef, RunnerEvent, RunnerVariable } from '../action/host.js'
import type { PromptSource } from '../action/settings.js'
import { ActionError } from '../common/errors.js'
import { asObject } from '../service/answer.js'

export const COMMENT_EVENTS = ['issue_comment', 'pull_request_review_comment'] as const
export type CommentEvent = (typeof COMMENT_EVENTS)[number]

/** Associations GitHub gives to people with write access or membership. */
export const TRUSTED_ASSOCIATIONS: ReadonlySet<string> = new Set(['OWNER', 'MEMBER', 'COLLABORATOR'])

export interface TriggeringComment {
  event: CommentEvent
  /** `created`, `edited`, `deleted`; undefined when the payload does not say. */
  action: string | undefined
  id: number
  body: string
  author: string | undefined
  /** `OWNER`, `MEMBER`, `COLLABORATOR`, `CONTRIBUTOR`, `NONE`, ... as GitHub sends it. */
  authorAssociation: string | undefined
  /** Review comments: the first comment of the thread (GitHub does not take replies to replies). */
  threadId: number
  /** The issue (issue_comment, also on a pull request) or the pull request (review comment). */
  number: number | undefined
  repository: RepoRef | undefined
  /** Link to this workflow run, for the reply. */
  runUrl: string | undefined
}

export function isCommentEvent(name: string | undefined): name is CommentEvent {
  return (COMMENT_EVENTS as readonly string[]).includes(name ?? '')
}

/** The comment of a comment event; undefined for any other event. */
export function readTriggeringComment(event: RunnerEvent, env: (name: RunnerVariable) => string | undefined): TriggeringComment | undefined {
  if (!isCommentEvent(event.name)) return undefined
  const { payload } = event
  const comment = asObject(payload.comment)
  const id = comment.id
  if (typeof id !== 'number' || typeof comment.body !== 'string') {
    throw new ActionError(`The \`${event.name}\` event payload carries no comment with an \`id\` and a \`body\`.`)
  }
  const numbered = asObject(event.name === 'issue_comment' ? payload.issue : payload.pull_request)
  const repository = repositoryOf(env('GITHUB_REPOSITORY'), asObject(payload.repository))
  const serverUrl = env('GITHUB_SERVER_URL') ?? 'https://github.com'
  const runId = env('GITHUB_RUN_ID')
  const login = asObject(comment.user).login
  return {
    event: event.name,
    action: typeof payload.action === 'string' ? payload.action : undefined,
    id,
    threadId: typeof comment.in_reply_to_id === 'number' ? comment.in_reply_to_id : id,
    body: comment.body,
    author: typeof login === 'string' ? login : undefined,
    authorAssociation: typeof comment.author_association === 'string' ? comment.author_association : undefined,
    number: typeof numbered.number === 'number' ? numbered.number : undefined,
    repository,
    runUrl: repository && runId && /^\d+$/.test(runId) ? `${serverUrl}/${repository.owner}/${repository.repo}/actions/runs/${runId}` : undefined
  }
}

/** GITHUB_REPOSITORY (`owner/repo`), else the payload's repository. */
function repositoryOf(variable: string | undefined, payloadRepository: Record<string, unknown>): RepoRef | undefined {
  const [owner, repo, ...rest] = (variable ?? '').split('/')
  if (owner && repo && rest.length === 0) return { owner, repo }
  const login = asObject(payloadRepository.owner).login
  return typeof login === 'string' && typeof payloadRepository.name === 'string' ? { owner: login, repo: payloadRepository.name } : undefined
}

/**
 * Whether `body` starts with `command` as a word of its own (`/docs-agent` matches
 * `/docs-agent fix it` but not `/docs-agents`), and the text after it, trimmed.
 */
export function matchCommand(body: string, command: string): { matched: boolean; rest: string } {
  const text = body.trimStart()
  if (command === '' || !text.startsWith(command)) return { matched: false, rest: '' }
  const after = text.slice(command.length)
  if (after !== '' && !/^\s/.test(after)) return { matched: false, rest: '' }
  return { matched: true, rest: after.trim() }
}

/** Why the comment does not run anything, or undefined when it does. */
export function skipReason(comment: TriggeringComment, command: string | undefined): string | undefined {
  // An edit or deletion must not send the same instruction a second time.
  if (comment.action !== undefined && comment.action !== 'created') return `The comment was ${comment.action}, not created.`
  if (command !== undefined && !matchCommand(comment.body, command).matched) return `The comment does not start with \`${command}\`.`
  return undefined
}

/** The instruction for the agent: the `prompt` input, else the comment's text after the command. Never blank. */
export function resolvePrompt(source: PromptSource, comment: TriggeringComment | undefined, eventName: string | undefined): string {
  if (source.from === 'input') return source.text
  if (comment === undefined) {
    throw new ActionError(
      `\`prompt\` is required (at least one non-blank character) and this run was not started by a comment (event \`${eventName ?? 'unknown'}\`) that \`comment-command\` could take it from.`
    )
  }
  const { rest } = matchCommand(comment.body, source.command)
  if (rest !== '') return rest
  throw new ActionError(
    `\`prompt\` is empty and the comment holds nothing after \`${source.command}\`: write the instruction after the command, e.g. \`${source.command} fix the broken link on the install page\`.`
  )
}
