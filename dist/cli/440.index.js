export const id = 440;
export const ids = [440];
export const modules = {

/***/ 4440:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {


// EXPORTS
__webpack_require__.d(__webpack_exports__, {
  runAgent: () => (/* binding */ runAgent)
});

// EXTERNAL MODULE: ./src/follow/service-job.ts
var service_job = __webpack_require__(1652);
// EXTERNAL MODULE: ./src/action/host.ts
var host = __webpack_require__(8350);
// EXTERNAL MODULE: ./src/common/errors.ts
var errors = __webpack_require__(1922);
// EXTERNAL MODULE: ./src/common/text.ts
var common_text = __webpack_require__(2450);
// EXTERNAL MODULE: ./src/follow/follow-job.ts + 2 modules
var follow_job = __webpack_require__(7954);
// EXTERNAL MODULE: ./src/service/answer.ts
var service_answer = __webpack_require__(885);
// EXTERNAL MODULE: ./src/common/path-segment.ts
var path_segment = __webpack_require__(2650);
// EXTERNAL MODULE: ./src/service/client.ts
var client = __webpack_require__(9224);
// EXTERNAL MODULE: ./src/service/retry.ts
var retry = __webpack_require__(5585);
;// CONCATENATED MODULE: ./src/service/agent-api.ts





/** The states that end a wait (spec 3.1). */
const AGENT_TERMINAL = new Set(['completed', 'archived', 'failed']);
const AGENT_KNOWN = new Set(['active', 'completed', 'archived', 'failed']);
/** The reference's limit on creating jobs, and apart from it on sending messages: uses per project and hour. */
const USES_PER_HOUR = 100;
/** What a 429 of each limited operation says: which limit of the reference's is reached. */
function rateLimit(operation, projectId) {
    return (`the service's limit on ${operation}, ${USES_PER_HOUR} uses an hour per project, ` +
        `is reached for project ${projectId}`);
}
/**
 * What a 404 or 405 to a create means: the reference has the operation, so the project is unknown
 * or the request went to something other than the admin API.
 */
const CREATE_REFUSED = {
    404: "the service knows no such project. Check `project-id` (the API keys page of the organization's settings shows " +
        "it), and that `base-url` leads to the service's admin API.",
    405: "the address does not take this request, though the service's admin API creates jobs with " +
        '`POST /v2/agent/{projectId}/job`. ' +
        'Check that `base-url` leads to the admin API, not to a proxy or another service.'
};
/** The agent operations (get, message and create) with their failures explained for a user. */
class AgentApi {
    client;
    now;
    constructor(client, 
    /** Wall time, to say when a rate limit ends. */
    now) {
        this.client = client;
        this.now = now;
    }
    /** Reads the job as it is (spec 4.1: no field is required). */
    async read(projectId, jobId, deadline) {
        return readAgentJob(await this.readAnswer(projectId, jobId, deadline));
    }
    /** Reads the job for following it: an answer without a `status` gives nothing to follow (see statusMissing). */
    async get(projectId, jobId, deadline) {
        const answer = await this.readAnswer(projectId, jobId, deadline);
        const job = readAgentJob(answer);
        if (job.status === undefined)
            throw (0,service_answer/* statusMissing */.pS)(answer, `read agent job ${jobId}`);
        return { ...job, status: job.status };
    }
    readAnswer(projectId, jobId, deadline) {
        return this.call({ method: 'GET', path: jobPath(projectId, jobId), kind: 'idempotent', what: `read agent job ${jobId}`, deadline }, { projectId, jobId });
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
        }, { projectId, jobId, rateLimit: rateLimit('sending messages', projectId) });
        return readAgentJob(body);
    }
    /**
     * Creates a job: `POST /v2/agent/{projectId}/job` with `{prompt}`, 201 with the job (the
     * reference's "Create agent job"); its answer is read as loosely as the others.
     */
    async create(projectId, prompt, deadline) {
        const what = `create an agent job in project ${projectId}`;
        const body = await this.call({ method: 'POST', path: `/v2/agent/${(0,path_segment/* segment */.m)(projectId)}/job`, body: { prompt }, kind: 'once', what, deadline }, { projectId, rateLimit: rateLimit('creating agent jobs', projectId) });
        const job = readAgentJob(body);
        if (job.id === undefined) {
            throw new errors/* ActionError */.lZ(`The service accepted the request to ${what} but its answer carries no usable job \`id\` (none, blank, ` +
                `or with control characters or a workflow command mark), so the job cannot be followed. Look the job up ` +
                `on the dashboard; do not rerun blindly (it would create a second job).`);
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
            if (error.status === 404 && about.jobId !== undefined) {
                throw new errors/* ActionError */.lZ(`Agent job ${about.jobId} in project ${about.projectId} was not found (HTTP 404${said}). Check ` +
                    `\`job-id\` and \`project-id\`.`, { cause: error });
            }
            if ((error.status === 404 || error.status === 405) && about.jobId === undefined)
                throw new errors/* ActionError */.lZ(`Could not ${request.what} (HTTP ${error.status}${said}): ${CREATE_REFUSED[error.status]}`, {
                    cause: error
                });
            if (error.status === 429 && about.rateLimit !== undefined)
                throw this.rateLimited(request.what, about.rateLimit, error, said);
            if (request.kind === 'once' && about.jobId !== undefined && error.mayHaveBeenProcessed) {
                throw error.withMessage(`${error.message} Read the job with \`operation: agent-status\` (job-id ${about.jobId}) before sending ` +
                    `the message again.`);
            }
            throw error;
        }
    }
    rateLimited(what, limit, error, said) {
        const now = this.now();
        const waitMs = (0,retry/* askedWaitOf */.nU)(error.failure, now);
        const end = waitMs === undefined ? undefined : (0,retry/* describeWaitEnd */.Wx)(waitMs, now);
        const when = end === undefined
            ? 'The service did not say when to try again; try again later.'
            : `Try again after ${end.at} (in ${end.after}).`;
        const why = error.stoppedByDeadline ? ' Waiting for it would pass `timeout`, so it was not tried again.' : '';
        return new errors/* ActionError */.lZ(`Could not ${what}: ${limit} (HTTP 429${said}).${why} ${when}`, { cause: error });
    }
}
function jobPath(projectId, jobId) {
    return `/v2/agent/${(0,path_segment/* segment */.m)(projectId)}/job/${(0,path_segment/* segment */.m)(jobId)}`;
}
/**
 * Reads an AgentJob from an answer. Tolerates a wrapper (`{"job": {...}}` or `{"data": {...}}`),
 * snake_case names, a `jobId` instead of `id`, and `source` given as the repository address.
 */
