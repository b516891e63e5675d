// The GitHub API is handed out before Octokit is loaded: loading waits for the first call, happens once, and every
// call reaches the loaded API with its arguments and answer (or the load's failure).
import { describe, expect, test } from '@jest/globals'
import { githubOnDemand } from '../src/action/github-on-demand.js'
import type { GitHubApi } from '../src/action/host.js'

const REPO = { owner: 'acme', repo: 'docs' }

/** An API whose methods record their calls; only the ones the tests use answer. */
function recordingApi(calls: unknown[][]): GitHubApi {
  const record =
    (name: string, answer: unknown) =>
    async (...args: unknown[]): Promise<never> => {
      calls.push([name, ...args])
      return answer as never
    }
  return {
    tokenLogin: record('tokenLogin', 'docs-bot'),
    getPermission: record('getPermission', 'write'),
    listIssueComments: record('listIssueComments', []),
    listReviewComments: record('listReviewComments', []),
    listReviewInlineComments: record('listReviewInlineComments', []),
    reactToIssueComment: record('reactToIssueComment', undefined),
    reactToReviewComment: record('reactToReviewComment', undefined),
    createIssueComment: record('createIssueComment', { id: 7, url: 'https://github.example/c/7' }),
    replyToReviewComment: record('replyToReviewComment', { id: 8, url: 'https://github.example/c/8' }),
    updateIssueComment: record('updateIssueComment', undefined),
    updateReviewComment: record('updateReviewComment', undefined),
    createDeployment: record('createDeployment', 41),
    createDeploymentStatus: record('createDeploymentStatus', undefined)
  }
}

describe('githubOnDemand', () => {
  test('loads nothing until the first call, then once for every call', async () => {
    const calls: unknown[][] = []
    let loads = 0
    const api = githubOnDemand(async () => {
      loads++
      return recordingApi(calls)
    })
    expect(loads).toBe(0)
    const answers = await Promise.all([api.getPermission(REPO, 'octocat'), api.tokenLogin()])
    await api.createIssueComment(REPO, 42, 'hello')
    expect(loads).toBe(1)
    expect(answers).toEqual(['write', 'docs-bot'])
    expect(calls).toEqual([
      ['getPermission', REPO, 'octocat'],
      ['tokenLogin'],
      ['createIssueComment', REPO, 42, 'hello']
    ])
  })

  test('a load that fails fails the call that needed it, and the next', async () => {
    const api = githubOnDemand(async () => {
      throw new Error('Cannot find module ./413.index.js')
    })
    await expect(api.tokenLogin()).rejects.toThrow('Cannot find module')
    await expect(api.updateIssueComment(REPO, 1, 'x')).rejects.toThrow('Cannot find module')
  })
})
