// Automations ("Trigger automation" of the public reference): each project's automations, active
// or not, on a custom schedule or not; one that is both runs at once on request. The reference
// documents no read of a run, so there is no route to follow one: the simulator keeps the runs it
// queued for tests to look at.
import { randomBytes } from 'node:crypto'
import { errorReply, json } from './http.js'
import type { Reply, RequestContext, Route } from './http.js'

export interface AutomationBehavior {
  /** Default true; an inactive automation is refused with 400. */
  active?: boolean
  /** Default true; only an automation on a custom schedule runs on request, others are refused with 400. */
  customSchedule?: boolean
}

export interface AutomationOptions {
  /** Automations by project id, then by automation id, instead of SEEDED_AUTOMATIONS. */
  byProject?: Record<string, Record<string, AutomationBehavior>>
}

/** A run the simulator queued. */
export interface AutomationRunRecord {
  projectId: string
  /** The automation's id, as the answer's `schemaId` gives it back. */
  schemaId: string
  instanceId: string
  jobId: string
  /** `now()` when it was queued. */
  at: number
}

/** The automations of the simulator unless told otherwise: one that runs, one paused, one run on each push. */
export const SEEDED_AUTOMATIONS: Record<string, Record<string, AutomationBehavior>> = {
  proj_123: {
    wf_changelog: {},
    wf_paused: { active: false },
    wf_on_push: { customSchedule: false }
  }
}

/** An automation's id as the service takes it. */
const AUTOMATION_ID = /^[A-Za-z0-9_-]+$/

export interface AutomationDeps {
  runs: AutomationRunRecord[]
  now: () => number
  options: AutomationOptions | undefined
}

export function automationRoutes(deps: AutomationDeps): Route[] {
  return [
    {
      name: 'automation-trigger',
      method: 'POST',
      pattern: '/v1/workflow/:projectId/:automationId/trigger',
      // No body is documented: whatever comes is ignored.
      handle: (ctx) => trigger(deps, ctx)
    }
  ]
}

function trigger(deps: AutomationDeps, ctx: RequestContext): Reply {
  const projectId = ctx.params.projectId ?? ''
  const automationId = ctx.params.automationId ?? ''
  // The texts of the refusals are this simulator's; the reference gives only their causes.
  if (!AUTOMATION_ID.test(automationId)) return errorReply(400, 'Invalid automation id')
  const automation = (deps.options?.byProject ?? SEEDED_AUTOMATIONS)[projectId]?.[automationId]
  if (automation === undefined) return errorReply(404, 'Automation not found in this project')
  if (automation.active === false) return errorReply(400, 'Automation is not active')
  if (automation.customSchedule === false) return errorReply(400, 'Automation is not on a custom schedule')
  const run: AutomationRunRecord = {
    projectId,
    schemaId: automationId,
    // Ids look like the service's database ids: 24 hex digits.
    instanceId: randomBytes(12).toString('hex'),
    jobId: randomBytes(12).toString('hex'),
    at: deps.now()
  }
  deps.runs.push(run)
  return json(202, { schemaId: run.schemaId, instanceId: run.instanceId, jobId: run.jobId })
}
