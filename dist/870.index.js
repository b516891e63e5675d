export const id = 870;
export const ids = [870];
export const modules = {

/***/ 8350:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   O: () => (/* binding */ GitHubApiError)
/* harmony export */ });
/** A GitHub API call that failed; `status` 0 when no answer came. */
class GitHubApiError extends Error {
    status;
    name = 'GitHubApiError';
    constructor(status, message) {
        super(message);
        this.status = status;
    }
}


/***/ }),

/***/ 4870:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {


// EXPORTS
__webpack_require__.d(__webpack_exports__, {
  runAgent: () => (/* binding */ runAgent)
});

// EXTERNAL MODULE: ./src/common/errors.ts
var errors = __webpack_require__(1922);
// EXTERNAL MODULE: ./src/follow/follow-job.ts + 1 modules
var follow_job = __webpack_require__(4256);
// EXTERNAL MODULE: ./src/common/units.ts
var units = __webpack_require__(8570);
// EXTERNAL MODULE: ./src/service/answer.ts
var answer = __webpack_require__(885);
// EXTERNAL MODULE: ./src/service/client.ts
var client = __webpack_require__(9224);
// EXTERNAL MODULE: ./src/service/retry.ts
var retry = __webpack_require__(5585);
;// CONCATENATED MODULE: ./src/service/agent-api.ts





/** The states that end a wait (spec 3.1). */
const AGENT_TERMINAL = new Set(['completed', 'archived', 'failed']);
const AGENT_KNOWN = new Set(['active', 'completed', 'archived', 'failed']);
/** Spec section 8: follow-up messages per project and hour. */
const MESSAGES_PER_HOUR = 100;
/** The agent operations (spec 4.1, 4.2, plus create) with their failures explained for a user. */
class AgentApi {
    client;
    now;
    constructor(client, 
    /** Wall time, to say when a rate limit ends. */
    now) {
        this.client = client;
        this.now = now;
    }
    async get(projectId, jobId, deadline) {
        const body = await this.call({ method: 'GET', path: jobPath(projectId, jobId), kind: 'idempotent', what: `read agent job ${jobId}`, deadline }, { projectId, jobId });
        const job = readAgentJob(body);
        if (job.status === undefined) {
            throw new errors/* ActionError */.lZ(`The answer for agent job ${jobId} carries no \`status\`, so the job cannot be followed.`);
        }
        return { ...job, status: job.status };
    }
    /** Sends a follow-up message: never repeated unless the service surely did not receive it. */
    async message(projectId, jobId, prompt, deadline) {
        const body = await this.call({
            method: 'POST',
            path: `${jobPath(projectId, jobId)}/message`,
            body: { prompt },
            kind: 'once',
            what: `send the message to agent job ${jobId}`,
            deadline
        }, { projectId, jobId, rateLimit: `the project's limit of ${MESSAGES_PER_HOUR} messages an hour is reached` });
        return readAgentJob(body);
    }
    /** Creates a job (not in the spec file: its answer is read as loosely as the others). */
    async create(projectId, prompt, deadline) {
        const what = `create an agent job in project ${projectId}`;
        const body = await this.call({ method: 'POST', path: `/v2/agent/${(0,client/* segment */.mX)(projectId)}/job`, body: { prompt }, kind: 'once', what, deadline }, { projectId, rateLimit: "the service's rate limit for this project is reached" });
        const job = readAgentJob(body);
        if (job.id === undefined) {
            throw new errors/* ActionError */.lZ(`The service accepted the request to ${what} but its answer carries no job \`id\`, so the job cannot be followed. Look the job up on the dashboard; do not rerun blindly (it would create a second job).`);
        }
        return { ...job, id: job.id };
    }
    async call(request, about) {
        try {
            return await this.client.request(request);
        }
        catch (error) {
            if (!(error instanceof client/* ServiceError */._7))
                throw error;
            const said = error.serviceError ? `: the service said "${error.serviceError}"` : '';
            if (error.status === 404) {
                const what = about.jobId === undefined ? `Project ${about.projectId}` : `Agent job ${about.jobId} in project ${about.projectId}`;
                throw new errors/* ActionError */.lZ(`${what} was not found (HTTP 404${said}). Check \`${about.jobId === undefined ? 'project-id' : 'job-id'}\` and \`project-id\`.`);
            }
            if (error.status === 429 && about.rateLimit !== undefined)
                throw this.rateLimited(request.what, about.rateLimit, error, said);
            if (request.kind === 'once' && about.jobId !== undefined && error.mayHaveBeenProcessed) {
                throw error.withMessage(`${error.message} Read the job with \`operation: agent-status\` (job-id ${about.jobId}) before sending the message again.`);
            }
            throw error;
        }
    }
    rateLimited(what, limit, error, said) {
        const retryAfter = error.failure.kind === 'status' ? error.failure.retryAfter : undefined;
        const now = this.now();
        const waitMs = (0,retry/* parseRetryAfter */.mu)(retryAfter, now);
        const when = waitMs === undefined
            ? 'The service did not say when to try again; try again later.'
            : `Try again after ${new Date(now + waitMs).toISOString()} (in ${(0,units/* formatDuration */.a3)(waitMs)}).`;
        const why = error.stoppedByDeadline ? ' Waiting for it would pass `timeout`, so the message was not sent.' : '';
        return new errors/* ActionError */.lZ(`Could not ${what}: ${limit} (HTTP 429${said}).${why} ${when}`);
    }
}
function jobPath(projectId, jobId) {
    return `/v2/agent/${(0,client/* segment */.mX)(projectId)}/job/${(0,client/* segment */.mX)(jobId)}`;
}
/**
 * Reads an AgentJob from an answer. Tolerates a wrapper (`{"job": {...}}` or `{"data": {...}}`),
 * snake_case names, a `jobId` instead of `id`, and `source` given as the repository address.
 */
function readAgentJob(body) {
    let value = (0,answer/* asObject */.eB)(body);
    for (const key of ['job', 'data']) {
        const inner = (0,answer/* asObject */.eB)(value[key]);
        if (!('id' in value) && !('status' in value) && ('id' in inner || 'status' in inner))
            value = inner;
    }
    const source = value.source;
    const sourceFields = (0,answer/* asObject */.eB)(source);
    return {
        id: (0,answer/* text */.Qq)(value.id) ?? (0,answer/* text */.Qq)(value.jobId) ?? (0,answer/* text */.Qq)(value.job_id),
        status: (0,answer/* text */.Qq)(value.status),
        model: (0,answer/* text */.Qq)(value.model),
        sourceRepository: (typeof source === 'string' ? (0,answer/* text */.Qq)(source) : undefined) ?? (0,answer/* text */.Qq)(sourceFields.repository) ?? (0,answer/* text */.Qq)(value.repository),
        sourceRef: (0,answer/* text */.Qq)(sourceFields.ref) ?? (0,answer/* text */.Qq)(sourceFields.branch),
        prLink: (0,answer/* httpLink */.Lb)(value.prLink ?? value.pr_link ?? value.prUrl),
        createdAt: time(value.createdAt ?? value.created_at),
        archivedAt: time(value.archivedAt ?? value.archived_at),
        error: (0,answer/* text */.Qq)(value.error) ?? (0,answer/* text */.Qq)(value.errorMessage)
    };
}
/** Text as the service gave it (ISO 8601 per the spec); epoch seconds/milliseconds as ISO 8601. */
function time(value) {
    if (typeof value === 'number' && Number.isFinite(value))
        return new Date(value < 1e12 ? value * 1000 : value).toISOString();
    return (0,answer/* text */.Qq)(value);
}

;// CONCATENATED MODULE: ./src/agent/reply.ts
/**
 * The reply: the job, its status and the PR link, or the error. Secrets are cut out of it (the
 * log masks them, a comment does not).
 */
function replyText(facts, secrets) {
    const job = facts.jobId === undefined ? 'The docs agent' : `Docs agent job \`${facts.jobId}\``;
    const status = `**${facts.status ?? 'unknown'}**`;
    const lines = [];
    if (facts.error !== undefined) {
        lines.push(facts.jobId === undefined ? '❌ The docs agent run failed.' : `❌ ${job}${facts.status ? ` (status ${status})` : ''}: the run failed.`, '', facts.error);
    }
    else if (!facts.waited && facts.operation !== 'agent-status') {
        const what = facts.operation === 'agent-create' ? 'was created' : 'has the message';
        lines.push(`⏳ ${job} ${what} (status ${status}); this run does not wait for it to finish.`);
    }
    else if (facts.status === 'completed') {
        lines.push(facts.prLink
            ? `✅ ${job} is **completed**. Pull request: ${facts.prLink}`
            : `✅ ${job} is **completed** with no file changes, so no pull request was opened.`);
    }
    else {
        const mark = facts.status !== undefined && ['archived', 'completed'].includes(facts.status) ? '✅' : 'ℹ️';
        lines.push(`${mark} ${job} is ${status}.${facts.prLink ? ` Pull request: ${facts.prLink}` : ''}`);
    }
    if (facts.runUrl)
        lines.push('', `[Workflow run](${facts.runUrl})`);
    return redact(lines.join('\n'), secrets);
}
function redact(text, secrets) {
    let out = text;
    for (const secret of secrets) {
        if (secret !== undefined && secret.length >= 4)
            out = out.split(secret).join('***');
    }
    return out;
}

// EXTERNAL MODULE: ./src/action/host.ts
var host = __webpack_require__(8350);
// EXTERNAL MODULE: ./src/common/cancellation.ts
var cancellation = __webpack_require__(3598);
;// CONCATENATED MODULE: ./src/agent/responder.ts



/** Bound on one GitHub request: a slow GitHub API must not hold up the step. */
const GITHUB_TIMEOUT_MS = 15_000;
class CommentResponder {
    github;
    comment;
    context;
    constructor(github, comment, context) {
        this.github = github;
        this.comment = comment;
        this.context = context;
    }
    /** Undefined (after a warning) when there is no token or the payload lacks what GitHub needs. */
    static async open(comment, token, context) {
        const { log } = context.host;
        if (token === undefined || token === '') {
            log.warning('No `github-token`: the comment gets no reaction and no reply.');
            return undefined;
        }
        const { repository, number } = comment;
        if (repository === undefined || number === undefined) {
            log.warning('The event payload does not name the repository and the issue or pull request: the comment gets no reaction and no reply.');
            return undefined;
        }
        try {
            return new CommentResponder(await context.host.github(token), { ...comment, repository, number }, context);
        }
        catch (error) {
            log.warning(`Could not set up the GitHub client: ${(0,errors/* errorMessage */.gJ)(error)}. The comment gets no reaction and no reply.`);
            return undefined;
        }
    }
    react(content) {
        const { repository, id, event } = this.comment;
        return this.attempt(`react to comment ${id}`, (signal) => event === 'issue_comment'
            ? this.github.reactToIssueComment(repository, id, content, signal)
            : this.github.reactToReviewComment(repository, id, content, signal));
    }
    reply(body) {
        const { repository, id, event, number, threadId } = this.comment;
        return this.attempt(`reply to comment ${id}`, (signal) => event === 'issue_comment'
            ? this.github.createIssueComment(repository, number, body, signal)
            : this.github.replyToReviewComment(repository, number, threadId, body, signal));
    }
    async attempt(what, call) {
        const { clock, signal, host } = this.context;
        if (signal.aborted)
            return false;
        try {
            await (0,cancellation/* withTimeout */.w)(clock, GITHUB_TIMEOUT_MS, signal, call);
            host.log.debug(`Did ${what}.`);
            return true;
        }
        catch (error) {
            host.log.warning(`Could not ${what}: ${describeGitHubError(error)}`);
            return false;
        }
    }
}
function describeGitHubError(error) {
    const message = (0,errors/* errorMessage */.gJ)(error);
    if (!(error instanceof host/* GitHubApiError */.O) || error.status === 0)
        return message;
    const hint = error.status === 401 || error.status === 403 || error.status === 404
        ? ' Check that `github-token` may write to issues and pull requests (`permissions: issues: write, pull-requests: write`).'
        : '';
    return `HTTP ${error.status}: ${message}.${hint}`;
}

;// CONCATENATED MODULE: ./src/agent/trigger.ts


const COMMENT_EVENTS = ['issue_comment', 'pull_request_review_comment'];
/** Associations GitHub gives to people with write access or membership. */
const TRUSTED_ASSOCIATIONS = new Set(['OWNER', 'MEMBER', 'COLLABORATOR']);
function isCommentEvent(name) {
    return COMMENT_EVENTS.includes(name ?? '');
}
/** The comment of a comment event; undefined for any other event. */
function readTriggeringComment(event, env) {
    if (!isCommentEvent(event.name))
        return undefined;
    const { payload } = event;
    const comment = (0,answer/* asObject */.eB)(payload.comment);
    const id = comment.id;
    if (typeof id !== 'number' || typeof comment.body !== 'string') {
        throw new errors/* ActionError */.lZ(`The \`${event.name}\` event payload carries no comment with an \`id\` and a \`body\`.`);
    }
    const numbered = (0,answer/* asObject */.eB)(event.name === 'issue_comment' ? payload.issue : payload.pull_request);
    const repository = repositoryOf(env('GITHUB_REPOSITORY'), (0,answer/* asObject */.eB)(payload.repository));
    const serverUrl = env('GITHUB_SERVER_URL') ?? 'https://github.com';
    const runId = env('GITHUB_RUN_ID');
    const login = (0,answer/* asObject */.eB)(comment.user).login;
    return {
        event: event.name,
        action: typeof payload.action === 'string' ? payload.action : undefined,
        id,
        threadId: typeof comment.in_reply_to_id === 'number' ? comment.in_reply_to_id : id,
        body: comment.body,
        author: typeof login === 'string' ? login : undefined,
        authorAssociation: typeof comment.author_association === 'string' ? comment.author_association : undefined,
        number: typeof numbered.number === 'number' ? numbered.number : undefined,
        repository,
        runUrl: repository && runId && /^\d+$/.test(runId) ? `${serverUrl}/${repository.owner}/${repository.repo}/actions/runs/${runId}` : undefined
    };
}
/** GITHUB_REPOSITORY (`owner/repo`), else the payload's repository. */
function repositoryOf(variable, payloadRepository) {
    const [owner, repo, ...rest] = (variable ?? '').split('/');
    if (owner && repo && rest.length === 0)
        return { owner, repo };
    const login = (0,answer/* asObject */.eB)(payloadRepository.owner).login;
    return typeof login === 'string' && typeof payloadRepository.name === 'string' ? { owner: login, repo: payloadRepository.name } : undefined;
}
/**
 * Whether `body` starts with `command` as a word of its own (`/docs-agent` matches
 * `/docs-agent fix it` but not `/docs-agents`), and the text after it, trimmed.
 */
function matchCommand(body, command) {
    const text = body.trimStart();
    if (command === '' || !text.startsWith(command))
        return { matched: false, rest: '' };
    const after = text.slice(command.length);
    if (after !== '' && !/^\s/.test(after))
        return { matched: false, rest: '' };
    return { matched: true, rest: after.trim() };
}
/** Why the comment does not run anything, or undefined when it does. */
function skipReason(comment, command) {
    // An edit or deletion must not send the same instruction a second time.
    if (comment.action !== undefined && comment.action !== 'created')
        return `The comment was ${comment.action}, not created.`;
    if (command !== undefined && !matchCommand(comment.body, command).matched)
        return `The comment does not start with \`${command}\`.`;
    return undefined;
}
/** The instruction for the agent: the `prompt` input, else the comment's text after the command. Never blank. */
function resolvePrompt(source, comment, eventName) {
    if (source.from === 'input')
        return source.text;
    if (comment === undefined) {
        throw new errors/* ActionError */.lZ(`\`prompt\` is required (at least one non-blank character) and this run was not started by a comment (event \`${eventName ?? 'unknown'}\`) that \`comment-command\` could take it from.`);
    }
    const { rest } = matchCommand(comment.body, source.command);
    if (rest !== '')
        return rest;
    throw new errors/* ActionError */.lZ(`\`prompt\` is empty and the comment holds nothing after \`${source.command}\`: write the instruction after the command, e.g. \`${source.command} fix the broken link on the install page\`.`);
}

;// CONCATENATED MODULE: ./src/agent/agent-flow.ts






/** How much of the prompt the job summary shows. */
const PROMPT_PREVIEW = 200;
async function runAgent(settings, client, context) {
    const { clock, host, outputs, report, signal } = context;
    const { log } = host;
    const startedAt = clock.now();
    const deadline = startedAt + settings.timeoutMs;
    // 1. A comment event: who wrote it, and does it ask for anything?
    const event = await host.event();
    const comment = readTriggeringComment(event, (name) => host.env(name));
    if (comment !== undefined) {
        describeComment(comment, context);
        const skip = skipReason(comment, settings.commentCommand);
        if (skip !== undefined) {
            log.info(`${skip} Nothing to do.`);
            outputs.set('skipped', true);
            report.notes.push(`Skipped: ${skip}`);
            return;
        }
    }
    outputs.set('skipped', false);
    const prompt = settings.operation === 'agent-status' ? undefined : resolvePrompt(settings.prompt, comment, event.name);
    if (prompt !== undefined)
        report.rows.push(['Prompt', prompt.length > PROMPT_PREVIEW ? `${prompt.slice(0, PROMPT_PREVIEW)}…` : prompt]);
    const responder = comment !== undefined && settings.commentReply ? await CommentResponder.open(comment, settings.githubToken, context) : undefined;
    const api = new AgentApi(client, () => clock.now());
    let jobId = settings.operation === 'agent-create' ? undefined : settings.jobId;
    let last;
    const reply = (outcome) => responder?.reply(replyText({ operation: settings.operation, jobId, waited: settings.wait, runUrl: comment?.runUrl, ...outcome }, [settings.apiKey, settings.githubToken]));
    try {
        // 2. Reach the job: read it, or hand it the instruction.
        if (jobId !== undefined)
            outputs.set('job-id', jobId);
        const reached = await reachJob(settings, prompt, api, deadline, context);
        jobId = reached.jobId;
        last = reached.job;
        outputs.set('job-id', jobId);
        await responder?.react('eyes');
        // 3. Follow it to its end, unless asked not to.
        let final = reached.job;
        if (settings.wait) {
            const name = `Agent job ${jobId}`;
            const followed = await log.group(`Wait for agent job ${jobId}`, () => (0,follow_job/* followJob */.B)({
                name,
                check: () => api.get(settings.projectId, reached.jobId, deadline),
                read: (job) => ({ status: job.status, summary: job.status }),
                terminal: AGENT_TERMINAL,
                known: AGENT_KNOWN,
                onValue: (job) => {
                    last = job;
                    publishJob(job, outputs);
                },
                // A read answer is the first check; a message's answer may still describe the job as
                // it was before the message, so only a status read counts.
                first: reached.read,
                checkFirst: false,
                initialIntervalMs: settings.pollIntervalMs,
                maxIntervalMs: settings.maxPollIntervalMs,
                startedAt,
                timeoutMs: settings.timeoutMs,
                resumeHint: `check it with \`operation: agent-status\` and \`job-id: ${reached.jobId}\``,
                clock,
                log,
                signal
            }));
            final = followed.value;
        }
        else {
            if (final.status !== undefined)
                log.info(`Agent job ${jobId}: ${final.status}.`);
            report.notes.push('Not waiting for the job (`wait: false`).');
        }
        if (settings.wait || settings.operation === 'agent-status')
            judgeEnd(jobId, final, context);
        await reply({ status: final.status, prLink: final.prLink, error: undefined });
    }
    catch (error) {
        if (!signal.aborted && !(0,errors/* isAbortError */.zf)(error))
            await reply({ status: last?.status, prLink: undefined, error: (0,errors/* errorMessage */.gJ)(error) });
        throw error;
    }
}
/** Reads the job, sends it the message, or creates it. */
async function reachJob(settings, prompt, api, deadline, context) {
    const { log } = context.host;
    const { projectId } = settings;
    if (settings.operation === 'agent-status') {
        const job = await api.get(projectId, settings.jobId, deadline);
        publishJob(job, context.outputs);
        return { jobId: settings.jobId, job, read: job };
    }
    const text = prompt; // resolved for every operation but agent-status
    const reached = settings.operation === 'agent-create'
        ? await log.group(`Create an agent job in project ${projectId}`, async () => {
            const created = await api.create(projectId, text, deadline);
            log.info(`Created agent job ${created.id} in project ${projectId}.`);
            return { jobId: created.id, job: created, read: undefined };
        })
        : await log.group(`Send the message to agent job ${settings.jobId}`, async () => {
            const sent = await api.message(projectId, settings.jobId, text, deadline);
            log.info(`Agent job ${settings.jobId} accepted the message.`);
            return { jobId: settings.jobId, job: sent, read: undefined };
        });
    // The answer may still show the job as it was before the message (the spec leaves open how a
    // message changes `status`): its outcome fields count only when nothing more will be read.
    const { status } = reached.job;
    publishJob(reached.job, context.outputs, !settings.wait || (status !== undefined && !AGENT_TERMINAL.has(status)));
    return reached;
}
/** A job in its final state (or, without wait, as read): `failed` fails the step. */
function judgeEnd(jobId, job, context) {
    const { host, report } = context;
    if (job.status === 'failed') {
        throw new errors/* ActionError */.lZ(`Agent job ${jobId} failed${job.error ? `: ${job.error}` : ' (the service gave no reason)'}.`);
    }
    if (job.status === 'completed' && job.prLink !== undefined) {
        host.log.info(`Agent job ${jobId} completed; pull request: ${job.prLink}`);
        return;
    }
    const note = job.status === 'completed'
        ? `Agent job ${jobId} completed without a pull request (the agent made no file changes).`
        : job.status === 'archived'
            ? `Agent job ${jobId} is archived${job.archivedAt ? ` (since ${job.archivedAt})` : ''}.`
            : undefined;
    if (note === undefined)
        return;
    host.log.info(note);
    report.notes.push(note);
}
function describeComment(comment, context) {
    const { host, report } = context;
    const who = comment.author ?? 'an unknown author';
    const association = comment.authorAssociation ?? 'unknown';
    host.log.info(`Triggered by ${comment.event} ${comment.id} from ${who} (author association ${association}).`);
    report.rows.push(['Comment by', who]);
    report.rows.push(['Author association', association]);
    if (!TRUSTED_ASSOCIATIONS.has(association)) {
        host.log.warning(`The comment's author association is ${association}: make sure the workflow lets only trusted authors (e.g. OWNER, MEMBER, COLLABORATOR) run the agent.`);
    }
}
/**
 * Sets the outputs from what a job answer says. `outcome` false leaves status, pr-link and
 * archived-at alone (an answer that may describe the job before the message).
 */
function publishJob(job, outputs, outcome = true) {
    if (job.model !== undefined)
        outputs.set('model', job.model);
    if (job.sourceRepository !== undefined)
        outputs.set('source-repository', job.sourceRepository);
    if (job.sourceRef !== undefined)
        outputs.set('source-ref', job.sourceRef);
    if (job.createdAt !== undefined)
        outputs.set('created-at', job.createdAt);
    if (!outcome)
        return;
    if (job.status !== undefined)
        outputs.set('status', job.status);
    outputs.set('pr-link', job.prLink ?? '');
    outputs.set('archived-at', job.archivedAt ?? '');
}


/***/ }),

