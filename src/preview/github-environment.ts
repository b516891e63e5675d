/**
 * A preview as a GitHub deployment (`github-environment`): a transient deployment of the head
 * commit in that environment, whose statuses carry the preview's address and the run's, so that
 * the link shows in the pull request's merge box. Best-effort: a token without
 * `deployments: write` costs a warning, never the preview.
 */
import type { FlowContext } from '../action/context.js'
import type { DeploymentState, GitHubApi, RepoRef } from '../action/host.js'
import { Serial, tryGitHub } from '../github/calls.js'

const DEPLOYMENTS_HINT =
  'Check that `github-token` may create deployments (`permissions: deployments: write`), or leave ' +
  '`github-environment` unset.'

export class PreviewEnvironment {
  private readonly writes = new Serial()

  private constructor(
    private readonly github: GitHubApi,
    private readonly context: FlowContext,
    private readonly repository: RepoRef,
    private readonly deploymentId: number,
    private readonly logUrl: string | undefined
  ) {}

  /** The GitHub deployment of `sha` in `environment`, marked in progress; undefined (after a warning) when refused. */
  static async start(
    github: GitHubApi,
    context: FlowContext,
    where: { repository: RepoRef; environment: string; sha: string; logUrl: string | undefined },
    previewUrl: string | undefined
  ): Promise<PreviewEnvironment | undefined> {
    const { repository, environment, sha } = where
    const id = await tryGitHub(
      context,
      `create a deployment of ${sha.slice(0, 7)} in the environment ${environment}`,
      (signal) =>
        github.createDeployment(repository, { ref: sha, environment, description: 'Mintlify docs preview' }, signal),
      DEPLOYMENTS_HINT
    )
    if (id === undefined) return undefined
    context.host.log.info(`Created GitHub deployment ${id} of ${sha.slice(0, 7)} in the environment ${environment}.`)
    const made = new PreviewEnvironment(github, context, repository, id, where.logUrl)
    made.mark('in_progress', previewUrl)
    return made
  }

  /** A new status of the deployment, not waited for (see settled). */
  mark(state: DeploymentState['state'], previewUrl: string | undefined): void {
    const description = {
      in_progress: 'Building the preview',
      success: 'Preview ready',
      failure: 'Preview failed',
      error: 'The workflow run stopped following the preview'
    }[state]
    this.writes.soon(() =>
      tryGitHub(
        this.context,
        `set GitHub deployment ${this.deploymentId} to ${state}`,
        (signal) =>
          this.github.createDeploymentStatus(
            this.repository,
            this.deploymentId,
            { state, environmentUrl: previewUrl, logUrl: this.logUrl, description },
            signal
          ),
        DEPLOYMENTS_HINT
      )
    )
  }

  settled(): Promise<void> {
    return this.writes.settled()
  }
}