function readAgentJob(body) {
    let value = (0,service_answer/* asObject */.eB)(body);
    for (const key of ['job', 'data']) {
        const inner = (0,service_answer/* asObject */.eB)(value[key]);
        if (!('id' in value) && !('status' in value) && ('id' in inner || 'status' in inner))
            value = inner;
    }
    const source = value.source;
    const sourceFields = (0,service_answer/* asObject */.eB)(source);
    return {
        id: (0,service_answer/* plain */.pj)(value.id) ?? (0,service_answer/* plain */.pj)(value.jobId) ?? (0,service_answer/* plain */.pj)(value.job_id),
        status: (0,service_answer/* text */.Qq)(value.status),
        model: (0,service_answer/* text */.Qq)(value.model),
        sourceRepository: (typeof source === 'string' ? (0,service_answer/* text */.Qq)(source) : undefined) ??
            (0,service_answer/* text */.Qq)(sourceFields.repository) ??
            (0,service_answer/* text */.Qq)(value.repository),
        sourceRef: (0,service_answer/* text */.Qq)(sourceFields.ref) ?? (0,service_answer/* text */.Qq)(sourceFields.branch),
        prLink: (0,service_answer/* normalisedHttpLink */.Hq)(value.prLink ?? value.pr_link ?? value.prUrl),
        createdAt: time(value.createdAt ?? value.created_at),
        archivedAt: time(value.archivedAt ?? value.archived_at),
        error: (0,service_answer/* text */.Qq)(value.error) ?? (0,service_answer/* text */.Qq)(value.errorMessage)
    };
}
/** Text as the service gave it (ISO 8601 per the spec); epoch seconds/milliseconds as ISO 8601. */
function time(value) {
    if (typeof value === 'number')
        return (0,service_answer/* timestamp */.vE)(value)?.toISOString();
    return (0,service_answer/* text */.Qq)(value);
}
/**
 * Whether a failed message was refused because the job takes no more messages: a 409 (the job's
 * state conflicts with it) or a 410 (the job is gone for messages). Other refusals (400, 413,
 * 422, ...) are about the message itself. The job's own status says whether it ended (see
 * agent-flow.ts).
 */
function refusesMessages(error) {
    const status = error instanceof client/* ServiceError */._7 ? error.status : undefined;
    return status === 409 || status === 410;
}

// EXTERNAL MODULE: ./src/common/units.ts
var units = __webpack_require__(8570);
// EXTERNAL MODULE: ./src/github/markers.ts
var markers = __webpack_require__(3400);
// EXTERNAL MODULE: ./src/github/calls.ts
var calls = __webpack_require__(4342);
// EXTERNAL MODULE: ./src/github/our-comments.ts
var our_comments = __webpack_require__(6940);
;// CONCATENATED MODULE: ./src/agent/job-record.ts
/**
 * The memory of a pull request: one comment, written by the action, that says which agent job
 * opened it and how to steer it, with the job in a hidden marker. A later comment on the pull
 * request reaches the same job with no state outside GitHub. Only comments written by a bot (or by
 * the token's own user, for a personal access token) count as records, so nobody can point a
 * conversation at another job by writing the marker by hand;
 * and only records of the workflow's own `project-id`, with ids that are plain path segments, so
 * that a record another bot was made to post can at most name another job of that project.
 */





function recordBody(job, command) {
    return [
        `<!-- docs-admin-action:agent-job project=${encodeURIComponent(job.projectId)} ` +
            `job=${encodeURIComponent(job.jobId)} -->`,
        `🤖 Docs agent job ${(0,common_text/* commentCode */.ph)(job.jobId)} opened this pull request.`,
        '',
        `To steer it, comment \`${command} <instruction>\` here: the instruction goes to the same job, and a reply ` +
            `shows its progress.`
    ].join('\n');
}
/**
 * The jobs recorded in a conversation, oldest first: markers in comments of trusted authors only
 * (by default bots), with ids that can be path segments as they are.
 */
function recordedJobs(comments, trusted = our_comments/* BY_A_BOT */.I) {
    const jobs = [];
    for (const comment of comments) {
        if (!trusted(comment.author))
            continue;
        const match = markers/* RECORD_MARKER */.bW.exec(comment.body);
        if (match === null)
            continue;
        try {
            jobs.push({ projectId: decodeURIComponent(match[1] ?? ''), jobId: decodeURIComponent(match[2] ?? '') });
        }
        catch {
            // A malformed marker is no record.
        }
    }
    return jobs.filter((job) => (0,path_segment/* isPlainSegment */.k)(job.projectId) && (0,path_segment/* isPlainSegment */.k)(job.jobId));
}
/** `https://github.com/acme/docs/pull/12` on the server `https://github.com`: acme/docs #12. */
function parsePullRequestLink(link, serverUrl) {
    let url;
    let server;
    try {
        url = new URL(link);
        server = new URL(serverUrl);
    }
    catch {
        return undefined;
    }
    const base = server.pathname.replace(/\/+$/, '');
    if (url.origin !== server.origin || !url.pathname.startsWith(`${base}/`))
        return undefined;
    const match = /^\/([^/]+)\/([^/]+)\/pull\/(\d+)(?:\/.*)?$/.exec(url.pathname.slice(base.length));
    if (match === null)
        return undefined;
    const owner = pathName(match[1] ?? '');
    const repo = pathName(match[2] ?? '');
    return owner === undefined || repo === undefined
        ? undefined
        : { repository: { owner, repo }, number: Number(match[3]) };
}
/**
 * A segment of a link's path as the name it stands for; undefined when it names nothing: a broken
 * escape (`acme%zz`, which decodeURIComponent throws on) or a name that is no single segment.
 */
function pathName(segment) {
    try {
        const name = decodeURIComponent(segment);
        return (0,path_segment/* isPlainSegment */.k)(name) ? name : undefined;
    }
    catch {
        return undefined;
    }
}
class JobRecords {
    github;
    context;
    command;
    home;
    projectId;
    ours;
    /** `job@pull request` keys handled by this run: each is looked at once. */
    noted = new Set();
    /** The records' writes, one after the other (see Serial). */
    writes = new calls/* Serial */.l();
    constructor(github, context, 
    /** The comment command the record tells people to use. */
    command, 
    /** The workflow's own repository, for the hint when a record cannot be written elsewhere. */
    home, 
    /** `project-id`: records of other projects are not this workflow's to steer. */
    projectId, ours) {
        this.github = github;
        this.context = context;
        this.command = command;
        this.home = home;
        this.projectId = projectId;
        this.ours = ours;
    }
    /**
     * The job of the pull request's most recent record of this project; undefined when it has none.
     * Throws when its comments cannot be read.
     */
    async latest(pull) {
        const comments = await (0,calls/* readGitHub */.kQ)(this.context, (signal) => this.github.listIssueComments(pull.repository, pull.number, signal), calls/* LISTING_TIMEOUT_MS */.Wu);
        const recorded = recordedJobs(comments, await this.ours.authors(comments, markers/* RECORD_MARKER */.bW, 'needed'));
        const latest = recorded.at(-1);
        if (latest !== undefined && latest.projectId !== this.projectId) {
            this.context.host.log.warning(`Pull request #${pull.number} records agent job ${latest.jobId} of project ${latest.projectId}, not of ` +
                `\`project-id\` (${this.projectId}): that record is not used.`);
        }
        return recorded.filter((job) => job.projectId === this.projectId).at(-1);
    }
    /** Records `job` on the pull request it opened, unless it is recorded there already. Best-effort. */
    async note(job, pull) {
        await this.writes.now(() => this.noteNow(job, pull));
    }
    /** As note(), without waiting for it (while the job is followed: GitHub must not cost it its wait). */
    noteSoon(job, pull) {
        this.writes.soon(() => this.noteNow(job, pull));
    }
    /** Waits for the records queued so far. */
    async settled() {
        await this.writes.settled();
    }
    async noteNow(job, pull) {
        const where = `${pull.repository.owner}/${pull.repository.repo}#${pull.number}`;
        const key = `${job.projectId}/${job.jobId}@${where}`;
        if (this.noted.has(key))
            return;
        this.noted.add(key);
        const hint = this.writeHint(pull.repository);
        const comments = await (0,calls/* tryGitHub */.d2)(this.context, `read the comments of ${where}`, (signal) => this.github.listIssueComments(pull.repository, pull.number, signal), hint, calls/* LISTING_TIMEOUT_MS */.Wu);
        if (comments === undefined)
            return;
        if (recordedJobs(comments, await this.ours.authors(comments, markers/* RECORD_MARKER */.bW, 'best-effort')).some((recorded) => recorded.jobId === job.jobId && recorded.projectId === job.projectId))
            return;
        const posted = await (0,calls/* tryGitHub */.d2)(this.context, `record agent job ${job.jobId} on ${where}`, (signal) => this.github.createIssueComment(pull.repository, pull.number, recordBody(job, this.command), signal), hint);
        if (posted !== undefined)
            this.context.host.log.info(`Recorded agent job ${job.jobId} on ${where}: a comment \`${this.command} ...\` there reaches it.`);
    }
    writeHint(repository) {
        const where = `${repository.owner}/${repository.repo}`;
        if (this.home === undefined || (this.home.owner === repository.owner && this.home.repo === repository.repo)) {
            return 'Check that `github-token` may write to pull requests (`permissions: pull-requests: write`).';
        }
        return (`The pull request is in ${where}, not in this workflow's repository: a token that may write to ${where}'s ` +
            `pull requests (a GitHub App's or a fine-grained token, passed as \`github-token\`) would record it there.`);
    }
}

