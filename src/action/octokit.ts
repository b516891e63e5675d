/**
 * The GitHub API port over Octokit (@actions/github). Loaded only when a run talks to GitHub, so
 * that other runs do not pay for loading Octokit and its plugins.
 */
import { getOctokit } from '@actions/github'
import { errorMessage } from '../common/errors.js'
import { serviceText } from '../common/text.js'
import {
  type AnswerReader,
  commentPage,
  createdDeployment,
  inlineCommentPage,
  kindOf,
  login,
  permission,
  postedComment
} from './github-answers.js'
import { type GitHubApi, GitHubAnswerError, GitHubApiError, type IssueComment, type RepoRef } from './host.js'

/** A conversation is read to at most this many pages of COMMENTS_PER_PAGE comments. */
const MAX_COMMENT_PAGES = 50
const COMMENTS_PER_PAGE = 100

/** An answer as Octokit gives it: the status, and the body (its raw text when it was not JSON). */
type Answered = { status: number; data: unknown }

/** `apiUrl`: GITHUB_API_URL, so that GitHub Enterprise Server works; github.com when unset. */
export function createGitHubApi(token: string, apiUrl: string | undefined): GitHubApi {
  const octokit = getOctokit(token, apiUrl ? { baseUrl: apiUrl } : {})
  const { rest } = octokit
  /** One request, its failure as a GitHubApiError, its answer read by `read` (or only its status judged). */
  const call = async <T>(
    what: string,
    signal: AbortSignal | undefined,
    request: () => Promise<Answered>,
    read: AnswerReader<T>
  ): Promise<T> => {
    let answer: Answered
    try {
      answer = await request()
    } catch (error) {
      throw failed(error, signal)
    }
    // A body its signal cut short reads as an empty one: that is no answer, not an empty answer.
    if (signal?.aborted === true) throw new GitHubApiError(0, errorMessage(signal.reason))
    return read(answer.data, answer.status, what)
  }
  const done: AnswerReader<void> = () => undefined
  const where = ({ owner, repo }: RepoRef, number?: number): string =>
    `${owner}/${repo}${number === undefined ? '' : `#${number}`}`
  return {
    tokenLogin: async (signal) => {
      try {
        return await call(
          'read whom the token writes as',
          signal,
          () => rest.users.getAuthenticated({ request: { signal } }),
          login
        )
      } catch (error) {
        // An installation token: "Resource not accessible by integration".
        if (error instanceof GitHubApiError && error.refused && !error.rateLimited) return undefined
        throw error
      }
    },
    getPermission: (repository, username, signal) =>
      call(
        `read the permission of ${username} on ${where(repository)}`,
        signal,
        () => rest.repos.getCollaboratorPermissionLevel({ ...repository, username, request: { signal } }),
        permission
      ),
    listIssueComments: (repository, issueNumber, signal) =>
      allComments(`the comments of ${where(repository, issueNumber)}`, (page) =>
        call(
          `list the comments of ${where(repository, issueNumber)} (page ${page})`,
          signal,
          () =>
            rest.issues.listComments({
              ...repository,
              issue_number: issueNumber,
              per_page: COMMENTS_PER_PAGE,
              page,
              request: { signal }
            }),
          commentPage
        )
      ),
    listReviewComments: (repository, pullNumber, signal) =>
      allComments(`the review comments of ${where(repository, pullNumber)}`, (page) =>
        call(
          `list the review comments of ${where(repository, pullNumber)} (page ${page})`,
          signal,
          () =>
            rest.pulls.listReviewComments({
              ...repository,
              pull_number: pullNumber,
              per_page: COMMENTS_PER_PAGE,
              page,
              request: { signal }
            }),
          commentPage
        )
      ),
    reactToIssueComment: (repository, commentId, content, signal) =>
      call(
        `react to comment ${commentId}`,
        signal,
        () =>
          rest.reactions.createForIssueComment({ ...repository, comment_id: commentId, content, request: { signal } }),
        done
      ),
    reactToReviewComment: (repository, commentId, content, signal) =>
      call(
        `react to review comment ${commentId}`,
        signal,
        () =>
          rest.reactions.createForPullRequestReviewComment({
            ...repository,
            comment_id: commentId,
            content,
            request: { signal }
          }),
        done
      ),
    createIssueComment: (repository, issueNumber, body, signal) =>
      call(
        `post a comment on ${where(repository, issueNumber)}`,
        signal,
        () => rest.issues.createComment({ ...repository, issue_number: issueNumber, body, request: { signal } }),
        postedComment
      ),
    replyToReviewComment: (repository, pullNumber, commentId, body, signal) =>
      call(
        `reply to review comment ${commentId} on ${where(repository, pullNumber)}`,
        signal,
        () =>
          rest.pulls.createReplyForReviewComment({
            ...repository,
            pull_number: pullNumber,
            comment_id: commentId,
            body,
            request: { signal }
          }),
        postedComment
      ),
    listReviewInlineComments: (repository, pullNumber, reviewId, max, signal) =>
      call(
        `list the comments of review ${reviewId} on ${where(repository, pullNumber)}`,
        signal,
        () =>
          rest.pulls.listCommentsForReview({
            ...repository,
            pull_number: pullNumber,
            review_id: reviewId,
            per_page: Math.min(max, COMMENTS_PER_PAGE),
            page: 1,
            request: { signal }
          }),
        inlineCommentPage
      ),
    createDeployment: (repository, request, signal) =>
      call(
        `create a deployment of ${request.ref} in ${request.environment} on ${where(repository)}`,
        signal,
        () =>
          rest.repos.createDeployment({
            ...repository,
            ref: request.ref,
            environment: request.environment,
            description: request.description,
            transient_environment: true,
            production_environment: false,
            auto_merge: false,
            required_contexts: [],
            request: { signal }
          }),
        createdDeployment
      ),
    createDeploymentStatus: (repository, deploymentId, state, signal) =>
      call(
        `set the status of deployment ${deploymentId} on ${where(repository)}`,
        signal,
        () =>
          rest.repos.createDeploymentStatus({
            ...repository,
            deployment_id: deploymentId,
            state: state.state,
            description: state.description,
            ...(state.environmentUrl === undefined ? {} : { environment_url: state.environmentUrl }),
            ...(state.logUrl === undefined ? {} : { log_url: state.logUrl }),
            request: { signal }
          }),
        done
      ),
    updateIssueComment: (repository, commentId, body, signal) =>
      call(
        `edit comment ${commentId}`,
        signal,
        () => rest.issues.updateComment({ ...repository, comment_id: commentId, body, request: { signal } }),
        done
      ),
    updateReviewComment: (repository, commentId, body, signal) =>
      call(
        `edit review comment ${commentId}`,
        signal,
        () => rest.pulls.updateReviewComment({ ...repository, comment_id: commentId, body, request: { signal } }),
        done
      )
  }
}

