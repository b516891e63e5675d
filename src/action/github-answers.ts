/**
 * The one reader of GitHub's answers: each call's answer is checked for the shape that call
 * returns, and one that is not (Octokit hands back the raw text of a body it cannot read as JSON:
 * cut short, empty, an HTML error page) fails with a GitHubAnswerError naming the call. Never an
 * empty list or a permission of `none` in its place: either would be a guess. Pure.
 */
import {
  type InlineComment,
  type IssueComment,
  type PostedComment,
  type RepositoryPermission,
  GitHubAnswerError
} from './host.js'

/** Reads `data`, GitHub's answer (HTTP `status`) to `what` ("list the comments of acme/docs#7"). */
export type AnswerReader<T> = (data: unknown, status: number, what: string) => T

/** A page of a conversation's comments: a list of comments, each with a numeric id. */
export const commentPage: AnswerReader<IssueComment[]> = (data, status, what) => {
  if (!Array.isArray(data)) throw unreadable(data, status, what, 'a list of comments')
  return data.map((item: unknown) => {
    const comment = objectOf(item)
    // A deleted account's comment has no user: an author nobody is.
    const user = comment?.user === null || comment?.user === undefined ? {} : objectOf(comment.user)
    if (comment === undefined || !isId(comment.id) || user === undefined || !optional(comment.body, 'string'))
      throw unreadable(data, status, what, 'a list of comments, each with an id, a body and its author')
    return {
      id: comment.id,
      body: typeof comment.body === 'string' ? comment.body : '',
      url: typeof comment.html_url === 'string' ? comment.html_url : undefined,
      author: {
        login: typeof user.login === 'string' ? user.login : undefined,
        type: typeof user.type === 'string' ? user.type : undefined
      },
      inReplyTo: isId(comment.in_reply_to_id) ? comment.in_reply_to_id : undefined
    }
  })
}

/** A page of a review's inline comments: each with an id, a body, its author, and where it was written. */
export const inlineCommentPage: AnswerReader<InlineComment[]> = (data, status, what) => {
  const comments = commentPage(data, status, what)
  return comments.map((comment, index) => {
    const item = objectOf((data as unknown[])[index]) ?? {}
    const lineOk = item.line === undefined || item.line === null || typeof item.line === 'number'
    if (!optional(item.path, 'string') || !lineOk)
      throw unreadable(data, status, what, 'a list of review comments, each with its path and line')
    const line = isId(item.line) ? item.line : isId(item.original_line) ? item.original_line : undefined
    return {
      id: comment.id,
      body: comment.body,
      author: comment.author,
      path: typeof item.path === 'string' && item.path !== '' ? item.path : undefined,
      line
    }
  })
}

/** A deployment just created: its id. */
export const createdDeployment: AnswerReader<number> = (data, status, what) => {
  const answer = objectOf(data)
  if (answer === undefined || !isId(answer.id)) throw unreadable(data, status, what, 'the deployment with its id')
  return answer.id
}

/** A user's permission on a repository: `permission` or `role_name` (or both), as text. */
export const permission: AnswerReader<RepositoryPermission> = (data, status, what) => {
  const answer = objectOf(data)
  const roleName = answer?.role_name
  const base = answer?.permission
  if (answer === undefined || (typeof roleName !== 'string' && typeof base !== 'string'))
    throw unreadable(data, status, what, 'a permission')
  return {
    roleName: typeof roleName === 'string' ? roleName : undefined,
    permission: typeof base === 'string' ? base : undefined
  }
}

/** A comment just posted: its id (and its address). */
export const postedComment: AnswerReader<PostedComment> = (data, status, what) => {
  const answer = objectOf(data)
  if (answer === undefined || !isId(answer.id)) throw unreadable(data, status, what, 'the comment with its id')
  return { id: answer.id, url: typeof answer.html_url === 'string' ? answer.html_url : undefined }
}

/** The user a token writes as: its login. */
export const login: AnswerReader<string> = (data, status, what) => {
  const answer = objectOf(data)
  if (typeof answer?.login !== 'string') throw unreadable(data, status, what, 'a user with a login')
  return answer.login
}

function objectOf(value: unknown): Record<string, unknown> | undefined {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined
}

function isId(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value > 0
}

function optional(value: unknown, type: 'string'): boolean {
  return value === undefined || value === null || typeof value === type
}

/**
 * The failure of an answer that is not what `what` returns: what came instead, said by its kind
 * only (GitHub's text is not repeated: an error page may hold anything, a cut one part of a token).
 */
function unreadable(data: unknown, status: number, what: string, expected: string): GitHubAnswerError {
  return new GitHubAnswerError(
    status,
    `GitHub's answer to ${what} could not be read: HTTP ${status} with ${kindOf(data)} where ${expected} was expected`
  )
}

/** What a body that is not the JSON a call returns is, by its kind. */
export function kindOf(data: unknown): string {
  if (typeof data === 'string') {
    const text = data.trim()
    if (text === '') return 'an empty body'
    if (text.startsWith('<')) return 'an HTML page'
    if (text.startsWith('{') || text.startsWith('[')) return 'JSON cut short or malformed'
    return 'text that is not JSON'
  }
  if (data instanceof ArrayBuffer || ArrayBuffer.isView(data)) return 'a body that is not JSON'
  if (data === null || data === undefined) return 'no body'
  return `JSON of another shape (${Array.isArray(data) ? 'a list' : typeof data})`
}
