export const id = 117;
export const ids = [117];
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

/***/ 5117:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

// ESM COMPAT FLAG
__webpack_require__.r(__webpack_exports__);

// EXPORTS
__webpack_require__.d(__webpack_exports__, {
  transferBundle: () => (/* binding */ transferBundle),
  unpackLocalBundle: () => (/* binding */ unpackLocalBundle)
});

// EXTERNAL MODULE: external "node:fs"
var external_node_fs_ = __webpack_require__(3024);
// EXTERNAL MODULE: external "node:fs/promises"
var promises_ = __webpack_require__(1455);
// EXTERNAL MODULE: external "node:path"
var external_node_path_ = __webpack_require__(6760);
// EXTERNAL MODULE: external "node:crypto"
var external_node_crypto_ = __webpack_require__(7598);
// EXTERNAL MODULE: external "node:events"
var external_node_events_ = __webpack_require__(8474);
// EXTERNAL MODULE: ./src/common/cancellation.ts
var cancellation = __webpack_require__(3598);
// EXTERNAL MODULE: ./src/archive/errors.ts
var errors = __webpack_require__(511);
// EXTERNAL MODULE: external "node:util/types"
var types_ = __webpack_require__(3429);
// EXTERNAL MODULE: ./src/common/errors.ts
var common_errors = __webpack_require__(1922);
// EXTERNAL MODULE: ./src/common/units.ts
var units = __webpack_require__(8570);
;// CONCATENATED MODULE: ./src/common/write-failure.ts



/**
 * A failure while writing the site or the archive file, said in the user's terms: what was being
 * written, what went wrong, and (a full disk) how much had been written. Errors that are already
 * the user's (a refusal, corrupt data, a bound) and stops are returned as they are.
 */
