/**
 * What a deployment's status says, as the log, the job summary and the failure show it. Pure.
 *
 * The service's texts arrive made safe for a log line but whole (see deploy-api.ts): each is
 * cut here to what its place can hold, after the secrets are taken out, since a cut through a
 * secret would leave a part of it that redaction no longer finds.
 */
import type { Fold } from '../action/summary.js'
import type { Secrets } from '../common/secrets.js'
import { counted, formatDuration } from '../common/units.js'
import type { ChangedFiles, Deployment } from '../service/deploy-api.js'
import { SERVICE_TEXT_CHARS } from '../service/answer.js'

/** The paths of each kind of change the summary lists; the counts are of them all. */
export const PATHS_SHOWN = 50
/** The lines of a failed deployment's log the summary and the log show: its end, where the error is. */
export const LOG_LINES_SHOWN = 20
/** Bounds on one text in a place that shows many (a line of a log, a path) or a one-line account. */
const LINE_CHARS = 2_000
const PATH_CHARS = 500
const PHRASE_CHARS = 300

/** The kinds of change, as the service names them and as people read them. */
const CHANGES = [
  ['added', 'Added'],
  ['modified', 'Modified'],
  ['removed', 'Removed']
] as const satisfies ReadonlyArray<readonly [keyof ChangedFiles, string]>

export class DeploymentReport {
  constructor(
    /** The deployment's status id. */
    private readonly statusId: string,
    /** Taken out of every text of the service's before it is cut. */
    private readonly secrets: Secrets,
    /** `Deployment`, or `Preview`. */
    readonly noun = 'Deployment'
  ) {}

  /** One line for the follower's log, logged when it changes: `in_progress: Building the docs`. */
  describe(deployment: Deployment): string {
    const summary = deployment.summary === undefined ? '' : `: ${this.shown(deployment.summary, PHRASE_CHARS)}`
    return `${deployment.status}${summary}`
  }

  /** The failure of a deployment that ended `failure`: its id and the service's summary. */
  failure(deployment: Deployment): string {
    const log = deployment.logs.length > 0 ? '; the end of its log is above' : ''
    const why =
      deployment.summary === undefined
        ? ` (the service gave no summary${log})`
        : `: ${this.shown(deployment.summary, SERVICE_TEXT_CHARS)}`
    return `${this.noun} ${this.statusId} failed${why}.`
  }

  /** `commit 5d41402… (main)`, or undefined when no commit was reported. */
  commitName(deployment: Deployment): string | undefined {
    const commit = deployment.commit
    if (commit?.sha === undefined && commit?.ref === undefined) return undefined
    const sha = commit.sha === undefined ? 'a commit' : `commit ${this.shown(commit.sha, PHRASE_CHARS)}`
    return `${sha}${commit.ref === undefined ? '' : ` (${this.shown(commit.ref, PHRASE_CHARS)})`}`
  }

  /** The commit's name and the first line of its message: `commit 5d41402… (main): Docs: describe …`. */
  commitLine(deployment: Deployment): string | undefined {
    const name = this.commitName(deployment)
    const subject = deployment.commit?.message?.find((line) => line.trim() !== '')
    if (name === undefined || subject === undefined) return name
    return `${name}: ${this.shown(subject.trim(), PHRASE_CHARS)}`
  }

  /** `1 added, 2 modified, 1 removed`, of the lists the answer carried; undefined when it carried none. */
  changeCounts(deployment: Deployment): string | undefined {
    const files = deployment.commit?.filesChanged
    if (files === undefined) return undefined
    const counts = CHANGES.flatMap(([kind]) => (files[kind] === undefined ? [] : [`${files[kind].length} ${kind}`]))
    return counts.length === 0 ? undefined : counts.join(', ')
  }

  /** For each kind of change with paths, its first PATHS_SHOWN paths, saying how many more there are. */
  changedPaths(deployment: Deployment): Array<{ title: string; paths: string[] }> {
    const files = deployment.commit?.filesChanged
    if (files === undefined) return []
    return CHANGES.flatMap(([kind, title]) => {
      const all = files[kind] ?? []
      if (all.length === 0) return []
      const paths = all.slice(0, PATHS_SHOWN).map((path) => this.shown(path, PATH_CHARS))
      if (all.length > PATHS_SHOWN)
        paths.push(`… and ${all.length - PATHS_SHOWN} more (the first ${PATHS_SHOWN} shown)`)
      return [{ title: `${title} (${all.length})`, paths }]
    })
  }

  /** The end of the log, where a failure says why: its last LOG_LINES_SHOWN lines. */
  lastLogLines(deployment: Deployment): string[] {
    return deployment.logs.slice(-LOG_LINES_SHOWN).map((line) => this.shown(line, LINE_CHARS))
  }

  /** The time from the trigger to the end, as the service timed it; undefined until it ended. */
  duration(deployment: Deployment): string | undefined {
    const ms = this.durationMs(deployment)
    return ms === undefined ? undefined : formatDuration(ms)
  }

  durationMs(deployment: Deployment): number | undefined {
    const { createdAt, endedAt } = deployment
    if (createdAt === undefined || endedAt === undefined || endedAt < createdAt) return undefined
    return endedAt.getTime() - createdAt.getTime()
  }

  /** The rows and folds of the job summary: the commit, its changes, the duration, and a failure's log. */
  summary(deployment: Deployment): { rows: Array<[string, string]>; folds: Fold[] } {
    const rows: Array<[string, string]> = []
    const commit = deployment.commit
    if (commit?.ref !== undefined) rows.push(['Ref', this.shown(commit.ref, PHRASE_CHARS)])
    if (commit?.message !== undefined && commit.message.length > 0)
      rows.push(['Commit message', this.shown(commit.message.join('\n'), LINE_CHARS)])
    const counts = this.changeCounts(deployment)
    if (counts !== undefined) rows.push(['Files changed', counts])
    const duration = this.duration(deployment)
    if (duration !== undefined) rows.push(['Duration', duration])
    if (deployment.summary !== undefined) rows.push(["Service's summary", this.shown(deployment.summary, LINE_CHARS)])
    const folds: Fold[] = this.changedPaths(deployment).map(({ title, paths }) => ({
      title,
      kind: 'list',
      lines: paths
    }))
    if (deployment.status === 'failure' && deployment.logs.length > 0) {
      const lines = this.lastLogLines(deployment)
      folds.push({ title: logTitle(lines.length, deployment.logs.length), kind: 'log', lines, open: true })
    }
    return { rows, folds }
  }

  /** Text of the service's without the secrets, then cut to `max` characters. */
  private shown(text: string, max: number): string {
    return this.secrets.cut(text, max, `(cut short: ${text.length} characters)`)
  }
}

/** `The deployment's log: its last 20 lines (of 312)`. */
export function logTitle(shown: number, all: number): string {
  return shown === all
    ? `The deployment's log (${counted(all, 'line')})`
    : `The deployment's log: its last ${shown} lines (of ${all})`
}

/**
 * Whether the commit deployed is another than `expected` (GITHUB_SHA). Either may be abbreviated:
 * one that starts the other, seven hex digits at least, is the same commit.
 */
export function isAnotherCommit(deployed: string, expected: string): boolean {
  const [a, b] = [deployed.trim().toLowerCase(), expected.trim().toLowerCase()]
  if (a === b) return false
  const [shorter, longer] = a.length <= b.length ? [a, b] : [b, a]
  return !(shorter.length >= 7 && /^[0-9a-f]+$/.test(shorter) && longer.startsWith(shorter))
}
