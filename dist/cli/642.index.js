export const id = 642;
export const ids = [642];
export const modules = {

/***/ 511:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   DD: () => (/* binding */ NotAnArchiveError),
/* harmony export */   _S: () => (/* binding */ unsupportedEntry),
/* harmony export */   k9: () => (/* binding */ UnsupportedArchiveError),
/* harmony export */   qb: () => (/* binding */ corrupt),
/* harmony export */   sC: () => (/* binding */ CorruptArchiveError)
/* harmony export */ });
/* harmony import */ var _common_errors_js__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(1922);

/**
 * The archive's bytes cannot be unpacked (bad gzip data, broken tar header, unreadable zip).
 * Final for a download: TLS and the length checks stop a copy damaged on its way, so the link
 * serves these bytes; a kept copy that reads so was damaged on disk (it is downloaded instead).
 */
class CorruptArchiveError extends _common_errors_js__WEBPACK_IMPORTED_MODULE_0__/* .ActionError */ .lZ {
    name = 'CorruptArchiveError';
}
/**
 * The bytes are no archive the action unpacks (an HTML page, JSON, a gzip of something else).
 * Final for a download: the link serves it; a kept copy that reads so was damaged.
 */
class NotAnArchiveError extends _common_errors_js__WEBPACK_IMPORTED_MODULE_0__/* .ActionError */ .lZ {
    name = 'NotAnArchiveError';
}
/**
 * The archive is intact but uses what the action does not unpack: encryption, a compression method
 * other than stored and deflate, a zip split over several disks. Final: another download would
 * give the same bytes.
 */
class UnsupportedArchiveError extends _common_errors_js__WEBPACK_IMPORTED_MODULE_0__/* .ActionError */ .lZ {
    name = 'UnsupportedArchiveError';
}
/** An entry the action does not unpack, though nothing says it is damaged: `what` it is. */
function unsupportedEntry(entryName, what) {
    return new UnsupportedArchiveError(`The bundle archive cannot be unpacked: entry ${JSON.stringify(entryName)} ${what}, which the action does ` +
        `not unpack.`);
}
/** Wraps what a decoder library threw, so the caller can tell corrupt data from our own failures. */
function corrupt(error) {
    if (error instanceof CorruptArchiveError)
        return error;
    return new CorruptArchiveError((0,_common_errors_js__WEBPACK_IMPORTED_MODULE_0__/* .errorMessage */ .gJ)(error), { cause: error });
}


/***/ }),

