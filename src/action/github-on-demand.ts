/**
 * The GitHub API handed out before it is used: Octokit and its plugins (the largest chunk of dist/) are loaded at
 * the first call, so a run that never calls GitHub (an agent run without a comment or a pull request) does not load
 * them before its first request to the service, or at all.
 */
import type { GitHubApi } from './host.js'

export function githubOnDemand(load: () => Promise<GitHubApi>): GitHubApi {
  let loading: Promise<GitHubApi> | undefined
  const api = (): Promise<GitHubApi> => (loading ??= load())
  return {
    tokenLogin: async (...args) => (await api()).tokenLogin(...args),
    getPermission: async (...args) => (await api()).getPermission(...args),
    listIssueComments: async (...args) => (await api()).listIssueComments(...args),
    listReviewComments: async (...args) => (await api()).listReviewComments(...args),
    listReviewInlineComments: async (...args) => (await api()).listReviewInlineComments(...args),
    reactToIssueComment: async (...args) => (await api()).reactToIssueComment(...args),
    reactToReviewComment: async (...args) => (await api()).reactToReviewComment(...args),
    createIssueComment: async (...args) => (await api()).createIssueComment(...args),
    replyToReviewComment: async (...args) => (await api()).replyToReviewComment(...args),
    updateIssueComment: async (...args) => (await api()).updateIssueComment(...args),
    updateReviewComment: async (...args) => (await api()).updateReviewComment(...args),
    createDeployment: async (...args) => (await api()).createDeployment(...args),
    createDeploymentStatus: async (...args) => (await api()).createDeploymentStatus(...args)
  }
}
