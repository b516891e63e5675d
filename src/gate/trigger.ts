/**
 * What started the run, read from the event payload: the comment or review of a comment event
 * (see action/event.ts) and what it is on, and what it asks for: nothing (skipped, and why) or an
 * instruction. Pure.
 */
import { eventKind } from '../action/event.js'
import type { InlineComment, RepoRef, RunnerEvent, RunnerVariable } from '../action/host.js'
import type { PromptSource } from '../action/settings.js'
import { ActionError } from '../common/errors.js'
import { cutShort, printableLines } from '../common/text.js'
import { asObject } from '../service/answer.js'
import { PREVIEW_MARKER, RECORD_MARKER, REPLY_MARKER } from '../github/markers.js'

/** The issue, pull request or discussion a run is about. */
export interface Subject {
  repository: RepoRef
  number: number
  kind: 'issue' | 'pull request' | 'discussion'
  isPullRequest: boolean
  title: string
  body: string
  url: string | undefined
}

/**
 * Where a comment was written, which says where its reply goes: an issue's or pull request's
 * conversation (`issue`), a review comment's thread (`review-comment`), a submitted review
 * (`review`: replied to in the pull request's conversation), a discussion or a commit (no reply:
 * the action writes neither), or the payload of an event the action does not know (`unknown`).
 */
export type CommentKind = 'issue' | 'review-comment' | 'review' | 'discussion' | 'commit' | 'unknown'

const KIND_OF_EVENT: Record<string, CommentKind> = {
  issue_comment: 'issue',
  pull_request_review_comment: 'review-comment',
  pull_request_review: 'review',
  discussion_comment: 'discussion',
  commit_comment: 'commit'
}

export interface TriggeringComment {
  /** The event's name (`issue_comment`, `pull_request_review`, ...). */
  event: string
  kind: CommentKind
  /** `created` (`submitted` for a review), `edited`, `deleted`; undefined when the payload does not say. */
  action: string | undefined
  /** The comment's id, or the review's. */
  id: number
  body: string
  author: string | undefined
  /** `User`, `Bot`, `Organization`, as GitHub sends it. */
  authorType: string | undefined
  /** Review comments: the first comment of the thread (GitHub does not take replies to replies). */
  threadId: number
  /** Review comments: the file and line(s) it was written on (see reviewLocation). */
  location: string | undefined
  /** The repository of the workflow (and of the comment). */
  repository: RepoRef | undefined
  /** The issue, pull request or discussion the comment is on. */
  subject: Subject | undefined
  /** Link to this workflow run. */
  runUrl: string | undefined
}

export type SkipReason = 'bot' | 'not-created' | 'no-command' | 'permission'

/** How much of an issue's or pull request's body goes into a new job's prompt. */
export const CONTEXT_BODY_CHARS = 4000

/**
 * The comment or review of a comment event; undefined for any other event. Throws when the
 * payload of a comment event carries none that can be read: the gate cannot judge it.
 */
export function readTriggeringComment(
  event: RunnerEvent,
  env: (name: RunnerVariable) => string | undefined
): TriggeringComment | undefined {
  if (eventKind(event) !== 'comment') return undefined
  const { payload } = event
  const name = event.name ?? 'unknown'
  const kind = KIND_OF_EVENT[name] ?? 'unknown'
  const isReview = kind === 'review' || (kind === 'unknown' && payload.comment === undefined)
  const comment = asObject(isReview ? payload.review : payload.comment)
  const id = comment.id
  // A review submitted with inline comments alone has no body (null).
  const body = isReview && comment.body === null ? '' : comment.body
  if (typeof id !== 'number' || typeof body !== 'string') {
    const what = isReview ? 'review' : 'comment'
    throw new ActionError(`The \`${name}\` event payload carries no ${what} with an \`id\` and a \`body\`.`)
  }
  const user = asObject(comment.user)
  const repository = repositoryOf(env('GITHUB_REPOSITORY'), asObject(payload.repository))
  return {
    event: name,
    kind,
    action: typeof payload.action === 'string' ? payload.action : undefined,
    id,
    threadId: typeof comment.in_reply_to_id === 'number' ? comment.in_reply_to_id : id,
    location: kind === 'review-comment' ? reviewLocation(comment) : undefined,
    body,
    author: typeof user.login === 'string' ? user.login : undefined,
    authorType: typeof user.type === 'string' ? user.type : undefined,
    repository,
    subject: subjectOf(event, repository),
    runUrl: runUrlOf(env, repository)
  }
}

