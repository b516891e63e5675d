export const id = 627;
export const ids = [627];
export const modules = {

/***/ 511:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   DD: () => (/* binding */ NotAnArchiveError),
/* harmony export */   EU: () => (/* binding */ writeFailure),
/* harmony export */   _S: () => (/* binding */ unsupportedEntry),
/* harmony export */   k9: () => (/* binding */ UnsupportedArchiveError),
/* harmony export */   ly: () => (/* binding */ SiteLimitError),
/* harmony export */   qb: () => (/* binding */ corrupt),
/* harmony export */   sC: () => (/* binding */ CorruptArchiveError),
/* harmony export */   vF: () => (/* binding */ UnsafeEntryError)
/* harmony export */ });
/* harmony import */ var node_util_types__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(3429);
/* harmony import */ var node_util_types__WEBPACK_IMPORTED_MODULE_0___default = /*#__PURE__*/__webpack_require__.n(node_util_types__WEBPACK_IMPORTED_MODULE_0__);
/* harmony import */ var _common_errors_js__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(1922);
/* harmony import */ var _common_units_js__WEBPACK_IMPORTED_MODULE_2__ = __webpack_require__(8570);



/**
 * An archive entry that would write outside the site folder, through a link, or somewhere it has
 * no business. Final: downloading the same archive again would give the same entry.
 */
class UnsafeEntryError extends _common_errors_js__WEBPACK_IMPORTED_MODULE_1__/* .ActionError */ .lZ {
    entryName;
    name = 'UnsafeEntryError';
    constructor(
    /** The entry's name as the archive spells it. */
    entryName, reason) {
        super(`The bundle archive was refused: entry ${JSON.stringify(entryName)} ${reason}. Nothing was written outside the staging folder.`);
        this.entryName = entryName;
    }
}
/**
 * The archive's bytes cannot be unpacked (bad gzip data, broken tar header, unreadable zip).
 * Worth one more download: the copy may have been damaged on its way.
 */
class CorruptArchiveError extends _common_errors_js__WEBPACK_IMPORTED_MODULE_1__/* .ActionError */ .lZ {
    name = 'CorruptArchiveError';
}
/**
 * The bytes are no archive the action unpacks (an HTML page, JSON, a gzip of something else).
 * Final for a download: the link serves it; a kept copy that reads so was damaged.
 */
class NotAnArchiveError extends _common_errors_js__WEBPACK_IMPORTED_MODULE_1__/* .ActionError */ .lZ {
    name = 'NotAnArchiveError';
}
/**
 * The archive is intact but uses what the action does not unpack: encryption, a compression method
 * other than stored and deflate, a zip split over several disks. Final: another download would
 * give the same bytes.
 */
class UnsupportedArchiveError extends _common_errors_js__WEBPACK_IMPORTED_MODULE_1__/* .ActionError */ .lZ {
    name = 'UnsupportedArchiveError';
}
/** An entry the action does not unpack, though nothing says it is damaged: `what` it is. */
function unsupportedEntry(entryName, what) {
    return new UnsupportedArchiveError(`The bundle archive cannot be unpacked: entry ${JSON.stringify(entryName)} ${what}, which the action does not unpack.`);
}
/** Wraps what a decoder library threw, so the caller can tell corrupt data from our own failures. */
function corrupt(error) {
    if (error instanceof CorruptArchiveError)
        return error;
    return new CorruptArchiveError((0,_common_errors_js__WEBPACK_IMPORTED_MODULE_1__/* .errorMessage */ .gJ)(error), { cause: error });
}
/**
 * The unpacking would pass one of its bounds: `max-site-size`, the most entries an archive may
 * hold, or the tar data its entries account for. Final: the same archive would pass it again; the
 * previous site is left as it was.
 */
class SiteLimitError extends _common_errors_js__WEBPACK_IMPORTED_MODULE_1__/* .ActionError */ .lZ {
    name = 'SiteLimitError';
}
/**
 * A failure while writing the site or the archive file, said in the user's terms: what was being
 * written, what went wrong, and (a full disk) how much had been written. Errors that are already
 * the user's (a refusal, corrupt data, a bound) and stops are returned as they are.
 */
function writeFailure(error, what, writtenBytes) {
    // isNativeError, not instanceof: node's own errors may come from another realm (a vm context).
    if (!(0,node_util_types__WEBPACK_IMPORTED_MODULE_0__.isNativeError)(error) ||
        error instanceof _common_errors_js__WEBPACK_IMPORTED_MODULE_1__/* .ActionError */ .lZ ||
        error instanceof _common_errors_js__WEBPACK_IMPORTED_MODULE_1__/* .CancelledError */ .cc ||
        error.name === 'AbortError')
        return error;
    const code = error.code;
    const why = code === undefined ? error.message : `${WRITE_FAILURES[code] ?? error.message} (${code})`;
    const full = code === 'ENOSPC' || code === 'EDQUOT';
    const written = full && writtenBytes !== undefined ? `, after ${(0,_common_units_js__WEBPACK_IMPORTED_MODULE_2__/* .formatBytes */ .z3)(writtenBytes)} had been written` : '';
    return new _common_errors_js__WEBPACK_IMPORTED_MODULE_1__/* .ActionError */ .lZ(`Could not write ${what}: ${why}${written}`, { cause: error });
}
const WRITE_FAILURES = {
    ENOSPC: 'the disk is full',
    EDQUOT: 'the disk quota is used up',
    ENAMETOOLONG: 'its name or path is too long for the file system',
    EACCES: 'permission denied',
    EPERM: 'the operation is not permitted',
    EROFS: 'the file system is read-only',
    EMFILE: 'too many files are open',
    ENFILE: 'too many files are open',
    EIO: 'the disk reported an input/output error',
    ENOTDIR: 'a part of its path is a file, not a folder',
    EISDIR: 'a folder is in the way',
    ELOOP: 'its path loops through symlinks'
};


/***/ }),

/***/ 5627:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {


// EXPORTS
__webpack_require__.d(__webpack_exports__, {
  runExport: () => (/* binding */ runExport)
});

// EXTERNAL MODULE: external "node:fs/promises"
var promises_ = __webpack_require__(1455);
// EXTERNAL MODULE: ./src/archive/errors.ts
var errors = __webpack_require__(511);
// EXTERNAL MODULE: ./src/common/errors.ts
var common_errors = __webpack_require__(1922);
// EXTERNAL MODULE: ./src/follow/follow-job.ts + 1 modules
var follow_job = __webpack_require__(4256);
// EXTERNAL MODULE: ./src/service/client.ts
var service_client = __webpack_require__(9224);
// EXTERNAL MODULE: ./src/service/answer.ts
var service_answer = __webpack_require__(885);
// EXTERNAL MODULE: ./src/common/path-segment.ts
var path_segment = __webpack_require__(2650);
;// CONCATENATED MODULE: ./src/service/export-api.ts



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
        const answer = await this.client.request({
            method: 'POST',
            path: '/v1/static-export/jobs',
            body,
            kind: 'once',
            what,
            deadline
        });
        const fields = (0,service_answer/* asObject */.eB)(answer);
        const jobId = (0,service_answer/* plain */.pj)(fields.jobId);
        if (jobId === undefined) {
            const which = fields.jobId === undefined || fields.jobId === null
                ? 'no `jobId`'
                : 'a `jobId` the action cannot use (blank, or with control characters or a workflow command mark)';
            throw new common_errors/* ActionError */.lZ(`Could not ${what}: the service's answer carries ${which}, so the job cannot be followed. Look it up on the dashboard before starting another.`);
        }
        return { jobId, status: (0,service_answer/* text */.Qq)(fields.status) };
    }
    async status(jobId, deadline) {
        const answer = await this.client.request({
            method: 'GET',
            path: `/v1/static-export/jobs/${(0,path_segment/* segment */.m)(jobId)}`,
            kind: 'idempotent',
            what: `read the status of export job ${jobId}`,
            deadline
        });
        const body = (0,service_answer/* asObject */.eB)(answer);
        const status = (0,service_answer/* text */.Qq)(body.status);
        if (status === undefined)
            throw (0,service_answer/* statusMissing */.pS)(answer, `read the status of export job ${jobId}`);
        return { status, progress: (0,service_answer/* percent */.KN)(body.progress), pageCount: (0,service_answer/* count */.U9)(body.pageCount), error: (0,service_answer/* text */.Qq)(body.error) };
    }
    /** Generates a fresh presigned link to the bundle. Safe to repeat: each call only makes a new link. */
    async bundle(jobId, deadline) {
        const what = `generate the bundle link of export job ${jobId}`;
        const answer = await this.client.request({
            method: 'POST',
            path: `/v1/static-export/jobs/${(0,path_segment/* segment */.m)(jobId)}/bundle`,
            kind: 'idempotent',
            what,
            deadline
        });
        const body = (0,service_answer/* asObject */.eB)(answer);
        const url = (0,service_answer/* httpLink */.Lb)(body.bundleUrl);
        if (url === undefined)
            throw new common_errors/* ActionError */.lZ(`Could not ${what}: the answer carries no usable \`bundleUrl\`.`);
        return { url, expiresAt: (0,service_answer/* timestamp */.vE)(body.expiresAt), sizeBytes: (0,service_answer/* count */.U9)(body.sizeBytes) };
    }
}

