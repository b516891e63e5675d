/**
 * What an agent run tells as the job moves on: the outputs, the job summary, the progress comment
 * and the pull request's record (agent-flow.ts decides what to ask and follows the job).
 */
import type { FlowContext } from '../action/context.js'
import type { Outputs } from '../action/outputs.js'
import type { AgentSettings } from '../action/settings.js'
import { ActionError } from '../common/errors.js'
import { formatMoment } from '../common/units.js'
import { timestamp } from '../service/answer.js'
import { AGENT_TERMINAL, type AgentJob } from '../service/agent-api.js'
import { type JobRecords, type PullRequestRef, type RecordedJob, parsePullRequestLink } from './job-record.js'
import type { RunReply } from '../reply/run-reply.js'
import { surelyNotTaken } from '../reply/comment-run.js'
import type { AgentAsked } from '../reply/rerun-state.js'
import { type ProgressFacts, progressText } from './reply.js'
import { serverUrlOf } from '../gate/trigger.js'

/** A job and what the service last said of it. */
export interface JobInHand extends RecordedJob {
  answer: AgentJob
}

/** The job the run reached, and how. */
export interface Reached {
  job: JobInHand
  /** What was asked of the job in the end (by an earlier attempt, for a resumed run). */
  request: AgentAsked
  /** Clock time it was asked. */
  askedAt: number
  /** Whether the job has shown already that it took up a message (seen by an earlier attempt). */
  seen: boolean
  /** The answer of a status read, which following the job counts as its first check. */
  read: (AgentJob & { status: string }) | undefined
  /** Something the reader should know, e.g. that a new job took over. */
  note: string | undefined
}

/**
 * Whether the job has shown that it took up what the run asked of it: anything but a message, or
 * a message whose job has shown a non-terminal status since (in its answer, or as an earlier
 * attempt saw). A message's answer and the first reads after it may still show the job's end
 * before the message (spec 3.1 leaves open when a message changes `status`).
 */
export function tookUpAlready(reached: Reached): boolean {
  const { status } = reached.job.answer
  return reached.request !== 'message' || reached.seen || (status !== undefined && !AGENT_TERMINAL.has(status))
}

/**
 * What the run tells: the outputs, the job summary, the progress comment and the pull request's
 * record, each kept up to date as the job moves on.
 */
export class Conversation {
  private readonly outputs: Outputs
  private readonly serverUrl: string
  /** Known once the service has answered. */
  private reachedJob: Reached | undefined
  /** The last answer whose status counts. */
  private last: AgentJob | undefined
  /**
   * The reply shows the job's end (or, without wait, the job as handed over): nothing edits it
   * after. Not the same as `last` being an end: an end is published before it is shown.
   */
  private endShown = false
  /** What the run is asking of the service, and of which job, before it answers. */
  private asked: 'message' | 'create' | undefined
  private askedJobId: string | undefined

  constructor(
    private readonly settings: AgentSettings,
    private readonly context: FlowContext,
    private readonly progress: RunReply | undefined,
    private readonly records: JobRecords | undefined,
    private readonly runUrl: string | undefined
  ) {
    this.outputs = context.outputs
    this.serverUrl = serverUrlOf((name) => context.host.env(name))
  }

  /**
   * A request that creates something is about to go to the service: the reply says so, and its
   * marker says that it may have been processed from now on (what a rerun must know, whatever
   * happens next: a cancellation, a lost answer, a crash). Throws when GitHub does not take it:
   * the request is then not sent, since a rerun that found no such marker would send it again.
   */
  async asking(asked: 'message' | 'create', job: RecordedJob | undefined, at: number): Promise<void> {
    this.asked = asked
    this.askedJobId = job?.jobId
    if (this.progress?.advance({ kind: 'asking', asked, job, at }) === 'before-asking')
      await this.progress.record(this.text('asking', undefined, undefined))
  }

  /** `request`, noting in the reply's marker when the service surely did not act on it (a rerun then asks again). */
  async trackRefusal<T>(request: Promise<T>): Promise<T> {
    try {
      return await request
    } catch (error) {
      if (surelyNotTaken(error)) this.progress?.advance({ kind: 'refused' })
      throw error
    }
  }

  /** The job has shown that it took up the message: a rerun need not wait for that again. */
  tookUp(): void {
    this.progress?.advance({ kind: 'took-up' })
  }

  /** The service answered: the job is known. What GitHub is told of it is not waited for. */
  reached(reached: Reached): void {
    const { job } = reached
    this.reachedJob = reached
    this.outputs.set('job-id', job.jobId)
    // A message's answer may still show the job as it was before the message: its outcome
    // fields count only once the job took the message up, or when nothing more will be read.
    const takenUp = tookUpAlready(reached)
    this.progress?.advance({
      kind: 'answered',
      asked: reached.request,
      at: reached.askedAt,
      job: { projectId: job.projectId, jobId: job.jobId },
      seen: reached.request === 'message' && takenUp
    })
    const settled = !this.settings.wait || takenUp
    this.publish(job.answer, settled)
    // Not waited for: the job is followed meanwhile (see RunReply.showSoon).
    if (this.settings.wait || reached.request !== 'read')
      this.progress?.showSoon(
        this.text(this.settings.wait ? (settled ? 'working' : 'picking-up') : 'handed-over', job.answer, undefined)
      )
    this.noteRecordSoon(job.answer)
  }

  /**
   * A status answer while following the job; `settled` false: an end that may be from before the
   * message. What GitHub is told of it is not waited for.
   */
  seen(job: AgentJob & { status: string }, settled: boolean): void {
    const changed = job.status !== this.last?.status
    this.publish(job, settled)
    if (changed && !AGENT_TERMINAL.has(job.status)) this.progress?.showSoon(this.text('working', job, undefined))
    this.noteRecordSoon(job)
  }

