/**
 * Automations: run one now (the reference's "Trigger automation"). The answer names the run and
 * its background job; the reference documents no read of a run, so there is nothing to follow.
 * Answers are read defensively, every text made safe for a log line where it enters.
 */
import { ActionError } from '../common/errors.js'
import { segment } from '../common/path-segment.js'
import { asObject, plain } from './answer.js'
import { type ServiceClient, ServiceError } from './client.js'

/** A run the service queued, as its answer names it. */
export interface AutomationRun {
  /** The automation's id, as the service gives it back; undefined when unusable. */
  schemaId: string | undefined
  /** The run, as the dashboard's automation runs show it; undefined when unusable. */
  instanceId: string | undefined
  /** The background job that carries the run out. */
  jobId: string
}

/** Where a run shows, the service having no read of it. */
export const WATCH_RUNS = "Watch it in the dashboard's automation runs"

/** What to do after a trigger that may have been processed: look for its run rather than run it again. */
const LOOK_FIRST =
  "If it was, the automation's run is queued: look for it in the dashboard's automation runs before triggering " +
  'it again.'

/** What a 429 that outlasted the retries means: others of the organization may be triggering too. */
const SHARED_LIMIT =
  "Automation and deployment triggers share the service's limit of 10 requests in 10 s per organization: other " +
  'workflows of the organization may be triggering at the same time.'

export class AutomationApi {
  constructor(private readonly client: ServiceClient) {}

  /**
   * Triggers the automation `automationId` of `projectId` and resolves with its run. Sent at most
   * once unless the service surely did not receive it: a second trigger would run it twice.
   */
  async trigger(projectId: string, automationId: string, deadline?: number): Promise<AutomationRun> {
    const what = `trigger automation ${automationId} of project ${projectId}`
    let answer: unknown
    try {
      answer = await this.client.request({
        method: 'POST',
        path: `/v1/workflow/${segment(projectId)}/${segment(automationId)}/trigger`,
        kind: 'once',
        what,
        deadline
      })
    } catch (error) {
      if (!(error instanceof ServiceError)) throw error
      throw explained(error, what, projectId, automationId)
    }
    const fields = asObject(answer)
    const jobId = plain(fields.jobId)
    if (jobId === undefined) {
      const which =
        fields.jobId === undefined || fields.jobId === null
          ? 'no `jobId`'
          : 'a `jobId` the action cannot use (blank, or with control characters or a workflow command mark)'
      throw new ActionError(
        `The service accepted the request to ${what}, but its answer carries ${which}. The run is most likely ` +
          `queued: ${WATCH_RUNS.toLowerCase()}; do not rerun blindly (that would run the automation again).`
      )
    }
    return { schemaId: plain(fields.schemaId), instanceId: plain(fields.instanceId), jobId }
  }
}

/** A refused or failed trigger, said in the terms of the reference's causes for it. */
function explained(error: ServiceError, what: string, projectId: string, automationId: string): ServiceError {
  const said = error.serviceError === undefined ? '' : `: the service said "${error.serviceError}"`
  switch (error.status) {
    case 404:
      return error.withMessage(
        `Could not ${what}: the service knows no automation ${automationId} in project ${projectId} ` +
          `(HTTP 404${said}). Check \`automation-id\` (the automation's id on the dashboard) and \`project-id\`.`
      )
    case 400:
      return error.withMessage(
        `Could not ${what}: the service refused it (HTTP 400${said}). It runs an automation on request only when ` +
          'the automation is active and on a custom schedule: check it on the dashboard.'
      )
    case 429:
      return error.withMessage(`${error.message} ${SHARED_LIMIT}`)
  }
  return error.mayHaveBeenProcessed ? error.withMessage(`${error.message} ${LOOK_FIRST}`) : error
}