// EXTERNAL MODULE: ./src/transfer/link.ts
var transfer_link = __webpack_require__(3907);
// EXTERNAL MODULE: external "node:crypto"
var external_node_crypto_ = __webpack_require__(7598);
// EXTERNAL MODULE: external "node:path"
var external_node_path_ = __webpack_require__(6760);
// EXTERNAL MODULE: ./src/common/units.ts
var units = __webpack_require__(8570);
;// CONCATENATED MODULE: ./src/export/helm-values.ts




/** A link that expires sooner than this is no address for a deployment that may restart any time. */
const DURABLE_MS = 24 * 60 * 60 * 1000;
/**
 * The Helm values a self-hosted deployment reads to serve the bundle. Strings are written as
 * JSON strings, which are valid YAML double-quoted scalars, so no value can break the document.
 */
function helmValuesYaml(bundleUrl, version) {
    const lines = ['staticExport:', '  enabled: true', `  bundleUrl: ${yamlString(bundleUrl)}`];
    if (version !== undefined)
        lines.push(`  version: ${yamlString(version)}`);
    return `${lines.join('\n')}\n`;
}
/**
 * A JSON string, with the characters YAML does not take as they are in a double-quoted scalar
 * (DEL, the C1 controls, which YAML 1.1 refuses, NEL, read as a line break, the line and
 * paragraph separators and a byte order mark) escaped as well.
 */