// EXTERNAL MODULE: ./src/reply/comment-run.ts + 1 modules
var comment_run = __webpack_require__(1046);
// EXTERNAL MODULE: ./src/reply/job-reply.ts
var job_reply = __webpack_require__(1982);
;// CONCATENATED MODULE: ./src/agent/reply.ts




/**
 * The comment: the job, its status and the PR link, or the error. Every piece of text from the
 * service is made safe for a comment: secrets are cut out first (the log masks them, a comment
 * does not), then it shows as plain text: it pings nobody (@mentions are broken up), links
 * nothing, cannot close the code span or emphasis around it, holds no HTML (see commentText). The
 * one link is the address the service gave, normalised (see normalisedHttpLink), as an explicit
 * autolink.
 */
function progressText(facts, secrets) {
    const shown = withoutSecrets(facts, secrets);
    const job = shown.jobId === undefined ? 'The docs agent' : `Docs agent job ${(0,common_text/* commentCode */.ph)(shown.jobId)}`;
    const status = `**${(0,common_text/* commentPhrase */.pt)(shown.status ?? 'unknown')}**`;
    const prLink = shown.prLink === undefined || shown.prLink === '' ? undefined : `<${shown.prLink}>`;
    const after = shown.elapsedMs === undefined ? '' : ` after ${(0,units/* formatDuration */.a3)(shown.elapsedMs)}`;
    // Cut once the secrets are out (Secrets.cut): a cut through one would leave a part of it that nothing knows.
    const error = facts.error === undefined
        ? undefined
        : secrets.cut(facts.error, job_reply/* REPLY_ERROR_CHARS */.Cs, "(cut short: the run's log has more of it)");
    const lines = [];
    switch (shown.phase) {
        case 'failed':
            lines.push(shown.jobId === undefined
                ? '❌ The docs agent run failed.'
                : `❌ ${job}${shown.status ? ` (status ${status})` : ''}: the run failed${after}.`, '', 
            // The run's failure is ours, with code spans for the log; the service's text in it stays plain.
            (0,common_text/* commentMarkdown */.r)(error ?? ''));
            break;
        case 'cancelled':
            lines.push(shown.jobId === undefined
                ? '⏹️ The docs agent run was cancelled.'
                : `⏹️ ${job} (status ${status}): the run was cancelled${after}. The job may still be running: check it ` +
                    `with \`operation: agent-status\` and this job id.`);
            break;
        case 'asking':
            lines.push(shown.request === 'create'
                ? '⏳ Asking the docs service for a new agent job…'
                : `⏳ Sending the instruction to ${job.replace(/^D/, 'd')}…`);
            break;
        case 'picking-up':
            lines.push(`⏳ ${job} has the instruction and has not started on it yet (it still shows ${status}, as before).`);
            break;
        case 'working':
            lines.push(`⏳ ${job} is working on it (status ${status}).`);
            break;
        case 'handed-over':
            lines.push(`⏳ ${job} ${shown.request === 'create' ? 'was created' : 'has the message'} (status ${status}); this run ` +
                `does not wait for it to finish.`);
            break;
        case 'ended':
            lines.push(endLine(job, { ...shown, error }, status, prLink, after));
    }
    // A note is ours, written with code spans for the log: they stay code spans here.
    if (shown.note !== undefined)
        lines.push('', (0,common_text/* commentMarkdown */.r)(shown.note));
    if (shown.runUrl)
        lines.push('', `[Workflow run](${shown.runUrl})`);
    return lines.join('\n');
}
/**
 * `facts` with the secrets cut out of every text in it. Before any escaping, which changes how a
 * secret is spelled (`dsk_live_1` becomes `dsk\_live\_1`), so that redaction would no longer find it.
 */
function withoutSecrets(facts, secrets) {
    const clean = (text) => text === undefined ? undefined : secrets.redact(text);
    return {
        ...facts,
        jobId: clean(facts.jobId),
        status: clean(facts.status),
        prLink: clean(facts.prLink),
        // Cut as well as redacted, in progressText.
        error: undefined,
        note: clean(facts.note),
        runUrl: clean(facts.runUrl)
    };
}
/** `status` and `prLink`: the job's status and link as the comment shows them. */
function endLine(job, facts, status, prLink, after) {
    switch (facts.status) {
        case 'completed':
            return prLink
                ? `✅ ${job} is **completed**${after}. Pull request: ${prLink}`
                : `✅ ${job} is **completed**${after} with no file changes, so no pull request was opened.`;
        case 'archived':
            return `✅ ${job} is **archived**${after}.${prLink ? ` Pull request: ${prLink}` : ''}`;
        case 'failed':
            return `❌ ${job} **failed**${after}: ${(0,common_text/* commentText */.br)(facts.error ?? 'the service gave no reason')}`;
        default:
            return `ℹ️ ${job} is ${status}.${prLink ? ` Pull request: ${prLink}` : ''}`;
    }
}

// EXTERNAL MODULE: ./src/gate/trigger.ts
var gate_trigger = __webpack_require__(6519);
;// CONCATENATED MODULE: ./src/agent/conversation.ts








/**
 * Whether the job has shown that it took up what the run asked of it: anything but a message, or
 * a message whose job has shown a non-terminal status since (in its answer, or as an earlier
 * attempt saw). A message's answer and the first reads after it may still show the job's end
 * before the message (spec 3.1 leaves open when a message changes `status`).
 */
