export const id = 316;
export const ids = [316];
export const modules = {

/***/ 4316:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {


// EXPORTS
__webpack_require__.d(__webpack_exports__, {
  runAgent: () => (/* binding */ runAgent)
});

// EXTERNAL MODULE: ./src/duration.ts
var duration = __webpack_require__(7607);
// EXTERNAL MODULE: ./src/errors.ts
var errors = __webpack_require__(3916);
// EXTERNAL MODULE: ./src/poll/poller.ts + 1 modules
var poller = __webpack_require__(7980);
// EXTERNAL MODULE: ./src/http/answer.ts
var answer = __webpack_require__(9856);
// EXTERNAL MODULE: ./src/http/api-client.ts
var api_client = __webpack_require__(3838);
// EXTERNAL MODULE: ./src/http/retry.ts
var retry = __webpack_require__(8902);
;// CONCATENATED MODULE: ./src/agent/agent-api.ts





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
        const body = await this.call({ method: 'POST', path: `/v2/agent/${(0,api_client/* segment */.mX)(projectId)}/job`, body: { prompt }, kind: 'once', what, deadline }, { projectId, rateLimit: "the service's rate limit for this project is reached" });
        const job = readAgentJob(body);
        if (job.id === undefined) {
            throw new errors/* ActionError */.lZ(`The service accepted the request to ${what} but its answer carries no job \`id\`, so the job cannot be followed. Look the job up on the dashboard; do not rerun blindly (it would create a second job).`);
        }
        return { ...job, id: job.id };
    }
    async call(request, about) {
        try {
            const { body } = await this.client.request(request);
            return body;
        }
        catch (error) {
            if (!(error instanceof api_client/* ApiError */.hD))
                throw error;
            const said = error.serviceError ? `: the service said "${error.serviceError}"` : '';
            if (error.status === 404) {
                const what = about.jobId === undefined ? `Project ${about.projectId}` : `Agent job ${about.jobId} in project ${about.projectId}`;
                throw new errors/* ActionError */.lZ(`${what} was not found (HTTP 404${said}). Check \`${about.jobId === undefined ? 'project-id' : 'job-id'}\` and \`project-id\`.`);
            }
            if (error.status === 429 && about.rateLimit !== undefined)
                throw this.rateLimited(request.what, about.rateLimit, error, said);
            if (request.kind === 'once' && about.jobId !== undefined && error.mayHaveBeenProcessed) {
                throw new api_client/* ApiError */.hD(`${error.message} Read the job with \`operation: agent-status\` (job-id ${about.jobId}) before sending the message again.`, error.failure, error.serviceError, error.attempts, error.stoppedByDeadline);
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
            : `Try again after ${new Date(now + waitMs).toISOString()} (in ${(0,duration/* formatDuration */.a)(waitMs)}).`;
        const why = error.stoppedByDeadline ? ' Waiting for it would pass `timeout`, so the message was not sent.' : '';
        return new errors/* ActionError */.lZ(`Could not ${what}: ${limit} (HTTP 429${said}).${why} ${when}`);
    }
}
function jobPath(projectId, jobId) {
    return `/v2/agent/${(0,api_client/* segment */.mX)(projectId)}/job/${(0,api_client/* segment */.mX)(jobId)}`;
}
/**
 * Reads an AgentJob from an answer. Tolerates a wrapper (`{"job": {...}}` or `{"data": {...}}`),
 * snake_case names, a `jobId` instead of `id`, and `source` given as the repository address.
 */
function readAgentJob(body) {
    let value = (0,answer/* record */.g1)(body);
    for (const key of ['job', 'data']) {
        const inner = (0,answer/* record */.g1)(value[key]);
        if (!('id' in value) && !('status' in value) && ('id' in inner || 'status' in inner))
            value = inner;
    }
    const source = value.source;
    const sourceRecord = (0,answer/* record */.g1)(source);
    return {
        id: (0,answer/* text */.Qq)(value.id) ?? (0,answer/* text */.Qq)(value.jobId) ?? (0,answer/* text */.Qq)(value.job_id),
        status: (0,answer/* text */.Qq)(value.status),
        model: (0,answer/* text */.Qq)(value.model),
        sourceRepository: (typeof source === 'string' ? (0,answer/* text */.Qq)(source) : undefined) ?? (0,answer/* text */.Qq)(sourceRecord.repository) ?? (0,answer/* text */.Qq)(value.repository),
        sourceRef: (0,answer/* text */.Qq)(sourceRecord.ref) ?? (0,answer/* text */.Qq)(sourceRecord.branch),
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

;// CONCATENATED MODULE: ./src/agent/comment.ts
/**
 * The comment that triggered a run (issue_comment, pull_request_review_comment), and the reaction
 * and reply on it through the GitHub REST API. @actions/github (Octokit and its plugins) is loaded
 * only here and only when a comment event needs it, so other runs do not pay for loading it.
 */


const COMMENT_EVENTS = ['issue_comment', 'pull_request_review_comment'];
/** Associations GitHub gives to people with write access or membership. */
const TRUSTED_ASSOCIATIONS = new Set(['OWNER', 'MEMBER', 'COLLABORATOR']);
/** Bound on one reaction or reply request: a slow GitHub API must not hold up the step. */
const GITHUB_TIMEOUT_MS = 15_000;
function isCommentEvent(name) {
    return COMMENT_EVENTS.includes(name ?? '');
}
let gitHubModule;
function loadGitHub() {
    // undici (under @actions/github) is loaded lazily too; see deps/undici-lazy.
    gitHubModule ??= Promise.all([__webpack_require__.e(/* import() */ 413).then(__webpack_require__.bind(__webpack_require__, 2413)), Promise.resolve(/* import() */).then(__webpack_require__.t.bind(__webpack_require__, 4769, 19)).then((undici) => undici.preload())]).then(([github]) => github);
    return gitHubModule;
}
/**
 * The comment of the event that started the run, read from GITHUB_EVENT_NAME and the payload file
 * at GITHUB_EVENT_PATH (through a fresh @actions/github Context, so the environment is read now,
 * not when the module was first loaded). Undefined for any other event.
 */
async function readTriggeringComment() {
    const eventName = process.env.GITHUB_EVENT_NAME;
    if (!isCommentEvent(eventName))
        return undefined;
    const github = await loadGitHub();
    // The package exports only a ready-made `context` (built when it was first loaded); its class
    // builds a fresh one from the current environment.
    const Context = github.context.constructor;
    let context;
    try {
        context = new Context();
    }
    catch (error) {
        throw new errors/* ActionError */.lZ(`Could not read the \`${eventName}\` event payload at GITHUB_EVENT_PATH: ${(0,errors/* errorMessage */.gJ)(error)}`);
    }
    const payload = context.payload;
    const comment = (0,answer/* record */.g1)(payload.comment);
    const id = comment.id;
    if (typeof id !== 'number' || typeof comment.body !== 'string') {
        throw new errors/* ActionError */.lZ(`The \`${eventName}\` event payload (GITHUB_EVENT_PATH=${process.env.GITHUB_EVENT_PATH ?? 'unset'}) carries no comment with an \`id\` and a \`body\`.`);
    }
    const numbered = eventName === 'issue_comment' ? (0,answer/* record */.g1)(payload.issue) : (0,answer/* record */.g1)(payload.pull_request);
    let repository;
    try {
        const { owner, repo } = context.repo;
        if (owner && repo)
            repository = { owner, repo };
    }
    catch {
        repository = undefined;
    }
    const runUrl = repository && Number.isFinite(context.runId)
        ? `${context.serverUrl}/${repository.owner}/${repository.repo}/actions/runs/${context.runId}`
        : undefined;
    return {
        event: eventName,
        action: typeof payload.action === 'string' ? payload.action : undefined,
        id,
        threadId: typeof comment.in_reply_to_id === 'number' ? comment.in_reply_to_id : id,
        body: comment.body,
        author: typeof (0,answer/* record */.g1)(comment.user).login === 'string' ? (0,answer/* record */.g1)(comment.user).login : undefined,
        authorAssociation: typeof comment.author_association === 'string' ? comment.author_association : undefined,
        number: typeof numbered.number === 'number' ? numbered.number : undefined,
        repository,
        runUrl
    };
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
/**
 * Reacts to and replies on the triggering comment. Every failure is a warning: the agent's work
 * does not depend on it.
 */
class CommentResponder {
    octokit;
    comment;
    log;
    signal;
    constructor(octokit, comment, log, signal) {
        this.octokit = octokit;
        this.comment = comment;
        this.log = log;
        this.signal = signal;
    }
    /** Undefined (after a warning) when there is no token or the payload lacks what GitHub needs. */
    static async open(comment, token, log, signal) {
        if (token === undefined || token === '') {
            log.warning('No `github-token`: the comment gets no reaction and no reply.');
            return undefined;
        }
        const { repository } = comment;
        if (repository === undefined || comment.number === undefined) {
            log.warning('The event payload does not name the repository and the issue or pull request: the comment gets no reaction and no reply.');
            return undefined;
        }
        try {
            const github = await loadGitHub();
            const baseUrl = process.env.GITHUB_API_URL;
            const octokit = github.getOctokit(token, baseUrl ? { baseUrl } : {});
            return new CommentResponder(octokit, { ...comment, repository }, log, signal);
        }
        catch (error) {
            log.warning(`Could not set up the GitHub client: ${(0,errors/* errorMessage */.gJ)(error)}. The comment gets no reaction and no reply.`);
            return undefined;
        }
    }
    async react(content) {
        const { owner, repo } = this.comment.repository;
        const request = { owner, repo, comment_id: this.comment.id, content, request: this.requestOptions() };
        return this.attempt(`react to comment ${this.comment.id}`, () => this.comment.event === 'issue_comment'
            ? this.octokit.rest.reactions.createForIssueComment(request)
            : this.octokit.rest.reactions.createForPullRequestReviewComment(request));
    }
    async reply(body) {
        const { owner, repo } = this.comment.repository;
        const number = this.comment.number;
        return this.attempt(`reply to comment ${this.comment.id}`, () => this.comment.event === 'issue_comment'
            ? this.octokit.rest.issues.createComment({ owner, repo, issue_number: number, body, request: this.requestOptions() })
            : this.octokit.rest.pulls.createReplyForReviewComment({
                owner,
                repo,
                pull_number: number,
                comment_id: this.comment.threadId,
                body,
                request: this.requestOptions()
            }));
    }
    requestOptions() {
        const timeout = AbortSignal.timeout(GITHUB_TIMEOUT_MS);
        return { signal: this.signal ? AbortSignal.any([this.signal, timeout]) : timeout };
    }
    async attempt(what, call) {
        if (this.signal?.aborted)
            return false;
        try {
            await call();
            this.log.debug(`Did ${what}.`);
            return true;
        }
        catch (error) {
            this.log.warning(`Could not ${what}: ${describeGitHubError(error)}`);
            return false;
        }
    }
}
function describeGitHubError(error) {
    const status = error?.status;
    const message = (0,errors/* errorMessage */.gJ)(error);
    if (typeof status !== 'number' || status === 0)
        return message;
    const hint = status === 401 || status === 403 || status === 404
        ? ' Check that `github-token` may write to issues and pull requests (`permissions: issues: write, pull-requests: write`).'
        : '';
    return `HTTP ${status}: ${message}.${hint}`;
}
/**
 * The reply on the comment: the job, its status and the PR link, or the error. Secrets are cut
 * out of it (the log masks them, a comment does not).
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

;// CONCATENATED MODULE: ./src/agent/agent-flow.ts





/** How much of the prompt the job summary shows. */
const PROMPT_PREVIEW = 200;
/**
 * Agent jobs: send a follow-up message, read a job, or create one, and (with `wait`) follow the
 * job until it is `completed`, `archived` or `failed`. On a comment event, the comment may carry
 * the prompt (`comment-command`), and gets a reaction and a reply (`comment-reply`).
 */
async function runAgent(settings, client, context) {
    const { clock, log, outputs, report, signal } = context;
    const startedAt = clock.now();
    const comment = isCommentEvent(process.env.GITHUB_EVENT_NAME) ? await readTriggeringComment() : undefined;
    if (comment) {
        describeComment(comment, context);
        const skip = skipReason(comment, settings);
        if (skip !== undefined) {
            log.info(`${skip} Nothing to do.`);
            outputs.set('skipped', true);
            report.notes.push(`Skipped: ${skip}`);
            return;
        }
    }
    outputs.set('skipped', false);
    const prompt = settings.operation === 'agent-status' ? undefined : resolvePrompt(settings, comment);
    if (prompt !== undefined) {
        report.rows.push(['Prompt', prompt.length > PROMPT_PREVIEW ? `${prompt.slice(0, PROMPT_PREVIEW)}…` : prompt]);
    }
    const responder = comment && settings.commentReply ? await CommentResponder.open(comment, settings.githubToken, log, signal) : undefined;
    const progress = { jobId: settings.jobId, last: undefined };
    const reply = (outcome) => responder?.reply(replyText({ operation: settings.operation, jobId: progress.jobId, waited: settings.wait, runUrl: comment?.runUrl, ...outcome }, [settings.apiKey, settings.githubToken]));
    try {
        const final = await drive(settings, prompt, client, context, progress, startedAt, () => responder?.react('eyes'));
        await reply({ status: final?.status, prLink: final?.prLink, error: undefined });
    }
    catch (error) {
        if (!signal.aborted && !(0,errors/* isAbortError */.zf)(error))
            await reply({ status: progress.last?.status, prLink: undefined, error: (0,errors/* errorMessage */.gJ)(error) });
        throw error;
    }
}
function describeComment(comment, context) {
    const { log, report } = context;
    const who = comment.author ?? 'an unknown author';
    const association = comment.authorAssociation ?? 'unknown';
    log.info(`Triggered by ${comment.event} ${comment.id} from ${who} (author association ${association}).`);
    report.rows.push(['Comment by', who]);
    report.rows.push(['Author association', association]);
    if (!TRUSTED_ASSOCIATIONS.has(association)) {
        log.warning(`The comment's author association is ${association}: make sure the workflow lets only trusted authors (e.g. OWNER, MEMBER, COLLABORATOR) run the agent.`);
    }
}
/** Why the comment does not run anything, or undefined when it does. */
function skipReason(comment, settings) {
    // An edit or deletion must not send the same instruction a second time.
    if (comment.action !== undefined && comment.action !== 'created')
        return `The comment was ${comment.action}, not created.`;
    if (settings.commentCommand !== undefined && !matchCommand(comment.body, settings.commentCommand).matched) {
        return `The comment does not start with \`${settings.commentCommand}\`.`;
    }
    return undefined;
}
/** The `prompt` input, else the comment's text after the command; never blank. */
function resolvePrompt(settings, comment) {
    if (settings.prompt !== undefined && settings.prompt.trim() !== '')
        return settings.prompt.trim();
    if (comment && settings.commentCommand !== undefined) {
        const { rest } = matchCommand(comment.body, settings.commentCommand);
        if (rest !== '')
            return rest;
        throw new errors/* ActionError */.lZ(`\`prompt\` is empty and the comment holds nothing after \`${settings.commentCommand}\`: write the instruction after the command, e.g. \`${settings.commentCommand} fix the broken link on the install page\`.`);
    }
    const where = settings.commentCommand !== undefined ? ` and this run was not started by a comment (event \`${process.env.GITHUB_EVENT_NAME ?? 'unknown'}\`)` : '';
    throw new errors/* ActionError */.lZ(`\`prompt\` is required for \`${settings.operation}\` (at least one non-blank character)${where}.`);
}
/** Runs the operation; resolves with the last job seen (undefined when none was read). */
async function drive(settings, prompt, client, context, progress, startedAt, accepted) {
    const { clock, log, outputs, report } = context;
    const api = new AgentApi(client, () => clock.now());
    const deadline = startedAt + settings.timeoutMs;
    const { projectId } = settings;
    let jobId;
    if (settings.operation === 'agent-status') {
        jobId = settings.jobId; // inputs require it
        outputs.set('job-id', jobId);
        if (!settings.wait) {
            const job = await api.get(projectId, jobId, deadline);
            progress.last = job;
            record(job, context);
            log.info(`Agent job ${jobId}: ${job.status}.`);
            await accepted();
            report.notes.push('Not waiting for the job (`wait: false`).');
            return finish(jobId, job, context);
        }
    }
    else {
        const text = prompt;
        const answer = await log.group(settings.operation === 'agent-create' ? `Create an agent job in project ${projectId}` : `Send the message to agent job ${settings.jobId}`, async () => {
            if (settings.operation === 'agent-create') {
                const created = await api.create(projectId, text, deadline);
                log.info(`Created agent job ${created.id} in project ${projectId}.`);
                return created;
            }
            const sent = await api.message(projectId, settings.jobId, text, deadline);
            log.info(`Agent job ${settings.jobId} accepted the message.`);
            return sent;
        });
        jobId = settings.operation === 'agent-create' ? answer.id : settings.jobId;
        progress.jobId = jobId;
        outputs.set('job-id', jobId);
        // The answer may still show the job as it was before the message (the spec leaves open how a
        // message changes `status`): its outcome fields count only when nothing more will be read.
        record(answer, context, !settings.wait || (answer.status !== undefined && !AGENT_TERMINAL.has(answer.status)));
        progress.last = answer;
        await accepted();
        if (!settings.wait) {
            if (answer.status !== undefined)
                log.info(`Agent job ${jobId}: ${answer.status}.`);
            report.notes.push('Not waiting for the job (`wait: false`).');
            return answer;
        }
    }
    const final = await log.group(`Wait for agent job ${jobId}`, () => waitForJob(api, jobId, settings, context, progress, startedAt, settings.operation === 'agent-status' ? accepted : undefined));
    return finish(jobId, final, context);
}
/** Judges a job in a terminal (or, without wait, any) state: `failed` fails the step. */
function finish(jobId, job, context) {
    const { log, report } = context;
    if (job.status === 'failed') {
        throw new errors/* ActionError */.lZ(`Agent job ${jobId} failed${job.error ? `: ${job.error}` : ' (the service gave no reason)'}.`);
    }
    if (job.status === 'completed') {
        if (job.prLink !== undefined) {
            log.info(`Agent job ${jobId} completed; pull request: ${job.prLink}`);
        }
        else {
            const note = `Agent job ${jobId} completed without a pull request (the agent made no file changes).`;
            log.info(note);
            report.notes.push(note);
        }
    }
    else if (job.status === 'archived') {
        const note = `Agent job ${jobId} is archived${job.archivedAt ? ` (since ${job.archivedAt})` : ''}.`;
        log.info(note);
        report.notes.push(note);
    }
    return job;
}
async function waitForJob(api, jobId, settings, context, progress, startedAt, onFirstRead) {
    const { clock, log, signal, outputs } = context;
    const deadline = startedAt + settings.timeoutMs;
    const warned = new Set();
    let lastStatus;
    let firstRead = onFirstRead;
    try {
        const result = await (0,poller/* pollUntilDone */.A)({
            check: async () => {
                const job = await api.get(settings.projectId, jobId, deadline);
                if (firstRead) {
                    const react = firstRead;
                    firstRead = undefined;
                    await react();
                }
                return job;
            },
            read: (job) => ({ status: job.status, done: AGENT_TERMINAL.has(job.status) }),
            settings: {
                initialIntervalMs: settings.pollIntervalMs,
                maxIntervalMs: settings.maxPollIntervalMs,
                // One `timeout` for the whole step: the message and any Retry-After wait count too.
                timeoutMs: Math.max(0, deadline - clock.now())
            },
            clock,
            signal,
            random: context.random,
            checkFirst: settings.operation === 'agent-status',
            onObservation: (job) => {
                if (!AGENT_KNOWN.has(job.status) && !warned.has(job.status)) {
                    warned.add(job.status);
                    log.warning(`Agent job ${jobId} reports the unknown status \`${job.status}\`; treating it as still running.`);
                }
                if (job.status !== lastStatus) {
                    log.info(`Agent job ${jobId}: ${job.status} after ${(0,duration/* formatDuration */.a)(clock.now() - startedAt)}.`);
                    lastStatus = job.status;
                }
                progress.last = job;
                record(job, context);
            }
        });
        log.info(`Agent job ${jobId} ended \`${result.value.status}\` after ${(0,duration/* formatDuration */.a)(clock.now() - startedAt)} and ${result.polls} status requests.`);
        return result.value;
    }
    catch (error) {
        if (error instanceof poller/* PollTimeoutError */.t) {
            const last = progress.last?.status;
            outputs.set('status', last);
            throw new errors/* ActionError */.lZ(`Agent job ${jobId} did not end within \`timeout\` (${(0,duration/* formatDuration */.a)(settings.timeoutMs)}): last status ${last ? `\`${last}\`` : 'unknown (no status seen)'}, after waiting ${(0,duration/* formatDuration */.a)(clock.now() - startedAt)}. The job may still finish: check it with \`operation: agent-status\` and \`job-id: ${jobId}\`.`);
        }
        throw error;
    }
}
/**
 * Sets the outputs from what a job answer says. `outcome` false leaves status, pr-link and
 * archived-at alone (an answer that may describe the job before the message).
 */
function record(job, context, outcome = true) {
    const { outputs } = context;
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

/***/ 9856:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   Lb: () => (/* binding */ httpLink),
/* harmony export */   Qq: () => (/* binding */ text),
/* harmony export */   g1: () => (/* binding */ record),
/* harmony export */   vE: () => (/* binding */ timestamp),
/* harmony export */   vM: () => (/* binding */ finiteNumber)
/* harmony export */ });
/**
 * Reading service answers defensively: the spec leaves types and extra fields open, so every
 * field is taken only when it has a usable value, and anything else counts as absent.
 */
/** The value as a plain object, or an empty one. */
function record(value) {
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


/***/ }),

/***/ 7980:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {


// EXPORTS
__webpack_require__.d(__webpack_exports__, {
  t: () => (/* binding */ PollTimeoutError),
  A: () => (/* binding */ pollUntilDone)
});

// EXTERNAL MODULE: ./src/cancellation.ts
var cancellation = __webpack_require__(4632);
// EXTERNAL MODULE: ./src/errors.ts
var errors = __webpack_require__(3916);
;// CONCATENATED MODULE: ./src/poll/schedule.ts
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

;// CONCATENATED MODULE: ./src/poll/poller.ts



class PollTimeoutError extends Error {
    name = 'PollTimeoutError';
    last;
    polls;
    elapsedMs;
    constructor(last, polls, elapsedMs, lastStatus) {
        const status = lastStatus === undefined ? '' : `; last status: ${lastStatus}`;
        super(`The job did not finish within ${Math.round(elapsedMs / 1000)} s (${polls} status checks${status})`);
        this.last = last;
        this.polls = polls;
        this.elapsedMs = elapsedMs;
    }
}
/**
 * Polls until `read` says done, and resolves with that value. Rejects with CancelledError as soon
 * as `signal` fires (also mid-sleep or mid-check), with whatever `check` or `read` throws, or
 * with PollTimeoutError once the deadline (start + timeoutMs) has passed. It never gives up
 * early: a wait that would pass the deadline is cut short to poll once more at the deadline.
 */
async function pollUntilDone(options) {
    const { check, read, settings, clock, signal, startedAt, onObservation } = options;
    const random = options.random ?? Math.random;
    if (signal?.aborted)
        throw new errors/* CancelledError */.cc();
    const start = clock.now();
    const deadline = start + settings.timeoutMs;
    const history = [];
    let polls = 0;
    let last;
    const sleepAtMost = async (ms) => {
        const wait = Math.max(0, Math.min(ms, deadline - clock.now()));
        await clock.sleep(wait, signal);
    };
    if (options.checkFirst !== true)
        await sleepAtMost(settings.initialIntervalMs);
    for (;;) {
        const value = await (0,cancellation/* untilCancelled */.c)(check(), signal);
        polls++;
        last = value;
        const reading = read(value);
        const now = clock.now();
        const observation = { at: now, status: reading.status, progress: usableProgress(reading.progress) };
        history.push(observation);
        onObservation?.(value, observation, polls);
        if (reading.done)
            return { value, polls, elapsedMs: now - start };
        if (now >= deadline)
            throw new PollTimeoutError(last, polls, now - start, reading.status);
        await sleepAtMost(nextPollDelay(history, settings, now, random, startedAt));
    }
}


/***/ })

};