/***/ 4256:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {


// EXPORTS
__webpack_require__.d(__webpack_exports__, {
  B: () => (/* binding */ followJob)
});

// EXTERNAL MODULE: ./src/common/cancellation.ts
var cancellation = __webpack_require__(3598);
// EXTERNAL MODULE: ./src/common/errors.ts
var errors = __webpack_require__(1922);
// EXTERNAL MODULE: ./src/common/units.ts
var units = __webpack_require__(8570);
;// CONCATENATED MODULE: ./src/follow/schedule.ts
/**
 * When to ask for a job's status next. Pure: the history of what the job reported, the settings,
 * the current time and a random source in; a wait in milliseconds out.
 *
 * Two regimes:
 * - Blind backoff (nothing usable to go on: no progress, a stall, progress going backwards):
 *   initialIntervalMs doubling per poll, capped at maxIntervalMs, +-10% jitter.
 * - ETA (progress advancing): fit a constant rate to the recent observations, taking the integer
 *   quantisation of `progress` into account, which gives an interval [early, late] in which the
 *   job should end. Poll at the latest moment that still notices an end at `early` within a small
 *   lag budget; when that poll finds the job still running, its observation narrows the interval.
 */
/** Blind backoff: the wait doubles with every poll. */
const GROWTH = 2;
/** Blind waits are spread by +-10% so that many runners do not poll in step. */
const BLIND_JITTER = 0.1;
/** Width of one progress step: values are integers in practice, so a reported 40 means [40, 41). */
const QUANTUM = 1;
/** Lag budget for ETA-aimed polls, as a fraction of the job's estimated total duration. */
const LAG_FRACTION = 0.03;
/** A rate is trusted (its ETA may carry a wait past maxIntervalMs) from this many points... */
const TRUST_MIN_POINTS = 3;
/** ...when its quantisation spread, (rHi - rLo) / rHi, is at most this. */
const TRUST_MAX_SPREAD = 0.25;
/** A trusted wait extrapolates at most this many times the span the rate was measured over. */
const HORIZON = 1;
/** Only the most recent points are considered when fitting a rate (bounds the work per poll). */
const MAX_SEGMENT = 32;
/** Shortest wait ever returned: ETA aiming must not turn into a busy loop. */
function minimumDelay(settings) {
    return Math.max(1, settings.initialIntervalMs / 5);
}
/** The blind backoff before jitter, after `polls` status requests. */
function blindDelay(polls, settings) {
    const { initialIntervalMs: initial, maxIntervalMs: max } = settings;
    return Math.min(max, initial * GROWTH ** Math.min(polls, 64));
}
/** A usable progress value: finite and within 0..100; anything else is treated as absent. */
function usableProgress(value) {
    return typeof value === 'number' && Number.isFinite(value) && value >= 0 && value <= 100 ? value : undefined;
}
/**
 * The longest recent run of observations that a single constant rate explains, given that each
 * reported value P stands for a true progress in [P, P + QUANTUM). A stall or a jump breaks the
 * run, so the fit only ever describes the job's current pace.
 *
 * For a line p(t) = a + r t the constraints are pairwise (for a fixed r the offsets allowed by
 * each point are intervals, and intervals on a line intersect iff they do pairwise), so the
 * feasible rates are the intersection of the pairwise ranges [(dP - Q)/dt, (dP + Q)/dt].
 */
function fitRate(history) {
    const last = history.at(-1);
    const lastP = usableProgress(last?.progress);
    if (last === undefined || lastP === undefined)
        return undefined;
    const segment = [{ at: last.at, p: lastP }];
    let rLo = -Infinity;
    let rHi = Infinity;
    for (let i = history.length - 2; i >= 0 && segment.length < MAX_SEGMENT; i--) {
        const obs = history[i];
        const p = usableProgress(obs?.progress);
        if (obs === undefined || p === undefined)
            continue;
        let lo = rLo;
        let hi = rHi;
        let ok = true;
        for (const later of segment) {
            const dt = later.at - obs.at;
            const dp = later.p - p;
            if (dt <= 0 || dp < 0) {
                ok = false;
                break;
            }
            lo = Math.max(lo, (dp - QUANTUM) / dt);
            hi = Math.min(hi, (dp + QUANTUM) / dt);
        }
        if (!ok || lo > hi)
            break;
        rLo = lo;
        rHi = hi;
        segment.unshift({ at: obs.at, p });
    }
    if (segment.length < 2)
        return undefined;
    const first = segment[0];
    return { points: segment.length, spanMs: first === undefined ? 0 : last.at - first.at, rLo, rHi };
}
function nextPollDelay(history, settings, now, random, startedAt) {
    const floor = minimumDelay(settings);
    const blindBase = blindDelay(history.length, settings);
    const blind = Math.max(floor, blindBase * (1 + BLIND_JITTER * (2 * random() - 1)));
    const last = history.at(-1);
    const lastP = usableProgress(last?.progress);
    // Progress absent (or garbage) now: nothing to estimate with.
    if (last === undefined || lastP === undefined)
        return blind;
    // Stalled (no change since the previous report) or going backwards: the end could come at any
    // moment (a stalled job may jump) or never; only the blind backoff is safe.
    const previous = history.at(-2);
    const previousP = usableProgress(previous?.progress);
    if (previousP !== undefined && lastP <= previousP)
        return blind;
    const fit = fitRate(history);
    if (fit === undefined || fit.rHi <= 0) {
        // A single point. If we started the job ourselves, progress / time-since-start is a LOWER
        // bound of the rate (the unknown queue time only slows the apparent rate), so it gives an
        // upper bound of the remaining time: it may shorten the blind wait, never lengthen it.
        if (startedAt !== undefined && lastP > 0 && last.at > startedAt) {
            const remainingUpper = ((100 - lastP) * (last.at - startedAt)) / lastP;
            return Math.max(floor, Math.min(blind, last.at + remainingUpper - now));
        }
        return blind;
    }
    // The end lies in [early, late] if the job keeps a constant pace. A two-point rate from early,
    // coarse integer steps is wide; the interval narrows as points accumulate.
    const early = last.at + Math.max(0, 100 - lastP - QUANTUM) / fit.rHi;
    const late = fit.rLo > 0 ? last.at + (100 - lastP) / fit.rLo : Infinity;
    const origin = startedAt ?? history[0]?.at ?? last.at;
    const estimatedEnd = Number.isFinite(late) ? (early + late) / 2 : early;
    const tolerance = Math.max(floor, LAG_FRACTION * (estimatedEnd - origin));
    // Poll at `late` when the interval is narrower than the lag budget (this poll then sees the end,
    // at most `tolerance` after it); else at early + tolerance (an end at `early` is still noticed
    // within budget, and a poll that comes too soon brings a point that narrows the interval).
    const target = Math.min(late, early + tolerance);
    let wait;
    if (target <= now) {
        // Overdue: the job should be done by now (e.g. 100% but not yet "completed"). Back off from
        // the expected end: wait about as long as it is overdue, bounded by the blind backoff.
        wait = Math.min(blindBase, Math.max(floor, now - Math.min(late, estimatedEnd)));
    }
    else {
        wait = target - now;
    }
    // Aimed polls need no big jitter (their times already follow each job's own pace): a little,
    // only later (a poll just before the estimated end is a wasted request) and well within the
    // lag budget.
    wait += Math.min(BLIND_JITTER * wait, tolerance / 4) * random();
    // How far the estimate may stretch the wait:
    // - two points: a rate with no consistency check (and coarse while progress steps are few):
    //   it may only shorten the blind backoff;
    // - three or more points on one line (within quantisation): a steady pace; up to maxIntervalMs;
    // - trusted (also a narrow spread, rLo > 0): past maxIntervalMs (which caps the blind growth),
    //   but no further ahead than the span the rate was measured over, so that a job that speeds
    //   up is not overslept by much.
    const trusted = fit.points >= TRUST_MIN_POINTS && fit.rLo > 0 && (fit.rHi - fit.rLo) / fit.rHi <= TRUST_MAX_SPREAD;
    const limit = trusted
        ? Math.max(settings.maxIntervalMs, HORIZON * fit.spanMs)
        : fit.points >= TRUST_MIN_POINTS
            ? Math.max(blind, settings.maxIntervalMs)
            : blind;
    return Math.max(floor, Math.min(wait, limit));
}

;// CONCATENATED MODULE: ./src/follow/follow-job.ts
/**
 * Following a job until it ends, for export and agent jobs alike: check, read, report, sleep. The
 * status request, the clock and the cancellation signal are handed in, so tests and the benchmark
 * run it on a virtual clock; when to check next is schedule.ts's pure decision.
 */




/**
 * Checks until the job reaches a terminal status, and resolves with that answer. Logs one line per
 * change and warns once per unknown status. It never gives up early: a wait that would pass the
 * deadline is cut short to check once more at the deadline; after that, it fails with an
 * ActionError that names the job, its last status and how to pick it up again. Rejects with
 * CancelledError as soon as `signal` fires, and with whatever `check` throws.
 */
async function followJob(options) {
    const { clock, log, signal, name, startedAt } = options;
    const deadline = startedAt + options.timeoutMs;
    const schedule = { initialIntervalMs: options.initialIntervalMs, maxIntervalMs: options.maxIntervalMs };
    const history = [];
    const warned = new Set();
    let lastSummary;
    let polls = 0;
    const elapsed = () => (0,units/* formatDuration */.a3)(clock.now() - startedAt);
    const sleepAtMost = (ms) => clock.sleep(Math.max(0, Math.min(ms, deadline - clock.now())), signal);
    (0,errors/* throwIfCancelled */.dZ)(signal);
    let value = options.first;
    if (value === undefined && !options.checkFirst)
        await sleepAtMost(options.initialIntervalMs);
    for (;;) {
        if (value === undefined) {
            value = await (0,cancellation/* untilCancelled */.c)(options.check(), signal);
            polls++;
        }
        const reading = options.read(value);
        const now = clock.now();
        history.push({ at: now, status: reading.status, progress: usableProgress(reading.progress) });
        if (!options.known.has(reading.status) && !warned.has(reading.status)) {
            warned.add(reading.status);
            log.warning(`${name} reports the unknown status \`${reading.status}\`; treating it as still running.`);
        }
        if (reading.summary !== lastSummary) {
            log.info(`${name}: ${reading.summary} after ${elapsed()}.`);
            lastSummary = reading.summary;
        }
        options.onValue?.(value);
        if (options.terminal.has(reading.status)) {
            log.info(`${name} ended \`${reading.status}\` after ${elapsed()} and ${polls} status requests.`);
            return { value, polls };
        }
        if (now >= deadline) {
            throw new errors/* ActionError */.lZ(`${name} did not finish within \`timeout\` (${(0,units/* formatDuration */.a3)(options.timeoutMs)}): last seen ${reading.summary}, after waiting ${elapsed()}. ` +
                `The job may still finish: ${options.resumeHint}.`);
        }
        await sleepAtMost(nextPollDelay(history, schedule, now, () => clock.random(), options.jobStartedAt));
        value = undefined;
    }
}


/***/ }),

