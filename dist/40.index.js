export const id = 40;
export const ids = [40];
export const modules = {

/***/ 4651:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   Bz: () => (/* binding */ encodeSitePath),
/* harmony export */   Ir: () => (/* binding */ walkTree),
/* harmony export */   fj: () => (/* binding */ fileSystemPath),
/* harmony export */   k_: () => (/* binding */ listSite),
/* harmony export */   xZ: () => (/* binding */ decodeSitePath)
/* harmony export */ });
/* harmony import */ var node_fs__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(3024);
/* harmony import */ var node_fs__WEBPACK_IMPORTED_MODULE_0___default = /*#__PURE__*/__webpack_require__.n(node_fs__WEBPACK_IMPORTED_MODULE_0__);
/* harmony import */ var node_path__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(6760);
/* harmony import */ var node_path__WEBPACK_IMPORTED_MODULE_1___default = /*#__PURE__*/__webpack_require__.n(node_path__WEBPACK_IMPORTED_MODULE_1__);
/**
 * Site paths, and the names on disk they stand for. A site path is a file's path from the site's
 * root, `/`-separated, as a string (`guides/start.html`).
 *
 * A name that is not UTF-8 (`caf\xe9.html` from a Latin-1 tar) keeps its bytes: each byte that is
 * no part of valid UTF-8 is carried as the lone surrogate U+DC80 + (byte - 0x80), as Python's
 * `surrogateescape` does. No valid UTF-8 decodes to those, so two such names stay two, and a file
 * is opened by its own bytes again (fileSystemPath).
 */


const ESCAPE_BASE = 0xdc00;
/** A name (or a path of names) as a site path: UTF-8, with the bytes that are not carried as escapes. */
function decodeSitePath(name) {
    const text = name.toString('utf8');
    // Invalid UTF-8 decodes to U+FFFD; a name without one needs nothing more.
    if (!text.includes('\ufffd'))
        return text;
    let path = '';
    let run = 0;
    for (let at = 0; at < name.length;) {
        const length = utf8SequenceLength(name, at);
        if (length !== 0) {
            at += length;
            continue;
        }
        path += name.toString('utf8', run, at) + String.fromCharCode(ESCAPE_BASE + name[at]);
        run = ++at;
    }
    return path + name.toString('utf8', run);
}
/** The bytes of the name a site path stands for: the inverse of decodeSitePath(). */
function encodeSitePath(path) {
    if (!hasEscapes(path))
        return Buffer.from(path, 'utf8');
    const parts = [];
    let run = 0;
    for (let at = 0; at < path.length; at++) {
        const unit = path.charCodeAt(at);
        if (isHighSurrogate(unit) && isLowSurrogate(path.charCodeAt(at + 1)))
            at++;
        else if (isEscape(unit)) {
            parts.push(Buffer.from(path.slice(run, at), 'utf8'), Buffer.of(unit - ESCAPE_BASE));
            run = at + 1;
        }
    }
    parts.push(Buffer.from(path.slice(run), 'utf8'));
    return Buffer.concat(parts);
}
/** The path to open for a site path of the site in `root`: a string, or its bytes when the name is not UTF-8. */
function fileSystemPath(root, path) {
    // A site path needs no normalising (path.join's cost, once a page, showed in a site check's profile).
    return hasEscapes(path) ? Buffer.concat([Buffer.from(root + node_path__WEBPACK_IMPORTED_MODULE_1__.sep), encodeSitePath(path)]) : `${root}${node_path__WEBPACK_IMPORTED_MODULE_1__.sep}${path}`;
}
/** Visits every entry below `root`, each folder before what it holds; links are not followed. */
async function walkTree(root, visit, signal) {
    // Folders are read by their bytes, so that a name that is not UTF-8 is found as it is.
    const folders = [{ onDisk: Buffer.from(root), path: '' }];
    for (let folder = folders.pop(); folder !== undefined; folder = folders.pop()) {
        signal?.throwIfAborted();
        for (const entry of (0,node_fs__WEBPACK_IMPORTED_MODULE_0__.readdirSync)(folder.onDisk, { withFileTypes: true, encoding: 'buffer' })) {
            const path = folder.path + decodeSitePath(entry.name);
            const onDisk = Buffer.concat([folder.onDisk, SEPARATOR, entry.name]);
            await visit({ path, onDisk, entry });
            if (entry.isDirectory())
                folders.push({ onDisk, path: `${path}/` });
        }
    }
}
/** Every regular file and symbolic link of the site in `root`, as site paths. */
async function listSite(root, signal) {
    const files = [];
    await walkTree(root, ({ path, entry }) => void ((entry.isFile() || entry.isSymbolicLink()) && files.push(path)), signal);
    return files;
}
const SEPARATOR = Buffer.from(node_path__WEBPACK_IMPORTED_MODULE_1__.sep);
function hasEscapes(path) {
    for (let at = 0; at < path.length; at++) {
        const unit = path.charCodeAt(at);
        if (isHighSurrogate(unit) && isLowSurrogate(path.charCodeAt(at + 1)))
            at++;
        else if (isEscape(unit))
            return true;
    }
    return false;
}
const isHighSurrogate = (unit) => unit >= 0xd800 && unit <= 0xdbff;
const isLowSurrogate = (unit) => unit >= 0xdc00 && unit <= 0xdfff;
/** What an escaped byte (0x80 to 0xff: bytes below are always valid UTF-8) becomes. */
const isEscape = (unit) => unit >= ESCAPE_BASE + 0x80 && unit <= ESCAPE_BASE + 0xff;
/** The length of the valid UTF-8 sequence at `at` (1 to 4), or 0 when the byte there starts none. */
function utf8SequenceLength(bytes, at) {
    const first = bytes[at];
    if (first < 0x80)
        return 1;
    // The range of the second byte, which rules out overlong forms, surrogates and code points past U+10FFFF.
    let length;
    let low = 0x80;
    let high = 0xbf;
    if (first >= 0xc2 && first <= 0xdf)
        length = 2;
    else if (first >= 0xe0 && first <= 0xef) {
        length = 3;
        if (first === 0xe0)
            low = 0xa0;
        else if (first === 0xed)
            high = 0x9f;
    }
    else if (first >= 0xf0 && first <= 0xf4) {
        length = 4;
        if (first === 0xf0)
            low = 0x90;
        else if (first === 0xf4)
            high = 0x8f;
    }
    else
        return 0;
    if (at + length > bytes.length)
        return 0;
    const second = bytes[at + 1];
    if (second < low || second > high)
        return 0;
    for (let next = at + 2; next < at + length; next++)
        if ((bytes[next] & 0xc0) !== 0x80)
            return 0;
    return length;
}