/***/ 1642:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {


// EXPORTS
__webpack_require__.d(__webpack_exports__, {
  runExport: () => (/* binding */ runExport)
});

// EXTERNAL MODULE: ./src/follow/service-job.ts
var service_job = __webpack_require__(1652);
// EXTERNAL MODULE: external "node:fs/promises"
var promises_ = __webpack_require__(1455);
// EXTERNAL MODULE: ./src/archive/errors.ts
var errors = __webpack_require__(511);
// EXTERNAL MODULE: ./src/common/cancellation.ts
var cancellation = __webpack_require__(3598);
// EXTERNAL MODULE: ./src/common/errors.ts
var common_errors = __webpack_require__(1922);
// EXTERNAL MODULE: ./src/common/units.ts
var units = __webpack_require__(8570);
// EXTERNAL MODULE: ./src/follow/follow-job.ts + 2 modules
var follow_job = __webpack_require__(7954);
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
            // The reference's 403 of a start: static export is not enabled for the organization.
            feature: 'static export',
            deadline
        });
        const fields = (0,service_answer/* asObject */.eB)(answer);
        const jobId = (0,service_answer/* plain */.pj)(fields.jobId);
        if (jobId === undefined) {
            const which = fields.jobId === undefined || fields.jobId === null
                ? 'no `jobId`'
                : 'a `jobId` the action cannot use (blank, or with control characters or a workflow command mark)';
            throw new common_errors/* ActionError */.lZ(`Could not ${what}: the service's answer carries ${which}, so the job cannot be followed. Look it up on ` +
                `the dashboard before starting another.`);
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
        return {
            status,
            progress: (0,service_answer/* percent */.KN)(body.progress),
            pageCount: (0,service_answer/* count */.U9)(body.pageCount),
            error: (0,service_answer/* text */.Qq)(body.error),
            createdAt: (0,service_answer/* timestamp */.vE)(body.createdAt),
            updatedAt: (0,service_answer/* timestamp */.vE)(body.updatedAt)
        };
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

// EXTERNAL MODULE: ./src/common/link-secrets.ts
var link_secrets = __webpack_require__(641);
// EXTERNAL MODULE: ./src/transfer/link.ts + 1 modules
var transfer_link = __webpack_require__(4627);
// EXTERNAL MODULE: external "node:path"
var external_node_path_ = __webpack_require__(6760);
// EXTERNAL MODULE: external "node:crypto"
var external_node_crypto_ = __webpack_require__(7598);
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
    return (`The Helm values point at the presigned bundle link, which expires at ${(0,units/* formatMoment */.K9)(link.expiresAt, now)}: ` +
        'a pod that starts after that cannot fetch the bundle. Copy the bundle somewhere durable and give its ' +
        'address as `helm-bundle-url`.');
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

;// CONCATENATED MODULE: ./src/export/export-record.ts
/**
 * How an export knows that the folder it is about to replace is one an earlier export wrote: a
 * small record beside `path`, `.<name>.exported`, holding the folder's identity (its inode and
 * birth time) as the swap left it. Not inside the folder, which is published as it is; not named
 * like the staging folders (`.<name>.<kind>-<hex>`), which every run sweeps away. A folder made
 * again by hand, or restored from elsewhere, has another identity.
 */




const NOTE = 'An export of docs-admin wrote the folder beside this file, with the identity below; the next export ' +
    'replaces it without a warning. Deleting this file is harmless.';
/** The record of `folder`: `.<name>.exported` beside it. */
function exportRecordOf(folder) {
    return external_node_path_.join(external_node_path_.dirname(folder), `.${external_node_path_.basename(folder)}.exported`);
}
/**
 * Records that an export wrote `folder` (just swapped in). A record that cannot be written costs
 * only a warning on the next export.
 */
async function recordExport(folder, log) {
    const identity = await identityOf(folder);
    if (identity === undefined)
        return;
    try {
        await writeFileAtomically(exportRecordOf(folder), `${NOTE}\nfolder ${identity}\n`);
    }
    catch (error) {
        log.info(`Could not record that the export wrote ${folder} (${(0,common_errors/* errorMessage */.gJ)(error)}): the next export warns.`);
    }
}
/** Whether `folder` is the very folder an earlier export wrote (see recordExport). */
async function writtenByExport(folder) {
    const [identity, record] = await Promise.all([
        identityOf(folder),
        (0,promises_.readFile)(exportRecordOf(folder), 'utf8').catch(() => '')
    ]);
    return identity !== undefined && record.split('\n').includes(`folder ${identity}`);
}
/** A folder's inode and birth time (where the file system keeps none, what node reads in its place). */
async function identityOf(folder) {
    const info = await (0,promises_.stat)(folder, { bigint: true }).catch(() => undefined);
    return info?.isDirectory() === true ? `${info.ino}:${info.birthtimeNs}` : undefined;
}

// EXTERNAL MODULE: external "node:os"
var external_node_os_ = __webpack_require__(8161);
// EXTERNAL MODULE: ./src/action/path-guard.ts
var path_guard = __webpack_require__(8747);
// EXTERNAL MODULE: ./src/common/file-names.ts
var file_names = __webpack_require__(7750);
// EXTERNAL MODULE: ./src/site/staging.ts
var staging = __webpack_require__(6814);
// EXTERNAL MODULE: ./src/common/text.ts
var common_text = __webpack_require__(2450);
// EXTERNAL MODULE: external "node:child_process"
var external_node_child_process_ = __webpack_require__(1421);
;// CONCATENATED MODULE: ./src/export/tracked-files.ts
/**
 * Which files of a git repository a folder holds, asked of git itself (`git ls-files`): an export
 * replaces `path` whole, and a folder of tracked files (a team's `docs/`) would show up as deleted
 * in the next commit. Git knows its index, worktrees and submodules; reading `.git` by hand would not.
 */





/** `git ls-files` of one folder reads the index only: far quicker than this on any repository. */
const GIT_TIME_MS = 30_000;
/** Enough for the first name, which is all the answer needs. */
const NAME_BYTES = 4096;
/** Enough of git's complaint for a message. */
const STDERR_BYTES = 4096;
/**
 * The first file under `folder` (absolute, real; it need not exist yet) that the git repository
 * holding it tracks, named from the repository's top (`docs/intro.mdx`). Undefined when it holds
 * none, when it is in no repository, and when git is not installed (said at debug level). Throws
 * an ActionError when git cannot answer: the check guards the team's files, so it does not guess.
 */
async function firstTrackedFile(folder, log) {
    const base = await nearestFolder(folder);
    const rest = external_node_path_.relative(base, folder).split(external_node_path_.sep).join('/');
    // `literal`: a name with `*` or `?` is that name, not a pattern.
    const pathspec = rest === '' ? '.' : `:(literal)${rest}`;
    const answer = await listTracked(base, pathspec);
    if (answer.kind === 'no-git') {
        log.debug(`git is not installed: not checking whether \`path\` (${folder}) holds files a repository tracks.`);
        return undefined;
    }
    if (answer.kind === 'outside')
        return undefined;
    if (answer.kind === 'failed') {
        throw new common_errors/* ActionError */.lZ(`Could not check whether \`path\` (${folder}) holds files its git repository tracks: ${answer.why}.`);
    }
    return answer.first;
}
/**
 * Runs `git ls-files` in `cwd` and reads its first name only (git is stopped once it is read);
 * stopped, too, when it takes longer than GIT_TIME_MS.
 */
function listTracked(cwd, pathspec) {
    return new Promise((resolve) => {
        const git = (0,external_node_child_process_.spawn)('git', ['ls-files', '-z', '--full-name', '--', pathspec], {
            cwd,
            // English messages: "not a git repository" is how git says there is none.
            env: { ...process.env, LC_ALL: 'C', LANG: 'C' },
            stdio: ['ignore', 'pipe', 'pipe'],
            windowsHide: true
        });
        let name = Buffer.alloc(0);
        let complaint = '';
        let timedOut = false;
        const timer = setTimeout(() => {
            timedOut = true;
            git.kill();
        }, GIT_TIME_MS);
        git.stdout.on('data', (chunk) => {
            if (name.includes(0))
                return;
            name = Buffer.concat([name, chunk]);
            // One name is the answer: the rest of a large repository's list is not read.
            if (name.includes(0) || name.length >= NAME_BYTES)
                git.kill();
        });
        git.stderr.on('data', (chunk) => {
            if (complaint.length < STDERR_BYTES)
                complaint += chunk.toString('utf8');
        });
        git.on('error', (error) => {
            clearTimeout(timer);
            resolve(error.code === 'ENOENT' ? { kind: 'no-git' } : { kind: 'failed', why: `git could not start (${error.message})` });
        });
        git.on('close', (code) => {
            clearTimeout(timer);
            if (name.length > 0) {
                const end = name.indexOf(0);
                const text = name.subarray(0, end < 0 ? Math.min(name.length, NAME_BYTES) : end).toString('utf8');
                resolve({ kind: 'listed', first: (0,common_text/* cutShort */.VV)((0,common_text/* serviceText */.Lo)(text), 200) });
            }
            else if (timedOut)
                resolve({ kind: 'failed', why: `git ls-files gave no answer within ${GIT_TIME_MS / 1000} s` });
            else if (code === 0)
                resolve({ kind: 'listed', first: undefined });
            else if (/not a git repository/i.test(complaint))
                resolve({ kind: 'outside' });
            else {
                const said = (0,common_text/* cutShort */.VV)((0,common_text/* serviceText */.Lo)(complaint.trim()), 400);
                resolve({
                    kind: 'failed',
                    why: `git ls-files ended with exit code ${code ?? 'none'}${said ? `: ${said}` : ''}`
                });
            }
        });
    });
}
/** `folder` itself when it is a folder, else its nearest ancestor that is: where git is asked. */
async function nearestFolder(folder) {
    for (let at = folder;; at = external_node_path_.dirname(at)) {
        if ((await (0,promises_.stat)(at).catch(() => undefined))?.isDirectory() === true || external_node_path_.dirname(at) === at)
            return at;
    }
}

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
/** An archive folder outside a runner: `docs-export-<job>-<pid>` (see archiveFolderOf). */
const CLI_ARCHIVE_FOLDER = new RegExp(`^${ARCHIVE_FOLDER_PREFIX}.+-(\\d+)$`);
/**
 * Outside a runner, the archive folders that runs killed before their end left in the shared temp
 * folder (their process no longer runs): nothing else would ever remove them. Best-effort.
 */
async function sweepDeadRunsArchives(host, log) {
    if (archiveOutlivesRun(host))
        return;
    const temp = runnerTemp(host);
    const entries = await (0,promises_.readdir)(temp).catch(() => []);
    for (const entry of entries) {
        const pid = Number(CLI_ARCHIVE_FOLDER.exec(entry)?.[1]);
        if (!Number.isSafeInteger(pid) || pid === process.pid || (0,staging/* isRunning */.W_)(pid))
            continue;
        await (0,promises_.rm)(external_node_path_.join(temp, entry), { recursive: true, force: true, maxRetries: 2 }).then(() => log.info(`Removed ${entry} from the temp folder: a run that was killed left it.`), (error) => log.debug(`Could not remove ${entry} from the temp folder: ${(0,common_errors/* errorMessage */.gJ)(error)}`));
    }
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
 * is replaced whole (with `extract: false` by a folder holding the archive). A folder of files
 * the git repository tracks is refused; one that holds files no earlier export wrote is warned of.
 */
async function checkExportPath(settings, host) {
    if (!settings.download)
        return; // nothing is written
    const refuse = (why, real) => new common_errors/* InputError */.dz(`\`path\` must be a folder of its own (it is replaced whole by each export), not ${settings.path}` +
        `${real !== undefined && real !== settings.path ? ` (really ${real})` : ''}, which ${why}.`);
    const real = await realPathOf(settings.path, 'path');
    const temp = await realPathOf(runnerTemp(host), 'path');
    const tempName = host.env('RUNNER_TEMP') === undefined ? `the temp folder (${temp})` : "the runner's temp folder (RUNNER_TEMP)";
    const guarded = [{ path: temp, name: tempName }];
    for (const [variable, name] of RUNNER_FOLDERS) {
        const value = host.env(variable);
        if (value !== undefined && external_node_path_.isAbsolute(value))
            guarded.push({ path: await realPathOf(value, 'path'), name });
    }
    const problem = (0,path_guard/* folderProblem */.IV)(real, guarded);
    if (problem !== undefined)
        throw refuse(problem, real);
    if (settings.extract) {
        const inTemp = external_node_path_.relative((0,file_names/* foldPath */.t)(temp), (0,file_names/* foldPath */.t)(real));
        if (!inTemp.includes(external_node_path_.sep) && inTemp.startsWith(ARCHIVE_FOLDER_PREFIX))
            throw refuse('is where the archive is downloaded to', real);
    }
    const existing = await (0,promises_.lstat)(settings.path).catch(() => undefined);
    if (existing !== undefined && !existing.isDirectory() && !existing.isSymbolicLink())
        throw refuse('is a file');
    if ((await (0,promises_.lstat)(external_node_path_.join(settings.path, '.git')).catch(() => undefined)) !== undefined) {
        const what = settings.extract ? 'the site' : 'the archive';
        throw refuse(`holds a git repository (.git) that replacing the folder would delete; put ${what} in a folder of its own ` +
            `inside it`);
    }
    const tracked = await firstTrackedFile(real, host.log);
    if (tracked !== undefined) {
        const other = external_node_path_.basename(real) === 'static-export' ? 'site-export' : 'static-export';
        throw refuse(`holds ${tracked}, a file its git repository tracks, which replacing the folder would delete; export into ` +
            `a folder that holds no tracked file, such as \`path: ${other}\``, real);
    }
    await warnOfOtherFiles(real, host.log);
}
/**
 * Warns when `folder` holds something an earlier export did not write (see export-record.ts): a
 * folder the team keeps other files in, which the export is about to replace.
 */
async function warnOfOtherFiles(folder, log) {
    const first = await firstEntryOf(folder);
    if (first === undefined || (await writtenByExport(folder)))
        return;
    log.warning(`\`path\` (${folder}) holds files that no earlier export wrote (${(0,common_text/* serviceText */.Lo)(first)}, maybe more): the export ` +
        `replaces the folder whole, and they will be gone. If they are to stay, give \`path\` a folder of its own.`);
}
/** The name of one entry of `folder`; undefined when it is empty or no folder. Reads one entry, not the whole list. */
async function firstEntryOf(folder) {
    const entries = await (0,promises_.opendir)(folder).catch(() => undefined);
    if (entries === undefined)
        return undefined;
    try {
        return (await entries.read())?.name;
    }
    finally {
        await entries.close();
    }
}
/**
 * Throws an InputError naming `helm-values-file` when the export may not write it, judged as
 * `path` is, on the real file system before any request: a folder, a file in `.git`, in `path`
 * (replaced whole by the export), one of the runner's own files or in its own folders (in its temp
 * folder: those holding its files, and the archive's), or in the home folder (see homeFileProblem).
 * Writing replaces the file itself (a symlink there is replaced, not followed).
 */
async function checkHelmValuesFile(settings, host) {
    const file = settings.helmValuesFile;
    if (file === undefined)
        return;
    const refuse = (why, real) => new common_errors/* InputError */.dz(`\`helm-values-file\` must be a file of its own, not ` +
        `${file}${real !== undefined && real !== file ? ` (really ${real})` : ''}, which ${why}.`);
    const real = await realPathOf(file, 'helm-values-file');
    const realOf = async (variables) => {
        const found = [];
        for (const [variable, name] of variables) {
            const value = host.env(variable);
            if (value !== undefined && external_node_path_.isAbsolute(value))
                found.push({ path: await realPathOf(value, 'helm-values-file'), name });
        }
        return found;
    };
    const runnerFiles = await realOf(path_guard/* RUNNER_FILES */.Xi);
    const guarded = [...runnerFiles, ...(await realOf(path_guard/* RUNNER_OWN_FOLDERS */.gE))];
    const temp = host.env('RUNNER_TEMP');
    const realTemp = temp === undefined ? undefined : await realPathOf(temp, 'helm-values-file');
    if (realTemp !== undefined)
        guarded.push(...(0,path_guard/* runnerTempFolders */.cw)(realTemp, runnerFiles));
    if (settings.download)
        guarded.push({ path: await realPathOf(settings.path, 'path'), name: '`path`, which each export replaces whole' });
    const problem = (0,path_guard/* fileProblem */.Wj)(real, guarded);
    if (problem !== undefined)
        throw refuse(problem, real);
    if (realTemp !== undefined) {
        const inTemp = external_node_path_.relative((0,file_names/* foldPath */.t)(realTemp), (0,file_names/* foldPath */.t)(real));
        if (inTemp.startsWith(ARCHIVE_FOLDER_PREFIX) && inTemp.includes(external_node_path_.sep))
            throw refuse('is in a folder the export keeps its archive in, which it replaces whole', real);
    }
    const workspace = host.env('GITHUB_WORKSPACE');
    const jobFolders = workspace === undefined
        ? undefined
        : [await realPathOf(workspace, 'helm-values-file'), ...(realTemp === undefined ? [] : [realTemp])];
    for (const home of await realOf(path_guard/* HOME_FOLDERS */.Se)) {
        const inHome = (0,path_guard/* homeFileProblem */.LK)(real, home, jobFolders);
        if (inHome !== undefined)
            throw refuse(inHome, real);
    }
    if ((await (0,promises_.lstat)(file).catch(() => undefined))?.isDirectory() === true)
        throw refuse('is a folder');
}
/**
 * The real path of `target`: that of its nearest existing ancestor (symlinks resolved) with the
 * missing rest appended as written. `input`: the input it stands for, for the message.
 */
async function realPathOf(target, input) {
    const missing = [];
    for (let at = external_node_path_.resolve(target);; at = external_node_path_.dirname(at)) {
        try {
            return external_node_path_.join(await (0,promises_.realpath)(at), ...missing.reverse());
        }
        catch (error) {
            const code = error.code;
            if ((code !== 'ENOENT' && code !== 'ENOTDIR') || external_node_path_.dirname(at) === at) {
                throw new common_errors/* ActionError */.lZ(`Could not check \`${input}\` (${target}): ${(0,common_errors/* errorMessage */.gJ)(error)}`, { cause: error });
            }
            missing.push(external_node_path_.basename(at));
        }
    }
}

;// CONCATENATED MODULE: ./src/export/site-check.ts




/**
 * The review of one unpacking's staged site before the swap, or undefined when the site is not
 * checked: it checks the site (`files`: its files as site paths, from the unpacking's walk of the
 * staged tree) and judges the result; a throw keeps the previous site.
 */
function siteVerifier(settings, context) {
    if (!settings.extract || settings.verify === 'off')
        return undefined;
    const reported = Number(context.outputs.get('page-count'));
    const expectedPages = Number.isInteger(reported) && reported > 0 ? reported : undefined;
    // The site check is loaded only by a run that checks: it loads while the bundle downloads.
    const loading = (0,cancellation/* startEarly */.wM)(__webpack_require__.e(/* import() */ 40).then(__webpack_require__.bind(__webpack_require__, 8040)));
    return async (stagedRoot, files) => {
        const { checkSite } = await loading;
        judge(await checkSite(stagedRoot, { files, expectedPages, signal: context.signal }), settings, context);
    };
}
function judge(check, settings, context) {
    const { log } = context.host;
    const { outputs, report } = context;
    outputs.set('broken-links', check.brokenCount);
    const links = (0,units/* counted */.hS)(check.links, 'internal link');
    const after = `${Math.round(check.reviewMs)} ms after unpacking`;
    log.info(`Checked the site: ${(0,units/* counted */.hS)(check.htmlPages, 'page')}, ${links}, ${check.brokenCount} broken (${after}).`);
    report.rows.push(['Broken links', String(check.brokenCount)]);
    for (const problem of check.problems)
        log.warning(problem);
    for (const broken of check.broken) {
        // JSON.stringify escapes only C0 controls: the link is the archive's text like the page name.
        const link = JSON.stringify((0,common_text/* serviceText */.Lo)(broken.link));
        const nowhere = `leads to no file of the site${morePlaces(broken)}`;
        log.warning(`Broken link in ${(0,common_text/* serviceText */.Lo)(broken.file)} line ${broken.line}: ${link} ${nowhere}.`);
    }
    if (check.broken.length > 0)
        report.folds.push(brokenLinksFold(check, context.secrets));
    // A bundle without a page would replace the site with none: whatever the check's warnings, that is refused.
    if (check.htmlPages === 0) {
        throw new common_errors/* ActionError */.lZ('The site check failed: the bundle has no HTML page at all, which only `verify: false` lets replace ' +
            'the site. The previous site was left as it was.');
    }
    if (settings.verify !== 'strict' || (check.problems.length === 0 && check.brokenCount === 0))
        return;
    const what = [...check.problems, ...(check.brokenCount > 0 ? [`${leadNowhere(check.brokenCount)}.`] : [])];
    throw new common_errors/* ActionError */.lZ(`The site check failed (\`verify: strict\`): ${what.join(' ')} The previous site was left as it was.`);
}
/** The longest page name or link a summary's line shows: a site's text, of no bound of its own. */
const SHOWN_CHARS = 300;
/**
 * The broken links for the job summary, shown open: one line each, `page line N -> link`, of the
 * first distinct ones (what the site check reports), then how many places the others are in.
 * The archive's text: made safe, the run's secrets taken out before it is cut.
 */
function brokenLinksFold(check, secrets) {
    const shown = (value) => secrets.cut((0,common_text/* serviceText */.Lo)(value), SHOWN_CHARS, `(cut short: ${value.length} characters)`);
    const lines = check.broken.map((broken) => `${shown(broken.file)} line ${broken.line} → ${shown(broken.link)}${morePlaces(broken)}`);
    const listed = check.broken.reduce((sum, broken) => sum + broken.count, 0);
    if (listed < check.brokenCount) {
        const shownLinks = (0,units/* counted */.hS)(check.broken.length, 'link');
        lines.push(`… and ${(0,units/* counted */.hS)(check.brokenCount - listed, 'more place')} (the first ${shownLinks} shown)`);
    }
    return { title: `${leadNowhere(check.brokenCount)}: page and line → link`, kind: 'list', lines, open: true };
}
/** `3 internal links lead to no file of the site`, `1 internal link leads ...`. */
function leadNowhere(count) {
    return `${(0,units/* counted */.hS)(count, 'internal link')} ${count === 1 ? 'leads' : 'lead'} to no file of the site`;
}
/** ` (and 2 more places)`: where else a broken link appears; empty when it appears once. */
function morePlaces(broken) {
    return broken.count > 1 ? ` (and ${(0,units/* counted */.hS)(broken.count - 1, 'more place')})` : '';
}

// EXTERNAL MODULE: ./src/reply/comment-run.ts + 1 modules
var comment_run = __webpack_require__(1046);
;// CONCATENATED MODULE: ./src/export/export-flow.ts
/**
 * Static export, end to end: start (or reuse) a job, follow it, generate the bundle link,
 * download and unpack the archive, write the Helm values. Outputs are set as each fact becomes
 * known, so a failure part-way still hands on the job id and the last status.
 */
















async function runExport(settings, client, context, on) {
    const { clock, host, outputs, report, deadline } = context;
    const { log } = host;
    const api = new ExportApi(client);
    // Before any request: a `path` that may not be replaced, or a Helm values file that may not be
    // written, fails the run while nothing is started.
    await checkExportPath(settings, host);
    await checkHelmValuesFile(settings, host);
    // `started`: this run started the job (not `job-id`, nor an earlier attempt of the workflow run).
    const { jobId, started } = await log.group('Start the export', async () => {
        if (settings.jobId !== undefined) {
            log.info(`Reusing export job ${settings.jobId}.`);
            return { jobId: settings.jobId, started: false };
        }
        const { domain } = settings;
        const sent = await (0,comment_run/* sendOnce */.E4)(on.run, {
            asked: 'start',
            scope: domain,
            words: {
                request: `start an export of ${domain}`,
                instead: 'Find the job on the dashboard and pick it up with `operation: export` and `job-id: <its id>`.'
            },
            asking: on.reply.askingText(`Starting a static export of ${(0,common_text/* commentCode */.ph)(domain)}`),
            send: () => api.start({ domain, version: settings.docsVersion, paths: settings.paths }, deadline),
            jobOf: (answer) => answer.jobId
        }, context);
        if (sent.kind === 'resumed')
            return { jobId: sent.job.jobId, started: false };
        log.info(`Started export job ${sent.answer.jobId} for ${domain}.`);
        // The job first: an output that cannot be written then fails a step that names it.
        outputs.set('job-id', sent.answer.jobId);
        outputs.set('status', sent.answer.status ?? 'queued');
        return { jobId: sent.answer.jobId, started: true };
    });
    outputs.set('job-id', jobId);
    on.reply.working({ jobId, status: outputs.get('status') });
    if (!settings.wait) {
        if (!started)
            publishStatus(await api.status(jobId, deadline), context, on);
        report.notes.push('Not waiting for the job (`wait: false`).');
        return;
    }
    // The download's code loads while the job runs (the poller mostly waits), not after it.
    const transferModules = settings.download ? loadTransferModules() : undefined;
    const { value: final } = await log.group(`Wait for export job ${jobId}`, () => (0,follow_job/* followJob */.B)({
        ...(0,service_job/* serviceJobBasics */.S)(settings, context),
        name: `Export job ${jobId}`,
        check: () => api.status(jobId, deadline),
        read: (status) => ({ status: status.status, summary: describeStatus(status) }),
        terminal: EXPORT_TERMINAL,
        known: EXPORT_KNOWN,
        onValue: (status) => publishStatus(status, context, on),
        // A job of an earlier run may be done already; one this run started is not.
        checkFirst: !started,
        resumeHint: `rerun with \`job-id: ${jobId}\` to pick it up`
    }));
    if (final.status === 'failed') {
        const failure = `Export job ${jobId} failed${final.error ? `: ${final.error}` : ' (the service gave no reason)'}.`;
        await on.reply.end(false, { status: final.status, elapsedMs: jobTime(final), error: failure });
        throw new common_errors/* ActionError */.lZ(failure);
    }
    // Judged before it is handed on: a link that leads somewhere it may not is no output either.
    const policy = await (0,transfer_link/* linkPolicy */.ln)(settings.baseUrl);
    /** Generates a link and hands it on; the first one is logged, a fresh one replaces it silently. */
    const generateLink = async () => {
        const link = await api.bundle(jobId, deadline);
        (0,link_secrets/* maskLinkSecrets */.oY)(link.url, (secret) => context.secrets.add(secret));
        const refused = (0,transfer_link/* refuseLink */.VQ)(new URL(link.url), policy);
        if (refused !== undefined)
            throw new common_errors/* ActionError */.lZ(`${refused}.`);
        publishLink(link, settings, context);
        return link;
    };
    let link = await log.group('Generate the bundle link', async () => {
        const first = await generateLink();
        const at = first.expiresAt;
        const expires = at === undefined ? 'at a time the service did not say' : `${(0,units/* formatUtc */.ay)(at)}, ${(0,units/* formatFromNow */.uT)(at, clock.now())}`;
        log.info(`Bundle link: ${(0,transfer_link/* describeLink */.Ex)(first.url)} (expires ${expires}).`);
        return first;
    });
    if (transferModules !== undefined) {
        link = await log.group('Download the bundle', () => downloadBundle({ settings, context, jobId, link, generateLink, policy, transferModules }));
        // `path` is now this export's: the next one replaces it without a warning.
        await recordExport(settings.path, log);
    }
    if (settings.helmValuesFile !== undefined) {
        await writeFileAtomically(settings.helmValuesFile, helmValuesYaml(settings.helmBundleUrl ?? link.url, settings.exportVersion));
        const address = settings.helmBundleUrl === undefined ? '' : `, with ${settings.helmBundleUrl} as the bundle's address`;
        log.info(`Wrote the Helm values to ${settings.helmValuesFile}${address}.`);
        report.rows.push(['Helm values', settings.helmValuesFile]);
        const expiring = settings.helmBundleUrl === undefined ? expiryWarning(link, clock.now()) : undefined;
        if (expiring !== undefined) {
            log.warning(expiring);
            report.notes.push(expiring);
        }
    }
    await on.reply.end(true, { status: final.status, elapsedMs: jobTime(final), details: exportDetails(final, context) });
}
/** What a comment's reply says the export did: its pages, and where the site or the archive went. */
function exportDetails(final, context) {
    const { outputs } = context;
    const details = final.pageCount === undefined ? [] : [(0,units/* counted */.hS)(final.pageCount, 'page')];
    const site = outputs.get('site-path');
    const archive = outputs.get('bundle-path');
    if (site)
        details.push(`Site unpacked on the runner (\`site-path\`)`);
    else if (archive)
        details.push('Archive kept on the runner (`bundle-path`)');
    else
        details.push('Bundle link generated (`bundle-url`)');
    return details;
}
/**
 * The download's modules, loaded on demand rather than at start-up: a run that only starts a job,
 * or an agent run, never needs them; they load while the job runs.
 */
function loadTransferModules() {
    return (0,cancellation/* startEarly */.wM)(Promise.all([Promise.all(/* import() */[__webpack_require__.e(663), __webpack_require__.e(117)]).then(__webpack_require__.bind(__webpack_require__, 5117)), __webpack_require__.e(/* import() */ 324).then(__webpack_require__.bind(__webpack_require__, 9324))]));
}
/**
 * Puts the bundle in place: from the runner's tool cache when it kept this job's bundle, else
 * downloaded. Returns the link that served it (a fresh one when the first had expired).
 */
async function downloadBundle(step) {
    const { settings, context, jobId, link } = step;
    const { host, outputs, clock, deadline } = context;
    const { log } = host;
    const [{ transferBundle, unpackLocalBundle }, { BundleCache }] = await step.transferModules;
    // Unpacked, the archive is a by-product kept in the runner's temp folder; kept as it is, it is
    // the product and goes into `path`. Outside a runner the by-product goes with the run, so it is
    // never handed on as `bundle-path`.
    const archiveFolder = settings.extract ? archiveFolderOf(host, safeName(jobId)) : settings.path;
    if (settings.extract)
        await sweepDeadRunsArchives(host, log);
    const archiveGoes = settings.extract && !archiveOutlivesRun(host);
    const destination = {
        archiveFolder,
        siteDir: settings.extract ? settings.path : undefined,
        limits: { maxBytes: settings.maxSiteBytes },
        review: siteVerifier(settings, context),
        signal: context.signal,
        log
    };
    // The archive's facts are handed on once it is kept whole, also when the site check then fails
    // (the archive stays for the workflow to look at).
    const publishArchive = (cacheHit) => (archive) => {
        outputs.set('cache-hit', cacheHit);
        if (!archiveGoes)
            outputs.set('bundle-path', archive.archiveFile);
        outputs.set('bundle-sha256', archive.sha256);
        outputs.set('bundle-size', archive.sizeBytes);
    };
    try {
        const cache = host.toolCache === undefined ? undefined : new BundleCache(host.toolCache, settings.baseUrl, jobId, log);
        const cached = await cache?.find();
        if (cached !== undefined) {
            try {
                const unpacked = await unpackLocalBundle(cached, { ...destination, onArchive: publishArchive(true) });
                outputs.set('site-path', unpacked.siteDir ?? '');
                return link;
            }
            catch (error) {
                // A kept copy that does not read as the bundle was damaged: the service still has it.
                if (!(error instanceof errors/* CorruptArchiveError */.sC || error instanceof errors/* NotAnArchiveError */.DD))
                    throw error;
                log.warning(`The bundle kept in the tool cache cannot be used (${error.message}); downloading it again.`);
            }
        }
        const downloaded = await transferBundle({
            ...destination,
            onArchive: publishArchive(false),
            link,
            refreshLink: step.generateLink,
            deadline,
            policy: step.policy,
            maskLinkSecrets: (url) => (0,link_secrets/* maskLinkSecrets */.oY)(url, (secret) => context.secrets.add(secret)),
            clock
        });
        await cache?.keep(downloaded.archiveFile);
        outputs.set('site-path', downloaded.siteDir ?? '');
        return downloaded.link;
    }
    finally {
        if (archiveGoes)
            await removeArchiveFolder(archiveFolder, log);
    }
}
/** The job's own time, from its creation to its last update, when the service says both. */
function jobTime(status) {
    const { createdAt, updatedAt } = status;
    return createdAt === undefined || updatedAt === undefined || updatedAt < createdAt
        ? undefined
        : updatedAt.getTime() - createdAt.getTime();
}
/** The status and its figures (the answer readers keep only sane ones: progress 0..100, a whole page count). */
function publishStatus(value, context, on) {
    const { outputs } = context;
    outputs.set('status', value.status);
    on.reply.working({ status: value.status });
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
        parts.push((0,units/* counted */.hS)(value.pageCount, 'page'));
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

/***/ 6814:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   S2: () => (/* binding */ removeQuietly),
/* harmony export */   W_: () => (/* binding */ isRunning),
/* harmony export */   Xu: () => (/* binding */ swapIntoPlace),
/* harmony export */   cC: () => (/* binding */ createStagingFolder),
/* harmony export */   r7: () => (/* binding */ discardFolder),
/* harmony export */   xA: () => (/* binding */ sweepStaleFolders)
/* harmony export */ });
/* harmony import */ var node_child_process__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(1421);
/* harmony import */ var node_child_process__WEBPACK_IMPORTED_MODULE_0___default = /*#__PURE__*/__webpack_require__.n(node_child_process__WEBPACK_IMPORTED_MODULE_0__);
/* harmony import */ var node_crypto__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(7598);
/* harmony import */ var node_crypto__WEBPACK_IMPORTED_MODULE_1___default = /*#__PURE__*/__webpack_require__.n(node_crypto__WEBPACK_IMPORTED_MODULE_1__);
/* harmony import */ var node_fs_promises__WEBPACK_IMPORTED_MODULE_2__ = __webpack_require__(1455);
/* harmony import */ var node_fs_promises__WEBPACK_IMPORTED_MODULE_2___default = /*#__PURE__*/__webpack_require__.n(node_fs_promises__WEBPACK_IMPORTED_MODULE_2__);
/* harmony import */ var node_path__WEBPACK_IMPORTED_MODULE_3__ = __webpack_require__(6760);
/* harmony import */ var node_path__WEBPACK_IMPORTED_MODULE_3___default = /*#__PURE__*/__webpack_require__.n(node_path__WEBPACK_IMPORTED_MODULE_3__);
/**
 * The site is unpacked into a staging folder next to its destination (same parent, so the final
 * move is a rename on one file system) and swapped in only when whole: a failed or cancelled run
 * never leaves a half-written site, and an earlier site stays until the new one is complete.
 *
 * Every folder of ours beside the site is named `.<site>.<kind>-<pid>-<12 hex>`: `staging` while
 * it fills, `old` for the previous site during the swap, `trash` once it is only waiting to be
 * removed. A run that was killed may leave one behind; the next run beside the same site sweeps
 * them first, and any run sweeps what a dead process left beside another (the CLI's archive
 * folder is named after its process, so no later run has its name).
 */




/** A fresh name `.<site>.<kind>-<pid>-<random>` beside `siteDir`. */
function besideSite(siteDir, kind) {
    return (0,node_path__WEBPACK_IMPORTED_MODULE_3__.join)((0,node_path__WEBPACK_IMPORTED_MODULE_3__.dirname)(siteDir), `.${(0,node_path__WEBPACK_IMPORTED_MODULE_3__.basename)(siteDir)}.${kind}-${process.pid}-${(0,node_crypto__WEBPACK_IMPORTED_MODULE_1__.randomBytes)(6).toString('hex')}`);
}
/** `.<site>.<kind>-<pid>-<12 hex>`, and `.<site>.<kind>-<12 hex>` as earlier versions named them. */
const OURS = /^\.(.+)\.(staging|old|trash)-(?:(\d+)-)?[0-9a-f]{12}$/;
/** Whether process `pid` still runs (one of another user's counts: it cannot be signalled, but it is there). */
function isRunning(pid) {
    try {
        process.kill(pid, 0);
        return true;
    }
    catch (error) {
        return error.code === 'EPERM';
    }
}
/**
 * Whether `entry` is a folder a dead run left beside another site: its staging or trash (a
 * previous site moved aside is its own site's to put back).
 */
function isDeadRunsLeftover(entry, siteName) {
    const match = OURS.exec(entry);
    if (match === null || match[1] === siteName || match[2] === 'old' || match[3] === undefined)
        return false;
    const pid = Number(match[3]);
    return pid !== process.pid && !isRunning(pid);
}
/** A fresh, empty folder `.<name>.staging-<random>` beside `siteDir`. */
async function createStagingFolder(siteDir) {
    const staging = besideSite(siteDir, 'staging');
    // Its parent is made only when missing: a recursive mkdir says EEXIST where a part of the path is a file.
    await (0,node_fs_promises__WEBPACK_IMPORTED_MODULE_2__.mkdir)(staging).catch(async (error) => {
        if (error.code !== 'ENOENT')
            throw error;
        await (0,node_fs_promises__WEBPACK_IMPORTED_MODULE_2__.mkdir)((0,node_path__WEBPACK_IMPORTED_MODULE_3__.dirname)(siteDir), { recursive: true });
        await (0,node_fs_promises__WEBPACK_IMPORTED_MODULE_2__.mkdir)(staging);
    });
    return staging;
}
/**
 * A folder of up to this many entries is removed by this process (some tens of milliseconds); a
 * larger one by a detached process, so that a cancelled run can end at once.
 */
const QUICK_REMOVAL_ENTRIES = 2000;
/**
 * Moves `staging` to `siteDir`: the old site is renamed aside, the new one renamed in, then the
 * old one removed. If the second rename fails, the old site is put back. `entries`, the new
 * site's, tells how large the old one likely is: a large one is removed by a detached process,
 * waited for unless `signal` fires (see discardFolder).
 */
async function swapIntoPlace(staging, siteDir, how) {
    const aside = besideSite(siteDir, 'old');
    let movedAside = false;
    try {
        await (0,node_fs_promises__WEBPACK_IMPORTED_MODULE_2__.rename)(siteDir, aside);
        movedAside = true;
    }
    catch (error) {
        if (error.code !== 'ENOENT')
            throw error;
    }
    try {
        await (0,node_fs_promises__WEBPACK_IMPORTED_MODULE_2__.rename)(staging, siteDir);
    }
    catch (error) {
        if (movedAside)
            await (0,node_fs_promises__WEBPACK_IMPORTED_MODULE_2__.rename)(aside, siteDir).catch(() => undefined);
        throw error;
    }
    if (!movedAside)
        return;
    // An empty folder where the site goes (made by the workflow, or a checkout's placeholder) is
    // removed at once: a process of its own for it would cost 50 ms or more, whatever the new site's size.
    const wasEmpty = await (0,node_fs_promises__WEBPACK_IMPORTED_MODULE_2__.rmdir)(aside).then(() => true, () => false);
    if (wasEmpty)
        return;
    if (how.entries <= QUICK_REMOVAL_ENTRIES)
        await removeQuietly(aside);
    else
        await removeDetached([aside], how.signal);
}
/**
 * Removes a staging folder of `siteDir` that will not be used. When the run is being cancelled
 * and the folder holds many entries, removing them would take seconds, more than the runner
 * waits after its signal (and node's recursive removal stalls the event loop meanwhile): the
 * folder is renamed to a trash name at once and removed by a detached process; whatever that
 * process does not finish, the next run sweeps.
 */
async function discardFolder(folder, siteDir, how) {
    if (!how.cancelled || how.entries <= QUICK_REMOVAL_ENTRIES)
        return removeQuietly(folder);
    const trash = besideSite(siteDir, 'trash');
    try {
        await (0,node_fs_promises__WEBPACK_IMPORTED_MODULE_2__.rename)(folder, trash);
    }
    catch {
        return removeQuietly(folder);
    }
    void removeDetached([trash], AbortSignal.abort());
}
/**
 * Removes the folders an earlier run left beside `siteDir` when it was stopped or killed. One
 * exception: when the site itself is missing but a previous site was moved aside (the run died
 * inside the swap), that previous site is put back rather than removed. The removal runs in a
 * process of its own (it may be many thousand files): a cancellation stops the wait, not the
 * removal.
 */
async function sweepStaleFolders(siteDir, log, signal) {
    const name = (0,node_path__WEBPACK_IMPORTED_MODULE_3__.basename)(siteDir);
    const entries = await (0,node_fs_promises__WEBPACK_IMPORTED_MODULE_2__.readdir)((0,node_path__WEBPACK_IMPORTED_MODULE_3__.dirname)(siteDir)).catch(() => []);
    const stale = entries.filter((entry) => OURS.exec(entry)?.[1] === name);
    const dead = entries.filter((entry) => isDeadRunsLeftover(entry, name));
    if (stale.length === 0 && dead.length === 0)
        return;
    const siteExists = await (0,node_fs_promises__WEBPACK_IMPORTED_MODULE_2__.stat)(siteDir).then(() => true, () => false);
    const previous = siteExists ? undefined : stale.find((entry) => OURS.exec(entry)?.[2] === 'old');
    if (previous !== undefined) {
        await (0,node_fs_promises__WEBPACK_IMPORTED_MODULE_2__.rename)((0,node_path__WEBPACK_IMPORTED_MODULE_3__.join)((0,node_path__WEBPACK_IMPORTED_MODULE_3__.dirname)(siteDir), previous), siteDir);
        log.info(`Put back the previous ${siteDir}, which an earlier run had moved aside to ${previous} when it was stopped`);
    }
    const removed = stale.filter((entry) => entry !== previous);
    if (removed.length > 0) {
        log.info(`Removing ${removed.length} folder${removed.length === 1 ? '' : 's'} that an earlier run left beside ` +
            `${siteDir}: ${removed.join(', ')}`);
    }
    if (dead.length > 0) {
        log.info(`Removing ${dead.length} folder${dead.length === 1 ? '' : 's'} that runs no longer running left in ` +
            `${(0,node_path__WEBPACK_IMPORTED_MODULE_3__.dirname)(siteDir)}: ${dead.join(', ')}`);
    }
    removed.push(...dead);
    if (removed.length === 0)
        return;
    await removeDetached(removed.map((entry) => (0,node_path__WEBPACK_IMPORTED_MODULE_3__.join)((0,node_path__WEBPACK_IMPORTED_MODULE_3__.dirname)(siteDir), entry)), signal);
}
/** Removes a file or folder tree if it is there; cleanup must not hide the error that caused it. */
async function removeQuietly(path) {
    // A tree deeper than the longest path node can name (GNU tar can make one) goes by the system's rm.
    await (0,node_fs_promises__WEBPACK_IMPORTED_MODULE_2__.rm)(path, { recursive: true, force: true, maxRetries: 2 }).catch(() => removeDetached([path], undefined));
}
/**
 * The system's own removal (`rm -rf`, `rmdir /s` on Windows) in a process of its own removes
 * `paths`, so this one does not stall, and trees deeper than a path can name go too. Resolves when
 * that process ends, or as soon as `until` fires: the process then goes on alone, and this one may
 * end without waiting for it. Never rejects: whatever it leaves, the next run sweeps.
 */
function removeDetached(paths, until) {
    const [command, args] = process.platform === 'win32'
        ? ['cmd.exe', ['/d', '/c', 'rmdir', '/s', '/q', ...paths]]
        : ['rm', ['-rf', '--', ...paths]];
    return new Promise((resolve) => {
        try {
            const remover = (0,node_child_process__WEBPACK_IMPORTED_MODULE_0__.spawn)(command, args, { detached: true, stdio: 'ignore', windowsHide: true });
            const letGo = () => {
                remover.unref();
                resolve();
            };
            remover.on('error', () => resolve());
            remover.on('exit', () => {
                until?.removeEventListener('abort', letGo);
                resolve();
            });
            if (until?.aborted)
                letGo();
            else
                until?.addEventListener('abort', letGo, { once: true });
        }
        catch {
            resolve();
        }
    });
}


/***/ }),

