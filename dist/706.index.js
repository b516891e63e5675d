export const id = 706;
export const ids = [706];
export const modules = {

/***/ 9706:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

// ESM COMPAT FLAG
__webpack_require__.r(__webpack_exports__);

// EXPORTS
__webpack_require__.d(__webpack_exports__, {
  createGitHubApi: () => (/* binding */ createGitHubApi)
});

// EXTERNAL MODULE: ./node_modules/@actions/github/lib/github.js + 22 modules
var github = __webpack_require__(2413);
// EXTERNAL MODULE: ./src/common/errors.ts
var errors = __webpack_require__(1922);
// EXTERNAL MODULE: ./src/common/text.ts
var common_text = __webpack_require__(2450);
// EXTERNAL MODULE: ./src/action/host.ts
var host = __webpack_require__(8350);
;// CONCATENATED MODULE: ./src/action/github-answers.ts
/**
 * The one reader of GitHub's answers: each call's answer is checked for the shape that call
 * returns, and one that is not (Octokit hands back the raw text of a body it cannot read as JSON:
 * cut short, empty, an HTML error page) fails with a GitHubAnswerError naming the call. Never an
 * empty list or a permission of `none` in its place: either would be a guess. Pure.
 */

/** A page of a conversation's comments: a list of comments, each with a numeric id. */
const commentPage = (data, status, what) => {
    if (!Array.isArray(data))
        throw unreadable(data, status, what, 'a list of comments');
    return data.map((item) => {
        const comment = objectOf(item);
        // A deleted account's comment has no user: an author nobody is.
        const user = comment?.user === null || comment?.user === undefined ? {} : objectOf(comment.user);
        if (comment === undefined || !isId(comment.id) || user === undefined || !optional(comment.body, 'string'))
            throw unreadable(data, status, what, 'a list of comments, each with an id, a body and its author');
        return {
            id: comment.id,
            body: typeof comment.body === 'string' ? comment.body : '',
            url: typeof comment.html_url === 'string' ? comment.html_url : undefined,
            author: {
                login: typeof user.login === 'string' ? user.login : undefined,
                type: typeof user.type === 'string' ? user.type : undefined
            },
            inReplyTo: isId(comment.in_reply_to_id) ? comment.in_reply_to_id : undefined
        };
    });
};
/** A page of a review's inline comments: each with an id, a body, its author, and where it was written. */
const inlineCommentPage = (data, status, what) => {
    const comments = commentPage(data, status, what);
    return comments.map((comment, index) => {
        const item = objectOf(data[index]) ?? {};
        const lineOk = item.line === undefined || item.line === null || typeof item.line === 'number';
        if (!optional(item.path, 'string') || !lineOk)
            throw unreadable(data, status, what, 'a list of review comments, each with its path and line');
        const line = isId(item.line) ? item.line : isId(item.original_line) ? item.original_line : undefined;
        return {
            id: comment.id,
            body: comment.body,
            author: comment.author,
            path: typeof item.path === 'string' && item.path !== '' ? item.path : undefined,
            line
        };
    });
};
/** A deployment just created: its id. */
const createdDeployment = (data, status, what) => {
    const answer = objectOf(data);
    if (answer === undefined || !isId(answer.id))
        throw unreadable(data, status, what, 'the deployment with its id');
    return answer.id;
};
/** A user's permission on a repository: `permission` or `role_name` (or both), as text. */
const permission = (data, status, what) => {
    const answer = objectOf(data);
    const roleName = answer?.role_name;
    const base = answer?.permission;
    if (answer === undefined || (typeof roleName !== 'string' && typeof base !== 'string'))
        throw unreadable(data, status, what, 'a permission');
    return {
        roleName: typeof roleName === 'string' ? roleName : undefined,
        permission: typeof base === 'string' ? base : undefined
    };
};
/** A comment just posted: its id (and its address). */
const postedComment = (data, status, what) => {
    const answer = objectOf(data);
    if (answer === undefined || !isId(answer.id))
        throw unreadable(data, status, what, 'the comment with its id');
    return { id: answer.id, url: typeof answer.html_url === 'string' ? answer.html_url : undefined };
};
/** The user a token writes as: its login. */
const login = (data, status, what) => {
    const answer = objectOf(data);
    if (typeof answer?.login !== 'string')
        throw unreadable(data, status, what, 'a user with a login');
    return answer.login;
};
function objectOf(value) {
    return value !== null && typeof value === 'object' && !Array.isArray(value)
        ? value
        : undefined;
}
function isId(value) {
    return typeof value === 'number' && Number.isSafeInteger(value) && value > 0;
}
function optional(value, type) {
    return value === undefined || value === null || typeof value === type;
}
/**
 * The failure of an answer that is not what `what` returns: what came instead, said by its kind
 * only (GitHub's text is not repeated: an error page may hold anything, a cut one part of a token).
 */
function unreadable(data, status, what, expected) {
    return new host/* GitHubAnswerError */.c(status, `GitHub's answer to ${what} could not be read: HTTP ${status} with ${kindOf(data)} where ${expected} was expected`);
}
/** What a body that is not the JSON a call returns is, by its kind. */
function kindOf(data) {
    if (typeof data === 'string') {
        const text = data.trim();
        if (text === '')
            return 'an empty body';
        if (text.startsWith('<'))
            return 'an HTML page';
        if (text.startsWith('{') || text.startsWith('['))
            return 'JSON cut short or malformed';
        return 'text that is not JSON';
    }
    if (data instanceof ArrayBuffer || ArrayBuffer.isView(data))
        return 'a body that is not JSON';
    if (data === null || data === undefined)
        return 'no body';
    return `JSON of another shape (${Array.isArray(data) ? 'a list' : typeof data})`;
}

;// CONCATENATED MODULE: ./src/action/octokit.ts
/**
 * The GitHub API port over Octokit (@actions/github). Loaded only when a run talks to GitHub, so
 * that other runs do not pay for loading Octokit and its plugins.
 */





/** A conversation is read to at most this many pages of COMMENTS_PER_PAGE comments. */
const MAX_COMMENT_PAGES = 50;
const COMMENTS_PER_PAGE = 100;
/** `apiUrl`: GITHUB_API_URL, so that GitHub Enterprise Server works; github.com when unset. */
function createGitHubApi(token, apiUrl) {
    const octokit = (0,github/* getOctokit */.Q)(token, apiUrl ? { baseUrl: apiUrl } : {});
    const { rest } = octokit;
    /** One request, its failure as a GitHubApiError, its answer read by `read` (or only its status judged). */
    const call = async (what, signal, request, read) => {
        let answer;
        try {
            answer = await request();
        }
        catch (error) {
            throw failed(error, signal);
        }
        // A body its signal cut short reads as an empty one: that is no answer, not an empty answer.
        if (signal?.aborted === true)
            throw new host/* GitHubApiError */.O(0, (0,errors/* errorMessage */.gJ)(signal.reason));
        return read(answer.data, answer.status, what);
    };
    const done = () => undefined;
    const where = ({ owner, repo }, number) => `${owner}/${repo}${number === undefined ? '' : `#${number}`}`;
    return {
        tokenLogin: async (signal) => {
            try {
                return await call('read whom the token writes as', signal, () => rest.users.getAuthenticated({ request: { signal } }), login);
            }
            catch (error) {
                // An installation token: "Resource not accessible by integration".
                if (error instanceof host/* GitHubApiError */.O && error.refused && !error.rateLimited)
                    return undefined;
                throw error;
            }
        },
        getPermission: (repository, username, signal) => call(`read the permission of ${username} on ${where(repository)}`, signal, () => rest.repos.getCollaboratorPermissionLevel({ ...repository, username, request: { signal } }), permission),
        listIssueComments: (repository, issueNumber, signal) => allComments(`the comments of ${where(repository, issueNumber)}`, (page) => call(`list the comments of ${where(repository, issueNumber)} (page ${page})`, signal, () => rest.issues.listComments({
            ...repository,
            issue_number: issueNumber,
            per_page: COMMENTS_PER_PAGE,
            page,
            request: { signal }
        }), commentPage)),
        listReviewComments: (repository, pullNumber, signal) => allComments(`the review comments of ${where(repository, pullNumber)}`, (page) => call(`list the review comments of ${where(repository, pullNumber)} (page ${page})`, signal, () => rest.pulls.listReviewComments({
            ...repository,
            pull_number: pullNumber,
            per_page: COMMENTS_PER_PAGE,
            page,
            request: { signal }
        }), commentPage)),
        reactToIssueComment: (repository, commentId, content, signal) => call(`react to comment ${commentId}`, signal, () => rest.reactions.createForIssueComment({ ...repository, comment_id: commentId, content, request: { signal } }), done),
        reactToReviewComment: (repository, commentId, content, signal) => call(`react to review comment ${commentId}`, signal, () => rest.reactions.createForPullRequestReviewComment({
            ...repository,
            comment_id: commentId,
            content,
            request: { signal }
        }), done),
        createIssueComment: (repository, issueNumber, body, signal) => call(`post a comment on ${where(repository, issueNumber)}`, signal, () => rest.issues.createComment({ ...repository, issue_number: issueNumber, body, request: { signal } }), postedComment),
        replyToReviewComment: (repository, pullNumber, commentId, body, signal) => call(`reply to review comment ${commentId} on ${where(repository, pullNumber)}`, signal, () => rest.pulls.createReplyForReviewComment({
            ...repository,
            pull_number: pullNumber,
            comment_id: commentId,
            body,
            request: { signal }
        }), postedComment),
        listReviewInlineComments: (repository, pullNumber, reviewId, max, signal) => call(`list the comments of review ${reviewId} on ${where(repository, pullNumber)}`, signal, () => rest.pulls.listCommentsForReview({
            ...repository,
            pull_number: pullNumber,
            review_id: reviewId,
            per_page: Math.min(max, COMMENTS_PER_PAGE),
            page: 1,
            request: { signal }
        }), inlineCommentPage),
        createDeployment: (repository, request, signal) => call(`create a deployment of ${request.ref} in ${request.environment} on ${where(repository)}`, signal, () => rest.repos.createDeployment({
            ...repository,
            ref: request.ref,
            environment: request.environment,
            description: request.description,
            transient_environment: true,
            production_environment: false,
            auto_merge: false,
            required_contexts: [],
            request: { signal }
        }), createdDeployment),
        createDeploymentStatus: (repository, deploymentId, state, signal) => call(`set the status of deployment ${deploymentId} on ${where(repository)}`, signal, () => rest.repos.createDeploymentStatus({
            ...repository,
            deployment_id: deploymentId,
            state: state.state,
            description: state.description,
            ...(state.environmentUrl === undefined ? {} : { environment_url: state.environmentUrl }),
            ...(state.logUrl === undefined ? {} : { log_url: state.logUrl }),
            request: { signal }
        }), done),
        updateIssueComment: (repository, commentId, body, signal) => call(`edit comment ${commentId}`, signal, () => rest.issues.updateComment({ ...repository, comment_id: commentId, body, request: { signal } }), done),
        updateReviewComment: (repository, commentId, body, signal) => call(`edit review comment ${commentId}`, signal, () => rest.pulls.updateReviewComment({ ...repository, comment_id: commentId, body, request: { signal } }), done)
    };
}
/**
 * An Octokit failure as a GitHubApiError. Octokit reports a request that got no HTTP answer as an
 * HTTP 500: one its signal ended, and one the network failed (refused, reset, a name that does not
 * resolve). It is no answer at all (status 0), and says why in its own words.
 */
function failed(error, signal) {
    if (signal?.aborted === true)
        return new host/* GitHubApiError */.O(0, (0,errors/* errorMessage */.gJ)(signal.reason ?? error));
    const found = error?.status;
    if (typeof found === 'number' && !answered(error))
        return new host/* GitHubApiError */.O(0, `no answer from GitHub: ${networkMessage(error)}`);
    const status = typeof found === 'number' ? found : 0;
    const headers = error?.response?.headers ?? {};
    // GitHub's secondary rate limits answer 403 with Retry-After, its primary one with no
    // requests left until x-ratelimit-reset (epoch seconds).
    const reset = Number(headers['x-ratelimit-reset']);
    const exhausted = headers['x-ratelimit-remaining'] === '0';
    const retryAfter = headers['retry-after'] ??
        (exhausted && Number.isFinite(reset) ? String(Math.max(0, Math.ceil(reset - Date.now() / 1000))) : undefined);
    const rateLimited = status === 429 || (status === 403 && (headers['retry-after'] !== undefined || exhausted));
    return new host/* GitHubApiError */.O(status, saidBy(error), rateLimited, retryAfter);
}
/**
 * What GitHub said in a refusal, made safe for a log line: its JSON's message (Octokit's words
 * for it) on one line that can start no workflow command; a body that is not JSON (an HTML error
 * page, text), which Octokit would repeat whole, by its kind only.
 */
function saidBy(error) {
    const data = error?.response?.data;
    if (typeof data === 'string' || data instanceof ArrayBuffer)
        return `GitHub answered with ${kindOf(data)}`;
    return (0,common_text/* serviceText */.Lo)((0,errors/* errorMessage */.gJ)(error));
}
/** Whether an Octokit error came with an HTTP answer: one without (a network failure) has no `response`. */
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
    return (0,errors/* errorMessage */.gJ)(error);
}
/**
 * Every comment of a listing, page by page, up to MAX_COMMENT_PAGES. By hand: Octokit's paginate
 * does not pass the request's signal on, and a listing nothing can stop would hold the step past
 * `timeout` and past a cancellation. A conversation longer than that fails: whoever reads it
 * looks for a comment of the action's (an earlier reply, a record), and one it did not read may
 * be the one it looks for.
 */
async function allComments(what, page) {
    const comments = [];
    for (let number = 1;; number++) {
        const found = await page(number);
        if (number > MAX_COMMENT_PAGES && found.length > 0) {
            throw new host/* GitHubAnswerError */.c(200, `${what} run past ${MAX_COMMENT_PAGES * COMMENTS_PER_PAGE}, more than the action reads, so a comment of ` +
                `its own among the rest could be missed`, true);
        }
        comments.push(...found);
        if (found.length < COMMENTS_PER_PAGE)
            return comments;
    }
}


/***/ })

};
