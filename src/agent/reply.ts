/** The text of the one progress comment a comment-triggered run keeps up to date. Pure. */
import type { Secrets } from '../common/secrets.js'
import { commentCode, commentMarkdown, commentPhrase, commentText } from '../common/text.js'
import { formatDuration } from '../common/units.js'
import { REPLY_ERROR_CHARS } from '../reply/job-reply.js'

export { REPLY_ERROR_CHARS } from '../reply/job-reply.js'

export interface ProgressFacts {
  jobId: string | undefined
  status: string | undefined
  prLink: string | undefined
  /**
   * `working`: the service accepted the request and the run follows the job; `handed-over`: it
   * accepted it and the run does not wait (`wait: false`); `ended`: the job's final state (or the
   * state read); `failed`: the run itself failed; `cancelled`: the run was cancelled before the
   * job ended; `asking`: the request is on its way to the service; `picking-up`: the job has the
   * message but still shows how it was before it.
   */
  phase: 'asking' | 'picking-up' | 'working' | 'handed-over' | 'ended' | 'failed' | 'cancelled'
  /** What the run asked of the job, for `handed-over`. */
  request: 'message' | 'create' | 'read'
  /** The run's failure (`failed`), or the service's reason for a `failed` job. */
  error: string | undefined
  /** Something the reader should know, e.g. that a new job took over. */
  note: string | undefined
  /** The job's own time so far: from its `createdAt` (or, without one, this run's start) to now. */
  elapsedMs: number | undefined
  runUrl: string | undefined
}

/**
 * The comment: the job, its status and the PR link, or the error. Every piece of text from the
 * service is made safe for a comment: secrets are cut out first (the log masks them, a comment
 * does not), then it shows as plain text: it pings nobody (@mentions are broken up), links
 * nothing, cannot close the code span or emphasis around it, holds no HTML (see commentText). The
 * one link is the address the service gave, normalised (see normalisedHttpLink), as an explicit
 * autolink.
 */
export function progressText(facts: ProgressFacts, secrets: Secrets): string {
  const shown = withoutSecrets(facts, secrets)
  const job = shown.jobId === undefined ? 'The docs agent' : `Docs agent job ${commentCode(shown.jobId)}`
  const status = `**${commentPhrase(shown.status ?? 'unknown')}**`
  const prLink = shown.prLink === undefined || shown.prLink === '' ? undefined : `<${shown.prLink}>`
  const after = shown.elapsedMs === undefined ? '' : ` after ${formatDuration(shown.elapsedMs)}`
  // Cut once the secrets are out (Secrets.cut): a cut through one would leave a part of it that nothing knows.
  const error =
    facts.error === undefined
      ? undefined
      : secrets.cut(facts.error, REPLY_ERROR_CHARS, "(cut short: the run's log has more of it)")
  const lines: string[] = []
  switch (shown.phase) {
    case 'failed':
      lines.push(
        shown.jobId === undefined
          ? '❌ The docs agent run failed.'
          : `❌ ${job}${shown.status ? ` (status ${status})` : ''}: the run failed${after}.`,
        '',
        // The run's failure is ours, with code spans for the log; the service's text in it stays plain.
        commentMarkdown(error ?? '')
      )
      break
    case 'cancelled':
      lines.push(
        shown.jobId === undefined
          ? '⏹️ The docs agent run was cancelled.'
          : `⏹️ ${job} (status ${status}): the run was cancelled${after}. The job may still be running: check it ` +
              `with \`operation: agent-status\` and this job id.`
      )
      break
    case 'asking':
      lines.push(
        shown.request === 'create'
          ? '⏳ Asking the docs service for a new agent job…'
          : `⏳ Sending the instruction to ${job.replace(/^D/, 'd')}…`
      )
      break
    case 'picking-up':
      lines.push(`⏳ ${job} has the instruction and has not started on it yet (it still shows ${status}, as before).`)
      break
    case 'working':
      lines.push(`⏳ ${job} is working on it (status ${status}).`)
      break
    case 'handed-over':
      lines.push(
        `⏳ ${job} ${shown.request === 'create' ? 'was created' : 'has the message'} (status ${status}); this run ` +
          `does not wait for it to finish.`
      )
      break
    case 'ended':
      lines.push(endLine(job, { ...shown, error }, status, prLink, after))
  }
  // A note is ours, written with code spans for the log: they stay code spans here.
  if (shown.note !== undefined) lines.push('', commentMarkdown(shown.note))
  if (shown.runUrl) lines.push('', `[Workflow run](${shown.runUrl})`)
  return lines.join('\n')
}

/**
 * `facts` with the secrets cut out of every text in it. Before any escaping, which changes how a
 * secret is spelled (`dsk_live_1` becomes `dsk\_live\_1`), so that redaction would no longer find it.
 */
function withoutSecrets(facts: ProgressFacts, secrets: Secrets): ProgressFacts {
  const clean = (text: string | undefined): string | undefined =>
    text === undefined ? undefined : secrets.redact(text)
  return {
    ...facts,
    jobId: clean(facts.jobId),
    status: clean(facts.status),
    prLink: clean(facts.prLink),
    // Cut as well as redacted, in progressText.
    error: undefined,
    note: clean(facts.note),
    runUrl: clean(facts.runUrl)
  }
}

/** `status` and `prLink`: the job's status and link as the comment shows them. */
function endLine(job: string, facts: ProgressFacts, status: string, prLink: string | undefined, after: string): string {
  switch (facts.status) {
    case 'completed':
      return prLink
        ? `✅ ${job} is **completed**${after}. Pull request: ${prLink}`
        : `✅ ${job} is **completed**${after} with no file changes, so no pull request was opened.`
    case 'archived':
      return `✅ ${job} is **archived**${after}.${prLink ? ` Pull request: ${prLink}` : ''}`
    case 'failed':
      return `❌ ${job} **failed**${after}: ${commentText(facts.error ?? 'the service gave no reason')}`
    default:
      return `ℹ️ ${job} is ${status}.${prLink ? ` Pull request: ${prLink}` : ''}`
  }
}
