/**
 * Which comments the action itself wrote: the records on pull requests and the replies to
 * commands carry hidden markers, and a marker counts only in a comment of ours, so that nobody
 * can steer the action by writing one by hand. Ours: any bot's (GITHUB_TOKEN and an app's token
 * write as bots, and GitHub does not tell a workflow which bot it is), and the token's own user's
 * when the token is a person's (a personal access token writes as that person).
 */
import type { FlowContext } from '../action/context.js'
import type { GitHubApi, IssueComment } from '../action/host.js'
import { readGitHub, tryGitHub } from '../github/calls.js'

export type Author = IssueComment['author']

/** Ours when nothing more is known: a bot's. */
export const BY_A_BOT = (author: Author): boolean => author.type === 'Bot'

export class OurComments {
  /** The token's own login, once asked (`login` undefined: GitHub did not say). */
  private token: { login: string | undefined } | undefined

  constructor(
    private readonly github: GitHubApi,
    private readonly context: FlowContext
  ) {}

  /**
   * Which authors among `comments` are ours, for markers matched by `marker`. The token's login
   * is asked of GitHub only when a person's comment holds such a marker, and once a run:
   * `needed` fails when GitHub cannot say, `best-effort` then trusts bots only.
   */
  async authors(
    comments: readonly IssueComment[],
    marker: RegExp,
    how: 'needed' | 'best-effort'
  ): Promise<(author: Author) => boolean> {
    if (!comments.some((comment) => !BY_A_BOT(comment.author) && marker.test(comment.body))) return BY_A_BOT
    if (this.token === undefined) {
      const ask = async (signal: AbortSignal): Promise<{ login: string | undefined }> => ({
        login: await this.github.tokenLogin(signal)
      })
      // A best-effort ask that failed is not kept: the next ask may get the answer.
      const token =
        how === 'needed'
          ? await readGitHub(this.context, ask)
          : await tryGitHub(this.context, 'read whom the token writes as', ask)
      if (token === undefined) return BY_A_BOT
      this.token = token
    }
    const { login } = this.token
    return (author) => BY_A_BOT(author) || (login !== undefined && author.login === login)
  }
}