/***/ }),

/***/ 8040:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

// ESM COMPAT FLAG
__webpack_require__.r(__webpack_exports__);

// EXPORTS
__webpack_require__.d(__webpack_exports__, {
  checkSite: () => (/* binding */ checkSite)
});

// EXTERNAL MODULE: external "node:fs"
var external_node_fs_ = __webpack_require__(3024);
// EXTERNAL MODULE: external "node:timers/promises"
var promises_ = __webpack_require__(8500);
;// CONCATENATED MODULE: ./src/verify/page-links.ts
/**
 * The `href`/`src` values of an HTML page's start tags, from its bytes, read a window at a time. A
 * value follows `href` or `src` in any case with whitespace before it (not `data-src`, `xhref`),
 * optional whitespace, `=`, optional whitespace: quoted either way, up to its closing quote within
 * MAX_VALUE_BYTES, or unquoted, up to whitespace or `>`. Only in a start tag: going back from the
 * name, the nearest `<` or `>` is a `<` that an ASCII letter follows; so HTML shown as text
 * (`&lt;a href="/about"&gt;`), prose, `</a href=x>`, `<!`, `<?` and a page's start hold no link.
 * Known limits: a `>` (or `<`) in an earlier quoted value of the tag decides instead (`<a title="a >
 * b" href="/x">` hides the link), and links inside comments count.
 */
/** Attribute values are short; a longer run is not one (a broken page, or a script). */
const MAX_VALUE_BYTES = 2048;
/** A page is read this much at a time: memory stays flat whatever the pages' size. */
const WINDOW_BYTES = 1024 * 1024;
/** A longer run of whitespace reads the same as one of this length (no value holds it). */
const RUN_BYTES = MAX_VALUE_BYTES + 1;
const [EQUALS, LESS, GREATER, LINE_FEED, DOUBLE_QUOTE, SINGLE_QUOTE] = [0x3d, 0x3c, 0x3e, 0x0a, 0x22, 0x27];
const LOWER = 0x20;
const NAMES = [Buffer.from('href'), Buffer.from('src')];
/** HTML's whitespace. */
const isSpace = (byte) => byte === 0x20 || byte === 0x0a || byte === 0x09 || byte === 0x0d || byte === 0x0c;
/**
 * Walks the link values of pages: each `=` found by Buffer's native search, a start tag looked for
 * back to the name judged before at most (`tagAt`). The next window starts five bytes (a name and
 * the byte before it) before the whitespace ahead of an `=` waiting for its value, or of the window's
 * end, its whitespace runs cut to RUN_BYTES (under 7 KiB in all), before any value still to find.
 */