function tookUpAlready(reached) {
    const { status } = reached.job.answer;
    return reached.request !== 'message' || reached.seen || (status !== undefined && !AGENT_TERMINAL.has(status));
}
/**
 * What the run tells: the outputs, the job summary, the progress comment and the pull request's
 * record, each kept up to date as the job moves on.
 */
class Conversation {
    settings;
    context;
    progress;
    records;
    runUrl;
    outputs;
    serverUrl;
    /** Known once the service has answered. */
    reachedJob;
    /** The last answer whose status counts. */
    last;
    /**
     * The reply shows the job's end (or, without wait, the job as handed over): nothing edits it
     * after. Not the same as `last` being an end: an end is published before it is shown.
     */
    endShown = false;
    /** What the run is asking of the service, and of which job, before it answers. */
    asked;
    askedJobId;
    constructor(settings, context, progress, records, runUrl) {
        this.settings = settings;
        this.context = context;
        this.progress = progress;
        this.records = records;
        this.runUrl = runUrl;
        this.outputs = context.outputs;
        this.serverUrl = (0,gate_trigger/* serverUrlOf */.Gh)((name) => context.host.env(name));
    }
    /**
     * A request that creates something is about to go to the service: the reply says so, and its
     * marker says that it may have been processed from now on (what a rerun must know, whatever
     * happens next: a cancellation, a lost answer, a crash). Throws when GitHub does not take it:
     * the request is then not sent, since a rerun that found no such marker would send it again.
     */
    async asking(asked, job, at) {
        this.asked = asked;
        this.askedJobId = job?.jobId;
        if (this.progress?.advance({ kind: 'asking', asked, job, at }) === 'before-asking')
            await this.progress.record(this.text('asking', undefined, undefined));
    }
    /** `request`, noting in the reply's marker when the service surely did not act on it (a rerun then asks again). */
    async trackRefusal(request) {
        try {
            return await request;
        }
        catch (error) {
            if ((0,comment_run/* surelyNotTaken */.Le)(error))
                this.progress?.advance({ kind: 'refused' });
            throw error;
        }
    }
    /** The job has shown that it took up the message: a rerun need not wait for that again. */
    tookUp() {
        this.progress?.advance({ kind: 'took-up' });
    }
    /** The service answered: the job is known. What GitHub is told of it is not waited for. */
    reached(reached) {
        const { job } = reached;
        this.reachedJob = reached;
        this.outputs.set('job-id', job.jobId);
        // A message's answer may still show the job as it was before the message: its outcome
        // fields count only once the job took the message up, or when nothing more will be read.
        const takenUp = tookUpAlready(reached);
        this.progress?.advance({
            kind: 'answered',
            asked: reached.request,
            at: reached.askedAt,
            job: { projectId: job.projectId, jobId: job.jobId },
            seen: reached.request === 'message' && takenUp
        });
        const settled = !this.settings.wait || takenUp;
        this.publish(job.answer, settled);
        // Not waited for: the job is followed meanwhile (see RunReply.showSoon).
        if (this.settings.wait || reached.request !== 'read')
            this.progress?.showSoon(this.text(this.settings.wait ? (settled ? 'working' : 'picking-up') : 'handed-over', job.answer, undefined));
        this.noteRecordSoon(job.answer);
    }
    /**
     * A status answer while following the job; `settled` false: an end that may be from before the
     * message. What GitHub is told of it is not waited for.
     */
    seen(job, settled) {
        const changed = job.status !== this.last?.status;
        this.publish(job, settled);
        if (changed && !AGENT_TERMINAL.has(job.status))
            this.progress?.showSoon(this.text('working', job, undefined));
        this.noteRecordSoon(job);
    }
    /** The job's final state (or, without wait, as read): `failed` fails the step. */
    async ended(job, judged) {
        const { host, report } = this.context;
        const jobId = this.reachedJob?.job.jobId;
        if (!judged) {
            await this.show('handed-over', job);
            this.endShown = true;
            return;
        }
        // The end as the wait took it (one the wait believed after a while was not published as seen).
        this.publish(job, true);
        await this.show('ended', job);
        this.endShown = true;
        await this.noteRecord(job);
        if (job.status === 'failed')
            throw new errors/* ActionError */.lZ(`Agent job ${jobId} failed${job.error ? `: ${job.error}` : ' (the service gave no reason)'}.`);
        if (job.status === 'completed' && job.prLink !== undefined) {
            host.log.info(`Agent job ${jobId} completed; pull request: ${job.prLink}`);
            return;
        }
        const note = job.status === 'completed'
            ? `Agent job ${jobId} completed without a pull request (the agent made no file changes).`
            : job.status === 'archived'
                ? `Agent job ${jobId} is archived${job.archivedAt ? ` (since ${this.moment(job.archivedAt)})` : ''}.`
                : undefined;
        if (note === undefined)
            return;
        host.log.info(note);
        report.notes.push(note);
    }
    /** A time of the service's in UTC and from now (`2025-06-01 14:32:05 UTC (3 min ago)`), or as it gave it. */
    moment(value) {
        const at = (0,service_answer/* timestamp */.vE)(value);
        return at === undefined ? value : (0,units/* formatMoment */.K9)(at, this.context.clock.now());
    }
    /** Waits for what GitHub is being told (the reply's edits and the records not waited for). */
    async settled() {
        await Promise.all([this.progress?.settled(), this.records?.settled()]);
    }
    /** The run was cancelled: a reply still saying "working" says so instead. */
    async cancelled() {
        if (this.endShown)
            return;
        await this.progress?.cancelled(this.text('cancelled', this.last, undefined));
    }
    async failed(message) {
        // A job that failed said so in the reply already (ended()); an end only published, not yet
        // shown (a first answer that is already an end, then a read that fails), is not shown.
        if (this.endShown && this.last?.status === 'failed')
            return;
        await this.progress?.show(this.text('failed', this.last, message));
    }
    async show(phase, job) {
        await this.progress?.show(this.text(phase, job, phase === 'ended' ? job.error : undefined));
    }
    text(phase, job, error) {
        const ended = phase === 'ended' || phase === 'failed' || phase === 'cancelled';
        return progressText({
            jobId: this.reachedJob?.job.jobId ?? this.askedJobId,
            status: job?.status,
            prLink: job?.prLink,
            phase,
            request: this.reachedJob?.request ?? this.asked ?? 'read',
            error,
            note: this.reachedJob?.note,
            elapsedMs: ended ? this.jobTime(job) : undefined,
            runUrl: this.runUrl
        }, this.context.secrets);
    }
    /**
     * The time of what was asked, to now: a new job's from its `createdAt`, a message's from when it
     * was sent (by this attempt or an earlier one), so that a rerun's reply tells the job's time, not
     * the attempt's. Before the service answered, this run's.
     */
    jobTime(job) {
        const now = this.context.clock.now();
        const reached = this.reachedJob;
        if (reached === undefined)
            return now - this.context.startedAt;
        const created = reached.request === 'create' ? (0,service_answer/* timestamp */.vE)(job?.createdAt ?? reached.job.answer.createdAt) : undefined;
        const from = created?.getTime() ?? reached.askedAt;
        return from <= now ? now - from : now - this.context.startedAt;
    }
    /** Sets the outputs from an answer; `settled` false leaves status, pr-link and archived-at alone. */
    publish(job, settled) {
        const { outputs } = this;
        if (settled)
            this.last = job;
        if (job.model !== undefined)
            outputs.set('model', job.model);
        if (job.sourceRepository !== undefined)
            outputs.set('source-repository', job.sourceRepository);
        if (job.sourceRef !== undefined)
            outputs.set('source-ref', job.sourceRef);
        if (job.createdAt !== undefined)
            outputs.set('created-at', job.createdAt);
        if (!settled)
            return;
        if (job.status !== undefined)
            outputs.set('status', job.status);
        outputs.set('pr-link', job.prLink ?? '');
        outputs.set('pr-number', this.pullRequestOf(job)?.number ?? '');
        outputs.set('archived-at', job.archivedAt ?? '');
    }
    /** A pull request link on this GitHub server records the job there. */
    async noteRecord(answer) {
        const record = this.recordOf(answer);
        if (record !== undefined)
            await this.records?.note(record.job, record.pull);
    }
    /** As noteRecord, not waited for. */
    noteRecordSoon(answer) {
        const record = this.recordOf(answer);
        if (record !== undefined)
            this.records?.noteSoon(record.job, record.pull);
    }
    /** The job and the pull request on this GitHub server that `answer` links to, if it does. */
    recordOf(answer) {
        const pull = this.pullRequestOf(answer);
        const job = this.reachedJob?.job;
        return pull === undefined || job === undefined
            ? undefined
            : { job: { projectId: job.projectId, jobId: job.jobId }, pull };
    }
    pullRequestOf(job) {
        return job.prLink === undefined ? undefined : parsePullRequestLink(job.prLink, this.serverUrl);
    }
}