  /** The job's final state (or, without wait, as read): `failed` fails the step. */
  async ended(job: AgentJob, judged: boolean): Promise<void> {
    const { host, report } = this.context
    const jobId = this.reachedJob?.job.jobId
    if (!judged) {
      await this.show('handed-over', job)
      this.endShown = true
      return
    }
    // The end as the wait took it (one the wait believed after a while was not published as seen).
    this.publish(job, true)
    await this.show('ended', job)
    this.endShown = true
    await this.noteRecord(job)
    if (job.status === 'failed')
      throw new ActionError(
        `Agent job ${jobId} failed${job.error ? `: ${job.error}` : ' (the service gave no reason)'}.`
      )
    if (job.status === 'completed' && job.prLink !== undefined) {
      host.log.info(`Agent job ${jobId} completed; pull request: ${job.prLink}`)
      return
    }
    const note =
      job.status === 'completed'
        ? `Agent job ${jobId} completed without a pull request (the agent made no file changes).`
        : job.status === 'archived'
          ? `Agent job ${jobId} is archived${job.archivedAt ? ` (since ${this.moment(job.archivedAt)})` : ''}.`
          : undefined
    if (note === undefined) return
    host.log.info(note)
    report.notes.push(note)
  }

  /** A time of the service's in UTC and from now (`2025-06-01 14:32:05 UTC (3 min ago)`), or as it gave it. */
  private moment(value: string): string {
    const at = timestamp(value)
    return at === undefined ? value : formatMoment(at, this.context.clock.now())
  }

  /** Waits for what GitHub is being told (the reply's edits and the records not waited for). */
  async settled(): Promise<void> {
    await Promise.all([this.progress?.settled(), this.records?.settled()])
  }

  /** The run was cancelled: a reply still saying "working" says so instead. */
  async cancelled(): Promise<void> {
    if (this.endShown) return
    await this.progress?.cancelled(this.text('cancelled', this.last, undefined))
  }

  async failed(message: string): Promise<void> {
    // A job that failed said so in the reply already (ended()); an end only published, not yet
    // shown (a first answer that is already an end, then a read that fails), is not shown.
    if (this.endShown && this.last?.status === 'failed') return
    await this.progress?.show(this.text('failed', this.last, message))
  }

  private async show(phase: ProgressFacts['phase'], job: AgentJob): Promise<void> {
    await this.progress?.show(this.text(phase, job, phase === 'ended' ? job.error : undefined))
  }

  private text(phase: ProgressFacts['phase'], job: AgentJob | undefined, error: string | undefined): string {
    const ended = phase === 'ended' || phase === 'failed' || phase === 'cancelled'
    return progressText(
      {
        jobId: this.reachedJob?.job.jobId ?? this.askedJobId,
        status: job?.status,
        prLink: job?.prLink,
        phase,
        request: this.reachedJob?.request ?? this.asked ?? 'read',
        error,
        note: this.reachedJob?.note,
        elapsedMs: ended ? this.jobTime(job) : undefined,
        runUrl: this.runUrl
      },
      this.context.secrets
    )
  }

  /**
   * The time of what was asked, to now: a new job's from its `createdAt`, a message's from when it
   * was sent (by this attempt or an earlier one), so that a rerun's reply tells the job's time, not
   * the attempt's. Before the service answered, this run's.
   */
  private jobTime(job: AgentJob | undefined): number {
    const now = this.context.clock.now()
    const reached = this.reachedJob
    if (reached === undefined) return now - this.context.startedAt
    const created = reached.request === 'create' ? timestamp(job?.createdAt ?? reached.job.answer.createdAt) : undefined
    const from = created?.getTime() ?? reached.askedAt
    return from <= now ? now - from : now - this.context.startedAt
  }

  /** Sets the outputs from an answer; `settled` false leaves status, pr-link and archived-at alone. */
  private publish(job: AgentJob, settled: boolean): void {
    const { outputs } = this
    if (settled) this.last = job
    if (job.model !== undefined) outputs.set('model', job.model)
    if (job.sourceRepository !== undefined) outputs.set('source-repository', job.sourceRepository)
    if (job.sourceRef !== undefined) outputs.set('source-ref', job.sourceRef)
    if (job.createdAt !== undefined) outputs.set('created-at', job.createdAt)
    if (!settled) return
    if (job.status !== undefined) outputs.set('status', job.status)
    outputs.set('pr-link', job.prLink ?? '')
    outputs.set('pr-number', this.pullRequestOf(job)?.number ?? '')
    outputs.set('archived-at', job.archivedAt ?? '')
  }

  /** A pull request link on this GitHub server records the job there. */
  private async noteRecord(answer: AgentJob): Promise<void> {
    const record = this.recordOf(answer)
    if (record !== undefined) await this.records?.note(record.job, record.pull)
  }

  /** As noteRecord, not waited for. */
  private noteRecordSoon(answer: AgentJob): void {
    const record = this.recordOf(answer)
    if (record !== undefined) this.records?.noteSoon(record.job, record.pull)
  }

  /** The job and the pull request on this GitHub server that `answer` links to, if it does. */
  private recordOf(answer: AgentJob): { job: RecordedJob; pull: PullRequestRef } | undefined {
    const pull = this.pullRequestOf(answer)
    const job = this.reachedJob?.job
    return pull === undefined || job === undefined
      ? undefined
      : { job: { projectId: job.projectId, jobId: job.jobId }, pull }
  }

  private pullRequestOf(job: AgentJob): PullRequestRef | undefined {
    return job.prLink === undefined ? undefined : parsePullRequestLink(job.prLink, this.serverUrl)
  }
}
