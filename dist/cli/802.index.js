export const id = 802;
export const ids = [802,133];
export const modules = {

/***/ 2133:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {


// EXPORTS
__webpack_require__.d(__webpack_exports__, {
  p: () => (/* binding */ followDeployment),
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
// EXTERNAL MODULE: ./src/service/deploy-api.ts
var deploy_api = __webpack_require__(2685);
// EXTERNAL MODULE: ./src/service/answer.ts
var answer = __webpack_require__(885);
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
    noun;
    constructor(
    /** The deployment's status id. */
    statusId, 
    /** Taken out of every text of the service's before it is cut. */
    secrets, 
    /** `Deployment`, or `Preview`. */
    noun = 'Deployment') {
        this.statusId = statusId;
        this.secrets = secrets;
        this.noun = noun;
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
            : `: ${this.shown(deployment.summary, answer/* SERVICE_TEXT_CHARS */.iM)}`;
        return `${this.noun} ${this.statusId} failed${why}.`;
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
    const { host, outputs, report, deadline } = context;
    const { log } = host;
    const api = new deploy_api/* DeployApi */.oW(client);
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
            words: { request: `trigger a deployment of project ${projectId}`, instead: deploy_api/* FIND_AND_FOLLOW */.mM },
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
    await followDeployment(statusId, triggered, api, settings, context, on, {
        noun: 'Deployment',
        expected: { sha: host.env('GITHUB_SHA'), what: 'the commit this workflow runs on (`GITHUB_SHA`)' },
        followUp: `rerun with \`job-id: ${statusId}\` to follow it without triggering another`
    });
}
/**
 * Follows deployment `statusId` (a deployment of the project's branch, or a preview's) until
 * `success` or `failure`, `triggered` by this run or not: the outputs as each status comes, what
 * was deployed in the log and the job summary (also when the step fails), the comment run's
 * reply, and a failure that fails the step. Resolves with the end, or undefined with `wait: false`.
 */
async function followDeployment(statusId, triggered, api, settings, context, on, followed) {
    const { clock, host, outputs, report, startedAt, deadline } = context;
    const { log } = host;
    const { noun, expected } = followed;
    // The trigger's answer holds only the id; the reference says it queues the deployment.
    if (triggered)
        outputs.set('status', 'queued');
    on.reply.working({ jobId: statusId, status: triggered ? 'queued' : undefined });
    const describe = new DeploymentReport(statusId, context.secrets, noun);
    let last;
    let warnedOfCommit = false;
    /** Every answer: the outputs, and once, a commit other than the one expected. */
    const publish = (deployment) => {
        last = deployment;
        outputs.set('status', deployment.status);
        on.reply.working({ status: deployment.status });
        const sha = deployment.commit?.sha;
        if (sha !== undefined)
            outputs.set('deployed-commit', sha);
        if (sha !== undefined && expected.sha !== undefined && !warnedOfCommit && isAnotherCommit(sha, expected.sha)) {
            warnedOfCommit = true;
            const warning = `${noun} ${statusId} deployed ${describe.commitName(deployment)}, not ${expected.sha}, ${expected.what}: ` +
                'another commit was deployed. The branch may have moved on since, or may not be the one this workflow ' +
                'runs on.';
            log.warning(warning);
            report.notes.push(warning);
        }
        followed.onValue?.(deployment);
    };
    try {
        if (!settings.wait) {
            if (!triggered)
                publish(await api.status(statusId, deadline));
            report.notes.push(`Not waiting for the ${noun.toLowerCase()} (\`wait: false\`).`);
            return undefined;
        }
        const { value: final } = await log.group(`Wait for ${noun.toLowerCase()} ${statusId}`, () => (0,follow_job/* followJob */.B)({
            ...(0,service_job/* serviceJobBasics */.S)(settings, context),
            name: `${noun} ${statusId}`,
            check: () => api.status(statusId, deadline),
            read: (deployment) => ({ status: deployment.status, summary: describe.describe(deployment) }),
            terminal: deploy_api/* DEPLOY_TERMINAL */.fm,
            known: deploy_api/* DEPLOY_KNOWN */.Ik,
            onValue: publish,
            // A deployment of an earlier run may be over already; one this run triggered is not.
            checkFirst: !triggered,
            resumeHint: followed.followUp
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
        return final;
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
        log.info(`${describe.noun} ${statusId} ${verb} ${commit}${counts === undefined ? '' : `; ${counts}`}.`);
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


/***/ }),

/***/ 421:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {


// EXPORTS
__webpack_require__.d(__webpack_exports__, {
  runPreview: () => (/* binding */ runPreview)
});

// EXTERNAL MODULE: ./src/common/text.ts
var common_text = __webpack_require__(2450);
// EXTERNAL MODULE: ./src/common/errors.ts
var errors = __webpack_require__(1922);
// EXTERNAL MODULE: ./src/deploy/deploy-flow.ts + 1 modules
var deploy_flow = __webpack_require__(2133);
// EXTERNAL MODULE: ./src/gate/trigger.ts
var trigger = __webpack_require__(6519);
// EXTERNAL MODULE: ./src/github/our-comments.ts
var our_comments = __webpack_require__(6940);
// EXTERNAL MODULE: ./src/reply/comment-run.ts + 1 modules
var comment_run = __webpack_require__(1046);
// EXTERNAL MODULE: ./src/service/answer.ts
var answer = __webpack_require__(885);
// EXTERNAL MODULE: ./src/service/deploy-api.ts
var deploy_api = __webpack_require__(2685);
// EXTERNAL MODULE: ./src/preview/branch.ts
var preview_branch = __webpack_require__(9458);
// EXTERNAL MODULE: ./src/github/calls.ts
var calls = __webpack_require__(4342);
;// CONCATENATED MODULE: ./src/preview/github-environment.ts

const DEPLOYMENTS_HINT = 'Check that `github-token` may create deployments (`permissions: deployments: write`), or leave ' +
    '`github-environment` unset.';
class PreviewEnvironment {
    github;
    context;
    repository;
    deploymentId;
    logUrl;
    writes = new calls/* Serial */.l();
    constructor(github, context, repository, deploymentId, logUrl) {
        this.github = github;
        this.context = context;
        this.repository = repository;
        this.deploymentId = deploymentId;
        this.logUrl = logUrl;
    }
    /** The GitHub deployment of `sha` in `environment`, marked in progress; undefined (after a warning) when refused. */
    static async start(github, context, where, previewUrl) {
        const { repository, environment, sha } = where;
        const id = await (0,calls/* tryGitHub */.d2)(context, `create a deployment of ${sha.slice(0, 7)} in the environment ${environment}`, (signal) => github.createDeployment(repository, { ref: sha, environment, description: 'Mintlify docs preview' }, signal), DEPLOYMENTS_HINT);
        if (id === undefined)
            return undefined;
        context.host.log.info(`Created GitHub deployment ${id} of ${sha.slice(0, 7)} in the environment ${environment}.`);
        const made = new PreviewEnvironment(github, context, repository, id, where.logUrl);
        made.mark('in_progress', previewUrl);
        return made;
    }
    /** A new status of the deployment, not waited for (see settled). */
    mark(state, previewUrl) {
        const description = {
            in_progress: 'Building the preview',
            success: 'Preview ready',
            failure: 'Preview failed',
            error: 'The workflow run stopped following the preview'
        }[state];
        this.writes.soon(() => (0,calls/* tryGitHub */.d2)(this.context, `set GitHub deployment ${this.deploymentId} to ${state}`, (signal) => this.github.createDeploymentStatus(this.repository, this.deploymentId, { state, environmentUrl: previewUrl, logUrl: this.logUrl, description }, signal), DEPLOYMENTS_HINT));
    }
    settled() {
        return this.writes.settled();
    }
}

// EXTERNAL MODULE: ./src/github/marked-comment.ts
var marked_comment = __webpack_require__(1271);
// EXTERNAL MODULE: ./src/github/markers.ts
var markers = __webpack_require__(3400);
// EXTERNAL MODULE: ./src/common/units.ts
var units = __webpack_require__(8570);
;// CONCATENATED MODULE: ./src/preview/preview-comment.ts




/** The lines of a failed preview's log the comment shows: its end, where the error is. */
const PREVIEW_LOG_LINES = 20;
/** Bounds on the service's texts in the comment (GitHub takes at most 65,536 characters). */
const SUMMARY_CHARS = 2_000;
const LOG_LINE_CHARS = 500;
/** The marker of `projectId`'s preview comment. */
function previewMarker(projectId) {
    return `<!-- docs-admin-action:preview project=${encodeURIComponent(projectId)} -->\n`;
}
const STATES = {
    queued: '⏳ **Queued**',
    in_progress: '🔨 **Building**',
    success: '✅ **Ready**',
    failure: '❌ **Failed**'
};
/** The comment's body for `facts`, secrets cut out of every text before it is escaped or cut. */
function previewCommentText(projectId, facts, secrets) {
    const clean = (text, max = SUMMARY_CHARS) => secrets.cut(text, max);
    const state = facts.status === undefined
        ? '⏳ **Triggered**'
        : (STATES[facts.status] ?? `❔ **${(0,common_text/* commentPhrase */.pt)(clean(facts.status, 100))}**`);
    const commit = facts.commit === undefined ? '' : ` at ${(0,common_text/* commentCode */.ph)(clean(facts.commit).slice(0, 7))}`;
    const lines = [
        `${previewMarker(projectId)}### Docs preview`,
        '',
        `${state}: branch ${(0,common_text/* commentCode */.ph)(clean(facts.branch, 300))}${commit}, ${(0,units/* formatUtc */.ay)(new Date(facts.at))}.`
    ];
    if (facts.previewUrl !== undefined)
        lines.push('', `Preview: <${clean(facts.previewUrl)}>`);
    if (facts.status === 'failure' && facts.summary !== undefined)
        lines.push('', (0,common_text/* commentText */.br)(clean(facts.summary)));
    if (facts.stopped !== undefined)
        lines.push('', `The workflow run stopped following it: ${(0,common_text/* commentText */.br)(clean(facts.stopped))}`);
    const logs = facts.status === 'failure' ? (facts.logs ?? []).slice(-PREVIEW_LOG_LINES) : [];
    if (logs.length > 0) {
        // In a code block nothing pings or links; the fence is longer than any run of backticks inside.
        const shown = logs.map((line) => (0,common_text/* serviceText */.Lo)(clean(line, LOG_LINE_CHARS)));
        const fence = '`'.repeat(Math.max(3, ...shown.map((line) => (line.match(/`+/g) ?? []).reduce((a, b) => Math.max(a, b.length + 1), 0))));
        lines.push('', `<details><summary>The last ${logs.length} lines of its log</summary>`, '', fence, ...shown, fence, '', '</details>');
    }
    const status = facts.statusId === undefined ? '' : `Status id ${(0,common_text/* commentCode */.ph)(clean(facts.statusId, 100))}`;
    const run = facts.runUrl === undefined ? '' : `[Workflow run](${clean(facts.runUrl)})`;
    const footer = [status, run].filter((part) => part !== '').join(' · ');
    if (footer !== '')
        lines.push('', footer);
    return lines.join('\n');
}
/** The preview comment of a project on one pull request, kept up to date by this run. Best-effort. */
class PreviewComment {
    comment;
    projectId;
    secrets;
    constructor(comment, projectId, secrets) {
        this.comment = comment;
        this.projectId = projectId;
        this.secrets = secrets;
    }
    /** The comment, found again when an earlier run wrote it (before this run writes anything). */
    static async open(github, context, ours, pull, projectId) {
        const marker = previewMarker(projectId);
        const select = (found) => found.filter((f) => f.body.startsWith(marker)).at(-1);
        const comment = new marked_comment/* MarkedComment */.O(github, context, { ...pull, thread: undefined }, ours, { pattern: markers/* PREVIEW_MARKER */.yf, select }, 'the preview comment', `on #${pull.number}`);
        await comment.find('best-effort');
        return new PreviewComment(comment, projectId, context.secrets);
    }
    show(facts) {
        return this.comment.show(previewCommentText(this.projectId, facts, this.secrets));
    }
    /** As show(), not waited for (while the preview is followed). */
    showSoon(facts) {
        this.comment.showSoon(previewCommentText(this.projectId, facts, this.secrets));
    }
    settled() {
        return this.comment.settled();
    }
}

;// CONCATENATED MODULE: ./src/preview/preview-flow.ts











const FIND_AND_FOLLOW_PREVIEW = 'Find its status id on the dashboard and follow it with `operation: preview` and `job-id: <its status id>`.';
async function runPreview(settings, client, context, on, entrance) {
    const { host, outputs, report, clock, deadline } = context;
    const { log } = host;
    const env = (name) => host.env(name);
    const { event } = entrance;
    const { projectId } = settings;
    // Before any request: a run that cannot tell which branch asks nothing.
    const branch = (0,preview_branch/* previewBranch */.De)(settings.branch, event, env);
    report.rows.push(['Project', projectId], ['Branch', branch]);
    const api = new deploy_api/* DeployApi */.oW(client);
    const { statusId, triggered, previewUrl } = await log.group('Trigger the preview', async () => {
        if (settings.jobId !== undefined) {
            log.info(`Following preview ${settings.jobId}; nothing is triggered.`);
            return { statusId: settings.jobId, triggered: false, previewUrl: undefined };
        }
        const sent = await (0,comment_run/* sendOnce */.E4)(on.run, {
            asked: 'trigger',
            scope: projectId,
            words: {
                request: `trigger a preview of branch ${branch} in project ${projectId}`,
                instead: FIND_AND_FOLLOW_PREVIEW
            },
            asking: on.reply.askingText(`Triggering a preview of branch ${(0,common_text/* commentCode */.ph)(branch)}`),
            send: () => api.preview(projectId, branch, deadline),
            jobOf: (answer) => answer.statusId
        }, context);
        if (sent.kind === 'resumed')
            return { statusId: sent.job.jobId, triggered: false, previewUrl: undefined };
        const { statusId: id, previewUrl: url } = sent.answer;
        log.info(`Triggered a preview of branch ${branch} in project ${projectId}: status id ${id}${url ? `, ${url}` : ''}.`);
        return { statusId: id, triggered: true, previewUrl: url };
    });
    outputs.set('job-id', statusId);
    if (previewUrl !== undefined) {
        outputs.set('preview-url', previewUrl);
        report.rows.push(['Preview', previewUrl]);
    }
    on.reply.working({ jobId: statusId, link: previewUrl });
    const commit = (0,preview_branch/* previewCommit */._z)(event, env);
    const runUrl = (0,trigger/* runUrlOf */.Qm)(env, (0,trigger/* repositoryOf */._M)(env('GITHUB_REPOSITORY'), (0,answer/* asObject */.eB)(event.payload.repository)));
    const shown = await showOnPullRequest(settings, context, entrance, previewUrl, commit, runUrl);
    const facts = (deployment, stopped) => ({
        branch,
        statusId,
        previewUrl,
        status: deployment?.status ?? (triggered ? 'queued' : undefined),
        commit: deployment?.commit?.sha ?? commit,
        at: clock.now(),
        summary: deployment?.summary,
        logs: deployment?.logs,
        stopped,
        runUrl
    });
    shown.comment?.showSoon(facts(undefined));
    let last;
    try {
        const final = await (0,deploy_flow/* followDeployment */.p)(statusId, triggered, api, settings, context, on, {
            noun: 'Preview',
            expected: { sha: commit, what: "the branch's head commit this workflow runs on" },
            followUp: `rerun with \`job-id: ${statusId}\` to follow it without triggering another`,
            onValue: (deployment) => {
                last = deployment;
                shown.comment?.showSoon(facts(deployment));
            }
        });
        if (final !== undefined) {
            await shown.comment?.show(facts(final));
            shown.environment?.mark('success', previewUrl);
            log.info(`Preview ${statusId} is ready${previewUrl === undefined ? '' : `: ${previewUrl}`}.`);
        }
    }
    catch (error) {
        const failed = last?.status === 'failure';
        await shown.comment?.show(facts(last, failed ? undefined : (0,errors/* errorMessage */.gJ)(error)));
        shown.environment?.mark(failed ? 'failure' : 'error', previewUrl);
        throw error;
    }
    finally {
        await Promise.all([shown.comment?.settled(), shown.environment?.settled()]);
    }
}
/** The pull request's comment and the GitHub deployment, each when asked for and possible here. */
async function showOnPullRequest(settings, context, entrance, previewUrl, commit, runUrl) {
    const { host } = context;
    const { event } = entrance;
    const repository = (0,trigger/* repositoryOf */._M)(host.env('GITHUB_REPOSITORY'), (0,answer/* asObject */.eB)(event.payload.repository));
    const number = (0,preview_branch/* pullRequestNumber */.Kd)(event);
    const wanted = (settings.previewComment && number !== undefined) || settings.githubEnvironment !== undefined;
    const github = wanted ? await entrance.github() : undefined;
    if (wanted && (github === undefined || repository === undefined)) {
        host.log.warning('Without `github-token` and the repository, the preview is shown neither on the pull request nor as a ' +
            'GitHub deployment.');
        return { comment: undefined, environment: undefined };
    }
    const comment = settings.previewComment && number !== undefined && github !== undefined && repository !== undefined
        ? await PreviewComment.open(github, context, new our_comments/* OurComments */.x(github, context), { repository, number }, settings.projectId)
        : undefined;
    const environment = settings.githubEnvironment !== undefined && github !== undefined && repository !== undefined
        ? commit === undefined
            ? (host.log.warning('No commit to record a GitHub deployment of (`GITHUB_SHA` is not set).'), undefined)
            : await PreviewEnvironment.start(github, context, { repository, environment: settings.githubEnvironment, sha: commit, logUrl: runUrl }, previewUrl)
        : undefined;
    return { comment, environment };
}


/***/ }),

/***/ 2685:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   Ik: () => (/* binding */ DEPLOY_KNOWN),
/* harmony export */   fm: () => (/* binding */ DEPLOY_TERMINAL),
/* harmony export */   mM: () => (/* binding */ FIND_AND_FOLLOW),
/* harmony export */   oW: () => (/* binding */ DeployApi)
/* harmony export */ });
/* harmony import */ var _common_errors_js__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(1922);
/* harmony import */ var _common_path_segment_js__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(2650);
/* harmony import */ var _common_text_js__WEBPACK_IMPORTED_MODULE_2__ = __webpack_require__(2450);
/* harmony import */ var _answer_js__WEBPACK_IMPORTED_MODULE_3__ = __webpack_require__(885);
/* harmony import */ var _client_js__WEBPACK_IMPORTED_MODULE_4__ = __webpack_require__(9224);
/**
 * Deployments of a project's deployment branch: trigger one, read its status (the reference's
 * "Trigger deployment" and "Get update status"). Answers are read defensively, every text made
 * safe for a log line where it enters, but not cut: the flow takes the API key out first.
 */





const DEPLOY_TERMINAL = new Set(['success', 'failure']);
const DEPLOY_KNOWN = new Set(['queued', 'in_progress', 'success', 'failure']);
/** What to do instead of triggering again a deployment that may be under way. */
const FIND_AND_FOLLOW = 'Find its status id on the dashboard and follow it with `operation: deploy` and `job-id: <its status id>`.';
/** What to do after a preview's trigger that may have been processed. */
const PREVIEW_FOLLOW_UP = 'If it was, the preview is being deployed: find its status id on the dashboard and follow it with ' +
    '`operation: preview` and `job-id: <its status id>` rather than triggering it again.';
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
                path: `/v1/project/update/${(0,_common_path_segment_js__WEBPACK_IMPORTED_MODULE_1__/* .segment */ .m)(projectId)}`,
                kind: 'once',
                what,
                deadline
            });
        }
        catch (error) {
            if (!(error instanceof _client_js__WEBPACK_IMPORTED_MODULE_4__/* .ServiceError */ ._7))
                throw error;
            if (error.mayHaveBeenProcessed)
                throw error.withMessage(`${error.message} ${FOLLOW_UP}`);
            throw error;
        }
        const fields = (0,_answer_js__WEBPACK_IMPORTED_MODULE_3__/* .asObject */ .eB)(answer);
        const statusId = (0,_answer_js__WEBPACK_IMPORTED_MODULE_3__/* .plain */ .pj)(fields.statusId);
        if (statusId === undefined) {
            const which = fields.statusId === undefined || fields.statusId === null
                ? 'no `statusId`'
                : 'a `statusId` the action cannot use (blank, or with control characters or a workflow command mark)';
            throw new _common_errors_js__WEBPACK_IMPORTED_MODULE_0__/* .ActionError */ .lZ(`The service accepted the request to ${what}, but its answer carries ${which}, ` +
                'so the deployment cannot be followed. ' +
                'Find it on the dashboard and follow it with `operation: deploy` and `job-id: <its status id>`; ' +
                'do not rerun blindly (that would trigger another deployment).');
        }
        return statusId;
    }
    /**
     * Triggers a preview deployment of `branch` (an existing preview of it is redeployed): its
     * status id and, when the answer gives a usable one, its address. Sent at most once unless the
     * service surely did not receive it, as a deployment's trigger is.
     */
    async preview(projectId, branch, deadline) {
        const what = `trigger a preview of branch ${branch} in project ${projectId}`;
        let answer;
        try {
            answer = await this.client.request({
                method: 'POST',
                path: `/v1/project/preview/${(0,_common_path_segment_js__WEBPACK_IMPORTED_MODULE_1__/* .segment */ .m)(projectId)}`,
                body: { branch },
                kind: 'once',
                what,
                feature: 'previews',
                deadline
            });
        }
        catch (error) {
            if (!(error instanceof _client_js__WEBPACK_IMPORTED_MODULE_4__/* .ServiceError */ ._7))
                throw error;
            if (error.mayHaveBeenProcessed)
                throw error.withMessage(`${error.message} ${PREVIEW_FOLLOW_UP}`);
            throw error;
        }
        const fields = (0,_answer_js__WEBPACK_IMPORTED_MODULE_3__/* .asObject */ .eB)(answer);
        const statusId = (0,_answer_js__WEBPACK_IMPORTED_MODULE_3__/* .plain */ .pj)(fields.statusId);
        if (statusId === undefined)
            throw new _common_errors_js__WEBPACK_IMPORTED_MODULE_0__/* .ActionError */ .lZ(`The service accepted the request to ${what}, but its answer carries no \`statusId\` the action can use, ` +
                'so the preview cannot be followed. Find it on the dashboard; do not rerun blindly (that would trigger ' +
                'it again).');
        return { statusId, previewUrl: (0,_answer_js__WEBPACK_IMPORTED_MODULE_3__/* .httpLink */ .Lb)(fields.previewUrl) };
    }
    async status(statusId, deadline) {
        const what = `read the status of deployment ${statusId}`;
        const answer = await this.client.request({
            method: 'GET',
            path: `/v1/project/update-status/${(0,_common_path_segment_js__WEBPACK_IMPORTED_MODULE_1__/* .segment */ .m)(statusId)}`,
            kind: 'idempotent',
            what,
            deadline
        });
        const body = (0,_answer_js__WEBPACK_IMPORTED_MODULE_3__/* .asObject */ .eB)(answer);
        const status = (0,_answer_js__WEBPACK_IMPORTED_MODULE_3__/* .text */ .Qq)(body.status);
        if (status === undefined)
            throw (0,_answer_js__WEBPACK_IMPORTED_MODULE_3__/* .statusMissing */ .pS)(answer, what);
        return {
            status,
            summary: (0,_answer_js__WEBPACK_IMPORTED_MODULE_3__/* .wholeText */ .r0)(body.summary),
            logs: lines(body.logs) ?? [],
            commit: readCommit(body.commit),
            createdAt: (0,_answer_js__WEBPACK_IMPORTED_MODULE_3__/* .timestamp */ .vE)(body.createdAt),
            endedAt: (0,_answer_js__WEBPACK_IMPORTED_MODULE_3__/* .timestamp */ .vE)(body.endedAt)
        };
    }
}
function readCommit(value) {
    if (value === null || typeof value !== 'object' || Array.isArray(value))
        return undefined;
    const fields = (0,_answer_js__WEBPACK_IMPORTED_MODULE_3__/* .asObject */ .eB)(value);
    const files = fields.filesChanged;
    const changed = (0,_answer_js__WEBPACK_IMPORTED_MODULE_3__/* .asObject */ .eB)(files);
    return {
        sha: (0,_answer_js__WEBPACK_IMPORTED_MODULE_3__/* .text */ .Qq)(fields.sha),
        ref: (0,_answer_js__WEBPACK_IMPORTED_MODULE_3__/* .text */ .Qq)(fields.ref),
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
        .map((line) => (0,_common_text_js__WEBPACK_IMPORTED_MODULE_2__/* .serviceText */ .Lo)(line).trimEnd());
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
    return value.map((entry) => (0,_answer_js__WEBPACK_IMPORTED_MODULE_3__/* .wholeText */ .r0)(entry)).filter((entry) => entry !== undefined);
}


/***/ })

};
