/**
 * The hidden markers that open the action's own comments: a pull request's record of its agent
 * job, and the reply that follows a job. The gate knows a comment of the action's by them (it runs
 * nothing); the agent writes and reads them.
 */

/** At the very start of a record: a marker anywhere else (quoted, echoed) is none. */
export const RECORD_MARKER = /^<!-- docs-admin-action:agent-job project=(\S+) job=(\S+) -->/

/** At the very start of a reply: what follows names the run, what was asked and the job. */
export const REPLY_MARKER = /^<!-- docs-admin-action:reply ((?:[a-z]+=\S+ )+)-->\n/

/** At the very start of a pull request's preview comment: one per project (see preview/preview-comment.ts). */
export const PREVIEW_MARKER = /^<!-- docs-admin-action:preview project=(\S+) -->\n/
