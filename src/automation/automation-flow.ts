/**
 * An automation run now, end to end: trigger the automation once and hand on its run's ids. The
 * service documents no read of a run's status, so the step ends once the run is queued, and says
 * where to watch it.
 */
import type { FlowContext } from '../action/context.js'
import type { AutomationSettings } from '../action/settings.js'
import { commentCode } from '../common/text.js'
import { sendOnce } from '../reply/comment-run.js'
import type { OnComment } from '../reply/job-reply.js'
import { AutomationApi, WATCH_RUNS } from '../service/automation-api.js'
import type { ServiceClient } from '../service/client.js'

export async function runAutomation(
  settings: AutomationSettings,
  client: ServiceClient,
  context: FlowContext,
  on: OnComment
): Promise<void> {
  const { host, outputs, report, deadline } = context
  const { log } = host
  const { projectId, automationId } = settings
  const api = new AutomationApi(client)
  report.rows.push(['Project', projectId], ['Automation', automationId])

  const sent = await log.group('Trigger the automation', () =>
    sendOnce(
      on.run,
      {
        asked: 'trigger',
        scope: projectId,
        words: {
          request: `trigger automation ${automationId} of project ${projectId}`,
          instead: `Look for its run in the dashboard's automation runs before triggering it again.`
        },
        asking: on.reply.askingText(
          `Triggering automation ${commentCode(automationId)} of project ${commentCode(projectId)}`
        ),
        send: () => api.trigger(projectId, automationId, deadline),
        jobOf: (run) => run.jobId
      },
      context
    )
  )
  // The trigger's answer is all there is: the reference says that it queues the run.
  const jobId = sent.kind === 'sent' ? sent.answer.jobId : sent.job.jobId
  const instanceId = sent.kind === 'sent' ? sent.answer.instanceId : undefined
  outputs.set('job-id', jobId)
  if (instanceId !== undefined) outputs.set('automation-run-id', instanceId)
  outputs.set('status', 'queued')
  if (sent.kind === 'sent' && instanceId === undefined) {
    const warning =
      "The service's answer carries no usable `instanceId`, so `automation-run-id` is left empty; the run's job " +
      `is ${jobId}.`
    log.warning(warning)
    report.notes.push(warning)
  }
  // A rerun knows the job from the earlier attempt's marker, which does not keep the run's id.
  const run =
    sent.kind === 'resumed'
      ? `the run an earlier attempt of this workflow run queued (job ${jobId}; \`automation-run-id\` is among ` +
        "that attempt's outputs)"
      : instanceId === undefined
        ? `its run (job ${jobId})`
        : `run ${instanceId} (job ${jobId})`
  const queued =
    `Automation ${automationId} of project ${projectId} is queued: ${run}. The service offers no read of a ` +
    `run's status: there is nothing to wait for. ${WATCH_RUNS}.`
  log.notice(queued)
  report.notes.push(queued)
  // The run's id is left to the summary and the outputs: a reply breaks up text that looks like a commit's sha.
  await on.reply.end(true, {
    jobId,
    status: 'queued',
    details: [
      `A run of automation ${automationId}: ${WATCH_RUNS.toLowerCase()} (the service offers no read of a ` +
        "run's status)"
    ]
  })
}
