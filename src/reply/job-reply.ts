/**
 * The reply of a comment run of a deployment, a preview, an automation or an export: what the run
 * asked, the job's status as it moves, and how it ended, in the one reply of the run (see
 * comment-run.ts). The agent's conversation says more, in words of its own (agent/reply.ts).
 */
import type { FlowContext } from '../action/context.js'
import { commentCode, commentMarkdown, commentPhrase, commentText, serviceText } from '../common/text.js'
import { formatDuration } from '../common/units.js'
import type { CommentRun } from './comment-run.js'

/**
 * How much of an error a reply shows. GitHub refuses a comment body over 65,536 characters, and a
 * refused edit would leave the reply saying "working" for good; the step's error in the log keeps
 * all of it.
 */
export const REPLY_ERROR_CHARS = 4000

/** What a reply says of a job; every text but `noun` is someone else's, made safe here. */
export interface JobFacts {
  /** `Deployment`, `Export job`, `Preview`, `Automation run`. */
  noun: string
  jobId: string | undefined
  status: string | undefined
  /** The job's link (a preview's address), shown as an autolink. */
  link?: string | undefined
  /** Lines that say what the job did (the commit deployed, the pages exported). */
  details?: readonly string[] | undefined
  /** The service's reason for a failed job. */
  error?: string | undefined
  /** The job's own time, from its start to its end. */
  elapsedMs?: number | undefined
}

export type JobPhase = 'working' | 'succeeded' | 'failed-job' | 'run-failed' | 'cancelled'

/**
 * The reply's text for `phase`: the job and its status, then its link and details, then the
 * error, the note, the run's link. Secrets are cut out of every text before it is escaped (an
 * escape changes how a secret is spelled), and before the error is cut short.
 */
export function jobReplyText(
  phase: JobPhase,
  facts: JobFacts,
  extra: { error?: string | undefined; note?: string | undefined; runUrl: string | undefined },
  secrets: { redact(text: string): string; cut(text: string, max: number, note?: string): string }
): string {
  const clean = (text: string): string => secrets.redact(text)
  const job =
    facts.jobId === undefined ? `The ${facts.noun.toLowerCase()}` : `${facts.noun} ${commentCode(clean(facts.jobId))}`
  const status = facts.status === undefined ? undefined : `**${commentPhrase(clean(facts.status))}**`
  const after = facts.elapsedMs === undefined ? '' : ` after ${formatDuration(facts.elapsedMs)}`
  const error = extra.error ?? facts.error
  const lines: string[] = []
  switch (phase) {
    case 'working':
      lines.push(`⏳ ${job}${status === undefined ? ' is under way' : ` is ${status}`}.`)
      break
    case 'succeeded':
      lines.push(`✅ ${job}${status === undefined ? ' succeeded' : ` is ${status}`}${after}.`)
      break
    case 'failed-job':
      lines.push(`❌ ${job}${status === undefined ? ' failed' : ` is ${status}`}${after}.`)
      break
    case 'run-failed':
      lines.push(`❌ ${job}${status === undefined ? '' : ` (status ${status})`}: the run failed.`)
      break
    case 'cancelled':
      lines.push(`⏹️ ${job}${status === undefined ? '' : ` (status ${status})`}: the run was cancelled.`)
  }
  if (facts.link !== undefined) lines.push('', `<${clean(facts.link)}>`)
  if (facts.details !== undefined && facts.details.length > 0)
    lines.push('', ...facts.details.map((detail) => `- ${commentMarkdown(serviceText(clean(detail)))}`))
  // The run's failure is ours, with code spans for the log (the service's text in it stays plain); a
  // job's failure is the service's.
  const shown =
    error === undefined ? undefined : secrets.cut(error, REPLY_ERROR_CHARS, "(cut short: the run's log has more of it)")
  if (shown !== undefined && shown !== '' && phase !== 'working' && phase !== 'succeeded')
    lines.push('', extra.error !== undefined ? commentMarkdown(shown) : commentText(shown))
  if (extra.note !== undefined) lines.push('', commentMarkdown(clean(extra.note)))
  if (extra.runUrl) lines.push('', `[Workflow run](${clean(extra.runUrl)})`)
  return lines.join('\n')
}

/** What a flow other than the agent's is handed for a comment: the comment run (none without one) and its reply. */
export interface OnComment {
  run: CommentRun | undefined
  reply: JobReply
}

/** The reply of one job's comment run, as its flow tells it (nothing when the run keeps no reply). */
export class JobReply {
  private facts: JobFacts
  private ended = false

  constructor(
    private readonly run: CommentRun | undefined,
    noun: string,
    private readonly context: FlowContext
  ) {
    this.facts = { noun, jobId: undefined, status: undefined }
  }

  /** The reply's text while the once-only request is on its way: `what` is Markdown of ours. */
  askingText(what: string): string {
    const runUrl = this.run?.comment.runUrl
    return [`⏳ ${what}…`, ...(runUrl ? ['', `[Workflow run](${this.context.secrets.redact(runUrl)})`] : [])].join('\n')
  }

  /** The job as it moves on; not waited for (a slow GitHub must not cost the job its wait). */
  working(facts: Partial<JobFacts>): void {
    const changed = facts.status !== this.facts.status || facts.jobId !== this.facts.jobId
    this.facts = { ...this.facts, ...facts }
    if (changed) this.run?.reply?.showSoon(this.text('working'))
  }

  /** The job's end: its success, or its failure (the step fails after). */
  async end(succeeded: boolean, facts: Partial<JobFacts>): Promise<void> {
    this.facts = { ...this.facts, ...facts }
    this.ended = true
    await this.run?.reply?.show(this.text(succeeded ? 'succeeded' : 'failed-job'))
  }

  /** The run failed with `message`; a job whose failure the reply shows already is left so. */
  async fail(message: string): Promise<void> {
    if (this.ended) return
    await this.run?.reply?.show(this.text('run-failed', message))
  }

  /** The run was cancelled: a reply that says "under way" says so instead, with how to pick the job up. */
  async cancel(hint: string | undefined): Promise<void> {
    if (this.ended) return
    await this.run?.reply?.cancelled(this.text('cancelled', undefined, hint))
  }

  async settled(): Promise<void> {
    await this.run?.reply?.settled()
  }

  private text(phase: JobPhase, error?: string, note?: string): string {
    return jobReplyText(phase, this.facts, { error, note, runUrl: this.run?.comment.runUrl }, this.context.secrets)
  }
}