/***/ 4627:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {


// EXPORTS
__webpack_require__.d(__webpack_exports__, {
  bT: () => (/* binding */ RefusedAddressError),
  Ex: () => (/* binding */ describeLink),
  rN: () => (/* binding */ guardedLookup),
  _d: () => (/* binding */ isExpired),
  ln: () => (/* binding */ linkPolicy),
  VQ: () => (/* binding */ refuseLink),
  Lw: () => (/* binding */ refuseNameForProxy)
});

// EXTERNAL MODULE: external "node:dns"
var external_node_dns_ = __webpack_require__(610);
// EXTERNAL MODULE: external "node:net"
var external_node_net_ = __webpack_require__(7030);
// EXTERNAL MODULE: ./src/common/link-secrets.ts
var link_secrets = __webpack_require__(641);
// EXTERNAL MODULE: ./src/common/text.ts
var common_text = __webpack_require__(2450);
;// CONCATENATED MODULE: ./src/common/url-host.ts
/**
 * The host of an address as a name or an address: an IPv6 address without the brackets a URL
 * writes it in, a name without the root's dot (`localhost.` is `localhost`, and is judged as it).
 */
function hostOf(url) {
    return url.hostname.replace(/^\[(.*)\]$/, '$1').replace(/\.$/, '');
}

;// CONCATENATED MODULE: ./src/transfer/link.ts
/** A presigned bundle link: its secrets, its printable form, where it may point, its expiry. */





/**
 * The link without its query, credentials, and path segments that look like a credential (see
 * isCredentialSegment): safe to print in any log line. A link with no host (`file:`) is shown with its
 * scheme, not as the `null` origin the URL API gives it.
 */
function describeLink(url) {
    try {
        const parsed = new URL(url);
        const path = parsed.pathname
            .split('/')
            .map((segment) => ((0,link_secrets/* isCredentialSegment */.JS)((0,link_secrets/* decodeOrNot */.T6)(segment)) ? '…' : segment))
            .join('/');
        return (0,common_text/* serviceText */.Lo)(`${parsed.protocol}//${parsed.host}${path}`);
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
    const list = new external_node_net_.BlockList();
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
    const family = (0,external_node_net_.isIP)(address);
    if (family === 0)
        return 'public';
    const type = family === 4 ? 'ipv4' : 'ipv6';
    return REACHES.find(([, , list]) => list.check(address, type))?.[0] ?? 'public';
}
/** The policy for links of the service at `baseUrl`; a host name counts by the addresses it resolves to. */
async function linkPolicy(baseUrl, lookup = external_node_dns_.lookup) {
    const url = new URL(baseUrl);
    const host = hostOf(url);
    const addresses = (0,external_node_net_.isIP)(host) !== 0 || host === 'localhost'
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
        return (`Refusing to fetch the bundle from ${where}: it does not use https:// (plain http is allowed only when ` +
            `\`base-url\` is plain http on a loopback host)`);
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
    if ((0,external_node_net_.isIP)(host) !== 0)
        return undefined;
    const where = describeLink(url.href);
    for (const address of await resolveAll(host, policy.lookup ?? external_node_dns_.lookup)) {
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
    const lookup = policy.lookup ?? external_node_dns_.lookup;
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
