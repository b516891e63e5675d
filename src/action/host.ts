/**
 * The port to the runner: everything the action takes from or gives to the machine it runs on.
 * `run()` is handed one Host and reaches for nothing else: no `process.env`, no `@actions/core`.
 * The GitHub runner's Host is in actions-host.ts; tests use one fake of this interface.
 */
import type { Logger } from '../common/log.js'
import type { InputName } from './inputs.js'
import type { OutputName, OutputValue } from './outputs.js'

/** The runner's environment variables the action reads. */
export type RunnerVariable =
  | 'GITHUB_EVENT_NAME'
  | 'GITHUB_WORKSPACE'
  | 'RUNNER_TEMP'
  | 'RUNNER_TOOL_CACHE'
  | 'GITHUB_ACTION_PATH'
  | 'HOME'
  | 'USERPROFILE'
  | 'GITHUB_REPOSITORY'
  | 'GITHUB_SERVER_URL'
  | 'GITHUB_RUN_ID'
  | 'GITHUB_RUN_ATTEMPT'
  /** The job and the step of the workflow run: a comment's reply is one per step (see reply/run-reply.ts). */
  | 'GITHUB_JOB'
  | 'GITHUB_ACTION'
  /** The commit the workflow runs on: a deployment of another one is warned about. */
  | 'GITHUB_SHA'
  /** The branch or tag a push ran on, and which of the two: a preview's branch on a push. */
  | 'GITHUB_REF_NAME'
  | 'GITHUB_REF_TYPE'
  /** The runner's own files (see path-guard.ts): a file the action writes never replaces them. */
  | 'GITHUB_OUTPUT'
  | 'GITHUB_ENV'
  | 'GITHUB_PATH'
  | 'GITHUB_STATE'
  | 'GITHUB_STEP_SUMMARY'
  | 'GITHUB_EVENT_PATH'

export interface Host {
  /**
   * One input's raw value: '' when given empty (an unset `${{ vars.X }}`), undefined when not given
   * at all. On a runner an input that is not given arrives with action.yml's default, if it has one.
   */
  getInput(name: InputName): string | undefined
  /** GitHub's outputs are text: a number or a boolean is written as it prints (`7`, `false`). */
  setOutput(name: OutputName, value: OutputValue): void
  /** Registers a value to be masked wherever it would appear in the log. */
  setSecret(secret: string): void
  /** Marks the step failed with a message for the user; `kind` says why (a CLI exits by it). */
  setFailed(message: string, kind: FailureKind): void
  readonly log: Logger
  /** Appends HTML to the job summary (never overwrites what earlier steps wrote). */
  appendSummary(html: string): Promise<void>
  env(name: RunnerVariable): string | undefined
  /** The event that started the run, with its payload. */
  event(): Promise<RunnerEvent>
  /** A client of the GitHub REST API, authenticated with `token`. */
  github(token: string): Promise<GitHubApi>
  /** Fires when the run is cancelled. */
  readonly cancelled: AbortSignal
  /** The runner's tool cache; undefined where there is none, or none that outlives the job (GitHub-hosted runners). */
  readonly toolCache: ToolCache | undefined
}

/**
 * The runner's tool cache: folders kept by tool name and (semver) version in RUNNER_TOOL_CACHE.
 * Hosted runners start empty every job; self-hosted runners keep it between jobs.
 */
export interface ToolCache {
  /** The folder cached for `tool` at `version`, or undefined. */
  find(tool: string, version: string): Promise<string | undefined>
  /** Copies `file` into the cache as `name`, for `tool` at `version`; resolves with the folder. */
  cacheFile(file: string, name: string, tool: string, version: string): Promise<string>
  /** The versions of `tool` in the cache, the most recently cached or used first. */
  versions(tool: string): Promise<string[]>
  /** Marks `tool` at `version` as used now: of what is pruned by age, it goes last. */
  markUsed(tool: string, version: string): Promise<void>
  /** Removes `tool` at `version` from the cache. */
  remove(tool: string, version: string): Promise<void>
}

/**
 * Why a run failed (see src/failure-kind.ts): bad inputs (nothing was asked of anyone), a request
 * refused (HTTP 4xx), the service or the storage unreachable or failing, `timeout` ran out, a
 * cancellation, or the work itself (a failed job, a refused archive, anything else).
 */
export type FailureKind = 'input' | 'failed' | 'refused' | 'unavailable' | 'timeout' | 'cancelled'

export interface RunnerEvent {
  /** `push`, `issue_comment`, ...; undefined outside a workflow run. */
  name: string | undefined
  payload: Record<string, unknown>
}

export interface RepoRef {
  owner: string
  repo: string
}

export type Reaction = 'eyes' | 'rocket' | '+1' | 'confused'

export interface PostedComment {
  id: number
  url: string | undefined
}

