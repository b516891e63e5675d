export const id = 746;
export const ids = [746];
export const modules = {

/***/ 2746:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {


// EXPORTS
__webpack_require__.d(__webpack_exports__, {
  transferBundle: () => (/* binding */ transferBundle),
  unpackLocalBundle: () => (/* binding */ unpackLocalBundle)
});

// UNUSED EXPORTS: STALL_TIMEOUT_MS, TRANSFER_RETRY

// EXTERNAL MODULE: external "node:fs"
var external_node_fs_ = __webpack_require__(3024);
var external_node_fs_default = /*#__PURE__*/__webpack_require__.n(external_node_fs_);
// EXTERNAL MODULE: external "node:fs/promises"
var promises_ = __webpack_require__(1455);
// EXTERNAL MODULE: external "node:path"
var external_node_path_ = __webpack_require__(6760);
// EXTERNAL MODULE: ./node_modules/@actions/http-client/lib/index.js
var lib = __webpack_require__(2779);
// EXTERNAL MODULE: external "node:crypto"
var external_node_crypto_ = __webpack_require__(7598);
// EXTERNAL MODULE: external "node:events"
var external_node_events_ = __webpack_require__(8474);
// EXTERNAL MODULE: ./src/common/errors.ts
var errors = __webpack_require__(1922);
// EXTERNAL MODULE: ./src/archive/errors.ts
var archive_errors = __webpack_require__(511);
;// CONCATENATED MODULE: ./src/archive/format.ts
/**
 * Which kind of archive a body is, judged from its first bytes (never from the URL or the
 * Content-Type, which storage often gets wrong).
 */
/** Bytes needed to tell a plain tar: the `ustar` magic sits at offset 257. */
const FORMAT_SNIFF_BYTES = 262;
function detectFormat(head, complete) {
    if (startsWith(head, [0x50, 0x4b, 0x03, 0x04]) || startsWith(head, [0x50, 0x4b, 0x05, 0x06]))
        return { format: 'zip' };
    if (startsWith(head, [0x1f, 0x8b]))
        return { format: 'tar.gz' };
    if (isTarHeader(head))
        return { format: 'tar' };
    if (head.length < FORMAT_SNIFF_BYTES && !complete)
        return undefined;
    return { unknown: describeBytes(head) };
}
/** True when a tar header block starts at `head` (POSIX `ustar\0` or GNU `ustar `). */
function isTarHeader(head) {
    return head.length >= FORMAT_SNIFF_BYTES && Buffer.from(head.buffer, head.byteOffset + 257, 5).toString('latin1') === 'ustar';
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

// EXTERNAL MODULE: external "node:stream/promises"
var external_node_stream_promises_ = __webpack_require__(6466);
// EXTERNAL MODULE: ./src/common/file-names.ts
var file_names = __webpack_require__(7750);
// EXTERNAL MODULE: ./src/common/units.ts
var units = __webpack_require__(8570);
;// CONCATENATED MODULE: ./src/archive/entry-safety.ts
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
/** NAME_MAX of Linux, macOS and Windows file systems: longer names cannot be created anywhere. */
const MAX_SEGMENT_BYTES = 255;
/** PATH_MAX of Linux: a longer entry path cannot be created below any folder. */
const MAX_PATH_BYTES = 4096;
/** A symlink's target is a path: no longer than PATH_MAX. Zip stores it as content, read only up to this. */
const MAX_LINK_TARGET_BYTES = 4096;
/**
 * Segments Windows reads as `.` or `..` (it drops trailing dots and spaces: `.. ` is `..`), or
 * as nothing at all. `.` and `..` themselves are handled before this is asked.
 */
const DOTS_AND_SPACES = /^[. ]+$/;
/**
 * The entry's path inside the root, or an UnsafeEntryError for an absolute name, a `..` segment
 * (also as Windows reads one), a NUL byte, a name too long to create, or a `.git` folder (git
 * would take it for a repository's control folder, hooks and all, if a later step ran git in
 * the site). `./a//b/` becomes `a/b`; `./` becomes '' (the root itself).
 */
function entryPath(name) {
    checkText(name, name, 'name');
    if (ABSOLUTE.test(name))
        throw new archive_errors/* UnsafeEntryError */.vF(name, 'has an absolute path');
    const segments = [];
    for (const segment of name.split(SEPARATORS)) {
        if (segment === '' || segment === '.')
            continue;
        if (segment === '..')
            throw new archive_errors/* UnsafeEntryError */.vF(name, 'has a ".." path segment');
        if (DOTS_AND_SPACES.test(segment))
            throw new archive_errors/* UnsafeEntryError */.vF(name, `has the path segment ${JSON.stringify(segment)}, which Windows reads as "." or ".."`);
        if ((0,file_names/* isGitFolderName */.a)(segment))
            throw new archive_errors/* UnsafeEntryError */.vF(name, 'has a ".git" path segment: a repository\'s control folder is never unpacked');
        if (Buffer.byteLength(segment) > MAX_SEGMENT_BYTES)
            throw new archive_errors/* UnsafeEntryError */.vF(name, `has a name longer than ${MAX_SEGMENT_BYTES} bytes, more than file systems allow`);
        segments.push(segment);
    }
    const path = segments.join('/');
    if (Buffer.byteLength(path) > MAX_PATH_BYTES)
        throw new archive_errors/* UnsafeEntryError */.vF(name, `has a path longer than ${MAX_PATH_BYTES} bytes, more than file systems allow`);
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
        throw new archive_errors/* UnsafeEntryError */.vF(entryName, `has a NUL byte in its ${what}`);
}
function parentOf(path) {
    const slash = path.lastIndexOf('/');
    return slash < 0 ? '' : path.slice(0, slash);
}
const DIR = { kind: 'dir' };
/**
 * What the archive has put where so far, in archive order. Each `add*` checks one entry against
 * the entries before it and returns the entry path to write; `symlinksToCreate()` checks every
 * symlink against the final tree. The writer creates symlinks only after that, so nothing is ever
 * written through a link.
 *
 * Rules: no entry under a symlink; a hardlink only to a regular file seen earlier; a file and a
 * directory may not share a path; otherwise the later entry at a path wins. "A path" is a folded
 * one (see foldPath): `A` and `a` are one path, as a case-insensitive file system sees them.
 */
class EntryIndex {
    /** Folded path -> what is there. */
    nodes = new Map([['', DIR]]);
    /** Folded paths of the symlinks still standing (a later file at the same path replaces one). */
    symlinks = new Set();
    /** Returns the directory's path, '' for the root. */
    addDirectory(name) {
        const path = entryPath(name);
        const key = (0,file_names/* foldPath */.t)(path);
        const existing = this.nodes.get(key);
        if (existing?.kind === 'dir')
            return path;
        this.claimParents(path, name);
        if (existing?.kind === 'file')
            throw new archive_errors/* UnsafeEntryError */.vF(name, 'is a directory where an earlier entry is a file');
        // An earlier symlink here is replaced: it exists only in this index until the very end.
        this.symlinks.delete(key);
        this.nodes.set(key, DIR);
        return path;
    }
    addFile(name) {
        const path = this.claimLeaf(name);
        this.nodes.set((0,file_names/* foldPath */.t)(path), { kind: 'file', path });
        return path;
    }
    /**
     * `target` is another entry's name (tar hardlinks name their target from the archive root);
     * `targetPath` is that entry's path as the archive spelled it.
     */
    addHardlink(name, target) {
        checkText(name, target, 'link target');
        if (ABSOLUTE.test(target))
            throw new archive_errors/* UnsafeEntryError */.vF(name, `is a hardlink to the absolute path ${JSON.stringify(target)}`);
        let targetKey;
        try {
            targetKey = (0,file_names/* foldPath */.t)(entryPath(target));
        }
        catch {
            throw new archive_errors/* UnsafeEntryError */.vF(name, `is a hardlink to ${JSON.stringify(target)}, outside the site folder`);
        }
        const targetNode = this.nodes.get(targetKey);
        if (targetNode?.kind !== 'file') {
            throw new archive_errors/* UnsafeEntryError */.vF(name, `is a hardlink to ${JSON.stringify(target)}, which is not a regular file extracted before it`);
        }
        const path = this.claimLeaf(name);
        if ((0,file_names/* foldPath */.t)(path) === targetKey)
            throw new archive_errors/* UnsafeEntryError */.vF(name, 'is a hardlink to itself');
        this.nodes.set((0,file_names/* foldPath */.t)(path), { kind: 'file', path });
        return { path, targetPath: targetNode.path };
    }
    addSymlink(name, target) {
        checkText(name, target, 'link target');
        if (target === '')
            throw new archive_errors/* UnsafeEntryError */.vF(name, 'is a symlink with an empty target');
        if (Buffer.byteLength(target) > MAX_LINK_TARGET_BYTES)
            throw new archive_errors/* UnsafeEntryError */.vF(name, `is a symlink whose target is longer than ${MAX_LINK_TARGET_BYTES} bytes`);
        if (ABSOLUTE.test(target))
            throw new archive_errors/* UnsafeEntryError */.vF(name, `is a symlink to the absolute path ${JSON.stringify(target)}`);
        for (const segment of target.split(SEPARATORS)) {
            if (segment !== '.' && segment !== '..' && DOTS_AND_SPACES.test(segment)) {
                throw new archive_errors/* UnsafeEntryError */.vF(name, `is a symlink to ${JSON.stringify(target)}, which has a segment Windows reads as "." or ".."`);
            }
            if (Buffer.byteLength(segment) > MAX_SEGMENT_BYTES)
                throw new archive_errors/* UnsafeEntryError */.vF(name, `is a symlink to a name longer than ${MAX_SEGMENT_BYTES} bytes, which no file system has`);
        }
        const path = this.claimLeaf(name);
        // Fail fast on the plain case; chains through other links are checked once all are known.
        if (resolveLexically(parentOf(path), target) === undefined) {
            throw new archive_errors/* UnsafeEntryError */.vF(name, `is a symlink to ${JSON.stringify(target)}, outside the site folder`);
        }
        const key = (0,file_names/* foldPath */.t)(path);
        this.nodes.set(key, { kind: 'symlink', path, target, entryName: name });
        this.symlinks.add(key);
        return path;
    }
    /**
     * The symlinks to create, after checking that each one, resolved through all the archive's
     * symlinks as the OS would, stays inside the root.
     */
    symlinksToCreate() {
        const planned = [];
        const linkAt = (at) => {
            const node = this.nodes.get((0,file_names/* foldPath */.t)(at));
            return node?.kind === 'symlink' ? node.target : undefined;
        };
        for (const key of this.symlinks) {
            const node = this.nodes.get(key);
            if (node?.kind !== 'symlink')
                continue;
            const { path, target, entryName } = node;
            const verdict = walk(parentOf(path), target, linkAt);
            if (verdict === 'loop')
                throw new archive_errors/* UnsafeEntryError */.vF(entryName, `is a symlink to ${JSON.stringify(target)} that loops through other symlinks`);
            if (verdict === undefined) {
                throw new archive_errors/* UnsafeEntryError */.vF(entryName, `is a symlink to ${JSON.stringify(target)}, which leads outside the site folder through the archive's symlinks`);
            }
            planned.push({ path, target });
        }
        return planned;
    }
    /** Checks a file, hardlink or symlink entry's path; an earlier file or symlink there is replaced. */
    claimLeaf(name) {
        const path = entryPath(name);
        if (path === '')
            throw new archive_errors/* UnsafeEntryError */.vF(name, 'has an empty path');
        this.claimParents(path, name);
        const key = (0,file_names/* foldPath */.t)(path);
        if (this.nodes.get(key)?.kind === 'dir')
            throw new archive_errors/* UnsafeEntryError */.vF(name, 'would replace a directory');
        this.symlinks.delete(key);
        return path;
    }
    /** Every ancestor becomes a directory; none may be a symlink (that would write through it) or a file. */
    claimParents(path, name) {
        const newDirectories = [];
        // Ancestors of a known directory are known directories: the common case costs one lookup.
        for (let parent = (0,file_names/* foldPath */.t)(parentOf(path));; parent = parentOf(parent)) {
            const node = this.nodes.get(parent);
            if (node?.kind === 'dir')
                break;
            if (node?.kind === 'symlink')
                throw new archive_errors/* UnsafeEntryError */.vF(name, `would be written through the symlink ${JSON.stringify(node.entryName)}`);
            if (node?.kind === 'file')
                throw new archive_errors/* UnsafeEntryError */.vF(name, `is inside ${JSON.stringify(node.path)}, which an earlier entry made a file`);
            newDirectories.push(parent);
        }
        for (const directory of newDirectories)
            this.nodes.set(directory, DIR);
    }
}
/** `target` from directory `from` without following links; undefined when it climbs above the root. */
function resolveLexically(from, target) {
    return walk(from, target, () => undefined);
}
/**
 * Walks `target` from directory `from` like path resolution does: where `linkAt` names a symlink's
 * target for the path reached, the walk goes where that symlink leads before the next segment (so
 * a `..` after it climbs from there). Undefined when the walk leaves the root at any step; 'loop'
 * after too many links.
 */
function walk(from, target, linkAt, budget = { hops: MAX_LINK_HOPS }) {
    const segments = from === '' ? [] : from.split('/');
    for (const segment of target.split(SEPARATORS)) {
        if (segment === '' || segment === '.')
            continue;
        if (segment === '..') {
            if (segments.length === 0)
                return undefined;
            segments.pop();
            continue;
        }
        segments.push(segment);
        const link = linkAt(segments.join('/'));
        if (link === undefined)
            continue;
        if (--budget.hops < 0)
            return 'loop';
        segments.pop();
        const resolved = walk(segments.join('/'), link, linkAt, budget);
        if (resolved === undefined || resolved === 'loop')
            return resolved;
        segments.length = 0;
        if (resolved !== '')
            segments.push(...resolved.split('/'));
    }
    return segments.join('/');
}

;// CONCATENATED MODULE: ./src/archive/entry-streams.ts
/** Reading one archive entry's content, for the tar and zip readers alike. */

/**
 * The whole content of a small entry, as the chunks it arrived in (no copy: the writer hands
 * them to one writev). Errors of the stream mean the archive data is bad: they become
 * CorruptArchiveError; so does content longer than `maxBytes` (what the entry declared), which
 * is never held in memory.
 */
function readEntry(stream, maxBytes) {
    return new Promise((resolve, reject) => {
        const chunks = [];
        let bytes = 0;
        let ended = false;
        stream.on('data', (chunk) => {
            bytes += chunk.length;
            if (bytes <= maxBytes)
                return void chunks.push(chunk);
            const error = (0,archive_errors/* corrupt */.qb)(new Error(`the entry holds more than the ${maxBytes} bytes it declares`));
            reject(error);
            stream.destroy(error);
        });
        stream.on('end', () => {
            ended = true;
            resolve(chunks);
        });
        stream.on('error', (error) => reject((0,archive_errors/* corrupt */.qb)(error)));
        // Destroyed from outside (the extraction was stopped) without an error of its own.
        stream.on('close', () => {
            if (!ended)
                reject((0,archive_errors/* corrupt */.qb)(new Error('the entry ended early')));
        });
    });
}
/** Reads and drops an entry's content (tar needs it consumed to go on). */
function skipEntry(stream) {
    return new Promise((resolve, reject) => {
        let ended = false;
        stream.on('end', () => {
            ended = true;
            resolve();
        });
        stream.on('error', (error) => reject((0,archive_errors/* corrupt */.qb)(error)));
        stream.on('close', () => {
            if (!ended)
                reject((0,archive_errors/* corrupt */.qb)(new Error('the entry ended early')));
        });
        stream.resume();
    });
}
/**
 * The entry's chunks, with read errors turned into CorruptArchiveError (write errors stay as they
 * are). Listens for errors at once: the writer may ask for the first chunk only later (it waits
 * for a free slot), and an error emitted with no listener would crash the process.
 */
function entryChunks(stream) {
    let failure;
    stream.on('error', (error) => void (failure ??= error));
    return (async function* () {
        try {
            for await (const chunk of stream)
                yield chunk;
        }
        catch (error) {
            throw (0,archive_errors/* corrupt */.qb)(failure ?? error);
        }
    })();
}

;// CONCATENATED MODULE: ./src/archive/site-writer.ts
/**
 * Writes archive entries into a fresh folder (the staging folder), whatever the archive format.
 *
 * Safety: every entry goes through EntryIndex first; symlinks are created only in `finish()`,
 * after every file is written and every link checked, so no write can pass through a link.
 * Files are created with O_EXCL (`wx`): an existing path (an earlier duplicate, a hardlink) is
 * unlinked and created anew, never written through.
 *
 * Bounds: entries are counted, and file bytes twice: as declared before the content is read, and
 * as written. Past `maxBytes` or `maxEntries` the unpacking fails with SiteLimitError.
 *
 * Speed: small files are written in one call each, several at a time, while the archive reader
 * goes on; each folder is created once (the promise is cached).
 */









/** Files up to this size are read into memory and written in one call. */
const SMALL_FILE_BYTES = 1024 * 1024;
/** Writes in flight at once: enough to keep the libuv pool busy, few enough to bound memory. */
const DEFAULT_MAX_IN_FLIGHT = 16;
const STREAM_HIGH_WATER_MARK = 1024 * 1024;
/**
 * The most entries an archive may hold: far above any real site (each entry costs an inode and
 * some memory in the index), far below what would exhaust either.
 */
const MAX_SITE_ENTRIES = 1_000_000;
/**
 * What an archive's own bytes may hold beyond its files' content: per entry, its header, long
 * name records and padding (16 KiB is more than a 4 KiB name and link take); once, the end
 * blocks and what a reader is handed ahead of the entry it is on.
 */
const ARCHIVE_BYTES_PER_ENTRY = 16 * 1024;
const ARCHIVE_BYTES_AHEAD = 8 * 1024 * 1024;
class SiteWriter {
    root;
    log;
    signal;
    limits;
    inspector;
    maxInFlight;
    index = new EntryIndex();
    /** Folder path -> its creation; '' is the root, which exists already. */
    directories = new Map([['', Promise.resolve()]]);
    /** Folded path -> the last write started on it, so a later duplicate waits for the earlier one. */
    lastWriteAt = new Map();
    inFlight = 0;
    slotWaiters = [];
    idleWaiters = [];
    failure;
    maxEntries;
    entries = 0;
    /** File bytes the entries so far declare, and the bytes written to disk. */
    declaredBytes = 0;
    writtenBytes = 0;
    /** Counts for the summary line. */
    counts = { files: 0, directories: 0, symlinks: 0, hardlinks: 0, skipped: 0 };
    /** Entries taken so far, of every kind. */
    get entryCount() {
        return this.entries;
    }
    constructor(
    /** Absolute path of the folder to fill; it must exist and be empty. */
    root, log, 
    /** Stops the extraction: nothing new starts, large-file streams end, the reason is the failure. */
    signal, limits, inspector, maxInFlight = DEFAULT_MAX_IN_FLIGHT) {
        this.root = root;
        this.log = log;
        this.signal = signal;
        this.limits = limits;
        this.inspector = inspector;
        this.maxInFlight = maxInFlight;
        this.maxEntries = limits.maxEntries ?? MAX_SITE_ENTRIES;
        const stop = () => {
            this.failure ??= signal.reason;
            for (const wake of this.slotWaiters.splice(0))
                wake();
        };
        if (signal.aborted)
            stop();
        else
            signal.addEventListener('abort', stop, { once: true });
    }
    /** How many entries the whole archive declares, when it says so first (zip's central directory). */
    checkDeclared(entries) {
        this.throwIfFailed();
        if (entries > this.maxEntries)
            throw this.tooManyEntries(`the archive declares ${entries.toLocaleString('en-US')}`);
    }
    /**
     * The archive's own bytes so far, as its reader consumes them (tar: headers, padding, skipped
     * data). They may pass the content its files declared only by a margin per entry: an archive
     * of padding or zero blocks would otherwise keep the unpacking busy without end.
     */
    checkArchiveBytes(bytes) {
        const allowance = this.declaredBytes + (this.entries + 1) * ARCHIVE_BYTES_PER_ENTRY + ARCHIVE_BYTES_AHEAD;
        if (bytes <= allowance)
            return;
        throw new archive_errors/* SiteLimitError */.ly(`The bundle's tar data runs past ${(0,units/* formatBytes */.z3)(allowance)}, far more than the ${this.entries.toLocaleString('en-US')} ${this.entries === 1 ? 'entry' : 'entries'} so far hold ` +
            `(${(0,units/* formatBytes */.z3)(this.declaredBytes)} of files): the rest is padding or data that is never unpacked. The previous site was left as it was.`);
    }
    async directory(name) {
        this.throwIfFailed();
        this.countEntry(name);
        const path = this.index.addDirectory(name);
        this.counts.directories++;
        if (path !== '')
            await this.schedule(name, [], () => this.ensureDirectory(path));
    }
    /**
     * A regular file of `size` bytes (as the archive declares it) read from `content`. A small one
     * is read into memory and its write scheduled: resolves once the write has started. A large
     * one is streamed: resolves once it is written. Either way `content` is consumed.
     */
    async file(name, mode, size, content) {
        this.throwIfFailed();
        this.countEntry(name);
        const path = this.index.addFile(name);
        this.claimBytes(name, size);
        this.counts.files++;
        if (size <= SMALL_FILE_BYTES) {
            const chunks = await readEntry(content, size);
            this.inspector?.observe(path, chunks);
            await this.schedule(name, [path], () => this.writeFile(path, chunks, fileMode(mode)));
            return;
        }
        const chunks = entryChunks(content);
        let written;
        await this.schedule(name, [path], () => (written = this.streamFile(name, path, chunks, fileMode(mode))));
        await written;
    }
    async hardlink(name, target) {
        this.throwIfFailed();
        this.countEntry(name);
        const { path, targetPath } = this.index.addHardlink(name, target);
        this.counts.hardlinks++;
        // Waits for the target's write; a later rewrite of the target waits for the link.
        await this.schedule(name, [path, targetPath], () => this.createHardlink(path, targetPath));
    }
    /** Recorded only: symlinks are created by finish(), once every file is on disk. */
    symlink(name, target) {
        this.throwIfFailed();
        this.countEntry(name);
        this.index.addSymlink(name, target);
        this.counts.symlinks++;
    }
    /** Devices, fifos and unknown entry types are not extracted. */
    skip(name, kind) {
        this.throwIfFailed();
        this.countEntry(name);
        entryPath(name);
        this.counts.skipped++;
        this.log.warning(`Skipped the archive entry ${JSON.stringify(name)}: ${kind} entries are not extracted`);
    }
    /** Waits for every write, checks the symlinks against the whole tree, then creates them. */
    async finish() {
        await this.idle();
        this.throwIfFailed();
        for (const { path, target } of this.index.symlinksToCreate()) {
            await this.schedule(path, [path], () => this.createSymlink(path, target));
        }
        await this.idle();
        this.throwIfFailed();
    }
    /** Resolves when nothing is in flight: after a stop, the folder can then be removed safely. */
    settled() {
        return this.idle();
    }
    // --- bounds -------------------------------------------------------------------------------------
    countEntry(name) {
        if (++this.entries > this.maxEntries)
            throw this.tooManyEntries(`the entry ${JSON.stringify(name)} is one more`);
    }
    /** Before a file's content is read: its declared size must fit. */
    claimBytes(name, size) {
        this.declaredBytes += size;
        if (this.declaredBytes > this.limits.maxBytes)
            throw this.tooManyBytes(`the entry ${JSON.stringify(name)} (${(0,units/* formatBytes */.z3)(size)}) takes it to ${(0,units/* formatBytes */.z3)(this.declaredBytes)}`);
    }
    /** As bytes reach the disk: what is written must fit too, whatever was declared. */
    countWritten(name, bytes) {
        this.writtenBytes += bytes;
        if (this.writtenBytes > this.limits.maxBytes)
            throw this.tooManyBytes(`the entry ${JSON.stringify(name)} took it past that while being written`);
    }
    tooManyBytes(detail) {
        return new archive_errors/* SiteLimitError */.ly(`The bundle unpacks to more than ${(0,units/* formatBytes */.z3)(this.limits.maxBytes)}, the bound set by \`max-site-size\`: ${detail}. ` +
            'Nothing was unpacked into the site folder, and the previous site was left as it was; raise `max-site-size` if the site really is this large.');
    }
    tooManyEntries(detail) {
        return new archive_errors/* SiteLimitError */.ly(`The bundle holds more than ${this.maxEntries.toLocaleString('en-US')} entries, the most the action unpacks: ${detail}. ` +
            'Nothing was unpacked into the site folder, and the previous site was left as it was.');
    }
    // --- scheduling -------------------------------------------------------------------------------
    /**
     * Starts `operation` once a slot is free and the earlier writes on `paths` are done. Resolves
     * when it has started; a failure is kept and thrown by the next call.
     */
    async schedule(entryName, paths, operation) {
        while (this.inFlight >= this.maxInFlight && !this.signal.aborted)
            await new Promise((wake) => this.slotWaiters.push(wake));
        this.throwIfFailed();
        this.inFlight++;
        // Folded: on a case-insensitive disk `A` and `a` are one file, and their writes must not race.
        const keys = paths.map(file_names/* foldPath */.t);
        const earlier = keys.map((key) => this.lastWriteAt.get(key)).filter((p) => p !== undefined);
        const run = (earlier.length === 0 ? operation() : Promise.all(earlier).then(() => (this.signal.aborted ? undefined : operation())))
            .catch((error) => {
            this.failure ??= error === this.signal.reason ? error : (0,archive_errors/* writeFailure */.EU)(error, `the archive entry ${JSON.stringify(entryName)} into ${this.root}`, this.writtenBytes);
        })
            .finally(() => {
            for (const key of keys)
                if (this.lastWriteAt.get(key) === run)
                    this.lastWriteAt.delete(key);
            this.inFlight--;
            this.slotWaiters.shift()?.();
            if (this.inFlight === 0)
                for (const wake of this.idleWaiters.splice(0))
                    wake();
        });
        for (const key of keys)
            this.lastWriteAt.set(key, run);
    }
    idle() {
        return this.inFlight === 0 ? Promise.resolve() : new Promise((wake) => this.idleWaiters.push(wake));
    }
    throwIfFailed() {
        if (this.failure !== undefined)
            throw this.failure;
    }
    absolute(path) {
        return (0,external_node_path_.join)(this.root, path);
    }
    // --- file system work ---------------------------------------------------------------------------
    /** Creates the folder and its parents, each exactly once per extraction. */
    ensureDirectory(path) {
        let created = this.directories.get(path);
        if (created === undefined) {
            const slash = path.lastIndexOf('/');
            const parent = slash < 0 ? '' : path.slice(0, slash);
            created = this.ensureDirectory(parent).then(() => this.mkdirOnce(path));
            this.directories.set(path, created);
        }
        return created;
    }
    async mkdirOnce(path) {
        this.signal.throwIfAborted();
        try {
            await (0,promises_.mkdir)(this.absolute(path));
        }
        catch (error) {
            if (errorCode(error) !== 'EEXIST')
                throw error;
        }
    }
    parentReady(path) {
        const slash = path.lastIndexOf('/');
        return this.ensureDirectory(slash < 0 ? '' : path.slice(0, slash));
    }
    async writeFile(path, content, mode) {
        await this.parentReady(path);
        await replacing(this.absolute(path), (target) => writeNewFile(target, content, mode));
        this.countWritten(path, content.reduce((sum, chunk) => sum + chunk.length, 0));
    }
    async streamFile(name, path, content, mode) {
        await this.parentReady(path);
        const target = this.absolute(path);
        const handle = await replacing(target, (file) => (0,promises_.open)(file, 'wx', mode));
        const output = (0,external_node_fs_.createWriteStream)(target, { fd: handle, highWaterMark: STREAM_HIGH_WATER_MARK });
        const counted = async function* () {
            for await (const chunk of content) {
                this.countWritten(name, chunk.length);
                yield chunk;
            }
        };
        await (0,external_node_stream_promises_.pipeline)(counted.call(this), output, { signal: this.signal });
    }
    async createHardlink(path, targetPath) {
        await this.parentReady(path);
        const existing = this.absolute(targetPath);
        await replacing(this.absolute(path), (target) => (0,promises_.link)(existing, target));
    }
    async createSymlink(path, linkTarget) {
        await this.parentReady(path);
        // EntryIndex never lets a symlink replace a folder; an earlier file here is unlinked.
        await replacing(this.absolute(path), (target) => (0,promises_.symlink)(linkTarget, target));
    }
}
/**
 * Runs an exclusive create; when the path exists (a duplicate entry, a hardlink), removes it and
 * creates it anew instead of writing into whatever is there. Folders are never removed here.
 */
async function replacing(target, create) {
    try {
        return await create(target);
    }
    catch (error) {
        if (errorCode(error) !== 'EEXIST')
            throw error;
    }
    const existing = await (0,promises_.lstat)(target);
    if (existing.isDirectory())
        throw new Error(`Cannot replace the folder ${target} with a file`);
    await (0,promises_.unlink)(target);
    return create(target);
}
/**
 * open(O_EXCL) + writev + close with plain callbacks: for thousands of small files this costs a
 * fraction of fs/promises' writeFile (no FileHandle objects), and the chunks need no joining.
 */
function writeNewFile(target, chunks, mode) {
    return new Promise((resolve, reject) => {
        external_node_fs_default().open(target, 'wx', mode, (openError, fd) => {
            if (openError)
                return reject(openError);
            const finish = (error) => external_node_fs_default().close(fd, (closeError) => (error ?? closeError ? reject(error ?? closeError) : resolve()));
            const writeRest = (rest) => {
                if (rest.length === 0)
                    return finish(null);
                external_node_fs_default().writev(fd, rest, null, (writeError, written) => (writeError ? finish(writeError) : writeRest(unwritten(rest, written))));
            };
            writeRest(chunks.filter((chunk) => chunk.length > 0));
        });
    });
}
/** What a short writev left: the chunks after the first `written` bytes. */
function unwritten(chunks, written) {
    let index = 0;
    while (index < chunks.length && written >= chunks[index].length)
        written -= chunks[index++].length;
    if (index === chunks.length)
        return [];
    return [chunks[index].subarray(written), ...chunks.slice(index + 1)];
}
function errorCode(error) {
    return error?.code;
}

// EXTERNAL MODULE: external "node:child_process"
var external_node_child_process_ = __webpack_require__(1421);
;// CONCATENATED MODULE: ./src/archive/staging.ts
/**
 * The site is unpacked into a staging folder next to its destination (same parent, so the final
 * move is a rename on one file system) and swapped in only when whole: a failed or cancelled run
 * never leaves a half-written site, and an earlier site stays until the new one is complete.
 *
 * Every folder of ours beside the site is named `.<site>.<kind>-<12 hex>`: `staging` while it
 * fills, `old` for the previous site during the swap, `trash` once it is only waiting to be
 * removed. A run that was killed may leave one behind; the next run sweeps them first.
 */




/** A fresh name `.<site>.<kind>-<random>` beside `siteDir`. */
function besideSite(siteDir, kind) {
    return (0,external_node_path_.join)((0,external_node_path_.dirname)(siteDir), `.${(0,external_node_path_.basename)(siteDir)}.${kind}-${(0,external_node_crypto_.randomBytes)(6).toString('hex')}`);
}
/** A fresh, empty folder `.<name>.staging-<random>` beside `siteDir`. */
async function createStagingFolder(siteDir) {
    await (0,promises_.mkdir)((0,external_node_path_.dirname)(siteDir), { recursive: true });
    const staging = besideSite(siteDir, 'staging');
    await (0,promises_.mkdir)(staging);
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
        await (0,promises_.rename)(siteDir, aside);
        movedAside = true;
    }
    catch (error) {
        if (error.code !== 'ENOENT')
            throw error;
    }
    try {
        await (0,promises_.rename)(staging, siteDir);
    }
    catch (error) {
        if (movedAside)
            await (0,promises_.rename)(aside, siteDir).catch(() => undefined);
        throw error;
    }
    if (!movedAside)
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
        await (0,promises_.rename)(folder, trash);
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
    const name = (0,external_node_path_.basename)(siteDir);
    const ours = new RegExp(`^\\.${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\.(staging|old|trash)-[0-9a-f]{12}$`);
    const stale = (await (0,promises_.readdir)((0,external_node_path_.dirname)(siteDir)).catch(() => [])).filter((entry) => ours.test(entry));
    if (stale.length === 0)
        return;
    const siteExists = await (0,promises_.stat)(siteDir).then(() => true, () => false);
    const previous = siteExists ? undefined : stale.find((entry) => ours.exec(entry)?.[1] === 'old');
    if (previous !== undefined) {
        await (0,promises_.rename)((0,external_node_path_.join)((0,external_node_path_.dirname)(siteDir), previous), siteDir);
        log.info(`Put back the previous site, which an earlier run had moved aside to ${previous} when it was stopped`);
    }
    const removed = stale.filter((entry) => entry !== previous);
    if (removed.length === 0)
        return;
    log.info(`Removing ${removed.length} folder${removed.length === 1 ? '' : 's'} that an earlier run left beside ${siteDir}: ${removed.join(', ')}`);
    await removeDetached(removed.map((entry) => (0,external_node_path_.join)((0,external_node_path_.dirname)(siteDir), entry)), signal);
}
/** Removes a file or folder tree if it is there; cleanup must not hide the error that caused it. */
async function removeQuietly(path) {
    await (0,promises_.rm)(path, { recursive: true, force: true, maxRetries: 2 }).catch(() => undefined);
}
/**
 * A node process of its own removes `paths`, so this one does not stall (node's recursive
 * removal holds up the event loop for long stretches). Resolves when that process ends, or as
 * soon as `until` fires: the process then goes on alone, and this one may end without waiting
 * for it. Never rejects: whatever it leaves, the next run sweeps.
 */
function removeDetached(paths, until) {
    const script = "for (const path of process.argv.slice(1)) require('node:fs').rmSync(path, { recursive: true, force: true, maxRetries: 2 })";
    return new Promise((resolve) => {
        try {
            const remover = (0,external_node_child_process_.spawn)(process.execPath, ['-e', script, ...paths], { detached: true, stdio: 'ignore', windowsHide: true });
            const letGo = () => {
                remover.unref();
                resolve();
            };
            remover.on('error', () => resolve(Promise.all(paths.map(removeQuietly)).then(() => undefined)));
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

// EXTERNAL MODULE: external "node:zlib"
var external_node_zlib_ = __webpack_require__(8522);
var external_node_zlib_default = /*#__PURE__*/__webpack_require__.n(external_node_zlib_);
// EXTERNAL MODULE: ./node_modules/tar-stream/index.js
var tar_stream = __webpack_require__(6118);
;// CONCATENATED MODULE: ./src/archive/tar.ts
/**
 * Unpacks a tar or tar.gz archive while it downloads: bytes are fed in as they arrive, gunzip
 * runs on the libuv pool, tar-stream parses, SiteWriter writes. Backpressure runs all the way
 * back to the socket, so memory stays flat whatever the archive's size.
 */






/**
 * Gunzip works in steps on the libuv pool, one step per input chunk, and the next step starts
 * only when the main thread has taken the last one's output. Network chunks (~64 KiB) make
 * thousands of tiny steps; batching them into ~1 MiB steps lets gunzip run while the main thread
 * parses and writes, and cuts the per-step overhead.
 */
const GUNZIP_BATCH_BYTES = 1024 * 1024;
const GUNZIP_CHUNK_BYTES = 1024 * 1024;
class TarUnpacker {
    writer;
    options;
    extract = tar_stream.extract();
    gunzip;
    /** Where downloaded bytes go in: the gunzip stream, or the parser for a plain tar. */
    input;
    failure;
    wakeOnFailure = [];
    /** Settles when every entry has been read (their writes may still be in flight in the writer). */
    entriesRead;
    /** Decompressed bytes held back until we know they are a tar (gzip only). */
    innerHead = new HeadSniffer((head, complete) => (complete || head.length >= FORMAT_SNIFF_BYTES ? isTarHeader(head) : undefined));
    /** Compressed bytes gathered into one gunzip step. */
    batch = [];
    batchBytes = 0;
    /** The entry being read, to say where the data ended if it ends early. */
    reading;
    /** Tar bytes handed to the parser (after gunzip). */
    tarBytes = 0;
    constructor(writer, options) {
        this.writer = writer;
        this.options = options;
        const parser = this.extract;
        this.entriesRead = new Promise((resolve, reject) => {
            parser.on('finish', () => resolve());
            parser.on('close', () => {
                if (this.failure !== undefined)
                    reject(this.failure);
            });
        });
        this.entriesRead.catch(() => undefined); // observed through end()
        parser.on('error', (error) => this.fail(this.describeParseError(error)));
        this.extract.on('entry', (header, stream, next) => {
            this.reading = header;
            // tar-stream's typings for its streamx streams do not line up with node's; the shape does.
            this.unpackEntry(header, stream).then(() => {
                this.reading = undefined;
                next();
            }, (error) => this.fail(error));
        });
        if (options.gzip) {
            const gunzip = external_node_zlib_default().createGunzip({ chunkSize: GUNZIP_CHUNK_BYTES });
            this.gunzip = gunzip;
            this.input = gunzip;
            gunzip.on('data', (chunk) => this.feedParser(chunk));
            parser.on('drain', () => gunzip.resume());
            gunzip.on('end', () => this.endParser());
            gunzip.on('error', (error) => this.fail((0,archive_errors/* corrupt */.qb)(error)));
        }
        else {
            this.input = parser;
        }
        const { signal } = options;
        if (signal.aborted)
            this.fail(signal.reason);
        else
            signal.addEventListener('abort', () => this.fail(signal.reason), { once: true });
    }
    /** Feeds downloaded bytes; a returned promise asks the caller to wait before the next ones. */
    write(chunk) {
        if (this.failure !== undefined)
            return undefined;
        if (this.gunzip === undefined)
            return this.withinBound(chunk) ? this.writeInput(chunk) : undefined;
        this.batch.push(chunk);
        this.batchBytes += chunk.length;
        return this.batchBytes >= GUNZIP_BATCH_BYTES ? this.flushBatch() : undefined;
    }
    /** The download is complete: resolves once every entry has been read and handed to the writer. */
    end() {
        if (this.failure === undefined) {
            if (this.gunzip) {
                void this.flushBatch();
                this.gunzip.end();
            }
            else
                this.extract.end(undefined);
        }
        return this.entriesRead;
    }
    flushBatch() {
        if (this.batchBytes === 0)
            return undefined;
        const batch = this.batch.length === 1 ? this.batch[0] : Buffer.concat(this.batch, this.batchBytes);
        this.batch = [];
        this.batchBytes = 0;
        return this.writeInput(batch);
    }
    writeInput(chunk) {
        if (this.input.write(chunk))
            return undefined;
        return new Promise((resolve) => {
            this.input.once('drain', resolve);
            this.wakeOnFailure.push(resolve);
        });
    }
    /** The first failure: CorruptArchiveError for bad data, anything else from the writer. */
    get error() {
        return this.failure;
    }
    fail(error) {
        if (this.failure !== undefined)
            return;
        this.failure = error;
        this.gunzip?.destroy();
        this.extract.destroy();
        for (const wake of this.wakeOnFailure.splice(0))
            wake();
        // A stop from outside is no failure of ours to report.
        if (!this.options.signal.aborted)
            this.options.onError?.(error);
    }
    /** tar-stream's "Unexpected end of data" becomes which entry was cut short. */
    describeParseError(error) {
        const entry = this.reading;
        if (!(error instanceof Error) || error.message !== 'Unexpected end of data')
            return (0,archive_errors/* corrupt */.qb)(error);
        const where = entry === undefined ? 'between two entries' : `inside the entry ${JSON.stringify(entry.name)} (${(0,units/* formatBytes */.z3)(entry.size ?? 0)} declared)`;
        return new archive_errors/* CorruptArchiveError */.sC(`the tar data ends early, ${where}`, { cause: error });
    }
    feedParser(chunk) {
        if (this.failure !== undefined)
            return;
        if (this.innerHead.pending) {
            const judged = this.innerHead.push(chunk);
            if (judged === undefined || !this.holdsTar(judged))
                return;
            chunk = judged.head;
        }
        if (!this.withinBound(chunk))
            return;
        if (!this.extract.write(chunk))
            this.gunzip?.pause();
    }
    /**
     * Counts the tar bytes before the parser gets them: an archive of little but padding, zero
     * blocks or skipped data would keep gunzip and the parser busy without writing a byte.
     */
    withinBound(chunk) {
        this.tarBytes += chunk.length;
        try {
            this.writer.checkArchiveBytes(this.tarBytes);
            return true;
        }
        catch (error) {
            this.fail(error);
            return false;
        }
    }
    endParser() {
        if (this.innerHead.pending) {
            const judged = this.innerHead.end();
            if (judged.head.length > 0) {
                if (!this.holdsTar(judged))
                    return;
                this.extract.write(judged.head);
            }
        }
        this.extract.end(undefined);
    }
    /** A gzip that holds something else than a tar gets a clear message, not "invalid header". */
    holdsTar({ verdict, head }) {
        if (!verdict)
            this.fail(new archive_errors/* NotAnArchiveError */.DD(`The bundle is a gzip file, but what it holds is not a tar archive: it looks like ${describeBytes(head)}`));
        return verdict;
    }
    async unpackEntry(header, entry) {
        const { name } = header;
        switch (header.type) {
            case 'file':
            case 'contiguous-file':
                await this.writer.file(name, header.mode, header.size ?? 0, entry);
                return;
            case 'directory':
                await skipEntry(entry);
                await this.writer.directory(name);
                return;
            case 'symlink':
                await skipEntry(entry);
                this.writer.symlink(name, header.linkname ?? '');
                return;
            case 'link':
                await skipEntry(entry);
                await this.writer.hardlink(name, header.linkname ?? '');
                return;
            default:
                // Devices and fifos; tar-stream consumes pax and GNU long-name records itself.
                await skipEntry(entry);
                this.writer.skip(name, String(header.type).replace(/-/g, ' '));
        }
    }
}

// EXTERNAL MODULE: ./node_modules/yauzl/index.js
var yauzl = __webpack_require__(663);
;// CONCATENATED MODULE: ./src/archive/zip.ts
/**
 * Unpacks a downloaded zip file. Zip keeps its directory at the end, so unlike tar it cannot be
 * unpacked while it downloads: it is read from the finished file with yauzl.
 */




const S_IFMT = 0o170000;
const S_IFREG = 0o100000;
const S_IFDIR = 0o040000;
const S_IFLNK = 0o120000;
/** "Version made by" high byte of archives written on unix: only they carry a unix mode. */
const MADE_BY_UNIX = 3;
const MSDOS_DIRECTORY = 0x10;
const KIND_NAMES = { 0o010000: 'fifo', 0o020000: 'character device', 0o060000: 'block device', 0o140000: 'socket' };
async function unpackZip(file, writer) {
    let zip;
    try {
        // decodeStrings: false, so that names are judged by our checks (with messages naming the
        // entry), not refused by yauzl as a generic error that would look like a corrupt archive.
        zip = await yauzl.openPromise(file, { lazyEntries: true, decodeStrings: false, validateEntrySizes: true, autoClose: false });
    }
    catch (error) {
        throw (0,archive_errors/* corrupt */.qb)(error);
    }
    try {
        // The central directory says how many entries follow: too many fails before any is written.
        // Each entry's size is checked as it comes, before it is inflated (a second pass over the
        // directory to add them all up first would cost a quarter of the time of a site of small
        // files), and its bytes as they are written.
        writer.checkDeclared(zip.entryCount);
        await new Promise((resolve, reject) => {
            zip.on('entry', (entry) => {
                unpackEntry(zip, entry, writer).then(() => zip.readEntry(), reject);
            });
            zip.on('end', () => resolve());
            zip.on('error', (error) => reject((0,archive_errors/* corrupt */.qb)(error)));
            zip.readEntry();
        });
    }
    finally {
        zip.close();
    }
}
async function unpackEntry(zip, entry, writer) {
    // With decodeStrings off, yauzl leaves the name undecoded; this is its own decoder (UTF-8 flag,
    // Info-ZIP unicode path field, CP437 otherwise). "Strict" keeps backslashes as they are, so
    // errors name the entry as the archive spells it; our checks treat them as separators.
    const name = yauzl.getFileNameLowLevel(entry.generalPurposeBitFlag, entry.fileNameRaw, entry.extraFields, true);
    const unixMode = entry.versionMadeBy >> 8 === MADE_BY_UNIX ? entry.externalFileAttributes >>> 16 : 0;
    const kind = unixMode & S_IFMT;
    if (kind === S_IFDIR || name.endsWith('/') || (kind === 0 && (entry.externalFileAttributes & MSDOS_DIRECTORY) !== 0)) {
        await writer.directory(name);
        return;
    }
    if (kind === S_IFLNK) {
        // The target is the entry's content: read only what a path can hold, never a bomb's worth.
        if (entry.uncompressedSize > MAX_LINK_TARGET_BYTES) {
            throw new archive_errors/* UnsafeEntryError */.vF(name, `is a symlink whose target is longer than ${MAX_LINK_TARGET_BYTES} bytes (it declares ${entry.uncompressedSize})`);
        }
        const target = Buffer.concat(await readEntry(await openEntry(zip, entry), entry.uncompressedSize));
        writer.symlink(name, target.toString('utf8'));
        return;
    }
    if (kind !== 0 && kind !== S_IFREG) {
        writer.skip(name, KIND_NAMES[kind] ?? 'special file');
        return;
    }
    const mode = unixMode & 0o777 ? unixMode : undefined;
    await writer.file(name, mode, entry.uncompressedSize, await openEntry(zip, entry));
}
async function openEntry(zip, entry) {
    try {
        return await zip.openReadStreamPromise(entry);
    }
    catch (error) {
        throw (0,archive_errors/* corrupt */.qb)(error);
    }
}

;// CONCATENATED MODULE: ./src/archive/receiver.ts
/**
 * Takes one download attempt's bytes as they arrive and sends each chunk, without copies, to
 * three places at once: the sha256, the `<archive>.part` file, and (for tar and tar.gz) the
 * unpacker filling a staging folder. Zip is unpacked from the finished `.part` file.
 * Each attempt gets a fresh receiver: fresh hash, fresh `.part`, fresh staging folder.
 */










/** The `.part` file is written in ~1 MiB writev calls instead of one call per network chunk. */
const PART_FILE_BATCH_BYTES = 1024 * 1024;
const PART_FILE_HIGH_WATER_MARK = 2 * PART_FILE_BATCH_BYTES;
class ArchiveReceiver {
    options;
    part;
    staging;
    hash = (0,external_node_crypto_.createHash)('sha256');
    bytes = 0;
    /** The first bytes, held until the format is known (a tar is recognised at offset 257). */
    head = new HeadSniffer(detectFormat);
    format;
    unpacker;
    /** Whether the `.part` stream is corked, and how much it holds since the last flush. */
    corked = false;
    corkedBytes = 0;
    /** Stops the unpacker and the writer: on the caller's signal, or when discarded. */
    stopper = new AbortController();
    writer;
    constructor(options, part, staging) {
        this.options = options;
        this.part = part;
        this.staging = staging;
        part.on('error', (error) => options.onFatal((0,archive_errors/* writeFailure */.EU)(error, `the bundle file ${options.partFile}`, this.bytes)));
        const { signal } = options;
        if (signal?.aborted)
            this.stopper.abort(signal.reason);
        else
            signal?.addEventListener('abort', () => this.stopper.abort(signal.reason), { once: true });
        this.writer = staging === undefined ? undefined : new SiteWriter(staging, options.log, this.stopper.signal, options.limits, options.inspector);
    }
    static async open(options) {
        // 'w' truncates: a retry never appends to what a failed attempt left.
        const part = (0,external_node_fs_.createWriteStream)(options.partFile, { flags: 'w', highWaterMark: PART_FILE_HIGH_WATER_MARK });
        try {
            await (0,external_node_events_.once)(part, 'open');
        }
        catch (error) {
            part.destroy();
            throw (0,archive_errors/* writeFailure */.EU)(error, `the bundle file ${options.partFile}`);
        }
        let staging;
        try {
            staging = options.siteDir === undefined ? undefined : await createStagingFolder(options.siteDir);
        }
        catch (error) {
            part.destroy();
            await removeQuietly(options.partFile);
            throw (0,archive_errors/* writeFailure */.EU)(error, `a staging folder beside ${options.siteDir}`);
        }
        return new ArchiveReceiver(options, part, staging);
    }
    /** One chunk of the body; a returned promise asks the download to wait (backpressure). */
    write(chunk) {
        this.hash.update(chunk);
        this.bytes += chunk.length;
        const fileWait = this.writePart(chunk) ? undefined : (0,external_node_events_.once)(this.part, 'drain');
        const unpackWait = this.unpack(chunk);
        if (fileWait === undefined)
            return unpackWait;
        return unpackWait === undefined ? fileWait.then(noop) : Promise.all([fileWait, unpackWait]).then(noop);
    }
    /**
     * The body is complete: closes the `.part` file and finishes unpacking. Throws
     * CorruptArchiveError (with the archive's size and sha256) when the bytes cannot be unpacked.
     */
    async complete() {
        if (this.head.pending) {
            // A body shorter than the sniffing window.
            const { verdict, head } = this.head.end();
            this.decideFormat(verdict);
            if (this.unpacker !== undefined)
                await this.unpacker.write(head);
        }
        const format = this.format;
        this.flushPart();
        this.part.end();
        await (0,external_node_events_.once)(this.part, 'close');
        const sha256 = this.hash.digest('hex');
        if (this.writer !== undefined) {
            try {
                if (format === 'zip')
                    await unpackZip(this.options.partFile, this.writer);
                else
                    await this.unpacker.end();
                await this.writer.finish();
            }
            catch (error) {
                if (!(error instanceof archive_errors/* CorruptArchiveError */.sC))
                    throw error;
                throw new archive_errors/* CorruptArchiveError */.sC(`The bundle archive is corrupt (${format}, ${this.bytes} bytes, sha256 ${sha256}): ${error.message}`, { cause: error });
            }
        }
        return { sha256, sizeBytes: this.bytes, format, staging: this.staging, counts: this.writer?.counts, entries: this.writer?.entryCount ?? 0 };
    }
    /**
     * Stops everything and removes the `.part` file and the staging folder. `cancelled`: the run is
     * ending, and a large staging folder is only renamed aside for a detached removal (see
     * discardFolder).
     */
    async discard(cancelled = false) {
        if (!this.stopper.signal.aborted)
            this.stopper.abort(new errors/* CancelledError */.cc('The unpacking was stopped'));
        this.part.destroy();
        // In-flight writes must settle first, or one could recreate a folder after the removal.
        await Promise.all([this.writer?.settled(), this.part.closed ? undefined : (0,external_node_events_.once)(this.part, 'close').catch(noop)]);
        await Promise.all([
            removeQuietly(this.options.partFile),
            this.staging === undefined ? undefined : discardFolder(this.staging, this.options.siteDir, { cancelled, entries: this.writer?.entryCount ?? 0 })
        ]);
    }
    /**
     * Like `part.write`, but the chunks go to disk together, ~1 MiB per writev, without copies.
     * Never left corked while the caller waits for 'drain': a corked stream would not flush, and
     * 'drain' would never come.
     */
    writePart(chunk) {
        if (!this.corked) {
            this.part.cork();
            this.corked = true;
        }
        const roomLeft = this.part.write(chunk);
        this.corkedBytes += chunk.length;
        if (!roomLeft || this.corkedBytes >= PART_FILE_BATCH_BYTES)
            this.flushPart();
        return roomLeft;
    }
    flushPart() {
        if (!this.corked)
            return;
        this.corked = false;
        this.corkedBytes = 0;
        this.part.uncork();
    }
    unpack(chunk) {
        if (this.head.pending) {
            const judged = this.head.push(chunk);
            if (judged === undefined)
                return undefined;
            this.decideFormat(judged.verdict);
            chunk = judged.head;
        }
        // After a corrupt-data failure the unpacker is left behind; the download goes on so that
        // the error can tell the size and sha256 of what was served.
        if (this.unpacker === undefined || this.unpacker.error !== undefined)
            return undefined;
        return this.unpacker.write(chunk);
    }
    /** Sets the format and, for tar and tar.gz when unpacking, starts the streaming unpacker. */
    decideFormat(verdict) {
        if ('unknown' in verdict) {
            throw new archive_errors/* NotAnArchiveError */.DD(`The downloaded bundle is not a zip, tar.gz or tar archive: its first bytes look like ${verdict.unknown}`);
        }
        this.format = verdict.format;
        if (this.writer === undefined || verdict.format === 'zip')
            return verdict.format;
        this.unpacker = new TarUnpacker(this.writer, {
            gzip: verdict.format === 'tar.gz',
            onError: (error) => {
                if (!(error instanceof archive_errors/* CorruptArchiveError */.sC))
                    this.options.onFatal(error);
            },
            signal: this.stopper.signal
        });
        return verdict.format;
    }
}
function noop() { }

// EXTERNAL MODULE: ./src/service/failure.ts
var failure = __webpack_require__(8817);
// EXTERNAL MODULE: ./src/service/retry.ts
var retry = __webpack_require__(5585);
// EXTERNAL MODULE: ./node_modules/@actions/http-client/lib/proxy.js
var proxy = __webpack_require__(9783);
// EXTERNAL MODULE: ./src/common/cancellation.ts
var cancellation = __webpack_require__(3598);
// EXTERNAL MODULE: ./src/common/deadline.ts
var deadline = __webpack_require__(673);
// EXTERNAL MODULE: ./src/common/text.ts
var common_text = __webpack_require__(2450);
// EXTERNAL MODULE: ./src/service/exchange.ts + 1 modules
var exchange = __webpack_require__(4944);
// EXTERNAL MODULE: ./src/transfer/link.ts
var transfer_link = __webpack_require__(3907);
;// CONCATENATED MODULE: ./src/transfer/download.ts








const MAX_REDIRECTS = 5;
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
/** Enough of an error body to read the storage's error code. */
const ERROR_BODY_BYTES = 4096;
async function download(options) {
    const bound = (0,deadline/* budget */.g)(options.clock, options.deadline, Number.MAX_SAFE_INTEGER);
    return (0,cancellation/* withTimeout */.wj)(options.clock, bound.ms, undefined, (outOfTime) => attempt(options, outOfTime));
}
async function attempt(options, outOfTime) {
    const stall = new StallWatch(options.clock, options.stallTimeoutMs);
    // A failure of the consumer stops the download with that failure as the reason: it passes
    // through as it is, never judged as a network failure.
    const consumer = new AbortController();
    const signal = AbortSignal.any([options.signal, stall.signal, consumer.signal, outOfTime]);
    let bytes = 0;
    try {
        const response = await get(options.url, options, signal);
        const contentLength = parseContentLength(response.headers['content-length']);
        const expected = options.expectedSize;
        if (expected !== undefined && contentLength !== undefined && contentLength !== expected) {
            response.destroy();
            if (contentLength > expected)
                throw sizeMismatch(contentLength, expected);
            throw truncated(contentLength, expected, 'the response announced only');
        }
        options.onResponse?.({ contentLength });
        bytes = await readBody(response, { ...options, signal }, stall, (error) => consumer.abort(error), (count) => (bytes = count));
        const whole = contentLength ?? expected;
        if (whole !== undefined && bytes < whole)
            throw truncated(bytes, whole, 'the body ended after');
        return { bytes, contentLength };
    }
    catch (error) {
        if (options.signal.aborted)
            throw options.signal.reason;
        if (consumer.signal.aborted)
            throw consumer.signal.reason;
        if (outOfTime.aborted)
            throw new retry/* AttemptError */.cb({ kind: 'network', code: 'ETIMEDOUT', message: `\`timeout\` ran out after ${bytes} bytes of the download` });
        if (stall.fired)
            throw new retry/* AttemptError */.cb({ kind: 'network', code: 'ESTALLED', message: `no data arrived for ${options.stallTimeoutMs} ms` });
        if (error instanceof transfer_link/* RefusedAddressError */.bT)
            throw new errors/* ActionError */.lZ(`${error.message}.`);
        if (error instanceof retry/* AttemptError */.cb || error instanceof errors/* ActionError */.lZ)
            throw error;
        const code = error?.code;
        throw new retry/* AttemptError */.cb({ kind: 'network', code, message: withoutQuery(error instanceof Error ? error.message : String(error), options.url) });
    }
    finally {
        stall.stop();
    }
}
/** GET the link, following a few redirects, each hop judged by the policy; resolves on 200. */
async function get(url, options, signal) {
    let target = new URL(url);
    for (let redirects = 0;; redirects++) {
        const refused = (0,transfer_link/* refuseLink */.VQ)(target, options.policy);
        if (refused !== undefined)
            throw new errors/* ActionError */.lZ(`${refused}.`);
        // Through a proxy, the proxy resolves the name; a direct connection checks where it leads.
        const lookup = (0,proxy/* getProxyUrl */.s)(target) === undefined ? (0,transfer_link/* guardedLookup */.rN)(options.policy, (0,transfer_link/* describeLink */.Ex)(target.href)) : undefined;
        const message = await (0,exchange/* send */.tN)(options.client, { url: target, method: 'GET', headers: { accept: '*/*', 'accept-encoding': 'identity' }, signal, lookup });
        const status = message.statusCode ?? 0;
        if (status === 200)
            return message;
        const location = message.headers.location;
        if (REDIRECT_STATUSES.has(status) && location !== undefined && redirects < MAX_REDIRECTS) {
            message.resume();
            target = new URL(location, target);
            continue;
        }
        throw new retry/* AttemptError */.cb({ kind: 'status', status, retryAfter: header(message.headers['retry-after']) }, `HTTP ${status}`, await storageErrorDetail(message, signal));
    }
}
/**
 * Feeds the body to `onChunk`, pausing the socket while it is busy; resolves with the byte count.
 * A stop (cancellation, stall, the consumer's failure) destroys the body at once; download() then
 * rejects with the stop's reason.
 */
function readBody(response, options, stall, consumerFailed, progress) {
    return new Promise((resolve, reject) => {
        let bytes = 0;
        let settled = false;
        const settle = (error) => {
            if (settled)
                return;
            settled = true;
            options.signal.removeEventListener('abort', stop);
            if (error === undefined)
                return resolve(bytes);
            response.destroy();
            reject(error);
        };
        const stop = () => settle(options.signal.reason);
        if (options.signal.aborted)
            return stop();
        options.signal.addEventListener('abort', stop, { once: true });
        /** The consumer's backpressure wait for the last chunk; the body counts as read only after it. */
        let busy;
        response.on('data', (chunk) => {
            if (settled)
                return;
            stall.touch();
            bytes += chunk.length;
            progress(bytes);
            if (options.expectedSize !== undefined && bytes > options.expectedSize)
                return settle(sizeMismatch(bytes, options.expectedSize, 'at least '));
            let wait;
            try {
                wait = options.onChunk(chunk);
            }
            catch (error) {
                return consumerFailed(error);
            }
            if (wait === undefined)
                return;
            // Our side is busy (disk, unpacking): that is no stall of the server's.
            response.pause();
            stall.pause();
            const current = wait.then(() => {
                if (busy === current)
                    busy = undefined;
                stall.touch();
                response.resume();
            }, consumerFailed);
            busy = current;
        });
        let ended = false;
        // 'end' may come while we are paused on the last chunk.
        response.on('end', () => {
            ended = true;
            void (busy ?? Promise.resolve()).then(() => settle());
        });
        response.on('error', (error) => settle(new retry/* AttemptError */.cb({ kind: 'network', code: error.code, message: `${error.message} after ${bytes} bytes` })));
        response.on('close', () => ended || settle(new retry/* AttemptError */.cb({ kind: 'network', code: 'ECONNRESET', message: `the connection closed after ${bytes} bytes` })));
    });
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
function header(value) {
    return Array.isArray(value) ? value[0] : value;
}
function truncated(bytes, whole, what) {
    return new retry/* AttemptError */.cb({ kind: 'network', code: 'ETRUNCATED', message: `${what} ${bytes} of ${whole} bytes` });
}
function sizeMismatch(bytes, expected, prefix = '') {
    return new errors/* ActionError */.lZ(`The bundle download is ${prefix}${bytes} bytes, but the bundle operation said the archive has ${expected} bytes: the link serves a different file`);
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
class DownloadProgress {
    log;
    clock;
    total;
    startedAt;
    lastReportAt;
    bytes = 0;
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
    add(bytes) {
        this.bytes += bytes;
        const now = this.clock.now();
        if (now - this.lastReportAt < REPORT_INTERVAL_MS)
            return;
        this.lastReportAt = now;
        const percent = this.total ? ` (${Math.floor((this.bytes / this.total) * 100)}%)` : '';
        const of = this.total !== undefined ? ` of ${(0,units/* formatBytes */.z3)(this.total)}` : '';
        this.log.progress(`Downloaded ${(0,units/* formatBytes */.z3)(this.bytes)}${of}${percent} at ${this.rate(now)}`);
    }
    /** "12.0 MiB in 3.1 s (3.9 MiB/s)" */
    summary() {
        const now = this.clock.now();
        return `${(0,units/* formatBytes */.z3)(this.bytes)} in ${((now - this.startedAt) / 1000).toFixed(1)} s (${this.rate(now)})`;
    }
    rate(now) {
        const seconds = (now - this.startedAt) / 1000;
        return seconds > 0 ? `${(0,units/* formatBytes */.z3)(this.bytes / seconds)}/s` : 'n/a';
    }
}

;// CONCATENATED MODULE: ./src/transfer/transfer.ts
/**
 * Downloads a bundle and, when asked, unpacks it into the site folder: retries through the one
 * retry loop, a fresh link when the old one is refused or expired, one more download for a
 * corrupt archive, and an all-or-nothing result on disk. The transfer owns the archive's file:
 * it names it, writes it as `.part`, gives it the extension of its format once the bytes tell,
 * and returns its final path.
 */














const TRANSFER_RETRY = { initialMs: 1000, maxMs: 15_000, maxAttempts: 4 };
/** No byte for this long = stalled: the attempt is abandoned and retried. */
const STALL_TIMEOUT_MS = 30_000;
/** A corrupt archive is downloaded once more; the same failure again is final. */
const DOWNLOADS_OF_A_CORRUPT_ARCHIVE = 2;
/** The archive's name without its extension. */
const ARCHIVE_NAME = 'bundle';
const EXTENSIONS = { zip: 'zip', 'tar.gz': 'tar.gz', tar: 'tar' };
/** Reads of an archive on disk. */
const LOCAL_CHUNK_BYTES = 1024 * 1024;
async function transferBundle(options) {
    const { log, clock, signal } = options;
    await prepareFolders(options);
    const state = { link: options.link, linkRefused: false, attempts: 0 };
    // Only its proxy-aware agent is used (see download.ts); no handler, so no Authorization header.
    const client = new lib/* HttpClient */.Qq('docs-admin-action');
    log.info(`Downloading the bundle from ${(0,transfer_link/* describeLink */.Ex)(state.link.url)}${state.link.sizeBytes !== undefined ? ` (${(0,units/* formatBytes */.z3)(state.link.sizeBytes)})` : ''}`);
    try {
        for (let downloads = 1;; downloads++) {
            let received;
            try {
                received = await (0,retry/* withRetries */.LH)(() => transfer_attempt(options, state, client), {
                    kind: 'idempotent',
                    policy: TRANSFER_RETRY,
                    clock,
                    signal,
                    deadline: options.deadline,
                    // A refused link (403) is worth another try: the next attempt asks for a fresh one.
                    alsoRetry: isLinkRefused,
                    onRetry: ({ retry, delayMs, error }) => log.warning(`Bundle download attempt ${retry} failed (${describeAttemptError(error)}); trying again${delayMs > 0 ? ` in ${(delayMs / 1000).toFixed(1)} s` : ''}`)
                });
            }
            catch (error) {
                if (error instanceof archive_errors/* CorruptArchiveError */.sC && downloads < DOWNLOADS_OF_A_CORRUPT_ARCHIVE) {
                    log.warning(`${error.message}. Downloading it once more.`);
                    continue;
                }
                throw finalError(error, state, downloads);
            }
            return { ...(await finish(options, received, state.inspector)), link: state.link, attempts: state.attempts };
        }
    }
    finally {
        client.dispose();
    }
}
/**
 * Unpacks an archive already on disk (a bundle kept in the tool cache) as a download would be:
 * the same receiver, checks, staging and swap, and the same archive file in `archiveFolder`.
 * A CorruptArchiveError says the copy is bad (the caller downloads instead).
 */
async function unpackLocalBundle(file, options) {
    const { log, signal } = options;
    await prepareFolders(options);
    const inspector = options.inspect?.();
    const stop = new AbortController();
    const onCancel = () => stop.abort(new errors/* CancelledError */.cc());
    signal?.addEventListener('abort', onCancel, { once: true });
    let receiver;
    try {
        receiver = await ArchiveReceiver.open({
            partFile: partFileOf(options),
            siteDir: options.siteDir,
            log,
            onFatal: (error) => stop.abort(error),
            signal: stop.signal,
            limits: options.limits,
            inspector
        });
        for await (const chunk of (0,external_node_fs_.createReadStream)(file, { highWaterMark: LOCAL_CHUNK_BYTES, signal: stop.signal })) {
            await receiver.write(chunk);
        }
        const received = await receiver.complete();
        log.info(`Read the bundle from ${file}: ${(0,units/* formatBytes */.z3)(received.sizeBytes)}, sha256 ${received.sha256}`);
        return await finish(options, received, inspector);
    }
    catch (error) {
        const cause = stop.signal.aborted ? stop.signal.reason : error;
        if (!stop.signal.aborted)
            stop.abort(cause);
        await receiver?.discard();
        throw cause;
    }
    finally {
        signal?.removeEventListener('abort', onCancel);
    }
}
/** The archive's folder made, and what an earlier run left beside the site swept away. */
async function prepareFolders(options) {
    (0,errors/* throwIfCancelled */.dZ)(options.signal);
    await (0,promises_.mkdir)(options.archiveFolder, { recursive: true }).catch((error) => {
        throw (0,archive_errors/* writeFailure */.EU)(error, `the folder ${options.archiveFolder} for the bundle`);
    });
    if (options.siteDir !== undefined)
        await sweepStaleFolders(options.siteDir, options.log, options.signal);
}
/** One attempt: a fresh `.part`, hash and staging folder; everything removed again if it fails. */
async function transfer_attempt(options, state, client) {
    const { log, clock, signal } = options;
    state.attempts++;
    (0,errors/* throwIfCancelled */.dZ)(signal);
    if (state.linkRefused || (0,transfer_link/* isExpired */._d)(state.link, clock.now())) {
        log.info(state.linkRefused ? 'The bundle link was refused (HTTP 403); asking for a fresh one' : 'The bundle link has expired; asking for a fresh one');
        state.link = await freshLink(options);
        state.linkRefused = false;
    }
    // Stops this attempt, with the reason as the error: the user's cancellation, or an unpacking
    // failure another download would not cure.
    const stop = new AbortController();
    const onCancel = () => stop.abort(new errors/* CancelledError */.cc());
    signal?.addEventListener('abort', onCancel, { once: true });
    let receiver;
    try {
        (0,errors/* throwIfCancelled */.dZ)(signal);
        receiver = await ArchiveReceiver.open({
            partFile: partFileOf(options),
            siteDir: options.siteDir,
            log,
            onFatal: (error) => stop.abort(error),
            signal: stop.signal,
            limits: options.limits,
            inspector: (state.inspector = options.inspect?.())
        });
        const opened = receiver;
        const progress = new DownloadProgress(log, clock, state.link.sizeBytes);
        await download({
            url: state.link.url,
            client,
            clock,
            signal: stop.signal,
            stallTimeoutMs: STALL_TIMEOUT_MS,
            expectedSize: state.link.sizeBytes,
            policy: options.policy,
            deadline: options.deadline,
            onResponse: ({ contentLength }) => progress.setTotal(contentLength),
            onChunk: (chunk) => {
                progress.add(chunk.length);
                return opened.write(chunk);
            }
        });
        const received = await receiver.complete();
        (0,errors/* throwIfCancelled */.dZ)(signal);
        log.info(`Downloaded ${progress.summary()}, sha256 ${received.sha256}`);
        return received;
    }
    catch (error) {
        // The reason we stopped for (cancellation, unsafe entry) wins over how the stop surfaced.
        const cause = stop.signal.aborted ? stop.signal.reason : error;
        if (!stop.signal.aborted)
            stop.abort(cause);
        await receiver?.discard(signal?.aborted === true);
        if (cause instanceof retry/* AttemptError */.cb && isLinkRefused(cause.failure)) {
            state.linkRefused = true;
            // Retry-After 0: no backoff is needed before asking for a fresh link.
            throw new retry/* AttemptError */.cb({ kind: 'status', status: 403, retryAfter: '0' }, cause.message, cause.detail);
        }
        throw cause;
    }
    finally {
        signal?.removeEventListener('abort', onCancel);
    }
}
/**
 * Names the whole archive by its format (dropping an earlier run's of another format), has the
 * staged site reviewed, then swaps it in.
 */
async function finish(options, received, inspector) {
    const { log, siteDir } = options;
    const { staging, counts } = received;
    const archiveFile = archiveFileOf(options, received.format);
    try {
        (0,errors/* throwIfCancelled */.dZ)(options.signal);
        await (0,promises_.rename)(partFileOf(options), archiveFile);
        for (const format of Object.keys(EXTENSIONS)) {
            if (format !== received.format)
                await (0,promises_.rm)(archiveFileOf(options, format), { force: true });
        }
        if (siteDir !== undefined && staging !== undefined) {
            await inspector?.review(staging);
            await swapIntoPlace(staging, siteDir, { entries: received.entries, signal: options.signal });
        }
    }
    catch (error) {
        const how = { cancelled: options.signal?.aborted === true, entries: received.entries };
        await Promise.all([removeQuietly(partFileOf(options)), staging === undefined || siteDir === undefined ? undefined : discardFolder(staging, siteDir, how)]);
        throw (0,archive_errors/* writeFailure */.EU)(error, siteDir === undefined ? `the bundle file ${archiveFile}` : `the site into ${siteDir}`);
    }
    if (siteDir !== undefined && counts !== undefined) {
        const extras = [
            counts.symlinks ? `${counts.symlinks} symlinks` : '',
            counts.hardlinks ? `${counts.hardlinks} hardlinks` : '',
            counts.skipped ? `${counts.skipped} entries skipped` : ''
        ].filter(Boolean);
        log.info(`Unpacked the ${received.format} bundle into ${siteDir}: ${[`${counts.files} files`, `${counts.directories} folders`, ...extras].join(', ')}`);
    }
    return {
        archiveFile,
        siteDir,
        sha256: received.sha256,
        sizeBytes: received.sizeBytes,
        format: received.format
    };
}
async function freshLink(options) {
    try {
        const link = await options.refreshLink();
        (0,errors/* throwIfCancelled */.dZ)(options.signal);
        return link;
    }
    catch (error) {
        if (error instanceof errors/* CancelledError */.cc || error instanceof errors/* ActionError */.lZ)
            throw error;
        // Not an AttemptError any more: the bundle operation has had its own retries.
        throw new errors/* ActionError */.lZ(`Could not get a fresh bundle link: ${(0,errors/* errorMessage */.gJ)(error)}`, { cause: error });
    }
}
function isLinkRefused(failure) {
    return failure.kind === 'status' && failure.status === 403;
}
function describeAttemptError(error) {
    return error.detail ? `${(0,failure/* describeFailure */.Ic)(error.failure)}: ${error.detail}` : error.message;
}
/** The error the step fails with, written for the user. */
function finalError(error, state, downloads) {
    const where = (0,transfer_link/* describeLink */.Ex)(state.link.url);
    if (error instanceof archive_errors/* CorruptArchiveError */.sC) {
        return new errors/* ActionError */.lZ(`${error.message}. It was downloaded ${downloads} times and could not be unpacked either time.`, { cause: error });
    }
    if (!(error instanceof retry/* AttemptError */.cb))
        return error;
    const tries = `${state.attempts} attempt${state.attempts === 1 ? '' : 's'}`;
    const why = describeAttemptError(error);
    const hint = isLinkRefused(error.failure) ? ' The storage refused the link even after a fresh one was requested.' : '';
    const stopped = error.stoppedByDeadline ? ' Stopped retrying: the next wait would pass the step timeout.' : '';
    return new errors/* ActionError */.lZ(`Could not download the bundle from ${where} (${tries}): ${why}.${hint}${stopped}`, { cause: error });
}
function partFileOf(options) {
    return (0,external_node_path_.join)(options.archiveFolder, `${ARCHIVE_NAME}.part`);
}
function archiveFileOf(options, format) {
    return (0,external_node_path_.join)(options.archiveFolder, `${ARCHIVE_NAME}.${EXTENSIONS[format]}`);
}


/***/ })

};
