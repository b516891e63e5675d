/** The Host on a GitHub runner: @actions/core for the workflow commands, process.env, process signals. */
import { rm, stat, utimes } from 'node:fs/promises'
import * as os from 'node:os'
import * as path from 'node:path'
import * as core from '@actions/core'
import { cancelOnSignals } from '../common/cancellation.js'
import { plainLogLines } from '../common/text.js'
import { readRunnerEvent } from './event.js'
import { githubOnDemand } from './github-on-demand.js'
import type { Host, ToolCache } from './host.js'

export function actionsHost(): Host {
  return {
    // As @actions/core names the variable; core.getInput cannot tell an empty input from a missing one.
    getInput: (name) => process.env[`INPUT_${name.replace(/ /g, '_').toUpperCase()}`],
    setOutput: (name, value) => core.setOutput(name, String(value)),
    setSecret: (secret) => core.setSecret(secret),
    setFailed: (message) => core.setFailed(message),
    log: {
      debug: (message) => core.debug(message),
      // core.info prints the message as it is: no line of it may be taken for a workflow command.
      info: (message) => core.info(plainLogLines(message)),
      warning: (message) => core.warning(message),
      notice: (message) => core.notice(message),
      progress: (message) => core.info(plainLogLines(message)),
      group: (title, fn) => core.group(plainLogLines(title), fn)
    },
    appendSummary: async (html) => {
      if (!process.env.GITHUB_STEP_SUMMARY) return
      await core.summary.addRaw(html).write()
    },
    env: (name) => process.env[name] || undefined,
    event: () => readRunnerEvent((name) => process.env[name]),
    github: async (token) =>
      githubOnDemand(async () =>
        (await import('./octokit.js')).createGitHubApi(token, process.env.GITHUB_API_URL || undefined)
      ),
    cancelled: cancelOnSignals(() => {
      core.setFailed('The run was cancelled.')
      process.exit(1)
    }),
    // @actions/tool-cache is loaded only when a bundle is looked up or kept. A GitHub-hosted
    // runner is a fresh machine for every job, so nothing kept in its tool cache is found again:
    // copying the bundle there would only cost the time of writing it a second time.
    toolCache: toolCacheKept(process.env) ? runnerToolCache(process.env.RUNNER_TOOL_CACHE as string) : undefined
  }
}

/**
 * The runner's tool cache through @actions/tool-cache, laid out as `<tool>/<version>/<arch>` with
 * a `<arch>.complete` marker; listing by age, marking as used (the marker's time) and removing are
 * done on that layout (the library has no call for them).
 */
function runnerToolCache(root: string): ToolCache {
  const versionFolder = (tool: string, version: string): string => {
    if (!/^[\w.+-]+$/.test(tool) || !/^[\w.+-]+$/.test(version))
      throw new Error(`not a tool cache entry: ${tool} ${version}`)
    return path.join(root, tool, version)
  }
  /** Written by the library once an entry is whole; its time says when the entry was cached or last used. */
  const marker = (tool: string, version: string): string =>
    path.join(versionFolder(tool, version), `${os.arch()}.complete`)
  return {
    find: async (tool, version) => (await import('@actions/tool-cache')).find(tool, version) || undefined,
    cacheFile: async (file, name, tool, version) =>
      (await import('@actions/tool-cache')).cacheFile(file, name, tool, version),
    versions: async (tool) => {
      const versions = (await import('@actions/tool-cache')).findAllVersions(tool)
      const cachedAt = async (version: string): Promise<number> =>
        (await stat(marker(tool, version)).catch(() => undefined))?.mtimeMs ?? 0
      const dated = await Promise.all(versions.map(async (version) => ({ version, at: await cachedAt(version) })))
      return dated.sort((a, b) => b.at - a.at).map(({ version }) => version)
    },
    markUsed: async (tool, version) => {
      const now = new Date()
      await utimes(marker(tool, version), now, now)
    },
    remove: async (tool, version) => {
      const folder = versionFolder(tool, version)
      await rm(folder, { recursive: true, force: true })
    }
  }
}

/**
 * Whether the runner keeps its tool cache for later jobs: it has one (RUNNER_TOOL_CACHE) and is
 * not GitHub-hosted (RUNNER_ENVIRONMENT is `github-hosted` there, `self-hosted` elsewhere; older
 * runners do not set it, and are taken to keep theirs).
 */
function toolCacheKept(env: NodeJS.ProcessEnv): boolean {
  return Boolean(env.RUNNER_TOOL_CACHE) && env.RUNNER_ENVIRONMENT !== 'github-hosted'
}