class PageScanner {
    /** The value found last: `window` from `start` to `end`, at page offset `base + start`. */
    window = Buffer.alloc(0);
    start = 0;
    end = 0;
    base = 0;
    /** The line of the window's start; the lines of the window before `lineAt`. */
    lineBase = 1;
    lineAt = 0;
    lines = 0;
    buffer;
    final = false;
    /** Where the search for the next `=` starts; once the window is done, where the next one takes up. */
    from = 0;
    /** Whether a start tag is open at the window's start, and at the name judged last (`tagAt`). */
    startOpen = false;
    tagAt = 0;
    tagOpen = false;
    /** At least 8 KiB: room for what a window carries and more. */
    constructor(windowBytes = WINDOW_BYTES) {
        this.buffer = Buffer.allocUnsafe(Math.max(windowBytes, 8 * 1024));
    }
    /** The 1-based line of the value found last, counted on from the one asked before (values come in order). */
    line() {
        this.lines += countLines(this.window.subarray(this.lineAt, this.start));
        this.lineAt = this.start;
        return this.lineBase + this.lines;
    }
    /** Reads a page through `read`, calling `found` for each link value in page order. */
    scan(read, found) {
        let filled = 0;
        [this.from, this.base, this.lineBase, this.startOpen] = [0, 0, 1, false];
        for (;;) {
            for (let bytes = -1; bytes !== 0 && filled < this.buffer.length; filled += bytes)
                bytes = read(this.buffer, filled);
            this.final = filled < this.buffer.length;
            this.window = this.buffer.subarray(0, filled);
            [this.tagAt, this.tagOpen, this.lineAt, this.lines] = [0, this.startOpen, 0, 0];
            while (this.next())
                found();
            if (this.final)
                return;
            filled = this.carry();
        }
    }
    /** Finds the next link value of the window; false when it has no more it can judge. */
    next() {
        const page = this.window;
        for (let at = page.indexOf(EQUALS, this.from); at !== -1; at = page.indexOf(EQUALS, at + 1)) {
            const name = attributeNameStart(page, at);
            if (name === -1 || !this.inStartTag(name))
                continue;
            let start = at + 1;
            while (isSpace(page[start]))
                start++;
            const quote = page[start] === DOUBLE_QUOTE || page[start] === SINGLE_QUOTE ? page[start++] : undefined;
            if (!this.final && start + MAX_VALUE_BYTES + 1 > page.length) {
                // The value may go on past the window: the next one judges this `=`.
                this.from = at;
                return false;
            }
            const limit = Math.min(page.length, start + MAX_VALUE_BYTES + 1);
            let end = quote === undefined ? start : page.indexOf(quote, start);
            if (quote === undefined)
                while (end < limit && !isSpace(page[end]) && page[end] !== GREATER)
                    end++;
            if (quote === undefined ? end === start : end === -1 || end >= limit)
                continue;
            [this.start, this.end, this.from] = [start, end, end];
            return true;
        }
        this.from = page.length;
        return false;
    }
    /** Moves what the next window needs to the buffer's start (see the class); returns its length. */
    carry() {
        const { window, buffer } = this;
        let keep = this.from;
        while (isSpace(window[keep - 1]))
            keep--;
        keep = Math.max(0, keep - 5);
        this.startOpen = this.inStartTag(keep);
        this.lineBase += countLines(window.subarray(0, keep));
        this.base += keep;
        let [out, run, from] = [0, 0, -1];
        for (let at = keep; at < window.length; at++) {
            const byte = window[at];
            if (at === this.from)
                from = out;
            run = isSpace(byte) ? run + 1 : 0;
            if (run <= RUN_BYTES)
                buffer[out++] = byte;
            else
                [this.base, this.lineBase] = [this.base + 1, this.lineBase + (byte === LINE_FEED ? 1 : 0)];
        }
        this.from = from === -1 ? out : from;
        return out;
    }
    /** Whether the nearest `<` or `>` before `name` is a `<` that a letter follows (see the class). */
    inStartTag(name) {
        const page = this.window;
        const known = this.tagAt <= name;
        let open = known ? this.tagOpen : this.startOpen;
        for (let back = name - 1; back >= (known ? this.tagAt : 0); back--) {
            const byte = page[back];
            if (byte !== LESS && byte !== GREATER)
                continue;
            open = byte === LESS && ((page[back + 1] | LOWER) - 0x61) >>> 0 < 26;
            break;
        }
        ;
        [this.tagAt, this.tagOpen] = [name, open];
        return open;
    }
}
function countLines(bytes) {
    let lines = 0;
    for (let at = bytes.indexOf(LINE_FEED); at !== -1; at = bytes.indexOf(LINE_FEED, at + 1))
        lines++;
    return lines;
}
/** Where the name before the `=` at `at` starts, past whitespace, when it is `href` or `src` in any case; else -1. */
function attributeNameStart(page, at) {
    // Most `=` follow another name's letter: rejected at once (whitespace gives 0x2d or less once LOWER is set).
    const last = page[at - 1] | LOWER;
    if (last !== 0x66 && last !== 0x63 && last > 0x2d)
        return -1;
    let nameEnd = at;
    while (isSpace(page[nameEnd - 1]))
        nameEnd--;
    for (const name of NAMES) {
        const start = nameEnd - name.length;
        let same = start > 0 && isSpace(page[start - 1]);
        for (let i = 0; same && i < name.length; i++)
            same = (page[start + i] | LOWER) === name[i];
        if (same)
            return start;
    }
    return -1;
}