// EXTERNAL MODULE: ./src/reply/rerun-state.ts
var rerun_state = __webpack_require__(8918);
;// CONCATENATED MODULE: ./src/agent/agent-flow.ts
/**
 * Agent jobs: send an instruction to a job, create one, or read one, and (with `wait`) follow it
 * until it is `completed`, `archived` or `failed`. On a comment (which passed the gate, see
 * gate/comment-gate.ts) the run is a conversation: the command gets 👀 and one reply that follows
 * the job, and a pull request the agent opens records its job so that the next comment there
 * reaches the same job.
 */















/** How much of the prompt the job summary shows. */
const PROMPT_PREVIEW = 200;
/**
 * How long after a message a job may still show its earlier end before that end is believed (with
 * a warning): a job that took up the message shows `active` first (spec 3.1).
 */
const MESSAGE_PICKUP_MS = 60_000;
/** The command a record tells people to use when `comment-command` is not set. */
const DEFAULT_COMMAND = '/docs-agent';
async function runAgent(settings, client, context, entrance, run) {
    const { clock, host, outputs, report, deadline } = context;
    // A comment, if one started the run, has passed the gate (gate/comment-gate.ts).
    const { event, comment } = entrance;
    const home = comment?.repository ?? (0,gate_trigger/* repositoryOf */._M)(host.env('GITHUB_REPOSITORY'), {});
    // Only a comment can be skipped (see gate/): without one, `skipped` and `skip-reason` are not set.
    const github = await entrance.github();
    const ours = run?.ours ?? (github === undefined ? undefined : new our_comments/* OurComments */.x(github, context));
    const progress = run?.reply;
    const records = github === undefined || ours === undefined
        ? undefined
        : new JobRecords(github, context, settings.commentCommand ?? DEFAULT_COMMAND, home, settings.projectId, ours);
    const api = new AgentApi(client, () => clock.now());
    const conversation = new Conversation(settings, context, progress, records, comment?.runUrl);
    try {
        // 1. Which job, and what to ask of it: settled before any request to the service. A rerun of
        // the workflow run carries on from what an earlier attempt asked: asking again would send the
        // message twice or start a second job.
        // Without a reply to read that from, a rerun asks only for a read.
        const earlier = run?.reply === undefined ? undefined : await (0,comment_run/* earlierAttempt */.kT)(run, 'act on this comment');
        const request = resumedFrom(earlier, settings) ??
            (await plan(settings, {
                comment,
                eventName: event.name,
                subject: comment?.subject ?? (0,gate_trigger/* subjectOf */.et)(event, home),
                inline: await reviewInlineComments(settings, comment, github, context)
            }, records));
        if (run?.rerun === true && run.reply === undefined && request.kind !== 'read') {
            const asked = request.kind === 'create' ? 'create an agent job' : `send a message to agent job ${request.job.jobId}`;
            throw new errors/* ActionError */.lZ((0,rerun_state/* unaccountedRerun */.eR)(asked, run.noReply ?? 'no reply of the action is kept'));
        }
        if (request.kind !== 'read') {
            const { instruction } = request;
            report.rows.push(['Prompt', (0,common_text/* cutShort */.VV)(instruction, PROMPT_PREVIEW)]);
        }
        // 2. Reach the job.
        if (request.kind !== 'create')
            outputs.set('job-id', request.job.jobId);
        const reached = await reach(request, api, deadline, context, conversation);
        conversation.reached(reached);
        // 3. Follow it to its end, unless asked not to.
        let final = reached.job.answer;
        if (settings.wait) {
            const { jobId, projectId } = reached.job;
            let takenUp = tookUpAlready(reached);
            // The first window counts from when the message was sent, by this attempt or an earlier one.
            const pickupUntil = Math.min(reached.askedAt, clock.now()) + MESSAGE_PICKUP_MS;
            const followed = await host.log.group(`Wait for agent job ${jobId}`, () => (0,follow_job/* followJob */.B)({
                ...(0,service_job/* serviceJobBasics */.S)(settings, context),
                name: `Agent job ${jobId}`,
                check: () => api.get(projectId, jobId, deadline),
                // A first read without a status is the first of the few read past.
                failed: request.kind === 'read' && reached.read === undefined
                    ? [(0,service_answer/* statusMissing */.pS)(reached.job.answer, `read agent job ${jobId}`)]
                    : undefined,
                read: (job) => ({ status: job.status, summary: job.status }),
                terminal: AGENT_TERMINAL,
                known: AGENT_KNOWN,
                onValue: (job) => {
                    if (!takenUp && !AGENT_TERMINAL.has(job.status)) {
                        takenUp = true;
                        conversation.tookUp();
                    }
                    // An end that may be from before the message is not the job's outcome (yet).
                    conversation.seen(job, takenUp);
                },
                stale: { is: () => !takenUp, until: pickupUntil, what: 'the message' },
                // A read answer is the first check; a message's answer may still describe the job as
                // it was before the message, so only a status read counts.
                first: reached.read,
                checkFirst: false,
                resumeHint: `check it with \`operation: agent-status\` and \`job-id: ${jobId}\``
            }));
            final = followed.value;
        }
        else {
            if (reached.job.answer.status !== undefined)
                host.log.info(`Agent job ${reached.job.jobId}: ${reached.job.answer.status}.`);
            report.notes.push('Not waiting for the job (`wait: false`).');
        }
        // 4. Act on its end.
        await conversation.ended(final, settings.wait || reached.request === 'read');
    }
    catch (error) {
        if (context.signal.aborted || (0,errors/* isAbortError */.zf)(error))
            await conversation.cancelled();
        else
            await conversation.failed((0,errors/* errorMessage */.gJ)(error));
        throw error;
    }
    finally {
        // What GitHub was told without waiting (a record while the job ran) is done before the step ends.
        await conversation.settled();
    }
}
/**
 * What a rerun asks after the earlier attempt `earlier` (see carryOn): a read of the job it
 * follows, an ActionError when it may not ask again, undefined to plan as if new.
 */
