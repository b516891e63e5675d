// A small fake of the GitHub REST endpoints the action uses in a comment conversation: a user's
// permission, an issue's or pull request's comments (paginated, created, edited), review comment
// replies, reactions, and issues. Served on the API origin under /github-api so GITHUB_API_URL
// can point at the simulator. Pull requests that agent jobs open are created here too.
import type { Reply, RequestContext, Route } from './http.js'

export const GITHUB_API_ROOT = '/github-api'

export interface GitHubOptions {
  /** Web address of the simulated server: agent pull request links start with it. Default https://github.com. */
  serverUrl?: string
  /** Repository role (`role_name`) of users by login; anyone else has `read`. */
  permissions?: Record<string, string>
  /** Answer every permission request with this status instead (e.g. 403). */
  permissionStatus?: number
  /** Repositories (`owner/repo`) the token may write to; default all. */
  writableRepos?: string[]
  /**
   * Whom the token writes as; default TOKEN_USER (GITHUB_TOKEN's bot). A user (a personal access
   * token) can read itself at GET /user; a bot's installation token cannot (403), as on GitHub.
   */
  tokenUser?: { login: string; type: string }
  /** The token may create deployments and their statuses (`deployments: write`); default true. */
  deploymentsWritable?: boolean
}

/** A deployment the action created, with the statuses it posted, oldest first. */
export interface GitHubDeployment {
  id: number
  repo: string
  /** What was asked for: `ref`, `environment`, `transient_environment`, ... as sent. */
  request: Record<string, unknown>
  statuses: Array<Record<string, unknown>>
}

export interface GitHubComment {
  id: number
  body: string
  user: { login: string; type: string }
  /** `issue`: the conversation; `review`: a review comment thread. */
  kind: 'issue' | 'review'
  inReplyTo?: number
  /** Every body the comment had, oldest first (edits included). */
  history: string[]
  /** A review comment: the review it belongs to, and the file and line it was written on. */
  reviewId?: number
  path?: string
  line?: number
}

export interface GitHubThread {
  repo: string
  number: number
  title: string
  body: string
  isPullRequest: boolean
  comments: GitHubComment[]
}

/** The login the action's token writes as (GITHUB_TOKEN's identity). */
export const TOKEN_USER = { login: 'github-actions[bot]', type: 'Bot' }

/** GitHub refuses a comment body longer than this: 422, "body is too long (maximum is 65536 characters)". */
export const MAX_COMMENT_CHARS = 65_536

const REACTIONS = new Set(['+1', '-1', 'laugh', 'confused', 'heart', 'hooray', 'rocket', 'eyes'])
const ROLES = new Map([
  ['admin', 'admin'],
  ['maintain', 'write'],
  ['write', 'write'],
  ['triage', 'read'],
  ['read', 'read'],
  ['none', 'none']
])

export class GitHubFake {
  readonly serverUrl: string
  /** Conversations by `owner/repo#number`. */
  readonly threads = new Map<string, GitHubThread>()
  /** Reactions by comment id (the triggering comment lives only in the event payload). */
  readonly reactions: Array<{ commentId: number; content: string }> = []
  /** Deployments by id, as the action created them. */
  readonly deployments: GitHubDeployment[] = []
  private nextId = 1000
  /** The next issue or pull request number of each repository. */
  private readonly nextNumber = new Map<string, number>()

  constructor(private readonly options: GitHubOptions = {}) {
    this.serverUrl = (options.serverUrl ?? 'https://github.com').replace(/\/+$/, '')
  }

  /** The conversation of an issue or pull request, made on first use (tests name any number). */
  thread(
    repo: string,
    number: number,
    init: Partial<Pick<GitHubThread, 'title' | 'body' | 'isPullRequest'>> = {}
  ): GitHubThread {
    const key = `${repo}#${number}`
    let thread = this.threads.get(key)
    if (thread === undefined) {
      thread = {
        repo,
        number,
        title: init.title ?? `Issue ${number}`,
        body: init.body ?? '',
        isPullRequest: init.isPullRequest ?? false,
        comments: []
      }
      this.threads.set(key, thread)
      this.nextNumber.set(repo, Math.max(this.nextNumber.get(repo) ?? 100, number + 1))
    }
    return thread
  }

