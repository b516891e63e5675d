/**
 * The comment that triggered a run (issue_comment, pull_request_review_comment), and the reaction
 * and reply on it through the GitHub REST API. @actions/github (Octokit and its plugins) is loaded
 * only here and only when a comment event needs it, so other runs do not pay for loading it.
 */
import { ActionError, errorMessage } from '../errors.js'
import { record } from '../http/answer.js'
import type { Logger } from '../log.js'

type GitHubModule = typeof import('@actions/github')
type Octokit = ReturnType<GitHubModule['getOctokit']>

export const COMMENT_EVENTS = ['issue_comment', 'pull_request_review_comment'] as const
export type CommentEvent = (typeof COMMENT_EVENTS)[number]

/** Associations GitHub gives to people with write access or membership. */
export const TRUSTED_ASSOCIATIONS: ReadonlySet<string> = new Set(['OWNER', 'MEMBER', 'COLLABORATOR'])

/** Bound on one reaction or reply request: a slow GitHub API must not hold up the step. */
const GITHUB_TIMEOUT_MS = 15_000

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
  repository: { owner: string; repo: string } | undefined
  /** Link to this workflow run, for the reply. */
  runUrl: string | undefined
}

export function isCommentEvent(name: string | undefined): name is CommentEvent {
  return (COMMENT_EVENTS as readonly string[]).includes(name ?? '')
}

let gitHubModule: Promise<GitHubModule> | undefined
function loadGitHub(): Promise<GitHubModule> {
  // undici (under @actions/github) is loaded lazily too; see deps/undici-lazy.
  gitHubModule ??= Promise.all([import('@actions/github'), import('undici-lazy').then((undici) => undici.preload())]).then(([github]) => github)
  return gitHubModule
}

/**
 * The comment of the event that started the run, read from GITHUB_EVENT_NAME and the payload file
 * at GITHUB_EVENT_PATH (through a fresh @actions/github Context, so the environment is read now,
 * not when the module was first loaded). Undefined for any other event.
 */
