export const id = 191;
export const ids = [191];
export const modules = {

/***/ 8350:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   O: () => (/* binding */ GitHubApiError)
/* harmony export */ });
/**
 * A GitHub API call that failed; `status` 0 when no answer came. `rateLimited`: GitHub asked to
 * slow down (a 429, or a 403 of its secondary rate limits), `retryAfter` saying when to try again.
 */
class GitHubApiError extends Error {
    status;
    rateLimited;
    retryAfter;
    name = 'GitHubApiError';
    constructor(status, message, rateLimited = status === 429, retryAfter) {
        super(message);
        this.status = status;
        this.rateLimited = rateLimited;
        this.retryAfter = retryAfter;
    }
    /** GitHub answers 404 as well as 403 (and 401) when a token may not see or do something. */
    get refused() {
        return this.status === 401 || this.status === 403 || this.status === 404;
    }
}


/***/ }),

/***/ 9191:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   createGitHubApi: () => (/* binding */ createGitHubApi)
/* harmony export */ });
/* harmony import */ var _actions_github__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(2413);
/* harmony import */ var _common_errors_js__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(1922);
/* harmony import */ var _host_js__WEBPACK_IMPORTED_MODULE_2__ = __webpack_require__(8350);
/**
 * The GitHub API port over Octokit (@actions/github). Loaded only when a run talks to GitHub, so
 * that other runs do not pay for loading Octokit and its plugins.
 */



/** A conversation is read to at most this many pages of COMMENTS_PER_PAGE comments. */
const MAX_COMMENT_PAGES = 50;
const COMMENTS_PER_PAGE = 100;
/** `apiUrl`: GITHUB_API_URL, so that GitHub Enterprise Server works; github.com when unset. */
function createGitHubApi(token, apiUrl) {
    const octokit = (0,_actions_github__WEBPACK_IMPORTED_MODULE_0__/* .getOctokit */ .Q)(token, apiUrl ? { baseUrl: apiUrl } : {});
    const { rest } = octokit;
    const call = async (signal, request) => {
        try {
            return await request();
        }
        catch (error) {
            // Octokit reports a request that got no HTTP answer as an HTTP 500: one its signal ended,
            // and one the network failed (refused, reset, a name that does not resolve). It is no
            // answer at all, and says why in its own words.
            if (signal?.aborted === true)
                throw new _host_js__WEBPACK_IMPORTED_MODULE_2__/* .GitHubApiError */ .O(0, (0,_common_errors_js__WEBPACK_IMPORTED_MODULE_1__/* .errorMessage */ .gJ)(signal.reason ?? error));
            const found = error?.status;
            if (typeof found === 'number' && !answered(error))
                throw new _host_js__WEBPACK_IMPORTED_MODULE_2__/* .GitHubApiError */ .O(0, `no answer from GitHub: ${networkMessage(error)}`);
            const status = typeof found === 'number' ? found : 0;
            const headers = error?.response?.headers ?? {};
            // GitHub's secondary rate limits answer 403 with Retry-After, its primary one with no
            // requests left until x-ratelimit-reset (epoch seconds).
            const reset = Number(headers['x-ratelimit-reset']);
            const exhausted = headers['x-ratelimit-remaining'] === '0';
            const retryAfter = headers['retry-after'] ??
                (exhausted && Number.isFinite(reset) ? String(Math.max(0, Math.ceil(reset - Date.now() / 1000))) : undefined);
            const rateLimited = status === 429 || (status === 403 && (headers['retry-after'] !== undefined || exhausted));
            throw new _host_js__WEBPACK_IMPORTED_MODULE_2__/* .GitHubApiError */ .O(status, (0,_common_errors_js__WEBPACK_IMPORTED_MODULE_1__/* .errorMessage */ .gJ)(error), rateLimited, retryAfter);
        }
    };
    const posted = (data) => ({ id: data.id, url: data.html_url });
    return {
        tokenLogin: async (signal) => {
            try {
                const { data } = await call(signal, () => rest.users.getAuthenticated({ request: { signal } }));
                return data.login;
            }
            catch (error) {
                // An installation token: "Resource not accessible by integration".
                if (error instanceof _host_js__WEBPACK_IMPORTED_MODULE_2__/* .GitHubApiError */ .O && error.refused && !error.rateLimited)
                    return undefined;
                throw error;
            }
        },
        getPermission: async ({ owner, repo }, username, signal) => {
            const { data } = await call(signal, () => rest.repos.getCollaboratorPermissionLevel({ owner, repo, username, request: { signal } }));
            const roleName = data.role_name;
            return {
                roleName: typeof roleName === 'string' ? roleName : undefined,
                permission: typeof data.permission === 'string' ? data.permission : undefined
            };
        },
        listIssueComments: ({ owner, repo }, issueNumber, signal) => call(signal, () => allComments((page) => rest.issues.listComments({
            owner,
            repo,
            issue_number: issueNumber,
            per_page: COMMENTS_PER_PAGE,
            page,
            request: { signal }
        }))),
        listReviewComments: ({ owner, repo }, pullNumber, signal) => call(signal, () => allComments((page) => rest.pulls.listReviewComments({
            owner,
            repo,
            pull_number: pullNumber,
            per_page: COMMENTS_PER_PAGE,
            page,
            request: { signal }
        }))),
        reactToIssueComment: async ({ owner, repo }, commentId, content, signal) => {
            await call(signal, () => rest.reactions.createForIssueComment({ owner, repo, comment_id: commentId, content, request: { signal } }));
        },
        reactToReviewComment: async ({ owner, repo }, commentId, content, signal) => {
            await call(signal, () => rest.reactions.createForPullRequestReviewComment({
                owner,
                repo,
                comment_id: commentId,
                content,
                request: { signal }
            }));
        },
        createIssueComment: async ({ owner, repo }, issueNumber, body, signal) => posted((await call(signal, () => rest.issues.createComment({ owner, repo, issue_number: issueNumber, body, request: { signal } }))).data),
        replyToReviewComment: async ({ owner, repo }, pullNumber, commentId, body, signal) => posted((await call(signal, () => rest.pulls.createReplyForReviewComment({
            owner,
            repo,
            pull_number: pullNumber,
            comment_id: commentId,
            body,
            request: { signal }
        }))).data),
        updateIssueComment: async ({ owner, repo }, commentId, body, signal) => {
            await call(signal, () => rest.issues.updateComment({ owner, repo, comment_id: commentId, body, request: { signal } }));
        },
        updateReviewComment: async ({ owner, repo }, commentId, body, signal) => {
            await call(signal, () => rest.pulls.updateReviewComment({ owner, repo, comment_id: commentId, body, request: { signal } }));
        }
    };
}
/** Whether an Octokit error came with an HTTP answer: one without (a network failure) has a status (500) but no `response`. */
function answered(error) {
    return error?.response !== undefined;
}
/**
 * What the network said of a request that got no answer, e.g. `connect ECONNREFUSED 127.0.0.1:443`
 * or `getaddrinfo ENOTFOUND api.github.com`: the innermost cause that says something (fetch's own
 * "fetch failed" says nothing), with its code when its words do not hold it.
 */