// EXTERNAL MODULE: ./src/common/site-paths.ts
var site_paths = __webpack_require__(4651);
;// CONCATENATED MODULE: ./src/verify/links.ts
/**
 * The internal links (relative and root paths) of a site's pages, judged against its files (site
 * paths, see site-paths.ts) as the pages are read. Pure. Each distinct link is judged once: a root
 * path is the same link from every page, a relative one from every page of its folder.
 */


/** Broken links shown one by one; the rest are counted. */
const BROKEN_LINKS_SHOWN = 20;
/** Verdicts kept (about 100 bytes each); past that a link is judged each time it is met: time, not memory. */
const VERDICTS_KEPT = 200_000;
const [NUMBER_SIGN, SLASH] = [0x23, 0x2f];
/** Whether a site path is an HTML page, the only files whose links are read. */
const isPage = (path) => /\.html?$/i.test(path);
/** The links of a site's pages, read in page order: `broken` holds the site's first ones. */
class LinkCheck {
    /** Internal links, and those that lead to no file of the site, every occurrence counted. */
    links = 0;
    brokenCount = 0;
    broken = [];
    served;
    shown;
    scanner;
    rootLinks = new Map();
    folderLinks = new Map();
    kept = 0;
    constructor(files, shown = BROKEN_LINKS_SHOWN, windowBytes) {
        this.served = new Set(files);
        this.shown = shown;
        this.scanner = new PageScanner(windowBytes);
    }
    /** Reads the links of `page` (a site path) through `read`; a file that is no HTML page is not read. */
    observe(page, read) {
        if (!isPage(page))
            return;
        const folder = page.slice(0, page.lastIndexOf('/') + 1);
        const relative = this.folderLinks.get(folder) ?? new Map();
        this.folderLinks.set(folder, relative);
        this.scanner.scan(read, () => {
            const { window, start, end } = this.scanner;
            // A link to a place in the same page (`#usage`) is not checked.
            if (window[start] === NUMBER_SIGN)
                return;
            const root = window[start] === SLASH && (end === start + 1 || window[start + 1] !== SLASH);
            const verdicts = root ? this.rootLinks : relative;
            // Latin-1 gives each byte a character of its own.
            const key = window.toString('latin1', start, end);
            const verdict = verdicts.get(key) ?? this.judge(page, verdicts, key);
            if (verdict === 'outside')
                return;
            this.links++;
            if (verdict === 'served')
                return;
            this.brokenCount++;
            if (verdict !== 'broken')
                verdict.count++;
        });
    }
    /** The verdict of a link met for the first time (or again, past VERDICTS_KEPT), kept. */
    judge(page, verdicts, key) {
        const { window, start, end, base } = this.scanner;
        const target = linkTarget(page, (0,site_paths/* decodeSitePath */.xZ)(window.subarray(start, end)));
        let verdict = target === undefined ? 'outside' : resolves(target, this.served) ? 'served' : 'broken';
        if (verdict === 'broken' && this.broken.length < this.shown) {
            const link = window.toString('utf8', start, end);
            verdict = { file: page, offset: base + start, line: this.scanner.line(), link, count: 0 };
            this.broken.push(verdict);
        }
        // A shown link is kept past the bound: one not kept is surely not shown.
        if (this.kept++ < VERDICTS_KEPT || typeof verdict === 'object')
            verdicts.set(key, verdict);
        return verdict;
    }
}
/**
 * The site path a link from page `from` points to (`guides/`: a folder), or undefined when it leaves
 * the site or points nowhere in particular (a scheme, a host, a fragment, a climb above the root).
 */
