export const id = 324;
export const ids = [324];
export const modules = {

/***/ 9324:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

__webpack_require__.r(__webpack_exports__);
/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   BundleCache: () => (/* binding */ BundleCache)
/* harmony export */ });
/* harmony import */ var node_crypto__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(7598);
/* harmony import */ var node_crypto__WEBPACK_IMPORTED_MODULE_0___default = /*#__PURE__*/__webpack_require__.n(node_crypto__WEBPACK_IMPORTED_MODULE_0__);
/* harmony import */ var node_fs_promises__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(1455);
/* harmony import */ var node_fs_promises__WEBPACK_IMPORTED_MODULE_1___default = /*#__PURE__*/__webpack_require__.n(node_fs_promises__WEBPACK_IMPORTED_MODULE_1__);
/* harmony import */ var node_path__WEBPACK_IMPORTED_MODULE_2__ = __webpack_require__(6760);
/* harmony import */ var node_path__WEBPACK_IMPORTED_MODULE_2___default = /*#__PURE__*/__webpack_require__.n(node_path__WEBPACK_IMPORTED_MODULE_2__);
/* harmony import */ var _common_errors_js__WEBPACK_IMPORTED_MODULE_3__ = __webpack_require__(1922);
/**
 * A bundle already fetched, kept in the runner's tool cache: on a self-hosted runner a rerun for
 * the same export job (`job-id`) unpacks it from there instead of downloading it again. A
 * completed job's files do not change, so its bundle is keyed by the service and the job.
 */




const TOOL = 'docs-export-bundle';
/**
 * Bundles kept at most: the tool cache is never emptied by itself, and a run with `domain` starts
 * a new job each time, so each would add a bundle for good. A rerun wants the latest few, and a
 * bundle that reruns keep using (a deployment's pinned `job-id`) stays among them.
 */
const KEPT_BUNDLES = 3;
class BundleCache {
    toolCache;
    jobId;
    log;
    /** The tool cache wants a semver version: the job and its service, hashed into a prerelease tag. */
    version;
    constructor(toolCache, baseUrl, jobId, log) {
        this.toolCache = toolCache;
        this.jobId = jobId;
        this.log = log;
        this.version = `0.0.0-j${(0,node_crypto__WEBPACK_IMPORTED_MODULE_0__.createHash)('sha256').update(`${baseUrl}\n${jobId}`).digest('hex').slice(0, 24)}`;
    }
    /**
     * The cached archive of this job, or undefined; one found is marked used, so that it is the last
     * to be pruned. A cache that cannot be read is no cache.
     */
    async find() {
        let archive;
        try {
            const folder = await this.toolCache.find(TOOL, this.version);
            const name = folder === undefined ? undefined : (await (0,node_fs_promises__WEBPACK_IMPORTED_MODULE_1__.readdir)(folder)).find((entry) => entry.startsWith('bundle.'));
            archive = folder === undefined || name === undefined ? undefined : (0,node_path__WEBPACK_IMPORTED_MODULE_2__.join)(folder, name);
        }
        catch (error) {
            this.log.warning(`Could not look up the bundle of export job ${this.jobId} in the tool cache: ${(0,_common_errors_js__WEBPACK_IMPORTED_MODULE_3__/* .errorMessage */ .gJ)(error)}`);
            return undefined;
        }
        // Only the order of pruning depends on it: a bundle that cannot be marked is still used.
        if (archive !== undefined)
            await this.toolCache
                .markUsed(TOOL, this.version)
                .catch((error) => this.log.debug(`Could not mark the bundle as used in the tool cache: ${(0,_common_errors_js__WEBPACK_IMPORTED_MODULE_3__/* .errorMessage */ .gJ)(error)}`));
        return archive;
    }
    /**
     * Keeps `archiveFile` for later runs, and forgets all but the KEPT_BUNDLES most recently kept or used bundles;
     * a failure is a warning (the bundle is downloaded then).
     */
    async keep(archiveFile) {
        try {
            await this.toolCache.cacheFile(archiveFile, (0,node_path__WEBPACK_IMPORTED_MODULE_2__.basename)(archiveFile), TOOL, this.version);
            this.log.info(`Kept the bundle of export job ${this.jobId} in the runner's tool cache for later runs.`);
            const older = (await this.toolCache.versions(TOOL))
                .filter((version) => version !== this.version)
                .slice(KEPT_BUNDLES - 1);
            for (const version of older)
                await this.toolCache.remove(TOOL, version);
            if (older.length > 0)
                this.log.info(`Removed ${older.length} older bundle${older.length === 1 ? '' : 's'} from the tool cache (it keeps ` +
                    `the ${KEPT_BUNDLES} most recently used).`);
        }
        catch (error) {
            this.log.warning(`Could not keep the bundle of export job ${this.jobId} in the tool cache: ${(0,_common_errors_js__WEBPACK_IMPORTED_MODULE_3__/* .errorMessage */ .gJ)(error)}`);
        }
    }
}


/***/ })

};