/** Link to this workflow run, when the runner says which. */
export function runUrlOf(
  env: (name: RunnerVariable) => string | undefined,
  repository: RepoRef | undefined
): string | undefined {
  const runId = env('GITHUB_RUN_ID')
  if (repository === undefined || runId === undefined || !/^\d+$/.test(runId)) return undefined
  return `${serverUrlOf(env)}/${repository.owner}/${repository.repo}/actions/runs/${runId}`
}

/**
 * Where a review comment was written: `docs/install.md`, line 3 (or lines 3 to 5, of the file
 * before the change for the diff's left side; the file alone for a comment on the whole file).
 * An outdated comment has no `line` any more, only the line it had.
 */
function reviewLocation(comment: Record<string, unknown>): string | undefined {
  if (typeof comment.path !== 'string' || comment.path === '') return undefined
  const lineOf = (value: unknown): number | undefined =>
    typeof value === 'number' && Number.isSafeInteger(value) && value > 0 ? value : undefined
  const line = lineOf(comment.line) ?? lineOf(comment.original_line)
  const start = lineOf(comment.start_line) ?? lineOf(comment.original_start_line)
  const lines =
    line === undefined ? '' : start !== undefined && start < line ? `, lines ${start} to ${line}` : `, line ${line}`
  const side = line !== undefined && comment.side === 'LEFT' ? ' of the file before the change' : ''
  return `${comment.path}${lines}${side}`
}

/** The GitHub server the run is on (GITHUB_SERVER_URL, a GitHub Enterprise Server's own), github.com when unset. */
export function serverUrlOf(env: (name: RunnerVariable) => string | undefined): string {
  return env('GITHUB_SERVER_URL') ?? 'https://github.com'
}

/** The issue, pull request or discussion of the event (comments, reviews, issues and pull_request events alike). */
export function subjectOf(event: RunnerEvent, repository: RepoRef | undefined): Subject | undefined {
  const { payload } = event
  const issue = asObject(payload.issue)
  const pull = asObject(payload.pull_request)
  const discussion = asObject(payload.discussion)
  const found = [issue, pull, discussion].find((candidate) => typeof candidate.number === 'number')
  if (found === undefined || repository === undefined) return undefined
  // An issue_comment on a pull request carries the pull request as an issue with a `pull_request` key.
  const isPullRequest = found === pull || (found === issue && 'pull_request' in issue)
  return {
    repository,
    number: found.number as number,
    kind: found === discussion ? 'discussion' : isPullRequest ? 'pull request' : 'issue',
    isPullRequest,
    title: typeof found.title === 'string' ? found.title : '',
    body: typeof found.body === 'string' ? found.body : '',
    url: typeof found.html_url === 'string' ? found.html_url : undefined
  }
}