  /** Opens a pull request (as an agent job does) and returns its link. */
  openPullRequest(repo: string, title: string, body: string): string {
    const number = this.nextNumber.get(repo) ?? 100
    this.thread(repo, number, { title, body, isPullRequest: true })
    return `${this.serverUrl}/${repo}/pull/${number}`
  }

  /** Adds a comment as someone else would write it (tests seed conversations). */
  addComment(repo: string, number: number, body: string, user = { login: 'octocat', type: 'User' }): GitHubComment {
    const comment: GitHubComment = { id: this.nextId++, body, user, kind: 'issue', history: [body] }
    this.thread(repo, number).comments.push(comment)
    return comment
  }

  /** Adds the inline comments of review `reviewId` of pull request `number`, as a reviewer writes them. */
  addReview(
    repo: string,
    number: number,
    reviewId: number,
    comments: Array<{ path: string; line?: number; body: string; user?: { login: string; type: string } }>
  ): void {
    const thread = this.thread(repo, number, { isPullRequest: true })
    for (const { path, line, body, user } of comments) {
      const comment: GitHubComment = {
        id: this.nextId++,
        body,
        user: user ?? { login: 'octocat', type: 'User' },
        kind: 'review',
        history: [body],
        reviewId,
        path,
        ...(line === undefined ? {} : { line })
      }
      thread.comments.push(comment)
    }
  }

  /** Adds `count` comments by octocat: a conversation longer than a page, or than a listing reads. */
  addComments(repo: string, number: number, count: number): void {
    for (let i = 1; i <= count; i++) this.addComment(repo, number, `Comment ${i} of a long conversation.`)
  }

  private get tokenUser(): { login: string; type: string } {
    return this.options.tokenUser ?? TOKEN_USER
  }

  routes(): Route[] {
    const base = `${GITHUB_API_ROOT}/repos/:owner/:repo`
    return [
      { name: 'github-user', method: 'GET', pattern: `${GITHUB_API_ROOT}/user`, handle: (ctx) => this.user(ctx) },
      {
        name: 'github-permission',
        method: 'GET',
        pattern: `${base}/collaborators/:user/permission`,
        handle: (ctx) => this.permission(ctx)
      },
      { name: 'github-issue', method: 'GET', pattern: `${base}/issues/:number`, handle: (ctx) => this.issue(ctx) },
      {
        name: 'github-comments',
        method: 'GET',
        pattern: `${base}/issues/:number/comments`,
        handle: (ctx) => this.listComments(ctx, 'issue')
      },
      {
        name: 'github-review-comments',
        method: 'GET',
        pattern: `${base}/pulls/:number/comments`,
        handle: (ctx) => this.listComments(ctx, 'review')
      },
      {
        name: 'github-review-of',
        method: 'GET',
        pattern: `${base}/pulls/:number/reviews/:reviewId/comments`,
        handle: (ctx) => this.listReviewOf(ctx)
      },
      {
        name: 'github-deployment',
        method: 'POST',
        pattern: `${base}/deployments`,
        handle: (ctx) => this.createDeployment(ctx)
      },
      {
        name: 'github-deployment-status',
        method: 'POST',
        pattern: `${base}/deployments/:id/statuses`,
        handle: (ctx) => this.createDeploymentStatus(ctx)
      },
      {
        name: 'github-comment',
        method: 'POST',
        pattern: `${base}/issues/:number/comments`,
        handle: (ctx) => this.createComment(ctx, 'issue')
      },
      {
        name: 'github-comment',
        method: 'POST',
        pattern: `${base}/pulls/:number/comments/:commentId/replies`,
        handle: (ctx) => this.createComment(ctx, 'review')
      },
      {
        name: 'github-comment-edit',
        method: 'PATCH',
        pattern: `${base}/issues/comments/:commentId`,
        handle: (ctx) => this.editComment(ctx)
      },
      {
        name: 'github-comment-edit',
        method: 'PATCH',
        pattern: `${base}/pulls/comments/:commentId`,
        handle: (ctx) => this.editComment(ctx)
      },
      {
        name: 'github-reaction',
        method: 'POST',
        pattern: `${base}/issues/comments/:commentId/reactions`,
        handle: (ctx) => this.react(ctx)
      },
      {
        name: 'github-reaction',
        method: 'POST',
        pattern: `${base}/pulls/comments/:commentId/reactions`,
        handle: (ctx) => this.react(ctx)
      }
    ]
  }

