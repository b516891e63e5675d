/**
 * The job summary's title: the operation in words, with what it is about ("Agent conversation on
 * #42", "Deployment of proj_docs"), so that a run's page says what the run did. Pure.
 */
import type { Settings } from './settings.js'

/**
 * The title of a run of `settings`; `subject`: the number of the issue or pull request the event
 * is about, when there is one (a conversation is on it, and a job may be the one it records).
 */
export function titleOf(settings: Settings, subject?: number): string {
  const on = subject === undefined ? undefined : `#${subject}`
  switch (settings.operation) {
    case 'export':
      return settings.domain === undefined
        ? `Static export job ${settings.jobId}`
        : `Static export of ${settings.domain}`
    case 'deploy':
      return settings.projectId === undefined ? `Deployment ${settings.jobId}` : `Deployment of ${settings.projectId}`
    case 'preview':
      return on === undefined ? `Preview of ${settings.projectId}` : `Preview of ${settings.projectId} for ${on}`
    case 'automation':
      return `Automation ${settings.automationId} in project ${settings.projectId}`
    case 'agent':
      return on === undefined ? `Agent conversation in project ${settings.projectId}` : `Agent conversation on ${on}`
    case 'agent-create':
      return `New agent job in project ${settings.projectId}`
    case 'agent-message':
    case 'agent-status': {
      const what = settings.operation === 'agent-message' ? 'Message to' : 'Status of'
      const { jobId } = settings
      if (jobId.from === 'input') return `${what} agent job ${jobId.id}`
      return `${what} the agent job of ${on ?? 'the pull request'}`
    }
  }
}
