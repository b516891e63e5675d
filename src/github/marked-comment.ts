/**
 * One comment of the action's, kept up to date in place: a run's reply to a command, or a pull
 * request's preview comment. It opens with a hidden marker, so a later run (or a later attempt)
 * finds it again and edits it instead of posting another; a marker counts only in a comment of
 * ours (see our-comments.ts), so a copy of it in someone else's comment is ignored and others'
 * comments are never edited. Writes go one after the other, a later one never overtaken by an
 * earlier (see Serial), and a post is never made twice: after a post that failed in any way, the
 * comment is looked for before anything is posted again.
 */
import type { FlowContext } from '../action/context.js'
import { type GitHubApi, GitHubApiError, type IssueComment, type PostedComment, type RepoRef } from '../action/host.js'
import { ActionError } from '../common/errors.js'
import {
  LISTING_TIMEOUT_MS,
  READ_PERMISSION_HINT,
  Serial,
  describeGitHubError,
  readGitHub,
  tryGitHub,
  tryGitHubWhenCancelled,
  writeGitHub
} from './calls.js'
import type { OurComments } from './our-comments.js'

/** Where the comment is: a conversation (an issue's or a pull request's), or a review comment's thread. */
export interface CommentPlace {
  repository: RepoRef
  /** The issue or pull request. */
  number: number
  /** The first comment of a review comment's thread; undefined for the conversation. */
  thread: number | undefined
}

/** A comment of ours found in the place, and its body. */
export interface Found {
  posted: PostedComment
  body: string
}

/** Which comment is this one: its marker's pattern, and among our comments with it, the one to keep. */
export interface Marker {
  pattern: RegExp
  /** Of the comments of ours that carry the marker, oldest first: this one, or undefined. */
  select(found: readonly Found[]): Found | undefined
}

export class MarkedComment {
  private readonly writes = new Serial()
  /** The body the latest write asked for: a queued edit of an older one is not made. */
  private wanted: string | undefined
  /** A post was tried (or the comment is being looked for): no first post any more. */
  private tried = false
  private current: PostedComment | undefined
  private shown: string | undefined

  constructor(
    private readonly github: GitHubApi,
    private readonly context: FlowContext,
    private readonly place: CommentPlace,
    private readonly ours: OurComments,
    private readonly marker: Marker,
    /** What it is, for messages: `the reply`, and `to comment 123` (of the one to post). */
    private readonly noun: string,
    private readonly of: string
  ) {}

  private get what(): string {
    return `${this.noun} ${this.of}`
  }

  get posted(): PostedComment | undefined {
    return this.current
  }

  /**
   * The comment as an earlier run left it, which becomes this one (later writes edit it);
   * undefined when there is none. `needed`: throws a GitHubApiError when the place cannot be read;
   * `best-effort`: one bounded try, and undefined (after a warning) when it fails. Until it is
   * known not to exist, nothing is posted: after a read that failed, nothing is posted at all (a
   * second comment is worse than none).
   */
  async find(how: 'needed' | 'best-effort'): Promise<Found | undefined> {
    this.tried = true
    const found = await this.look(how)
    if (found === 'unread') return undefined
    if (found === undefined) {
      this.tried = false
      return undefined
    }
    this.adopt(found.posted)
    return found
  }

  /**
   * Makes sure GitHub has `body`: posts the comment, or edits it. Retried as a read is; throws an
   * ActionError when it cannot be written, in one sentence: what failed, then `why` it matters,
   * then the fix (the permission, for a refusal).
   */
  async record(body: string, why: string): Promise<void> {
    this.wanted = body
    await this.writes.now(() => this.recordNow(body, why))
  }

  /** Shows `body`: the first write posts the comment, later ones edit it. Best-effort. */
  async show(body: string): Promise<void> {
    this.wanted = body
    await this.writes.now(() => this.write(body))
  }

  /** As show(), without waiting for it; a later show makes an edit not yet started needless. */
  showSoon(body: string): void {
    this.wanted = body
    this.writes.soon(async () => (this.wanted === body ? this.write(body) : undefined))
  }