function networkMessage(error) {
    const causes = [];
    let cause = error;
    while (typeof cause === 'object' && cause !== null && causes.length < 8 && !causes.includes(cause)) {
        causes.push(cause);
        cause = cause.cause;
    }
    // A connection tried on several addresses fails with them all (an AggregateError); the first says enough.
    const tried = causes.at(-1)?.errors;
    if (Array.isArray(tried) && typeof tried[0] === 'object' && tried[0] !== null)
        causes.push(tried[0]);
    for (const { message, code } of causes.reverse()) {
        const words = typeof message === 'string' ? message.trim() : '';
        const named = typeof code === 'string' && code !== '' ? code : undefined;
        if (words !== '' && words !== 'fetch failed')
            return named !== undefined && !words.includes(named) ? `${named}: ${words}` : words;
        if (named !== undefined)
            return named;
    }
    return (0,_common_errors_js__WEBPACK_IMPORTED_MODULE_1__/* .errorMessage */ .gJ)(error);
}
/**
 * Every comment of a listing, page by page (up to MAX_COMMENT_PAGES). By hand: Octokit's paginate
 * does not pass the request's signal on, and a listing nothing can stop would hold the step past
 * `timeout` and past a cancellation.
 */
async function allComments(page) {
    const comments = [];
    for (let number = 1; number <= MAX_COMMENT_PAGES; number++) {
        const { data } = await page(number);
        for (const comment of data) {
            comments.push({
                id: comment.id,
                body: comment.body ?? '',
                url: comment.html_url,
                author: { login: comment.user?.login, type: comment.user?.type },
                inReplyTo: comment.in_reply_to_id
            });
        }
        if (data.length < COMMENTS_PER_PAGE)
            break;
    }
    return comments;
}


/***/ })

};