function resumedFrom(earlier, settings) {
    const decision = (0,rerun_state/* carryOn */.R)(earlier, settings.projectId);
    if (decision.kind === 'refuse')
        throw new errors/* ActionError */.lZ(decision.message);
    return decision.kind === 'follow' ? { kind: 'read', job: decision.job, resumed: decision.resumed } : undefined;
}
/**
 * What to ask of which job. `agent` sends the instruction to the job recorded on the pull request
 * (or named by `job-id`), and creates a job anywhere else, with the issue or pull request as
 * context; if the job no longer takes messages, a new job gets the instruction and the link.
 */
async function plan(settings, trigger, records) {
    const { subject } = trigger;
    switch (settings.operation) {
        case 'agent-status':
            return { kind: 'read', job: await jobOf(settings.jobId, settings, subject, records) };
        case 'agent-message': {
            const instruction = (0,gate_trigger/* resolvePrompt */.Jq)(settings.prompt, trigger.comment, trigger.eventName, trigger.inline);
            return {
                kind: 'message',
                job: await jobOf(settings.jobId, settings, subject, records),
                instruction,
                ifRefused: undefined
            };
        }
        case 'agent-create': {
            const instruction = (0,gate_trigger/* resolvePrompt */.Jq)(settings.prompt, trigger.comment, trigger.eventName, trigger.inline);
            return { kind: 'create', projectId: settings.projectId, instruction, prompt: instruction };
        }
        case 'agent': {
            const text = (0,gate_trigger/* resolvePrompt */.Jq)(settings.prompt, trigger.comment, trigger.eventName, trigger.inline);
            const recorded = settings.jobId !== undefined
                ? { projectId: settings.projectId, jobId: settings.jobId }
                : subject?.isPullRequest && records !== undefined
                    ? await recordedOn(subject, records)
                    : undefined;
            if (recorded === undefined)
                return {
                    kind: 'create',
                    projectId: settings.projectId,
                    instruction: text,
                    prompt: (0,gate_trigger/* promptWithContext */.gC)(text, subject)
                };
            const earlier = subject?.isPullRequest
                ? `the pull request ${subject.url ?? `#${subject.number}`}, opened by docs agent job ${recorded.jobId}`
                : `docs agent job ${recorded.jobId}`;
            const ifRefused = `${text}\n\n---\nContext: this follows up on ${earlier}, which no longer takes messages.`;
            return { kind: 'message', job: recorded, instruction: text, ifRefused };
        }
    }
}
/**
 * A submitted review's inline comments, when its instruction comes from it: one page of them
 * (REVIEW_COMMENTS_READ). Throws when they cannot be read: an instruction without them is not the
 * one the reviewer gave.
 */
async function reviewInlineComments(settings, comment, github, context) {
    if (comment?.kind !== 'review' || settings.operation === 'agent-status' || settings.prompt.from !== 'comment')
        return [];
    const { repository, subject } = comment;
    if (github === undefined || repository === undefined || subject === undefined)
        return [];
    try {
        return await (0,calls/* readGitHub */.kQ)(context, (signal) => github.listReviewInlineComments(repository, subject.number, comment.id, gate_trigger/* REVIEW_COMMENTS_READ */.fz, signal));
    }
    catch (error) {
        if (!(error instanceof host/* GitHubApiError */.O))
            throw error;
        throw new errors/* ActionError */.lZ(`Could not read the comments of review ${comment.id} on #${subject.number} ` +
            `(${(0,calls/* describeGitHubError */.dZ)(error, calls/* READ_PERMISSION_HINT */.JJ)}), so nothing was sent to the docs service: the ` +
            'instruction would lack them. Rerun the workflow once GitHub answers.');
    }
}
/** The job `job-id` names, or the one recorded on the pull request commented on. */
async function jobOf(source, settings, subject, records) {
    if (source.from === 'input')
        return { projectId: settings.projectId, jobId: source.id };
    const fix = 'Set `job-id`, or create the job with this action (`operation: agent` or `agent-create`), which records it ' +
        'on the pull request it opens.';
    if (subject === undefined || !subject.isPullRequest) {
        throw new errors/* ActionError */.lZ(`\`${settings.operation}\` has no \`job-id\` and the comment is not on a pull request, so there is no ` +
            `recorded job to use. ${fix}`);
    }
    if (records === undefined)
        throw new errors/* ActionError */.lZ(`\`${settings.operation}\` has no \`job-id\`, and without \`github-token\` the job recorded on pull ` +
            `request #${subject.number} cannot be read. ${fix}`);
    const recorded = await recordedOn(subject, records);
    if (recorded === undefined) {
        throw new errors/* ActionError */.lZ(`No agent job is recorded on pull request #${subject.number}, so \`${settings.operation}\` has no job to ` +
            `use (it was not opened by an agent job of this action). ${fix}`);
    }
    return recorded;
}
async function recordedOn(subject, records) {
    try {
        const job = await records.latest({ repository: subject.repository, number: subject.number });
        return job === undefined ? undefined : { ...job, recordedOn: subject.number };
    }
    catch (error) {
        if (!(error instanceof host/* GitHubApiError */.O))
            throw error;
        throw new errors/* ActionError */.lZ(`Could not read the comments of pull request #${subject.number} to find the agent job recorded there ` +
            `(${(0,calls/* describeGitHubError */.dZ)(error, calls/* READ_PERMISSION_HINT */.JJ)}); nothing was sent to the docs service. Rerun the ` +
            `workflow, or set \`job-id\`.`);
    }
}
/**
 * A 404 for the job a pull request's record names: the record is out of date (the service no
 * longer has that job), not `job-id`, which AgentApi's message says to check and nobody set.
 */