  /** After a cancellation: the comment, if there is one, is edited once more; none is posted for this. */
  async cancelled(body: string): Promise<void> {
    await this.writes.now(async () => {
      const posted = this.current
      if (posted === undefined || body === this.shown) return
      this.shown = body
      await tryGitHubWhenCancelled(this.context, `update ${this.noun} ${posted.id}`, this.update(posted, body))
    })
  }

  async settled(): Promise<void> {
    await this.writes.settled()
  }

  /** Our comments here with the marker, and the one `select` takes; `unread` when a best-effort read failed. */
  private async look(how: 'needed' | 'best-effort'): Promise<Found | undefined | 'unread'> {
    const { repository, number, thread } = this.place
    const list = (signal: AbortSignal): Promise<IssueComment[]> =>
      thread === undefined
        ? this.github.listIssueComments(repository, number, signal)
        : this.github.listReviewComments(repository, number, signal)
    const comments =
      how === 'needed'
        ? await readGitHub(this.context, list, LISTING_TIMEOUT_MS)
        : await tryGitHub(this.context, `look for ${this.what}`, list, READ_PERMISSION_HINT, LISTING_TIMEOUT_MS)
    if (comments === undefined) return 'unread'
    const ours = await this.ours.authors(comments, this.marker.pattern, how)
    const found = comments
      .filter((comment) => ours(comment.author) && (thread === undefined || comment.inReplyTo === thread))
      .filter((comment) => this.marker.pattern.test(comment.body))
      .map((comment) => ({ posted: { id: comment.id, url: comment.url }, body: comment.body }))
    return this.marker.select(found)
  }

  private async recordNow(body: string, why: string): Promise<void> {
    const posted = this.current
    this.tried = true
    try {
      if (posted !== undefined) await writeGitHub(this.context, this.update(posted, body))
      // A post that failed half-way is looked for before the next try: never a second comment.
      else
        this.adopt(
          await writeGitHub(this.context, this.post(body), async () => {
            const found = await this.look('needed')
            return found === 'unread' ? undefined : found?.posted
          })
        )
    } catch (error) {
      if (!(error instanceof GitHubApiError)) throw error
      const what = posted === undefined ? 'post' : 'update'
      const fix =
        error.refused && !error.rateLimited
          ? 'give the workflow `permissions: issues: write, pull-requests: write`'
          : `rerun the workflow once GitHub answers; if GitHub posted ${this.noun} all the same, the rerun cannot ` +
            'tell that nothing was sent and will not ask again (comment the command again instead)'
      throw new ActionError(`Could not ${what} ${this.what} (${describeGitHubError(error, '')}), so ${why}: ${fix}.`)
    }
    this.shown = body
  }

  private async write(body: string): Promise<void> {
    if (body === this.shown) return
    this.shown = body
    if (!this.tried) {
      this.tried = true
      // A post that failed may have been made all the same (its answer lost or unreadable): it
      // carries the marker, so it is found, and edited from then on, never posted twice.
      let posted = await tryGitHub(this.context, `post ${this.what}`, this.post(body))
      if (posted === undefined) {
        const found = await this.look('best-effort')
        posted = found === 'unread' ? undefined : found?.posted
      }
      if (posted !== undefined) this.adopt(posted)
      return
    }
    const posted = this.current
    if (posted === undefined) return
    await tryGitHub(this.context, `update ${this.noun} ${posted.id}`, this.update(posted, body))
  }

  private adopt(posted: PostedComment): void {
    this.current = posted
    if (posted.url !== undefined) this.context.outputs.set('comment-url', posted.url)
  }

  private post(body: string): (signal: AbortSignal) => Promise<PostedComment> {
    const { repository, number, thread } = this.place
    return (signal) =>
      thread === undefined
        ? this.github.createIssueComment(repository, number, body, signal)
        : this.github.replyToReviewComment(repository, number, thread, body, signal)
  }

  private update(posted: PostedComment, body: string): (signal: AbortSignal) => Promise<void> {
    const { repository, thread } = this.place
    return (signal) =>
      thread === undefined
        ? this.github.updateIssueComment(repository, posted.id, body, signal)
        : this.github.updateReviewComment(repository, posted.id, body, signal)
  }
}
