export const id = 739;
export const ids = [739];
export const modules = {

/***/ 7546:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   Ex: () => (/* binding */ describeLink),
/* harmony export */   _d: () => (/* binding */ isExpired),
/* harmony export */   oY: () => (/* binding */ maskLinkSecrets)
/* harmony export */ });
/* harmony import */ var _actions_core__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(3340);

/**
 * Query parameters that carry a presigned link's credentials (S3, GCS, Azure SAS and the
 * simulator). Their values are secrets: anyone holding them can download the bundle.
 */
const SIGNATURE_PARAMS = /^(x-amz-signature|x-amz-security-token|x-amz-credential|x-goog-signature|x-goog-credential|signature|sig|token|se|sp|sv)$/i;
/**
 * Registers the link's signature values as secrets, so that the runner masks them wherever they
 * would appear in the log, including in the whole URL when a user prints the `bundle-url` output.
 */
function maskLinkSecrets(url, setSecret = _actions_core__WEBPACK_IMPORTED_MODULE_0__/* .setSecret */ .Pq) {
    let parsed;
    try {
        parsed = new URL(url);
    }
    catch {
        return;
    }
    for (const [name, value] of parsed.searchParams) {
        if (SIGNATURE_PARAMS.test(name) && value !== '') {
            setSecret(value);
            // The masker matches text as printed: the raw and the encoded spellings may both appear.
            const encoded = encodeURIComponent(value);
            if (encoded !== value)
                setSecret(encoded);
        }
    }
}
/** The link without its query: safe to print in any log line. */
function describeLink(url) {
    try {
        const parsed = new URL(url);
        return `${parsed.origin}${parsed.pathname}`;
    }
    catch {
        return '(unreadable link)';
    }
}
/** True when the link's expiry has passed, or passes within `marginMs`. */
function isExpired(link, nowMs, marginMs = 0) {
    return link.expiresAt !== undefined && link.expiresAt.getTime() - marginMs <= nowMs;
}


/***/ }),