/** GITHUB_REPOSITORY (`owner/repo`), else the payload's repository. */
export function repositoryOf(
  variable: string | undefined,
  payloadRepository: Record<string, unknown>
): RepoRef | undefined {
  const [owner, repo, ...rest] = (variable ?? '').split('/')
  if (owner && repo && rest.length === 0) return { owner, repo }
  const login = asObject(payloadRepository.owner).login
  return typeof login === 'string' && typeof payloadRepository.name === 'string'
    ? { owner: login, repo: payloadRepository.name }
    : undefined
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

/**
 * Whether the action wrote `body`: its replies and records start with their markers. With a
 * personal access token they are written as a person, whom the check of bots does not see.
 */
function writtenByTheAction(body: string): boolean {
  return REPLY_MARKER.test(body) || RECORD_MARKER.test(body) || PREVIEW_MARKER.test(body)
}

/**
 * Why the comment runs nothing, before anyone is asked anything: a bot or the action itself wrote
 * it (two workflows must never talk to each other in a loop, nor one with itself), it is not new
 * (an edit must not send an instruction twice), or it holds no command. Undefined when it may run,
 * subject to its author's permission.
 */
export function skipReason(
  comment: TriggeringComment,
  command: string | undefined
): { reason: SkipReason; message: string } | undefined {
  if (comment.authorType === 'Bot')
    return { reason: 'bot', message: `The comment was written by a bot (${comment.author ?? 'unknown'}).` }
  if (writtenByTheAction(comment.body)) {
    return {
      reason: 'bot',
      message: `The comment is a reply or record of this action (written as ${comment.author ?? 'unknown'}).`
    }
  }
  const created = comment.kind === 'review' ? 'submitted' : 'created'
  if (comment.action !== undefined && comment.action !== created) {
    const what = comment.kind === 'review' ? 'review' : 'comment'
    return { reason: 'not-created', message: `The ${what} was ${comment.action}, not ${created}.` }
  }
  if (command !== undefined && !matchCommand(comment.body, command).matched) {
    return { reason: 'no-command', message: `The comment does not start with \`${command}\`.` }
  }
  return undefined
}

/**
 * The instruction for the agent: the `prompt` input, else the comment's text after the command,
 * with the file and line(s) of a review comment (its "this" means what is written there). Never blank.
 */
export function resolvePrompt(
  source: PromptSource,
  comment: TriggeringComment | undefined,
  eventName: string | undefined,
  inline: readonly InlineComment[] = []
): string {
  if (source.from === 'input') return source.text
  if (comment === undefined) {
    throw new ActionError(
      `\`prompt\` is required (at least one non-blank character) and this run was not started by a comment ` +
        `(event \`${eventName ?? 'unknown'}\`) that \`comment-command\` could take it from.`
    )
  }
  const { rest } = matchCommand(comment.body, source.command)
  const review = reviewComments(inline)
  if (review !== undefined) return rest === '' ? review : `${rest}\n\n${review}`
  if (rest !== '')
    return comment.location === undefined ? rest : `${rest}\n\n(Written in a review comment on ${comment.location}.)`
  throw new ActionError(
    `\`prompt\` is empty and the comment holds nothing after \`${source.command}\`: write the instruction after ` +
      `the command, e.g. \`${source.command} fix the broken link on the install page\`.`
  )
}

/** The most inline comments of a review an instruction takes (one page of GitHub's), and their bounds. */
export const REVIEW_COMMENTS_READ = 100
const REVIEW_COMMENT_CHARS = 2_000
const REVIEW_COMMENTS_CHARS = 20_000

/**
 * A review's inline comments as part of its instruction, one `path:line: text` each (a comment's
 * further lines indented under it), each and all of them cut to a bound; the comments of bots and
 * of the action itself left out. Undefined when there are none.
 */
export function reviewComments(inline: readonly InlineComment[]): string | undefined {
  const taken = inline.filter((comment) => comment.author.type !== 'Bot' && !writtenByTheAction(comment.body))
  if (taken.length === 0) return undefined
  const lines: string[] = []
  let size = 0
  for (const [index, comment] of taken.entries()) {
    const where = `${comment.path ?? 'the pull request'}${comment.line === undefined ? '' : `:${comment.line}`}`
    const text = printableLines(cutShort(comment.body.trim(), REVIEW_COMMENT_CHARS)).join('\n  ')
    const line = `${where}: ${text}`
    if (size + line.length > REVIEW_COMMENTS_CHARS) {
      lines.push(`(and ${taken.length - index} more, left out for length)`)
      break
    }
    lines.push(line)
    size += line.length
  }
  return `The review's comments (${taken.length}):\n${lines.join('\n')}`
}

/** A new job's prompt: the instruction, then the issue or pull request it was asked on, as context. */
export function promptWithContext(instruction: string, subject: Subject | undefined): string {
  if (subject === undefined) return instruction
  const where =
    `${subject.kind} ` +
    `#${subject.number}${subject.title ? ` "${subject.title}"` : ''}${subject.url ? ` (${subject.url})` : ''}`
  const body = cutShort(subject.body, CONTEXT_BODY_CHARS)
  return `${instruction}\n\n---\nContext: this was asked on the ${where}.${body.trim() === '' ? '' : `\n\n${body}`}`
}
