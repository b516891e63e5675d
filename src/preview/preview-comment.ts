/**
 * The pull request's one preview comment of a project: the preview's link and its state in words,
 * the commit and when, and on failure the service's summary and the end of its log. Found again
 * by its marker (a MarkedComment, the same mechanism as a run's reply) and edited by every later
 * run and push, never posted anew; a copy of the marker in someone else's comment is ignored.
 */
import type { FlowContext } from '../action/context.js'
import type { GitHubApi, RepoRef } from '../action/host.js'
import { type Found, MarkedComment } from '../github/marked-comment.js'
import { PREVIEW_MARKER } from '../github/markers.js'
import type { OurComments } from '../github/our-comments.js'
import type { Secrets } from '../common/secrets.js'
import { commentCode, commentPhrase, commentText, serviceText } from '../common/text.js'
import { formatUtc } from '../common/units.js'

/** The lines of a failed preview's log the comment shows: its end, where the error is. */
export const PREVIEW_LOG_LINES = 20
/** Bounds on the service's texts in the comment (GitHub takes at most 65,536 characters). */
const SUMMARY_CHARS = 2_000
const LOG_LINE_CHARS = 500

/** What the comment says: every text but the run's link is someone else's, made safe here. */
export interface PreviewFacts {
  branch: string
  statusId: string | undefined
  previewUrl: string | undefined
  /** The service's status (`queued`, `in_progress`, `success`, `failure`, or one it added since). */
  status: string | undefined
  /** The commit previewed (its first 7 hex digits are shown). */
  commit: string | undefined
  /** Clock time of this state. */
  at: number
  summary?: string | undefined
  logs?: readonly string[] | undefined
  /** Why the run stopped following the preview before it ended. */
  stopped?: string | undefined
  runUrl: string | undefined
}

/** The marker of `projectId`'s preview comment. */
export function previewMarker(projectId: string): string {
  return `<!-- docs-admin-action:preview project=${encodeURIComponent(projectId)} -->\n`
}

const STATES: Record<string, string> = {
  queued: '⏳ **Queued**',
  in_progress: '🔨 **Building**',
  success: '✅ **Ready**',
  failure: '❌ **Failed**'
}

/** The comment's body for `facts`, secrets cut out of every text before it is escaped or cut. */
export function previewCommentText(projectId: string, facts: PreviewFacts, secrets: Secrets): string {
  const clean = (text: string, max = SUMMARY_CHARS): string => secrets.cut(text, max)
  const state =
    facts.status === undefined
      ? '⏳ **Triggered**'
      : (STATES[facts.status] ?? `❔ **${commentPhrase(clean(facts.status, 100))}**`)
  const commit = facts.commit === undefined ? '' : ` at ${commentCode(clean(facts.commit).slice(0, 7))}`
  const lines = [
    `${previewMarker(projectId)}### Docs preview`,
    '',
    `${state}: branch ${commentCode(clean(facts.branch, 300))}${commit}, ${formatUtc(new Date(facts.at))}.`
  ]
  if (facts.previewUrl !== undefined) lines.push('', `Preview: <${clean(facts.previewUrl)}>`)
  if (facts.status === 'failure' && facts.summary !== undefined) lines.push('', commentText(clean(facts.summary)))
  if (facts.stopped !== undefined)
    lines.push('', `The workflow run stopped following it: ${commentText(clean(facts.stopped))}`)
  const logs = facts.status === 'failure' ? (facts.logs ?? []).slice(-PREVIEW_LOG_LINES) : []
  if (logs.length > 0) {
    // In a code block nothing pings or links; the fence is longer than any run of backticks inside.
    const shown = logs.map((line) => serviceText(clean(line, LOG_LINE_CHARS)))
    const fence = '`'.repeat(
      Math.max(3, ...shown.map((line) => (line.match(/`+/g) ?? []).reduce((a, b) => Math.max(a, b.length + 1), 0)))
    )
    lines.push(
      '',
      `<details><summary>The last ${logs.length} lines of its log</summary>`,
      '',
      fence,
      ...shown,
      fence,
      '',
      '</details>'
    )
  }
  const status = facts.statusId === undefined ? '' : `Status id ${commentCode(clean(facts.statusId, 100))}`
  const run = facts.runUrl === undefined ? '' : `[Workflow run](${clean(facts.runUrl)})`
  const footer = [status, run].filter((part) => part !== '').join(' · ')
  if (footer !== '') lines.push('', footer)
  return lines.join('\n')
}

/** The preview comment of a project on one pull request, kept up to date by this run. Best-effort. */
export class PreviewComment {
  private constructor(
    private readonly comment: MarkedComment,
    private readonly projectId: string,
    private readonly secrets: Secrets
  ) {}

  /** The comment, found again when an earlier run wrote it (before this run writes anything). */
  static async open(
    github: GitHubApi,
    context: FlowContext,
    ours: OurComments,
    pull: { repository: RepoRef; number: number },
    projectId: string
  ): Promise<PreviewComment> {
    const marker = previewMarker(projectId)
    const select = (found: readonly Found[]): Found | undefined => found.filter((f) => f.body.startsWith(marker)).at(-1)
    const comment = new MarkedComment(
      github,
      context,
      { ...pull, thread: undefined },
      ours,
      { pattern: PREVIEW_MARKER, select },
      'the preview comment',
      `on #${pull.number}`
    )
    await comment.find('best-effort')
    return new PreviewComment(comment, projectId, context.secrets)
  }

  show(facts: PreviewFacts): Promise<void> {
    return this.comment.show(previewCommentText(this.projectId, facts, this.secrets))
  }

  /** As show(), not waited for (while the preview is followed). */
  showSoon(facts: PreviewFacts): void {
    this.comment.showSoon(previewCommentText(this.projectId, facts, this.secrets))
  }

  settled(): Promise<void> {
    return this.comment.settled()
  }
}
