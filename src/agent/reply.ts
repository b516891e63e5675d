/** The text of the reply on a triggering comment. Pure. */
import type { AgentSettings } from '../action/settings.js'
import { withoutMentions } from '../common/text.js'

export interface ReplyFacts {
  operation: AgentSettings['operation']
  jobId: string | undefined
  status: string | undefined
  prLink: string | undefined
  /** False when the run did not wait for the job to end (`wait: false`). */
  waited: boolean
  /** The failure, when the run failed. */
  error: string | undefined
  runUrl: string | undefined
}

/**
 * The reply: the job, its status and the PR link, or the error. Secrets are cut out of it (the
 * log masks them, a comment does not).
 */
export function replyText(facts: ReplyFacts, secrets: ReadonlyArray<string | undefined>): string {
  const job = facts.jobId === undefined ? 'The docs agent' : `Docs agent job \`${facts.jobId}\``
  const status = `**${facts.status ?? 'unknown'}**`
  const lines: string[] = []
  if (facts.error !== undefined) {
    lines.push(facts.jobId === undefined ? '❌ The docs agent run failed.' : `❌ ${job}${facts.status ? ` (status ${status})` : ''}: the run failed.`, '', facts.error)
  } else if (!facts.waited && facts.operation !== 'agent-status') {
    const what = facts.operation === 'agent-create' ? 'was created' : 'has the message'
    lines.push(`⏳ ${job} ${what} (status ${status}); this run does not wait for it to finish.`)
  } else if (facts.status === 'completed') {
    lines.push(
      facts.prLink
        ? `✅ ${job} is **completed**. Pull request: ${facts.prLink}`
        : `✅ ${job} is **completed** with no file changes, so no pull request was opened.`
    )
  } else {
    const mark = facts.status !== undefined && ['archived', 'completed'].includes(facts.status) ? '✅' : 'ℹ️'
    lines.push(`${mark} ${job} is ${status}.${facts.prLink ? ` Pull request: ${facts.prLink}` : ''}`)
  }
  if (facts.runUrl) lines.push('', `[Workflow run](${facts.runUrl})`)
  // The job's text comes from the service: it must not ping anyone.
  return redact(withoutMentions(lines.join('\n')), secrets)
}

export function redact(text: string, secrets: ReadonlyArray<string | undefined>): string {
  let out = text
  for (const secret of secrets) {
    if (secret !== undefined && secret.length >= 4) out = out.split(secret).join('***')
  }
  return out
}