function yamlString(text) {
    return JSON.stringify(text).replace(/[\u007f-\u009f\u2028\u2029\ufeff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
/**
 * Why the Helm values should not hold `link`: a pod that starts after the link expires (a node
 * drain, a scale-up, a crash) cannot fetch the bundle. Undefined when it lasts a day or more, or
 * the service did not say.
 */
function expiryWarning(link, now) {
    if (link.expiresAt === undefined || link.expiresAt.getTime() - now >= DURABLE_MS)
        return undefined;
    const left = Math.max(0, link.expiresAt.getTime() - now);
    return (`The Helm values point at the presigned bundle link, which expires at ${link.expiresAt.toISOString()} (in ${(0,units/* formatDuration */.a3)(left)}): ` +
        'a pod that starts after that cannot fetch the bundle. Copy the bundle somewhere durable and give its address as `helm-bundle-url`.');
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

// EXTERNAL MODULE: external "node:os"
var external_node_os_ = __webpack_require__(8161);
// EXTERNAL MODULE: ./src/action/path-guard.ts
var path_guard = __webpack_require__(8747);
// EXTERNAL MODULE: ./src/common/file-names.ts
var file_names = __webpack_require__(7750);
;// CONCATENATED MODULE: ./src/export/path-check.ts
/**
 * The export's pre-flight, before any request: may `path` be written (and, unpacked, replaced
 * whole)? Settings judged the path as written; here it is judged as the file system will resolve
 * it (a symlinked parent counts), against the runner's own folders, the archive's folder, and
 * what is already there.
 */






/** The archive of an unpacked export is kept in `<runner temp>/docs-export-<job>`. */
const ARCHIVE_FOLDER_PREFIX = 'docs-export-';
/** The runner's temp folder: where the archive of an unpacked export is kept. */
function runnerTemp(host) {
    return host.env('RUNNER_TEMP') ?? external_node_os_.tmpdir();
}
/**
 * Where the archive of an unpacked export of `jobName` is kept: `<runner temp>/docs-export-<job>`,
 * a runner's temp folder being the job's own. Outside a runner (the CLI, in a temp folder every
 * run shares) the process id is part of the name, so that runs side by side never share a folder
 * (nor clear each other's leftovers).
 */
function archiveFolderOf(host, jobName) {
    const own = host.env('RUNNER_TEMP') === undefined ? `-${process.pid}` : '';
    return external_node_path_.join(runnerTemp(host), `${ARCHIVE_FOLDER_PREFIX}${jobName}${own}`);
}
/**
 * Whether the archive of an unpacked export outlives the run. A runner's temp folder is the job's:
 * the archive stays there for the job's later steps (`bundle-path`), and the runner empties it
 * after the job. Outside a runner (the CLI) the temp folder is shared and nobody empties it, so
 * every run would leave its archive behind for good: the run removes it when it ends.
 */
function archiveOutlivesRun(host) {
    return host.env('RUNNER_TEMP') !== undefined;
}
const RUNNER_FOLDERS = [
    ['GITHUB_WORKSPACE', 'the workspace'],
    ['RUNNER_TOOL_CACHE', "the runner's tool cache (RUNNER_TOOL_CACHE)"],
    ['GITHUB_ACTION_PATH', "the action's own folder (GITHUB_ACTION_PATH)"],
    ['HOME', 'the home folder (HOME)'],
    ['USERPROFILE', 'the home folder (USERPROFILE)']
];
/**
 * Throws an InputError naming `path` when the export may not use it. Unpacked or not, the folder
 * is replaced whole (with `extract: false` by a folder holding the archive).
 */
async function checkExportPath(settings, host) {
    if (!settings.download)
        return; // nothing is written
    const refuse = (why, real) => new common_errors/* InputError */.dz(`\`path\` must be a folder of its own (it is replaced whole by each export), not ${settings.path}` +
        `${real !== undefined && real !== settings.path ? ` (really ${real})` : ''}, which ${why}.`);
    const real = await realPathOf(settings.path);
    const temp = await realPathOf(runnerTemp(host));
    const tempName = host.env('RUNNER_TEMP') === undefined ? `the temp folder (${temp})` : "the runner's temp folder (RUNNER_TEMP)";
    const guarded = [{ path: temp, name: tempName }];
    for (const [variable, name] of RUNNER_FOLDERS) {
        const value = host.env(variable);
        if (value !== undefined && external_node_path_.isAbsolute(value))
            guarded.push({ path: await realPathOf(value), name });
    }
    const problem = (0,path_guard/* folderProblem */.I)(real, guarded);
    if (problem !== undefined)
        throw refuse(problem, real);
    if (settings.extract) {
        const inTemp = external_node_path_.relative((0,file_names/* foldPath */.tu)(temp), (0,file_names/* foldPath */.tu)(real));
        if (!inTemp.includes(external_node_path_.sep) && inTemp.startsWith(ARCHIVE_FOLDER_PREFIX))
            throw refuse('is where the archive is downloaded to', real);
    }
    const existing = await (0,promises_.lstat)(settings.path).catch(() => undefined);
    if (existing !== undefined && !existing.isDirectory() && !existing.isSymbolicLink())
        throw refuse('is a file');
    if ((await (0,promises_.lstat)(external_node_path_.join(settings.path, '.git')).catch(() => undefined)) !== undefined) {
        const what = settings.extract ? 'the site' : 'the archive';
        throw refuse(`holds a git repository (.git) that replacing the folder would delete; put ${what} in a folder of its own inside it`);
    }
}
/**
 * The real path of `target`: that of its nearest existing ancestor (symlinks resolved) with the
 * missing rest appended as written.
 */
async function realPathOf(target) {
    const missing = [];
    for (let at = external_node_path_.resolve(target);; at = external_node_path_.dirname(at)) {
        try {
            return external_node_path_.join(await (0,promises_.realpath)(at), ...missing.reverse());
        }
        catch (error) {
            const code = error.code;
            if ((code !== 'ENOENT' && code !== 'ENOTDIR') || external_node_path_.dirname(at) === at) {
                throw new common_errors/* ActionError */.lZ(`Could not check \`path\` (${target}): ${(0,common_errors/* errorMessage */.gJ)(error)}`, { cause: error });
            }
            missing.push(external_node_path_.basename(at));
        }
    }
}

// EXTERNAL MODULE: ./src/common/text.ts
var common_text = __webpack_require__(2450);
;// CONCATENATED MODULE: ./src/verify/link-scan-wasm.ts
// Generated by `npm run build:wasm` from link-scan.wat: edit that, not this.
/** The site check link scanner, compiled (WebAssembly, base64). */
const LINK_SCAN_WASM = 'AGFzbQEAAAABNgdgAn9/AX9gAX8Bf2AEf39/fwF/YAJ/fwBgA39/fwF/YAx/f39/f39/f39/f38Bf2ADf39/AAIfAgVsaW5rcwdyZXNvbHZlAAAFbGlua3MFb3JkZXIAAAMHBgECAwQFBgUDAQABBkQNfwFBAAt/AUEAC38BQQALfwFBAAt/AUEAC38BQQALfwFBAAt/AUEAC38BQQALfwFBAAt/AEEoC38AQYABC38AQYAQCwdzDQZtZW1vcnkCAAVzdGFydAMAA2VuZAMBBGhhc2gDAwVjaGVjawMEBXRhZ0F0AwUIcGF0aEhhc2gDBwlwYXRoQ2hlY2sDCARyb3dzAwkEbmV4dAADCWhhc2hCeXRlcwAEB29ic2VydmUABgZyZWhhc2gABwrQDgYXACAAQQlrIQAgAEEYSUGbgIAEIAB2cQvFBwEUfyACRQRAQQAkBQsgAiEEAkADQCAEIAFODQEgACAEav0ABABBPf0P/SP9ZCEFIAEgBGtBEEgEQCAFQQEgASAEa3RBAWtxIQULAkADQCAFRQ0BIAQgBWhqIQYgBSAFQQFrcSEFAkAgBkEESA0AIAZBAWshCSAAIAlqIQcgBy0AAEEgciEIIAhBBXJB5wBHBEAgCEEtSw0BA0AgBy0AABACRQ0CIAlBAWshCSAJQQNIDQIgB0EBayEHIActAABBIHIhCCAIQS1NDQALCyAIQeYARgRAIAlBBEgNASAHQQFrLQAAQSByQeUARw0BIAdBAmstAABBIHJB8gBHDQEgB0EDay0AAEEgckHoAEcNASAJQQNrIQkFIAhB4wBHDQEgB0EBay0AAEEgckHyAEcNASAHQQJrLQAAQSByQfMARw0BIAlBAmshCQsgACAJakEBay0AAEEJayESIBJBGElBm4CABCASdnFFDQAgCSEKIwUhCyALIAlKBEBBACELCyMGQQAgCxshDAJAA0AgCiALTA0BIApBAWshCiAAIApqIQcgBy0AACESIBJBAnJBPkcNACASQTxGIActAAFBIHJB4QBrQRpJcSEMCwsgCSQFIAwkBiAMRQ0AIAZBAWohDwJAIA8gAUYNASAAIA9qLQAAIQ0gDUEgTQRAA0AgDRACRQ0CIA9BAWohDyAPIAFGDQMgACAPai0AACENIA1BIE0NAAsLCyANQSJGIA1BJ0ZyIQ4gDyAOaiEPIA8gAUYNACAAIA9qLQAAQS9GIA9BAWogAUYgACAPai0AAUEvR3JxJAJBzfjs+AIgAyMCGyETQZXTx94FIRQgDyMMakEBaiEQIAEgEEgEQCABIRALIA8hESAOBEACQANAIBEgEE4NASAAIBFq/QAEACAN/Q/9I/1kIRUgFQRAIBEgFWhqIREMAgsgEUEQaiERDAALCyARIBBKBEAgECERCwUCQANAIBEgEE4NASAAIBFqLQAAIRIgEhACIBJBPkZyDQEgEUEBaiERDAALCwsgACAPaiEHIAAgEWohFwJAA0AgB0EEaiAXSw0BIAcoAgAhFiATIBZzQZODgAhsIRMgFCAWc0GV08feBWwhFCAHQQRqIQcMAAsLAkADQCAHIBdPDQEgBy0AACESIBMgEnNBk4OACGwhEyAUIBJzQZXTx94FbCEUIAdBAWohBwwACwsgDgRAIBEgEEYNAQUgESAPRg0BCyAPJAAgESQBIBMgE0EPdnMkAyAUJAQgEQ8LDAALCyAEQRBqIQQMAAsLQX8LZgEDf0HFu/KIeCECQfLmu+MDIQMgACABaiEEAkADQCAAIARPDQEgAiAALQAAc0GTg4AIbCECIAMgAC0AAHNBldPH3gVsIQMgAEEBaiEADAALCyACIAJBD3ZzJAcgAyADQQ12cyQIC6YBAQJ/IAEhAwNAIANBAWohAyADIAJGBEAgAw8LIAAgA2otAAAhBCAEQT9GIARBI0ZyBEAgAw8LIARBL0YgBEEuRnIEQEF/DwsCQANAIARBL0YNASAEQT9GIARBI0ZyBEAgAw8LIARBJUYgBEEmRnIgBEEgTSAEQf8AT3JyBEBBfw8LIANBAWohAyADIAJGBEAgAw8LIAAgA2otAAAhBAwACwsMAAsAC4cEAQx/QQBBACML/AsAAkADQCACIQwgACABIAIgBBADIQIgAkF/Rg0BAkAgACMAai0AAEEjRg0AQX8gAyMCGyENIwEjAGshDiMDIApxIQ8CQANAIAkgD0ECdGooAgAhECAQRQ0BIAcgEEEBayMKbGohESARKAIAIwNGIBEoAgQjBEZxIBEoAgggDkYgESgCDCANRnFxBEAgESARKAIQQQFqNgIQIAZFBEAgESgCFCEVIBVBD3FBA3QhFyAXKAIAIBVBAWpGBEAgFygCBCEWBSAVIAVGBH9BAAUgBSAVEAELIRYgFyAVQQFqNgIAIBcgFjYCBAsgFkEASCAWRSMAIBEoAhhIcXIEQCARIAU2AhQgESMANgIYCwsMAwsgD0EBaiAKcSEPDAALCyMJIAhPIwlBAWpBAXQgCkEBaktyBEAgDA8LQQEhFEF/IRIgDUF/RgRAIAAjACMBEAUhEgsgEkF/RwRAIAAjAGpBAWogEiMAa0EBaxAEBSMAIwEQACETIBNBf0YEQEEAIRQFIAsgExAECwsgByMJIwpsaiERIBEjAzYCACARIwQ2AgQgESAONgIIIBEgDTYCDCARQQE2AhAgESAFNgIUIBEjADYCGCARIBQ2AhwgESMHQQAgFBs2AiAgESMIQQAgFBs2AiQjCUEBaiQJIAkgD0ECdGojCTYCAAsMAAsLQX8LVwECfwJAA0AgAyMJTw0BIAAgAyMKbGooAgAgAnEhBAJAA0AgASAEQQJ0aigCAEUNASAEQQFqIAJxIQQMAAsLIANBAWohAyABIARBAnRqIAM2AgAMAAsLCw==';

;// CONCATENATED MODULE: ./src/verify/links.ts
/**
 * The internal links of an HTML page: every `href`/`src` value that points into the site (a
 * relative or a root path), and whether the site has a file for it. Pure, and fast on large
 * sites: the pages are read by a small WebAssembly module (link-scan.wat) that finds each `=` 16
 * bytes at a time and recognises a link already seen by its hashes, and only a new link is
 * resolved. An attribute name counts in any case, with whitespace around its `=`, and only inside
 * a start tag: the nearest `<` or `>` before it is a `<` and a letter, so an HTML sample shown as
 * text (`&lt;a href="/about"&gt;`) is no link. Known limits (link-scan.wat): a `>` inside an
 * earlier quoted value of the same tag hides a link, and links inside comments count.
 */

/**
 * Finds the links of HTML pages and keeps each distinct one once. Pages repeat their navigation,
 * so most links were seen before: they are recognised by two hashes of their bytes, their length
 * and their folder, and only a new one is resolved, to two hashes of the site path it leads to.
 * The scanning and that bookkeeping are the module's (`scanner`: link-scan.wat, compiled, in
 * base64); resolving a link that is not a plain root path, and judging, are done here.
 *
 * Self-contained: the writer threads run it from its source text (see linkCollectorSource), so
 * nothing in it may refer to anything outside its body but globals.
 */
function collectorWithScanner(scanner) {
    const isPage = (path) => /\.html?$/i.test(path);
    // A row of the module's table of distinct links: ROW_INTS integers (see link-scan.wat).
    const ROW_INTS = 10;
    const ROW_BYTES = ROW_INTS * 4;
    /** The link's two hashes: with its length and folder, what tells two links apart. */
    const ROW_HASH = 0;
    const ROW_CHECK = 1;
    const ROW_LENGTH = 2;
    const ROW_COUNT = 4;
    /** Where it first appears in page order: the page (an index into `pages`) and the byte offset. */
    const ROW_PAGE = 5;
    const ROW_OFFSET = 6;
    /** 1 when the link points into the site, 0 when it leaves it or points nowhere in particular. */
    const ROW_INTERNAL = 7;
    /** Two hashes of the site path it points to, when it points into the site. */
    const ROW_TARGET = 8;
    const ROW_TARGET_CHECK = 9;
    /** Where the table of distinct links starts (the module keeps the bytes before it for itself). */
    const TABLE_AT = 128;
    /** The module reads a page 16 bytes at a time: this much room follows the page's bytes. */
    const VECTOR_BYTES = 16;
    const WASM_PAGE_BYTES = 65536;
    const pages = [];
    const folders = new Map();
    let page = -1;
    let folder = -1;
    /** The hash of the folder of the page being read: a relative link is the same link only from the same folder. */
    let folderHash = 0;
    /** The last page in page order so far: a page after it is no earlier than any link's first place. */
    let lastPage = '';
    /** The page being read, for resolve(). */
    const NO_PAGE = Buffer.alloc(0);
    let current = NO_PAGE;
    const { Module, Instance } = globalThis.WebAssembly;
    const scan = new Instance(new Module(Buffer.from(scanner, 'base64')), {
        links: {
            // A new link that is not a plain root path: its site path's UTF-8 in the scratch area, or -1.
            resolve: (start, end) => {
                const target = linkTarget(pages[page], current.toString('utf8', start, end));
                return target === undefined ? -1 : toScratch(target);
            },
            // How two pages (indexes) compare in page order: -1, 0 (the same path) or 1.
            order: (one, other) => {
                const a = pages[one];
                const b = pages[other];
                return a < b ? -1 : a === b ? 0 : 1;
            }
        }
    }).exports;
    // The module's memory: its own bytes (to TABLE_AT), the table of distinct links, its slots (an
    // open-addressing table of rows by hash, at most half full), the page being read, and the
    // scratch area (to the end). Each grows by doubling; the table keeps its place, the rest moves.
    let capacity = 1024;
    let slotCount = 4096;
    let pageBytes = 64 * 1024;
    let slots = 0;
    let pageAt = 0;
    let scratchAt = 0;
    let views;
    const SCRATCH_BYTES = 16 * 1024;
    /** Views of the module's memory (made anew once it has grown). */
    function bytes() {
        const buffer = scan.memory.buffer;
        if (views?.buffer !== buffer)
            views = { buffer, bytes: Buffer.from(buffer), ints: new Int32Array(buffer) };
        return views.bytes;
    }
    function ints() {
        bytes();
        return views.ints;
    }
    /** Places the regions for the sizes asked, grows the memory to hold them, and places every row in the slots again. */
    function layOut() {
        slots = TABLE_AT + capacity * ROW_BYTES;
        pageAt = slots + slotCount * 4;
        scratchAt = pageAt + pageBytes + VECTOR_BYTES;
        const needed = scratchAt + SCRATCH_BYTES;
        const size = scan.memory.buffer.byteLength;
        if (needed > size)
            scan.memory.grow(Math.ceil((needed - size) / WASM_PAGE_BYTES));
        bytes().fill(0, slots, slots + slotCount * 4);
        scan.rehash(TABLE_AT, slots, slotCount - 1);
    }
    layOut();
    /** Puts `text` as UTF-8 at the start of the scratch area; returns its length in bytes. */
    function toScratch(text) {
        // UTF-8 takes at most 3 bytes for each UTF-16 unit.
        if (scratchAt + text.length * 3 > scan.memory.buffer.byteLength) {
            const more = scratchAt + text.length * 3 - scan.memory.buffer.byteLength;
            scan.memory.grow(Math.ceil(more / WASM_PAGE_BYTES));
        }
        return bytes().write(text, scratchAt, 'utf8');
    }
    /** Copies a page into the module's memory, making room for it first. */
    function load(content) {
        if (content.length > pageBytes) {
            pageBytes = Math.max(content.length, pageBytes * 2);
            layOut();
        }
        bytes().set(content, pageAt);
    }
    /** Makes `folderHash` the hash of `pageFolder` (`guides/`), which seeds the hashes of its pages' relative links. */
    function enterFolder(pageFolder) {
        let hash = 0x811c9dc5;
        for (let i = 0; i < pageFolder.length; i++)
            hash = Math.imul(hash ^ pageFolder.charCodeAt(i), 0x01000193);
        folderHash = hash;
    }
    /** Every href/src value of the start tags of a page, with the offsets of the values. */
    function scanLinks(content) {
        load(content);
        const links = [];
        for (let at = scan.next(pageAt, content.length, 0, folderHash); at !== -1; at = scan.next(pageAt, content.length, at, folderHash)) {
            const start = scan.start.value;
            links.push({ value: content.toString('utf8', start, scan.end.value), offset: start });
        }
        return links;
    }
    function observe(path, content) {
        if (!isPage(path))
            return;
        page = pages.push(path) - 1;
        const inOrder = path > lastPage;
        if (inOrder)
            lastPage = path;
        const pageFolder = path.slice(0, path.lastIndexOf('/') + 1);
        let id = folders.get(pageFolder);
        if (id === undefined)
            folders.set(pageFolder, (id = folders.size));
        if (id !== folder) {
            folder = id;
            enterFolder(pageFolder);
        }
        current = content;
        load(content);
        // The module stops when its table is full, at a place it reads again once there is room.
        for (let from = 0;;) {
            from = scan.observe(pageAt, content.length, from, folder, folderHash, page, inOrder ? 1 : 0, TABLE_AT, capacity, slots, slotCount - 1, scratchAt);
            if (from === -1)
                break;
            const rows = scan.rows.value;
            if (rows >= capacity)
                capacity *= 2;
            if ((rows + 1) * 2 > slotCount)
                slotCount *= 2;
            layOut();
            bytes().set(content, pageAt);
        }
        current = NO_PAGE;
    }
    /**
     * The site paths the site serves, as hashes in an open-addressing table of pairs (0, 0: empty):
     * each file, and the URLs a static host maps to it (see resolves()).
     */
    function servedPaths(files) {
        // Two integers per slot, at most half the slots taken: twice the slots when they would be more.
        let served = new Int32Array(2 * 1024);
        let taken = 0;
        const place = (table, hash, check) => {
            const mask = table.length / 2 - 1;
            let slot = hash & mask;
            while (table[slot * 2] !== 0 || table[slot * 2 + 1] !== 0)
                slot = (slot + 1) & mask;
            table[slot * 2] = hash;
            table[slot * 2 + 1] = check;
        };
        /** Adds the path that is the first `length` bytes of the file in the scratch area. */
        const add = (length) => {
            if (++taken * 4 > served.length) {
                const larger = new Int32Array(served.length * 2);
                for (let at = 0; at < served.length; at += 2)
                    if (served[at] !== 0 || served[at + 1] !== 0)
                        place(larger, served[at], served[at + 1]);
                served = larger;
            }
            scan.hashBytes(scratchAt, length);
            place(served, scan.pathHash.value, scan.pathCheck.value);
        };
        for (const file of files) {
            // The paths a file serves are the start of its own (the endings cut are ASCII: as many bytes as characters).
            const length = toScratch(file);
            add(length);
            // `<path>.html` serves `<path>`; `<folder>/index.html` serves `<folder>/` and `<folder>`.
            if (file.endsWith('.html') && file.length > 5 && file[file.length - 6] !== '/')
                add(length - '.html'.length);
            if (file === 'index.html' || file.endsWith('/index.html')) {
                const folderBytes = length - 'index.html'.length;
                add(folderBytes);
                if (folderBytes !== 0)
                    add(folderBytes - 1);
            }
        }
        return served;
    }
    function isServed(served, hash, check) {
        // A pair of zeros marks an empty slot: a path hashed to it is taken as not served.
        const mask = served.length / 2 - 1;
        for (let slot = hash & mask; served[slot * 2] !== 0 || served[slot * 2 + 1] !== 0; slot = (slot + 1) & mask) {
            if (served[slot * 2] === hash && served[slot * 2 + 1] === check)
                return true;
        }
        return false;
    }
    function check(files) {
        let links = 0;
        const broken = [];
        const rows = scan.rows.value;
        if (rows === 0)
            return { links, broken };
        const served = servedPaths(files);
        const table = ints();
        for (let row = 0; row < rows; row++) {
            const at = TABLE_AT / 4 + row * ROW_INTS;
            if (table[at + ROW_INTERNAL] === 0)
                continue;
            const count = table[at + ROW_COUNT];
            links += count;
            if (isServed(served, table[at + ROW_TARGET], table[at + ROW_TARGET_CHECK]))
                continue;
            const length = table[at + ROW_LENGTH];
            broken.push({
                page: pages[table[at + ROW_PAGE]],
                offset: table[at + ROW_OFFSET],
                length,
                key: `${table[at + ROW_HASH]}:${table[at + ROW_CHECK]}:${length}`,
                count
            });
        }
        return { links, broken };
    }
    /**
     * The link `check()` reported at `link.offset` of `content`, the page `path` read back: its
     * text, or undefined when the page there is no longer what was scanned (a later entry of the
     * archive replaced it).
     */
    function linkAt(path, content, link) {
        enterFolder(path.slice(0, path.lastIndexOf('/') + 1));
        // The next page observed, whatever its folder, sets the folder's hash again.
        folder = -1;
        load(content);
        // A value starts after its `=`, any whitespace, and its quote: the search starts at that `=`.
        let from = link.offset - 1;
        if (from >= 0 && (content[from] === 0x22 || content[from] === 0x27))
            from--;
        while (from > 0 &&
            (content[from] === 0x20 ||
                content[from] === 0x0a ||
                content[from] === 0x09 ||
                content[from] === 0x0d ||
                content[from] === 0x0c))
            from--;
        from = Math.max(0, from);
        // The module forgets what it knew of the last page's start tags when it searches from a page's
        // start; this search starts elsewhere.
        scan.tagAt.value = 0;
        if (scan.next(pageAt, content.length, from, folderHash) === -1 ||
            scan.start.value !== link.offset ||
            scan.end.value !== link.offset + link.length)
            return undefined;
        if (`${scan.hash.value}:${scan.check.value}:${link.length}` !== link.key)
            return undefined;
        return content.toString('utf8', link.offset, link.offset + link.length);
    }
    function linkTarget(from, value) {
        const raw = decodeEntities(value.trim());
        if (raw === '' || raw.startsWith('#') || raw.startsWith('//') || /^[a-z][a-z0-9+.-]*:/i.test(raw))
            return undefined;
        const path = raw.replace(/[?#].*$/s, '');
        if (path === '')
            return undefined;
        let decoded;
        try {
            decoded = path.includes('%') ? decodeURIComponent(path) : path;
        }
        catch {
            decoded = path;
        }
        const segments = decoded.startsWith('/') ? [] : from.split('/').slice(0, -1);
        for (const segment of decoded.split('/')) {
            if (segment === '' || segment === '.')
                continue;
            if (segment === '..') {
                if (segments.length === 0)
                    return undefined;
                segments.pop();
            }
            else
                segments.push(segment);
        }
        const target = segments.join('/');
        // `/guides/` names the folder's index page.
        return decoded.endsWith('/') && target !== '' ? `${target}/` : target;
    }
    function resolves(target, files) {
        if (target === '' || target.endsWith('/'))
            return files.has(`${target}index.html`);
        return files.has(target) || files.has(`${target}.html`) || files.has(`${target}/index.html`);
    }
    function decodeEntities(text) {
        return text.includes('&')
            ? text
                .replace(/&amp;/g, '&')
                .replace(/&#x2f;/gi, '/')
                .replace(/&#47;/g, '/')
            : text;
    }
    return { scanLinks, isPage, observe, check, linkTarget, resolves, linkAt };
}
/** A collector of links, with the scanner module (see collectorWithScanner). */
function linkCollector() {
    return collectorWithScanner(LINK_SCAN_WASM);
}
/** The same as source text, for the writer threads: a function that makes a collector. */
const linkCollectorSource = `() => (${collectorWithScanner.toString()})(${JSON.stringify(LINK_SCAN_WASM)})`;
const shared = linkCollector();
/** Whether a site path is an HTML page. */
const isPage = shared.isPage;
/** Every href/src value of the start tags of an HTML page, in the order they appear. */
const scanLinks = shared.scanLinks;
/**
 * The site path a link from page `from` (a site path such as `guides/start.html`) points to, or
 * undefined for links that leave the site or point nowhere in particular: other schemes, other
 * hosts, fragments of the same page, and links that climb above the site's root.
 */
const linkTarget = shared.linkTarget;
/**
 * Whether the site serves `target`: the file itself, or as a static host maps extensionless page
 * URLs, `<path>.html` or `<path>/index.html` (the service's bundles name pages that way).
 */
const resolves = shared.resolves;
/**
 * The text of a link a collector reported, read back from its page `path` (a site path) with
 * content `content`; undefined when the page no longer has that link there.
 */
const linkAt = shared.linkAt;
/** The 1-based line of a byte offset. */
function lineAt(page, offset) {
    let line = 1;
    for (let at = page.indexOf(0x0a); at !== -1 && at < offset; at = page.indexOf(0x0a, at + 1))
        line++;
    return line;
}

;// CONCATENATED MODULE: ./src/verify/site.ts



/** Broken links reported one by one; the rest are counted. */
const BROKEN_LINKS_SHOWN = 20;
/** Pages read at once when they were not seen during the unpacking. */
const CONCURRENCY = 16;
/**
 * An observer of written pages that collects their links and judges them against the site's
 * files. Self-contained, like the collector it is given: the writer threads run both from source.
 */
function linkObserver(collector) {
    const links = collector();
    return { observe: links.observe, result: (files) => links.check(files) };
}
class SiteVerifier {
    options;
    /** What the review of the staged site found. */
    result;
    /** Each writer thread collects the links of the pages it writes, and judges them once the site is complete. */
    threadObserver = `() => (${linkObserver.toString()})(${linkCollectorSource})`;
    /** The same, on the main thread (a tar's pages are there as they are written). */
    observer() {
        return linkObserver(linkCollector);
    }
    /** Both observers look at HTML pages only. */
    sees(path) {
        return isPage(path);
    }
    /** What the threads found, and the files the unpacking created (with those of them no thread saw), when it said. */
    checked = [];
    files;
    unobserved;
    constructor(options = {}) {
        this.options = options;
    }
    /** The unpacking is done: what its threads found, the files it created, and which of them no thread saw. */
    unpacked(site) {
        this.files = site.files;
        this.unobserved = site.unobserved;
        this.checked = site.observed.filter((checked) => checked !== undefined);
    }
    /** The staged site, before it is swapped in: checked, then judged. */
    async review(root) {
        this.result = await this.check(root);
        this.options.judge?.(this.result);
    }
    /** Checks the site in `root`. */
    async check(root) {
        const { expectedPages, signal } = this.options;
        const started = performance.now();
        const files = this.files ?? (await siteFiles(root));
        const list = [...files];
        const pages = list.filter(isPage);
        // Pages no thread saw (large ones, links), or all of them when the unpacking did not say, are read now.
        const unobserved = this.unobserved;
        const unread = unobserved === undefined ? pages : pages.filter((page) => unobserved.has(page));
        const here = linkCollector();
        let next = 0;
        const reader = async () => {
            while (next < unread.length) {
                signal?.throwIfAborted();
                const page = unread[next++];
                here.observe(page, await (0,promises_.readFile)((0,external_node_path_.join)(root, page)));
            }
        };
        await Promise.all(Array.from({ length: Math.min(CONCURRENCY, unread.length) }, reader));
        const problems = [];
        if (!files.has('index.html'))
            problems.push('The site has no index.html at its root.');
        if (expectedPages !== undefined && pages.length < expectedPages) {
            problems.push(`The site has ${pages.length} HTML pages, fewer than the ${expectedPages} the export job reported.`);
        }
        // A root link may be broken on several threads' pages: one entry per distinct link.
        let links = 0;
        const brokenByKey = new Map();
        for (const checked of [...this.checked, here.check(list)]) {
            links += checked.links;
            for (const link of checked.broken) {
                const known = brokenByKey.get(link.key);
                if (known === undefined)
                    brokenByKey.set(link.key, { ...link });
                else {
                    known.count += link.count;
                    // Keep the first place in page order, so reports do not vary.
                    if (link.page < known.page || (link.page === known.page && link.offset < known.offset))
                        Object.assign(known, { page: link.page, offset: link.offset });
                }
            }
        }
        const broken = [...brokenByKey.values()].sort((a, b) => a.page === b.page ? a.offset - b.offset : a.page < b.page ? -1 : 1);
        const shown = broken.slice(0, BROKEN_LINKS_SHOWN);
        // The links shown, with their lines, are read back from their pages: a second read of at most that many pages.
        const pagesShown = new Map();
        for (const link of shown)
            if (!pagesShown.has(link.page))
                pagesShown.set(link.page, await readPageBack(root, link.page));
        return {
            problems,
            htmlPages: pages.length,
            links,
            brokenCount: broken.reduce((sum, link) => sum + link.count, 0),
            broken: shown.map((link) => {
                const page = pagesShown.get(link.page);
                const text = linkAt(link.page, page, link);
                return {
                    file: link.page,
                    line: text === undefined ? undefined : lineAt(page, link.offset),
                    link: text,
                    count: link.count
                };
            }),
            reviewMs: performance.now() - started
        };
    }
}
/**
 * A page as it is on disk now; empty when it is gone: a later entry whose name differs only in
 * case or Unicode form replaced it (see EntryIndex), and its links are then reported as those of
 * an earlier entry.
 */
async function readPageBack(root, page) {
    try {
        return await (0,promises_.readFile)((0,external_node_path_.join)(root, page));
    }
    catch (error) {
        if (error.code === 'ENOENT')
            return Buffer.alloc(0);
        throw error;
    }
}
/** Checks a site on disk on its own (nothing seen during an unpacking). */
function checkSite(root, expectedPages) {
    return new SiteVerifier({ expectedPages }).check(root);
}
/** Every file of the site as a site path (`/`-separated); links are not followed. */
async function siteFiles(root) {
    const entries = await (0,promises_.readdir)(root, { recursive: true, withFileTypes: true });
    const files = new Set();
    for (const entry of entries) {
        if (!entry.isFile() && !entry.isSymbolicLink())
            continue;
        const parent = entry.parentPath ?? entry.path ?? root;
        files.add((0,external_node_path_.relative)(root, (0,external_node_path_.join)(parent, entry.name)).split(external_node_path_.sep).join('/'));
    }
    return files;
}

;// CONCATENATED MODULE: ./src/export/site-check.ts



/** The inspector of one unpacking, or undefined when the site is not checked. */
function siteVerifier(settings, context) {
    if (!settings.extract || settings.verify === 'off')
        return undefined;
    const reported = Number(context.outputs.get('page-count'));
    const expectedPages = Number.isInteger(reported) && reported > 0 ? reported : undefined;
    return () => new SiteVerifier({ expectedPages, signal: context.signal, judge: (check) => judge(check, settings, context) });
}
/** The review of the staged site before the swap, or undefined when the site is not checked. */
function siteReview(settings, context) {
    const make = siteVerifier(settings, context);
    return make === undefined ? undefined : (stagedSite) => make().review(stagedSite);
}
function judge(check, settings, context) {
    const { log } = context.host;
    const { outputs, report } = context;
    outputs.set('broken-links', check.brokenCount);
    log.info(`Checked the site: ${check.htmlPages} pages, ${check.links} internal links, ${check.brokenCount} broken (${Math.round(check.reviewMs)} ms after unpacking).`);
    report.rows.push(['Broken links', String(check.brokenCount)]);
    for (const problem of check.problems)
        log.warning(problem);
    for (const broken of check.broken) {
        const more = broken.count > 1 ? ` (and ${broken.count - 1} more ${broken.count === 2 ? 'place' : 'places'})` : '';
        log.warning(broken.link === undefined
            ? `Broken link in an earlier entry of ${(0,common_text/* serviceText */.Lo)(broken.file)} in the archive, which a later entry of the same name (or of one that differs only in case) replaced: it leads to no file of the site${more}.`
            : // JSON.stringify escapes only C0 controls: the link is the archive's text like the page name.
                `Broken link in ${(0,common_text/* serviceText */.Lo)(broken.file)} line ${broken.line}: ${JSON.stringify((0,common_text/* serviceText */.Lo)(broken.link))} leads to no file of the site${more}.`);
    }
    const distinct = check.broken.length;
    if (check.brokenCount > 0 && distinct < check.brokenCount)
        report.notes.push(`${check.brokenCount} internal links lead to no file of the site; the log shows where the first ${distinct} distinct ones are.`);
    if (settings.verify !== 'strict' || (check.problems.length === 0 && check.brokenCount === 0))
        return;
    const what = [
        ...check.problems,
        ...(check.brokenCount > 0 ? [`${check.brokenCount} internal links lead to no file of the site.`] : [])
    ];
    throw new common_errors/* ActionError */.lZ(`The site check failed (\`verify: strict\`): ${what.join(' ')} The previous site was left as it was.`);
}

;// CONCATENATED MODULE: ./src/export/export-flow.ts
/**
 * Static export, end to end: start (or reuse) a job, follow it, generate the bundle link,
 * download and unpack the archive, write the Helm values. Outputs are set as each fact becomes
 * known, so a failure part-way still hands on the job id and the last status.
 */










async function runExport(settings, client, context) {
    const { clock, host, outputs, report, startedAt, deadline } = context;
    const { log } = host;
    const api = new ExportApi(client);
    // Before any request: a `path` that may not be replaced fails the run while nothing is started.
    await checkExportPath(settings, host);
    const jobId = await log.group('Start the export', async () => {
        if (settings.jobId !== undefined) {
            log.info(`Reusing export job ${settings.jobId}.`);
            return settings.jobId;
        }
        const started = await api.start({ domain: settings.domain, version: settings.docsVersion, paths: settings.paths }, deadline);
        log.info(`Started export job ${started.jobId} for ${settings.domain}.`);
        outputs.set('status', started.status ?? 'queued');
        return started.jobId;
    });
    outputs.set('job-id', jobId);
    if (!settings.wait) {
        if (settings.jobId !== undefined)
            publishStatus(await api.status(jobId, deadline), context);
        report.notes.push('Not waiting for the job (`wait: false`).');
        return;
    }
    // The download's code loads while the job runs (the poller mostly waits), not after it.
    const downloadCode = settings.download ? loadDownloadCode() : undefined;
    const { value: final } = await log.group(`Wait for export job ${jobId}`, () => (0,follow_job/* followJob */.B)({
        name: `Export job ${jobId}`,
        check: () => api.status(jobId, deadline),
        isPassing: service_client/* isPassingOutage */.vy,
        isOutOfTime: service_client/* isOutOfTime */.bK,
        read: (status) => ({ status: status.status, progress: status.progress, summary: describeStatus(status) }),
        terminal: EXPORT_TERMINAL,
        known: EXPORT_KNOWN,
        onValue: (status) => publishStatus(status, context),
        // A job of an earlier run may be done already; one this run started is not.
        checkFirst: settings.jobId !== undefined,
        jobStartedAt: settings.jobId === undefined ? startedAt : undefined,
        initialIntervalMs: settings.pollIntervalMs,
        maxIntervalMs: settings.maxPollIntervalMs,
        startedAt,
        timeoutMs: settings.timeoutMs,
        resumeHint: `rerun with \`job-id: ${jobId}\` to pick it up`,
        clock,
        log,
        signal: context.signal
    }));
    if (final.status === 'failed') {
        throw new common_errors/* ActionError */.lZ(`Export job ${jobId} failed${final.error ? `: ${final.error}` : ' (the service gave no reason)'}.`);
    }
    // Judged before it is handed on: a link that leads somewhere it may not is no output either.
    const policy = await (0,transfer_link/* linkPolicy */.ln)(settings.baseUrl);
    /** Generates a link and hands it on; the first one is logged, a fresh one replaces it silently. */
    const generateLink = async () => {
        const link = await api.bundle(jobId, deadline);
        (0,transfer_link/* maskLinkSecrets */.oY)(link.url, (secret) => context.host.setSecret(secret));
        const refused = (0,transfer_link/* refuseLink */.VQ)(new URL(link.url), policy);
        if (refused !== undefined)
            throw new common_errors/* ActionError */.lZ(`${refused}.`);
        publishLink(link, settings, context);
        return link;
    };
    let link = await log.group('Generate the bundle link', async () => {
        const first = await generateLink();
        log.info(`Bundle link: ${(0,transfer_link/* describeLink */.Ex)(first.url)} (expires ${first.expiresAt?.toISOString() ?? 'at a time the service did not say'}).`);
        return first;
    });
    if (downloadCode !== undefined) {
        link = await log.group('Download the bundle', async () => {
            const [{ transferBundle, unpackLocalBundle }, { BundleCache }] = await downloadCode;
            // Unpacked, the archive is a by-product kept in the runner's temp folder; not unpacked,
            // it is the product and goes into `path`.
            const archiveFolder = settings.extract ? archiveFolderOf(host, safeName(jobId)) : settings.path;
            // Outside a runner the by-product goes with the run, so it is never handed on as `bundle-path`.
            const archiveGoes = settings.extract && !archiveOutlivesRun(host);
            const where = {
                archiveFolder,
                siteDir: settings.extract ? settings.path : undefined,
                limits: { maxBytes: settings.maxSiteBytes },
                review: siteReview(settings, context),
                signal: context.signal,
                log
            };
            // The bundle's facts are handed on once the whole archive is kept, also when the site
            // check then fails (the archive stays for the workflow to look at); the site's once it is in place.
            const inHand = (cacheHit) => (archive) => {
                outputs.set('cache-hit', cacheHit);
                if (!archiveGoes)
                    outputs.set('bundle-path', archive.archiveFile);
                outputs.set('bundle-sha256', archive.sha256);
                outputs.set('bundle-size', archive.sizeBytes);
            };
            try {
                // A self-hosted runner may have kept this job's bundle from an earlier run.
                const cache = host.toolCache === undefined ? undefined : new BundleCache(host.toolCache, settings.baseUrl, jobId, log);
                const cached = await cache?.find();
                let result;
                if (cached !== undefined) {
                    try {
                        result = await unpackLocalBundle(cached, { ...where, onArchive: inHand(true) });
                    }
                    catch (error) {
                        // A kept copy that does not read as the bundle was damaged: the service still has it.
                        if (!(error instanceof errors/* CorruptArchiveError */.sC || error instanceof errors/* NotAnArchiveError */.DD))
                            throw error;
                        log.warning(`The bundle kept in the tool cache cannot be used (${error.message}); downloading it again.`);
                    }
                }
                let served = link;
                if (result === undefined) {
                    const downloaded = await transferBundle({
                        ...where,
                        onArchive: inHand(false),
                        link,
                        refreshLink: generateLink,
                        deadline,
                        policy,
                        clock
                    });
                    // The link that served the bundle: a fresh one if the first had expired.
                    served = downloaded.link;
                    result = downloaded;
                    await cache?.keep(downloaded.archiveFile);
                }
                outputs.set('site-path', result.siteDir ?? '');
                return served;
            }
            finally {
                if (archiveGoes)
                    await removeArchiveFolder(archiveFolder, log);
            }
        });
    }
    if (settings.helmValuesFile !== undefined) {
        await writeFileAtomically(settings.helmValuesFile, helmValuesYaml(settings.helmBundleUrl ?? link.url, settings.exportVersion));
        log.info(`Wrote the Helm values to ${settings.helmValuesFile}${settings.helmBundleUrl === undefined ? '' : `, with ${settings.helmBundleUrl} as the bundle's address`}.`);
        report.rows.push(['Helm values', settings.helmValuesFile]);
        const expiring = settings.helmBundleUrl === undefined ? expiryWarning(link, clock.now()) : undefined;
        if (expiring !== undefined) {
            log.warning(expiring);
            report.notes.push(expiring);
        }
    }
}
/** The status and its figures (the answer readers keep only sane ones: progress 0..100, a whole page count). */
function publishStatus(value, context) {
    const { outputs } = context;
    outputs.set('status', value.status);
    if (value.progress !== undefined)
        outputs.set('progress', value.progress);
    if (value.pageCount !== undefined)
        outputs.set('page-count', value.pageCount);
}
/** `running, 40%, 120 pages`. */
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
/** Hands the link on (its secrets are masked already). */
function publishLink(link, settings, context) {
    context.outputs.set('bundle-url', link.url);
    context.outputs.set('expires-at', link.expiresAt?.toISOString());
    context.outputs.set('helm-values', helmValuesYaml(settings.helmBundleUrl ?? link.url, settings.exportVersion));
}
/** Removes the folder of an archive that does not outlive the run (see archiveOutlivesRun). */
async function removeArchiveFolder(folder, log) {
    try {
        if ((await (0,promises_.lstat)(folder).catch(() => undefined)) === undefined)
            return;
        await (0,promises_.rm)(folder, { recursive: true, force: true, maxRetries: 2 });
        log.info(`Removed the archive's folder ${folder}: outside a runner nothing else would.`);
    }
    catch (error) {
        log.warning(`Could not remove the archive's folder ${folder} from the temp folder: ${(0,common_errors/* errorMessage */.gJ)(error)}`);
    }
}
/** A job id as part of a file name: service ids are opaque, so keep only harmless characters. */
function safeName(id) {
    return id.replace(/[^A-Za-z0-9._-]/g, '_').slice(0, 80);
}
/**
 * The download's modules, loaded on demand rather than at start-up: a run that only starts a job,
 * or an agent run, never needs them. Marked handled at once: a job that fails never awaits them.
 */
function loadDownloadCode() {
    const loading = Promise.all([Promise.all(/* import() */[__webpack_require__.e(663), __webpack_require__.e(388)]).then(__webpack_require__.bind(__webpack_require__, 4388)), __webpack_require__.e(/* import() */ 324).then(__webpack_require__.bind(__webpack_require__, 9324))]);
    loading.catch(() => undefined);
    return loading;
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
 * ActionError that names the job, its last status and how to pick it up again. A check that
 * fails with a passing outage (see isPassing) is warned about and made again at the next interval,
 * as long as time is left. Rejects with CancelledError as soon as `signal` fires, and with any other
 * failure of `check`.
 */
async function followJob(options) {
    const { clock, log, signal, name, startedAt } = options;
    const deadline = startedAt + options.timeoutMs;
    const schedule = { initialIntervalMs: options.initialIntervalMs, maxIntervalMs: options.maxIntervalMs };
    const history = [];
    const warned = new Set();
    let lastSummary;
    let polls = 0;
    /** Checks failed since the last answer (see isPassing). */
    let failed = [...(options.failed ?? [])];
    const elapsed = () => (0,units/* formatDuration */.a3)(clock.now() - startedAt);
    const sleepAtMost = (ms) => clock.sleep(Math.max(0, Math.min(ms, deadline - clock.now())), signal);
    /** The timeout's failure: what was last seen, the read that failed at the end if one did, and how to go on. */
    const timedOut = (failedRead) => {
        const seen = lastSummary === undefined ? 'no status read yet' : `last seen ${lastSummary}`;
        const read = failedRead === undefined ? '' : `; the last status request failed (${(0,errors/* errorMessage */.gJ)(failedRead)})`;
        return new errors/* ActionError */.lZ(`${name} did not finish within \`timeout\` (${(0,units/* formatDuration */.a3)(options.timeoutMs)}): ${seen}${read}, after waiting ${elapsed()}. ` +
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
                // The job goes on without us: a long wait should not end on a short outage.
                const delay = nextPollDelay(history, schedule, clock.now(), () => clock.random(), options.jobStartedAt);
                log.warning(`${name}: could not read its status (${(0,errors/* errorMessage */.gJ)(error)}); still waiting, checking again in ${(0,units/* formatDuration */.a3)(delay)}.`);
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
        if (reading.summary !== lastSummary) {
            log.info(`${name}: ${reading.summary} after ${elapsed()}.`);
            lastSummary = reading.summary;
        }
        await options.onValue?.(value);
        const stale = options.terminal.has(reading.status) && options.stale?.is(value) === true;
        if (options.terminal.has(reading.status) && (!stale || now >= staleUntil)) {
            if (stale) {
                log.warning(`${name} still shows \`${reading.status}\` as it did before ${options.stale?.what}, ${elapsed()} later: taken as its end, though the service may not have taken it up yet.`);
            }
            log.info(`${name} ended \`${reading.status}\` after ${elapsed()} and ${polls} status requests.`);
            return { value, polls };
        }
        if (now >= deadline)
            throw timedOut();
        const delay = nextPollDelay(history, schedule, now, () => clock.random(), options.jobStartedAt);
        // A stale end is checked again no later than when it would be taken.
        await sleepAtMost(stale ? Math.min(delay, staleUntil - now) : delay);
        value = undefined;
    }
}


/***/ }),

/***/ 3907:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   Ex: () => (/* binding */ describeLink),
/* harmony export */   Lw: () => (/* binding */ refuseNameForProxy),
/* harmony export */   VQ: () => (/* binding */ refuseLink),
/* harmony export */   _d: () => (/* binding */ isExpired),
/* harmony export */   bT: () => (/* binding */ RefusedAddressError),
/* harmony export */   ln: () => (/* binding */ linkPolicy),
/* harmony export */   oY: () => (/* binding */ maskLinkSecrets),
/* harmony export */   rN: () => (/* binding */ guardedLookup)
/* harmony export */ });
/* harmony import */ var node_dns__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(610);
/* harmony import */ var node_dns__WEBPACK_IMPORTED_MODULE_0___default = /*#__PURE__*/__webpack_require__.n(node_dns__WEBPACK_IMPORTED_MODULE_0__);
/* harmony import */ var node_net__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(7030);
/* harmony import */ var node_net__WEBPACK_IMPORTED_MODULE_1___default = /*#__PURE__*/__webpack_require__.n(node_net__WEBPACK_IMPORTED_MODULE_1__);
/* harmony import */ var _common_text_js__WEBPACK_IMPORTED_MODULE_2__ = __webpack_require__(2450);
/** A presigned bundle link: its secrets, its printable form, where it may point, its expiry. */



/**
 * Query parameters whose values let anyone holding them download the bundle: by name (S3, GCS,
 * Azure SAS, CloudFront, OSS, COS `q-signature`, B2 `Authorization`, the simulator) and by what
 * the name says (any `…signature`, `…token`, `…credential`, `…secret`). The others (version,
 * expiry, permissions such as `sp=r`, key ids) are no secret, and masking a short value would
 * cut it out of every log line. The whole query is masked as well (see maskLinkSecrets).
 */
const SECRET_PARAMS = /^(?:sig|authorization)$|signature|token|credential|secret/i;
/** Shorter values are no signature, and masked they would blank out common words everywhere. */
const MIN_SECRET_LENGTH = 8;
/**
 * Registers the link's secret values so that the runner masks them wherever they would appear,
 * in every spelling the log, the outputs and the Helm values may show: as the value stands in the
 * URL (a raw `+` included), decoded, encoded again, and with lower-case percent escapes.
 */
function maskLinkSecrets(url, setSecret) {
    let parsed;
    try {
        parsed = new URL(url);
    }
    catch {
        return;
    }
    const spellings = new Set();
    // The whole query too: a signature under a name not listed above is still inside it.
    const query = parsed.search.replace(/^\?/, '');
    if (query !== '')
        for (const spelling of [query, decodeOrNot(query)])
            spellings.add(spelling);
    // A password in the address (`https://user:password@host/`).
    if (parsed.password !== '')
        for (const spelling of [parsed.password, decodeOrNot(parsed.password)])
            spellings.add(spelling);
    for (const pair of query.split('&')) {
        const at = pair.indexOf('=');
        if (at <= 0)
            continue;
        if (!SECRET_PARAMS.test(decodeOrNot(pair.slice(0, at))))
            continue;
        const raw = pair.slice(at + 1);
        const decoded = decodeOrNot(raw);
        const encoded = encodeURIComponent(decoded);
        for (const spelling of [raw, decoded, encoded, lowerEscapes(raw), lowerEscapes(encoded)])
            spellings.add(spelling);
    }
    for (const spelling of spellings)
        if (spelling.length >= MIN_SECRET_LENGTH)
            setSecret(spelling);
}
function decodeOrNot(text) {
    try {
        return decodeURIComponent(text);
    }
    catch {
        return text;
    }
}
function lowerEscapes(text) {
    return text.replace(/%[0-9A-F]{2}/g, (escape) => escape.toLowerCase());
}
/** The link without its query: safe to print in any log line. */
function describeLink(url) {
    try {
        const parsed = new URL(url);
        return (0,_common_text_js__WEBPACK_IMPORTED_MODULE_2__/* .serviceText */ .Lo)(`${parsed.origin}${parsed.pathname}`);
    }
    catch {
        return '(unreadable link)';
    }
}
/** True when the link's expiry has passed. */
function isExpired(link, nowMs) {
    return link.expiresAt !== undefined && link.expiresAt.getTime() <= nowMs;
}
const REACHES = [
    ['loopback', 'a loopback address (this machine)', blockList(['127.0.0.0/8', '0.0.0.0/8'], ['::1/128', '::/128'])],
    [
        'link-local',
        'a link-local address (such as a cloud metadata service)',
        blockList(['169.254.0.0/16'], ['fe80::/10'])
    ],
    [
        'private',
        'a private network address',
        blockList(['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', '100.64.0.0/10'], ['fc00::/7'])
    ],
    ['reserved', 'a multicast or reserved address', blockList(['224.0.0.0/3'], ['ff00::/8'])]
];
function blockList(v4, v6) {
    const list = new node_net__WEBPACK_IMPORTED_MODULE_1__.BlockList();
    for (const [subnets, type] of [
        [v4, 'ipv4'],
        [v6, 'ipv6']
    ]) {
        for (const subnet of subnets) {
            const [address = '', prefix = ''] = subnet.split('/');
            list.addSubnet(address, Number(prefix), type);
        }
    }
    return list;
}
function reachOf(address) {
    const family = (0,node_net__WEBPACK_IMPORTED_MODULE_1__.isIP)(address);
    if (family === 0)
        return 'public';
    const type = family === 4 ? 'ipv4' : 'ipv6';
    return REACHES.find(([, , list]) => list.check(address, type))?.[0] ?? 'public';
}
/** The address in a URL's host, or the host name (without the root's dot: `localhost.` is `localhost`). */
function hostOf(url) {
    return url.hostname.replace(/^\[(.*)\]$/, '$1').replace(/\.$/, '');
}
/** The policy for links of the service at `baseUrl`; a host name counts by the addresses it resolves to. */
async function linkPolicy(baseUrl, lookup = node_dns__WEBPACK_IMPORTED_MODULE_0__.lookup) {
    const url = new URL(baseUrl);
    const host = hostOf(url);
    const addresses = (0,node_net__WEBPACK_IMPORTED_MODULE_1__.isIP)(host) !== 0 || host === 'localhost'
        ? [host === 'localhost' ? '127.0.0.1' : host]
        : await resolveAll(host, lookup);
    const allowed = new Set(addresses.map(reachOf).filter((reach) => reach !== 'public'));
    return { allowHttp: url.protocol === 'http:' && allowed.has('loopback'), allowed, lookup };
}
/** Every address the name resolves to; none when it does not resolve. */
function resolveAll(host, lookup) {
    return new Promise((resolve) => {
        lookup(host, { all: true }, (error, addresses) => resolve(error ? [] : addresses.map((a) => a.address)));
    });
}
/** Why the link may not be fetched, or undefined when it may. */
function refuseLink(url, policy) {
    const where = describeLink(url.href);
    if (url.protocol !== 'https:' && !(url.protocol === 'http:' && policy.allowHttp)) {
        return `Refusing to fetch the bundle from ${where}: it does not use https:// (plain http is allowed only when \`base-url\` is plain http on a loopback host)`;
    }
    const host = hostOf(url);
    return refuseAddress(host === 'localhost' || host.endsWith('.localhost') ? '127.0.0.1' : host, where, policy);
}
function refuseAddress(address, where, policy) {
    const reach = reachOf(address);
    if (reach === 'public' || policy.allowed.has(reach))
        return undefined;
    const said = REACHES.find(([name]) => name === reach)?.[1] ?? reach;
    return `Refusing to fetch the bundle from ${where}: it leads to ${said}, and \`base-url\` does not`;
}
/**
 * Why a link fetched through a proxy may not be, judged by what its host name resolves to on this
 * machine (undefined when it may). The proxy resolves the name again and connects, so without this
 * a name of an internal address would reach it through the proxy (refuseLink sees only addresses).
 * A name that does not resolve here is left to the proxy: runners that reach the outside only
 * through a proxy often have no DNS of their own for outside names. Where it leads is then the
 * proxy's to say, as it is for a name this machine resolves otherwise than the proxy does.
 */
async function refuseNameForProxy(url, policy) {
    const host = hostOf(url);
    if ((0,node_net__WEBPACK_IMPORTED_MODULE_1__.isIP)(host) !== 0)
        return undefined;
    const where = describeLink(url.href);
    for (const address of await resolveAll(host, policy.lookup ?? node_dns__WEBPACK_IMPORTED_MODULE_0__.lookup)) {
        const refused = refuseAddress(address, where, policy);
        if (refused !== undefined)
            return refused;
    }
    return undefined;
}
/** Thrown by the guarded lookup: the host name resolved to an address the policy refuses. */
class RefusedAddressError extends Error {
    name = 'RefusedAddressError';
}
/**
 * The policy's lookup (the system's), but a host name that resolves to a refused address fails, so that a link
 * cannot reach by name what it may not reach by address. For direct connections: through a proxy,
 * the proxy resolves the name, and refuseNameForProxy judges it before.
 */
function guardedLookup(policy, where) {
    const lookup = policy.lookup ?? node_dns__WEBPACK_IMPORTED_MODULE_0__.lookup;
    return (hostname, options, callback) => {
        lookup(hostname, { ...options, all: true }, (error, addresses) => {
            if (error)
                return callback(error, '', 0);
            for (const { address } of addresses) {
                const refused = refuseAddress(address, where, policy);
                if (refused !== undefined)
                    return callback(new RefusedAddressError(refused), '', 0);
            }
            const [first] = addresses;
            if (options.all)
                callback(null, addresses);
            else
                callback(null, first?.address ?? '', first?.family ?? 4);
        });
    };
}


/***/ })

};
