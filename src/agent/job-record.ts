/**
 * The memory of a pull request: one comment, written by the action, that says which agent job
 * opened it and how to steer it, with the job in a hidden marker. A later comment on the pull
 * request reaches the same job with no state outside GitHub. Only comments written by a bot (or by
 * the token's own user, for a personal access token) count as records, so nobody can point a
 * conversation at another job by writing the marker by hand;
 * and only records of the workflow's own `project-id`, with ids that are plain path segments, so
 * that a record another bot was made to post can at most name another job of that project.
 */
import { RECORD_MARKER } from '../github/markers.js'
import type { FlowContext } from '../action/context.js'
import type { GitHubApi, IssueComment, RepoRef } from '../action/host.js'
import { commentCode } from '../common/text.js'
import { isPlainSegment } from '../common/path-segment.js'
import { LISTING_TIMEOUT_MS, Serial, readGitHub, tryGitHub } from '../github/calls.js'
import { type Author, BY_A_BOT, type OurComments } from '../github/our-comments.js'
import type { RecordedJob } from '../reply/rerun-state.js'

export type { RecordedJob } from '../reply/rerun-state.js'

export interface PullRequestRef {
  repository: RepoRef
  number: number
}

export function recordBody(job: RecordedJob, command: string): string {
  return [
    `<!-- docs-admin-action:agent-job project=${encodeURIComponent(job.projectId)} ` +
      `job=${encodeURIComponent(job.jobId)} -->`,
    `🤖 Docs agent job ${commentCode(job.jobId)} opened this pull request.`,
    '',
    `To steer it, comment \`${command} <instruction>\` here: the instruction goes to the same job, and a reply ` +
      `shows its progress.`
  ].join('\n')
}

/**
 * The jobs recorded in a conversation, oldest first: markers in comments of trusted authors only
 * (by default bots), with ids that can be path segments as they are.
 */
export function recordedJobs(
  comments: readonly IssueComment[],
  trusted: (author: Author) => boolean = BY_A_BOT
): RecordedJob[] {
  const jobs: RecordedJob[] = []
  for (const comment of comments) {
    if (!trusted(comment.author)) continue
    const match = RECORD_MARKER.exec(comment.body)
    if (match === null) continue
    try {
      jobs.push({ projectId: decodeURIComponent(match[1] ?? ''), jobId: decodeURIComponent(match[2] ?? '') })
    } catch {
      // A malformed marker is no record.
    }
  }
  return jobs.filter((job) => isPlainSegment(job.projectId) && isPlainSegment(job.jobId))
}

/** `https://github.com/acme/docs/pull/12` on the server `https://github.com`: acme/docs #12. */
export function parsePullRequestLink(link: string, serverUrl: string): PullRequestRef | undefined {
  let url: URL
  let server: URL
  try {
    url = new URL(link)
    server = new URL(serverUrl)
  } catch {
    return undefined
  }
  const base = server.pathname.replace(/\/+$/, '')
  if (url.origin !== server.origin || !url.pathname.startsWith(`${base}/`)) return undefined
  const match = /^\/([^/]+)\/([^/]+)\/pull\/(\d+)(?:\/.*)?$/.exec(url.pathname.slice(base.length))
  if (match === null) return undefined
  const owner = pathName(match[1] ?? '')
  const repo = pathName(match[2] ?? '')
  return owner === undefined || repo === undefined
    ? undefined
    : { repository: { owner, repo }, number: Number(match[3]) }
}

/**
 * A segment of a link's path as the name it stands for; undefined when it names nothing: a broken
 * escape (`acme%zz`, which decodeURIComponent throws on) or a name that is no single segment.
 */
function pathName(segment: string): string | undefined {
  try {
    const name = decodeURIComponent(segment)
    return isPlainSegment(name) ? name : undefined
  } catch {
    return undefined
  }
}

