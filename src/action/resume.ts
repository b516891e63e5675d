/**
 * How a run names the job it works on, and how to pick that job up when the run ends before the
 * job does (a cancellation): in the inputs' terms, which the CLI turns into its own command line.
 * Pure.
 */
import type { Operation } from './inputs.js'

/** `Export job`, `Deployment`, `Preview`, `Automation job` or `Agent job`: the job of an operation, for a message. */
export function jobNoun(operation: Operation): string {
  switch (operation) {
    case 'export':
      return 'Export job'
    case 'deploy':
      return 'Deployment'
    case 'preview':
      return 'Preview'
    case 'automation':
      return 'Automation job'
    default:
      return 'Agent job'
  }
}

/**
 * The job goes on without the run: the operation and `job-id` that pick it up again. An export
 * with `job-id` downloads the job's bundle, a deploy follows the deployment, and any agent job is
 * read (and waited for) by `agent-status`, which needs its project too. An automation's run is
 * watched on the dashboard.
 */
export function resumeHint(operation: Operation, jobId: string): string {
  const job = `${jobNoun(operation)} ${jobId} was not cancelled with the run`
  if (operation === 'export') return `${job}: pick it up with \`operation: export\` and \`job-id: ${jobId}\`.`
  if (operation === 'deploy' || operation === 'preview')
    return `${job}: follow it with \`operation: ${operation}\` and \`job-id: ${jobId}\`.`
  // The service has no read of an automation's run: the dashboard is where it shows.
  if (operation === 'automation') return `${job}: its run is queued; watch it in the dashboard's automation runs.`
  return `${job}: check it with \`operation: agent-status\` and \`job-id: ${jobId}\` (and the same \`project-id\`).`
}
