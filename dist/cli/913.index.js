export const id = 913;
export const ids = [913];
export const modules = {

/***/ 913:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {


// EXPORTS
__webpack_require__.d(__webpack_exports__, {
  runDeploy: () => (/* binding */ runDeploy)
});

// EXTERNAL MODULE: ./src/follow/service-job.ts
var service_job = __webpack_require__(1652);
// EXTERNAL MODULE: ./src/common/errors.ts
var errors = __webpack_require__(1922);
// EXTERNAL MODULE: ./src/common/text.ts
var common_text = __webpack_require__(2450);
// EXTERNAL MODULE: ./src/common/units.ts
var units = __webpack_require__(8570);
// EXTERNAL MODULE: ./src/follow/follow-job.ts + 2 modules
var follow_job = __webpack_require__(7954);
// EXTERNAL MODULE: ./src/reply/comment-run.ts + 1 modules
var comment_run = __webpack_require__(1046);
// EXTERNAL MODULE: ./src/common/path-segment.ts
var path_segment = __webpack_require__(2650);
// EXTERNAL MODULE: ./src/service/answer.ts
var service_answer = __webpack_require__(885);
// EXTERNAL MODULE: ./src/service/client.ts
var client = __webpack_require__(9224);
;// CONCATENATED MODULE: ./src/service/deploy-api.ts
/**
 * Deployments of a project's deployment branch: trigger one, read its status (the reference's
 * "Trigger deployment" and "Get update status"). Answers are read defensively, every text made
 * safe for a log line where it enters, but not cut: the flow takes the API key out first.
 */





const DEPLOY_TERMINAL = new Set(['success', 'failure']);
const DEPLOY_KNOWN = new Set(['queued', 'in_progress', 'success', 'failure']);
/** What to do instead of triggering again a deployment that may be under way. */
const FIND_AND_FOLLOW = 'Find its status id on the dashboard and follow it with `operation: deploy` and `job-id: <its status id>`.';
/** What to do after a trigger that may have been processed: follow that deployment rather than start another. */
const FOLLOW_UP = "If it was, a deployment of the project's deployment branch is under way: find its status id on the dashboard " +
    'and follow it with `operation: deploy` and `job-id: <its status id>` rather than triggering another.';
class DeployApi {
    client;
    constructor(client) {
        this.client = client;
    }
    /**
     * Triggers a deployment and resolves with its status id. Sent at most once unless the service
     * surely did not receive it: a second trigger would queue a second deployment.
     */
    async trigger(projectId, deadline) {
        const what = `trigger a deployment of project ${projectId}`;
        let answer;
        try {
            answer = await this.client.request({
                method: 'POST',
                path: `/v1/project/update/${(0,path_segment/* segment */.m)(projectId)}`,
                kind: 'once',
                what,
                deadline
            });
        }
        catch (error) {
            if (!(error instanceof client/* ServiceError */._7))
                throw error;
            if (error.mayHaveBeenProcessed)
                throw error.withMessage(`${error.message} ${FOLLOW_UP}`);
            throw error;
        }
        const fields = (0,service_answer/* asObject */.eB)(answer);
        const statusId = (0,service_answer/* plain */.pj)(fields.statusId);
        if (statusId === undefined) {
            const which = fields.statusId === undefined || fields.statusId === null
                ? 'no `statusId`'
                : 'a `statusId` the action cannot use (blank, or with control characters or a workflow command mark)';
            throw new errors/* ActionError */.lZ(`The service accepted the request to ${what}, but its answer carries ${which}, ` +
                'so the deployment cannot be followed. ' +
                'Find it on the dashboard and follow it with `operation: deploy` and `job-id: <its status id>`; ' +
                'do not rerun blindly (that would trigger another deployment).');
        }
        return statusId;
    }
    async status(statusId, deadline) {
        const what = `read the status of deployment ${statusId}`;
        const answer = await this.client.request({
            method: 'GET',
            path: `/v1/project/update-status/${(0,path_segment/* segment */.m)(statusId)}`,
            kind: 'idempotent',
            what,
            deadline
        });
        const body = (0,service_answer/* asObject */.eB)(answer);
        const status = (0,service_answer/* text */.Qq)(body.status);
        if (status === undefined)
            throw (0,service_answer/* statusMissing */.pS)(answer, what);
        return {
            status,
            summary: (0,service_answer/* wholeText */.r0)(body.summary),
            logs: lines(body.logs) ?? [],
            commit: readCommit(body.commit),
            createdAt: (0,service_answer/* timestamp */.vE)(body.createdAt),
            endedAt: (0,service_answer/* timestamp */.vE)(body.endedAt)
        };
    }
}
function readCommit(value) {
    if (value === null || typeof value !== 'object' || Array.isArray(value))
        return undefined;
    const fields = (0,service_answer/* asObject */.eB)(value);
    const files = fields.filesChanged;
    const changed = (0,service_answer/* asObject */.eB)(files);
    return {
        sha: (0,service_answer/* text */.Qq)(fields.sha),
        ref: (0,service_answer/* text */.Qq)(fields.ref),
        message: lines(fields.message),
        filesChanged: files === null || typeof files !== 'object' || Array.isArray(files)
            ? undefined
            : { added: paths(changed.added), modified: paths(changed.modified), removed: paths(changed.removed) }
    };
}
/**
 * Text given as one string or a list of them, as its lines (a line break inside an entry starts a
 * new one), each made safe, its indentation kept; blank lines at either end dropped. Undefined
 * when it is neither.
 */
function lines(value) {
    const entries = typeof value === 'string' ? [value] : Array.isArray(value) ? value : undefined;
    if (entries === undefined)
        return undefined;
    const found = entries
        .filter((entry) => typeof entry === 'string')
        .flatMap((entry) => entry.split(/\r\n|\r|\n/))
        .map((line) => (0,common_text/* serviceText */.Lo)(line).trimEnd());
    while (found[0] === '')
        found.shift();
    while (found.at(-1) === '')
        found.pop();
    return found;
}
/** A list of paths: its non-blank strings, each made safe. */
function paths(value) {
    if (!Array.isArray(value))
        return undefined;
    return value.map((entry) => (0,service_answer/* wholeText */.r0)(entry)).filter((entry) => entry !== undefined);
}

;// CONCATENATED MODULE: ./src/deploy/deploy-report.ts


/** The paths of each kind of change the summary lists; the counts are of them all. */
const PATHS_SHOWN = 50;
/** The lines of a failed deployment's log the summary and the log show: its end, where the error is. */
const LOG_LINES_SHOWN = 20;
/** Bounds on one text in a place that shows many (a line of a log, a path) or a one-line account. */
const LINE_CHARS = 2_000;
const PATH_CHARS = 500;
const PHRASE_CHARS = 300;
/** The kinds of change, as the service names them and as people read them. */
const CHANGES = [
    ['added', 'Added'],
    ['modified', 'Modified'],
    ['removed', 'Removed']
];
class DeploymentReport {
    statusId;
    secrets;
    constructor(
    /** The deployment's status id. */
    statusId, 
    /** Taken out of every text of the service's before it is cut. */
    secrets) {
        this.statusId = statusId;
        this.secrets = secrets;
    }
    /** One line for the follower's log, logged when it changes: `in_progress: Building the docs`. */
    describe(deployment) {
        const summary = deployment.summary === undefined ? '' : `: ${this.shown(deployment.summary, PHRASE_CHARS)}`;
        return `${deployment.status}${summary}`;
    }
    /** The failure of a deployment that ended `failure`: its id and the service's summary. */
    failure(deployment) {
        const log = deployment.logs.length > 0 ? '; the end of its log is above' : '';
        const why = deployment.summary === undefined
            ? ` (the service gave no summary${log})`
            : `: ${this.shown(deployment.summary, service_answer/* SERVICE_TEXT_CHARS */.iM)}`;
        return `Deployment ${this.statusId} failed${why}.`;
    }
    /** `commit 5d41402… (main)`, or undefined when no commit was reported. */
    commitName(deployment) {
        const commit = deployment.commit;
        if (commit?.sha === undefined && commit?.ref === undefined)
            return undefined;
        const sha = commit.sha === undefined ? 'a commit' : `commit ${this.shown(commit.sha, PHRASE_CHARS)}`;
        return `${sha}${commit.ref === undefined ? '' : ` (${this.shown(commit.ref, PHRASE_CHARS)})`}`;
    }
    /** The commit's name and the first line of its message: `commit 5d41402… (main): Docs: describe …`. */
    commitLine(deployment) {
        const name = this.commitName(deployment);
        const subject = deployment.commit?.message?.find((line) => line.trim() !== '');
        if (name === undefined || subject === undefined)
            return name;
        return `${name}: ${this.shown(subject.trim(), PHRASE_CHARS)}`;
    }
    /** `1 added, 2 modified, 1 removed`, of the lists the answer carried; undefined when it carried none. */
    changeCounts(deployment) {
        const files = deployment.commit?.filesChanged;
        if (files === undefined)
            return undefined;
        const counts = CHANGES.flatMap(([kind]) => (files[kind] === undefined ? [] : [`${files[kind].length} ${kind}`]));
        return counts.length === 0 ? undefined : counts.join(', ');
    }
    /** For each kind of change with paths, its first PATHS_SHOWN paths, saying how many more there are. */
    changedPaths(deployment) {
        const files = deployment.commit?.filesChanged;
        if (files === undefined)
            return [];
        return CHANGES.flatMap(([kind, title]) => {
            const all = files[kind] ?? [];
            if (all.length === 0)
                return [];
            const paths = all.slice(0, PATHS_SHOWN).map((path) => this.shown(path, PATH_CHARS));
            if (all.length > PATHS_SHOWN)
                paths.push(`… and ${all.length - PATHS_SHOWN} more (the first ${PATHS_SHOWN} shown)`);
            return [{ title: `${title} (${all.length})`, paths }];
        });
    }
    /** The end of the log, where a failure says why: its last LOG_LINES_SHOWN lines. */
    lastLogLines(deployment) {
        return deployment.logs.slice(-LOG_LINES_SHOWN).map((line) => this.shown(line, LINE_CHARS));
    }
    /** The time from the trigger to the end, as the service timed it; undefined until it ended. */
    duration(deployment) {
        const ms = this.durationMs(deployment);
        return ms === undefined ? undefined : (0,units/* formatDuration */.a3)(ms);
    }
    durationMs(deployment) {
        const { createdAt, endedAt } = deployment;
        if (createdAt === undefined || endedAt === undefined || endedAt < createdAt)
            return undefined;
        return endedAt.getTime() - createdAt.getTime();
    }
    /** The rows and folds of the job summary: the commit, its changes, the duration, and a failure's log. */
    summary(deployment) {
        const rows = [];
        const commit = deployment.commit;
        if (commit?.ref !== undefined)
            rows.push(['Ref', this.shown(commit.ref, PHRASE_CHARS)]);
        if (commit?.message !== undefined && commit.message.length > 0)
            rows.push(['Commit message', this.shown(commit.message.join('\n'), LINE_CHARS)]);
        const counts = this.changeCounts(deployment);
        if (counts !== undefined)
            rows.push(['Files changed', counts]);
        const duration = this.duration(deployment);
        if (duration !== undefined)
            rows.push(['Duration', duration]);
        if (deployment.summary !== undefined)
            rows.push(["Service's summary", this.shown(deployment.summary, LINE_CHARS)]);
        const folds = this.changedPaths(deployment).map(({ title, paths }) => ({
            title,
            kind: 'list',
            lines: paths
        }));
        if (deployment.status === 'failure' && deployment.logs.length > 0) {
            const lines = this.lastLogLines(deployment);
            folds.push({ title: logTitle(lines.length, deployment.logs.length), kind: 'log', lines, open: true });
        }
        return { rows, folds };
    }
    /** Text of the service's without the secrets, then cut to `max` characters. */
    shown(text, max) {
        return this.secrets.cut(text, max, `(cut short: ${text.length} characters)`);
    }
}
/** `The deployment's log: its last 20 lines (of 312)`. */
function logTitle(shown, all) {
    return shown === all
        ? `The deployment's log (${(0,units/* counted */.hS)(all, 'line')})`
        : `The deployment's log: its last ${shown} lines (of ${all})`;
}
/**
 * Whether the commit deployed is another than `expected` (GITHUB_SHA). Either may be abbreviated:
 * one that starts the other, seven hex digits at least, is the same commit.
 */
function isAnotherCommit(deployed, expected) {
    const [a, b] = [deployed.trim().toLowerCase(), expected.trim().toLowerCase()];
    if (a === b)
        return false;
    const [shorter, longer] = a.length <= b.length ? [a, b] : [b, a];
    return !(shorter.length >= 7 && /^[0-9a-f]+$/.test(shorter) && longer.startsWith(shorter));
}

;// CONCATENATED MODULE: ./src/deploy/deploy-flow.ts
/**
 * A deployment, end to end: trigger one of the project's deployment branch (or take the one
 * `job-id` names), follow it until `success` or `failure`, and say what was deployed. Outputs are
 * set as each fact becomes known, and the job summary is filled from the last status seen, also
 * when the step fails.
 */








async function runDeploy(settings, client, context, on) {
    const { clock, host, outputs, report, startedAt, deadline } = context;
    const { log } = host;
    const api = new DeployApi(client);
    if (settings.projectId !== undefined)
        report.rows.push(['Project', settings.projectId]);
    // `triggered`: this run queued the deployment (not `job-id`, nor an earlier attempt's).
    const { statusId, triggered } = await log.group('Trigger the deployment', async () => {
        if (settings.jobId !== undefined) {
            log.info(`Following deployment ${settings.jobId}; nothing is triggered.`);
            return { statusId: settings.jobId, triggered: false };
        }
        const { projectId } = settings;
        const sent = await (0,comment_run/* sendOnce */.E4)(on.run, {
            asked: 'trigger',
            scope: projectId,
            words: { request: `trigger a deployment of project ${projectId}`, instead: FIND_AND_FOLLOW },
            asking: on.reply.askingText(`Triggering a deployment of project ${(0,common_text/* commentCode */.ph)(projectId)}`),
            send: () => api.trigger(projectId, deadline),
            jobOf: (id) => id
        }, context);
        if (sent.kind === 'resumed')
            return { statusId: sent.job.jobId, triggered: false };
        log.info(`Triggered a deployment of project ${projectId}: status id ${sent.answer}.`);
        return { statusId: sent.answer, triggered: true };
    });
    outputs.set('job-id', statusId);
    // The trigger's answer holds only the id; the reference says it queues the deployment.
    if (triggered)
        outputs.set('status', 'queued');
    on.reply.working({ jobId: statusId, status: triggered ? 'queued' : undefined });
    const describe = new DeploymentReport(statusId, context.secrets);
    const expectedCommit = host.env('GITHUB_SHA');
    let last;
    let warnedOfCommit = false;
    /** Every answer: the outputs, and once, a commit other than the workflow's. */
    const publish = (deployment) => {
        last = deployment;
        outputs.set('status', deployment.status);
        on.reply.working({ status: deployment.status });
        const sha = deployment.commit?.sha;
        if (sha === undefined)
            return;
        outputs.set('deployed-commit', sha);
        if (expectedCommit === undefined || warnedOfCommit || !isAnotherCommit(sha, expectedCommit))
            return;
        warnedOfCommit = true;
        const warning = `Deployment ${statusId} deployed ${describe.commitName(deployment)}, not ${expectedCommit}, the commit this ` +
            'workflow runs on (`GITHUB_SHA`): another commit was deployed. The deployment branch may have moved on ' +
            'since, or may not be the branch this workflow runs on.';
        log.warning(warning);
        report.notes.push(warning);
    };
    try {
        if (!settings.wait) {
            if (!triggered)
                publish(await api.status(statusId, deadline));
            report.notes.push('Not waiting for the deployment (`wait: false`).');
            return;
        }
        const { value: final } = await log.group(`Wait for deployment ${statusId}`, () => (0,follow_job/* followJob */.B)({
            ...(0,service_job/* serviceJobBasics */.S)(settings, context),
            name: `Deployment ${statusId}`,
            check: () => api.status(statusId, deadline),
            read: (deployment) => ({ status: deployment.status, summary: describe.describe(deployment) }),
            terminal: DEPLOY_TERMINAL,
            known: DEPLOY_KNOWN,
            onValue: publish,
            // A deployment of an earlier run may be over already; one this run triggered is not.
            checkFirst: !triggered,
            jobStartedAt: triggered ? startedAt : undefined,
            resumeHint: `rerun with \`job-id: ${statusId}\` to follow it without triggering another`
        }));
        await logOutcome(statusId, final, describe, log);
        // Timed by the service when it says; else, for a deployment this run triggered, by this run.
        if (describe.duration(final) === undefined && triggered)
            report.rows.push(['Duration', `${(0,units/* formatDuration */.a3)(clock.now() - startedAt)} (as this run saw it)`]);
        const commit = describe.commitLine(final);
        await on.reply.end(final.status === 'success', {
            status: final.status,
            elapsedMs: describe.durationMs(final),
            details: commit === undefined ? undefined : [commit],
            error: final.status === 'failure' ? describe.failure(final) : undefined
        });
        if (final.status === 'failure')
            throw new errors/* ActionError */.lZ(describe.failure(final));
    }
    finally {
        if (last !== undefined) {
            const { rows, folds } = describe.summary(last);
            report.rows.push(...rows);
            report.folds.push(...folds);
        }
    }
}
/** What was deployed, in the log (a CLI has no job summary): the commit, its changes, and a failure's log. */
async function logOutcome(statusId, final, describe, log) {
    const commit = describe.commitLine(final);
    const counts = describe.changeCounts(final);
    if (commit !== undefined) {
        const verb = final.status === 'success' ? 'deployed' : 'was to deploy';
        log.info(`Deployment ${statusId} ${verb} ${commit}${counts === undefined ? '' : `; ${counts}`}.`);
    }
    const changed = describe.changedPaths(final);
    if (changed.length > 0) {
        await log.group('Paths the deployed commit changed', async () => {
            for (const { title, paths } of changed) {
                log.info(`${title}:`);
                for (const path of paths)
                    log.info(`  ${path}`);
            }
        });
    }
    if (final.status === 'failure' && final.logs.length > 0) {
        const lines = describe.lastLogLines(final);
        await log.group(`Deployment ${statusId}: its log's last ${lines.length} lines`, async () => {
            for (const line of lines)
                log.info(line);
        });
    }
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
 * When to ask for a job's status next. Pure: the history of what the job reported, the settings,
 * the current time and a random source in; a wait in milliseconds out.
 *
 * Two regimes:
 * - Blind (nothing usable to go on: no progress, a stall, progress going backwards): the job may
 *   end at any moment, so the wait is 15% of the time followed so far, at least initialIntervalMs,
 *   growing no further than maxIntervalMs; +-10% jitter, never below initialIntervalMs nor past
 *   the 15%. An end is then noticed within max(initialIntervalMs, 15% of the time the job had
 *   run), with at most one request per initialIntervalMs.
 * - ETA (progress advancing): until a pace is known the wait may grow as the time followed does
 *   (a job at work is not about to end unannounced). Then fit a constant rate to the recent
 *   observations, taking the integer quantisation of `progress` into account, which gives an
 *   interval [early, late] in which the job should end. Poll at the latest moment that still
 *   notices an end at `early` within a small lag budget; when that poll finds the job still
 *   running, its observation narrows the interval.
 */
/** A blind wait is at most this share of the time followed: the bound on noticing an end late. */
const LAG_SHARE = 0.15;
/**
 * Unaimed waits are spread by +-10% so that runners started together do not poll in step; a blind
 * wait is then kept within the lag bound, and no wait below initialIntervalMs.
 */
const BLIND_JITTER = 0.1;
/** Aimed waits are lengthened by up to 10% at random (see nextPollDelay), within the lag budget. */
const AIM_JITTER = 0.1;
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
/** The longest blind wait after following for `followedMs`: an end during it is noticed in time. */
function lagBound(followedMs, settings) {
    return Math.max(settings.initialIntervalMs, LAG_SHARE * followedMs);
}
/** The blind wait before jitter. */
function blindDelay(followedMs, settings) {
    return Math.min(settings.maxIntervalMs, lagBound(followedMs, settings));
}
/**
 * The wait before jitter while progress advances but its pace is not known yet: a job at work
 * is not about to end unannounced, so the wait may double as the follow goes on (the time
 * followed plus one interval), up to maxIntervalMs, until the rate takes over.
 */
function pacedDelay(followedMs, settings) {
    const { initialIntervalMs: initial, maxIntervalMs: max } = settings;
    return Math.min(max, initial + Math.max(0, followedMs));
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
function nextPollDelay(history, settings, times, random) {
    const { now, jobStartedAt: startedAt } = times;
    const floor = minimumDelay(settings);
    const followed = now - times.followedFrom;
    const blindBase = blindDelay(followed, settings);
    const jittered = (base) => Math.max(settings.initialIntervalMs, base * (1 + BLIND_JITTER * (2 * random() - 1)));
    // Early on both bounds meet at initialIntervalMs (a shorter wait is more requests, a longer one
    // a later notice): no jitter is left there; at maxIntervalMs the lag bound leaves room for it.
    const blind = Math.min(lagBound(followed, settings), jittered(blindBase));
    const last = history.at(-1);
    const lastP = usableProgress(last?.progress);
    // Progress absent (or garbage) now: nothing to estimate with.
    if (last === undefined || lastP === undefined)
        return blind;
    // Stalled (no change since the previous report) or going backwards: the end could come at any
    // moment (a stalled job may jump) or never; only the blind wait is safe.
    const previous = history.at(-2);
    const previousP = usableProgress(previous?.progress);
    if (previousP !== undefined && lastP <= previousP)
        return blind;
    const fit = fitRate(history);
    if (fit === undefined || fit.rHi <= 0) {
        // A single point. If we started the job ourselves, progress / time-since-start is a LOWER
        // bound of the rate (the unknown queue time only slows the apparent rate), so it gives an
        // upper bound of the remaining time: it may shorten the paced wait, never lengthen it.
        if (startedAt !== undefined && lastP > 0 && last.at > startedAt) {
            const remainingUpper = ((100 - lastP) * (last.at - startedAt)) / lastP;
            return Math.max(floor, Math.min(jittered(pacedDelay(followed, settings)), last.at + remainingUpper - now));
        }
        return blind;
    }
    const paced = jittered(pacedDelay(followed, settings));
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
        // the expected end: wait about as long as it is overdue, bounded by the blind wait.
        wait = Math.min(blindBase, Math.max(floor, now - Math.min(late, estimatedEnd)));
    }
    else {
        wait = target - now;
    }
    // Aimed polls need no big jitter (their times already follow each job's own pace): a little,
    // only later (a poll just before the estimated end is a wasted request) and well within the
    // lag budget.
    wait += Math.min(AIM_JITTER * wait, tolerance / 4) * random();
    // How far the estimate may stretch the wait:
    // - two points: a rate with no consistency check (and coarse while progress steps are few):
    //   it may only shorten the paced wait;
    // - three or more points on one line (within quantisation): a steady pace; up to maxIntervalMs;
    // - trusted (also a narrow spread, rLo > 0): past maxIntervalMs (which caps the blind growth),
    //   but no further ahead than the span the rate was measured over, so that a job that speeds
    //   up is not overslept by much.
    const trusted = fit.points >= TRUST_MIN_POINTS && fit.rLo > 0 && (fit.rHi - fit.rLo) / fit.rHi <= TRUST_MAX_SPREAD;
    const limit = trusted
        ? Math.max(settings.maxIntervalMs, HORIZON * fit.spanMs)
        : fit.points >= TRUST_MIN_POINTS
            ? Math.max(paced, settings.maxIntervalMs)
            : paced;
    return Math.max(floor, Math.min(wait, limit));
}

;// CONCATENATED MODULE: ./src/follow/wait-log.ts
/**
 * The longest the follower's own waits leave the log without a line. The promise is a line at
 * least every 60 s; the rest is for a status request under way when a line falls due (the line
 * then comes once it has answered; a request that is retried logs its retries itself).
 */
const QUIET_MS = 55_000;
class WaitLog {
    log;
    clock;
    signal;
    lastLineAt;
    constructor(log, clock, signal) {
        this.log = log;
        this.clock = clock;
        this.signal = signal;
        this.lastLineAt = clock.now();
    }
    info(line) {
        this.log.info(line);
        this.lastLineAt = this.clock.now();
    }
    warning(line) {
        this.log.warning(line);
        this.lastLineAt = this.clock.now();
    }
    /**
     * Sleeps `ms`. Whenever the log has been quiet for QUIET_MS (also right away, after a long status
     * request), prints `where(msToNextCheck)` first: a line that the next such line supersedes.
     */
    async sleep(ms, where) {
        const until = this.clock.now() + Math.max(0, ms);
        for (;;) {
            const now = this.clock.now();
            if (now >= until)
                return;
            if (now >= this.lastLineAt + QUIET_MS) {
                this.log.progress(where(until - now));
                this.lastLineAt = now;
            }
            await this.clock.sleep(Math.min(until, this.lastLineAt + QUIET_MS) - now, this.signal);
        }
    }
}

;// CONCATENATED MODULE: ./src/follow/follow-job.ts
/**
 * Following a job until it ends, for export and agent jobs and deployments alike: check, read,
 * report, sleep. The status request, the clock and the cancellation signal are handed in, so tests
 * and the benchmark run it on a virtual clock; when to check next is schedule.ts's pure decision,
 * and wait-log.ts keeps the log from going quiet during the sleeps.
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
    const history = [];
    const followedFrom = clock.now();
    const nextDelay = (now) => nextPollDelay(history, schedule, { now, followedFrom, jobStartedAt: options.jobStartedAt }, () => clock.random());
    const log = new WaitLog(options.log, clock, signal);
    const warned = new Set();
    let lastSummary;
    let polls = 0;
    /** Checks failed since the last answer (see isPassing). */
    let failed = [...(options.failed ?? [])];
    const elapsed = () => (0,units/* formatDuration */.a3)(clock.now() - startedAt);
    /** Where the wait stands, for a line in a long sleep. */
    const standing = (nextCheckInMs) => `${name}: ${lastSummary === undefined ? 'not checked yet' : `still ${lastSummary}`} after ${elapsed()}; ` +
        `next check in ${(0,units/* formatDuration */.a3)(nextCheckInMs)}.`;
    const sleepAtMost = (ms) => log.sleep(Math.max(0, Math.min(ms, deadline - clock.now())), standing);
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
                value = await (0,cancellation/* untilCancelled */.c8)(options.check(), signal);
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
        history.push({ at: now, status: reading.status, progress: usableProgress(reading.progress) });
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