function writeFailure(error, what, writtenBytes) {
    // isNativeError, not instanceof: node's own errors may come from another realm (a vm context).
    if (!(0,types_.isNativeError)(error) ||
        error instanceof common_errors/* ActionError */.lZ ||
        error instanceof common_errors/* CancelledError */.cc ||
        error.name === 'AbortError')
        return error;
    const code = error.code;
    const why = code === undefined ? error.message : `${WRITE_FAILURES[code] ?? error.message} (${code})`;
    const full = code === 'ENOSPC' || code === 'EDQUOT';
    const written = full && writtenBytes !== undefined ? `, after ${(0,units/* formatBytes */.z3)(writtenBytes)} had been written` : '';
    return new common_errors/* ActionError */.lZ(`Could not write ${what}: ${why}${written}`, { cause: error });
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

;// CONCATENATED MODULE: ./src/archive/format.ts
/**
 * Which kind of archive a body is, judged from its first bytes (never from the URL or the
 * Content-Type, which storage often gets wrong).
 */
/** A tar is told by its first header block, whole. */
const TAR_BLOCK_BYTES = 512;
const FORMAT_SNIFF_BYTES = TAR_BLOCK_BYTES;
function detectFormat(head, complete) {
    if (startsWith(head, [0x50, 0x4b, 0x03, 0x04]) || startsWith(head, [0x50, 0x4b, 0x05, 0x06]))
        return { format: 'zip' };
    if (startsWith(head, [0x1f, 0x8b]))
        return { format: 'tar.gz' };
    if (looksLikeTar(head))
        return { format: 'tar' };
    if (head.length < FORMAT_SNIFF_BYTES && !complete)
        return undefined;
    return { unknown: describeBytes(head) };
}
/**
 * True when a tar header block starts at `head`: its checksum holds, as every tar format (v7,
 * ustar, GNU, pax) writes it, with or without the `ustar` magic. A block of zeros is an empty tar.
 */
function isTarHeader(head) {
    if (head.length < TAR_BLOCK_BYTES)
        return false;
    let unsigned = 0;
    let signed = 0;
    let zeros = true;
    for (let i = 0; i < TAR_BLOCK_BYTES; i++) {
        const byte = i >= 148 && i < 156 ? 0x20 : head[i];
        if (head[i] !== 0)
            zeros = false;
        unsigned += byte;
        signed += byte > 0x7f ? byte - 0x100 : byte;
    }
    if (zeros)
        return true;
    const field = /^[ \0]*([0-7]{1,8})[ \0]*$/.exec(Buffer.from(head.subarray(148, 156)).toString('latin1'));
    if (field === null)
        return false;
    const sum = parseInt(field[1], 8);
    return sum === unsigned || sum === signed;
}
/**
 * A tar's first block: its checksum tells every tar format, and the `ustar` magic one whose first
 * header is damaged (GNU tar then says what is wrong with it).
 */
function looksLikeTar(head) {
    return (isTarHeader(head) || (head.length >= 262 && Buffer.from(head.subarray(257, 262)).toString('latin1') === 'ustar'));
}
/**
 * What the bytes look like, for "this is not an archive" errors: only their kind, never the bytes
 * themselves (a link may lead to a page that holds credentials, and anything shown reaches the log).
 */
function describeBytes(head) {
    if (head.length === 0)
        return 'nothing at all (the body is empty)';
    const text = Buffer.from(head.buffer, head.byteOffset, Math.min(head.length, 64)).toString('latin1');
    // A UTF-8 byte order mark reads as "ï»¿" in latin1.
    const trimmed = text.replace(/^(?:\u00ef\u00bb\u00bf)?\s*/, '');
    if (/^<!doctype html|^<html|^<head|^<body/i.test(trimmed))
        return 'an HTML page';
    if (/^<\?xml|^<Error>/i.test(trimmed))
        return 'an XML document';
    if (/^[{[]/.test(trimmed))
        return 'JSON';
    if (/^[\x20-\x7e\t\r\n]+$/.test(text))
        return 'text';
    return 'binary data of an unknown kind';
}
function startsWith(head, signature) {
    return head.length >= signature.length && signature.every((byte, i) => head[i] === byte);
}
/**
 * Holds the first bytes of a stream until `judge` can decide what they are; then hands back the
 * verdict and every byte held, so nothing is lost. `judge` answers undefined for "more bytes".
 */
class HeadSniffer {
    judge;
    held = [];
    constructor(judge) {
        this.judge = judge;
    }
    /** True until the verdict is out. */
    get pending() {
        return this.held !== undefined;
    }
    /** Adds a chunk; the verdict and the whole head once `judge` decides. */
    push(chunk) {
        if (this.held === undefined)
            throw new Error('HeadSniffer: the verdict is out already');
        this.held.push(chunk);
        const head = this.held.length === 1 ? chunk : Buffer.concat(this.held);
        const verdict = this.judge(head, false);
        if (verdict === undefined)
            return undefined;
        this.held = undefined;
        return { verdict, head };
    }
    /** The stream ended early: the verdict on what was held (`judge` must decide now). */
    end() {
        const head = Buffer.concat(this.held ?? []);
        this.held = undefined;
        const verdict = this.judge(head, true);
        if (verdict === undefined)
            throw new Error('HeadSniffer: the judge must decide on a complete stream');
        return { verdict, head };
    }
}

// EXTERNAL MODULE: external "node:child_process"
var external_node_child_process_ = __webpack_require__(1421);
// EXTERNAL MODULE: ./src/common/site-paths.ts
var site_paths = __webpack_require__(4651);
;// CONCATENATED MODULE: ./src/site/errors.ts

/**
 * An archive entry that would write outside the site folder, through a link, or somewhere it has
 * no business. Final: downloading the same archive again would give the same entry.
 */
class UnsafeEntryError extends common_errors/* ActionError */.lZ {
    entryName;
    name = 'UnsafeEntryError';
    constructor(
    /** The entry's name as the archive spells it. */
    entryName, reason) {
        super(`The bundle archive was refused: entry ${JSON.stringify(entryName)} ${reason}. Nothing was written outside ` +
            `the staging folder.`);
        this.entryName = entryName;
    }
}
/**
 * The unpacking would pass one of its bounds: `max-site-size`, the most entries an archive may
 * hold, or the tar data its entries account for. Final: the same archive would pass it again; the
 * previous site is left as it was.
 */
class SiteLimitError extends common_errors/* ActionError */.lZ {
    name = 'SiteLimitError';
}

;// CONCATENATED MODULE: ./src/archive/tar-listing.ts
/**
 * Reads the lines GNU tar prints while it extracts with `-vv -R --quoting-style=c --numeric-owner`
 * (LC_ALL=C): one line per member, as GNU tar itself understood it, before it writes the member,
 * led by the block where the member's data starts. This is how the action sees what is being
 * unpacked without a tar reader of its own. Pure.
 *
 *   block 1: -rw-r--r-- 0/0      1234 2026-11-27 01:42 "guides/caf\303\251.html"
 *   block 5: lrwxrwxrwx 0/0         0 2026-11-27 01:42 "latest" -> "v2"
 *   block 6: hrw-r--r-- 0/0         0 2026-11-27 01:42 "copy.html" link to "index.html"
 *   block 7: drwxr-xr-x                  Creating directory: "guides"
 *   block 9: ** Block of NULs **
 */
/** GNU tar's type letters: regular files of every flavour are written as files (`?`: unknown types). */
const KINDS = {
    '-': 'file',
    C: 'file',
    S: 'file',
    '?': 'file',
    d: 'directory',
    l: 'symlink',
    h: 'hardlink',
    b: 'special',
    c: 'special',
    p: 'special',
    s: 'special',
    V: 'none',
    M: 'none',
    N: 'none',
    L: 'none'
};
const IMPLIED_DIRECTORY = 'Creating directory:';
const SYMLINK_ARROW = ' -> ';
const HARDLINK_WORDS = ' link to ';
/** A header GNU tar could not read leaves its prefix alone before the next line's ("block 3: block 12: ..."). */
const BLOCK_PREFIX = /^(?:block \d+: )*block (\d+): /;
const ARCHIVE_END = /^\*\* (?:Block of NULs|End of File) \*\*$/;
/** One listing line, or undefined when it is not one GNU tar writes for a member or the archive's end. */
function parseListingLine(prefixed) {
    const prefix = BLOCK_PREFIX.exec(prefixed);
    if (prefix === null)
        return undefined;
    const block = Number(prefix[1]);
    const line = prefixed.slice(prefix[0].length);
    if (ARCHIVE_END.test(line)) {
        return { kind: 'end', type: '', mode: 0, size: 0, name: Buffer.alloc(0), target: undefined, implied: false, block };
    }
    const quote = line.indexOf('"');
    if (quote < 0)
        return undefined;
    const head = line.slice(0, quote);
    const modeText = head.slice(0, 10);
    const kind = KINDS[modeText[0] ?? ''];
    if (kind === undefined || modeText.length < 10)
        return undefined;
    const name = readQuoted(line, quote);
    if (name === undefined)
        return undefined;
    const rest = line.slice(name.end);
    const member = {
        type: modeText[0],
        mode: permissions(modeText),
        name: name.bytes,
        target: undefined,
        block
    };
    if (head.includes(IMPLIED_DIRECTORY)) {
        return rest === '' ? { ...member, kind: 'directory', size: 0, implied: true } : undefined;
    }
    const fields = head.trim().split(/ +/);
    const sizeText = fields[2] ?? '';
    // Devices show `major,minor` where the size goes.
    const size = /^\d+$/.test(sizeText) ? Number(sizeText) : /^\d+,\d+$/.test(sizeText) ? 0 : undefined;
    if (size === undefined)
        return undefined;
    if (kind === 'symlink' || kind === 'hardlink') {
        const words = kind === 'symlink' ? SYMLINK_ARROW : HARDLINK_WORDS;
        if (!rest.startsWith(words))
            return undefined;
        const target = readQuoted(line, name.end + words.length);
        if (target === undefined || target.end !== line.length)
            return undefined;
        return { ...member, kind, size: 0, target: target.bytes, implied: false };
    }
    // Only files write their size: a directory's or a device's size field says nothing GNU tar writes.
    return { ...member, kind, size: kind === 'file' ? size : 0, implied: false };
}
/** The bits of `rwxr-xr-x`: `s` and `t` hold an x, `S` and `T` none (setuid and the like are dropped anyway). */
function permissions(modeText) {
    let mode = 0;
    for (let i = 0; i < 9; i++)
        if ('rwxst'.includes(modeText[i + 1]))
            mode |= 1 << (8 - i);
    return mode;
}
/** Printable ASCII but `"` and `\\`. */
const PLAIN_RUN = /^[\x20\x21\x23-\x5b\x5d-\x7e]+/;
const ESCAPES = { a: 7, b: 8, t: 9, n: 10, v: 11, f: 12, r: 13, '\\': 92, '"': 34, '?': 63 };
/**
 * A C-style quoted string starting at `at` (GNU quotearg's `c` style): its bytes and where it ends.
 * Adjacent quoted pieces (`"a""b"`, how the style splits `??` trigraphs) are one string.
 */
function readQuoted(line, at) {
    const bytes = [];
    let i = at;
    while (line[i] === '"') {
        i++;
        for (;;) {
            // A run without escapes is taken whole (most names are one): a byte at a time showed in a profile.
            const run = PLAIN_RUN.exec(line.slice(i))?.[0] ?? '';
            for (let k = 0; k < run.length; k++)
                bytes.push(run.charCodeAt(k));
            i += run.length;
            const char = line[i];
            if (char === undefined)
                return undefined;
            if (char === '"')
                break;
            // LC_ALL=C: every byte outside printable ASCII comes as an octal escape.
            if (char !== '\\')
                return undefined;
            const next = line[i + 1] ?? '';
            const octal = /^[0-7]{3}/.exec(line.slice(i + 1, i + 4));
            if (octal !== null) {
                bytes.push(parseInt(octal[0], 8) & 0xff);
                i += 4;
            }
            else if (ESCAPES[next] !== undefined) {
                bytes.push(ESCAPES[next]);
                i += 2;
            }
            else
                return undefined;
        }
        i++;
    }
    return i === at ? undefined : { bytes: Buffer.from(bytes), end: i };
}

;// CONCATENATED MODULE: ./src/archive/gnu-tar.ts
/**
 * GNU tar, the reference every tar is judged against, unpacks tar archives here: it is fed the
 * plain tar as it arrives (the download overlaps the unpacking; tar-unpacker.ts gunzips a tar.gz)
 * and tells what it is about to write, member by member (see tar-listing.ts),
 * so the action's checks see every member as its content lands, and stop GNU tar on the first one
 * refused. The listing goes to a file read every LISTING_READ_MS and with every chunk fed: GNU tar
 * flushes each line, and through a pipe that woke the action once a member (a quarter more time on
 * 30,000 small files: docs/benchmarks.md). GNU tar keeps its own writing
 * inside the folder it is given: it strips leading `/`, skips `..` members, and makes a symlink
 * whose target is absolute or climbs only at the very end, so nothing is ever written through one.
 */













/** The longest listing line read: a name and a target of 4,096 bytes each, every byte an octal escape. */
const MAX_LINE_CHARACTERS = 64 * 1024;
/** What is kept of GNU tar's messages for the error (it repeats itself on a broken archive). */
const MAX_MESSAGE_LINES = 50;
// Bytes queued for GNU tar before the download is asked to wait: the pipe's 64 KiB alone makes them take turns.
const BUFFERED_BYTES = 1024 * 1024;
/** How often the listing is read while GNU tar runs: what it writes of a refused member in that time is its lag. */
const LISTING_READ_MS = 25;
const LISTING_READ_BYTES = 256 * 1024;
const ARGUMENTS = [
    '-x',
    // Twice verbose: one listing line per member, written before the member is, led by the block
    // where its data starts (how a sparse member shows: see checkDataCovers).
    '-vv',
    '--block-number',
    '--quoting-style=c',
    '--numeric-owner',
    // As root too: the archive's owners and exact modes are not the site's (the umask applies).
    '--no-same-owner',
    '--no-same-permissions',
    '-f',
    '-'
];
/** Where GNU tar is: `tar` on Linux, Homebrew's `gtar` on macOS, Git for Windows' own tar. */
function gnuTarCandidates(platform = process.platform, env = process.env) {
    if (platform === 'darwin')
        return ['gtar', 'tar'];
    if (platform !== 'win32')
        return ['tar', 'gtar'];
    const programFiles = env['ProgramFiles'] ?? 'C:\\Program Files';
    return [(0,external_node_path_.join)(programFiles, 'Git', 'usr', 'bin', 'tar.exe'), 'tar'];
}
let found;
/** The first candidate that says it is GNU tar; the step fails naming what it needs when none is. */
function findGnuTar() {
    found ??= (async () => {
        for (const candidate of gnuTarCandidates()) {
            const version = await new Promise((resolve) => (0,external_node_child_process_.execFile)(candidate, ['--version'], { timeout: 10_000 }, (error, stdout) => resolve(error ? '' : stdout)));
            if (version.includes('GNU tar'))
                return candidate;
        }
        found = undefined;
        throw new common_errors/* ActionError */.lZ(`GNU tar is needed to unpack a tar bundle and none was found (tried ${gnuTarCandidates().join(', ')}). ` +
            'Linux runners have it as `tar`; on macOS install it with `brew install gnu-tar` (GitHub-hosted macOS ' +
            'runners have it); on Windows it comes with Git for Windows.');
    })();
    return found;
}
/** One run of GNU tar over one archive. */
class GnuTarExtraction {
    options;
    child;
    exited;
    listingFd;
    listingBuffer = Buffer.allocUnsafe(LISTING_READ_BYTES);
    /** How much of the listing has been read; -1 once the file is closed. */
    listingRead = 0;
    listingTimer;
    pendingLine = '';
    messages = [];
    /** Why the unpacking stopped before GNU tar was done: a member refused, or a line that could not be read. */
    failure;
    exitCode;
    /** The last member listed: a cut archive ends inside it. */
    lastMember;
    /** Plain tar bytes handed to GNU tar. */
    fedBytes = 0;
    /** Members GNU tar may fail to make (devices and fifos, skipped): their names. */
    specials = new Set();
    constructor(options) {
        this.options = options;
        this.listingFd = (0,external_node_fs_.openSync)(options.listingFile, 'w+');
        try {
            this.child = (0,external_node_child_process_.spawn)(options.tar, ARGUMENTS, {
                cwd: options.into,
                // English messages, and every byte outside printable ASCII quoted as octal.
                env: { ...process.env, LC_ALL: 'C', LANG: 'C' },
                stdio: ['pipe', this.listingFd, 'pipe'],
                windowsHide: true
                // Node's types know no stdout that is a file: stdin and stderr are pipes, stdout is none of the child's.
            });
        }
        catch (error) {
            this.removeListing();
            throw error;
        }
        this.listingTimer = setInterval(() => this.readListing(), LISTING_READ_MS);
        this.exited = (0,external_node_events_.once)(this.child, 'close').then(([code]) => (this.exitCode = code), () => (this.exitCode = null));
        void this.exited.then(() => {
            clearInterval(this.listingTimer);
            this.readListing();
            try {
                this.removeListing();
            }
            catch (error) {
                this.fail(error);
            }
        });
        // GNU tar stops reading at the archive's end: what follows is ignored, as by any tar.
        this.child.stdin.on('error', cancellation/* noop */.lQ);
        this.child.stderr.setEncoding('latin1');
        let pendingMessage = '';
        this.child.stderr.on('data', (text) => {
            const lines = (pendingMessage + text).split('\n');
            pendingMessage = lines.pop() ?? '';
            for (const line of lines)
                if (this.messages.length < MAX_MESSAGE_LINES)
                    this.messages.push(line);
        });
    }
    /** Feeds the tar's bytes; a returned promise asks the caller to wait. Nothing once GNU tar stopped reading. */
    write(plain) {
        if (this.failure !== undefined)
            throw this.failure;
        if (this.exitCode !== undefined || this.child.stdin.destroyed)
            return undefined;
        this.fedBytes += plain.length;
        this.readListing();
        if (this.failure !== undefined)
            throw this.failure;
        if (this.child.stdin.write(plain) || this.child.stdin.writableLength < BUFFERED_BYTES)
            return undefined;
        return Promise.race([(0,external_node_events_.once)(this.child.stdin, 'drain').catch(cancellation/* noop */.lQ), this.exited]).then(() => {
            if (this.failure !== undefined)
                throw this.failure;
        });
    }
    /** No more bytes: waits for GNU tar to finish and says how it went. */
    async end() {
        if (this.exitCode === undefined && !this.child.stdin.destroyed)
            this.child.stdin.end();
        await this.exited;
        if (this.failure !== undefined)
            throw this.failure;
        // GNU tar ends every line it writes: only a GNU tar stopped mid-line leaves a piece of one.
        if (this.pendingLine !== '' && this.exitCode === 0)
            this.line(this.pendingLine);
        // The last member's data ends where the archive's bytes do, at the latest.
        if (this.exitCode === 0 && this.lastMember !== undefined) {
            this.checkDataCovers(this.lastMember, Math.floor(this.fedBytes / TAR_BLOCK_BYTES));
        }
        const failure = this.exitCode === 0 ? undefined : this.failureFromMessages();
        if (failure !== undefined)
            throw failure;
    }
    /** Stops GNU tar at once and waits until it can write nothing more. */
    async stop() {
        if (this.exitCode === undefined)
            this.child.kill('SIGKILL');
        await this.exited;
    }
    /** Reads what GNU tar has listed since the last read, and judges each line it completes. */
    readListing() {
        if (this.listingRead < 0 || this.failure !== undefined)
            return;
        const buffer = this.listingBuffer;
        let text = '';
        try {
            for (;;) {
                const got = (0,external_node_fs_.readSync)(this.listingFd, buffer, 0, buffer.length, this.listingRead);
                if (got === 0)
                    break;
                text += buffer.toString('latin1', 0, got);
                this.listingRead += got;
            }
        }
        catch (error) {
            return this.fail(error);
        }
        if (text !== '')
            this.listing(text);
    }
    /** Closes and removes the listing file (once). */
    removeListing() {
        if (this.listingRead < 0)
            return;
        this.listingRead = -1;
        (0,external_node_fs_.closeSync)(this.listingFd);
        (0,external_node_fs_.rmSync)(this.options.listingFile, { force: true });
    }
    listing(text) {
        const lines = (this.pendingLine + text).split('\n');
        this.pendingLine = lines.pop() ?? '';
        try {
            for (const line of lines)
                this.line(line);
            if (this.pendingLine.length > MAX_LINE_CHARACTERS) {
                throw new UnsafeEntryError(`${this.pendingLine.slice(0, 200)}...`, 'has a name or link target longer than any file system allows');
            }
        }
        catch (error) {
            this.fail(error);
        }
    }
    line(line) {
        const member = parseListingLine(line);
        if (member === undefined) {
            throw new common_errors/* ActionError */.lZ(`Could not read GNU tar's account of a member it unpacks: ${JSON.stringify(line)}`);
        }
        if (member.kind === 'special')
            this.specials.add(member.name.toString('latin1'));
        if (member.implied)
            return this.options.onMember(member);
        // The next member's headers take a block at least; the archive's end takes none.
        if (this.lastMember !== undefined)
            this.checkDataCovers(this.lastMember, member.block - (member.kind === 'end' ? 0 : 1));
        this.lastMember = member.kind === 'end' ? undefined : member;
        this.options.onMember(member);
    }
    /**
     * A file's data in the archive, from its block to `dataEnd`, must hold the size GNU tar lists:
     * only a sparse member stores less, and GNU tar writes it with holes (or, its map lying about
     * the size, past it). A site has no sparse files: refused whatever the flavour (GNU, pax 0.0,
     * 0.1, 1.0), as GNU tar reads them all the same way.
     */
    checkDataCovers(member, dataEnd) {
        if (member.kind !== 'file' || member.block + Math.ceil(member.size / TAR_BLOCK_BYTES) <= dataEnd)
            return;
        throw new UnsafeEntryError((0,site_paths/* decodeSitePath */.xZ)(member.name), `is a sparse file (its data in the archive is shorter than the ${(0,units/* formatBytes */.z3)(member.size)} GNU tar lists), ` +
            'which a site never holds');
    }
    fail(error) {
        if (this.failure !== undefined)
            return;
        this.failure = error;
        if (this.exitCode === undefined)
            this.child.kill('SIGKILL');
        this.options.onFailure(error);
    }
    /** GNU tar failed on its own: its first message that is not about a skipped device or fifo says why. */
    failureFromMessages() {
        for (const message of this.messages) {
            const about = memberOf(message);
            if (about !== undefined && this.specials.has(about.name.toString('latin1')))
                continue;
            if (NOT_A_FAILURE.test(message))
                continue;
            if (about !== undefined) {
                const name = (0,site_paths/* decodeSitePath */.xZ)(about.name);
                if (/Member name contains '\.\.'/.test(about.text))
                    return new UnsafeEntryError(name, 'has a ".." path segment');
                const code = errnoOf(about.text);
                if (code !== undefined) {
                    const error = Object.assign(new Error(about.text), { code });
                    return writeFailure(error, `the archive entry ${JSON.stringify(name)} into ${this.options.into}`);
                }
            }
            if (/Unexpected EOF/.test(message))
                return new errors/* CorruptArchiveError */.sC(`the tar data ends early${this.inside()}`);
            return new errors/* CorruptArchiveError */.sC(`GNU tar could not read it: ${plainMessage(message)}`);
        }
        // Only skipped members failed.
        if (this.exitCode === 2 && this.messages.length > 0)
            return undefined;
        return new errors/* CorruptArchiveError */.sC(`GNU tar stopped with ${this.exitCode === null ? 'a signal' : `exit code ${this.exitCode}`}`);
    }
    inside() {
        const member = this.lastMember;
        if (member === undefined || member.kind !== 'file')
            return '';
        return `, inside the entry ${JSON.stringify((0,site_paths/* decodeSitePath */.xZ)(member.name))} (${(0,units/* formatBytes */.z3)(member.size)} declared)`;
    }
}
/** `tar: "name": text`: the member a message is about. */
function memberOf(message) {
    const prefix = /^[^:]*tar(?:\.exe)?: /.exec(message);
    if (prefix === null || message[prefix[0].length] !== '"')
        return undefined;
    const name = readQuoted(message, prefix[0].length);
    if (name === undefined || !message.startsWith(': ', name.end))
        return undefined;
    return { name: name.bytes, text: message.slice(name.end + 2) };
}
/** What GNU tar says besides a failure: its summary, and warnings about what it read anyway. */
const NOT_A_FAILURE = new RegExp([
    'Exiting with failure status',
    'Error is not recoverable',
    'Removing leading',
    'implausibly old time stamp',
    'in the future',
    'A lone zero block',
    'Ignoring unknown extended header keyword'
].join('|'));
/** The C library's words for the errors a write meets, as GNU tar prints them (LC_ALL=C). */
const ERRNO_TEXTS = [
    [/No space left on device/, 'ENOSPC'],
    [/Disk quota exceeded/, 'EDQUOT'],
    [/File name too long/, 'ENAMETOOLONG'],
    [/Permission denied/, 'EACCES'],
    [/Operation not permitted/, 'EPERM'],
    [/Read-only file system/, 'EROFS'],
    [/Too many open files/, 'EMFILE'],
    [/Input\/output error/, 'EIO'],
    [/Not a directory/, 'ENOTDIR'],
    [/Is a directory/, 'EISDIR'],
    [/Too many levels of symbolic links/, 'ELOOP']
];
function errnoOf(text) {
    return ERRNO_TEXTS.find(([pattern]) => pattern.test(text))?.[1];
}
/** GNU tar's own words, without its name in front. */
function plainMessage(message) {
    return message.replace(/^[^:]*tar(?:\.exe)?: /, '');
}

// EXTERNAL MODULE: ./src/common/file-names.ts
var file_names = __webpack_require__(7750);
;// CONCATENATED MODULE: ./src/site/entry-safety.ts
/**
 * Pure checks on archive entries: which names and links may be extracted, and where. No I/O, so
 * every hostile case is unit-tested without touching a disk.
 *
 * Paths here are "entry paths": relative, `/`-separated, without `.` or empty segments; '' is the
 * site root.
 */


/** Both separators count: a Windows runner would read `a\..\b` as a traversal. */
const SEPARATORS = /[\\/]/;
/** `/x`, `\x`, and drive-letter paths `C:x`, `C:\x`. */
const ABSOLUTE = /^(?:[\\/]|[A-Za-z]:)/;
/** Symlinks resolved through other symlinks at most this many times (Linux's SYMLOOP_MAX is 40). */
const MAX_LINK_HOPS = 40;
/** Characters of paths looked up while resolving all symlinks: a site's take thousands; more is built to stall. */
const MAX_SYMLINK_WORK = 20_000_000;
/** NAME_MAX of Linux, macOS and Windows file systems: longer names cannot be created anywhere. */
const MAX_SEGMENT_BYTES = 255;
/** PATH_MAX of Linux: a longer entry path cannot be created below any folder. */
const MAX_PATH_BYTES = 4096;
/** A symlink's target is a path: no longer than PATH_MAX (a zip stores it as content). */
const MAX_LINK_TARGET_BYTES = 4096;
/**
 * What all symlink targets may add up to: each is held until the whole tree is known, and a zip
 * deflates a 4 KiB target to a few dozen bytes. A site's links name a few dozen bytes each.
 */
const MAX_LINK_TARGETS_BYTES = 16 * 1024 * 1024;
/**
 * The most entries an archive may hold, and paths the index may hold: far above any real site
 * (each costs an inode and some memory in the index), far below what would exhaust either.
 */
const MAX_SITE_ENTRIES = 1_000_000;
/**
 * What the paths the index holds may add up to, in characters: each is held until the end, and
 * long paths in a small tar.gz could otherwise fill the heap within the entry bound. A site of
 * 100,000 pages holds about 8 Mi.
 */
const MAX_PATH_CHARACTERS = 64 * 1024 * 1024;
/**
 * Segments Windows reads as `.` or `..` (it drops trailing dots and spaces: `.. ` is `..`), or
 * as nothing at all. `.` and `..` themselves are handled before this is asked.
 */
const DOTS_AND_SPACES = /^[. ]+$/;
const NON_ASCII = /[\u0080-\uffff]/;
/**
 * A name of plain segments (letters, digits, `_`, `-` and dots, none starting with a dot or over
 * NAME_MAX): no refusal applies to it but its length, so most of a generated site's names skip the
 * checks of each segment.
 */
const PLAIN_NAME = /^[\w-][\w.-]{0,254}(?:\/[\w-][\w.-]{0,254})*$/;
/**
 * The entry's path inside the root, or an UnsafeEntryError for an absolute name, a `..` segment
 * (also as Windows reads one), a NUL byte, a name too long to create, or a `.git` folder (git
 * would take it for a repository's control folder, hooks and all, if a later step ran git in
 * the site). `./a//b/` becomes `a/b`; `./` becomes '' (the root itself).
 */
function entryPath(name) {
    if (name.length <= MAX_PATH_BYTES && PLAIN_NAME.test(name))
        return name;
    checkText(name, name, 'name');
    if (ABSOLUTE.test(name))
        throw new UnsafeEntryError(name, 'has an absolute path');
    const segments = [];
    for (const segment of name.split(SEPARATORS)) {
        if (segment === '' || segment === '.')
            continue;
        if (segment === '..')
            throw new UnsafeEntryError(name, 'has a ".." path segment');
        if (DOTS_AND_SPACES.test(segment))
            throw new UnsafeEntryError(name, `has the path segment ${JSON.stringify(segment)}, which Windows reads as "." or ".."`);
        // Made only of code points HFS+ ignores (and dots): macOS reads it as no name at all, and as a
        // path it would fold to its parent's (the index would then know one file under two keys).
        if (NON_ASCII.test(segment) && (0,file_names/* foldPath */.t)(segment) === '') {
            throw new UnsafeEntryError(name, `has the path segment ${JSON.stringify(segment)}, which macOS reads as no name at all`);
        }
        if ((0,file_names/* isGitFolderName */.a)(segment))
            throw new UnsafeEntryError(name, 'has a ".git" path segment: a repository\'s control folder is never unpacked');
        if (Buffer.byteLength(segment) > MAX_SEGMENT_BYTES)
            throw new UnsafeEntryError(name, `has a name longer than ${MAX_SEGMENT_BYTES} bytes, more than file systems allow`);
        segments.push(segment);
    }
    const joined = segments.join('/');
    // The name itself when it was in this form already (it is kept for every entry).
    const path = joined === name ? name : joined;
    if (Buffer.byteLength(path) > MAX_PATH_BYTES)
        throw new UnsafeEntryError(name, `has a path longer than ${MAX_PATH_BYTES} bytes, more than file systems allow`);
    return path;
}
/**
 * Permission bits to create a file with: setuid, setgid and sticky dropped, the rest (x too)
 * kept, and always readable and writable by its owner (a site nobody can read or replace is no
 * site).
 */
function fileMode(mode) {
    return ((mode ?? 0o644) & 0o777) | 0o600;
}
function checkText(entryName, text, what) {
    if (text.includes('\0'))
        throw new UnsafeEntryError(entryName, `has a NUL byte in its ${what}`);
}
/** The folder of an entry path ('' for one at the root). */
function parentOf(path) {
    const slash = path.lastIndexOf('/');
    return slash < 0 ? '' : path.slice(0, slash);
}
/**
 * What an archive puts where, in archive order: each `add*` checks one entry against the entries
 * before it and returns its path; `checkSymlinks()` checks every symlink against the final tree.
 * It judges an unpacker's account of an archive as it goes, and the tree written, once whole.
 *
 * Rules: no entry under a symlink; a hardlink only to a regular file seen earlier; a file and a
 * folder may not share a path; the later entry at a path wins. Paths are folded (see foldPath):
 * `A` and `a`, or `é` in NFC and NFD, would be one file on macOS and Windows and two on Linux, so
 * two spellings of one folded path are refused: the site must be the same on every runner.
 */
class EntryIndex {
    /** Folded path -> what is there. */
    nodes = new Map([['', { kind: 'dir', path: '' }]]);
    /** Folded paths of the symlinks still standing (a later entry at the same path replaces one). */
    symlinks = new Set();
    /** The bytes of every symlink target seen so far, replaced ones too (see MAX_LINK_TARGETS_BYTES). */
    linkTargetBytes = 0;
    /** Paths held (entries and the folders their paths imply) and their characters. */
    paths = 0;
    pathCharacters = 0;
    bounds;
    /**
     * `paths`: the most paths the index holds, folders that entries' paths imply included;
     * `pathCharacters`: what they may add up to.
     */
    constructor(bounds = {}) {
        this.bounds = {
            paths: bounds.paths ?? MAX_SITE_ENTRIES,
            pathCharacters: bounds.pathCharacters ?? MAX_PATH_CHARACTERS
        };
    }
    /** Returns the folder's path, '' for the root. */
    /**
     * `replacesFile`: the reader replaces a file at the folder's path with the folder (GNU tar does,
     * as a later member wins; unzip refuses), so the later entry wins here too.
     */
    addDirectory(name, replacesFile = false) {
        const path = entryPath(name);
        const key = (0,file_names/* foldPath */.t)(path);
        const existing = this.nodes.get(key);
        if (existing?.kind === 'dir')
            return this.sameSpelling(existing, path, name);
        this.claimParents(path, name);
        if (existing?.kind === 'file' && !replacesFile) {
            throw new UnsafeEntryError(name, 'is a directory where an earlier entry is a file');
        }
        if (existing === undefined)
            this.hold(1, path.length, name);
        else
            this.sameSpelling(existing, path, name);
        this.symlinks.delete(key);
        this.nodes.set(key, { kind: 'dir', path });
        return path;
    }
    /** `size`: the bytes the file is counted as (what must be found written). */
    addFile(name, size = 0) {
        const { path, key } = this.claimLeaf(name);
        this.nodes.set(key, { kind: 'file', path, size });
        return path;
    }
    /** What was judged to be at `path`, spelled as it is there; undefined where nothing was. */
    judgedAt(path) {
        const node = this.nodes.get((0,file_names/* foldPath */.t)(path));
        return node?.path === path ? node : undefined;
    }
    /** `target` is another entry's name (tar hardlinks name their target from the archive root). */
    addHardlink(name, target) {
        checkText(name, target, 'link target');
        if (ABSOLUTE.test(target))
            throw new UnsafeEntryError(name, `is a hardlink to the absolute path ${JSON.stringify(target)}`);
        let targetKey;
        try {
            targetKey = (0,file_names/* foldPath */.t)(entryPath(target));
        }
        catch {
            throw new UnsafeEntryError(name, `is a hardlink to ${JSON.stringify(target)}, outside the site folder`);
        }
        const linked = this.nodes.get(targetKey);
        if (linked?.kind !== 'file') {
            throw new UnsafeEntryError(name, `is a hardlink to ${JSON.stringify(target)}, which is not a regular file extracted before it`);
        }
        const { path, key } = this.claimLeaf(name);
        if (key === targetKey)
            throw new UnsafeEntryError(name, 'is a hardlink to itself');
        // The file as it is now: a later entry at the target's path replaces it, not what is linked.
        this.nodes.set(key, { kind: 'file', path, size: linked.size });
        return path;
    }
    addSymlink(name, target) {
        checkText(name, target, 'link target');
        if (target === '')
            throw new UnsafeEntryError(name, 'is a symlink with an empty target');
        const targetBytes = Buffer.byteLength(target);
        if (targetBytes > MAX_LINK_TARGET_BYTES)
            throw new UnsafeEntryError(name, `is a symlink whose target is longer than ${MAX_LINK_TARGET_BYTES} bytes`);
        this.linkTargetBytes += targetBytes;
        if (this.linkTargetBytes > MAX_LINK_TARGETS_BYTES) {
            throw new UnsafeEntryError(name, `is a symlink past ${MAX_LINK_TARGETS_BYTES / 1024 / 1024} MiB of symlink targets in the archive, far ` +
                `more than a site's links name`);
        }
        if (ABSOLUTE.test(target))
            throw new UnsafeEntryError(name, `is a symlink to the absolute path ${JSON.stringify(target)}`);
        for (const segment of target.split(SEPARATORS)) {
            if (segment !== '.' && segment !== '..' && DOTS_AND_SPACES.test(segment)) {
                throw new UnsafeEntryError(name, `is a symlink to ${JSON.stringify(target)}, which has a segment Windows reads as "." or ".."`);
            }
            if (Buffer.byteLength(segment) > MAX_SEGMENT_BYTES)
                throw new UnsafeEntryError(name, `is a symlink to a name longer than ${MAX_SEGMENT_BYTES} bytes, which no file system has`);
        }
        const { path, key } = this.claimLeaf(name);
        // Fail fast on the plain case; chains through other links are checked once all are known.
        if (resolveLexically(parentOf(path), target) === undefined) {
            throw new UnsafeEntryError(name, `is a symlink to ${JSON.stringify(target)}, outside the site folder`);
        }
        this.nodes.set(key, { kind: 'symlink', path, target, entryName: name });
        this.symlinks.add(key);
        return path;
    }
    /** Checks that each symlink, resolved through all the others as the OS would, stays inside the root. */
    checkSymlinks() {
        const linkAt = (at) => {
            const node = this.nodes.get((0,file_names/* foldPath */.t)(at));
            return node?.kind === 'symlink' ? node.target : undefined;
        };
        // One budget for the whole archive: chains of long targets, each walked again for every link
        // that leads into them, would otherwise take hours of a blocked thread for a few KiB of archive.
        const budget = { hops: MAX_LINK_HOPS, work: MAX_SYMLINK_WORK };
        for (const key of this.symlinks) {
            const node = this.nodes.get(key);
            if (node?.kind !== 'symlink')
                continue;
            const { path, target, entryName } = node;
            budget.hops = MAX_LINK_HOPS;
            const verdict = walk(parentOf(path), target, linkAt, budget);
            if (verdict === 'too much') {
                throw new UnsafeEntryError(entryName, `is a symlink, and the archive's symlinks lead through each other more than a site's would (over ` +
                    `${MAX_SYMLINK_WORK / 1_000_000} million characters of paths looked up)`);
            }
            if (verdict === 'loop')
                throw new UnsafeEntryError(entryName, `is a symlink to ${JSON.stringify(target)} that loops through other symlinks`);
            if (verdict === undefined) {
                throw new UnsafeEntryError(entryName, `is a symlink to ${JSON.stringify(target)}, which leads outside the site folder through the archive's ` +
                    `symlinks`);
            }
        }
    }
    /** Checks a file, hardlink or symlink entry's path; an earlier file or symlink there is replaced. */
    claimLeaf(name) {
        const path = entryPath(name);
        if (path === '')
            throw new UnsafeEntryError(name, 'has an empty path');
        this.claimParents(path, name);
        const key = (0,file_names/* foldPath */.t)(path);
        const existing = this.nodes.get(key);
        if (existing?.kind === 'dir')
            throw new UnsafeEntryError(name, 'would replace a directory');
        if (existing === undefined)
            this.hold(1, path.length, name);
        else
            this.sameSpelling(existing, path, name);
        this.symlinks.delete(key);
        return { path, key };
    }
    /** An entry at a known folded path must spell it as the earlier one did. */
    sameSpelling(existing, path, name) {
        if (existing.path === path)
            return path;
        throw new UnsafeEntryError(name, `differs only in case or Unicode form from ${JSON.stringify(existing.path)}: one file on macOS and ` +
            `Windows, two on Linux`);
    }
    /**
     * Counts `added` new paths of `characters` in all against the index's bounds: a folder that a
     * deep path implies is no entry of the archive, but it is made on disk and held here all the same.
     */
    hold(added, characters, name) {
        const unchanged = 'Nothing was unpacked into the site folder, and the previous site was left as it was.';
        if (this.paths + added > this.bounds.paths) {
            throw new SiteLimitError(`The bundle makes more than ${this.bounds.paths.toLocaleString('en-US')} files and folders, the most the ` +
                `action unpacks: the entry ${JSON.stringify(name)} takes it past that (the folders its path implies ` +
                `count too). ${unchanged}`);
        }
        if (this.pathCharacters + characters > this.bounds.pathCharacters) {
            throw new SiteLimitError(`The bundle's paths add up to more than ${this.bounds.pathCharacters.toLocaleString('en-US')} ` +
                `characters, far more than a site's: the entry ${JSON.stringify(name)} takes them past that. ${unchanged}`);
        }
        this.paths += added;
        this.pathCharacters += characters;
    }
    /** Every ancestor becomes a folder; none may be a symlink (that would write through it) or a file. */
    claimParents(path, name) {
        let characters = 0;
        let added = 0;
        const newDirectories = [];
        // Ancestors of a known folder are known folders: the common case costs one lookup.
        for (let parent = parentOf(path);; parent = parentOf(parent)) {
            const key = (0,file_names/* foldPath */.t)(parent);
            const node = this.nodes.get(key);
            if (node?.kind === 'dir') {
                this.sameSpelling(node, parent, name);
                break;
            }
            if (node?.kind === 'symlink')
                throw new UnsafeEntryError(name, `would be written through the symlink ${JSON.stringify(node.entryName)}`);
            if (node?.kind === 'file')
                throw new UnsafeEntryError(name, `is inside ${JSON.stringify(node.path)}, which an earlier entry made a file`);
            newDirectories.push({ key, path: parent });
            characters += parent.length;
            added++;
        }
        if (added > 0)
            this.hold(added, characters, name);
        for (const directory of newDirectories)
            this.nodes.set(directory.key, { kind: 'dir', path: directory.path });
    }
}
/** `target` from directory `from` without following links; undefined when it climbs above the root. */
function resolveLexically(from, target) {
    return walk(from, target, undefined, { hops: MAX_LINK_HOPS, work: Number.POSITIVE_INFINITY });
}
/**
 * Walks `target` from directory `from` like path resolution does: where `linkAt` names a symlink's
 * target for the path reached, the walk goes where that symlink leads before the next segment (so
 * a `..` after it climbs from there). Undefined when the walk leaves the root at any step; 'loop'
 * after too many links; 'too much' once the characters of the paths looked up pass `budget.work`.
 */
function walk(from, target, linkAt, budget) {
    // The path reached, kept as one string: joining its segments at every step would cost the
    // square of a long target's length.
    let at = from;
    for (const segment of target.split(SEPARATORS)) {
        if (segment === '' || segment === '.')
            continue;
        if (segment === '..') {
            if (at === '')
                return undefined;
            at = parentOf(at);
            continue;
        }
        at = at === '' ? segment : `${at}/${segment}`;
        if (linkAt === undefined)
            continue;
        budget.work -= at.length;
        if (budget.work < 0)
            return 'too much';
        const link = linkAt(at);
        if (link === undefined)
            continue;
        if (--budget.hops < 0)
            return 'loop';
        const resolved = walk(parentOf(at), link, linkAt, budget);
        if (resolved === undefined || resolved === 'loop' || resolved === 'too much')
            return resolved;
        at = resolved;
    }
    return at;
}

;// CONCATENATED MODULE: ./src/site/ledger.ts




/** What an archive may take beyond twice the site it holds and a tar block pair per entry (see archiveBound). */
const ARCHIVE_OVERHEAD_BYTES = 64 * 1024 * 1024;
/** A tar entry of under 512 bytes still takes a 512-byte header and a 512-byte block of content. */
const SMALL_ENTRY_BYTES = 1024;
/**
 * The most bytes an archive may have: the largest site it may hold
 * (`max-site-size`) and its format's overhead. A tar gives each entry a 512-byte header and pads
 * its content to 512 bytes, so a file of 1 KiB or more takes at most twice its size, and any
 * entry at least 1 KiB; the fixed part holds long names and end blocks. Storage that sends no
 * Content-Length would otherwise fill the disk until `timeout`.
 */
function archiveBound(limits) {
    const entries = limits.maxEntries ?? MAX_SITE_ENTRIES;
    return Math.min(Number.MAX_SAFE_INTEGER, 2 * limits.maxBytes + entries * SMALL_ENTRY_BYTES + ARCHIVE_OVERHEAD_BYTES);
}
/** The fixed part of archiveBound, for the message that names it. */
const ARCHIVE_OVERHEAD = ARCHIVE_OVERHEAD_BYTES;
/** The longest path Linux opens (PATH_MAX, its NUL included): a site's files must be reachable by path. */
const MAX_FULL_PATH_BYTES = 4095;
const UNCHANGED = 'Nothing was unpacked into the site folder, and the previous site was left as it was';
class SiteLedger {
    limits;
    log;
    root;
    counts = { files: 0, directories: 0, symlinks: 0, hardlinks: 0, skipped: 0 };
    index;
    maxEntries;
    entries = 0;
    bytes = 0;
    /** `root`: the folder the entries are written below, whose path counts towards each entry's. */
    constructor(limits, log, root) {
        this.limits = limits;
        this.log = log;
        this.root = root;
        this.maxEntries = limits.maxEntries ?? MAX_SITE_ENTRIES;
        this.index = new EntryIndex({ paths: this.maxEntries });
        this.rootBytes = root === undefined ? 0 : Buffer.byteLength(root) + 1;
    }
    rootBytes;
    /** Entries taken so far, of every kind. */
    get entryCount() {
        return this.entries;
    }
    /**
     * Checks and counts one entry; returns its path in the site, or undefined when it is skipped
     * (a device or a fifo: `special` names what it is). `size`: the bytes a file writes.
     */
    entry(kind, name, details = {}) {
        const path = this.check(kind, name, details);
        if (path !== undefined && this.rootBytes + Buffer.byteLength(path) > MAX_FULL_PATH_BYTES) {
            const tooLong = Object.assign(new Error('name too long'), { code: 'ENAMETOOLONG' });
            throw writeFailure(tooLong, `the archive entry ${JSON.stringify(name)} into ${this.root}`);
        }
        return path;
    }
    check(kind, name, details) {
        if (++this.entries > this.maxEntries) {
            throw new SiteLimitError(`The bundle holds more than ${this.maxEntries.toLocaleString('en-US')} entries, the most the action ` +
                `unpacks: the entry ${JSON.stringify(name)} is one more. ${UNCHANGED}.`);
        }
        switch (kind) {
            case 'directory':
                this.counts.directories++;
                return this.index.addDirectory(name, details.replacesFile);
            case 'file':
                this.addBytes(name, details.size ?? 0);
                this.counts.files++;
                return this.index.addFile(name, details.size ?? 0);
            case 'symlink':
                this.counts.symlinks++;
                return this.index.addSymlink(name, details.target ?? '');
            case 'hardlink':
                this.counts.hardlinks++;
                return this.index.addHardlink(name, details.target ?? '');
            case 'special':
                this.counts.skipped++;
                this.log.warning(`Skipped the archive entry ${JSON.stringify(name)}: ${details.special ?? 'special file'} entries are ` +
                    `not extracted`);
                return undefined;
        }
    }
    /** The archive's entries declare `total` bytes in all (a zip says so before any is read). */
    declared(total) {
        if (total > this.limits.maxBytes)
            throw this.tooLarge(`the archive's entries declare ${(0,units/* formatBytes */.z3)(total)} in all`);
    }
    /** What was judged to be at `path` (a file with the bytes it was counted as); undefined where nothing was. */
    judgedAt(path) {
        return this.index.judgedAt(path);
    }
    /** Every entry is in: the symlinks are judged against the whole tree. */
    finish() {
        this.index.checkSymlinks();
    }
    addBytes(name, size) {
        this.bytes += size;
        if (this.bytes > this.limits.maxBytes) {
            throw this.tooLarge(`the entry ${JSON.stringify(name)} (${(0,units/* formatBytes */.z3)(size)}) takes it to ${(0,units/* formatBytes */.z3)(this.bytes)}`);
        }
    }
    tooLarge(detail) {
        return new SiteLimitError(`The bundle unpacks to more than ${(0,units/* formatBytes */.z3)(this.limits.maxBytes)}, the bound set by \`max-site-size\`: ` +
            `${detail}. ${UNCHANGED}; raise \`max-site-size\` if the site really is this large.`);
    }
}

// EXTERNAL MODULE: external "node:stream/promises"
var external_node_stream_promises_ = __webpack_require__(6466);
// EXTERNAL MODULE: external "node:zlib"
var external_node_zlib_ = __webpack_require__(8522);
var external_node_zlib_default = /*#__PURE__*/__webpack_require__.n(external_node_zlib_);
;// CONCATENATED MODULE: ./src/common/umask.ts

/**
 * The process's file mode creation mask, read once when this module loads (before any writer
 * thread runs). A mode given to `open` is masked by it, a mode given to `chmod` is not: whoever
 * sets a mode after creating a file masks it with this, or the file ends up more open than one
 * created with the same mode (a zip's `0666` page world-writable).
 *
 * Linux shows the mask in /proc without touching it. Elsewhere `process.umask()` is the only way,
 * and it sets the mask twice (to 0 and back), so a thread creating a file at that moment would
 * get mode bits nobody asked for: hence once, at load.
 */
const UMASK = readUmask();
function readUmask() {
    try {
        const found = /^Umask:\s*([0-7]+)\s*$/m.exec((0,external_node_fs_.readFileSync)('/proc/self/status', 'utf8'));
        if (found !== null)
            return parseInt(found[1], 8);
    }
    catch {
        // No /proc: not Linux.
    }
    return process.umask();
}

;// CONCATENATED MODULE: ./src/archive/tar-unpacker.ts
/**
 * Unpacks a tar or tar.gz into the staging folder as its bytes arrive: Node's zlib gunzips (on
 * its thread pool, beside the download), GNU tar writes, and the ledger judges every member GNU
 * tar announces as it writes it. Modes a site cannot live with (a page its owner cannot read) are
 * mended once GNU tar is done. zlib, not GNU tar's gzip: the same work in less time
 * (docs/benchmarks.md).
 */











const SPECIAL_KINDS = { b: 'block device', c: 'character device', p: 'fifo', s: 'socket' };
/** The pieces zlib hands on: the default 16 KiB would wake GNU tar's pipe four times as often. */
const GUNZIP_CHUNK_BYTES = 64 * 1024;
/**
 * A gzip's content must read as a tar from its first block: GNU tar takes anything shorter than a
 * block (an error page, gzipped) for an empty archive.
 */
function judgeGzipContent(head, complete) {
    if (head.length < TAR_BLOCK_BYTES && !complete)
        return undefined;
    if (looksLikeTar(head) || (head.length < TAR_BLOCK_BYTES && head.every((byte) => byte === 0)))
        return 'tar';
    return new errors/* NotAnArchiveError */.DD(`The bundle is a gzip file, but its content is not a tar archive: it looks like ${describeBytes(head)}`);
}
class TarUnpacker {
    options;
    extraction;
    /** A tar.gz's gunzipping, and the judge of its first plain bytes. */
    gunzip;
    gzipContent = new HeadSniffer(judgeGzipContent);
    gzipFailure;
    tarBytes = 0;
    fatal;
    /** Members GNU tar writes with modes their owner cannot read or write through. */
    modesToMend = [];
    constructor(options) {
        this.options = options;
        this.extraction = new GnuTarExtraction({
            tar: options.tar,
            into: options.staging,
            listingFile: options.listingFile,
            onMember: (member) => this.member(member),
            onFailure: (error) => this.failFatally(error)
        });
        if (!options.gzip)
            return;
        const gunzip = external_node_zlib_default().createGunzip({ chunkSize: GUNZIP_CHUNK_BYTES });
        gunzip.on('data', (plain) => {
            const wait = this.toTar(plain);
            if (wait === undefined)
                return;
            gunzip.pause();
            // A refusal is GNU tar's failure, told through onFailure already (failFatally stops the gunzipping).
            void wait.then(() => gunzip.resume(), () => undefined);
        });
        gunzip.on('error', (error) => {
            this.gzipFailure ??= new errors/* CorruptArchiveError */.sC(`its gzip data cannot be read (${error.message})`);
            void this.extraction.stop();
        });
        this.gunzip = gunzip;
    }
    /** Bytes of the archive as downloaded; a returned promise asks the download to wait. */
    write(chunk) {
        if (this.fatal !== undefined)
            throw this.fatal;
        if (this.gunzip === undefined)
            return this.extraction.write(chunk);
        // Broken gzip data: the rest of the download is not unpacked (end() says why).
        if (this.gzipFailure !== undefined || this.gunzip.destroyed)
            return undefined;
        if (this.gunzip.write(chunk))
            return undefined;
        return drainedOrClosed(this.gunzip);
    }
    /** The whole archive is in: waits for GNU tar, judges the symlinks of the whole tree, mends modes. */
    async end() {
        if (this.gunzip !== undefined && this.fatal === undefined) {
            this.gunzip.end();
            await (0,external_node_stream_promises_.finished)(this.gunzip).catch(cancellation/* noop */.lQ);
            if (this.gzipFailure !== undefined) {
                await this.extraction.stop();
                throw this.gzipFailure;
            }
            if (this.gzipContent.pending)
                this.judged(this.gzipContent.end());
        }
        if (this.fatal !== undefined) {
            await this.extraction.stop();
            throw this.fatal;
        }
        await this.extraction.end();
        this.options.ledger.finish();
        const prefix = Buffer.from(`${this.options.staging}/`);
        for (const { name, mode } of this.modesToMend) {
            // Only what GNU tar left there as a file or folder: a later member may have put a symlink in its place.
            const path = Buffer.concat([prefix, name]);
            const stats = await (0,promises_.lstat)(path);
            if (stats.isFile() || stats.isDirectory())
                await (0,promises_.chmod)(path, mode);
        }
    }
    /** Stops gunzipping and GNU tar at once; nothing is written after this resolves. */
    stop() {
        this.gunzip?.destroy();
        return this.extraction.stop();
    }
    /** A tar.gz's plain bytes, held until their first block is judged. */
    toTar(plain) {
        if (this.fatal !== undefined)
            return undefined;
        this.tarBytes += plain.length;
        if (this.tarBytes > this.options.maxTarBytes) {
            this.failFatally(new SiteLimitError(`The bundle's tar data runs past ${(0,units/* formatBytes */.z3)(this.options.maxTarBytes)}, the most \`max-site-size\` ` +
                'allows an archive to hold. Nothing was unpacked into the site folder, and the previous site was left ' +
                'as it was; raise `max-site-size` if the site really is this large.'));
            return undefined;
        }
        try {
            if (!this.gzipContent.pending)
                return this.extraction.write(plain);
            const judged = this.gzipContent.push(plain);
            return judged === undefined ? undefined : this.judged(judged);
        }
        catch {
            // GNU tar stopped on a member refused: failFatally has it, and has stopped the gunzipping.
            return undefined;
        }
    }
    judged({ verdict, head }) {
        if (verdict === 'tar')
            return this.extraction.write(head);
        this.failFatally(verdict);
        return undefined;
    }
    /** One member GNU tar is about to write: judged and counted (a throw stops GNU tar). */
    member(member) {
        if (member.kind === 'none' || member.kind === 'end' || member.implied)
            return;
        const name = (0,site_paths/* decodeSitePath */.xZ)(member.name);
        const target = member.target === undefined ? undefined : (0,site_paths/* decodeSitePath */.xZ)(member.target);
        // GNU tar replaces a file with a later folder at its path (a Solaris tar's ACL entry is written as a file first).
        const details = { size: member.size, target, special: SPECIAL_KINDS[member.type], replacesFile: true };
        this.options.ledger.entry(member.kind, name, details);
        const ownerBits = member.kind === 'directory' ? 0o700 : 0o600;
        if ((member.kind === 'file' || member.kind === 'directory') && (member.mode & ownerBits) !== ownerBits) {
            this.modesToMend.push({ name: member.name, mode: (member.mode & ~UMASK) | ownerBits });
        }
    }
    /** The unpacking cannot succeed: says so at once, and stops the gunzipping and GNU tar. */
    failFatally(error) {
        if (this.fatal !== undefined)
            return;
        this.fatal = error;
        this.options.onFatal(error);
        this.gunzip?.destroy();
        void this.extraction.stop();
    }
}
/** Until `stream` takes more, or is closed (stopped: it never drains then). */
function drainedOrClosed(stream) {
    return new Promise((resolve) => {
        const done = () => {
            stream.off('drain', done);
            stream.off('close', done);
            resolve();
        };
        stream.on('drain', done);
        stream.on('close', done);
    });
}

;// CONCATENATED MODULE: ./src/site/tree-check.ts
/**
 * The check of what was written, before the staged site is swapped in: every entry was judged as
 * the reader announced it (see ledger.ts), so the tree is walked only for what the announcements
 * cannot tell. Each folder, file and symlink on disk must be one that was judged at that path
 * (the same kind, a symlink with the same target), each file as large as it was counted against
 * `max-site-size`; devices, fifos and sockets are removed (they are no part of a site). Names are
 * read as bytes (see site-paths).
 */





/**
 * The site's files and symlinks, as site paths: what the site check reads. `judgedAt` says what
 * was judged at a path: a file written larger or smaller than counted (a sparse member whose map
 * leads past the size it lists) would pass `max-site-size` unseen, and anything not judged at all
 * would pass every rule.
 */
async function checkStagedTree(root, judgedAt, signal) {
    const files = [];
    await (0,site_paths/* walkTree */.Ir)(root, async ({ path, onDisk, entry }) => {
        const judged = judgedAt(path);
        if (entry.isDirectory()) {
            if (judged?.kind !== 'dir')
                throw notJudged(path, 'a folder');
        }
        else if (entry.isFile()) {
            checkWrittenSize(path, (0,external_node_fs_.lstatSync)(onDisk).size, judged?.kind === 'file' ? judged.size : undefined);
            files.push(path);
        }
        else if (entry.isSymbolicLink()) {
            const target = (0,site_paths/* decodeSitePath */.xZ)(await (0,promises_.readlink)(onDisk, 'buffer'));
            if (judged?.kind !== 'symlink' || judged.target !== target)
                throw notJudged(path, 'a symlink');
            files.push(path);
        }
        else
            await (0,promises_.rm)(onDisk, { force: true });
    }, signal);
    return files;
}
function notJudged(path, what) {
    return new UnsafeEntryError(path, `was written as ${what}, which is not what the archive's entries said is there`);
}
function checkWrittenSize(path, written, counted) {
    if (written === counted)
        return;
    const listed = counted === undefined ? 'no file there' : (0,units/* formatBytes */.z3)(counted);
    throw new UnsafeEntryError(path, `was written with ${(0,units/* formatBytes */.z3)(written)} where the archive lists ${listed} (a sparse member, whose map ` +
        'may write past the size it lists)');
}

// EXTERNAL MODULE: external "node:stream"
var external_node_stream_ = __webpack_require__(7075);
// EXTERNAL MODULE: ./node_modules/yauzl/index.js
var yauzl = __webpack_require__(663);
;// CONCATENATED MODULE: ./src/archive/zip-reader.ts
/**
 * A finished zip file as yauzl reads it, with what Info-ZIP's unzip also accepts: bytes after the
 * end record (bsdtar pads a zip to its block size) and bytes before the first entry that the
 * offsets do not count (a zip appended to a program). Names are the bytes unzip would write.
 */





/** Reads of the file are served from blocks of this size (a directory's records come in a row). */
const BLOCK_BYTES = 1024 * 1024;
const CACHED_BLOCKS = 4;
const END_RECORD_BYTES = 22;
const MAX_COMMENT_BYTES = 0xffff;
const END_SIGNATURE = 0x06054b50;
const ZIP64_LOCATOR_SIGNATURE = 0x07064b50;
const ZIP64_LOCATOR_BYTES = 20;
const CENTRAL_SIGNATURE = 0x02014b50;
const CENTRAL_RECORD_BYTES = 46;
/**
 * The file seen from `shift` on and up to `size` bytes (see zipWindow), read through a few cached
 * blocks: yauzl asks for each record apart, and a read of the disk for each cost more than the rest.
 */
class WindowReader extends yauzl.RandomAccessReader {
    fd;
    shift;
    size;
    blocks = new Map();
    constructor(fd, shift, size) {
        super();
        this.fd = fd;
        this.shift = shift;
        this.size = size;
    }
    /** `length` bytes at `position` of the window into `target` (a throw: past its end). */
    copy(target, offset, length, position) {
        if (position < 0 || position + length > this.size)
            throw new Error('unexpected EOF');
        while (length > 0) {
            const index = Math.floor((position + this.shift) / BLOCK_BYTES);
            const block = this.block(index);
            const at = position + this.shift - index * BLOCK_BYTES;
            const count = Math.min(length, block.length - at);
            if (count <= 0)
                throw new Error('unexpected EOF');
            block.copy(target, offset, at, at + count);
            offset += count;
            length -= count;
            position += count;
        }
    }
    read(buffer, offset, length, position, callback) {
        try {
            this.copy(buffer, offset, length, position);
        }
        catch (error) {
            return callback(error);
        }
        callback(null, length);
    }
    _readStreamForRange(start, end) {
        const { fd, shift } = this;
        // A large entry's bytes, read in order and once: past the cache.
        return external_node_stream_.Readable.from((function* () {
            for (let at = start; at < end;) {
                const chunk = Buffer.allocUnsafe(Math.min(BLOCK_BYTES, end - at));
                const read = (0,external_node_fs_.readSync)(fd, chunk, 0, chunk.length, at + shift);
                if (read === 0)
                    throw new Error('unexpected EOF');
                at += read;
                yield chunk.subarray(0, read);
            }
        })(), { objectMode: false });
    }
    close(callback) {
        // The file is its opener's to close (see openZip).
        setImmediate(callback, null);
    }
    block(index) {
        const cached = this.blocks.get(index);
        if (cached !== undefined)
            return cached;
        if (this.blocks.size >= CACHED_BLOCKS)
            this.blocks.delete(this.blocks.keys().next().value);
        const block = Buffer.allocUnsafe(BLOCK_BYTES);
        const read = (0,external_node_fs_.readSync)(this.fd, block, 0, BLOCK_BYTES, index * BLOCK_BYTES);
        this.blocks.set(index, block.subarray(0, read));
        return block.subarray(0, read);
    }
}
/**
 * The last end record in `tail` (the last bytes of a file of `size`), as unzip finds it: the last
 * signature, its comment fitting in the file or not (`end` past `size`: see openZip).
 */
function findEndRecord(tail, size) {
    const tailStart = size - tail.length;
    for (let at = tail.length - END_RECORD_BYTES; at >= 0; at--) {
        if (tail.readUInt32LE(at) !== END_SIGNATURE)
            continue;
        const end = at + END_RECORD_BYTES + tail.readUInt16LE(at + 20);
        const directoryBytes = tail.readUInt32LE(at + 12);
        const directoryOffset = tail.readUInt32LE(at + 16);
        const locator = at >= ZIP64_LOCATOR_BYTES && tail.readUInt32LE(at - ZIP64_LOCATOR_BYTES) === ZIP64_LOCATOR_SIGNATURE;
        const zip64 = locator || directoryOffset === 0xffffffff || directoryBytes === 0xffffffff;
        return { at: tailStart + at, end: tailStart + end, directoryOffset, directoryBytes, zip64 };
    }
    return undefined;
}
/**
 * Where the zip lies in its file: from where its offsets count (0, or after a program the zip was
 * appended to, which unzip calls "extra bytes at beginning") to the end of its end record. The
 * central directory must end where the end record starts: bytes between the two are read by no
 * reader, and could hide anything.
 */
function zipWindow(fd, end) {
    if (end.zip64)
        return { shift: 0, size: end.end };
    const declaredEnd = end.directoryOffset + end.directoryBytes;
    const actualStart = end.at - end.directoryBytes;
    if (declaredEnd !== end.at) {
        const signature = Buffer.alloc(4);
        if (actualStart < 0 ||
            declaredEnd > end.at ||
            (0,external_node_fs_.readSync)(fd, signature, 0, 4, actualStart) !== 4 ||
            signature.readUInt32LE(0) !== CENTRAL_SIGNATURE) {
            throw (0,errors/* corrupt */.qb)(new Error(`the central directory ends at byte ${declaredEnd}, but the end records start at byte ${end.at}`));
        }
    }
    const shift = actualStart - end.directoryOffset;
    return { shift, size: end.end - shift };
}
/** The last bytes of a file: where a zip's end record is. */
const ZIP_TAIL_BYTES = END_RECORD_BYTES + MAX_COMMENT_BYTES + ZIP64_LOCATOR_BYTES;
/** Opens the zip in `file` and reads its central directory whole; throws the archive's errors (see errors.ts). */
async function openZip(file) {
    const fd = (0,external_node_fs_.openSync)(file, 'r');
    try {
        const size = (0,external_node_fs_.fstatSync)(fd).size;
        const tail = Buffer.alloc(Math.min(size, ZIP_TAIL_BYTES));
        (0,external_node_fs_.readSync)(fd, tail, 0, tail.length, size - tail.length);
        const end = findEndRecord(tail, size);
        if (end === undefined)
            throw (0,errors/* corrupt */.qb)(new Error('it has no end of central directory record'));
        // unzip reads on with a warning, yauzl refuses, and an earlier record would be another zip: refused.
        if (end.end > size) {
            throw (0,errors/* corrupt */.qb)(new Error(`its end record's comment of ${end.end - end.at - END_RECORD_BYTES} bytes runs past the end of the file ` +
                `(${size - end.at - END_RECORD_BYTES} bytes are there): the zip is cut short or damaged`));
        }
        const window = zipWindow(fd, end);
        const reader = new WindowReader(fd, window.shift, window.size);
        const zip = await yauzl.fromRandomAccessReaderPromise(reader, window.size, {
            lazyEntries: true,
            decodeStrings: false,
            validateEntrySizes: true,
            autoClose: false
        })
            .catch(readFailure);
        const entries = [];
        try {
            for await (const entry of zip.eachEntry())
                entries.push(entry);
        }
        catch (error) {
            throw readFailure(error);
        }
        checkDirectoryBytes(entries, end);
        return { zip, reader, entries, close: () => (0,external_node_fs_.closeSync)(fd) };
    }
    catch (error) {
        (0,external_node_fs_.closeSync)(fd);
        throw error;
    }
}
/**
 * The records read must fill the directory the end record describes: an end record whose count
 * is short (one flipped bit) would otherwise leave entries out of the site without a word.
 */
function checkDirectoryBytes(entries, end) {
    if (end.zip64)
        return;
    let bytes = 0;
    for (const entry of entries) {
        bytes += CENTRAL_RECORD_BYTES + entry.fileNameLength + entry.extraFieldLength + entry.fileCommentLength;
    }
    if (bytes !== end.directoryBytes) {
        throw (0,errors/* corrupt */.qb)(new Error(`the central directory's ${entries.length} entries take ${bytes} bytes, but its end record says ` +
            `${end.directoryBytes}`));
    }
}
/** What yauzl refuses: split zips and strong encryption are intact but unsupported; the rest is corrupt. */
function readFailure(error) {
    const message = error instanceof Error ? error.message : String(error);
    if (/multi-disk/.test(message)) {
        throw new errors/* UnsupportedArchiveError */.k9('The bundle archive cannot be unpacked: it is a zip split over several disks.');
    }
    if (/strong encryption/.test(message)) {
        throw new errors/* UnsupportedArchiveError */.k9('The bundle archive cannot be unpacked: it uses strong encryption.');
    }
    throw (0,errors/* corrupt */.qb)(error);
}
/** Hosts whose names unzip reads as an OEM code page (process.c, Ext_ASCII_TO_Native). */
function oemNamed(entry) {
    const host = entry.versionMadeBy >> 8;
    const version = entry.versionMadeBy & 0xff;
    const unixModes = entry.externalFileAttributes >>> 16 !== 0;
    if (host === 0)
        return !(unixModes && (version === 25 || version === 26 || version === 40));
    return host === 6 || (host === 11 && version === 50);
}
/**
 * Info-ZIP's OEM (code page 850) to ISO-8859-1 table for bytes 0x80-0xFF, as unzip applies it on
 * Linux: one latin-1 byte each ('' where it drops the byte).
 */
const OEM_TO_LATIN1 = Buffer.from('c7fce9e2e4e0e5e7eaebe8efeeecc4c5c9e6c6f4f6f2fbf900d6dcf8a3d8d783e1edf3faf1d1aababfaeacbdbca1abbb' +
    'a6a6a6a6a6c1c2c0a9a6a62b2ba2a52b2b2d2d2b2d2be3c32b2b2d2da62d2ba4f0d0cacbc869cdcecf2b2ba65fa6ccaf' +
    'd3dfd4d2f5d5b5fededadbd9fdddafb4adb13dbeb6a7f7b8b0a8b7b9b3b2a6a0', 'hex');
const DROPPED_OEM_BYTE = 0x98;
/**
 * The bytes unzip (Info-ZIP, on Linux) writes for an entry's name: UTF-8 when flagged or given in
 * an Info-ZIP Unicode path field that matches the name, code page 850 read into latin-1 for names
 * made on DOS and Windows hosts (their `\` a separator), and the bytes as they are otherwise.
 */
function entryNameBytes(entry) {
    const raw = entry.fileNameRaw;
    if ((entry.generalPurposeBitFlag & 0x800) !== 0)
        return raw;
    const unicode = unicodePath(entry);
    if (unicode !== undefined)
        return unicode;
    if (!oemNamed(entry))
        return raw;
    const bytes = [];
    for (const byte of raw) {
        if (byte === 0x5c)
            bytes.push(0x2f);
        else if (byte < 0x80)
            bytes.push(byte);
        else if (byte !== DROPPED_OEM_BYTE)
            bytes.push(OEM_TO_LATIN1[byte - 0x80]);
    }
    return Buffer.from(bytes);
}
/** The Info-ZIP Unicode Path extra field (0x7075), version 1, when its CRC-32 is the raw name's. */
function unicodePath(entry) {
    const field = entry.extraFields.find((extra) => extra.id === 0x7075);
    if (field === undefined || field.data.length < 5 || field.data[0] !== 1)
        return undefined;
    return field.data.readUInt32LE(1) === external_node_zlib_default().crc32(entry.fileNameRaw) ? field.data.subarray(5) : undefined;
}

// EXTERNAL MODULE: external "node:timers/promises"
var external_node_timers_promises_ = __webpack_require__(8500);
;// CONCATENATED MODULE: ./src/archive/zip-unpacker.ts
/**
 * Unpacks a finished zip into the staging folder as Info-ZIP's unzip would: entries in archive
 * order, the later of two at one path winning, symlinks made last. Every entry is judged by the
 * ledger from the central directory before anything is written, and each entry's bytes are
 * checked against what the directory declares as they are inflated: a zip cannot unpack to more
 * than it says.
 */













/** Entries up to this size are inflated in one call; larger ones are streamed to their file. */
const IN_ONE_PIECE_BYTES = 4 * 1024 * 1024;
const YIELD_EVERY_ENTRIES = 256;
const LOCAL_HEADER_BYTES = 30;
const LOCAL_SIGNATURE = 0x04034b50;
const UNIX_HOST = 3;
const S_IFMT = 0o170000;
const S_IFLNK = 0o120000;
const SLASH = 0x2f;
const DOT = 0x2e;
const SEPARATOR = Buffer.from('/');
async function unpackZip(options) {
    const zip = await openZip(options.file);
    try {
        const planned = await plan(zip, options);
        const prefix = Buffer.from(`${options.staging}/`);
        const folders = new FolderMaker();
        const compressed = new ReusedBuffer();
        for (const [i, item] of planned.entries()) {
            // Small entries are written without a turn of the event loop in between: one now and then
            // lets a cancellation (and the log) through.
            if (i % YIELD_EVERY_ENTRIES === 0) {
                await (0,external_node_timers_promises_.setImmediate)();
                options.signal?.throwIfAborted();
            }
            const path = Buffer.concat([prefix, item.path]);
            try {
                if (item.kind === 'directory')
                    folders.make(path);
                else if (item.kind === 'file') {
                    folders.make(zip_unpacker_parentOf(path));
                    // The later of two entries at a path wins, with its own mode.
                    if (item.replacesEarlier)
                        (0,external_node_fs_.rmSync)(path, { force: true });
                    await writeEntry(zip, item, path, compressed, options.signal);
                }
            }
            catch (error) {
                throw writeFailure(error, `the archive entry ${JSON.stringify(item.name)} into ${options.staging}`);
            }
        }
        options.ledger.finish();
        for (const item of planned) {
            // A later entry at its path (a file, a folder) took its place.
            if (item.kind !== 'symlink' || item.replacedLater)
                continue;
            const path = Buffer.concat([prefix, item.path]);
            folders.make(zip_unpacker_parentOf(path));
            (0,external_node_fs_.rmSync)(path, { force: true });
            (0,external_node_fs_.symlinkSync)(item.target, path);
        }
    }
    finally {
        zip.close();
    }
}
/** Every entry judged, and every symlink's target read, before anything is written. */
async function plan(zip, options) {
    const planned = [];
    const atPath = new Map();
    let declared = 0;
    for (const entry of zip.entries) {
        const bytes = entryNameBytes(entry);
        const name = (0,site_paths/* decodeSitePath */.xZ)(bytes);
        if ((entry.generalPurposeBitFlag & 0x1) !== 0)
            throw (0,errors/* unsupportedEntry */._S)(name, 'is encrypted');
        if (entry.compressionMethod !== 0 && entry.compressionMethod !== 8) {
            throw (0,errors/* unsupportedEntry */._S)(name, `is compressed with method ${entry.compressionMethod} (neither stored nor deflate)`);
        }
        const unixMode = entry.versionMadeBy >> 8 === UNIX_HOST ? entry.externalFileAttributes >>> 16 : 0;
        const kind = name.endsWith('/') ? 'directory' : (unixMode & S_IFMT) === S_IFLNK ? 'symlink' : 'file';
        if (kind === 'file')
            declared += entry.uncompressedSize;
        const item = {
            entry,
            name,
            path: relativePath(bytes),
            kind,
            dataStart: 0,
            replacesEarlier: false,
            replacedLater: false
        };
        const key = item.path.toString('latin1');
        const earlier = atPath.get(key);
        if (earlier !== undefined) {
            earlier.replacedLater = true;
            item.replacesEarlier = earlier.kind === 'file';
        }
        atPath.set(key, item);
        planned.push(item);
    }
    options.ledger.declared(declared);
    refuseSharedData(zip, planned);
    for (const item of planned) {
        if (item.kind === 'symlink')
            item.target = await readLinkTarget(zip, item);
        options.ledger.entry(item.kind, item.name, {
            size: item.entry.uncompressedSize,
            target: item.target === undefined ? undefined : (0,site_paths/* decodeSitePath */.xZ)(item.target)
        });
    }
    return planned;
}
/**
 * Two records whose data overlap unpack the same bytes many times over (the overlapping zip
 * bomb, which unzip refuses too): refused before any is read. An entry's data ends where its
 * local header says, name and extra field included (a large extra field could hide an entry).
 */
function refuseSharedData(zip, planned) {
    const header = Buffer.alloc(LOCAL_HEADER_BYTES);
    const byOffset = planned
        .map((item) => {
        const at = item.entry.relativeOffsetOfLocalHeader;
        try {
            zip.reader.copy(header, 0, LOCAL_HEADER_BYTES, at);
        }
        catch (error) {
            throw unreadable(item.name, error);
        }
        if (header.readUInt32LE(0) !== LOCAL_SIGNATURE) {
            throw unreadable(item.name, new Error(`no local file header at byte ${at}`));
        }
        item.dataStart = at + LOCAL_HEADER_BYTES + header.readUInt16LE(26) + header.readUInt16LE(28);
        return item;
    })
        .sort((a, b) => a.entry.relativeOffsetOfLocalHeader - b.entry.relativeOffsetOfLocalHeader);
    for (let k = 1; k < byOffset.length; k++) {
        const before = byOffset[k - 1];
        const after = byOffset[k];
        if (before.dataStart + before.entry.compressedSize > after.entry.relativeOffsetOfLocalHeader) {
            throw (0,errors/* corrupt */.qb)(new Error(`the entries ${JSON.stringify(before.name)} and ${JSON.stringify(after.name)} ` +
                'overlap: their data would be unpacked more than once (unzip calls this a possible zip bomb)'));
        }
    }
}
async function readLinkTarget(zip, item) {
    const { entry, name } = item;
    // A path is at most 4,096 bytes, and deflate never grows one by more than a few dozen.
    if (entry.uncompressedSize > MAX_LINK_TARGET_BYTES || entry.compressedSize > MAX_LINK_TARGET_BYTES + 64) {
        throw new UnsafeEntryError(name, `is a symlink whose target is longer than ${MAX_LINK_TARGET_BYTES} bytes ` +
            `(it declares ${entry.uncompressedSize}, ${entry.compressedSize} compressed)`);
    }
    return readWhole(zip, item);
}
/**
 * An entry's bytes, inflated in one call and checked against its declared size and CRC-32. Its
 * compressed bytes are read into `compressed` when given (a stored entry's result is then valid
 * only until the next read), or into a buffer of their own.
 */
function readWhole(zip, { entry, name, dataStart }, compressed) {
    const stored = compressed?.take(entry.compressedSize) ?? Buffer.allocUnsafe(entry.compressedSize);
    let data = stored;
    try {
        zip.reader.copy(stored, 0, entry.compressedSize, dataStart);
        // Inflating stops past the declared size: a zip cannot unpack to more than it says. One output
        // piece of the declared size, not zlib's 16 KiB pieces joined: less garbage between collections.
        if (entry.compressionMethod === 8) {
            const declared = Math.max(1, entry.uncompressedSize);
            data = external_node_zlib_default().inflateRawSync(stored, { maxOutputLength: declared, chunkSize: Math.max(64, declared) });
        }
    }
    catch (error) {
        throw unreadable(name, error);
    }
    checkContent(entry, name, data.length, external_node_zlib_default().crc32(data));
    return data;
}
function checkContent(entry, name, length, crc) {
    const what = `the entry ${JSON.stringify(name)}`;
    if (length !== entry.uncompressedSize) {
        throw (0,errors/* corrupt */.qb)(new Error(`${what} holds ${length} bytes where its record declares ${entry.uncompressedSize}`));
    }
    if (crc !== entry.crc32)
        throw (0,errors/* corrupt */.qb)(new Error(`${what} holds data that does not match its CRC-32`));
}
async function writeEntry(zip, item, path, compressed, signal) {
    const { entry, name } = item;
    const mode = fileMode(entry.versionMadeBy >> 8 === UNIX_HOST ? entry.externalFileAttributes >>> 16 : undefined);
    const modified = entry.getLastModDate();
    if (entry.uncompressedSize <= IN_ONE_PIECE_BYTES && entry.compressedSize <= IN_ONE_PIECE_BYTES) {
        const data = readWhole(zip, item, compressed);
        const fd = (0,external_node_fs_.openSync)(path, 'w', mode);
        try {
            (0,external_node_fs_.writeSync)(fd, data);
            (0,external_node_fs_.futimesSync)(fd, modified, modified);
        }
        finally {
            (0,external_node_fs_.closeSync)(fd);
        }
        return;
    }
    // yauzl's stream fails past the declared size; the CRC-32 is checked as the bytes pass.
    const stream = await zip.zip.openReadStreamPromise(entry).catch((error) => {
        throw unreadable(name, error);
    });
    let crc = 0;
    let length = 0;
    const check = new external_node_stream_.Transform({
        transform(chunk, _encoding, done) {
            crc = external_node_zlib_default().crc32(chunk, crc);
            length += chunk.length;
            done(null, chunk);
        }
    });
    const file = (0,external_node_fs_.createWriteStream)(path, { mode });
    try {
        await (0,external_node_stream_promises_.pipeline)(stream, check, file, { signal });
    }
    catch (error) {
        if (error.name === 'AbortError' || error.syscall !== undefined)
            throw error;
        throw unreadable(name, error);
    }
    checkContent(entry, name, length, crc);
}
/** An entry's name as a path below the staging folder: no empty or `.` segments (the ledger refused `..`). */
function relativePath(name) {
    const plain = name[0] !== SLASH && name.indexOf('//') < 0 && name.indexOf('./') < 0;
    if (plain)
        return name[name.length - 1] === SLASH ? name.subarray(0, -1) : name;
    const segments = [];
    let start = 0;
    for (let i = 0; i <= name.length; i++) {
        if (i < name.length && name[i] !== SLASH)
            continue;
        const segment = name.subarray(start, i);
        if (segment.length > 0 && !(segment.length === 1 && segment[0] === DOT))
            segments.push(segment);
        start = i + 1;
    }
    return Buffer.concat(segments.flatMap((segment, i) => (i === 0 ? [segment] : [SEPARATOR, segment])));
}
function zip_unpacker_parentOf(path) {
    return path.subarray(0, path.lastIndexOf(SLASH));
}
/** One buffer for the compressed bytes of entry after entry, grown as needed: not a buffer of garbage each. */
class ReusedBuffer {
    bytes = Buffer.allocUnsafe(64 * 1024);
    /** `size` bytes of it, valid until the next take(). */
    take(size) {
        if (this.bytes.length < size)
            this.bytes = Buffer.allocUnsafe(Math.max(size, 2 * this.bytes.length));
        return this.bytes.subarray(0, size);
    }
}
/** Makes folders and their parents, each once; a file an earlier entry left where one goes (since replaced) goes. */
class FolderMaker {
    made = new Set();
    /** Entries come folder by folder: most ask for the folder the one before asked for. */
    last;
    make(path) {
        if (this.last?.equals(path))
            return;
        const key = path.toString('latin1');
        if (!this.made.has(key)) {
            try {
                (0,external_node_fs_.mkdirSync)(path, { recursive: true });
            }
            catch (error) {
                if (error.code !== 'EEXIST' || (0,external_node_fs_.lstatSync)(path).isDirectory())
                    throw error;
                (0,external_node_fs_.rmSync)(path);
                (0,external_node_fs_.mkdirSync)(path);
            }
            this.made.add(key);
        }
        this.last = path;
    }
}
/** What yauzl or zlib said of an entry's bytes, naming the entry. */
function unreadable(name, error) {
    return (0,errors/* corrupt */.qb)(new Error(`the entry ${JSON.stringify(name)}: ${(0,common_errors/* errorMessage */.gJ)(error)}`));
}

;// CONCATENATED MODULE: ./src/archive/receiver.ts
/**
 * Takes one download attempt's bytes as they arrive: each chunk goes to the sha256, to the
 * `<archive>.part` file, and (a tar) to GNU tar filling a staging folder; a zip is unpacked from
 * the `.part` file once it is whole. Either way the tree written is checked before it is handed
 * on. Each attempt gets a fresh receiver: fresh hash, fresh `.part`, fresh staging folder.
 */














// The `.part` file takes chunks as they arrive: the default 16 KiB would hold the download up at every chunk.
const receiver_BUFFERED_BYTES = 1024 * 1024;
/** Heads that are no archive at all, whatever follows: an error page from the storage. */
const NEVER_AN_ARCHIVE = /HTML|XML|JSON|nothing at all/;
class ArchiveReceiver {
    options;
    part;
    staging;
    hash = (0,external_node_crypto_.createHash)('sha256');
    bytes = 0;
    /** The first bytes, held until the format is known. */
    head = new HeadSniffer(detectFormat);
    /** Undefined until the head tells, and for a head that only the end can tell (a zip after a program). */
    format;
    unknownHead = '';
    /** GNU tar's unpacking: starting (GNU tar is looked for), then started. */
    tar;
    tarStarted;
    ledger;
    discarded = false;
    constructor(options, part, staging) {
        this.options = options;
        this.part = part;
        this.staging = staging;
        part.on('error', (error) => options.onFatal(writeFailure(error, `the bundle file ${options.partFile}`, this.bytes)));
        this.ledger = new SiteLedger(options.limits, options.log, staging);
    }
    static async open(options) {
        // 'w' truncates: a retry never appends to what a failed attempt left.
        const part = (0,external_node_fs_.createWriteStream)(options.partFile, { flags: 'w', highWaterMark: receiver_BUFFERED_BYTES });
        try {
            await (0,external_node_events_.once)(part, 'open');
        }
        catch (error) {
            part.destroy();
            throw writeFailure(error, `the bundle file ${options.partFile}`);
        }
        return new ArchiveReceiver(options, part, options.into);
    }
    /** One chunk of the body; a returned promise asks the download to wait (backpressure). */
    write(chunk) {
        this.hash.update(chunk);
        this.bytes += chunk.length;
        const fileWait = this.part.write(chunk) ? undefined : (0,external_node_events_.once)(this.part, 'drain');
        const unpackWait = this.unpack(chunk);
        if (fileWait === undefined)
            return unpackWait;
        return Promise.all([fileWait, unpackWait]).then(cancellation/* noop */.lQ);
    }
    /**
     * The body is complete: closes the `.part` file, finishes unpacking and checks what was written.
     * Throws CorruptArchiveError (with the archive's size and sha256) when the bytes cannot be unpacked.
     */
    async complete() {
        if (this.head.pending) {
            const { verdict, head } = this.head.end();
            const wait = this.decideFormat(verdict, head);
            if (wait !== undefined)
                await wait;
        }
        this.part.end();
        await (0,external_node_events_.once)(this.part, 'close');
        const sha256 = this.hash.digest('hex');
        const format = this.format ?? (await this.formatFromTheEnd());
        let files;
        if (this.staging !== undefined) {
            try {
                if (format === 'zip') {
                    await unpackZip({
                        file: this.options.partFile,
                        staging: this.staging,
                        ledger: this.ledger,
                        signal: this.options.signal
                    });
                }
                else
                    await (await this.tar).end();
                files = await checkStagedTree(this.staging, (path) => this.ledger.judgedAt(path), this.options.signal);
            }
            catch (error) {
                if (!(error instanceof errors/* CorruptArchiveError */.sC))
                    throw error;
                throw new errors/* CorruptArchiveError */.sC(`The bundle archive is corrupt (${format}, ${this.bytes} bytes, sha256 ${sha256}): ${error.message}`, { cause: error });
            }
        }
        return {
            sha256,
            sizeBytes: this.bytes,
            format,
            staging: this.staging,
            files,
            counts: this.staging === undefined ? undefined : this.ledger.counts,
            entries: this.ledger.entryCount
        };
    }
    /** Entries of every kind taken from the archive so far. */
    get entries() {
        return this.ledger.entryCount;
    }
    /** Stops everything (GNU tar is gone when this resolves: nothing more is written) and removes the `.part` file. */
    async discard() {
        this.discarded = true;
        await this.tar?.then((tar) => tar.stop()).catch(cancellation/* noop */.lQ);
        this.part.destroy();
        if (!this.part.closed)
            await (0,external_node_events_.once)(this.part, 'close').catch(cancellation/* noop */.lQ);
        await (0,promises_.rm)(this.options.partFile, { force: true });
    }
    unpack(chunk) {
        if (this.head.pending) {
            const judged = this.head.push(chunk);
            if (judged === undefined)
                return undefined;
            return this.decideFormat(judged.verdict, judged.head);
        }
        return this.toTar(chunk);
    }
    /** Sets the format and starts GNU tar for a tar; `head` is every byte held until then. */
    decideFormat(verdict, head) {
        if ('unknown' in verdict) {
            if (NEVER_AN_ARCHIVE.test(verdict.unknown))
                throw this.notAnArchive(verdict.unknown);
            this.unknownHead = verdict.unknown;
            return undefined;
        }
        this.format = verdict.format;
        if (this.staging === undefined || verdict.format === 'zip')
            return undefined;
        const staging = this.staging;
        this.tar = findGnuTar().then((tar) => {
            this.tarStarted = new TarUnpacker({
                tar,
                gzip: verdict.format === 'tar.gz',
                staging,
                listingFile: `${this.options.partFile}.tar-listing`,
                ledger: this.ledger,
                maxTarBytes: archiveBound(this.options.limits),
                onFatal: this.options.onFatal
            });
            return this.tarStarted;
        });
        return this.toTar(head);
    }
    toTar(chunk) {
        if (this.tarStarted !== undefined)
            return this.tarStarted.write(chunk);
        return this.tar?.then((tar) => (this.discarded ? undefined : tar.write(chunk)));
    }
    /** A head no format claims may still be a zip with a program before it: its end record tells. */
    async formatFromTheEnd() {
        const file = await (0,promises_.open)(this.options.partFile, 'r');
        try {
            const tail = Buffer.alloc(Math.min(this.bytes, ZIP_TAIL_BYTES));
            await file.read(tail, 0, tail.length, this.bytes - tail.length);
            if (findEndRecord(tail, this.bytes) !== undefined)
                return (this.format = 'zip');
        }
        finally {
            await file.close();
        }
        throw this.notAnArchive(this.unknownHead);
    }
    notAnArchive(what) {
        return new errors/* NotAnArchiveError */.DD(`The downloaded bundle is not a zip, tar.gz or tar archive: its first bytes look like ${what}`);
    }
}

// EXTERNAL MODULE: ./src/site/staging.ts
var site_staging = __webpack_require__(6814);
// EXTERNAL MODULE: ./src/service/failure.ts
var failure = __webpack_require__(8817);
// EXTERNAL MODULE: ./src/service/retry.ts
var retry = __webpack_require__(5585);
// EXTERNAL MODULE: ./node_modules/@actions/http-client/lib/index.js
var lib = __webpack_require__(2779);
// EXTERNAL MODULE: ./node_modules/@actions/http-client/lib/proxy.js
var proxy = __webpack_require__(9783);
// EXTERNAL MODULE: ./src/common/deadline.ts
var deadline = __webpack_require__(673);
// EXTERNAL MODULE: ./src/common/text.ts
var common_text = __webpack_require__(2450);
// EXTERNAL MODULE: ./src/service/exchange.ts + 1 modules
var exchange = __webpack_require__(4944);
// EXTERNAL MODULE: ./src/transfer/link.ts + 1 modules
var transfer_link = __webpack_require__(4627);
;// CONCATENATED MODULE: ./src/transfer/download.ts










const MAX_REDIRECTS = 5;
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
/** Enough of an error body to read the storage's error code. */
const ERROR_BODY_BYTES = 4096;
/** Resolves once the whole body has gone to `onChunk`. */
async function download(options) {
    const bound = (0,deadline/* budget */.g)(options.clock, options.deadline, Number.MAX_SAFE_INTEGER);
    const clients = new StorageClients();
    try {
        return await (0,cancellation/* withTimeout */.wj)(options.clock, bound.ms, undefined, (outOfTime) => attempt(options, clients, outOfTime));
    }
    finally {
        clients.dispose();
    }
}
/**
 * The HttpClients of one download, one per protocol, used only for their agents (which honour
 * HTTPS_PROXY/NO_PROXY): http-client keeps the agent of a client's first request for all later
 * ones, so a redirect from http to https (or back) needs a client of its own. No handler of theirs
 * ever runs: a presigned link must go out without an Authorization header (storage refuses both).
 */
class StorageClients {
    byProtocol = new Map();
    for(url) {
        let client = this.byProtocol.get(url.protocol);
        if (client === undefined)
            this.byProtocol.set(url.protocol, (client = new lib/* HttpClient */.Qq(exchange/* USER_AGENT */._O)));
        return client;
    }
    dispose() {
        for (const client of this.byProtocol.values())
            client.dispose();
    }
}
async function attempt(options, clients, outOfTime) {
    const stall = new StallWatch(options.clock, options.stallTimeoutMs);
    // A failure of the consumer stops the download with that failure as the reason: it passes
    // through as it is, never judged as a network failure.
    const consumer = new AbortController();
    const signal = AbortSignal.any([options.signal, stall.signal, consumer.signal, outOfTime]);
    let bytes = 0;
    try {
        const response = await get(options.url, options, clients, signal);
        const contentLength = parseContentLength(response.headers['content-length']);
        const expected = options.expectedSize;
        if (expected !== undefined && contentLength !== undefined && contentLength !== expected) {
            response.destroy();
            if (contentLength > expected)
                throw sizeMismatch(contentLength, expected);
            throw truncated(contentLength, expected, 'the response announced only');
        }
        const bound = options.sizeBound;
        if (bound !== undefined && contentLength !== undefined && contentLength > bound.maxBytes) {
            response.destroy();
            throw bound.exceeded(`the storage announced ${(0,units/* formatBytes */.z3)(contentLength)}`);
        }
        options.onResponse?.({ contentLength });
        bytes = await streamBody(response, { ...options, signal }, stall, (error) => consumer.abort(error), (count) => (bytes = count));
        const whole = contentLength ?? expected;
        if (whole !== undefined && bytes < whole)
            throw truncated(bytes, whole, 'the body ended after');
    }
    catch (error) {
        if (options.signal.aborted)
            throw options.signal.reason;
        if (consumer.signal.aborted)
            throw consumer.signal.reason;
        if (outOfTime.aborted)
            throw new retry/* AttemptError */.cb({
                kind: 'network',
                code: 'ETIMEDOUT',
                message: `\`timeout\` ran out after ${bytes} bytes of the download`
            });
        if (stall.fired)
            throw new retry/* AttemptError */.cb({
                kind: 'network',
                code: 'ESTALLED',
                message: `no data arrived for ${(0,units/* formatDuration */.a3)(options.stallTimeoutMs)}`
            });
        if (error instanceof transfer_link/* RefusedAddressError */.bT)
            throw new common_errors/* ActionError */.lZ(`${error.message}.`);
        if (error instanceof retry/* AttemptError */.cb || error instanceof common_errors/* ActionError */.lZ)
            throw error;
        // Read as properties: node's own errors may come from another realm (a vm context), not instanceof Error here.
        const { code, message } = (error ?? {});
        throw new retry/* AttemptError */.cb({
            kind: 'network',
            code,
            message: withoutQuery(message ?? (0,common_errors/* errorMessage */.gJ)(error), options.url)
        });
    }
    finally {
        stall.stop();
    }
}
/** GET the link, following a few redirects, each hop judged by the policy; resolves on 200. */
async function get(url, options, clients, signal) {
    let target = new URL(url);
    for (let redirects = 0;; redirects++) {
        const proxied = (0,proxy/* getProxyUrl */.s)(target) !== undefined;
        const refused = await refuseHop(target, proxied, options.policy, signal);
        if (refused !== undefined)
            throw new common_errors/* ActionError */.lZ(`${refused}.`);
        // A direct connection checks where the name leads as it connects; through a proxy, refuseHop did.
        const lookup = proxied ? undefined : (0,transfer_link/* guardedLookup */.rN)(options.policy, (0,transfer_link/* describeLink */.Ex)(target.href));
        const message = await (0,exchange/* send */.tN)(clients.for(target), {
            url: target,
            method: 'GET',
            headers: { accept: '*/*', 'accept-encoding': 'identity' },
            signal,
            lookup
        });
        const status = message.statusCode ?? 0;
        if (status === 200)
            return message;
        const location = message.headers.location;
        if (REDIRECT_STATUSES.has(status) && location !== undefined && redirects < MAX_REDIRECTS) {
            // Its body is not wanted, and may never end: reading it to its end would hold the
            // connection (through a proxy, one no dispose() closes) and keep the process alive.
            message.destroy();
            target = new URL(location, target);
            options.maskLinkSecrets?.(target.href);
            continue;
        }
        throw new retry/* AttemptError */.cb({ kind: 'status', status, retryAfter: (0,exchange/* header */.wx)(message.headers['retry-after']) }, `HTTP ${status}`, await storageErrorDetail(message, signal));
    }
}
/** Why a hop may not be fetched: its address, and through a proxy where its name leads as this machine resolves it. */
async function refuseHop(target, proxied, policy, signal) {
    const refused = (0,transfer_link/* refuseLink */.VQ)(target, policy);
    if (refused !== undefined || !proxied)
        return refused;
    // A lookup cannot be stopped, only no longer waited for.
    return (0,cancellation/* untilCancelled */.c8)((0,transfer_link/* refuseNameForProxy */.Lw)(target, policy), signal);
}
/**
 * Feeds the body to `onChunk` through the one body reader (readChunks), which pauses the socket
 * while the consumer is busy; resolves with the byte count. A stop (cancellation, stall, the
 * consumer's failure) destroys the body at once; download() then rejects with the stop's reason.
 */
async function streamBody(response, options, stall, consumerFailed, progress) {
    let bytes = 0;
    const failed = (error) => {
        consumerFailed(error);
        throw error;
    };
    try {
        return await (0,exchange/* readChunks */.zO)(response, options.signal, (chunk) => {
            stall.touch();
            bytes += chunk.length;
            progress(bytes);
            if (options.expectedSize !== undefined && bytes > options.expectedSize) {
                throw sizeMismatch(bytes, options.expectedSize, 'at least ');
            }
            const bound = options.sizeBound;
            if (bound !== undefined && bytes > bound.maxBytes) {
                throw bound.exceeded(`more than ${(0,units/* formatBytes */.z3)(bound.maxBytes)} arrived`);
            }
            let wait;
            try {
                wait = options.onChunk(chunk);
            }
            catch (error) {
                return failed(error);
            }
            if (wait === undefined)
                return undefined;
            // Our side is busy (disk, unpacking): that is no stall of the server's.
            stall.pause();
            return wait.then(() => stall.touch(), failed);
        });
    }
    catch (error) {
        if (!(error instanceof exchange/* BodyError */.Ru))
            throw error;
        throw new retry/* AttemptError */.cb({ kind: 'network', code: error.code, message: `the connection closed after ${bytes} bytes` });
    }
}
/**
 * Fires when no byte arrived for `timeoutMs`, counting only while we wait for the server (not
 * while our own side applies backpressure). Chunks only note the time; one sleep on the clock at
 * a time checks it.
 */
class StallWatch {
    clock;
    timeoutMs;
    controller = new AbortController();
    stopped = new AbortController();
    lastActivity;
    paused = false;
    fired = false;
    constructor(clock, timeoutMs) {
        this.clock = clock;
        this.timeoutMs = timeoutMs;
        this.lastActivity = clock.now();
        void this.watch();
    }
    get signal() {
        return this.controller.signal;
    }
    touch() {
        this.paused = false;
        this.lastActivity = this.clock.now();
    }
    pause() {
        this.paused = true;
    }
    stop() {
        this.stopped.abort();
    }
    async watch() {
        try {
            for (;;) {
                const idle = this.clock.now() - this.lastActivity;
                if (!this.paused && idle >= this.timeoutMs) {
                    this.fired = true;
                    this.controller.abort(new Error('stalled'));
                    return;
                }
                await this.clock.sleep(this.paused ? this.timeoutMs : this.timeoutMs - idle, this.stopped.signal);
            }
        }
        catch {
            // Stopped: the download is over.
        }
    }
}
/** Some errors quote the request path (http-client's "Request timeout: <path>"): never the signed query. */
function withoutQuery(message, url) {
    const { search } = new URL(url);
    return search === '' ? message : message.split(search).join('');
}
function parseContentLength(value) {
    if (value === undefined || !/^\d+$/.test(value.trim()))
        return undefined;
    return Number(value);
}
function truncated(bytes, whole, what) {
    return new retry/* AttemptError */.cb({ kind: 'network', code: 'ETRUNCATED', message: `${what} ${bytes} of ${whole} bytes` });
}
function sizeMismatch(bytes, expected, prefix = '') {
    return new common_errors/* ActionError */.lZ(`The bundle download is ${prefix}${bytes} bytes, but the bundle operation said the archive has ${expected} ` +
        `bytes: the link serves a different file`);
}
/**
 * The storage's error code and message (S3-style XML), for the final error text. Only those two
 * elements: other ones (StringToSign, SignatureProvided) would echo the link's credentials.
 */
async function storageErrorDetail(response, signal) {
    let body;
    try {
        body = (await (0,exchange/* readBody */.x8)(response, { maxBytes: ERROR_BODY_BYTES, larger: 'cut', signal })).toString('utf8');
    }
    catch {
        return undefined;
    }
    const code = /<Code>([^<]{1,100})<\/Code>/.exec(body)?.[1];
    const message = /<Message>([^<]{1,300})<\/Message>/.exec(body)?.[1];
    if (code === undefined && message === undefined)
        return undefined;
    return (0,common_text/* serviceText */.Lo)([code, message].filter(Boolean).join(': '));
}

;// CONCATENATED MODULE: ./src/transfer/progress.ts

/** A line at most this often. */
const REPORT_INTERVAL_MS = 5000;
/** Held-back time below this is not worth a mention in the summary. */
const HELD_BACK_MENTION_MS = 100;
class DownloadProgress {
    log;
    clock;
    total;
    startedAt;
    lastReportAt;
    bytes = 0;
    /** Time spent waiting for the receiver to take more. */
    heldBackMs = 0;
    endedAt;
    constructor(log, clock, total) {
        this.log = log;
        this.clock = clock;
        this.total = total;
        this.startedAt = clock.now();
        this.lastReportAt = this.startedAt;
    }
    /** The size the response announced, unless the service said it already. */
    setTotal(total) {
        this.total ??= total;
    }
    /**
     * Counts a chunk. `wait` is the receiver asking the download to pause (backpressure): it is
     * returned, timed, for the download to wait on.
     */
    add(bytes, wait) {
        this.bytes += bytes;
        const now = this.clock.now();
        if (now - this.lastReportAt >= REPORT_INTERVAL_MS) {
            this.lastReportAt = now;
            const percent = this.total ? ` (${Math.floor((this.bytes / this.total) * 100)}%)` : '';
            const of = this.total !== undefined ? ` of ${(0,units/* formatBytes */.z3)(this.total)}` : '';
            this.log.progress(`Downloaded ${(0,units/* formatBytes */.z3)(this.bytes)}${of}${percent} at ${this.rate(now)}`);
        }
        if (wait === undefined)
            return undefined;
        return wait.finally(() => (this.heldBackMs += this.clock.now() - now));
    }
    /** The last byte is in: the summary's times end here, whatever comes after. */
    end() {
        this.endedAt ??= this.clock.now();
    }
    /** "12.0 MiB in 3.1 s (3.9 MiB/s)", with "; waited 1.2 s more for writing and unpacking" when held back. */
    summary() {
        const end = this.endedAt ?? this.clock.now();
        const own = this.downloadMs(end);
        const held = this.heldBackMs >= HELD_BACK_MENTION_MS
            ? `; waited ${(0,units/* formatSeconds */.Xo)(this.heldBackMs)} more for writing and unpacking`
            : '';
        return `${(0,units/* formatBytes */.z3)(this.bytes)} in ${(0,units/* formatSeconds */.Xo)(own)} (${this.rate(end)}${held})`;
    }
    /** Time the download was running and not held back. */
    downloadMs(now) {
        return Math.max(0, now - this.startedAt - this.heldBackMs);
    }
    rate(now) {
        const seconds = this.downloadMs(now) / 1000;
        return seconds > 0 ? `${(0,units/* formatBytes */.z3)(this.bytes / seconds)}/s` : 'n/a';
    }
}

;// CONCATENATED MODULE: ./src/transfer/transfer.ts
/**
 * Downloads a bundle and, when asked, unpacks it into the site folder, all or nothing. Retries go
 * through the one retry loop, with a fresh link when the old one is refused or has expired. The
 * transfer owns both staging folders: the archive's (its `.part` file, named by its format once the
 * bytes tell) and the site's. Each is swapped in whole, replacing whatever an earlier run left.
 *
 * In call order: transferBundle (or unpackLocalBundle) -> withArchiveStaging -> downloadInto ->
 * attempt -> receive -> finish.
 */
















const TRANSFER_RETRY = { initialMs: 1000, maxMs: 15_000, maxAttempts: 4 };
/** No byte for this long = stalled: the attempt is abandoned and retried. */
const STALL_TIMEOUT_MS = 30_000;
/** The archive's name without its extension. */
const ARCHIVE_NAME = 'bundle';
const EXTENSIONS = { zip: 'zip', 'tar.gz': 'tar.gz', tar: 'tar' };
/** Reads of an archive on disk. */
const LOCAL_CHUNK_BYTES = 1024 * 1024;
function transferBundle(options) {
    return withArchiveStaging(options, (archiveStaging) => downloadInto(archiveStaging, options));
}
/**
 * Unpacks an archive already on disk (a bundle kept in the tool cache) as a download would be:
 * the same receiver, checks, staging and swap, and the same archive file in `archiveFolder`.
 * A CorruptArchiveError says the copy is bad (the caller downloads instead).
 */
function unpackLocalBundle(file, options) {
    return withArchiveStaging(options, async (archiveStaging) => {
        const received = await receive(options, archiveStaging, async (receiver, stop) => {
            for await (const chunk of (0,external_node_fs_.createReadStream)(file, { highWaterMark: LOCAL_CHUNK_BYTES, signal: stop })) {
                await receiver.write(chunk);
            }
        });
        options.log.info(`Read the bundle from ${file}: ${(0,units/* formatBytes */.z3)(received.sizeBytes)}, sha256 ${received.sha256}`);
        return await finish(options, archiveStaging, received);
    });
}
/**
 * Sweeps what an earlier run left beside the archive's folder and the site, then runs `body` with
 * a fresh staging folder for the archive, which finish() swaps in; whatever else happens, it is
 * removed after.
 */
async function withArchiveStaging(options, body) {
    (0,common_errors/* throwIfCancelled */.dZ)(options.signal);
    await (0,site_staging/* sweepStaleFolders */.xA)(options.archiveFolder, options.log, options.signal);
    if (options.siteDir !== undefined)
        await (0,site_staging/* sweepStaleFolders */.xA)(options.siteDir, options.log, options.signal);
    const archiveStaging = await (0,site_staging/* createStagingFolder */.cC)(options.archiveFolder).catch((error) => {
        throw writeFailure(error, `the folder ${options.archiveFolder} for the bundle`);
    });
    try {
        return await body(archiveStaging);
    }
    finally {
        // Gone already when swapped in.
        await (0,site_staging/* removeQuietly */.S2)(archiveStaging);
    }
}
/** The download attempts, each writing the archive into `archiveStaging`; then the swap of what the last received. */
async function downloadInto(archiveStaging, options) {
    const { log, clock, signal } = options;
    const state = { link: options.link, linkRefused: false, attempts: 0, archiveStaging };
    const size = state.link.sizeBytes === undefined ? '' : ` (${(0,units/* formatBytes */.z3)(state.link.sizeBytes)})`;
    log.info(`Downloading the bundle from ${(0,transfer_link/* describeLink */.Ex)(state.link.url)}${size}`);
    let received;
    try {
        received = await (0,retry/* withRetries */.LH)(() => transfer_attempt(options, state), {
            kind: 'idempotent',
            policy: TRANSFER_RETRY,
            clock,
            signal,
            deadline: options.deadline,
            // A refused link (403) is worth another try: the next attempt asks for a fresh one.
            alsoRetry: isLinkRefused,
            onRetry: ({ retry, delayMs, error }) => log.warning(`Bundle download attempt ${retry} failed (${describeAttemptError(error)}); trying again` +
                (delayMs > 0 ? ` in ${(0,units/* formatSeconds */.Xo)(delayMs)}` : ''))
        });
    }
    catch (error) {
        throw finalError(error, state);
    }
    return { ...(await finish(options, archiveStaging, received)), link: state.link, attempts: state.attempts };
}
/** One attempt: a fresh `.part`, hash and staging folder (see receive); a refused link is asked anew next time. */
async function transfer_attempt(options, state) {
    const { log, clock, signal } = options;
    state.attempts++;
    (0,common_errors/* throwIfCancelled */.dZ)(signal);
    if (state.linkRefused || (0,transfer_link/* isExpired */._d)(state.link, clock.now())) {
        log.info(state.linkRefused
            ? 'The bundle link was refused (HTTP 403); asking for a fresh one'
            : 'The bundle link has expired; asking for a fresh one');
        state.link = await freshLink(options);
        state.linkRefused = false;
    }
    const bound = archiveBound(options.limits);
    if (state.link.sizeBytes !== undefined && state.link.sizeBytes > bound) {
        throw archiveTooLarge(options.limits, `the bundle operation says it has ${(0,units/* formatBytes */.z3)(state.link.sizeBytes)}`);
    }
    const progress = new DownloadProgress(log, clock, state.link.sizeBytes);
    try {
        const received = await receive(options, state.archiveStaging, async (receiver, stop) => {
            await download({
                url: state.link.url,
                clock,
                signal: stop,
                stallTimeoutMs: STALL_TIMEOUT_MS,
                expectedSize: state.link.sizeBytes,
                sizeBound: { maxBytes: bound, exceeded: (detail) => archiveTooLarge(options.limits, detail) },
                policy: options.policy,
                maskLinkSecrets: options.maskLinkSecrets,
                deadline: options.deadline,
                onResponse: ({ contentLength }) => progress.setTotal(contentLength),
                onChunk: (chunk) => progress.add(chunk.length, receiver.write(chunk))
            });
            progress.end();
        });
        log.info(`Downloaded ${progress.summary()}, sha256 ${received.sha256}`);
        return received;
    }
    catch (error) {
        if (error instanceof retry/* AttemptError */.cb && isLinkRefused(error.failure)) {
            state.linkRefused = true;
            // Retry-After 0: no backoff is needed before asking for a fresh link.
            throw new retry/* AttemptError */.cb({ kind: 'status', status: 403, retryAfter: '0' }, error.message, error.detail);
        }
        throw error;
    }
}
/**
 * One archive received whole, from the network or from disk: a fresh `.part`, hash and site
 * staging folder, filled by `fill` and completed. It stops on the user's cancellation or on a failure the
 * receiver reports (an unsafe entry, a full disk), and then the reason it stopped for is what it
 * throws, whatever way the stop surfaced; everything it wrote is removed first.
 */
async function receive(options, archiveStaging, fill) {
    const { signal } = options;
    (0,common_errors/* throwIfCancelled */.dZ)(signal);
    const stop = new AbortController();
    const onCancel = () => stop.abort(new common_errors/* CancelledError */.cc());
    signal?.addEventListener('abort', onCancel, { once: true });
    let receiver;
    let siteStaging;
    try {
        if (options.siteDir !== undefined) {
            siteStaging = await (0,site_staging/* createStagingFolder */.cC)(options.siteDir).catch((error) => {
                throw writeFailure(error, `a staging folder beside ${options.siteDir}`);
            });
        }
        receiver = await ArchiveReceiver.open({
            partFile: partFileIn(archiveStaging),
            into: siteStaging,
            log: options.log,
            onFatal: (error) => stop.abort(error),
            signal: stop.signal,
            limits: options.limits
        });
        await fill(receiver, stop.signal);
        const received = await receiver.complete();
        (0,common_errors/* throwIfCancelled */.dZ)(signal);
        return received;
    }
    catch (error) {
        const cause = stop.signal.aborted ? stop.signal.reason : error;
        if (!stop.signal.aborted)
            stop.abort(cause);
        // The receiver first: it stops GNU tar, which could otherwise write into the folder removed.
        await receiver?.discard();
        if (siteStaging !== undefined) {
            const how = { cancelled: signal?.aborted === true, entries: receiver?.entries ?? 0 };
            await (0,site_staging/* discardFolder */.r7)(siteStaging, options.siteDir, how);
        }
        throw cause;
    }
    finally {
        signal?.removeEventListener('abort', onCancel);
    }
}
/**
 * Names the whole archive by its format and swaps its folder in, then has the staged site reviewed
 * and swaps it in.
 */
async function finish(options, archiveStaging, received) {
    const { log, siteDir, archiveFolder } = options;
    const { staging, counts, files } = received;
    const archiveName = `${ARCHIVE_NAME}.${EXTENSIONS[received.format]}`;
    const archiveFile = (0,external_node_path_.join)(archiveFolder, archiveName);
    const kept = {
        archiveFile,
        sha256: received.sha256,
        sizeBytes: received.sizeBytes,
        format: received.format
    };
    try {
        (0,common_errors/* throwIfCancelled */.dZ)(options.signal);
        await (0,promises_.rename)(partFileIn(archiveStaging), (0,external_node_path_.join)(archiveStaging, archiveName));
        await (0,site_staging/* swapIntoPlace */.Xu)(archiveStaging, archiveFolder, { entries: 1, signal: options.signal });
        options.onArchive?.(kept);
        if (siteDir !== undefined && staging !== undefined && files !== undefined) {
            await options.review?.(staging, files);
            await (0,site_staging/* swapIntoPlace */.Xu)(staging, siteDir, { entries: received.entries, signal: options.signal });
        }
    }
    catch (error) {
        const how = { cancelled: options.signal?.aborted === true, entries: received.entries };
        // The archive's staging folder is its caller's to remove (see withArchiveStaging).
        if (staging !== undefined && siteDir !== undefined)
            await (0,site_staging/* discardFolder */.r7)(staging, siteDir, how);
        throw writeFailure(error, siteDir === undefined ? `the bundle file ${archiveFile}` : `the site into ${siteDir}`);
    }
    if (siteDir !== undefined && counts !== undefined) {
        const parts = [
            (0,units/* counted */.hS)(counts.files, 'file'),
            (0,units/* counted */.hS)(counts.directories, 'folder'),
            counts.symlinks ? (0,units/* counted */.hS)(counts.symlinks, 'symlink') : '',
            counts.hardlinks ? (0,units/* counted */.hS)(counts.hardlinks, 'hardlink') : '',
            counts.skipped ? `${(0,units/* counted */.hS)(counts.skipped, 'entry', 'entries')} skipped` : ''
        ];
        log.info(`Unpacked the ${received.format} bundle into ${siteDir}: ${parts.filter(Boolean).join(', ')}`);
    }
    return { ...kept, siteDir };
}
/** The archive is larger than archiveBound allows (`detail`: how it showed). Final: a link serves the same bytes. */
function archiveTooLarge(limits, detail) {
    return new SiteLimitError(`The bundle archive is larger than ${(0,units/* formatBytes */.z3)(archiveBound(limits))} (${detail}), the most ` +
        `\`max-site-size\` (${(0,units/* formatBytes */.z3)(limits.maxBytes)}) allows: twice the site, 1 KiB for each of the ` +
        `${(limits.maxEntries ?? MAX_SITE_ENTRIES).toLocaleString('en-US')} entries it may hold, and ` +
        `${(0,units/* formatBytes */.z3)(ARCHIVE_OVERHEAD)} for an archive's headers and padding. ` +
        'Nothing of it was kept, and `path` was left as it was; raise `max-site-size` if the site really is this large.');
}
async function freshLink(options) {
    try {
        const link = await options.refreshLink();
        (0,common_errors/* throwIfCancelled */.dZ)(options.signal);
        return link;
    }
    catch (error) {
        if (error instanceof common_errors/* CancelledError */.cc || error instanceof common_errors/* ActionError */.lZ)
            throw error;
        // Not an AttemptError any more: the bundle operation has had its own retries.
        throw new common_errors/* ActionError */.lZ(`Could not get a fresh bundle link: ${(0,common_errors/* errorMessage */.gJ)(error)}`, { cause: error });
    }
}
function isLinkRefused(failure) {
    return failure.kind === 'status' && failure.status === 403;
}
function describeAttemptError(error) {
    return error.detail ? `${(0,failure/* describeFailure */.Ic)(error.failure)}: ${error.detail}` : error.message;
}
/** The error the step fails with, written for the user. */
function finalError(error, state) {
    const where = (0,transfer_link/* describeLink */.Ex)(state.link.url);
    if (!(error instanceof retry/* AttemptError */.cb))
        return error;
    const tries = `${state.attempts} attempt${state.attempts === 1 ? '' : 's'}`;
    const why = describeAttemptError(error);
    const hint = isLinkRefused(error.failure) ? ' The storage refused the link even after a fresh one was requested.' : '';
    const stopped = error.stoppedByDeadline ? ' Stopped retrying: the next wait would pass the step timeout.' : '';
    return new common_errors/* ActionError */.lZ(`Could not download the bundle from ${where} (${tries}): ${why}.${hint}${stopped}`, {
        cause: error
    });
}
function partFileIn(archiveStaging) {
    return (0,external_node_path_.join)(archiveStaging, `${ARCHIVE_NAME}.part`);
}


/***/ })

};