function notFoundOnRecord(error, job) {
    const answer = error?.cause;
    if (job.recordedOn === undefined || !(answer instanceof client/* ServiceError */._7) || answer.status !== 404)
        return error;
    const said = answer.serviceError ? `: the service said "${answer.serviceError}"` : '';
    return new errors/* ActionError */.lZ(`Agent job ${job.jobId}, which pull request #${job.recordedOn} records, was not found in project ` +
        `${job.projectId} (HTTP 404${said}): the service no longer has it. Set \`job-id\` to use another job, or ` +
        `comment the command on an issue to create a new one.`, { cause: answer });
}
/** What a rerun says of what its earlier attempt asked of job `jobId`, which it follows instead of asking again. */
function resumedNote(resumed, jobId) {
    if (resumed.asked === 'message' && !resumed.answered) {
        // Its marker was written before the message went out: the attempt may have stopped before it did.
        return (`An earlier attempt of this workflow run may have sent the instruction to agent job \`${jobId}\` (it got no ` +
            `clear answer, or stopped before sending it): this attempt follows the job instead of sending it again. If ` +
            `the job does not act on the instruction, comment the command again.`);
    }
    const did = resumed.asked === 'read' ? 'read' : resumed.asked === 'create' ? 'created' : 'sent the instruction to';
    return (`An earlier attempt of this workflow run ${did} agent job \`${jobId}\`: this attempt follows it instead of ` +
        `asking the service again.`);
}
/** Reads the job, sends it the message (a job that takes no more: a new one gets it), or creates it. */
async function reach(request, api, deadline, context, conversation) {
    const { log } = context.host;
    const askedAt = context.clock.now();
    switch (request.kind) {
        case 'read': {
            const { resumed } = request;
            const note = resumed === undefined ? undefined : resumedNote(resumed, request.job.jobId);
            if (note !== undefined) {
                // A message with no clear answer may never have reached the job: said as a warning, not as done.
                if (resumed?.answered === false)
                    log.warning(note);
                else
                    log.info(note);
                context.report.notes.push(note);
            }
            // A resumed run is what the earlier attempt asked, from when it asked (its message's end may be stale).
            const asked = { request: resumed?.asked ?? 'read', askedAt: resumed?.at ?? askedAt, seen: resumed?.seen ?? false };
            // Read as it is: a job without a `status` is still a job, shown so (following it reads again).
            const answer = await api.read(request.job.projectId, request.job.jobId, deadline).catch((error) => {
                throw notFoundOnRecord(error, request.job);
            });
            return {
                job: { ...request.job, answer },
                ...asked,
                read: answer.status === undefined ? undefined : { ...answer, status: answer.status },
                note
            };
        }
        case 'create':
            return {
                job: await create(request.projectId, request.prompt, api, deadline, context, conversation),
                request: 'create',
                askedAt,
                seen: false,
                read: undefined,
                note: undefined
            };
        case 'message': {
            const { projectId, jobId } = request.job;
            await conversation.asking('message', request.job, askedAt);
            try {
                const answer = await log.group(`Send the message to agent job ${jobId}`, async () => {
                    const sent = await conversation.trackRefusal(api.message(projectId, jobId, request.instruction, deadline));
                    log.info(`Agent job ${jobId} accepted the message.`);
                    return sent;
                });
                return {
                    job: { ...request.job, answer },
                    request: 'message',
                    askedAt,
                    seen: false,
                    read: undefined,
                    note: undefined
                };
            }
            catch (error) {
                if (request.ifRefused === undefined || !refusesMessages(error))
                    throw notFoundOnRecord(error, request.job);
                // Refused as the job takes no more messages (409, 410): a job that has ended for good gets
                // a successor with the instruction; one still going fails with the service's reason. A new
                // job is work that cannot be taken back. Read as it is: a job that does not say its status
                // has not said it ended.
                const now = await api.read(projectId, jobId, deadline);
                if (now.status === undefined || !AGENT_TERMINAL.has(now.status))
                    throw error;
                const why = error.serviceError ?? `HTTP ${error.status}`;
                const note = `Agent job \`${jobId}\` no longer takes messages (it is ${now.status}: ${why}), so a new job got this ` +
                    `instruction.`;
                log.warning(note);
                return {
                    job: await create(projectId, request.ifRefused, api, deadline, context, conversation),
                    request: 'create',
                    askedAt,
                    seen: false,
                    read: undefined,
                    note
                };
            }
        }
    }
}
async function create(projectId, prompt, api, deadline, context, conversation) {
    const { log } = context.host;
    await conversation.asking('create', undefined, context.clock.now());
    return log.group(`Create an agent job in project ${projectId}`, async () => {
        const created = await conversation.trackRefusal(api.create(projectId, prompt, deadline));
        log.info(`Created agent job ${created.id} in project ${projectId}.`);
        return { projectId, jobId: created.id, answer: created };
    });
}


/***/ }),

/***/ 7954:
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
 * When to ask for a job's status next. Pure. A job may end at any moment (a failure is never
 * announced), so the rule is one: its end is noticed within 15% of the time it has been followed.
 * The wait is that 15%, at least `initialIntervalMs` (`poll-interval`: fewer requests early on)
 * and at most `maxIntervalMs` (`max-poll-interval`). Jitter spreads the checks of runners started
 * together by up to 10% either way, never below `initialIntervalMs` nor past the 15%. An end is
 * so noticed within max(initialIntervalMs, 15% of the time followed), with at most one request
 * per initialIntervalMs. The service's `Retry-After` and the step's deadline are the follower's.
 */
/** The share of the time followed a wait may be: the bound on noticing an end late. */
const LAG_SHARE = 0.15;
/** How far jitter moves a wait either way, as a share of it. */
const JITTER = 0.1;
/** The wait before the next check, after following a job for `followedMs`; `random` in [0, 1). */
function nextPollDelay(followedMs, settings, random) {
    const lagBound = Math.max(settings.initialIntervalMs, LAG_SHARE * followedMs);
    const wait = Math.min(settings.maxIntervalMs, lagBound) * (1 + JITTER * (2 * random() - 1));
    return Math.min(lagBound, Math.max(settings.initialIntervalMs, wait));
}

;// CONCATENATED MODULE: ./src/follow/wait-log.ts
/** The longest the follow leaves the log without a line. The promise is a line at least every 60 s. */
const QUIET_MS = 55_000;
class WaitLog {
    log;
    clock;
    lastLineAt;
    ended = new AbortController();
    /** Starts the heartbeat: `where()` is its line, one that the next such line supersedes. */
    constructor(log, clock, where) {
        this.log = log;
        this.clock = clock;
        this.lastLineAt = clock.now();
        void this.beat(where);
    }
    info(line) {
        this.log.info(line);
        this.lastLineAt = this.clock.now();
    }
    warning(line) {
        this.log.warning(line);
        this.lastLineAt = this.clock.now();
    }
    /** Ends the heartbeat: the follow is over (its timer would keep the process alive). */
    stop() {
        this.ended.abort();
    }
    async beat(where) {
        for (;;) {
            try {
                await this.clock.sleep(this.lastLineAt + QUIET_MS - this.clock.now(), this.ended.signal);
            }
            catch {
                return;
            }
            const now = this.clock.now();
            if (now < this.lastLineAt + QUIET_MS)
                continue;
            this.log.progress(where());
            this.lastLineAt = now;
        }
    }
}

;// CONCATENATED MODULE: ./src/follow/follow-job.ts
/**
 * Following a job until it ends, for export and agent jobs and deployments alike: check, read,
 * report, sleep. The status request, the clock and the cancellation signal are handed in, so tests
 * and the benchmark run it on a virtual clock; when to check next is schedule.ts's pure decision,
 * and wait-log.ts keeps the log from going quiet, in the sleeps and in a slow status request.
 */





