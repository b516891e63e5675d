/**
 * The GitHub API port over Octokit (@actions/github). Loaded only when a run talks to GitHub, so
 * that other runs do not pay for loading Octokit and its plugins.
 */
import { getOctokit } from '@actions/github'
import { preload } from 'undici-lazy'
import { errorMessage } from '../common/errors.js'
import { type GitHubApi, GitHubApiError, type PostedComment, type RepoRef } from './host.js'

/** `apiUrl`: GITHUB_API_URL, so that GitHub Enterprise Server works; github.com when unset. */
export async function createGitHubApi(token: string, apiUrl: string | undefined): Promise<GitHubApi> {
  // undici (under Octokit) is loaded lazily too; see deps/undici-lazy.
  await preload()
  const octokit = getOctokit(token, apiUrl ? { baseUrl: apiUrl } : {})
  const { rest } = octokit
  const call = async <T>(request: () => Promise<T>): Promise<T> => {
    try {
      return await request()
    } catch (error) {
      const status = (error as { status?: unknown })?.status
      throw new GitHubApiError(typeof status === 'number' ? status : 0, errorMessage(error))
    }
  }
  const posted = (data: { id: number; html_url?: string }): PostedComment => ({ id: data.id, url: data.html_url })
  return {
    reactToIssueComment: async ({ owner, repo }, commentId, content, signal) => {
      await call(() => rest.reactions.createForIssueComment({ owner, repo, comment_id: commentId, content, request: { signal } }))
    },
    reactToReviewComment: async ({ owner, repo }, commentId, content, signal) => {
      await call(() => rest.reactions.createForPullRequestReviewComment({ owner, repo, comment_id: commentId, content, request: { signal } }))
    },
    createIssueComment: async ({ owner, repo }: RepoRef, issueNumber, body, signal) =>
      posted((await call(() => rest.issues.createComment({ owner, repo, issue_number: issueNumber, body, request: { signal } }))).data),
    replyToReviewComment: async ({ owner, repo }, pullNumber, commentId, body, signal) =>
      posted(
        (await call(() => rest.pulls.createReplyForReviewComment({ owner, repo, pull_number: pullNumber, comment_id: commentId, body, request: { signal } }))).data
      )
  }
}
