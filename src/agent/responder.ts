/**
 * Reacts to and replies on the triggering comment through the GitHub port. Every failure is a
 * warning: the agent's work does not depend on it.
 */
import type { FlowContext } from '../action/context.js'
import { type GitHubApi, GitHubApiError, type Reaction, type RepoRef } from '../action/host.js'
import { withTimeout } from '../common/cancellation.js'
import { errorMessage } from '../common/errors.js'
import type { TriggeringComment } from './trigger.js'

/** Bound on one GitHub request: a slow GitHub API must not hold up the step. */
const GITHUB_TIMEOUT_MS = 15_000

type Reachable = TriggeringComment & { repository: RepoRef; number: number }

export class CommentResponder {
  private constructor(
    private readonly github: GitHubApi,
    private readonly comment: Reachable,
    private readonly context: FlowContext
  ) {}

  /** Undefined (after a warning) when there is no token or the payload lacks what GitHub needs. */
  static async open(comment: TriggeringComment, token: string | undefined, context: FlowContext): Promise<CommentResponder | undefined> {
    const { log } = context.host
    if (token === undefined || token === '') {
      log.warning('No `github-token`: the comment gets no reaction and no reply.')
      return undefined
    }
    const { repository, number } = comment
    if (repository === undefined || number === undefined) {
      log.warning('The event payload does not name the repository and the issue or pull request: the comment gets no reaction and no reply.')
      return undefined
    }
    try {
      return new CommentResponder(await context.host.github(token), { ...comment, repository, number }, context)
    } catch (error) {
      log.warning(`Could not set up the GitHub client: ${errorMessage(error)}. The comment gets no reaction and no reply.`)
      return undefined
    }
  }

  react(content: Reaction): Promise<boolean> {
    const { repository, id, event } = this.comment
    return this.attempt(`react to comment ${id}`, (signal) =>
      event === 'issue_comment'
        ? this.github.reactToIssueComment(repository, id, content, signal)
        : this.github.reactToReviewComment(repository, id, content, signal)
    )
  }

  reply(body: string): Promise<boolean> {
    const { repository, id, event, number, threadId } = this.comment
    return this.attempt(`reply to comment ${id}`, (signal) =>
      event === 'issue_comment'
        ? this.github.createIssueComment(repository, number, body, signal)
        : this.github.replyToReviewComment(repository, number, threadId, body, signal)
    )
  }

  private async attempt(what: string, call: (signal: AbortSignal) => Promise<unknown>): Promise<boolean> {
    const { clock, signal, host } = this.context
    if (signal.aborted) return false
    try {
      await withTimeout(clock, GITHUB_TIMEOUT_MS, signal, call)
      host.log.debug(`Did ${what}.`)
      return true
    } catch (error) {
      host.log.warning(`Could not ${what}: ${describeGitHubError(error)}`)
      return false
    }
  }
}

function describeGitHubError(error: unknown): string {
  const message = errorMessage(error)
  if (!(error instanceof GitHubApiError) || error.status === 0) return message
  const hint =
    error.status === 401 || error.status === 403 || error.status === 404
      ? ' Check that `github-token` may write to issues and pull requests (`permissions: issues: write, pull-requests: write`).'
      : ''
  return `HTTP ${error.status}: ${message}.${hint}`
}