/** A comment of an issue or pull request's conversation. */
export interface IssueComment {
  id: number
  body: string
  author: { login: string | undefined; type: string | undefined }
  /** Its address on GitHub, when the listing gave it. */
  url?: string | undefined
  /** A review comment's thread: the comment it replies to (undefined for the first, and in a conversation). */
  inReplyTo?: number | undefined
}

/** An inline comment of a pull request's review: what it says, and the file and line it was written on. */
export interface InlineComment {
  id: number
  body: string
  path: string | undefined
  line: number | undefined
  author: { login: string | undefined; type: string | undefined }
}

/** A GitHub deployment to create: the commit, and the environment it goes to (its link shows on the pull request). */
export interface DeploymentRequest {
  /** The commit's sha. */
  ref: string
  environment: string
  description: string
}

/** A status of a GitHub deployment: `environmentUrl` is where it is served, `logUrl` the workflow run. */
export interface DeploymentState {
  state: 'in_progress' | 'success' | 'failure' | 'error'
  environmentUrl?: string | undefined
  logUrl?: string | undefined
  description: string
}

/** What GitHub says of a user's access to a repository. */
export interface RepositoryPermission {
  /** The user's role (`admin`, `maintain`, `write`, `triage`, `read`, or a custom role's name). */
  roleName: string | undefined
  /** The base permission (`admin`, `write`, `read`, `none`). */
  permission: string | undefined
}

/** The GitHub REST calls the action makes. Every call may be bounded by `signal`. */
export interface GitHubApi {
  /**
   * The login the token writes as, when GitHub tells it: a personal access token's user. An app's
   * installation token (GITHUB_TOKEN too) may not read it: undefined.
   */
  tokenLogin(signal?: AbortSignal): Promise<string | undefined>
  getPermission(repo: RepoRef, username: string, signal?: AbortSignal): Promise<RepositoryPermission>
  /** Every comment of the conversation of an issue or pull request, oldest first (all pages). */
  listIssueComments(repo: RepoRef, issueNumber: number, signal?: AbortSignal): Promise<IssueComment[]>
  /** Every review comment of a pull request, oldest first (all pages), with the thread each replies to. */
  listReviewComments(repo: RepoRef, pullNumber: number, signal?: AbortSignal): Promise<IssueComment[]>
  reactToIssueComment(repo: RepoRef, commentId: number, content: Reaction, signal?: AbortSignal): Promise<void>
  reactToReviewComment(repo: RepoRef, commentId: number, content: Reaction, signal?: AbortSignal): Promise<void>
  createIssueComment(repo: RepoRef, issueNumber: number, body: string, signal?: AbortSignal): Promise<PostedComment>
  /** Replies in a review comment's thread; `commentId` must be the thread's first comment. */
  replyToReviewComment(
    repo: RepoRef,
    pullNumber: number,
    commentId: number,
    body: string,
    signal?: AbortSignal
  ): Promise<PostedComment>
  /** The inline comments of one review of a pull request, oldest first: its first `max` (at most 100). */
  listReviewInlineComments(
    repo: RepoRef,
    pullNumber: number,
    reviewId: number,
    max: number,
    signal?: AbortSignal
  ): Promise<InlineComment[]>
  /** Creates a deployment (transient, merged with nothing, checked against no status); resolves with its id. */
  createDeployment(repo: RepoRef, request: DeploymentRequest, signal?: AbortSignal): Promise<number>
  createDeploymentStatus(
    repo: RepoRef,
    deploymentId: number,
    state: DeploymentState,
    signal?: AbortSignal
  ): Promise<void>
  updateIssueComment(repo: RepoRef, commentId: number, body: string, signal?: AbortSignal): Promise<void>
  updateReviewComment(repo: RepoRef, commentId: number, body: string, signal?: AbortSignal): Promise<void>
}

/**
 * A GitHub API call that failed; `status` 0 when no answer came. `rateLimited`: GitHub asked to
 * slow down (a 429, or a 403 of its secondary rate limits), `retryAfter` saying when to try again.
 */
export class GitHubApiError extends Error {
  override readonly name: string = 'GitHubApiError'
  constructor(
    readonly status: number,
    message: string,
    readonly rateLimited = status === 429,
    readonly retryAfter?: string | undefined
  ) {
    super(message)
  }

  /** GitHub answers 404 as well as 403 (and 401) when a token may not see or do something. */
  get refused(): boolean {
    return this.status === 401 || this.status === 403 || this.status === 404
  }
}

/**
 * GitHub answered, but not with what the call returns (see github-answers.ts): `incomplete` when
 * the answer cannot be whole (a conversation longer than the action reads), which no retry
 * changes; else the answer could not be read, which another try may.
 */
export class GitHubAnswerError extends GitHubApiError {
  override readonly name = 'GitHubAnswerError'
  constructor(
    status: number,
    message: string,
    readonly incomplete = false
  ) {
    super(status, message)
  }
}
