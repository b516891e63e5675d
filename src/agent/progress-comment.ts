/**
 * The acknowledgement and the one progress comment of a comment-triggered run: 👀 on the command at
 * once, then one reply, posted when the service accepts the request and edited in place as the
 * job moves on. A run never posts a second reply, even when the first may have failed half-way.
 */
import type { FlowContext } from '../action/context.js'
import type { GitHubApi, PostedComment, RepoRef } from '../action/host.js'
import { tryGitHub, tryGitHubWhenCancelled } from './github-calls.js'
import type { TriggeringComment } from './trigger.js'

export class ProgressComment {
  private tried = false
  private posted: PostedComment | undefined
  private shown: string | undefined

  private constructor(
    private readonly github: GitHubApi,
    private readonly comment: TriggeringComment & { repository: RepoRef },
    /** Where replies go: the issue or pull request. */
    private readonly number: number,
    private readonly context: FlowContext
  ) {}

  /** Undefined (after a warning) when the payload does not say where the comment is. */
  static open(github: GitHubApi, comment: TriggeringComment, context: FlowContext): ProgressComment | undefined {
    const { repository, subject } = comment
    if (repository === undefined || subject === undefined) {
      context.host.log.warning('The event payload does not name the repository and the issue or pull request: the comment gets no reaction and no reply.')
      return undefined
    }
    return new ProgressComment(github, { ...comment, repository }, subject.number, context)
  }

  async acknowledge(): Promise<void> {
    const { repository, id, event } = this.comment
    await tryGitHub(this.context, `react to comment ${id}`, (signal) =>
      event === 'issue_comment' ? this.github.reactToIssueComment(repository, id, 'eyes', signal) : this.github.reactToReviewComment(repository, id, 'eyes', signal)
    )
  }

  /**
   * After a cancellation: the reply, if there is one, is edited once more to `body`, so that it
   * does not say "working" for good. No reply is posted just for this.
   */
  async cancelled(body: string): Promise<void> {
    const posted = this.posted
    if (posted === undefined || body === this.shown) return
    this.shown = body
    const { repository, event } = this.comment
    await tryGitHubWhenCancelled(this.context, `update the reply ${posted.id}`, (signal) =>
      event === 'issue_comment'
        ? this.github.updateIssueComment(repository, posted.id, body, signal)
        : this.github.updateReviewComment(repository, posted.id, body, signal)
    )
  }

  /** Shows `body`: the first call posts the reply, later calls edit it. */
  async show(body: string): Promise<void> {
    if (body === this.shown) return
    this.shown = body
    const { repository, id, event, threadId } = this.comment
    if (!this.tried) {
      this.tried = true
      this.posted = await tryGitHub(this.context, `reply to comment ${id}`, (signal) =>
        event === 'issue_comment'
          ? this.github.createIssueComment(repository, this.number, body, signal)
          : this.github.replyToReviewComment(repository, this.number, threadId, body, signal)
      )
      if (this.posted?.url !== undefined) this.context.outputs.set('comment-url', this.posted.url)
      return
    }
    const posted = this.posted
    if (posted === undefined) return
    await tryGitHub(this.context, `update the reply ${posted.id}`, (signal) =>
      event === 'issue_comment'
        ? this.github.updateIssueComment(repository, posted.id, body, signal)
        : this.github.updateReviewComment(repository, posted.id, body, signal)
    )
  }
}