/**
 * An Octokit failure as a GitHubApiError. Octokit reports a request that got no HTTP answer as an
 * HTTP 500: one its signal ended, and one the network failed (refused, reset, a name that does not
 * resolve). It is no answer at all (status 0), and says why in its own words.
 */
function failed(error: unknown, signal: AbortSignal | undefined): GitHubApiError {
  if (signal?.aborted === true) return new GitHubApiError(0, errorMessage(signal.reason ?? error))
  const found = (error as { status?: unknown })?.status
  if (typeof found === 'number' && !answered(error))
    return new GitHubApiError(0, `no answer from GitHub: ${networkMessage(error)}`)
  const status = typeof found === 'number' ? found : 0
  const headers = (error as { response?: { headers?: Record<string, string | undefined> } })?.response?.headers ?? {}
  // GitHub's secondary rate limits answer 403 with Retry-After, its primary one with no
  // requests left until x-ratelimit-reset (epoch seconds).
  const reset = Number(headers['x-ratelimit-reset'])
  const exhausted = headers['x-ratelimit-remaining'] === '0'
  const retryAfter =
    headers['retry-after'] ??
    (exhausted && Number.isFinite(reset) ? String(Math.max(0, Math.ceil(reset - Date.now() / 1000))) : undefined)
  const rateLimited = status === 429 || (status === 403 && (headers['retry-after'] !== undefined || exhausted))
  return new GitHubApiError(status, saidBy(error), rateLimited, retryAfter)
}

/**
 * What GitHub said in a refusal, made safe for a log line: its JSON's message (Octokit's words
 * for it) on one line that can start no workflow command; a body that is not JSON (an HTML error
 * page, text), which Octokit would repeat whole, by its kind only.
 */
function saidBy(error: unknown): string {
  const data = (error as { response?: { data?: unknown } })?.response?.data
  if (typeof data === 'string' || data instanceof ArrayBuffer) return `GitHub answered with ${kindOf(data)}`
  return serviceText(errorMessage(error))
}

/** Whether an Octokit error came with an HTTP answer: one without (a network failure) has no `response`. */
function answered(error: unknown): boolean {
  return (error as { response?: unknown })?.response !== undefined
}

/**
 * What the network said of a request that got no answer, e.g. `connect ECONNREFUSED 127.0.0.1:443`
 * or `getaddrinfo ENOTFOUND api.github.com`: the innermost cause that says something (fetch's own
 * "fetch failed" says nothing), with its code when its words do not hold it.
 */
function networkMessage(error: unknown): string {
  // Read by shape: the causes come from Node's fetch, whose errors need not be this realm's Error.
  type Cause = { message?: unknown; code?: unknown; cause?: unknown; errors?: unknown }
  const causes: Cause[] = []
  let cause: unknown = error
  while (typeof cause === 'object' && cause !== null && causes.length < 8 && !causes.includes(cause)) {
    causes.push(cause)
    cause = (cause as Cause).cause
  }
  // A connection tried on several addresses fails with them all (an AggregateError); the first says enough.
  const tried = causes.at(-1)?.errors
  if (Array.isArray(tried) && typeof tried[0] === 'object' && tried[0] !== null) causes.push(tried[0] as Cause)
  for (const { message, code } of causes.reverse()) {
    const words = typeof message === 'string' ? message.trim() : ''
    const named = typeof code === 'string' && code !== '' ? code : undefined
    if (words !== '' && words !== 'fetch failed')
      return named !== undefined && !words.includes(named) ? `${named}: ${words}` : words
    if (named !== undefined) return named
  }
  return errorMessage(error)
}

/**
 * Every comment of a listing, page by page, up to MAX_COMMENT_PAGES. By hand: Octokit's paginate
 * does not pass the request's signal on, and a listing nothing can stop would hold the step past
 * `timeout` and past a cancellation. A conversation longer than that fails: whoever reads it
 * looks for a comment of the action's (an earlier reply, a record), and one it did not read may
 * be the one it looks for.
 */
async function allComments(what: string, page: (number: number) => Promise<IssueComment[]>): Promise<IssueComment[]> {
  const comments: IssueComment[] = []
  for (let number = 1; ; number++) {
    const found = await page(number)
    if (number > MAX_COMMENT_PAGES && found.length > 0) {
      throw new GitHubAnswerError(
        200,
        `${what} run past ${MAX_COMMENT_PAGES * COMMENTS_PER_PAGE}, more than the action reads, so a comment of ` +
          `its own among the rest could be missed`,
        true
      )
    }
    comments.push(...found)
    if (found.length < COMMENTS_PER_PAGE) return comments
  }
}