/**
 * Checks until the job reaches a terminal status, and resolves with that answer. Logs one line per
 * change (with when the next check comes), a line whenever the log would otherwise stay quiet for a
 * minute, and warns once per unknown status. It never gives up early: a wait that would pass the
 * deadline is cut short to check once more at the deadline; after that, it fails with an
 * TimeoutError that names the job, its last status and how to pick it up again. A check that
 * fails with a passing outage (see isPassing) is warned about and made again at the next interval,
 * as long as time is left. Rejects with CancelledError as soon as `signal` fires, and with any other
 * failure of `check`.
 */
async function followJob(options) {
    const { clock, signal, name, startedAt } = options;
    const deadline = startedAt + options.timeoutMs;
    const schedule = { initialIntervalMs: options.initialIntervalMs, maxIntervalMs: options.maxIntervalMs };
    const followedFrom = clock.now();
    const nextDelay = (now) => nextPollDelay(now - followedFrom, schedule, () => clock.random());
    const warned = new Set();
    let lastSummary;
    let polls = 0;
    /** Checks failed since the last answer (see isPassing). */
    let failed = [...(options.failed ?? [])];
    /** When the status request under way was sent, or when the next one is due: what the heartbeat says. */
    let asking = { next: clock.now() };
    const elapsed = () => (0,units/* formatDuration */.a3)(clock.now() - startedAt);
    /** Where the follow stands, for the heartbeat's line. */
    const standing = () => {
        const now = clock.now();
        const doing = 'since' in asking
            ? `its status request has waited ${(0,units/* formatDuration */.a3)(now - asking.since)} for an answer`
            : `next check in ${(0,units/* formatDuration */.a3)(Math.max(0, asking.next - now))}`;
        const seen = lastSummary === undefined ? 'not checked yet' : `still ${lastSummary}`;
        return `${name}: ${seen} after ${elapsed()}; ${doing}.`;
    };
    const log = new WaitLog(options.log, clock, standing);
    const sleepAtMost = async (ms) => {
        const wait = Math.max(0, Math.min(ms, deadline - clock.now()));
        asking = { next: clock.now() + wait };
        await clock.sleep(wait, signal);
    };
    /** One status request, the heartbeat saying it is under way. */
    const check = async () => {
        asking = { since: clock.now() };
        return (0,cancellation/* untilCancelled */.c8)(options.check(), signal);
    };
    // The heartbeat runs until the follow ends, however it ends.
    try {
        /** The timeout's failure: what was last seen, the read that failed at the end if one did, and how to go on. */
        const timedOut = (failedRead) => {
            const seen = lastSummary === undefined ? 'no status read yet' : `last seen ${lastSummary}`;
            const read = failedRead === undefined ? '' : `; the last status request failed (${(0,errors/* errorMessage */.gJ)(failedRead)})`;
            return new errors/* TimeoutError */.MU(`${name} did not finish within \`timeout\` (${(0,units/* formatDuration */.a3)(options.timeoutMs)}): ${seen}${read}, after ` +
                `waiting ${elapsed()}. ` +
                `The job may still finish: ${options.resumeHint}.`, failedRead === undefined ? undefined : { cause: failedRead });
        };
        (0,errors/* throwIfCancelled */.dZ)(signal);
        const staleUntil = options.stale === undefined ? -Infinity : Math.min(options.stale.until, deadline);
        let value = options.first;
        // The read that gave it was a status request too.
        if (value !== undefined)
            polls++;
        if (value === undefined && !options.checkFirst)
            await sleepAtMost(options.initialIntervalMs);
        for (;;) {
            if (value === undefined) {
                polls++;
                try {
                    value = await check();
                    failed = [];
                }
                catch (error) {
                    if (signal?.aborted)
                        throw error;
                    const passing = options.isPassing?.(error, failed) === true;
                    failed.push(error);
                    // Out of time (the deadline cut the read short, or left no time to try again), or at the
                    // deadline with a read that would have been made again: the timeout's own message, with
                    // what was last seen and how to go on. Any other failure is its own.
                    if (options.isOutOfTime?.(error) === true || (passing && clock.now() >= deadline))
                        throw timedOut(error);
                    if (!passing)
                        throw error;
                    // The job goes on without us: a long wait should not end on a short outage, but the
                    // service's own word on when to ask again is kept, also when `timeout` does not leave it.
                    const asked = options.askedWait?.(error, clock.now());
                    if (asked !== undefined && clock.now() + asked > deadline)
                        throw timedOut(error);
                    const delay = Math.max(asked ?? 0, nextDelay(clock.now()));
                    const next = (0,units/* formatDuration */.a3)(Math.min(delay, deadline - clock.now()));
                    log.warning(`${name}: could not read its status (${(0,errors/* errorMessage */.gJ)(error)}); still waiting, checking again in ${next}.`);
                    await sleepAtMost(delay);
                    continue;
                }
            }
            const reading = options.read(value);
            const now = clock.now();
            if (!options.known.has(reading.status) && !warned.has(reading.status)) {
                warned.add(reading.status);
                log.warning(`${name} reports the unknown status \`${reading.status}\`; treating it as still running.`);
            }
            const terminal = options.terminal.has(reading.status);
            // Decided before the change line, which says when the next check comes (unless it may be the end).
            const delay = nextDelay(now);
            if (reading.summary !== lastSummary) {
                const next = terminal || now >= deadline ? '' : `; next check in ${(0,units/* formatDuration */.a3)(Math.min(delay, deadline - now))}`;
                log.info(`${name}: ${reading.summary} after ${elapsed()}${next}.`);
                lastSummary = reading.summary;
            }
            await options.onValue?.(value);
            const stale = terminal && options.stale?.is(value) === true;
            if (terminal && (!stale || now >= staleUntil)) {
                if (stale) {
                    log.warning(`${name} still shows \`${reading.status}\` as it did before ${options.stale?.what}, ${elapsed()} ` +
                        `later: taken as its end, though the service may not have taken it up yet.`);
                }
                log.info(`${name} ended \`${reading.status}\` after ${elapsed()} and ${polls} status requests.`);
                return { value, polls };
            }
            if (now >= deadline)
                throw timedOut();
            // A stale end is checked again no later than when it would be taken.
            await sleepAtMost(stale ? Math.min(delay, staleUntil - now) : delay);
            value = undefined;
        }
    }
    finally {
        log.stop();
    }
}


/***/ }),

/***/ 1652:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   S: () => (/* binding */ serviceJobBasics)
/* harmony export */ });
/* harmony import */ var _service_client_js__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(9224);

function serviceJobBasics(settings, context) {
    return {
        isPassing: _service_client_js__WEBPACK_IMPORTED_MODULE_0__/* .isPassingOutage */ .vy,
        isOutOfTime: _service_client_js__WEBPACK_IMPORTED_MODULE_0__/* .isOutOfTime */ .bK,
        askedWait: _service_client_js__WEBPACK_IMPORTED_MODULE_0__/* .askedWait */ .Uy,
        initialIntervalMs: settings.pollIntervalMs,
        maxIntervalMs: settings.maxPollIntervalMs,
        startedAt: context.startedAt,
        timeoutMs: settings.timeoutMs,
        clock: context.clock,
        log: context.host.log,
        signal: context.signal
    };
}


/***/ })

};
