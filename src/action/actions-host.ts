/** The Host on a GitHub runner: @actions/core for the workflow commands, process.env, process signals. */
import * as core from '@actions/core'
import { plainLogLines } from '../common/text.js'
import { readRunnerEvent } from './event.js'
import type { Host } from './host.js'

export function actionsHost(): Host {
  return {
    getInput: (name) => core.getInput(name),
    setOutput: (name, value) => core.setOutput(name, value),
    setSecret: (secret) => core.setSecret(secret),
    setFailed: (message) => core.setFailed(message),
    log: {
      debug: (message) => core.debug(message),
      // core.info prints the message as it is: no line of it may be taken for a workflow command.
      info: (message) => core.info(plainLogLines(message)),
      warning: (message) => core.warning(message),
      group: (title, fn) => core.group(plainLogLines(title), fn)
    },
    appendSummary: async (html) => {
      if (!process.env.GITHUB_STEP_SUMMARY) return
      await core.summary.addRaw(html).write()
    },
    env: (name) => process.env[name] || undefined,
    event: () => readRunnerEvent((name) => process.env[name]),
    github: async (token) => {
      const { createGitHubApi } = await import('./octokit.js')
      return createGitHubApi(token, process.env.GITHUB_API_URL || undefined)
    },
    cancelled: cancelOnSignals(() => {
      core.setFailed('The run was cancelled.')
      process.exit(1)
    })
  }
}

/**
 * Turns the runner's cancellation into an AbortSignal. The runner sends SIGINT, then SIGTERM
 * 7.5 s later, then kills: flows stop at the signal and clean up; if something still hangs, the
 * process ends by itself after `graceMs`, still failing the step with a message.
 */
export function cancelOnSignals(onGraceExpired: () => void, graceMs = 2500, signals: NodeJS.Signals[] = ['SIGINT', 'SIGTERM']): AbortSignal {
  const controller = new AbortController()
  const onSignal = (name: NodeJS.Signals): void => {
    if (controller.signal.aborted) return
    controller.abort(new Error(`Received ${name}`))
    setTimeout(onGraceExpired, graceMs).unref()
  }
  for (const name of signals) process.on(name, onSignal)
  return controller.signal
}