  private user(ctx: RequestContext): Reply {
    const denied = checkAuth(ctx)
    if (denied) return denied
    const { login, type } = this.tokenUser
    return type === 'Bot' ? gh(403, { message: 'Resource not accessible by integration' }) : gh(200, { login, type })
  }

  private permission(ctx: RequestContext): Reply {
    const denied = checkAuth(ctx)
    if (denied) return denied
    if (this.options.permissionStatus !== undefined)
      return gh(this.options.permissionStatus, { message: 'Resource not accessible by integration' })
    const login = ctx.params.user ?? ''
    const role = this.options.permissions?.[login] ?? 'read'
    return gh(200, { permission: ROLES.get(role) ?? 'read', role_name: role, user: { login, type: 'User' } })
  }

  private issue(ctx: RequestContext): Reply {
    const denied = checkAuth(ctx)
    if (denied) return denied
    const thread = this.thread(repoOf(ctx), Number(ctx.params.number))
    const url = `${this.serverUrl}/${thread.repo}/${thread.isPullRequest ? 'pull' : 'issues'}/${thread.number}`
    return gh(200, {
      number: thread.number,
      title: thread.title,
      body: thread.body,
      html_url: url,
      ...(thread.isPullRequest ? { pull_request: { html_url: url } } : {})
    })
  }

  private listComments(ctx: RequestContext, kind: GitHubComment['kind']): Reply {
    const denied = checkAuth(ctx)
    if (denied) return denied
    const thread = this.thread(repoOf(ctx), Number(ctx.params.number))
    const all = thread.comments.filter((c) => c.kind === kind)
    const perPage = Math.min(100, Math.max(1, Number(ctx.query.per_page ?? 30) || 30))
    const page = Math.max(1, Number(ctx.query.page ?? 1) || 1)
    const last = Math.max(1, Math.ceil(all.length / perPage))
    const headers: Record<string, string> = {}
    if (page < last) {
      const link = (p: number): string => `<http://${ctx.headers.host}${ctx.fullPath}?per_page=${perPage}&page=${p}>`
      headers.link = `${link(page + 1)}; rel="next", ${link(last)}; rel="last"`
    }
    return {
      status: 200,
      headers,
      json: all.slice((page - 1) * perPage, page * perPage).map((c) => this.view(thread, c))
    }
  }

  private listReviewOf(ctx: RequestContext): Reply {
    const denied = checkAuth(ctx)
    if (denied) return denied
    const thread = this.thread(repoOf(ctx), Number(ctx.params.number))
    const reviewId = Number(ctx.params.reviewId)
    const all = thread.comments.filter((c) => c.reviewId === reviewId)
    const perPage = Math.min(100, Math.max(1, Number(ctx.query.per_page ?? 30) || 30))
    const page = Math.max(1, Number(ctx.query.page ?? 1) || 1)
    return gh(
      200,
      all.slice((page - 1) * perPage, page * perPage).map((c) => ({
        ...this.view(thread, c),
        pull_request_review_id: reviewId,
        path: c.path,
        line: c.line ?? null,
        original_line: c.line ?? null
      }))
    )
  }

  private createDeployment(ctx: RequestContext): Reply {
    const denied = checkAuth(ctx) ?? this.checkDeployments()
    if (denied) return denied
    if (field(ctx, 'ref') === undefined) return validationFailed('ref')
    const deployment: GitHubDeployment = {
      id: this.nextId++,
      repo: repoOf(ctx),
      request: ctx.body as Record<string, unknown>,
      statuses: []
    }
    this.deployments.push(deployment)
    return gh(201, { id: deployment.id, ref: field(ctx, 'ref'), environment: field(ctx, 'environment') })
  }

  private createDeploymentStatus(ctx: RequestContext): Reply {
    const denied = checkAuth(ctx) ?? this.checkDeployments()
    if (denied) return denied
    const deployment = this.deployments.find((d) => d.id === Number(ctx.params.id) && d.repo === repoOf(ctx))
    if (deployment === undefined) return gh(404, { message: 'Not Found' })
    if (field(ctx, 'state') === undefined) return validationFailed('state')
    deployment.statuses.push(ctx.body as Record<string, unknown>)
    return gh(201, { id: this.nextId++, state: field(ctx, 'state') })
  }

  private checkDeployments(): Reply | undefined {
    return this.options.deploymentsWritable === false
      ? gh(403, { message: 'Resource not accessible by integration' })
      : undefined
  }

