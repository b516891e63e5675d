/**
 * The acknowledgement and the one progress comment of a comment-triggered run, whatever the
 * operation: 👀 on the command at once, then one reply, posted as the request goes to the service
 * and edited in place as the job moves on. A run never posts a second reply, even when the first
 * may have failed half-way.
 *
 * The reply starts with a hidden marker (rerun-state.ts) that names the workflow run, step and
 * command it answers and what was asked of the service: a rerun of the workflow run (the same
 * command again) finds it, edits it instead of posting another, and carries on from it (see
 * resume()). So the marker that says a request is on its way is written before the request is
 * sent, or the request is not sent (see record()); every other write is best-effort.
 */
import type { FlowContext } from '../action/context.js'
import {
  type GitHubApi,
  GitHubApiError,
  type IssueComment,
  type PostedComment,
  type RepoRef,
  type RunnerVariable
} from '../action/host.js'
import { ActionError } from '../common/errors.js'
import {
  LISTING_TIMEOUT_MS,
  READ_PERMISSION_HINT,
  Serial,
  WRITE_PERMISSION_HINT,
  describeGitHubError,
  readGitHub,
  tryGitHub,
  tryGitHubWhenCancelled,
  writeGitHub
} from '../github/calls.js'
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
  /** The reply's writes, one after the other; the reaction's beside them (see Serial). */
  private readonly writes = new Serial()
  private readonly aside = new Serial()
  /** The body the latest write asked for: a queued edit of an older one is not made. */
  private wanted: string | undefined
  private tried = false
  private posted: PostedComment | undefined
  private shown: string | undefined
  /** What the reply's marker says (see rerun-state.ts). */
  private state: ReplyState

  private constructor(
    private readonly github: GitHubApi,
    private readonly comment: TriggeringComment & { repository: RepoRef },
    /** Where replies go: the issue or pull request. */
    private readonly number: number,
    private readonly context: FlowContext,
    private readonly ours: OurComments
  ) {
    const env = (name: RunnerVariable): string | undefined => context.host.env(name)
    const step = [env('GITHUB_JOB'), env('GITHUB_ACTION')].filter((part) => part !== undefined).join('.')
    this.state = {
      run: env('GITHUB_RUN_ID') ?? '',
      step: step === '' ? undefined : step,
      comment: comment.id,
      review: comment.kind === 'review' || undefined
    }
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
    // Until the earlier reply is known not to exist, this attempt posts none of its own.
    this.tried = true
    let earlier: Awaited<ReturnType<RunReply['findReply']>>
    try {
      earlier = await this.findReply('needed')
    } catch (error) {
      if (!(error instanceof GitHubApiError)) throw error
      throw new ActionError(
        `Could not read the comments of #${this.number} to find the reply an earlier attempt of this workflow ` +
          `run posted (${describeGitHubError(error, READ_PERMISSION_HINT)}), so this rerun asks nothing of the ` +
          `docs service: not knowing what the earlier attempt asked, it could send the message twice or create a ` +
          `second job. Rerun the workflow once GitHub answers, or comment the command again.`
      )
    }
    if (earlier === undefined) {
      this.tried = false
      return undefined
    }
    this.adopt(earlier.posted)
    this.state = earlier.state
    return this.state
  }

  /**
   * This workflow run's reply to this command in the thread (the last, were there more), and what
   * its marker says; undefined when there is none. `needed`: throws when the conversation cannot
   * be read; `best-effort`: one bounded try, and undefined (after a warning) when it fails.
   */
  private async findReply(
    how: 'needed' | 'best-effort'
  ): Promise<{ posted: PostedComment; state: ReplyState } | undefined> {
    const { repository, kind, threadId } = this.comment
    const list = (signal: AbortSignal): Promise<IssueComment[]> =>
      kind === 'review-comment'
        ? this.github.listReviewComments(repository, this.number, signal)
        : this.github.listIssueComments(repository, this.number, signal)
    const comments =
      how === 'needed'
        ? await readGitHub(this.context, list, LISTING_TIMEOUT_MS)
        : await tryGitHub(
            this.context,
            `look for the reply to comment ${this.comment.id}`,
            list,
            READ_PERMISSION_HINT,
            LISTING_TIMEOUT_MS
          )
    if (comments === undefined) return undefined
    const ours = await this.ours.authors(comments, REPLY_MARKER, how)
    // The same command of the same workflow run and step: another workflow, or another step,
    // answering it keeps its own reply.
    const { comment: id, run, step, review } = this.state
    const answers = (comment: IssueComment): ReplyState | undefined => {
      if (!ours(comment.author) || (kind === 'review-comment' && comment.inReplyTo !== threadId)) return undefined
      const state = readReplyMarker(comment.body)
      return state?.comment === id && state.run === run && state.step === step && state.review === review
        ? state
        : undefined
    }
    const replies = comments.flatMap((comment) => {
      const state = answers(comment)
      return state === undefined ? [] : [{ posted: { id: comment.id, url: comment.url }, state }]
    })
    // Two replies: a post GitHub made late, after the one the attempt went on with. The late one
    // still says it is asking; the other says how that ended, and is the one to go on from.
    return replies.findLast((reply) => reply.state.outcome !== 'pending') ?? replies.at(-1)
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
    await Promise.all([this.writes.settled(), this.aside.settled()])
  }

  /**
   * After a cancellation: the reply, if there is one, is edited once more to `body`, so that it
   * does not say "working" for good. No reply is posted just for this.
   */
  async cancelled(text: string): Promise<void> {
    await this.writes.now(() => this.cancelledNow(text))
  }

  private async cancelledNow(text: string): Promise<void> {
    const posted = this.posted
    const body = this.marked(text)
    if (posted === undefined || body === this.shown) return
    this.shown = body
    await tryGitHubWhenCancelled(this.context, `update the reply ${posted.id}`, this.update(posted, body))
  }

  /**
   * Shows `text` and makes sure GitHub has it: posts the reply, or edits it when there is one.
   * For what the marker must say before a request goes to the service (see advance):
   * a rerun that did not find it would ask the service again. Retried as a read is; throws an
   * ActionError naming the cause (a token that may not write comments, say) when it cannot be written.
   */
  async record(text: string): Promise<void> {
    const body = this.marked(text)
    this.wanted = body
    await this.writes.now(() => this.recordNow(body))
  }

  private async recordNow(body: string): Promise<void> {
    const posted = this.posted
    this.tried = true
    try {
      if (posted !== undefined) await writeGitHub(this.context, this.update(posted, body))
      // A post that failed half-way is looked for before the next try: never a second reply.
      else
        this.adopt(
          await writeGitHub(this.context, this.post(body), async () => (await this.findReply('needed'))?.posted)
        )
    } catch (error) {
      if (!(error instanceof GitHubApiError)) throw error
      const what = posted === undefined ? 'post the reply to' : 'update the reply to'
      throw new ActionError(
        `Could not ${what} comment ${this.comment.id} (${describeGitHubError(error, WRITE_PERMISSION_HINT)}), so ` +
          `nothing was sent to the docs service: the reply's hidden marker is what keeps a rerun of this workflow ` +
          `run from asking the service again. Rerun the workflow once GitHub takes the comment; if GitHub posted ` +
          `the reply all the same, the rerun cannot tell that nothing was sent and will not ask again (comment the ` +
          `command again instead).`
      )
    }
    this.shown = body
  }

  /**
   * Shows `text`: the first call posts the reply, later calls edit it. Best-effort, once the
   * writes queued before it are done.
   */
  async show(text: string): Promise<void> {
    const body = this.marked(text)
    this.wanted = body
    await this.writes.now(() => this.write(body))
  }

  /**
   * Shows `text` as show() does, but without waiting for it (while the job is followed: a slow
   * GitHub must not cost the job its wait). A later show makes an edit not yet started needless.
   */
  showSoon(text: string): void {
    const body = this.marked(text)
    this.wanted = body
    this.writes.soon(async () => (this.wanted === body ? this.write(body) : undefined))
  }

  private async write(body: string): Promise<void> {
    if (body === this.shown) return
    this.shown = body
    const { id } = this.comment
    if (!this.tried) {
      this.tried = true
      // A post that failed may have been made all the same (its answer lost or unreadable): it
      // carries the marker, so it is found, and edited from then on, never posted twice.
      const posted =
        (await tryGitHub(this.context, `reply to comment ${id}`, this.post(body))) ??
        (await this.findReply('best-effort'))?.posted
      if (posted !== undefined) this.adopt(posted)
      return
    }
    const posted = this.posted
    if (posted === undefined) return
    await tryGitHub(this.context, `update the reply ${posted.id}`, this.update(posted, body))
  }

  /** `posted` is this run's reply from now on. */
  private adopt(posted: PostedComment): void {
    this.posted = posted
    if (posted.url !== undefined) this.context.outputs.set('comment-url', posted.url)
  }

  /** The post of the reply `body`: in a review comment's thread, else in the conversation. */
  private post(body: string): (signal: AbortSignal) => Promise<PostedComment> {
    const { repository, kind, threadId } = this.comment
    return (signal) =>
      kind === 'review-comment'
        ? this.github.replyToReviewComment(repository, this.number, threadId, body, signal)
        : this.github.createIssueComment(repository, this.number, body, signal)
  }

  /** The edit of the reply to `body`, in a review comment's thread or in the conversation. */
  private update(posted: PostedComment, body: string): (signal: AbortSignal) => Promise<void> {
    const { repository, kind } = this.comment
    return (signal) =>
      kind === 'review-comment'
        ? this.github.updateReviewComment(repository, posted.id, body, signal)
        : this.github.updateIssueComment(repository, posted.id, body, signal)
  }

  private marked(text: string): string {
    return `${formatReplyMarker(this.state)}${text}`
  }
}