export class JobRecords {
  /** `job@pull request` keys handled by this run: each is looked at once. */
  private readonly noted = new Set<string>()
  /** The records' writes, one after the other (see Serial). */
  private readonly writes = new Serial()

  constructor(
    private readonly github: GitHubApi,
    private readonly context: FlowContext,
    /** The comment command the record tells people to use. */
    private readonly command: string,
    /** The workflow's own repository, for the hint when a record cannot be written elsewhere. */
    private readonly home: RepoRef | undefined,
    /** `project-id`: records of other projects are not this workflow's to steer. */
    private readonly projectId: string,
    private readonly ours: OurComments
  ) {}

  /**
   * The job of the pull request's most recent record of this project; undefined when it has none.
   * Throws when its comments cannot be read.
   */
  async latest(pull: PullRequestRef): Promise<RecordedJob | undefined> {
    const comments = await readGitHub(
      this.context,
      (signal) => this.github.listIssueComments(pull.repository, pull.number, signal),
      LISTING_TIMEOUT_MS
    )
    const recorded = recordedJobs(comments, await this.ours.authors(comments, RECORD_MARKER, 'needed'))
    const latest = recorded.at(-1)
    if (latest !== undefined && latest.projectId !== this.projectId) {
      this.context.host.log.warning(
        `Pull request #${pull.number} records agent job ${latest.jobId} of project ${latest.projectId}, not of ` +
          `\`project-id\` (${this.projectId}): that record is not used.`
      )
    }
    return recorded.filter((job) => job.projectId === this.projectId).at(-1)
  }

  /** Records `job` on the pull request it opened, unless it is recorded there already. Best-effort. */
  async note(job: RecordedJob, pull: PullRequestRef): Promise<void> {
    await this.writes.now(() => this.noteNow(job, pull))
  }

  /** As note(), without waiting for it (while the job is followed: GitHub must not cost it its wait). */
  noteSoon(job: RecordedJob, pull: PullRequestRef): void {
    this.writes.soon(() => this.noteNow(job, pull))
  }

  /** Waits for the records queued so far. */
  async settled(): Promise<void> {
    await this.writes.settled()
  }

  private async noteNow(job: RecordedJob, pull: PullRequestRef): Promise<void> {
    const where = `${pull.repository.owner}/${pull.repository.repo}#${pull.number}`
    const key = `${job.projectId}/${job.jobId}@${where}`
    if (this.noted.has(key)) return
    this.noted.add(key)
    const hint = this.writeHint(pull.repository)
    const comments = await tryGitHub(
      this.context,
      `read the comments of ${where}`,
      (signal) => this.github.listIssueComments(pull.repository, pull.number, signal),
      hint,
      LISTING_TIMEOUT_MS
    )
    if (comments === undefined) return
    if (
      recordedJobs(comments, await this.ours.authors(comments, RECORD_MARKER, 'best-effort')).some(
        (recorded) => recorded.jobId === job.jobId && recorded.projectId === job.projectId
      )
    )
      return
    const posted = await tryGitHub(
      this.context,
      `record agent job ${job.jobId} on ${where}`,
      (signal) => this.github.createIssueComment(pull.repository, pull.number, recordBody(job, this.command), signal),
      hint
    )
    if (posted !== undefined)
      this.context.host.log.info(
        `Recorded agent job ${job.jobId} on ${where}: a comment \`${this.command} ...\` there reaches it.`
      )
  }

  private writeHint(repository: RepoRef): string {
    const where = `${repository.owner}/${repository.repo}`
    if (this.home === undefined || (this.home.owner === repository.owner && this.home.repo === repository.repo)) {
      return 'Check that `github-token` may write to pull requests (`permissions: pull-requests: write`).'
    }
    return (
      `The pull request is in ${where}, not in this workflow's repository: a token that may write to ${where}'s ` +
      `pull requests (a GitHub App's or a fine-grained token, passed as \`github-token\`) would record it there.`
    )
  }
}
