export const id = 129;
export const ids = [129];
export const modules = {

/***/ 7129:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {


// EXPORTS
__webpack_require__.d(__webpack_exports__, {
  runAutomation: () => (/* binding */ runAutomation)
});

// EXTERNAL MODULE: ./src/common/text.ts
var common_text = __webpack_require__(2450);
// EXTERNAL MODULE: ./src/reply/comment-run.ts + 1 modules
var comment_run = __webpack_require__(1046);
// EXTERNAL MODULE: ./src/common/errors.ts
var errors = __webpack_require__(1922);
// EXTERNAL MODULE: ./src/common/path-segment.ts
var path_segment = __webpack_require__(2650);
// EXTERNAL MODULE: ./src/service/answer.ts
var service_answer = __webpack_require__(885);
// EXTERNAL MODULE: ./src/service/client.ts
var client = __webpack_require__(9224);
;// CONCATENATED MODULE: ./src/service/automation-api.ts
/**
 * Automations: run one now (the reference's "Trigger automation"). The answer names the run and
 * its background job; the reference documents no read of a run, so there is nothing to follow.
 * Answers are read defensively, every text made safe for a log line where it enters.
 */




/** Where a run shows, the service having no read of it. */
const WATCH_RUNS = "Watch it in the dashboard's automation runs";
/** What to do after a trigger that may have been processed: look for its run rather than run it again. */
const LOOK_FIRST = "If it was, the automation's run is queued: look for it in the dashboard's automation runs before triggering " +
    'it again.';
/** What a 429 that outlasted the retries means: others of the organization may be triggering too. */
const SHARED_LIMIT = "Automation and deployment triggers share the service's limit of 10 requests in 10 s per organization: other " +
    'workflows of the organization may be triggering at the same time.';
class AutomationApi {
    client;
    constructor(client) {
        this.client = client;
    }
    /**
     * Triggers the automation `automationId` of `projectId` and resolves with its run. Sent at most
     * once unless the service surely did not receive it: a second trigger would run it twice.
     */
    async trigger(projectId, automationId, deadline) {
        const what = `trigger automation ${automationId} of project ${projectId}`;
        let answer;
        try {
            answer = await this.client.request({
                method: 'POST',
                path: `/v1/workflow/${(0,path_segment/* segment */.m)(projectId)}/${(0,path_segment/* segment */.m)(automationId)}/trigger`,
                kind: 'once',
                what,
                deadline
            });
        }
        catch (error) {
            if (!(error instanceof client/* ServiceError */._7))
                throw error;
            throw explained(error, what, projectId, automationId);
        }
        const fields = (0,service_answer/* asObject */.eB)(answer);
        const jobId = (0,service_answer/* plain */.pj)(fields.jobId);
        if (jobId === undefined) {
            const which = fields.jobId === undefined || fields.jobId === null
                ? 'no `jobId`'
                : 'a `jobId` the action cannot use (blank, or with control characters or a workflow command mark)';
            throw new errors/* ActionError */.lZ(`The service accepted the request to ${what}, but its answer carries ${which}. The run is most likely ` +
                `queued: ${WATCH_RUNS.toLowerCase()}; do not rerun blindly (that would run the automation again).`);
        }
        return { schemaId: (0,service_answer/* plain */.pj)(fields.schemaId), instanceId: (0,service_answer/* plain */.pj)(fields.instanceId), jobId };
    }
}
/** A refused or failed trigger, said in the terms of the reference's causes for it. */
function explained(error, what, projectId, automationId) {
    const said = error.serviceError === undefined ? '' : `: the service said "${error.serviceError}"`;
    switch (error.status) {
        case 404:
            return error.withMessage(`Could not ${what}: the service knows no automation ${automationId} in project ${projectId} ` +
                `(HTTP 404${said}). Check \`automation-id\` (the automation's id on the dashboard) and \`project-id\`.`);
        case 400:
            return error.withMessage(`Could not ${what}: the service refused it (HTTP 400${said}). It runs an automation on request only when ` +
                'the automation is active and on a custom schedule: check it on the dashboard.');
        case 429:
            return error.withMessage(`${error.message} ${SHARED_LIMIT}`);
    }
    return error.mayHaveBeenProcessed ? error.withMessage(`${error.message} ${LOOK_FIRST}`) : error;
}

;// CONCATENATED MODULE: ./src/automation/automation-flow.ts



async function runAutomation(settings, client, context, on) {
    const { host, outputs, report, deadline } = context;
    const { log } = host;
    const { projectId, automationId } = settings;
    const api = new AutomationApi(client);
    report.rows.push(['Project', projectId], ['Automation', automationId]);
    const sent = await log.group('Trigger the automation', () => (0,comment_run/* sendOnce */.E4)(on.run, {
        asked: 'trigger',
        scope: projectId,
        words: {
            request: `trigger automation ${automationId} of project ${projectId}`,
            instead: `Look for its run in the dashboard's automation runs before triggering it again.`
        },
        asking: on.reply.askingText(`Triggering automation ${(0,common_text/* commentCode */.ph)(automationId)} of project ${(0,common_text/* commentCode */.ph)(projectId)}`),
        send: () => api.trigger(projectId, automationId, deadline),
        jobOf: (run) => run.jobId
    }, context));
    // The trigger's answer is all there is: the reference says that it queues the run.
    const jobId = sent.kind === 'sent' ? sent.answer.jobId : sent.job.jobId;
    const instanceId = sent.kind === 'sent' ? sent.answer.instanceId : undefined;
    outputs.set('job-id', jobId);
    if (instanceId !== undefined)
        outputs.set('automation-run-id', instanceId);
    outputs.set('status', 'queued');
    if (sent.kind === 'sent' && instanceId === undefined) {
        const warning = "The service's answer carries no usable `instanceId`, so `automation-run-id` is left empty; the run's job " +
            `is ${jobId}.`;
        log.warning(warning);
        report.notes.push(warning);
    }
    // A rerun knows the job from the earlier attempt's marker, which does not keep the run's id.
    const run = sent.kind === 'resumed'
        ? `the run an earlier attempt of this workflow run queued (job ${jobId}; \`automation-run-id\` is among ` +
            "that attempt's outputs)"
        : instanceId === undefined
            ? `its run (job ${jobId})`
            : `run ${instanceId} (job ${jobId})`;
    const queued = `Automation ${automationId} of project ${projectId} is queued: ${run}. The service offers no read of a ` +
        `run's status: there is nothing to wait for. ${WATCH_RUNS}.`;
    log.notice(queued);
    report.notes.push(queued);
    // The run's id is left to the summary and the outputs: a reply breaks up text that looks like a commit's sha.
    await on.reply.end(true, {
        jobId,
        status: 'queued',
        details: [
            `A run of automation ${automationId}: ${WATCH_RUNS.toLowerCase()} (the service offers no read of a ` +
                "run's status)"
        ]
    });
}


/***/ })

};
