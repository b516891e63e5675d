/**
 * The acknowledgement and the one progress comment of a comment-triggered run, whatever the
 * operation: 👀 on the command at once, then one reply, posted as the request goes to the service
 * and edited in place as the job moves on (a MarkedComment: never posted twice, even when the
 * first post may have failed half-way).
 *
 * The reply starts with a hidden marker (rerun-state.ts) that names the workflow run, step and
 * command it answers and what was asked of the service: a rerun of the workflow run (the same
 * command again) finds it, edits it instead of posting another, and carries on from it (see
 * resume()). So the marker that says a request is on its way is written before the request is
 * sent, or the request is not sent (see record()); every other write is best-effort.
 */
import type { FlowContext } from '../action/context.js'
import { type GitHubApi, GitHubApiError, type RepoRef, type RunnerVariable } from '../action/host.js'
import { ActionError } from '../common/errors.js'
import { READ_PERMISSION_HINT, Serial, describeGitHubError, tryGitHub } from '../github/calls.js'
import { type Found, MarkedComment } from '../github/marked-comment.js'
import type { OurComments } from '../github/our-comments.js'
import { REPLY_MARKER } from '../github/markers.js'
import {
  type MarkerWrite,
  type ReplyState,
  type RerunEvent,
  advance,
  formatReplyMarker,
  readReplyMarker
} from './rerun-state.js'
import type { TriggeringComment } from '../gate/trigger.js'

export class RunReply {
  private readonly reply: MarkedComment
  /** The reaction's write, beside the reply's (see Serial). */
  private readonly aside = new Serial()
  /** What the reply's marker says (see rerun-state.ts). */
  private state: ReplyState

  private constructor(
    private readonly github: GitHubApi,
    private readonly comment: TriggeringComment & { repository: RepoRef },
    /** Where replies go: the issue or pull request. */
    private readonly number: number,
    private readonly context: FlowContext,
    ours: OurComments
  ) {
    const env = (name: RunnerVariable): string | undefined => context.host.env(name)
    const step = [env('GITHUB_JOB'), env('GITHUB_ACTION')].filter((part) => part !== undefined).join('.')
    this.state = {
      run: env('GITHUB_RUN_ID') ?? '',
      step: step === '' ? undefined : step,
      comment: comment.id,
      review: comment.kind === 'review' || undefined
    }
    const thread = comment.kind === 'review-comment' ? comment.threadId : undefined
    this.reply = new MarkedComment(
      github,
      context,
      { repository: comment.repository, number, thread },
      ours,
      { pattern: REPLY_MARKER, select: (found) => this.select(found) },
      'the reply',
      `to comment ${comment.id}`
    )
  }

  /**
   * Undefined (after a line that says why) where the action does not reply: a discussion's or a
   * commit's comment (GitHub's REST API has no such replies), or a payload that does not say
   * where the comment is.
   */
  static open(
    github: GitHubApi,
    comment: TriggeringComment,
    context: FlowContext,
    ours: OurComments
  ): RunReply | undefined {
    const { repository, subject, kind } = comment
    if (kind === 'discussion' || kind === 'commit' || kind === 'unknown') {
      context.host.log.info(
        `The action does not reply to a \`${comment.event}\` comment: it gets no reaction or reply.`
      )
      return undefined
    }
    if (repository === undefined || subject === undefined) {
      context.host.log.warning(
        'The event payload does not name the repository and the issue or pull request: the comment gets no ' +
          'reaction and no reply.'
      )
      return undefined
    }
    return new RunReply(github, { ...comment, repository }, subject.number, context, ours)
  }

  /**
   * On a rerun of the workflow run: the reply an earlier attempt posted to this command becomes
   * this run's reply, and what its marker says of the earlier attempt is returned (undefined when
   * there is none). Throws when the conversation cannot be read: a guess could send the message
   * twice or start a second job. No second reply is posted in that case either.
   */
  async resume(): Promise<ReplyState | undefined> {
    let earlier: Found | undefined
    try {
      earlier = await this.reply.find('needed')
    } catch (error) {
      if (!(error instanceof GitHubApiError)) throw error
      throw new ActionError(
        `Could not read the comments of #${this.number} to find the reply an earlier attempt of this workflow ` +
          `run posted (${describeGitHubError(error, READ_PERMISSION_HINT)}), so this rerun asks nothing of the ` +
          `docs service: not knowing what the earlier attempt asked, it could send the message twice or create a ` +
          `second job. Rerun the workflow once GitHub answers, or comment the command again.`
      )
    }
    const state = earlier === undefined ? undefined : readReplyMarker(earlier.body)
    if (state !== undefined) this.state = state
    return state
  }

  /**
   * This workflow run's reply to this command (the same run, step and command: another workflow,
   * or another step, answering it keeps its own reply). Of two replies (a post GitHub made late,
   * after the one the attempt went on with), the late one still says it is asking; the other says
   * how that ended, and is the one to go on from.
   */
  private select(found: readonly Found[]): Found | undefined {
    const { comment: id, run, step, review } = this.state
    const replies = found.filter((reply) => {
      const state = readReplyMarker(reply.body)
      return state?.comment === id && state.run === run && state.step === step && state.review === review
    })
    return replies.findLast((reply) => readReplyMarker(reply.body)?.outcome !== 'pending') ?? replies.at(-1)
  }

  /**
   * What the marker says from now on, after `event`; returns when GitHub must have it (see
   * rerun-state.ts): `before-asking`, through record() before the request goes out; else the
   * next edit carries it.
   */
  advance(event: RerunEvent): MarkerWrite {
    const next = advance(this.state, event)
    this.state = next.state
    return next.write
  }

  /** 👀 on the command, not waited for (see settled). GitHub takes no reaction on a review. */
  acknowledge(): void {
    const { repository, id, kind } = this.comment
    if (kind === 'review') return
    this.aside.soon(() =>
      tryGitHub(this.context, `react to comment ${id}`, (signal) =>
        kind === 'review-comment'
          ? this.github.reactToReviewComment(repository, id, 'eyes', signal)
          : this.github.reactToIssueComment(repository, id, 'eyes', signal)
      )
    )
  }

  /** Waits for every write queued so far (the reaction, edits not waited for). */
  async settled(): Promise<void> {
    await Promise.all([this.reply.settled(), this.aside.settled()])
  }

  /**
   * After a cancellation: the reply, if there is one, is edited once more to `text`, so that it
   * does not say "working" for good. No reply is posted just for this.
   */
  async cancelled(text: string): Promise<void> {
    await this.reply.cancelled(this.marked(text))
  }

  /**
   * Shows `text` and makes sure GitHub has it, for what the marker must say before a request goes
   * to the service (see advance): a rerun that did not find it would ask the service again.
   * Throws an ActionError naming the cause when it cannot be written.
   */
  async record(text: string): Promise<void> {
    await this.reply.record(
      this.marked(text),
      "nothing was sent to the docs service (the reply's marker keeps a rerun from asking twice)"
    )
  }

  /** Shows `text`: the first call posts the reply, later calls edit it. Best-effort. */
  async show(text: string): Promise<void> {
    await this.reply.show(this.marked(text))
  }

  /** As show(), not waited for (while the job is followed: a slow GitHub must not cost the job its wait). */
  showSoon(text: string): void {
    this.reply.showSoon(this.marked(text))
  }

  private marked(text: string): string {
    return `${formatReplyMarker(this.state)}${text}`
  }
}
