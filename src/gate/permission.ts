/**
 * The gate of a comment: its author's permission on the repository, read through the GitHub API
 * before anything is sent to the service. When it cannot be read, the run fails closed.
 */
import type { FlowContext } from '../action/context.js'
import {
  type GitHubApi,
  GitHubAnswerError,
  GitHubApiError,
  type RepoRef,
  type RepositoryPermission
} from '../action/host.js'
import { PERMISSION_LEVELS, type PermissionLevel } from '../action/settings.js'
import { ActionError } from '../common/errors.js'
import { describeGitHubError, readGitHub } from '../github/calls.js'

/** `role_name` when it is one of GitHub's roles, else the base `permission` (custom roles carry one). */
export function levelOf(answer: RepositoryPermission): PermissionLevel {
  const known = (name: string | undefined): PermissionLevel | undefined =>
    PERMISSION_LEVELS.find((level) => level === name)
  return known(answer.roleName) ?? known(answer.permission) ?? 'none'
}

export function meets(level: PermissionLevel, required: PermissionLevel): boolean {
  return PERMISSION_LEVELS.indexOf(level) >= PERMISSION_LEVELS.indexOf(required)
}

/** The author's permission on `repository`; an ActionError (fail closed) when GitHub does not tell. */
export async function readPermission(
  github: GitHubApi,
  repository: RepoRef,
  author: string,
  context: FlowContext
): Promise<PermissionLevel> {
  const where = `${repository.owner}/${repository.repo}`
  try {
    return levelOf(await readGitHub(context, (signal) => github.getPermission(repository, author, signal)))
  } catch (error) {
    if (!(error instanceof GitHubApiError)) throw error
    const why =
      error instanceof GitHubAnswerError
        ? "GitHub's answer could not be read; rerun the workflow"
        : error.rateLimited
          ? "GitHub's rate limit for the token was reached; rerun the workflow later"
          : error.refused
            ? `the token in \`github-token\` may not read it: it needs the repository permission "Metadata: read" ` +
              `on ${where} (the workflow's GITHUB_TOKEN has it; a fine-grained token or a GitHub App must be ` +
              `granted it)`
            : 'GitHub did not answer; rerun the workflow'
    throw new ActionError(
      `Could not read the permission of ${author} on ${where} ` +
        `(${describeGitHubError(error, '').replace(/\.$/, '')}), so the comment was not acted on and nothing was ` +
        `sent to the docs service: ${why}.`
    )
  }
}