  private createComment(ctx: RequestContext, kind: 'issue' | 'review'): Reply {
    const denied = checkAuth(ctx) ?? this.checkWrite(ctx)
    if (denied) return denied
    const body = field(ctx, 'body')
    if (body === undefined || body === '') return validationFailed('body')
    if (body.length > MAX_COMMENT_CHARS) return bodyTooLong()
    if (!/^\d+$/.test(ctx.params.number ?? '')) return gh(404, { message: 'Not Found' })
    const thread = this.thread(repoOf(ctx), Number(ctx.params.number))
    const comment: GitHubComment = { id: this.nextId++, body, user: this.tokenUser, kind, history: [body] }
    if (kind === 'review') comment.inReplyTo = Number(ctx.params.commentId)
    thread.comments.push(comment)
    return gh(201, this.view(thread, comment))
  }

  private editComment(ctx: RequestContext): Reply {
    const denied = checkAuth(ctx) ?? this.checkWrite(ctx)
    if (denied) return denied
    const body = field(ctx, 'body')
    if (body === undefined || body === '') return validationFailed('body')
    if (body.length > MAX_COMMENT_CHARS) return bodyTooLong()
    const found = this.findComment(Number(ctx.params.commentId))
    if (found === undefined) return gh(404, { message: 'Not Found' })
    found.comment.body = body
    found.comment.history.push(body)
    return gh(200, this.view(found.thread, found.comment))
  }

  private react(ctx: RequestContext): Reply {
    const denied = checkAuth(ctx) ?? this.checkWrite(ctx)
    if (denied) return denied
    const content = field(ctx, 'content')
    if (content === undefined || !REACTIONS.has(content)) return validationFailed('content')
    this.reactions.push({ commentId: Number(ctx.params.commentId), content })
    return gh(201, { id: this.nextId++, content, user: this.tokenUser, created_at: new Date().toISOString() })
  }

  private findComment(id: number): { thread: GitHubThread; comment: GitHubComment } | undefined {
    for (const thread of this.threads.values()) {
      const comment = thread.comments.find((c) => c.id === id)
      if (comment) return { thread, comment }
    }
    return undefined
  }

  private checkWrite(ctx: RequestContext): Reply | undefined {
    const writable = this.options.writableRepos
    if (writable === undefined || writable.includes(repoOf(ctx))) return undefined
    return gh(403, { message: 'Resource not accessible by integration' })
  }

  private view(thread: GitHubThread, comment: GitHubComment): Record<string, unknown> {
    const kind = thread.isPullRequest ? 'pull' : 'issues'
    const anchor = comment.kind === 'review' ? `discussion_r${comment.id}` : `issuecomment-${comment.id}`
    return {
      id: comment.id,
      body: comment.body,
      user: comment.user,
      html_url: `${this.serverUrl}/${thread.repo}/${kind}/${thread.number}#${anchor}`,
      ...(comment.inReplyTo === undefined ? {} : { in_reply_to_id: comment.inReplyTo })
    }
  }
}

function repoOf(ctx: RequestContext): string {
  return `${ctx.params.owner}/${ctx.params.repo}`
}

/** GitHub accepts `token X` and `Bearer X`. */
function checkAuth(ctx: RequestContext): Reply | undefined {
  if (/^(token|bearer)\s+\S+/i.test(ctx.headers.authorization ?? '')) return undefined
  return gh(401, { message: 'Requires authentication', documentation_url: 'https://docs.github.com/rest' })
}

function field(ctx: RequestContext, name: string): string | undefined {
  if (typeof ctx.body !== 'object' || ctx.body === null) return undefined
  const value = (ctx.body as Record<string, unknown>)[name]
  return typeof value === 'string' ? value : undefined
}

function validationFailed(name: string): Reply {
  return gh(422, { message: 'Validation Failed', errors: [{ resource: 'Issue', field: name, code: 'missing_field' }] })
}

function bodyTooLong(): Reply {
  return gh(422, {
    message: 'Validation Failed',
    errors: [
      {
        resource: 'IssueComment',
        code: 'custom',
        field: 'body',
        message: `body is too long (maximum is ${MAX_COMMENT_CHARS} characters)`
      }
    ]
  })
}

function gh(status: number, value: unknown): Reply {
  return { status, json: value }
}