function linkTarget(from, value) {
    const raw = decodeEntities(value.trim());
    if (raw === '' || raw.startsWith('#') || raw.startsWith('//') || /^[a-z][a-z0-9+.-]*:/i.test(raw))
        return undefined;
    const path = raw.replace(/[?#].*$/s, '');
    if (path === '')
        return undefined;
    const decoded = path.includes('%') ? decodePercent(path) : path;
    const segments = decoded.startsWith('/') ? [] : from.split('/').slice(0, -1);
    for (const segment of decoded.split('/')) {
        if (segment === '..' && segments.length === 0)
            return undefined;
        if (segment === '..')
            segments.pop();
        else if (segment !== '' && segment !== '.')
            segments.push(segment);
    }
    const target = segments.join('/');
    return decoded.endsWith('/') && target !== '' ? `${target}/` : target;
}
/** Whether a site of `files` serves `target` as static hosts do: as is, `.html` or `/index.html` added. */
function resolves(target, files) {
    if (target === '' || target.endsWith('/'))
        return files.has(`${target}index.html`);
    return files.has(target) || files.has(`${target}.html`) || files.has(`${target}/index.html`);
}
function decodeEntities(text) {
    return text.includes('&') ? text.replace(/&amp;/g, '&').replace(/&#x2f;|&#47;/gi, '/') : text;
}
/** Escapes decoded: those that make no UTF-8 name a file's bytes; a `%` that starts none keeps the path. */
function decodePercent(path) {
    if (/%(?![0-9a-f]{2})/i.test(path))
        return path;
    const escaped = (0,site_paths/* encodeSitePath */.Bz)(path).toString('latin1');
    const bytes = escaped.replace(/%([0-9a-f]{2})/gi, (_, hex) => String.fromCharCode(parseInt(hex, 16)));
    return (0,site_paths/* decodeSitePath */.xZ)(Buffer.from(bytes, 'latin1'));
}

// EXTERNAL MODULE: ./src/common/units.ts
var units = __webpack_require__(8570);
;// CONCATENATED MODULE: ./src/verify/site.ts
/**
 * The staged site looked at before it is deployed: an `index.html`, at least the pages the export
 * job reported, internal links that lead to files of it. Pages are read in page order.
 */





/** Checks the site in `root`, of `files` (site paths) when the caller has them; else it is listed. */
async function checkSite(root, options = {}) {
    const { expectedPages, signal } = options;
    const started = performance.now();
    const files = options.files ?? (await (0,site_paths/* listSite */.k_)(root, signal));
    const pages = files.filter(isPage).sort();
    const check = new LinkCheck(files);
    for (const [at, page] of pages.entries()) {
        // Pages are read with blocking calls: the event loop gets a turn now and then (a cancellation, the log).
        if (at % 64 === 63)
            await (0,promises_.setImmediate)();
        signal?.throwIfAborted();
        readPage((0,site_paths/* fileSystemPath */.fj)(root, page), (read) => check.observe(page, read));
    }
    const problems = [];
    if (!files.includes('index.html'))
        problems.push('The site has no index.html at its root.');
    if (expectedPages !== undefined && pages.length < expectedPages) {
        problems.push(`The site has ${(0,units/* counted */.hS)(pages.length, 'HTML page')}, fewer than the ${expectedPages} the export job reported.`);
    }
    const { links, brokenCount, broken } = check;
    return { problems, htmlPages: pages.length, links, brokenCount, broken, reviewMs: performance.now() - started };
}
/**
 * Hands `use` a reader of the page at `path`, blocking (see docs/benchmarks.md). A link to no file or
 * a folder has nothing to read; one to a named pipe reads as empty.
 */
function readPage(path, use) {
    try {
        const fd = external_node_fs_.openSync(path, external_node_fs_.constants.O_RDONLY | (external_node_fs_.constants.O_NONBLOCK ?? 0));
        try {
            use((into, at) => external_node_fs_.readSync(fd, into, at, into.length - at, null));
        }
        finally {
            external_node_fs_.closeSync(fd);
        }
    }
    catch (error) {
        const code = error.code;
        if (code !== 'ENOENT' && code !== 'ELOOP' && code !== 'EISDIR')
            throw error;
    }
}


/***/ })

};
