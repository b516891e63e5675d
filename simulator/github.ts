// A tiny fake of the GitHub REST endpoints the action uses to acknowledge and answer comments.
// Served on the API origin under /github-api so GITHUB_API_URL can point at the simulator.
import type { Reply, RequestContext, Route } from './http.js'

export const GITHUB_API_ROOT = '/github-api'

const REACTIONS = new Set(['+1', '-1', 'laugh', 'confused', 'heart', 'hooray', 'rocket', 'eyes'])

export function githubRoutes(): Route[] {
  let nextId = 1000
  const base = `${GITHUB_API_ROOT}/repos/:owner/:repo`

  const reaction = (ctx: RequestContext): Reply => {
    const denied = checkAuth(ctx)
    if (denied) return denied
    const content = field(ctx, 'content')
    if (content === undefined || !REACTIONS.has(content)) return validationFailed('content')
    return gh(201, { id: nextId++, content, user: { login: 'docs-bot' }, created_at: new Date().toISOString() })
  }

  const comment = (ctx: RequestContext, kind: 'issue' | 'reply'): Reply => {
    const denied = checkAuth(ctx)
    if (denied) return denied
    const body = field(ctx, 'body')
    if (body === undefined || body === '') return validationFailed('body')
    const { owner, repo } = ctx.params
    const id = nextId++
    if (kind === 'issue') {
      const number = ctx.params.number ?? ''
      if (!/^\d+$/.test(number)) return gh(404, { message: 'Not Found' })
      return gh(201, { id, body, html_url: `https://github.com/${owner}/${repo}/issues/${number}#issuecomment-${id}` })
    }
    const inReplyTo = Number(ctx.params.commentId)
    return gh(201, { id, body, in_reply_to_id: inReplyTo, html_url: `https://github.com/${owner}/${repo}/pull/${ctx.params.number}#discussion_r${id}` })
  }

  return [
    { name: 'github-reaction', method: 'POST', pattern: `${base}/issues/comments/:commentId/reactions`, handle: reaction },
    { name: 'github-reaction', method: 'POST', pattern: `${base}/pulls/comments/:commentId/reactions`, handle: reaction },
    { name: 'github-comment', method: 'POST', pattern: `${base}/issues/:number/comments`, handle: (ctx) => comment(ctx, 'issue') },
    { name: 'github-comment', method: 'POST', pattern: `${base}/pulls/:number/comments/:commentId/replies`, handle: (ctx) => comment(ctx, 'reply') }
  ]
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

function gh(status: number, value: unknown): Reply {
  return { status, json: value }
}