/***/ 8739:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {


// EXPORTS
__webpack_require__.d(__webpack_exports__, {
  runExport: () => (/* binding */ runExport)
});

// EXTERNAL MODULE: external "node:fs/promises"
var promises_ = __webpack_require__(1455);
// EXTERNAL MODULE: external "node:path"
var external_node_path_ = __webpack_require__(6760);
// EXTERNAL MODULE: ./src/bundle/link.ts
var bundle_link = __webpack_require__(7546);
// EXTERNAL MODULE: ./src/duration.ts
var duration = __webpack_require__(7607);
// EXTERNAL MODULE: ./src/errors.ts
var errors = __webpack_require__(3916);
// EXTERNAL MODULE: ./src/poll/poller.ts + 1 modules
var poller = __webpack_require__(7980);
// EXTERNAL MODULE: ./src/http/answer.ts
var http_answer = __webpack_require__(9856);
// EXTERNAL MODULE: ./src/http/api-client.ts
var api_client = __webpack_require__(3838);
;// CONCATENATED MODULE: ./src/export/export-api.ts



const EXPORT_TERMINAL = new Set(['completed', 'failed']);
const EXPORT_KNOWN = new Set(['queued', 'running', 'completed', 'failed']);
/** The three static export operations (spec 4.3-4.5). */
class ExportApi {
    client;
    constructor(client) {
        this.client = client;
    }
    /** Starts an export. Sent at most once unless the service surely did not receive it. */
    async start(request, deadline) {
        const body = { domain: request.domain };
        if (request.version !== undefined)
            body.version = request.version;
        if (request.paths !== undefined)
            body.paths = request.paths;
        const what = `start the export of ${request.domain}`;
        const { body: answer } = await this.client.request({
            method: 'POST',
            path: '/v1/static-export/jobs',
            body,
            kind: 'once',
            what,
            deadline
        });
        const fields = (0,http_answer/* record */.g1)(answer);
        const jobId = (0,http_answer/* text */.Qq)(fields.jobId);
        if (jobId === undefined)
            throw new errors/* ActionError */.lZ(`Could not ${what}: the service's answer carries no \`jobId\`.`);
        return { jobId, status: (0,http_answer/* text */.Qq)(fields.status) };
    }
    async status(jobId, deadline) {
        const { body: answer } = await this.client.request({
            method: 'GET',
            path: `/v1/static-export/jobs/${(0,api_client/* segment */.mX)(jobId)}`,
            kind: 'idempotent',
            what: `read the status of export job ${jobId}`,
            deadline
        });
        const body = (0,http_answer/* record */.g1)(answer);
        const status = (0,http_answer/* text */.Qq)(body.status);
        if (status === undefined)
            throw new errors/* ActionError */.lZ(`The status of export job ${jobId} carries no \`status\`.`);
        return { status, progress: (0,http_answer/* finiteNumber */.vM)(body.progress), pageCount: (0,http_answer/* finiteNumber */.vM)(body.pageCount), error: (0,http_answer/* text */.Qq)(body.error) };
    }
    /** Generates a fresh presigned link to the bundle. Safe to repeat: each call only makes a new link. */
    async bundle(jobId, deadline) {
        const what = `generate the bundle link of export job ${jobId}`;
        const { body: answer } = await this.client.request({
            method: 'POST',
            path: `/v1/static-export/jobs/${(0,api_client/* segment */.mX)(jobId)}/bundle`,
            kind: 'idempotent',
            what,
            deadline
        });
        const body = (0,http_answer/* record */.g1)(answer);
        const url = (0,http_answer/* httpLink */.Lb)(body.bundleUrl);
        if (url === undefined)
            throw new errors/* ActionError */.lZ(`Could not ${what}: the answer carries no usable \`bundleUrl\`.`);
        return { url, expiresAt: (0,http_answer/* timestamp */.vE)(body.expiresAt), sizeBytes: (0,http_answer/* finiteNumber */.vM)(body.sizeBytes) };
    }
}

// EXTERNAL MODULE: external "node:crypto"
var external_node_crypto_ = __webpack_require__(7598);
;// CONCATENATED MODULE: ./src/export/helm-values.ts



/**
 * The Helm values a self-hosted deployment reads to serve the bundle. Strings are written as
 * JSON strings, which are valid YAML double-quoted scalars, so no value can break the document.
 */
function helmValuesYaml(bundleUrl, version) {
    const lines = ['staticExport:', '  enabled: true', `  bundleUrl: ${JSON.stringify(bundleUrl)}`];
    if (version !== undefined)
        lines.push(`  version: ${JSON.stringify(version)}`);
    return `${lines.join('\n')}\n`;
}
/** Writes `content` whole or not at all: a reader never sees half a values file. */
async function writeFileAtomically(file, content) {
    await (0,promises_.mkdir)(external_node_path_.dirname(file), { recursive: true });
    const temporary = `${file}.${(0,external_node_crypto_.randomBytes)(4).toString('hex')}.tmp`;
    try {
        await (0,promises_.writeFile)(temporary, content, { mode: 0o600 });
        await (0,promises_.rename)(temporary, file);
    }
    catch (error) {
        await (0,promises_.rm)(temporary, { force: true });
        throw error;
    }
}

;// CONCATENATED MODULE: ./src/export/export-flow.ts








/**
 * Static export, end to end: start (or reuse) a job, wait for it, generate the bundle link,
 * download and unpack the archive, write the Helm values. Outputs are set as each fact becomes
 * known, so a failure part-way still hands on the job id and the last status.
 */
async function runExport(settings, client, context) {
    const { clock, log, outputs, report } = context;
    const api = new ExportApi(client);
    const startedAt = clock.now();
    const deadline = startedAt + settings.timeoutMs;
    const jobId = await log.group('Start the export', async () => {
        if (settings.jobId !== undefined) {
            log.info(`Reusing export job ${settings.jobId}.`);
            return settings.jobId;
        }
        const domain = settings.domain; // inputs guarantee a domain when there is no job id
        const started = await api.start({ domain, version: settings.docsVersion, paths: settings.paths }, deadline);
        log.info(`Started export job ${started.jobId} for ${domain}.`);
        outputs.set('status', started.status ?? 'queued');
        return started.jobId;
    });
    outputs.set('job-id', jobId);
    if (!settings.wait) {
        if (settings.jobId !== undefined)
            recordStatus(await api.status(jobId, deadline), context);
        report.notes.push('Not waiting for the job (`wait: false`).');
        return;
    }
    const final = await log.group(`Wait for export job ${jobId}`, () => waitForExport(api, jobId, settings, context, startedAt));
    if (final.status === 'failed') {
        throw new errors/* ActionError */.lZ(`Export job ${jobId} failed${final.error ? `: ${final.error}` : ' (the service gave no reason)'}.`);
    }
    const link = await log.group('Generate the bundle link', async () => {
        const fresh = await api.bundle(jobId, deadline);
        publishLink(fresh, settings, context);
        log.info(`Bundle link: ${(0,bundle_link/* describeLink */.Ex)(fresh.url)} (expires ${fresh.expiresAt?.toISOString() ?? 'at a time the service did not say'}).`);
        return fresh;
    });
    let finalLink = link;
    if (settings.download) {
        finalLink = await log.group('Download the bundle', () => downloadBundle(jobId, link, settings, context, async () => {
            const fresh = await api.bundle(jobId, deadline);
            publishLink(fresh, settings, context);
            return fresh;
        }));
    }
    if (settings.helmValuesFile !== undefined) {
        await writeFileAtomically(settings.helmValuesFile, helmValuesYaml(finalLink.url, settings.exportVersion));
        log.info(`Wrote the Helm values to ${settings.helmValuesFile}.`);
        report.rows.push(['Helm values', settings.helmValuesFile]);
    }
}
async function waitForExport(api, jobId, settings, context, startedAt) {
    const { clock, log, signal, outputs } = context;
    const warnedStatuses = new Set();
    let last;
    try {
        const result = await (0,poller/* pollUntilDone */.A)({
            check: () => api.status(jobId, startedAt + settings.timeoutMs),
            read: (value) => ({ status: value.status, progress: value.progress, done: EXPORT_TERMINAL.has(value.status) }),
            settings: { initialIntervalMs: settings.pollIntervalMs, maxIntervalMs: settings.maxPollIntervalMs, timeoutMs: settings.timeoutMs },
            clock,
            signal,
            random: context.random,
            startedAt: settings.jobId === undefined ? startedAt : undefined,
            checkFirst: settings.jobId !== undefined,
            onObservation: (value) => {
                if (!EXPORT_KNOWN.has(value.status) && !warnedStatuses.has(value.status)) {
                    warnedStatuses.add(value.status);
                    log.warning(`Export job ${jobId} reports the unknown status \`${value.status}\`; treating it as still running.`);
                }
                if (!last || last.status !== value.status || last.progress !== value.progress || last.pageCount !== value.pageCount) {
                    log.info(`Export job ${jobId}: ${describeStatus(value)} after ${(0,duration/* formatDuration */.a)(clock.now() - startedAt)}.`);
                }
                last = value;
                recordStatus(value, context);
            }
        });
        log.info(`Export job ${jobId} ended \`${result.value.status}\` after ${(0,duration/* formatDuration */.a)(result.elapsedMs)} and ${result.polls} status requests.`);
        return result.value;
    }
    catch (error) {
        if (error instanceof poller/* PollTimeoutError */.t) {
            const seen = last ? describeStatus(last) : 'no status seen';
            outputs.set('status', last?.status);
            throw new errors/* ActionError */.lZ(`Export job ${jobId} did not finish within \`timeout\` (${(0,duration/* formatDuration */.a)(settings.timeoutMs)}): last seen ${seen}, after waiting ${(0,duration/* formatDuration */.a)(error.elapsedMs)}. The job may still finish: rerun with \`job-id: ${jobId}\` to pick it up.`);
        }
        throw error;
    }
}
function recordStatus(value, context) {
    const { outputs } = context;
    outputs.set('status', value.status);
    if (value.progress !== undefined)
        outputs.set('progress', value.progress);
    if (value.pageCount !== undefined)
        outputs.set('page-count', value.pageCount);
}
function describeStatus(value) {
    const parts = [value.status];
    if (value.progress !== undefined)
        parts.push(`${value.progress}%`);
    if (value.pageCount !== undefined)
        parts.push(`${value.pageCount} pages`);
    if (value.error !== undefined)
        parts.push(`error: ${value.error}`);
    return parts.join(', ');
}
/** Masks the link's signature before anything can print it, then hands it on. */
function publishLink(link, settings, context) {
    (0,bundle_link/* maskLinkSecrets */.oY)(link.url);
    context.outputs.set('bundle-url', link.url);
    context.outputs.set('expires-at', link.expiresAt?.toISOString());
    context.outputs.set('helm-values', helmValuesYaml(link.url, settings.exportVersion));
}
const EXTENSION = { zip: 'zip', 'tar.gz': 'tar.gz', tar: 'tar' };
async function downloadBundle(jobId, link, settings, context, refreshLink) {
    const { outputs, log, tuning } = context;
    // Unpacked: the archive is a by-product kept in the runner's temp folder. Not unpacked: the
    // archive is the product and goes into `path`.
    const folder = settings.extract ? external_node_path_.join(context.tempDir, `docs-export-${safeName(jobId)}`) : settings.path;
    await (0,promises_.mkdir)(folder, { recursive: true });
    const downloaded = external_node_path_.join(folder, 'bundle');
    // Loaded here, not at start-up: the archive code is not needed before the job is done.
    const { transferBundle } = await Promise.all(/* import() */[__webpack_require__.e(494), __webpack_require__.e(964)]).then(__webpack_require__.bind(__webpack_require__, 3964));
    const result = await transferBundle({
        link,
        refreshLink,
        archiveFile: downloaded,
        siteDir: settings.extract ? settings.path : undefined,
        signal: context.signal,
        log,
        clock: context.clock,
        retry: tuning?.retry,
        stallTimeoutMs: tuning?.stallTimeoutMs,
        progressIntervalMs: tuning?.progressIntervalMs,
        random: context.random
    });
    // The format is known only from the bytes, so the file gets its extension once they are in.
    const archiveFile = `${downloaded}.${EXTENSION[result.format]}`;
    await (0,promises_.rename)(result.archiveFile, archiveFile);
    for (const other of Object.values(EXTENSION)) {
        if (`${downloaded}.${other}` !== archiveFile)
            await (0,promises_.rm)(`${downloaded}.${other}`, { force: true });
    }
    outputs.set('bundle-path', archiveFile);
    outputs.set('site-path', result.siteDir ?? '');
    outputs.set('bundle-sha256', result.sha256);
    outputs.set('bundle-size', result.sizeBytes);
    // The link that served the bundle: a fresh one if the first had expired.
    return result.link;
}
/** A job id as part of a file name: service ids are opaque, so keep only harmless characters. */
function safeName(id) {
    return id.replace(/[^A-Za-z0-9._-]/g, '_').slice(0, 80);
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
