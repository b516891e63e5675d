/**
 * Webhook payloads of comment events as GitHub delivers them (the fields the action reads, and a
 * few it does not), for the in-process tests, the dist tests and the demo.
 */
export const REPO = 'acme/docs'
export const OCTOCAT = { login: 'octocat', id: 583231, type: 'User' }

const repository = {
  id: 1296269,
  name: 'docs',
  full_name: REPO,
  private: false,
  owner: { login: 'acme', id: 1, type: 'Organization' },
  html_url: `https://github.com/${REPO}`
}

export interface CommentOn {
  /** The issue or pull request commented on (default 7). */
  number?: number
  pullRequest?: boolean
  title?: string
  body?: string
  /** The comment's author (default octocat). */
  user?: { login: string; type: string }
  /** `created` by default. */
  action?: string
  commentId?: number
}

export function issueCommentEvent(text: string, on: CommentOn = {}): Record<string, unknown> {
  const number = on.number ?? 7
  const kind = on.pullRequest ? 'pull' : 'issues'
  const user = on.user ?? OCTOCAT
  const id = on.commentId ?? 123456
  return {
    action: on.action ?? 'created',
    issue: {
      number,
      title: on.title ?? 'Install page has a typo',
      body: on.body ?? 'The install page says `npm i docs-cli` but the package is `@acme/docs-cli`.',
      state: 'open',
      user: OCTOCAT,
      html_url: `https://github.com/${REPO}/${kind}/${number}`,
      ...(on.pullRequest
        ? {
            pull_request: {
              url: `https://api.github.com/repos/${REPO}/pulls/${number}`,
              html_url: `https://github.com/${REPO}/pull/${number}`
            }
          }
        : {})
    },
    comment: {
      id,
      html_url: `https://github.com/${REPO}/${kind}/${number}#issuecomment-${id}`,
      body: text,
      user,
      author_association: 'MEMBER'
    },
    repository,
    sender: user
  }
}

export function reviewCommentEvent(text: string, comment: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    action: 'created',
    comment: {
      id: 987,
      pull_request_review_id: 55,
      path: 'docs/install.md',
      subject_type: 'line',
      start_line: null,
      line: 3,
      original_line: 3,
      side: 'RIGHT',
      body: text,
      user: OCTOCAT,
      html_url: `https://github.com/${REPO}/pull/12#discussion_r987`,
      ...comment
    },
    pull_request: {
      number: 12,
      title: 'Docs: install',
      body: 'Reworks the install page.',
      state: 'open',
      user: OCTOCAT,
      html_url: `https://github.com/${REPO}/pull/12`
    },
    repository,
    sender: OCTOCAT
  }
}

/** A submitted review of pull request 12 (its body may be null: a review of inline comments alone). */
export function reviewEvent(text: string | null, review: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    action: 'submitted',
    review: {
      id: 8001,
      body: text,
      state: 'commented',
      user: OCTOCAT,
      html_url: `https://github.com/${REPO}/pull/12#pullrequestreview-8001`,
      ...review
    },
    pull_request: {
      number: 12,
      title: 'Docs: install',
      body: 'Reworks the install page.',
      state: 'open',
      user: OCTOCAT,
      html_url: `https://github.com/${REPO}/pull/12`,
      head: { ref: 'docs-install', sha: 'c0ffee0c0ffee0c0ffee0c0ffee0c0ffee0c0ffe', repo: { full_name: REPO } },
      base: { ref: 'main', repo: { full_name: REPO } }
    },
    repository,
    sender: OCTOCAT
  }
}

/** A comment on discussion 3. */
export function discussionCommentEvent(text: string, user = OCTOCAT): Record<string, unknown> {
  return {
    action: 'created',
    comment: {
      id: 7001,
      body: text,
      user,
      html_url: `https://github.com/${REPO}/discussions/3#discussioncomment-7001`
    },
    discussion: {
      number: 3,
      title: 'How do I deploy?',
      body: 'Asking.',
      user,
      html_url: `https://github.com/${REPO}/discussions/3`
    },
    repository,
    sender: user
  }
}

/** A comment on a commit. */
export function commitCommentEvent(text: string, user = OCTOCAT): Record<string, unknown> {
  return {
    action: 'created',
    comment: { id: 6001, body: text, user, commit_id: 'c0ffee0c0ffee0c0ffee0c0ffee0c0ffee0c0ffe', path: null },
    repository,
    sender: user
  }
}

/** A pull request event (`synchronize` by default): pull request 12, its head branch in this repository or a fork. */
export function pullRequestEvent(
  options: { action?: string; head?: string; fork?: string; sha?: string } = {}
): Record<string, unknown> {
  return {
    action: options.action ?? 'synchronize',
    number: 12,
    pull_request: {
      number: 12,
      title: 'Docs: install',
      body: 'Reworks the install page.',
      state: 'open',
      user: OCTOCAT,
      html_url: `https://github.com/${REPO}/pull/12`,
      head: {
        ref: options.head ?? 'docs-install',
        sha: options.sha ?? 'c0ffee0c0ffee0c0ffee0c0ffee0c0ffee0c0ffe',
        repo: { full_name: options.fork ?? REPO }
      },
      base: { ref: 'main', repo: { full_name: REPO } }
    },
    repository,
    sender: OCTOCAT
  }
}