export async function readTriggeringComment(): Promise<TriggeringComment | undefined> {
  const eventName = process.env.GITHUB_EVENT_NAME
  if (!isCommentEvent(eventName)) return undefined
  const github = await loadGitHub()
  // The package exports only a ready-made `context` (built when it was first loaded); its class
  // builds a fresh one from the current environment.
  const Context = github.context.constructor as new () => GitHubModule['context']
  let context: GitHubModule['context']
  try {
    context = new Context()
  } catch (error) {
    throw new ActionError(`Could not read the \`${eventName}\` event payload at GITHUB_EVENT_PATH: ${errorMessage(error)}`)
  }
  const payload = context.payload as Record<string, unknown>
  const comment = record(payload.comment)
  const id = comment.id
  if (typeof id !== 'number' || typeof comment.body !== 'string') {
    throw new ActionError(
      `The \`${eventName}\` event payload (GITHUB_EVENT_PATH=${process.env.GITHUB_EVENT_PATH ?? 'unset'}) carries no comment with an \`id\` and a \`body\`.`
    )
  }
  const numbered = eventName === 'issue_comment' ? record(payload.issue) : record(payload.pull_request)
  let repository: TriggeringComment['repository']
  try {
    const { owner, repo } = context.repo
    if (owner && repo) repository = { owner, repo }
  } catch {
    repository = undefined
  }
  const runUrl =
    repository && Number.isFinite(context.runId)
      ? `${context.serverUrl}/${repository.owner}/${repository.repo}/actions/runs/${context.runId}`
      : undefined
  return {
    event: eventName,
    action: typeof payload.action === 'string' ? payload.action : undefined,
    id,
    threadId: typeof comment.in_reply_to_id === 'number' ? comment.in_reply_to_id : id,
    body: comment.body,
    author: typeof record(comment.user).login === 'string' ? (record(comment.user).login as string) : undefined,
    authorAssociation: typeof comment.author_association === 'string' ? comment.author_association : undefined,
    number: typeof numbered.number === 'number' ? numbered.number : undefined,
    repository,
    runUrl
  }
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

export type Reaction = 'eyes' | 'rocket' | '+1' | 'confused'

/**
 * Reacts to and replies on the triggering comment. Every failure is a warning: the agent's work
 * does not depend on it.
 */
export class CommentResponder {
  private constructor(
    private readonly octokit: Octokit,
    private readonly comment: TriggeringComment & { repository: { owner: string; repo: string } },
    private readonly log: Logger,
    private readonly signal: AbortSignal | undefined
  ) {}

  /** Undefined (after a warning) when there is no token or the payload lacks what GitHub needs. */
  static async open(
    comment: TriggeringComment,
    token: string | undefined,
    log: Logger,
    signal?: AbortSignal
  ): Promise<CommentResponder | undefined> {
    if (token === undefined || token === '') {
      log.warning('No `github-token`: the comment gets no reaction and no reply.')
      return undefined
    }
    const { repository } = comment
    if (repository === undefined || comment.number === undefined) {
      log.warning('The event payload does not name the repository and the issue or pull request: the comment gets no reaction and no reply.')
      return undefined
    }
    try {
      const github = await loadGitHub()
      const baseUrl = process.env.GITHUB_API_URL
      const octokit = github.getOctokit(token, baseUrl ? { baseUrl } : {})
      return new CommentResponder(octokit, { ...comment, repository }, log, signal)
    } catch (error) {
      log.warning(`Could not set up the GitHub client: ${errorMessage(error)}. The comment gets no reaction and no reply.`)
      return undefined
    }
  }

  async react(content: Reaction): Promise<boolean> {
    const { owner, repo } = this.comment.repository
    const request = { owner, repo, comment_id: this.comment.id, content, request: this.requestOptions() }
    return this.attempt(`react to comment ${this.comment.id}`, () =>
      this.comment.event === 'issue_comment'
        ? this.octokit.rest.reactions.createForIssueComment(request)
        : this.octokit.rest.reactions.createForPullRequestReviewComment(request)
    )
  }

  async reply(body: string): Promise<boolean> {
    const { owner, repo } = this.comment.repository
    const number = this.comment.number as number
    return this.attempt(`reply to comment ${this.comment.id}`, () =>
      this.comment.event === 'issue_comment'
        ? this.octokit.rest.issues.createComment({ owner, repo, issue_number: number, body, request: this.requestOptions() })
        : this.octokit.rest.pulls.createReplyForReviewComment({
            owner,
            repo,
            pull_number: number,
            comment_id: this.comment.threadId,
            body,
            request: this.requestOptions()
          })
    )
  }

  private requestOptions(): { signal: AbortSignal } {
    const timeout = AbortSignal.timeout(GITHUB_TIMEOUT_MS)
    return { signal: this.signal ? AbortSignal.any([this.signal, timeout]) : timeout }
  }

  private async attempt(what: string, call: () => Promise<unknown>): Promise<boolean> {
    if (this.signal?.aborted) return false
    try {
      await call()
      this.log.debug(`Did ${what}.`)
      return true
    } catch (error) {
      this.log.warning(`Could not ${what}: ${describeGitHubError(error)}`)
      return false
    }
  }
}

function describeGitHubError(error: unknown): string {
  const status = (error as { status?: unknown })?.status
  const message = errorMessage(error)
  if (typeof status !== 'number' || status === 0) return message
  const hint =
    status === 401 || status === 403 || status === 404
      ? ' Check that `github-token` may write to issues and pull requests (`permissions: issues: write, pull-requests: write`).'
      : ''
  return `HTTP ${status}: ${message}.${hint}`
}

export interface ReplyFacts {
  operation: 'agent-message' | 'agent-status' | 'agent-create'
  jobId: string | undefined
  status: string | undefined
  prLink: string | undefined
  /** False when the run did not wait for the job to end (`wait: false`). */
  waited: boolean
  /** The failure, when the run failed. */
  error: string | undefined
  runUrl: string | undefined
}

/**
 * The reply on the comment: the job, its status and the PR link, or the error. Secrets are cut
 * out of it (the log masks them, a comment does not).
 */
export function replyText(facts: ReplyFacts, secrets: ReadonlyArray<string | undefined>): string {
  const job = facts.jobId === undefined ? 'The docs agent' : `Docs agent job \`${facts.jobId}\``
  const status = `**${facts.status ?? 'unknown'}**`
  const lines: string[] = []
  if (facts.error !== undefined) {
    lines.push(facts.jobId === undefined ? '❌ The docs agent run failed.' : `❌ ${job}${facts.status ? ` (status ${status})` : ''}: the run failed.`, '', facts.error)
  } else if (!facts.waited && facts.operation !== 'agent-status') {
    const what = facts.operation === 'agent-create' ? 'was created' : 'has the message'
    lines.push(`⏳ ${job} ${what} (status ${status}); this run does not wait for it to finish.`)
  } else if (facts.status === 'completed') {
    lines.push(
      facts.prLink
        ? `✅ ${job} is **completed**. Pull request: ${facts.prLink}`
        : `✅ ${job} is **completed** with no file changes, so no pull request was opened.`
    )
  } else {
    const mark = facts.status !== undefined && ['archived', 'completed'].includes(facts.status) ? '✅' : 'ℹ️'
    lines.push(`${mark} ${job} is ${status}.${facts.prLink ? ` Pull request: ${facts.prLink}` : ''}`)
  }
  if (facts.runUrl) lines.push('', `[Workflow run](${facts.runUrl})`)
  return redact(lines.join('\n'), secrets)
}

export function redact(text: string, secrets: ReadonlyArray<string | undefined>): string {
  let out = text
  for (const secret of secrets) {
    if (secret !== undefined && secret.length >= 4) out = out.split(secret).join('***')
  }
  return out
}
