/**
 * The entrance every operation passes, whatever it is (main.ts dispatches below it, so one added
 * later passes it too): on a comment event (any event whose payload carries a comment or a review,
 * see action/event.ts) nothing reaches the service unless the comment is new,
 * holds `comment-command` when one is set, was written by neither a bot nor the action, and its
 * author has at least `comment-permission` on the repository, read through the GitHub API (a
 * permission that cannot be read fails the run: closed, never `none`).
 */
import type { FlowContext } from '../action/context.js'
import type { GitHubApi, RunnerEvent } from '../action/host.js'
import type { GateSettings } from '../action/settings.js'
import { ActionError, InputError } from '../common/errors.js'
import { eventKind } from '../action/event.js'
import { type SkipReason, type TriggeringComment, readTriggeringComment, skipReason } from './trigger.js'
import { meets, readPermission } from './permission.js'

/** What the run learnt at the entrance, for the operation to go on with. */
export interface Entrance {
  event: RunnerEvent
  /** The comment that started the run, which passed the gate; undefined for any other event. */
  comment: TriggeringComment | undefined
  /** The GitHub API with `github-token` (made once, when first asked for); undefined without a token. */
  github(): Promise<GitHubApi | undefined>
}

/**
 * On a comment `event` (the one that started the run), judges the comment: the Entrance when the
 * operation may go on, undefined when the comment runs nothing (`skipped` and `skip-reason` say
 * why). Throws when the comment's author or their permission cannot be known.
 */
export async function enter(
  settings: GateSettings,
  context: FlowContext,
  event: RunnerEvent
): Promise<Entrance | undefined> {
  const { host, outputs } = context
  // A workflow set up for comments, on an event nobody here knows: whose text it carries cannot
  // be told, so it runs nothing (a new kind of comment event must not be a side door).
  if (eventKind(event) === 'unknown' && settings.commentCommand !== undefined) {
    throw new InputError(
      `The event \`${event.name}\` is not one the action knows, and \`comment-command\` is set: whose comment it ` +
        'would act on cannot be told, so nothing was sent to the docs service. Run this workflow on comment ' +
        'events (`issue_comment`, `pull_request_review_comment`, `pull_request_review`), or leave ' +
        '`comment-command` unset for this event.'
    )
  }
  const comment = readTriggeringComment(event, (name) => host.env(name))
  let made: Promise<GitHubApi | undefined> | undefined
  const github = (): Promise<GitHubApi | undefined> =>
    (made ??= settings.githubToken === undefined ? Promise.resolve(undefined) : host.github(settings.githubToken))
  if (comment !== undefined) {
    describeComment(comment, context)
    const skip = await gate(comment, settings, await github(), context)
    if (skip !== undefined) {
      skipped(skip, context)
      return undefined
    }
    outputs.set('skipped', false)
    outputs.set('skip-reason', '')
  }
  return { event, comment, github }
}

/** The reason the comment runs nothing, after the cheap checks and then its author's permission. */
async function gate(
  comment: TriggeringComment,
  settings: GateSettings,
  github: GitHubApi | undefined,
  context: FlowContext
): Promise<{ reason: SkipReason; message: string } | undefined> {
  const skip = skipReason(comment, settings.commentCommand)
  if (skip !== undefined) return skip
  const { author, repository } = comment
  if (github === undefined || author === undefined || repository === undefined) {
    const missing =
      github === undefined
        ? 'there is no `github-token`'
        : "the event payload does not name the comment's author and repository"
    throw new ActionError(
      `Could not check the comment author's permission on the repository (${missing}), so the comment was not ` +
        `acted on and nothing was sent to the docs service.`
    )
  }
  const level = await readPermission(github, repository, author, context)
  context.report.rows.push(['Permission', level])
  if (meets(level, settings.commentPermission)) return undefined
  return {
    reason: 'permission',
    message:
      `${author} has the permission \`${level}\` on ${repository.owner}/${repository.repo}; \`comment-permission\` ` +
      `asks for \`${settings.commentPermission}\` or more.`
  }
}

function skipped(skip: { reason: SkipReason; message: string }, context: FlowContext): void {
  const { host, outputs, report } = context
  // A refused author deserves a mark on the run's page; the other reasons are routine.
  if (skip.reason === 'permission') host.log.notice(`${skip.message} Nothing was sent to the docs service.`)
  else host.log.info(`${skip.message} Nothing to do.`)
  outputs.set('skipped', true)
  outputs.set('skip-reason', skip.reason)
  report.notes.push(`Skipped: ${skip.message}`)
}

function describeComment(comment: TriggeringComment, context: FlowContext): void {
  const { host, report } = context
  const who = comment.author ?? 'an unknown author'
  host.log.info(`Triggered by ${comment.event} ${comment.id} from ${who}.`)
  report.rows.push(['Comment by', who])
}
