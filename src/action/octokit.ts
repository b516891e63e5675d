/**
 * The GitHub API port over Octokit (@actions/github). Loaded only when a run talks to GitHub, so
 * that other runs do not pay for loading Octokit and its plugins.
 */
import { getOctokit } from '@actions/github'
import { errorMessage } from '../common/errors.js'
import { type GitHubApi, GitHubApiError, type IssueComment, type PostedComment } from './host.js'

/** A conversation is read to at most this many pages of COMMENTS_PER_PAGE comments. */
const MAX_COMMENT_PAGES = 50
const COMMENTS_PER_PAGE = 100

/** `apiUrl`: GITHUB_API_URL, so that GitHub Enterprise Server works; github.com when unset. */
export function createGitHubApi(token: string, apiUrl: string | undefined): GitHubApi {
  const octokit = getOctokit(token, apiUrl ? { baseUrl: apiUrl } : {})
  const { rest } = octokit
  const call = async <T>(signal: AbortSignal | undefined, request: () => Promise<T>): Promise<T> => {
    try {
      return await request()
    } catch (error) {
      // Octokit reports a request that got no HTTP answer as an HTTP 500: one its signal ended,
      // and one the network failed (refused, reset, a name that does not resolve). It is no
      // answer at all, and says why in its own words.
      if (signal?.aborted === true) throw new GitHubApiError(0, errorMessage(signal.reason ?? error))
      const found = (error as { status?: unknown })?.status
      if (typeof found === 'number' && !answered(error))
        throw new GitHubApiError(0, `no answer from GitHub: ${networkMessage(error)}`)
      const status = typeof found === 'number' ? found : 0
      const headers =
        (error as { response?: { headers?: Record<string, string | undefined> } })?.response?.headers ?? {}
      // GitHub's secondary rate limits answer 403 with Retry-After, its primary one with no
      // requests left until x-ratelimit-reset (epoch seconds).
      const reset = Number(headers['x-ratelimit-reset'])
      const exhausted = headers['x-ratelimit-remaining'] === '0'
      const retryAfter =
        headers['retry-after'] ??
        (exhausted && Number.isFinite(reset) ? String(Math.max(0, Math.ceil(reset - Date.now() / 1000))) : undefined)
      const rateLimited = status === 429 || (status === 403 && (headers['retry-after'] !== undefined || exhausted))
      throw new GitHubApiError(status, errorMessage(error), rateLimited, retryAfter)
    }
  }
  const posted = (data: { id: number; html_url?: string }): PostedComment => ({ id: data.id, url: data.html_url })
  return {
    tokenLogin: async (signal) => {
      try {
        const { data } = await call(signal, () => rest.users.getAuthenticated({ request: { signal } }))
        return data.login
      } catch (error) {
        // An installation token: "Resource not accessible by integration".
        if (error instanceof GitHubApiError && error.refused && !error.rateLimited) return undefined
        throw error
      }
    },
    getPermission: async ({ owner, repo }, username, signal) => {
      const { data } = await call(signal, () =>
        rest.repos.getCollaboratorPermissionLevel({ owner, repo, username, request: { signal } })
      )
      const roleName = (data as { role_name?: unknown }).role_name
      return {
        roleName: typeof roleName === 'string' ? roleName : undefined,
        permission: typeof data.permission === 'string' ? data.permission : undefined
      }
    },
    listIssueComments: ({ owner, repo }, issueNumber, signal) =>
      call(signal, () =>
        allComments((page) =>
          rest.issues.listComments({
            owner,
            repo,
            issue_number: issueNumber,
            per_page: COMMENTS_PER_PAGE,
            page,
            request: { signal }
          })
        )
      ),
    listReviewComments: ({ owner, repo }, pullNumber, signal) =>
      call(signal, () =>
        allComments((page) =>
          rest.pulls.listReviewComments({
            owner,
            repo,
            pull_number: pullNumber,
            per_page: COMMENTS_PER_PAGE,
            page,
            request: { signal }
          })
        )
      ),
    reactToIssueComment: async ({ owner, repo }, commentId, content, signal) => {
      await call(signal, () =>
        rest.reactions.createForIssueComment({ owner, repo, comment_id: commentId, content, request: { signal } })
      )
    },
    reactToReviewComment: async ({ owner, repo }, commentId, content, signal) => {
      await call(signal, () =>
        rest.reactions.createForPullRequestReviewComment({
          owner,
          repo,
          comment_id: commentId,
          content,
          request: { signal }
        })
      )
    },
    createIssueComment: async ({ owner, repo }, issueNumber, body, signal) =>
      posted(
        (
          await call(signal, () =>
            rest.issues.createComment({ owner, repo, issue_number: issueNumber, body, request: { signal } })
          )
        ).data
      ),
    replyToReviewComment: async ({ owner, repo }, pullNumber, commentId, body, signal) =>
      posted(
        (
          await call(signal, () =>
            rest.pulls.createReplyForReviewComment({
              owner,
              repo,
              pull_number: pullNumber,
              comment_id: commentId,
              body,
              request: { signal }
            })
          )
        ).data
      ),
    updateIssueComment: async ({ owner, repo }, commentId, body, signal) => {
      await call(signal, () =>
        rest.issues.updateComment({ owner, repo, comment_id: commentId, body, request: { signal } })
      )
    },
    updateReviewComment: async ({ owner, repo }, commentId, body, signal) => {
      await call(signal, () =>
        rest.pulls.updateReviewComment({ owner, repo, comment_id: commentId, body, request: { signal } })
      )
    }
  }
}

/** Whether an Octokit error came with an HTTP answer: one without (a network failure) has a status (500) but no `response`. */
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

type ListedComment = {
  id: number
  body?: string | null
  html_url?: string
  user?: { login?: string; type?: string } | null
  in_reply_to_id?: number
}

/**
 * Every comment of a listing, page by page (up to MAX_COMMENT_PAGES). By hand: Octokit's paginate
 * does not pass the request's signal on, and a listing nothing can stop would hold the step past
 * `timeout` and past a cancellation.
 */
async function allComments(page: (number: number) => Promise<{ data: ListedComment[] }>): Promise<IssueComment[]> {
  const comments: IssueComment[] = []
  for (let number = 1; number <= MAX_COMMENT_PAGES; number++) {
    const { data } = await page(number)
    for (const comment of data) {
      comments.push({
        id: comment.id,
        body: comment.body ?? '',
        url: comment.html_url,
        author: { login: comment.user?.login, type: comment.user?.type },
        inReplyTo: comment.in_reply_to_id
      })
    }
    if (data.length < COMMENTS_PER_PAGE) break
  }
  return comments
}