/***/ 885:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   Lb: () => (/* binding */ httpLink),
/* harmony export */   Qq: () => (/* binding */ text),
/* harmony export */   eB: () => (/* binding */ asObject),
/* harmony export */   vE: () => (/* binding */ timestamp),
/* harmony export */   vM: () => (/* binding */ finiteNumber)
/* harmony export */ });
/**
 * Reading service answers defensively: the spec leaves types and extra fields open, so every
 * field is taken only when it has a usable value, and anything else counts as absent.
 */
/** The value as a plain object, or an empty one. */
function asObject(value) {
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? value : {};
}
/** Non-blank text (trimmed); a finite number is taken as its text (ids are sometimes numbers). */
function text(value) {
    if (typeof value === 'number' && Number.isFinite(value))
        return String(value);
    return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}
/** A finite number, also from a numeric string. */
function finiteNumber(value) {
    const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
    return typeof n === 'number' && Number.isFinite(n) ? n : undefined;
}
/** An http(s) address, or undefined. */
function httpLink(value) {
    const found = text(value);
    if (found === undefined)
        return undefined;
    try {
        const { protocol } = new URL(found);
        return protocol === 'https:' || protocol === 'http:' ? found : undefined;
    }
    catch {
        return undefined;
    }
}
/** An ISO 8601 string, or epoch seconds / milliseconds (the spec only says "timestamp"). */
function timestamp(value) {
    if (typeof value === 'number' && Number.isFinite(value))
        return new Date(value < 1e12 ? value * 1000 : value);
    if (typeof value === 'string' && value.trim() !== '') {
        if (/^\d+(\.\d+)?$/.test(value.trim()))
            return timestamp(Number(value));
        const ms = Date.parse(value);
        return Number.isNaN(ms) ? undefined : new Date(ms);
    }
    return undefined;
}


/***/ })

};
