/** The text of the one progress comment a comment-triggered run keeps up to date. Pure. */
import { withoutMentions } from '../common/text.js'
import { formatDuration } from '../common/units.js'

export interface ProgressFacts {
  jobId: string | undefined
  status: string | undefined
  prLink: string | undefined
  /**
   * `working`: the service accepted the request and the run follows the job; `handed-over`: it
   * accepted it and the run does not wait (`wait: false`); `ended`: the job's final state (or the
   * state read); `failed`: the run itself failed.
   */
  phase: 'working' | 'handed-over' | 'ended' | 'failed'
  /** What the run asked of the job, for `handed-over`. */
  request: 'message' | 'create' | 'read'
  /** The run's failure (`failed`), or the service's reason for a `failed` job. */
  error: string | undefined
  /** Something the reader should know, e.g. that a new job took over. */
  note: string | undefined
  elapsedMs: number | undefined
  runUrl: string | undefined
}

/**
 * The comment: the job, its status and the PR link, or the error. Text from the service pings
 * nobody (@mentions are broken up), and secrets are cut out (the log masks them, a comment does not).
 */
export function progressText(facts: ProgressFacts, secrets: ReadonlyArray<string | undefined>): string {
  const job = facts.jobId === undefined ? 'The docs agent' : `Docs agent job \`${facts.jobId}\``
  const status = `**${facts.status ?? 'unknown'}**`
  const after = facts.elapsedMs === undefined ? '' : ` after ${formatDuration(facts.elapsedMs)}`
  const lines: string[] = []
  switch (facts.phase) {
    case 'failed':
      lines.push(
        facts.jobId === undefined ? '❌ The docs agent run failed.' : `❌ ${job}${facts.status ? ` (status ${status})` : ''}: the run failed${after}.`,
        '',
        withoutMentions(facts.error ?? '')
      )
      break
    case 'working':
      lines.push(`⏳ ${job} is working on it (status ${status}).`)
      break
    case 'handed-over':
      lines.push(`⏳ ${job} ${facts.request === 'create' ? 'was created' : 'has the message'} (status ${status}); this run does not wait for it to finish.`)
      break
    case 'ended':
      lines.push(endLine(job, facts, status, after))
  }
  if (facts.note !== undefined) lines.push('', withoutMentions(facts.note))
  if (facts.runUrl) lines.push('', `[Workflow run](${facts.runUrl})`)
  return redact(lines.join('\n'), secrets)
}

function endLine(job: string, facts: ProgressFacts, status: string, after: string): string {
  switch (facts.status) {
    case 'completed':
      return facts.prLink
        ? `✅ ${job} is **completed**${after}. Pull request: ${facts.prLink}`
        : `✅ ${job} is **completed**${after} with no file changes, so no pull request was opened.`
    case 'archived':
      return `✅ ${job} is **archived**${after}.${facts.prLink ? ` Pull request: ${facts.prLink}` : ''}`
    case 'failed':
      return `❌ ${job} **failed**${after}: ${withoutMentions(facts.error ?? 'the service gave no reason')}`
    default:
      return `ℹ️ ${job} is ${withoutMentions(status)}.${facts.prLink ? ` Pull request: ${facts.prLink}` : ''}`
  }
}

export function redact(text: string, secrets: ReadonlyArray<string | undefined>): string {
  let out = text
  for (const secret of secrets) {
    if (secret !== undefined && secret.length >= 4) out = out.split(secret).join('***')
  }
  return out
}
