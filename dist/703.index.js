export const id = 703;
export const ids = [703];
export const modules = {

/***/ 5703:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

// ESM COMPAT FLAG
__webpack_require__.r(__webpack_exports__);

// EXPORTS
__webpack_require__.d(__webpack_exports__, {
  archiveBound: () => (/* binding */ archiveBound),
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
// EXTERNAL MODULE: external "node:v8"
var external_node_v8_ = __webpack_require__(8877);
var external_node_v8_default = /*#__PURE__*/__webpack_require__.n(external_node_v8_);
// EXTERNAL MODULE: external "node:vm"
var external_node_vm_ = __webpack_require__(714);
var external_node_vm_default = /*#__PURE__*/__webpack_require__.n(external_node_vm_);
;// CONCATENATED MODULE: ./src/common/buffer-garbage.ts
/**
 * A young-generation collection after every so many bytes of short-lived buffers, and a full one
 * when the buffers still held keep growing.
 *
 * Why: V8 collects a thread's garbage as its JavaScript heap fills, and a stream of buffers leaves
 * little there (a small object per buffer) and its bytes outside it. A download's dead chunks and
 * inflated pieces therefore wait for V8's external-memory trigger, which runs a full collection
 * after tens of MiB. Measured on the 3,000-page tar.gz benchmark bundle (main thread): about 16
 * full collections a run with the buffers swinging between 7 and 40 MiB, peak RSS 120-127 MiB; with
 * a young collection after every MiB downloaded, one full collection and 101-106 MiB. A young
 * collection of a heap this small takes well under a millisecond.
 *
 * A young collection frees only buffers that die young. One that waited a while (a chunk queued
 * for the `.part` file or the writer thread while the disk was behind) has moved to the old
 * generation, where only a full collection frees it, and V8 runs one only after tens of MiB of
 * them: on the 1 GiB zip the buffers held rose to 51 MiB near the end. So after a young collection
 * the collector looks at the bytes of buffers still held, and runs a full collection once they are
 * `fullAfterBytes` above what the last full one left. On the 1 GiB zip (two writer threads then),
 * a 16 MiB budget took peak RSS from 150-175 MiB to 140-146; with one thread, 8 MiB instead of
 * 16 took it from 117-122 to 109-117, for the same time. A full collection of these heaps takes a
 * few ms, and the budget keeps it rare.
 *
 * Self-contained: the writer threads run it from its source text (see DiskThreads), so it uses
 * nothing from outside its body but globals, and gets node's modules as arguments.
 */


/**
 * The main thread's collector: counts the download's bytes, and whatever else leaves garbage in
 * bulk (see ZipFile). Every MiB is a trade of time for memory, and the memory bound decides it:
 * every 4 MiB made the 3,000-page zip ~10% faster (~100 fewer collections, ~75 ms less pause)
 * and raised its peak RSS by 11 MiB, the tar.gz's by 21 MiB (Node 20, 6 alternating runs).
 */
const collectMainThreadGarbage = bufferCollector((external_node_v8_default()), (external_node_vm_default()), 1024 * 1024, 8 * 1024 * 1024);
// A collection finds the dead buffers, and by default a background task frees their bytes later.
// With both cores busy unpacking, that task lags behind and the freed bytes pile up: on Node 24,
// what GitHub runs, peak RSS was 137-154 MiB on the 3,000-page zip and 163-188 MiB on the 1 GiB
// zip; freed within the collection, 126-131 and 136-143 MiB (Node 20's 1 GiB zip: 116-118 -> 110),
// for the same time. The setting is process-wide (the writer threads' collections too) and read at
// each collection, so setting it once, when this module loads (before any unpacking), is enough.
// Not every flag is safe to change once V8 runs: `--no-parallel-marking` (with the other parallel
// collection settings) set the same way made V8 abort while marking (Node 20). Any other one
// needs the whole suite and the benchmark on both Nodes before it is set here.
try {
    external_node_v8_default().setFlagsFromString('--no-concurrent-array-buffer-sweeping');
}
catch {
    // A node without the setting frees buffers its own way.
}
function bufferCollector(v8, vm, everyBytes, fullAfterBytes) {
    let since = 0;
    /** The bytes of buffers held after the last full collection (none yet: nothing). */
    let heldAfterFull = 0;
    /** null: not looked up yet; undefined: not available (then nothing is collected by hand). */
    let collect = null;
    return (bytes) => {
        since += bytes;
        if (since < everyBytes)
            return;
        since = 0;
        if (collect === null) {
            try {
                // gc() is exposed to one new context only: the flag is set for the moment that takes.
                v8.setFlagsFromString('--expose-gc');
                try {
                    collect = vm.runInNewContext('gc');
                }
                finally {
                    v8.setFlagsFromString('--no-expose-gc');
                }
            }
            catch {
                collect = undefined;
            }
        }
        if (collect === undefined)
            return;
        collect({ type: 'minor' });
        if (process.memoryUsage().arrayBuffers <= heldAfterFull + fullAfterBytes)
            return;
        // gc() with no options is a full collection.
        collect();
        heldAfterFull = process.memoryUsage().arrayBuffers;
    };
}

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
    return (head.length >= FORMAT_SNIFF_BYTES &&
        Buffer.from(head.buffer, head.byteOffset + 257, 5).toString('latin1') === 'ustar');
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

// EXTERNAL MODULE: ./src/common/units.ts
var units = __webpack_require__(8570);
// EXTERNAL MODULE: external "node:worker_threads"
var external_node_worker_threads_ = __webpack_require__(5919);
// EXTERNAL MODULE: ./src/common/file-names.ts
var file_names = __webpack_require__(7750);
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
/**
 * Characters of paths looked up while resolving all of an archive's symlinks: ~0.1 s of work. A
 * site's few short links take thousands; an archive past this is built to stall the step.
 */
const MAX_SYMLINK_WORK = 20_000_000;
/** NAME_MAX of Linux, macOS and Windows file systems: longer names cannot be created anywhere. */
const MAX_SEGMENT_BYTES = 255;
/** PATH_MAX of Linux: a longer entry path cannot be created below any folder. */
const MAX_PATH_BYTES = 4096;
/** A symlink's target is a path: no longer than PATH_MAX. Zip stores it as content, read only up to this. */
const MAX_LINK_TARGET_BYTES = 4096;
/**
 * What all of an archive's symlink targets may add up to. Each is held until the symlinks are
 * checked against the final tree (they are created last), and a zip deflates a 4 KiB target to a
 * few dozen bytes: without this bound, a 110 MiB zip of a million such links would hold 4 GiB
 * before the end. A site's links name a few dozen bytes each: this is hundreds of thousands.
 */
const MAX_LINK_TARGETS_BYTES = 16 * 1024 * 1024;
/**
 * The most entries an archive may hold, and paths the index may hold: far above any real site
 * (each costs an inode and some memory in the index), far below what would exhaust either.
 */
const MAX_SITE_ENTRIES = 1_000_000;
/**
 * What the paths the index holds may add up to, in characters. Each is held here (and a folder's
 * in its writer thread) until the end: 4,000-character paths (each name under 255) took ~8 KiB
 * of heap an entry, so a tar.gz of 27 MiB could exhaust the heap within the entry bound. A site
 * of 100,000 pages holds ~8 Mi.
 */
const MAX_PATH_CHARACTERS = 64 * 1024 * 1024;
/**
 * Segments Windows reads as `.` or `..` (it drops trailing dots and spaces: `.. ` is `..`), or
 * as nothing at all. `.` and `..` themselves are handled before this is asked.
 */
const DOTS_AND_SPACES = /^[. ]+$/;
const NON_ASCII = /[\u0080-\uffff]/;
/**
 * A name of plain segments, one `/` between them: letters, digits, `_`, `-` and dots, no segment
 * starting with a dot, none over NAME_MAX. No refusal can apply to it but the path's length, and
 * it is its own path: the entries of a generated site mostly are such, and skip the checks of
 * each segment (30,000 of them took ~45 ms of the reader's time).
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
        throw new archive_errors/* UnsafeEntryError */.vF(name, 'has an absolute path');
    const segments = [];
    for (const segment of name.split(SEPARATORS)) {
        if (segment === '' || segment === '.')
            continue;
        if (segment === '..')
            throw new archive_errors/* UnsafeEntryError */.vF(name, 'has a ".." path segment');
        if (DOTS_AND_SPACES.test(segment))
            throw new archive_errors/* UnsafeEntryError */.vF(name, `has the path segment ${JSON.stringify(segment)}, which Windows reads as "." or ".."`);
        // Made only of code points HFS+ ignores (and dots): macOS reads it as no name at all, and as a
        // path it would fold to its parent's (the index would then know one file under two keys).
        if (NON_ASCII.test(segment) && (0,file_names/* foldPath */.t)(segment) === '') {
            throw new archive_errors/* UnsafeEntryError */.vF(name, `has the path segment ${JSON.stringify(segment)}, which macOS reads as no name at all`);
        }
        if ((0,file_names/* isGitFolderName */.a)(segment))
            throw new archive_errors/* UnsafeEntryError */.vF(name, 'has a ".git" path segment: a repository\'s control folder is never unpacked');
        if (Buffer.byteLength(segment) > MAX_SEGMENT_BYTES)
            throw new archive_errors/* UnsafeEntryError */.vF(name, `has a name longer than ${MAX_SEGMENT_BYTES} bytes, more than file systems allow`);
        segments.push(segment);
    }
    const joined = segments.join('/');
    // The name itself when it was in this form already (it is kept for every entry).
    const path = joined === name ? name : joined;
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
/** The folder of an entry path ('' for one at the root). */
function parentOf(path) {
    const slash = path.lastIndexOf('/');
    return slash < 0 ? '' : path.slice(0, slash);
}
/**
 * What the archive has put where so far, in archive order. Each `add*` checks one entry against
 * the entries before it and returns the entry path to write; `symlinksToCreate()` checks every
 * symlink against the final tree. The writer creates symlinks only after that, so nothing is ever
 * written through a link.
 *
 * Rules: no entry under a symlink; a hardlink only to a regular file seen earlier; a file and a
 * directory may not share a path; otherwise the later entry at a path wins. "A path" is a folded
 * one (see foldPath): `A` and `a` are one path, as a case-insensitive file system sees them.
 *
 * Twins are written as such a file system (macOS, Windows) leaves them, so that the site is the
 * same on every runner: a folder keeps the spelling it was first given, and everything below it
 * is written under that spelling (`Guides/a.html` then `guides/b.html` is one folder `Guides`);
 * a file takes the spelling of the entry that wrote it last (`Index.html` then `index.html`
 * leaves `index.html` alone), the earlier spelling being removed first (Claim.replaces).
 */
class EntryIndex {
    /** Folded path -> what is there. */
    nodes = new Map([['', { kind: 'dir', path: '' }]]);
    /** Folded paths of the symlinks still standing (a later file at the same path replaces one). */
    symlinks = new Set();
    /** The bytes of every symlink target seen so far, replaced ones too (see MAX_LINK_TARGETS_BYTES). */
    linkTargetBytes = 0;
    /** Paths held (entries and the folders their paths imply) and their characters. */
    paths = 0;
    pathCharacters = 0;
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
    bounds;
    /** Returns the directory's path (as first spelled), '' for the root. */
    addDirectory(name) {
        const spelled = entryPath(name);
        const key = (0,file_names/* foldPath */.t)(spelled);
        const existing = this.nodes.get(key);
        if (existing?.kind === 'dir')
            return existing.path;
        const path = this.claimParents(spelled, name);
        if (existing?.kind === 'file')
            throw new archive_errors/* UnsafeEntryError */.vF(name, 'is a directory where an earlier entry is a file');
        if (existing === undefined)
            this.hold(1, path.length, name);
        // An earlier symlink here is replaced: it exists only in this index until the very end.
        this.symlinks.delete(key);
        this.nodes.set(key, { kind: 'dir', path });
        return path;
    }
    addFile(name) {
        const claim = this.claimLeaf(name);
        this.nodes.set(claim.key, { kind: 'file', path: claim.path });
        return { path: claim.path, replaces: claim.replaces };
    }
    /** The path a file entry written earlier is at (its mode may come after its content). */
    fileAt(name) {
        const node = this.nodes.get((0,file_names/* foldPath */.t)(entryPath(name)));
        return node?.kind === 'file' ? node.path : undefined;
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
        const claim = this.claimLeaf(name);
        if (claim.key === targetKey)
            throw new archive_errors/* UnsafeEntryError */.vF(name, 'is a hardlink to itself');
        this.nodes.set(claim.key, { kind: 'file', path: claim.path });
        return { path: claim.path, replaces: claim.replaces, targetPath: targetNode.path };
    }
    addSymlink(name, target) {
        checkText(name, target, 'link target');
        if (target === '')
            throw new archive_errors/* UnsafeEntryError */.vF(name, 'is a symlink with an empty target');
        const targetBytes = Buffer.byteLength(target);
        if (targetBytes > MAX_LINK_TARGET_BYTES)
            throw new archive_errors/* UnsafeEntryError */.vF(name, `is a symlink whose target is longer than ${MAX_LINK_TARGET_BYTES} bytes`);
        this.linkTargetBytes += targetBytes;
        if (this.linkTargetBytes > MAX_LINK_TARGETS_BYTES) {
            throw new archive_errors/* UnsafeEntryError */.vF(name, `is a symlink past ${MAX_LINK_TARGETS_BYTES / 1024 / 1024} MiB of symlink targets in the archive, far more than a site's links name`);
        }
        if (ABSOLUTE.test(target))
            throw new archive_errors/* UnsafeEntryError */.vF(name, `is a symlink to the absolute path ${JSON.stringify(target)}`);
        for (const segment of target.split(SEPARATORS)) {
            if (segment !== '.' && segment !== '..' && DOTS_AND_SPACES.test(segment)) {
                throw new archive_errors/* UnsafeEntryError */.vF(name, `is a symlink to ${JSON.stringify(target)}, which has a segment Windows reads as "." or ".."`);
            }
            if (Buffer.byteLength(segment) > MAX_SEGMENT_BYTES)
                throw new archive_errors/* UnsafeEntryError */.vF(name, `is a symlink to a name longer than ${MAX_SEGMENT_BYTES} bytes, which no file system has`);
        }
        const claim = this.claimLeaf(name, 'symlink');
        // Fail fast on the plain case; chains through other links are checked once all are known.
        if (resolveLexically(parentOf(claim.path), target) === undefined) {
            throw new archive_errors/* UnsafeEntryError */.vF(name, `is a symlink to ${JSON.stringify(target)}, outside the site folder`);
        }
        this.nodes.set(claim.key, { kind: 'symlink', path: claim.path, target, entryName: name });
        this.symlinks.add(claim.key);
        return { path: claim.path, replaces: claim.replaces };
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
                throw new archive_errors/* UnsafeEntryError */.vF(entryName, `is a symlink, and the archive's symlinks lead through each other more than a site's would (over ${MAX_SYMLINK_WORK / 1_000_000} million characters of paths looked up)`);
            }
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
    claimLeaf(name, kind = 'other') {
        const spelled = entryPath(name);
        if (spelled === '')
            throw new archive_errors/* UnsafeEntryError */.vF(name, 'has an empty path');
        const path = this.claimParents(spelled, name);
        const key = (0,file_names/* foldPath */.t)(spelled);
        // The path as written must be known under the key it is checked under (see entryPath).
        if (path !== spelled && (0,file_names/* foldPath */.t)(path) !== key)
            throw new archive_errors/* UnsafeEntryError */.vF(name, "has a path that its folders' first spelling would change");
        const existing = this.nodes.get(key);
        if (existing?.kind === 'dir')
            throw new archive_errors/* UnsafeEntryError */.vF(name, 'would replace a directory');
        if (existing === undefined)
            this.hold(1, path.length, name);
        this.symlinks.delete(key);
        // An earlier symlink exists only in this index until the very end; an earlier file is on disk.
        // A symlink's file goes now even at the same spelling: a later folder there must not find it in its way.
        const replaced = existing?.kind === 'file' && (kind === 'symlink' || existing.path !== path);
        return { path, key, replaces: replaced ? existing.path : undefined };
    }
    /**
     * Counts `added` new paths of `characters` in all against the index's bounds: a folder that a
     * deep path implies is no entry of the archive, but it is made on disk and held here all the same.
     */
    hold(added, characters, name) {
        const unchanged = 'Nothing was unpacked into the site folder, and the previous site was left as it was.';
        if (this.paths + added > this.bounds.paths) {
            throw new archive_errors/* SiteLimitError */.ly(`The bundle makes more than ${this.bounds.paths.toLocaleString('en-US')} files and folders, the most the action unpacks: the entry ${JSON.stringify(name)} takes it past that (the folders its path implies count too). ${unchanged}`);
        }
        if (this.pathCharacters + characters > this.bounds.pathCharacters) {
            throw new archive_errors/* SiteLimitError */.ly(`The bundle's paths add up to more than ${this.bounds.pathCharacters.toLocaleString('en-US')} characters, far more than a site's: the entry ${JSON.stringify(name)} takes them past that. ${unchanged}`);
        }
        this.paths += added;
        this.pathCharacters += characters;
    }
    /**
     * Every ancestor becomes a directory; none may be a symlink (that would write through it) or a
     * file. Returns `path` below its folder as first spelled.
     */
    claimParents(path, name) {
        const newDirectories = [];
        // Ancestors of a known directory are known directories: the common case costs one lookup.
        let parent = parentOf(path);
        let folder;
        for (;;) {
            const key = (0,file_names/* foldPath */.t)(parent);
            const node = this.nodes.get(key);
            if (node?.kind === 'dir') {
                folder = node.path;
                break;
            }
            if (node?.kind === 'symlink')
                throw new archive_errors/* UnsafeEntryError */.vF(name, `would be written through the symlink ${JSON.stringify(node.entryName)}`);
            if (node?.kind === 'file')
                throw new archive_errors/* UnsafeEntryError */.vF(name, `is inside ${JSON.stringify(node.path)}, which an earlier entry made a file`);
            newDirectories.push({ key, spelled: parent });
            parent = parentOf(parent);
        }
        // Below the known folder, as this entry spells it; the folder as it was first spelled. (No
        // closure for this: capturing the loop's variables made every entry ~60% slower.)
        if (newDirectories.length > 0) {
            let characters = 0;
            for (const directory of newDirectories)
                characters += directory.spelled.length;
            this.hold(newDirectories.length, characters, name);
        }
        const same = parent === '' || folder === parent;
        for (const directory of newDirectories)
            this.nodes.set(directory.key, {
                kind: 'dir',
                path: same ? directory.spelled : folder + directory.spelled.slice(parent.length)
            });
        return same ? path : folder + path.slice(parent.length);
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

;// CONCATENATED MODULE: ./src/archive/writer-thread.ts
/**
 * The program of one writer thread (see DiskThreads, which starts them and feeds them), and what
 * crosses between it and the main thread: operations in batches, each batch's bytes in an arena
 * moved with it, and replies (the arena handed back, a failure, files shown to the main thread's
 * observer, what the thread's own observer found).
 */

/**
 * A thread collects its young garbage after inflating this much (see bufferCollector). On the
 * 3,000-page zip, 2 MiB instead of 8 left the peak RSS at 141 instead of 152 MiB (median of 10
 * alternating runs) for the same wall time.
 */
const INFLATED_BYTES_PER_COLLECTION = 2 * 1024 * 1024;
/** A thread's full collection once the buffers it holds grow by this much (see bufferCollector). */
const HELD_BYTES_PER_FULL_COLLECTION = 8 * 1024 * 1024;
// Operation codes, the same in the thread's switch (diskThread runs from its source text and cannot refer to them).
const DIRECTORY = 1;
const FILE = 2;
const INFLATE = 3;
const OPEN = 4;
const WRITE = 5;
const CLOSE = 6;
const HARDLINK = 7;
const SYMLINK = 8;
const CHMOD = 9;
const REMOVE = 10;
/**
 * A small entry's content as it may be written: deflated data inflated to exactly `inflatedSize`
 * bytes (-1: the data is stored as it is), then checked against the CRC-32 its archive gives (-1:
 * none to check); damaged data is never written. Throws an error marked `corrupt` whose message
 * completes "the entry <name> ...". Used by the writer threads and, while they are behind, beside
 * the reader (see SiteWriter.fileInMemory): self-contained, so that the threads can run it from its
 * source text, with node's zlib as an argument.
 */
function checkedContent(zlib, data, inflatedSize, crc) {
    const corrupt = (message) => Object.assign(new Error(message), { corrupt: true });
    let content = data;
    if (inflatedSize !== -1) {
        const size = inflatedSize;
        try {
            // Never more than the entry declares: a bomb stops at its declared size plus one byte.
            // One output buffer of the declared size (plus the byte that tells a bomb): no pieces to join.
            content = zlib.inflateRawSync(data, { chunkSize: Math.max(64, size + 1), maxOutputLength: size + 1 });
        }
        catch (error) {
            if (error.code === 'ERR_BUFFER_TOO_LARGE')
                throw corrupt(`holds more than the ${size} bytes it declares`);
            throw corrupt(`does not inflate (${error instanceof Error ? error.message : String(error)})`);
        }
        if (content.length !== size)
            throw corrupt(`holds ${content.length > size ? 'more' : `${content.length} bytes, fewer`} than the ${size} bytes it declares`);
    }
    if (crc !== -1 && zlib.crc32(content) !== crc)
        throw corrupt('holds data that does not match its CRC-32 (the archive is damaged)');
    return content;
}
/**
 * A thread's program, run from its source text: it may use nothing from outside its body, and
 * gets node's modules as arguments. `makeObserver` (or undefined) makes the thread's observer of
 * the files written from memory (see SiteInspector.threadObserver).
 */
function diskThread(fs, zlib, port, setup, makeObserver, collectGarbage, contentOf) {
    const { root, stop } = setup;
    const observer = makeObserver?.();
    /** Folders (site paths) this thread knows to exist; '' is the root. */
    const made = new Set(['']);
    /** Open streamed files: id -> descriptor. */
    const streams = new Map();
    let failed = false;
    /** Inflated bytes of the batch under way: garbage once written (see bufferCollector). */
    let inflatedInBatch = 0;
    /** Files of the batch under way inflated for the main thread's observer, and their paths. */
    let sendBack = [];
    let sendBackPaths = [];
    /** Keeps an inflated file for the reply (packed with the batch's others, see InflatedFiles). */
    function giveBack(path, content) {
        sendBack.push(content);
        sendBackPaths.push(path);
    }
    /** The batch's files for the main thread's observer, in one buffer; undefined when there are none. */
    function packSendBack() {
        if (sendBack.length === 0)
            return undefined;
        const ends = new Int32Array(sendBack.length);
        let at = 0;
        for (let i = 0; i < sendBack.length; i++)
            ends[i] = at += sendBack[i].length;
        const bytes = new Uint8Array(at);
        for (let i = 0; i < sendBack.length; i++)
            bytes.set(sendBack[i], i === 0 ? 0 : ends[i - 1]);
        const packed = { paths: sendBackPaths, ends, bytes };
        sendBack = [];
        sendBackPaths = [];
        return packed;
    }
    const absolute = (path) => (path === '' ? root : `${root}/${path}`);
    const parentOf = (path) => path.slice(0, Math.max(0, path.lastIndexOf('/')));
    const codeOf = (error) => error?.code;
    function ensureFolder(path) {
        if (made.has(path))
            return;
        ensureFolder(parentOf(path));
        const target = absolute(path);
        try {
            fs.mkdirSync(target);
        }
        catch (error) {
            // Another thread made it (folders are shared by their files' threads); never anything else.
            if (codeOf(error) !== 'EEXIST' || !fs.lstatSync(target).isDirectory())
                throw error;
        }
        made.add(path);
    }
    /** An exclusive create; an existing file or link there is unlinked and the create made anew, a folder never. */
    function exclusive(target, create) {
        try {
            return create();
        }
        catch (error) {
            if (codeOf(error) !== 'EEXIST')
                throw error;
        }
        if (fs.lstatSync(target).isDirectory())
            throw new Error(`Cannot replace the folder ${target} with a file`);
        fs.unlinkSync(target);
        return create();
    }
    function writeAll(fd, bytes) {
        for (let done = 0; done < bytes.length;)
            done += fs.writeSync(fd, bytes, done, bytes.length - done);
    }
    function writeFile(path, mode, content, observe) {
        ensureFolder(parentOf(path));
        const target = absolute(path);
        const fd = exclusive(target, () => fs.openSync(target, 'wx', mode));
        try {
            writeAll(fd, content);
        }
        finally {
            fs.closeSync(fd);
        }
        if (observe)
            observer?.observe(path, content);
    }
    function run(op, data) {
        const code = op[0];
        const bytes = (start, end) => data.subarray(start, end);
        switch (code) {
            case 1: // DIRECTORY path name
                ensureFolder(op[1]);
                return;
            case 2: {
                // FILE path name mode start end observe crc (-1: none to check)
                const content = contentOf(zlib, bytes(op[4], op[5]), -1, op[7]);
                writeFile(op[1], op[3], content, op[6] === 1);
                return;
            }
            case 3: {
                // INFLATE path name mode start end size observe (1: here, 2: on the main thread) crc
                const content = contentOf(zlib, bytes(op[4], op[5]), op[6], op[8]);
                inflatedInBatch += content.length;
                writeFile(op[1], op[3], content, op[7] === 1);
                if (op[7] === 2)
                    giveBack(op[1], content);
                return;
            }
            case 4: {
                // OPEN path name mode id
                const path = op[1];
                ensureFolder(parentOf(path));
                const target = absolute(path);
                streams.set(op[4], exclusive(target, () => fs.openSync(target, 'wx', op[3])));
                return;
            }
            case 5: // WRITE id name start end
                writeAll(streams.get(op[1]), bytes(op[3], op[4]));
                return;
            case 6: {
                // CLOSE id name
                const fd = streams.get(op[1]);
                streams.delete(op[1]);
                fs.closeSync(fd);
                return;
            }
            case 7: {
                // HARDLINK path name target
                const path = op[1];
                ensureFolder(parentOf(path));
                const target = absolute(path);
                exclusive(target, () => fs.linkSync(absolute(op[3]), target));
                return;
            }
            case 8: {
                // SYMLINK path name linkTarget
                const path = op[1];
                ensureFolder(parentOf(path));
                const target = absolute(path);
                exclusive(target, () => fs.symlinkSync(op[3], target));
                return;
            }
            case 9: // CHMOD path name mode (a file this unpacking created; no symlink exists yet)
                fs.chmodSync(absolute(op[1]), op[3]);
                return;
            case 10: // REMOVE path name (a file this unpacking created, replaced by a twin of its name)
                try {
                    fs.unlinkSync(absolute(op[1]));
                }
                catch (error) {
                    // Gone already is as good: the point is that it is not there.
                    if (codeOf(error) !== 'ENOENT')
                        throw error;
                }
                return;
            default:
                throw new Error(`unknown operation ${code}`);
        }
    }
    function closeAll() {
        for (const fd of streams.values()) {
            try {
                fs.closeSync(fd);
            }
            catch {
                // Closing after a failure: the failure is what is reported.
            }
        }
        streams.clear();
    }
    port.on('message', (message) => {
        if (message.collect !== undefined) {
            port.postMessage({ observed: observer?.result(message.collect) });
            return;
        }
        const data = message.arena === undefined ? undefined : Buffer.from(message.arena);
        let failure;
        for (const op of message.ops ?? []) {
            if (failed || Atomics.load(stop, 0) !== 0)
                break;
            try {
                run(op, data);
            }
            catch (error) {
                failed = true;
                const entry = op[2] ?? op[1];
                failure = {
                    message: error instanceof Error ? error.message : String(error),
                    code: codeOf(error),
                    syscall: error.syscall,
                    corrupt: error.corrupt === true,
                    entry: typeof entry === 'string' ? entry : ''
                };
            }
        }
        if (failed || Atomics.load(stop, 0) !== 0)
            closeAll();
        // Packed first: the files' own buffers are then garbage for the collection.
        const inflatedFiles = packSendBack();
        collectGarbage(inflatedInBatch);
        inflatedInBatch = 0;
        // The arena goes back for the next batch: no new memory per batch on either side.
        const transfer = inflatedFiles === undefined
            ? []
            : [inflatedFiles.bytes.buffer, inflatedFiles.ends.buffer];
        if (message.arena !== undefined)
            transfer.push(message.arena);
        port.postMessage({ failure, arena: message.arena, inflated: inflatedFiles }, transfer);
    });
}
/** The thread's whole program: node's modules, then diskThread (and the observer's maker) from their source. */
function threadSource(observerSource) {
    // `__name`: a transpiler may wrap named functions in a helper of that name (esbuild's keepNames).
    // `require` stays in this text (a bundler would rewrite it in code).
    return [
        'const __name = (target) => target;',
        "const { parentPort, workerData } = require('node:worker_threads');",
        `const collectGarbage = (${bufferCollector.toString()})(require('node:v8'), require('node:vm'), ${INFLATED_BYTES_PER_COLLECTION}, ${HELD_BYTES_PER_FULL_COLLECTION});`,
        `(${diskThread.toString()})(require('node:fs'), require('node:zlib'), parentPort, workerData, ${observerSource ?? 'undefined'}, collectGarbage, ${checkedContent.toString()});`
    ].join('\n');
}

;// CONCATENATED MODULE: ./src/archive/disk-threads.ts
/**
 * The file system work of one unpacking, done by threads of its own with plain blocking calls.
 *
 * Why threads: a site of many small files costs three calls per file (an exclusive open, a write,
 * a close). Made through node's asynchronous API, each call is a round trip through the libuv pool
 * and back to the main thread, and those round trips, not the bytes, were most of the time. A
 * thread that makes the calls one after another needs no round trips, and the main thread is left
 * with reading the archive. Several threads work side by side on different folders: each folder
 * belongs to one thread (by its folded path), so two creations in one folder never contend, and
 * everything written at one path happens in archive order (a later duplicate wins, as it must).
 *
 * What crosses to the threads: batches of operations, with the bytes of each batch copied once
 * into an arena of its own that is moved, not copied, to the thread. The bytes queued are bounded,
 * and the reader waits (room()) while they are past the bound: memory stays flat whatever the
 * archive's size.
 *
 * Safety stays with the caller (SiteWriter): every entry is checked before it is handed here, and
 * nothing here decides what may be written. Operations that must see the writes of every thread
 * before them (hardlinks, symlinks) wait for idle() first. A thread never writes through what is
 * there: files are created exclusively, and an existing file is unlinked first, a folder never.
 */






/** A batch's bytes go into one arena of at least this size. */
const ARENA_BYTES = 256 * 1024;
/** Arenas kept for reuse once their batch is done. */
const SPARE_ARENAS = 4;
/** A batch is sent at this many operations even when its arena has room. */
const BATCH_OPERATIONS = 512;
/** Bytes handed over but not yet written, across threads, beyond which room() waits. */
const QUEUED_BYTES = 2 * 1024 * 1024;
const QUEUED_OPERATIONS = 8192;
/**
 * A thread's heap holds its batch's operations and (when observing) what its observer keeps; its
 * young generation, little more than a batch's worth: 2 MiB instead of 4 took the 30,000-file
 * zip's peak RSS from 114-121 to 111-113 MiB (5 alternating runs), its time within the noise.
 */
const THREAD_LIMITS = { maxYoungGenerationSizeMb: 2, maxOldGenerationSizeMb: 256, stackSizeMb: 4 };
class Shard {
    worker;
    ops = [];
    arena;
    used = 0;
    /** Batches sent and not yet answered. */
    pending = 0;
    /** Bytes and operations of each batch in flight, in order. */
    inFlight = [];
    /** Whether any file was shown to the thread's observer: one that saw none has nothing to say. */
    observed = false;
    /** Resolvers of collect messages, in order. */
    collecting = [];
    constructor(source, workerData) {
        this.worker = new external_node_worker_threads_.Worker(source, {
            eval: true,
            workerData,
            resourceLimits: THREAD_LIMITS,
            stdout: false,
            stderr: false
        });
        // An idle thread never keeps the process alive; one with work does (see send()).
        this.worker.unref();
    }
}
class DiskThreads {
    options;
    shards;
    stopFlag = new Int32Array(new SharedArrayBuffer(4));
    shardOfFolder = new Map();
    spareArenas = [];
    queuedBytes = 0;
    queuedOps = 0;
    flushScheduled = false;
    roomWaiters = [];
    idleWaiters = [];
    failed = false;
    terminated = false;
    /** The threads' end, once terminate() has been called (a thread's death calls it too). */
    ending;
    nextStream = 0;
    /** Failed or terminated: nothing more is handed to the threads (what push() and send() check). */
    get closed() {
        return this.failed || this.terminated;
    }
    constructor(root, options) {
        this.options = options;
        const count = Math.max(1, Math.min(options.threads ?? 1, 16));
        const source = threadSource(options.observer);
        this.shards = Array.from({ length: count }, () => new Shard(source, { root, stop: this.stopFlag }));
        for (const [index, shard] of this.shards.entries()) {
            shard.worker.on('message', (reply) => this.answered(index, reply));
            // A thread that dies (out of memory, an uncaught error, process.exit, ended from outside)
            // ends the unpacking: 'error' comes first when there is an error, then 'exit'.
            shard.worker.on('error', (error) => this.died(index, error, undefined));
            shard.worker.on('exit', (code) => this.died(index, undefined, code));
        }
    }
    /** Stops the threads' work at once: what they have not started is skipped. */
    stop() {
        Atomics.store(this.stopFlag, 0, 1);
    }
    directory(path, name) {
        this.push(this.shardOf(path), [DIRECTORY, path, name === path ? null : name]);
    }
    /** A file whose whole content is in `chunks`; `observe`: shown to the thread's observer. */
    file(path, name, mode, chunks, size, observe, crc = -1) {
        const shard = this.shardOf(parentOf(path));
        const [start, end] = this.copy(shard, chunks, size);
        if (observe)
            this.shards[shard].observed = true;
        this.push(shard, [FILE, path, name === path ? null : name, mode, start, end, observe ? 1 : 0, crc]);
    }
    /**
     * A file whose content is `chunks` deflated (raw deflate): it must inflate to exactly `size`
     * bytes. `observe`: shown to the thread's observer, or once inflated and written, to onInflated
     * ('here'), or to neither.
     */
    deflated(path, name, mode, chunks, compressedSize, size, observe, crc = -1) {
        const shard = this.shardOf(parentOf(path));
        const [start, end] = this.copy(shard, chunks, compressedSize);
        if (observe === 'thread')
            this.shards[shard].observed = true;
        this.push(shard, [
            INFLATE,
            path,
            name === path ? null : name,
            mode,
            start,
            end,
            size,
            observe === 'thread' ? 1 : observe === 'here' ? 2 : 0,
            crc
        ]);
    }
    open(path, name, mode) {
        const shard = this.shardOf(parentOf(path));
        const id = this.nextStream++;
        this.push(shard, [OPEN, path, name === path ? null : name, mode, id]);
        return { shard, id, name };
    }
    write(file, chunk) {
        if (chunk.length === 0)
            return;
        const [start, end] = this.copy(file.shard, [chunk], chunk.length);
        this.push(file.shard, [WRITE, file.id, file.name, start, end]);
    }
    close(file) {
        this.push(file.shard, [CLOSE, file.id, file.name]);
    }
    /** Call after idle(): the target's writes on every thread must be done. */
    hardlink(path, name, targetPath) {
        this.push(this.shardOf(parentOf(path)), [HARDLINK, path, name, targetPath]);
    }
    /** Call after idle(), once every file is written. */
    symlink(path, name, target) {
        this.push(this.shardOf(parentOf(path)), [SYMLINK, path, name, target]);
    }
    /** Removes a file written earlier (on its thread, so after its write); none there is no failure. */
    remove(path, name) {
        this.push(this.shardOf(parentOf(path)), [REMOVE, path, name]);
    }
    /** Sets the mode of a file written earlier (on its thread, so after its write). */
    chmod(path, name, mode) {
        this.push(this.shardOf(parentOf(path)), [CHMOD, path, name, mode]);
    }
    /** Undefined when more may be handed over now; else resolves once the threads have caught up. */
    room() {
        if (this.hasRoom || this.closed)
            return undefined;
        this.flush();
        return new Promise((resolve) => this.roomWaiters.push(resolve));
    }
    /**
     * Sends everything handed over; resolves once the threads have done it, or at once when they
     * have failed (see onFailure) or been terminated: what is still under way is then abandoned.
     */
    idle() {
        this.flush();
        if (this.closed || this.busy === 0)
            return Promise.resolve();
        return new Promise((resolve) => this.idleWaiters.push(resolve));
    }
    /**
     * What the observers of the threads that were shown files found; `files` is handed to them (a
     * thread that saw no file is not sent the site's whole list). Asked once idle() has resolved:
     * the threads are sent the list at once, so they judge while the caller does other work.
     */
    collect(files) {
        // After a failure there is nothing to judge (and a dead thread would never answer).
        if (this.closed)
            return Promise.resolve([]);
        if (this.busy !== 0)
            throw new Error('collect() before the threads are idle');
        return Promise.all(this.shards
            .filter((shard) => shard.observed)
            .map((shard) => new Promise((resolve) => {
            shard.collecting.push(resolve);
            shard.worker.ref();
            shard.worker.postMessage({ collect: files });
        })));
    }
    /**
     * Ends the threads (after idle(), or after stop() when the work is abandoned); resolves once
     * every one has ended, however often it is called: nothing is written after that.
     */
    terminate() {
        if (this.ending === undefined) {
            this.terminated = true;
            this.wakeAll();
            this.ending = Promise.all(this.shards.map((shard) => shard.worker.terminate())).then(noop);
        }
        return this.ending;
    }
    /**
     * Whether the threads are what the unpacking waits on: more than half the queue's bound is
     * handed over and not yet written. The reader then has time to spare (it will wait in room()).
     */
    get behind() {
        return this.queuedBytes > QUEUED_BYTES / 2 || this.queuedOps > QUEUED_OPERATIONS / 2;
    }
    get hasRoom() {
        return this.queuedBytes <= QUEUED_BYTES && this.queuedOps <= QUEUED_OPERATIONS;
    }
    get busy() {
        return this.shards.reduce((sum, shard) => sum + shard.pending + shard.collecting.length, 0);
    }
    /** The thread of a folder (a site path): by its folded path, so that case twins share one. */
    shardOf(folder) {
        if (this.shards.length === 1)
            return 0;
        let shard = this.shardOfFolder.get(folder);
        if (shard === undefined) {
            const key = (0,file_names/* foldPath */.t)(folder);
            let hash = 0;
            for (let i = 0; i < key.length; i++)
                hash = Math.imul(hash ^ key.charCodeAt(i), 0x01000193);
            shard = (hash >>> 0) % this.shards.length;
            this.shardOfFolder.set(folder, shard);
        }
        return shard;
    }
    /** Copies `chunks` (`size` bytes in all) into the shard's arena; returns where they are. */
    copy(index, chunks, size) {
        const shard = this.shards[index];
        if (shard.arena !== undefined && shard.arena.length - shard.used < size)
            this.send(index);
        if (shard.arena === undefined) {
            const spare = size <= ARENA_BYTES ? this.spareArenas.pop() : undefined;
            shard.arena = spare === undefined ? Buffer.allocUnsafeSlow(Math.max(ARENA_BYTES, size)) : Buffer.from(spare);
        }
        const start = shard.used;
        for (const chunk of chunks)
            shard.used += chunk.copy(shard.arena, shard.used);
        return [start, shard.used];
    }
    push(index, op) {
        if (this.closed)
            return;
        const shard = this.shards[index];
        shard.ops.push(op);
        this.queuedOps++;
        if (shard.ops.length >= BATCH_OPERATIONS || (shard.arena !== undefined && shard.used >= shard.arena.length))
            this.send(index);
        else if (!this.flushScheduled) {
            this.flushScheduled = true;
            setImmediate(() => this.flush());
        }
    }
    flush() {
        this.flushScheduled = false;
        for (let index = 0; index < this.shards.length; index++)
            if (this.shards[index].ops.length > 0)
                this.send(index);
    }
    send(index) {
        const shard = this.shards[index];
        if (shard.ops.length === 0 || this.closed)
            return;
        const bytes = shard.used;
        const arena = shard.arena === undefined ? undefined : shard.arena.buffer;
        const ops = shard.ops;
        shard.ops = [];
        shard.arena = undefined;
        shard.used = 0;
        shard.pending++;
        shard.inFlight.push({ bytes, ops: ops.length });
        this.queuedBytes += bytes;
        shard.worker.ref();
        shard.worker.postMessage({ ops, arena }, arena === undefined ? [] : [arena]);
    }
    answered(index, reply) {
        // Ended: nothing waits for a reply any more (and a dead thread's batches were dropped).
        if (this.terminated)
            return;
        const shard = this.shards[index];
        if ('observed' in reply) {
            shard.collecting.shift()?.(reply.observed);
        }
        else {
            shard.pending--;
            if (reply.arena?.byteLength === ARENA_BYTES && this.spareArenas.length < SPARE_ARENAS)
                this.spareArenas.push(reply.arena);
            const batch = shard.inFlight.shift();
            this.queuedBytes -= batch?.bytes ?? 0;
            this.queuedOps -= batch?.ops ?? 0;
            if (reply.failure !== undefined)
                this.fail(rebuild(reply.failure));
            else if (reply.inflated !== undefined)
                this.showInflated(reply.inflated);
        }
        if (shard.pending === 0 && shard.collecting.length === 0)
            shard.worker.unref();
        if (this.hasRoom)
            for (const wake of this.roomWaiters.splice(0))
                wake();
        if (this.busy === 0 && this.shards.every((s) => s.ops.length === 0))
            for (const wake of this.idleWaiters.splice(0))
                wake();
    }
    /**
     * The files a thread inflated for onInflated, in the order it wrote them. They are garbage once
     * seen, young, and go with the collections the download makes (see ArchiveReceiver). This runs
     * in a thread's message handler: what the observer throws fails the unpacking, not the process.
     */
    showInflated(inflated) {
        const { onInflated } = this.options;
        const { paths, ends, bytes } = inflated;
        let i = 0;
        try {
            for (let start = 0; i < paths.length; start = ends[i++]) {
                onInflated?.(paths[i], Buffer.from(bytes.buffer, bytes.byteOffset + start, ends[i] - start));
            }
        }
        catch (error) {
            // The page is on disk: what failed is looking at it, which no entry of the archive is to blame for.
            this.fail(new errors/* ActionError */.lZ(`Could not check the page ${JSON.stringify(paths[i])} as it was unpacked: ${(0,errors/* errorMessage */.gJ)(error)}`, { cause: error }));
        }
    }
    /**
     * A thread ended while the unpacking needed it (not by terminate()): its batches will never be
     * answered, so they are dropped, the unpacking fails with why it ended, and the other threads are
     * ended too. Every waiter is released, now and later (idle() and room() return at once).
     */
    died(index, error, exitCode) {
        if (this.terminated)
            return;
        const shard = this.shards[index];
        for (const batch of shard.inFlight.splice(0)) {
            this.queuedBytes -= batch.bytes;
            this.queuedOps -= batch.ops;
        }
        shard.pending = 0;
        this.fail(threadEnded(error, exitCode));
        // Resolves once every thread has ended (settled() waits for it before the folder is removed).
        this.terminate().catch(noop);
    }
    fail(error) {
        if (!this.failed) {
            this.failed = true;
            this.stop();
            this.options.onFailure(error);
        }
        this.wakeAll();
    }
    wakeAll() {
        for (const wake of this.roomWaiters.splice(0))
            wake();
        for (const wake of this.idleWaiters.splice(0))
            wake();
        for (const shard of this.shards)
            for (const resolve of shard.collecting.splice(0))
                resolve(undefined);
    }
}
/** Why a thread ended, in the user's terms: its own error when it had one, else its exit code. */
function threadEnded(error, exitCode) {
    const code = error?.code;
    const why = error === undefined
        ? `ended unexpectedly (exit code ${exitCode})`
        : code === 'ERR_WORKER_OUT_OF_MEMORY'
            ? `ran out of memory (its limit is ${THREAD_LIMITS.maxOldGenerationSizeMb} MiB)`
            : `failed: ${error.message}`;
    return new errors/* ActionError */.lZ(`Could not unpack the bundle: a writer thread ${why}`, error === undefined ? undefined : { cause: error });
}
function noop() { }
/** A thread's failure as the error the same call on the main thread would have thrown. */
function rebuild(failure) {
    if (failure.corrupt)
        return new archive_errors/* CorruptArchiveError */.sC(`the entry ${JSON.stringify(failure.entry)} ${failure.message}`);
    const error = new Error(failure.message);
    if (failure.code !== undefined)
        error.code = failure.code;
    if (failure.syscall !== undefined)
        error.syscall = failure.syscall;
    return Object.assign(error, { entry: failure.entry });
}
/** The name of the archive entry a thread's failure is about (the site path when the name was the same). */
function failedEntry(error) {
    const entry = error?.entry;
    return typeof entry === 'string' ? entry : undefined;
}

;// CONCATENATED MODULE: ./src/archive/site-writer.ts
/**
 * Writes archive entries into a fresh folder (the staging folder), whatever the archive format.
 *
 * Safety: every entry goes through EntryIndex first; symlinks are created only in `finish()`,
 * after every file is written and every link checked, so no write can pass through a link.
 * Files are created with O_EXCL: an existing path (an earlier duplicate, a hardlink) is unlinked
 * and created anew, never written through.
 *
 * Bounds: entries are counted, and file bytes twice: as declared before the content is read, and
 * as written. Past `maxBytes` or `maxEntries` the unpacking fails with SiteLimitError.
 *
 * Speed: the writes are made by threads of their own (disk-threads.ts), with plain blocking calls,
 * while the archive reader goes on; the bytes handed to them are bounded, so the reader waits when
 * the disk falls behind.
 */








/** Files up to this size are read into memory and written in one call. */
const SMALL_FILE_BYTES = 1024 * 1024;
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
    index;
    disk;
    failure;
    maxEntries;
    entries = 0;
    /** File bytes the entries so far declare, and the bytes handed to the disk. */
    declaredBytes = 0;
    writtenBytes = 0;
    /** Site paths of the files and links created (a later duplicate replaces the earlier one), and those not shown to an observer. */
    created = new Set();
    unobserved = new Set();
    /** The inspector's observer on the writer threads sees the files written from memory ... */
    observingOnThreads;
    /**
     * ... but those up to `observeHereUpTo` bytes this one sees here: at once, or when deflated,
     * once their thread has inflated and written them.
     */
    observer;
    observeHereUpTo;
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
    signal, limits, inspector, options = {}) {
        this.root = root;
        this.log = log;
        this.signal = signal;
        this.limits = limits;
        this.inspector = inspector;
        this.maxEntries = limits.maxEntries ?? MAX_SITE_ENTRIES;
        this.index = new EntryIndex({ paths: this.maxEntries });
        this.observeHereUpTo = options.observeHereUpTo ?? 0;
        this.observer = this.observeHereUpTo > 0 ? inspector?.observer?.() : undefined;
        // Every file in memory is seen here when the bound covers them all: the threads need no observer.
        this.observingOnThreads =
            inspector?.threadObserver !== undefined &&
                !(this.observer !== undefined && this.observeHereUpTo >= SMALL_FILE_BYTES);
        const observer = this.observer;
        this.disk = new DiskThreads(root, {
            threads: options.threads,
            observer: this.observingOnThreads ? inspector?.threadObserver : undefined,
            onInflated: observer === undefined ? undefined : (path, content) => observer.observe(path, content),
            onFailure: (error) => {
                this.failure ??=
                    error instanceof archive_errors/* CorruptArchiveError */.sC
                        ? error
                        : (0,archive_errors/* writeFailure */.EU)(error, `the archive entry ${JSON.stringify(failedEntry(error))} into ${root}`, this.writtenBytes);
            }
        });
        const stop = () => {
            this.failure ??= signal.reason;
            this.disk.stop();
        };
        if (signal.aborted)
            stop();
        else
            signal.addEventListener('abort', stop, { once: true });
    }
    /** How many entries the whole archive declares, when it says so first (zip's central directory). */
    checkDeclared(entries, bytes) {
        this.throwIfFailed();
        if (entries > this.maxEntries)
            throw this.tooManyEntries(`the archive declares ${entries.toLocaleString('en-US')}`);
        if (bytes !== undefined && bytes > this.limits.maxBytes)
            throw this.tooManyBytes(`the archive's entries declare ${(0,units/* formatBytes */.z3)(bytes)} in all`);
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
    /** Throws at once when the entry is refused; a returned promise asks the caller to wait (the threads are behind). */
    directory(name) {
        this.throwIfFailed();
        this.countEntry(name);
        const path = this.index.addDirectory(name);
        this.counts.directories++;
        if (path !== '')
            this.disk.directory(path, name);
        return this.room();
    }
    /**
     * Which observer sees a file in memory of `size` bytes: the one here up to `observeHereUpTo`
     * (none when it would ignore the path), else the threads' when they have one, unless they are
     * behind: then this thread would only wait for them, and a file held here as it will be written
     * (`asWritten`: not deflated) is seen here at no cost to the unpacking. On a slow disk that
     * moves most of a tar's pages here; on a fast one, where the reader is what the unpacking waits
     * on, the threads keep them.
     */
    observedWhere(path, size, asWritten) {
        if (this.inspector?.sees?.(path) === false)
            return false;
        const here = size <= this.observeHereUpTo || (asWritten && this.observingOnThreads && this.disk.behind);
        if (this.observer !== undefined && here)
            return 'here';
        return this.observingOnThreads ? 'thread' : false;
    }
    /**
     * A small file whose content is in memory (up to SMALL_FILE_BYTES either way): as it is, or
     * deflated, to be inflated to exactly `stored.size` bytes (more or fewer is a corrupt archive).
     * `size` is what the archive declares the file holds. The chunks are copied before this
     * returns; a returned promise asks the caller to wait.
     *
     * Who inflates: the writer thread, unless it is behind; then this thread, which would only wait
     * for it, does, and hands the thread the plain content to write (a zip of many small files waits
     * on the one thread's file creations and inflating both).
     */
    fileInMemory(name, mode, size, chunks, stored) {
        const path = this.claimFile(name, size);
        if (stored.deflated && !this.disk.behind) {
            this.countWritten(name, stored.size);
            this.disk.deflated(path, name, fileMode(mode), chunks, total(chunks), stored.size, this.observedWhere(path, stored.size, false), stored.crc);
        }
        else {
            const content = stored.deflated ? [this.inflate(name, chunks, stored.size, stored.crc)] : chunks;
            const bytes = total(content);
            this.countWritten(name, bytes);
            const where = this.observedWhere(path, bytes, true);
            if (where === 'here')
                this.observer?.observe(path, content.length === 1 ? content[0] : Buffer.concat(content, bytes));
            // (Inflated here, it was checked here.)
            this.disk.file(path, name, fileMode(mode), content, bytes, where === 'thread', stored.deflated ? -1 : stored.crc);
        }
        this.unobserved.delete(path);
        return this.room();
    }
    /** A deflated file's content, inflated on this thread to exactly `size` bytes and checked against `crc`. */
    inflate(name, chunks, size, crc) {
        const deflated = chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, total(chunks));
        let content;
        try {
            content = checkedContent((external_node_zlib_default()), deflated, size, crc ?? -1);
        }
        catch (error) {
            throw new archive_errors/* CorruptArchiveError */.sC(`the entry ${JSON.stringify(name)} ${error instanceof Error ? error.message : String(error)}`);
        }
        // Garbage once the thread's arena holds a copy (see bufferCollector).
        collectMainThreadGarbage(size);
        return content;
    }
    /**
     * A large file handed over in pieces as they come (they are counted against the bounds as they
     * are handed over); `end()` once the last is in.
     */
    largeFile(name, mode, size) {
        const path = this.claimFile(name, size);
        this.unobserved.add(path);
        const file = this.disk.open(path, name, fileMode(mode));
        return {
            write: (chunk) => {
                this.throwIfFailed();
                this.countWritten(name, chunk.length);
                this.disk.write(file, chunk);
                return this.disk.room();
            },
            end: () => {
                this.throwIfFailed();
                this.disk.close(file);
            }
        };
    }
    /**
     * Sets the mode of a file written earlier (an archive that names it only after the content),
     * masked as creating the file with that mode would have masked it.
     */
    setMode(name, mode) {
        this.throwIfFailed();
        const path = this.index.fileAt(name);
        if (path === undefined)
            throw new Error(`setMode: the entry ${JSON.stringify(name)} is not a file written earlier`);
        this.disk.chmod(path, name, fileMode(mode) & ~UMASK);
    }
    async hardlink(name, target) {
        this.throwIfFailed();
        this.countEntry(name);
        const { path, targetPath, replaces } = this.index.addHardlink(name, target);
        this.counts.hardlinks++;
        if (replaces !== undefined)
            this.remove(replaces, name);
        // The target's write may be on another thread: all of them finish first, and the link is
        // made before anything after it (a later rewrite of the target must not show through it).
        await this.disk.idle();
        this.throwIfFailed();
        this.disk.hardlink(path, name, targetPath);
        this.created.add(path);
        this.unobserved.add(path);
        await this.disk.idle();
        this.throwIfFailed();
    }
    /**
     * Recorded only: symlinks are created by finish(), once every file is on disk. A file the
     * symlink replaces is removed now, and a returned promise waits for that: a later folder there
     * (made by any thread) must not find it in its way.
     */
    symlink(name, target) {
        this.throwIfFailed();
        this.countEntry(name);
        const { replaces } = this.index.addSymlink(name, target);
        this.counts.symlinks++;
        if (replaces === undefined)
            return undefined;
        this.remove(replaces, name);
        return this.disk.idle().then(() => this.throwIfFailed());
    }
    /** Devices, fifos and unknown entry types are not extracted. */
    skip(name, kind) {
        this.throwIfFailed();
        this.countEntry(name);
        entryPath(name);
        this.counts.skipped++;
        this.log.warning(`Skipped the archive entry ${JSON.stringify(name)}: ${kind} entries are not extracted`);
    }
    /**
     * Waits for every write, checks the symlinks against the whole tree, then creates them; tells
     * the inspector what was created, and ends the writer threads.
     */
    async finish() {
        try {
            await this.disk.idle();
            this.throwIfFailed();
            for (const { path, target } of this.index.symlinksToCreate()) {
                this.disk.symlink(path, path, target);
                this.created.add(path);
                this.unobserved.add(path);
            }
            await this.disk.idle();
            this.throwIfFailed();
            // What the observers found, judged against every file created.
            const observed = [];
            if (this.observingOnThreads || this.observer !== undefined) {
                const files = [...this.created];
                // The threads judge what they saw while this one judges its own: on a site of 30,000
                // files each takes 20-25 ms, at the very end, when nothing else is left to do.
                const onThreads = this.observingOnThreads ? this.disk.collect(files) : undefined;
                const here = this.observer?.result(files);
                if (onThreads !== undefined)
                    observed.push(...(await onThreads));
                if (this.observer !== undefined)
                    observed.push(here);
            }
            this.throwIfFailed();
            // The threads' memory goes before the inspector takes in what they found.
            await this.disk.terminate();
            this.inspector?.unpacked?.({ files: this.created, observed, unobserved: this.unobserved });
        }
        finally {
            await this.disk.terminate();
        }
    }
    /** Stops whatever is under way, then as settled(): for a writer whose work is abandoned. */
    async stopAndSettle() {
        this.disk.stop();
        await this.disk.idle();
        await this.disk.terminate();
    }
    /** Resolves when nothing is in flight and the threads have ended: after a stop, the folder can then be removed safely. */
    async settled() {
        if (this.signal.aborted || this.failure !== undefined)
            this.disk.stop();
        await this.disk.idle();
        await this.disk.terminate();
    }
    // --- bounds -------------------------------------------------------------------------------------
    /** Checks a file entry and its declared size; returns its path. */
    claimFile(name, size) {
        this.throwIfFailed();
        this.countEntry(name);
        const { path, replaces } = this.index.addFile(name);
        this.claimBytes(name, size);
        this.counts.files++;
        if (replaces !== undefined)
            this.remove(replaces, name);
        this.created.add(path);
        return path;
    }
    /** An earlier file that the entry `name`, a twin of it in case or Unicode form, replaces. */
    remove(path, name) {
        this.created.delete(path);
        this.unobserved.delete(path);
        this.disk.remove(path, name);
    }
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
    /** As bytes go to the disk: what is written must fit too, whatever was declared. */
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
    /** Undefined when the threads have room; else resolves when they do (rejects on a failure meanwhile). */
    room() {
        const wait = this.disk.room();
        return wait?.then(() => this.throwIfFailed());
    }
    throwIfFailed() {
        if (this.failure !== undefined)
            throw this.failure;
    }
}
function total(chunks) {
    let bytes = 0;
    for (const chunk of chunks)
        bytes += chunk.length;
    return bytes;
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
    const staging = besideSite(siteDir, 'staging');
    // Its parent is made only when missing: a recursive mkdir says EEXIST where a part of the path is a file.
    await (0,promises_.mkdir)(staging).catch(async (error) => {
        if (error.code !== 'ENOENT')
            throw error;
        await (0,promises_.mkdir)((0,external_node_path_.dirname)(siteDir), { recursive: true });
        await (0,promises_.mkdir)(staging);
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
    // An empty folder where the site goes (made by the workflow, or a checkout's placeholder) is
    // removed at once: a process of its own for it would cost 50 ms or more, whatever the new site's size.
    const wasEmpty = await (0,promises_.rmdir)(aside).then(() => true, () => false);
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
        log.info(`Put back the previous ${siteDir}, which an earlier run had moved aside to ${previous} when it was stopped`);
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
            const remover = (0,external_node_child_process_.spawn)(process.execPath, ['-e', script, ...paths], {
                detached: true,
                stdio: 'ignore',
                windowsHide: true
            });
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

;// CONCATENATED MODULE: ./src/archive/byte-queue.ts
/**
 * The bytes an archive reader has been handed and not yet consumed, as the chunks they came in.
 * Taking bytes copies nothing unless they span chunks, so a small file's content can stay a view
 * of the chunk it arrived in.
 */
class ByteQueue {
    chunks = [];
    /** Bytes held. */
    length = 0;
    /** Bytes consumed since the start: the archive offset of the first byte held. */
    position = 0;
    push(chunk) {
        this.chunks.push(chunk);
        this.length += chunk.length;
    }
    /** Drops every byte held (they count as consumed). */
    clear() {
        this.position += this.length;
        this.chunks = [];
        this.length = 0;
    }
    /** The first `bytes` held bytes (at least that many must be held), without consuming them. */
    peek(bytes) {
        const first = this.chunks[0];
        return first.length >= bytes ? first : Buffer.concat(this.chunks, bytes);
    }
    /** Consumes exactly `bytes` held bytes (at least that many must be held). */
    take(bytes) {
        // (Nothing may be held at all when nothing is asked for.)
        if (bytes === 0)
            return EMPTY;
        if (this.chunks[0].length >= bytes)
            return this.takeUpTo(bytes);
        const parts = [];
        for (let left = bytes; left > 0;) {
            const part = this.takeUpTo(left);
            parts.push(part);
            left -= part.length;
        }
        return Buffer.concat(parts, bytes);
    }
    /** Consumes up to `bytes` held bytes, from the first chunk only. */
    takeUpTo(bytes) {
        if (bytes === 0 || this.length === 0)
            return EMPTY;
        const first = this.chunks[0];
        const piece = first.length <= bytes ? first : first.subarray(0, bytes);
        if (piece === first)
            this.chunks.shift();
        else
            this.chunks[0] = first.subarray(bytes);
        this.length -= piece.length;
        this.position += piece.length;
        return piece;
    }
}
const EMPTY = Buffer.alloc(0);

;// CONCATENATED MODULE: ./src/archive/tar-headers.ts
/**
 * Tar headers, decoded as tar-stream decodes them: ustar and GNU formats, octal and base-256
 * numbers, checksums, pax records. Pure: the reader (tar.ts) hands blocks in.
 */

const BLOCK = 512;
const USTAR_MAGIC = Buffer.from([0x75, 0x73, 0x74, 0x61, 0x72, 0x00]);
const GNU_MAGIC = Buffer.from([0x75, 0x73, 0x74, 0x61, 0x72, 0x20]);
const GNU_VERSION = Buffer.from([0x20, 0x00]);
/** A header block: undefined for a block of zeros (the end of the archive). */
function decodeHeader(block) {
    const checksum = blockChecksum(block);
    // The checksum's initial value: the block is all zeros.
    if (checksum === 8 * 32)
        return undefined;
    if (checksum !== decodeOct(block, 148, 8))
        throw new archive_errors/* CorruptArchiveError */.sC('Invalid tar header. Maybe the tar is corrupted or it needs to be gunzipped?');
    let typeflag = block[156] === 0 ? 0 : block[156] - 0x30;
    let name = decodeStr(block, 0, 100);
    if (block.subarray(257, 263).equals(USTAR_MAGIC)) {
        if (block[345])
            name = `${decodeStr(block, 345, 155)}/${name}`;
    }
    else if (!(block.subarray(257, 263).equals(GNU_MAGIC) && block.subarray(263, 265).equals(GNU_VERSION))) {
        throw new archive_errors/* CorruptArchiveError */.sC('Invalid tar header: unknown format.');
    }
    // Old tars mark folders with a trailing slash.
    if (typeflag === 0 && name.endsWith('/'))
        typeflag = 5;
    return {
        name,
        mode: decodeOct(block, 100, 8),
        size: decodeOct(block, 124, 12),
        type: typeOf(typeflag),
        linkname: block[157] === 0 ? null : decodeStr(block, 157, 100)
    };
}
function typeOf(flag) {
    switch (flag) {
        case 0:
            return 'file';
        case 1:
            return 'link';
        case 2:
            return 'symlink';
        case 3:
            return 'character-device';
        case 4:
            return 'block-device';
        case 5:
            return 'directory';
        case 6:
            return 'fifo';
        case 7:
            return 'contiguous-file';
        case 72:
            return 'pax-header';
        case 55:
            return 'pax-global-header';
        case 27:
            return 'gnu-long-link-path';
        case 28:
        case 30:
            return 'gnu-long-path';
        case 35:
            // 'S': GNU tar's old sparse format (the newer ones are pax records, see TarReader).
            return 'gnu-sparse';
    }
    return null;
}
function blockChecksum(block) {
    let sum = 8 * 32;
    for (let i = 0; i < 148; i++)
        sum += block[i];
    for (let i = 156; i < BLOCK; i++)
        sum += block[i];
    return sum;
}
/** A NUL-terminated UTF-8 string field. */
function decodeStr(buffer, offset, length) {
    let end = offset;
    while (end < offset + length && buffer[end] !== 0)
        end++;
    return buffer.toString('utf8', offset, end);
}
/** An octal number field, or a base-256 one (first byte 0x80 or 0xff). */
function decodeOct(buffer, offset, length) {
    const field = buffer.subarray(offset, offset + length);
    if (field[0] & 0x80)
        return parse256(field);
    let start = 0;
    // Older tars prefix spaces.
    while (start < field.length && field[start] === 32)
        start++;
    let end = start;
    while (end < field.length && field[end] !== 32)
        end++;
    while (start < end && field[start] === 0)
        start++;
    if (end === start)
        return 0;
    return parseInt(field.toString('utf8', start, end), 8);
}
function parse256(field) {
    let positive;
    if (field[0] === 0x80)
        positive = true;
    else if (field[0] === 0xff)
        positive = false;
    else
        return NaN;
    let sum = 0;
    for (let i = field.length - 1, power = 1; i > 0; i--, power *= 256)
        sum += (positive ? field[i] : 0xff - field[i]) * power;
    return positive ? sum : -1 * sum;
}
/** Pax records: `<length> <key>=<value>\n` each. */
function decodePax(content) {
    const result = {};
    let buffer = content;
    while (buffer.length > 0) {
        let i = 0;
        while (i < buffer.length && buffer[i] !== 32)
            i++;
        const length = parseInt(buffer.toString('utf8', 0, i), 10);
        if (!length)
            return result;
        const record = buffer.toString('utf8', i + 1, length - 1);
        const keyIndex = record.indexOf('=');
        if (keyIndex === -1)
            return result;
        result[record.slice(0, keyIndex)] = record.slice(keyIndex + 1);
        buffer = buffer.subarray(length);
    }
    return result;
}

;// CONCATENATED MODULE: ./src/archive/tar.ts
/**
 * Unpacks a tar or tar.gz archive while it downloads: bytes are fed in as they arrive, gunzip
 * runs on the libuv pool, the tar reader below parses them where they are (no stream per entry),
 * SiteWriter writes. Backpressure runs all the way back to the socket, so memory stays flat
 * whatever the archive's size.
 */







/**
 * Gunzip works in steps on the libuv pool, one step per input chunk, and the next step starts
 * only when the main thread has taken the last one's output. Network chunks (~64 KiB) make
 * thousands of tiny steps; batching them into ~512 KiB steps lets gunzip run while the main thread
 * parses and writes, and cuts the per-step overhead. Why not larger: every step's input and output
 * is a fresh buffer of this size, and larger ones left more of malloc's heap behind. Against 1 MiB
 * (Node 20, 6-12 alternating rounds each), peak RSS went 118 -> 104-107 MiB for the 3,000-page
 * tar.gz, 134-135 -> 124-125 for the 30,000-file one (136 -> 128 on Node 24, 3,000 pages), with
 * wall time within the noise (0.98x-1.03x, one A/B at 1.09x); 256 KiB saved more memory but was
 * 9-10% slower on the 30,000-file and 1 GiB bundles.
 */
const GUNZIP_BATCH_BYTES = 512 * 1024;
const GUNZIP_CHUNK_BYTES = 512 * 1024;
class TarUnpacker {
    writer;
    options;
    reader;
    gunzip;
    failure;
    wakeOnFailure = [];
    /** Settles when every entry has been read (their writes may still be in flight in the writer). */
    entriesRead;
    inputEnded;
    /** Decompressed bytes held back until we know they are a tar (gzip only). */
    innerHead = new HeadSniffer((head, complete) => complete || head.length >= FORMAT_SNIFF_BYTES ? isTarHeader(head) : undefined);
    /** Compressed bytes gathered into one gunzip step. */
    batch = [];
    batchBytes = 0;
    /** Tar bytes handed to the reader (after gunzip). */
    tarBytes = 0;
    constructor(writer, options) {
        this.writer = writer;
        this.options = options;
        this.reader = new TarReader(writer);
        const ended = new Promise((resolve) => (this.inputEnded = resolve));
        this.entriesRead = ended.then(() => {
            if (this.failure !== undefined)
                throw this.failure;
            return this.reader.end();
        });
        this.entriesRead.catch(() => undefined); // observed through end()
        if (options.gzip) {
            const gunzip = external_node_zlib_default().createGunzip({ chunkSize: GUNZIP_CHUNK_BYTES });
            this.gunzip = gunzip;
            gunzip.on('data', (chunk) => this.fromGunzip(chunk));
            gunzip.on('end', () => this.endOfTar());
            gunzip.on('error', (error) => this.fail((0,archive_errors/* corrupt */.qb)(error)));
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
            return this.feed(chunk);
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
                this.inputEnded();
        }
        else
            this.inputEnded();
        return this.entriesRead;
    }
    /** The first failure: CorruptArchiveError for bad data, anything else from the writer. */
    get error() {
        return this.failure;
    }
    flushBatch() {
        if (this.batchBytes === 0 || this.gunzip === undefined)
            return undefined;
        const batch = this.batch.length === 1 ? this.batch[0] : Buffer.concat(this.batch, this.batchBytes);
        this.batch = [];
        this.batchBytes = 0;
        if (this.gunzip.write(batch))
            return undefined;
        return new Promise((resolve) => {
            this.gunzip.once('drain', resolve);
            this.wakeOnFailure.push(resolve);
        });
    }
    fail(error) {
        if (this.failure !== undefined)
            return;
        this.failure = error;
        this.gunzip?.destroy();
        this.reader.stop();
        for (const wake of this.wakeOnFailure.splice(0))
            wake();
        this.inputEnded();
        // A stop from outside is no failure of ours to report.
        if (!this.options.signal.aborted)
            this.options.onError?.(error);
    }
    /** Gunzip's output: the reader takes it; while it waits (the writer is behind), gunzip waits too. */
    fromGunzip(chunk) {
        if (this.failure !== undefined)
            return;
        if (this.innerHead.pending) {
            const judged = this.innerHead.push(chunk);
            if (judged === undefined || !this.holdsTar(judged))
                return;
            chunk = judged.head;
        }
        const wait = this.feed(chunk);
        if (wait === undefined)
            return;
        this.gunzip.pause();
        void wait.then(() => this.gunzip?.resume());
    }
    endOfTar() {
        if (this.innerHead.pending) {
            const judged = this.innerHead.end();
            if (judged.head.length > 0) {
                if (!this.holdsTar(judged))
                    return;
                const wait = this.feed(judged.head);
                if (wait !== undefined)
                    return void wait.then(() => this.inputEnded());
            }
        }
        this.inputEnded();
    }
    /** Tar bytes to the reader, counted against the bound first; failures end the unpacking. */
    feed(chunk) {
        if (this.failure !== undefined || !this.withinBound(chunk))
            return undefined;
        let wait;
        try {
            wait = this.reader.write(chunk);
        }
        catch (error) {
            this.fail(error);
            return undefined;
        }
        return wait?.catch((error) => this.fail(error));
    }
    /**
     * Counts the tar bytes before the reader gets them: an archive of little but padding, zero
     * blocks or skipped data would keep gunzip and the reader busy without writing a byte.
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
    /** A gzip that holds something else than a tar gets a clear message, not "invalid header". */
    holdsTar({ verdict, head }) {
        if (!verdict)
            this.fail(new archive_errors/* NotAnArchiveError */.DD(`The bundle is a gzip file, but what it holds is not a tar archive: it looks like ${describeBytes(head)}`));
        return verdict;
    }
}
// --- the tar reader ---------------------------------------------------------------------------------
/** A pax or GNU long-name record larger than this is no real one. */
const MAX_LONG_HEADER_BYTES = 4 * 1024 * 1024;
/**
 * Reads tar entries from the bytes as they come and hands each to the writer, without a stream
 * per entry: small files as the pieces of the chunks they arrived in, large ones piece by piece.
 * Headers are read as tar-stream reads them (tar-headers.ts: ustar and GNU formats, base-256
 * sizes, pax and GNU long names and links, checksums), so what an archive means did not change
 * with the reader.
 */
class TarReader {
    writer;
    held = new ByteQueue();
    current;
    /** Padding of a skipped or finished entry still to pass over. */
    skip = 0;
    /** The entry whose content is being read, to say where the data ended if it ends early. */
    reading;
    pax;
    paxGlobal;
    gnuLongPath;
    gnuLongLinkPath;
    waiting;
    stopped = false;
    /**
     * A block of zeros was read where a header goes: the archive's end. What follows is not read, as
     * GNU tar and Python's tarfile do not read it (without tar's -i): entries hidden there (after a
     * second gzip member, say) would be published without showing in `tar -tf`.
     */
    ended = false;
    constructor(writer) {
        this.writer = writer;
    }
    /** Takes tar bytes; a returned promise asks the caller to wait (and rejects when the unpacking fails). */
    write(chunk) {
        if (this.stopped || this.ended)
            return undefined;
        this.held.push(chunk);
        return this.waiting ?? this.run();
    }
    /** No more bytes: resolves once every entry has been handed over; throws when the data ended early. */
    async end() {
        await this.waiting;
        if (this.current !== undefined || this.skip > 0 || this.held.length > 0) {
            const entry = this.current === undefined || this.current.how === 'long' ? undefined : this.reading;
            const where = entry === undefined
                ? 'between two entries'
                : `inside the entry ${JSON.stringify(entry.name)} (${(0,units/* formatBytes */.z3)(entry.size)} declared)`;
            throw new archive_errors/* CorruptArchiveError */.sC(`the tar data ends early, ${where}`);
        }
    }
    stop() {
        this.stopped = true;
        this.held.clear();
    }
    run() {
        const wait = this.step();
        if (wait === undefined)
            return undefined;
        const waiting = wait.then(() => {
            this.waiting = undefined;
            return this.stopped ? undefined : this.run();
        }, (error) => {
            this.waiting = undefined;
            this.stop();
            throw error;
        });
        this.waiting = waiting;
        return waiting;
    }
    /** Steps until more bytes are needed (undefined) or the writer asks to wait (a promise). */
    step() {
        while (!this.stopped) {
            if (this.skip > 0) {
                if (this.held.length === 0)
                    return undefined;
                this.skip -= this.held.takeUpTo(this.skip).length;
                continue;
            }
            const current = this.current;
            if (current !== undefined) {
                if (current.how === 'long') {
                    if (this.held.length < current.left)
                        return undefined;
                    this.longHeader(current.header, this.held.take(current.left));
                    this.current = undefined;
                    this.skip = current.padding;
                    continue;
                }
                if (current.left > 0 && this.held.length === 0)
                    return undefined;
                const piece = this.held.takeUpTo(current.left);
                current.left -= piece.length;
                let wait;
                if (current.how === 'memory')
                    current.chunks.push(piece);
                else if (current.how === 'large' && piece.length > 0)
                    wait = current.large.write(piece);
                if (current.left === 0) {
                    this.current = undefined;
                    this.skip = current.padding;
                    wait = wait === undefined ? this.finish(current) : wait.then(() => this.finish(current));
                }
                if (wait !== undefined)
                    return wait;
                continue;
            }
            if (this.held.length < BLOCK)
                return undefined;
            const header = decodeHeader(this.held.take(BLOCK));
            if (header === undefined) {
                this.ended = true;
                this.held.clear();
                return undefined;
            }
            const wait = this.begin(header);
            if (wait !== undefined)
                return wait;
        }
        return undefined;
    }
    begin(header) {
        const padding = overflow(header.size);
        switch (header.type) {
            case 'gnu-long-path':
            case 'gnu-long-link-path':
            case 'pax-global-header':
            case 'pax-header':
                if (!(header.size >= 0))
                    throw new archive_errors/* CorruptArchiveError */.sC('Invalid header');
                if (header.size > MAX_LONG_HEADER_BYTES)
                    throw new archive_errors/* CorruptArchiveError */.sC('Header exceeds max size');
                this.current = { header, left: header.size, padding, how: 'long', chunks: [], large: undefined };
                return undefined;
        }
        this.applyLongHeaders(header);
        if (!(header.size >= 0))
            throw new archive_errors/* CorruptArchiveError */.sC('Invalid header');
        if (header.type === 'gnu-sparse') {
            // Its content is a map of the data's pieces, not the file: writing it would publish a wrong file.
            throw (0,archive_errors/* unsupportedEntry */._S)(header.name, 'is a sparse file (tar --sparse)');
        }
        const { writer } = this;
        const { name } = header;
        switch (header.type) {
            case 'file':
            case 'contiguous-file': {
                this.reading = header;
                const large = header.size > SMALL_FILE_BYTES ? writer.largeFile(name, header.mode, header.size) : undefined;
                this.current = {
                    header,
                    left: header.size,
                    padding,
                    how: large === undefined ? 'memory' : 'large',
                    chunks: [],
                    large
                };
                return undefined;
            }
            case 'directory':
                // tar-stream reads no content for a folder, whatever its header says.
                return writer.directory(name);
            default:
                this.reading = header;
                this.current = { header, left: header.size, padding, how: 'drop', chunks: [], large: undefined };
                return undefined;
        }
    }
    /** An entry's content is all in: the writer gets it (links and the rest once read past, as tar-stream's entries were). */
    finish(current) {
        const { header } = current;
        const { writer } = this;
        this.reading = undefined;
        switch (header.type) {
            case 'file':
            case 'contiguous-file':
                if (current.how === 'large')
                    return void current.large.end();
                return writer.fileInMemory(header.name, header.mode, header.size, current.chunks, { deflated: false });
            case 'symlink':
                return writer.symlink(header.name, header.linkname ?? '');
            case 'link':
                return writer.hardlink(header.name, header.linkname ?? '');
            default:
                // Devices and fifos; pax and GNU long-name records are read above.
                writer.skip(header.name, String(header.type).replace(/-/g, ' '));
                return undefined;
        }
    }
    longHeader(header, content) {
        switch (header.type) {
            case 'gnu-long-path':
                this.gnuLongPath = decodeStr(content, 0, content.length);
                break;
            case 'gnu-long-link-path':
                this.gnuLongLinkPath = decodeStr(content, 0, content.length);
                break;
            case 'pax-global-header':
                this.paxGlobal = decodePax(content);
                break;
            case 'pax-header':
                this.pax = this.paxGlobal === undefined ? decodePax(content) : { ...this.paxGlobal, ...decodePax(content) };
                break;
        }
    }
    applyLongHeaders(header) {
        if (this.gnuLongPath !== undefined)
            header.name = this.gnuLongPath;
        if (this.gnuLongLinkPath !== undefined)
            header.linkname = this.gnuLongLinkPath;
        this.gnuLongPath = this.gnuLongLinkPath = undefined;
        const pax = this.pax;
        if (pax === undefined)
            return;
        if (pax.path)
            header.name = pax.path;
        if (pax.linkpath)
            header.linkname = pax.linkpath;
        if (pax.size)
            header.size = parseInt(pax.size, 10);
        // GNU tar's pax sparse formats: the name in the header is a made-up one, the real one is here.
        if (Object.keys(pax).some((key) => key.startsWith('GNU.sparse.'))) {
            header.type = 'gnu-sparse';
            if (pax['GNU.sparse.name'])
                header.name = pax['GNU.sparse.name'];
        }
        this.pax = undefined;
    }
}
/** The padding after `size` bytes of content. */
function overflow(size) {
    const over = size & 511;
    return over && BLOCK - over;
}

// EXTERNAL MODULE: ./node_modules/yauzl/index.js
var yauzl = __webpack_require__(663);
;// CONCATENATED MODULE: ./src/archive/zip-records.ts
/**
 * The records of the zip format as this action reads them: the signatures, flags and methods it
 * knows, a local header and a central directory header decoded (zip64 sizes and offsets, names as
 * yauzl decodes them), what kind of entry the directory says an entry is, and the checks that a
 * local header agrees with its directory entry and can be unpacked on its own. Pure: no I/O.
 */


const LOCAL_HEADER = 0x04034b50;
const CENTRAL_HEADER = 0x02014b50;
const END_OF_DIRECTORY = 0x06054b50;
const ZIP64_END_OF_DIRECTORY = 0x06064b50;
const ZIP64_LOCATOR = 0x07064b50;
const LOCAL_HEADER_BYTES = 30;
const CENTRAL_HEADER_BYTES = 46;
const END_BYTES = 22;
const LOCATOR_BYTES = 20;
const ZIP64_END_BYTES = 56;
const MAX_COMMENT_BYTES = 0xffff;
const FLAG_ENCRYPTED = 0x0001;
const FLAG_DATA_DESCRIPTOR = 0x0008;
const FLAG_STRONG_ENCRYPTION = 0x0040;
const STORED = 0;
const DEFLATED = 8;
const ZIP64_EXTRA = 0x0001;
const UNICODE_PATH_EXTRA = 0x7075;
const MORE_THAN_32_BITS = 0xffffffff;
const S_IFMT = 0o170000;
const S_IFREG = 0o100000;
const S_IFDIR = 0o040000;
const S_IFLNK = 0o120000;
/** "Version made by" high byte of archives written on unix: only they carry a unix mode. */
const MADE_BY_UNIX = 3;
const MSDOS_DIRECTORY = 0x10;
const KIND_NAMES = {
    0o010000: 'fifo',
    0o020000: 'character device',
    0o060000: 'block device',
    0o140000: 'socket'
};
/** What an entry is, as the central directory says (unix mode, MS-DOS folder bit, trailing slash). */
function kindOf(entry) {
    const unixMode = entry.versionMadeBy >> 8 === MADE_BY_UNIX ? entry.externalAttributes >>> 16 : 0;
    const kind = unixMode & S_IFMT;
    if (kind === S_IFDIR ||
        entry.name.endsWith('/') ||
        (kind === 0 && (entry.externalAttributes & MSDOS_DIRECTORY) !== 0))
        return { kind: 'directory' };
    if (kind === S_IFLNK)
        return { kind: 'symlink' };
    if (kind !== 0 && kind !== S_IFREG)
        return { kind: 'special', what: KIND_NAMES[kind] ?? 'special file' };
    return { kind: 'file', mode: unixMode & 0o777 ? unixMode : undefined };
}
/** Whether an entry can be unpacked from its local header alone. */
function streamable(entry) {
    if ((entry.flags & (FLAG_DATA_DESCRIPTOR | FLAG_ENCRYPTED | FLAG_STRONG_ENCRYPTION)) !== 0)
        return false;
    if (entry.method === STORED)
        return entry.compressedSize === entry.size;
    return entry.method === DEFLATED;
}
/**
 * A refusal when a local header disagrees with the central directory on its raw name, method,
 * encryption, or (when the local header has them) CRC and sizes.
 */
function disagreement(entry, local) {
    const differs = (what) => {
        throw new archive_errors/* UnsafeEntryError */.vF(entry.name, `has a local header that disagrees with the zip's central directory (${what}), as archives made to show different tools different files do`);
    };
    if (entry.rawName !== local.rawName)
        differs(`its name there is ${JSON.stringify(local.name)}`);
    if (entry.method !== local.method)
        differs('compression method');
    if ((entry.flags & FLAG_ENCRYPTED) !== (local.flags & FLAG_ENCRYPTED))
        differs('encryption');
    if ((local.flags & FLAG_DATA_DESCRIPTOR) !== 0)
        return;
    if (entry.crc !== local.crc)
        differs('CRC');
    if (entry.compressedSize !== local.compressedSize)
        differs('compressed size');
    if (entry.size !== local.size)
        differs('size');
}
/** The local header at `at` of `buffer`; `offset` is where it sits in the archive. */
function parseLocalHeader(buffer, at, offset) {
    const nameStart = at + LOCAL_HEADER_BYTES;
    const nameEnd = nameStart + buffer.readUInt16LE(at + 26);
    const extraEnd = nameEnd + buffer.readUInt16LE(at + 28);
    const flags = buffer.readUInt16LE(at + 6);
    const extra = scanExtra(buffer, nameEnd, extraEnd);
    let compressedSize = buffer.readUInt32LE(at + 18);
    let size = buffer.readUInt32LE(at + 22);
    if (compressedSize === MORE_THAN_32_BITS || size === MORE_THAN_32_BITS) {
        // A local header's zip64 field holds both sizes, the original one first.
        if (extra.zip64 < 0 || extra.zip64End - extra.zip64 < 16)
            throw (0,archive_errors/* corrupt */.qb)(new Error('a zip64 local header without its sizes'));
        size = readUInt64(buffer, extra.zip64);
        compressedSize = readUInt64(buffer, extra.zip64 + 8);
    }
    const { name, rawName } = decodeName(flags, buffer, nameStart, nameEnd, extra);
    return {
        offset,
        flags,
        method: buffer.readUInt16LE(at + 8),
        crc: buffer.readUInt32LE(at + 14),
        compressedSize,
        size,
        rawName,
        name,
        dataStart: offset + (extraEnd - at)
    };
}
/** The central directory record at `at` of `buffer`, whole: its fixed part, name, extra field and comment. */
function parseCentralHeader(buffer, at) {
    const nameStart = at + CENTRAL_HEADER_BYTES;
    const nameEnd = nameStart + buffer.readUInt16LE(at + 28);
    const flags = buffer.readUInt16LE(at + 8);
    const extra = scanExtra(buffer, nameEnd, nameEnd + buffer.readUInt16LE(at + 30));
    let size = buffer.readUInt32LE(at + 24);
    let compressedSize = buffer.readUInt32LE(at + 20);
    let offset = buffer.readUInt32LE(at + 42);
    if (extra.zip64 >= 0) {
        // Only the fields that do not fit 32 bits are there, in this order.
        let field = extra.zip64;
        const next = (what) => {
            if (field + 8 > extra.zip64End)
                throw (0,archive_errors/* corrupt */.qb)(new Error(`zip64 extended information extra field does not include ${what}`));
            const value = readUInt64(buffer, field);
            field += 8;
            return value;
        };
        if (size === MORE_THAN_32_BITS)
            size = next('uncompressed size');
        if (compressedSize === MORE_THAN_32_BITS)
            compressedSize = next('compressed size');
        if (offset === MORE_THAN_32_BITS)
            offset = next('relative header offset');
    }
    const { name, rawName } = decodeName(flags, buffer, nameStart, nameEnd, extra);
    return {
        versionMadeBy: buffer.readUInt16LE(at + 4),
        flags,
        method: buffer.readUInt16LE(at + 10),
        crc: buffer.readUInt32LE(at + 16),
        compressedSize,
        size,
        rawName,
        name,
        externalAttributes: buffer.readUInt32LE(at + 38),
        offset
    };
}
/** The bytes of a central directory record at `at` of `buffer` (its fixed part must be there). */
function centralRecordBytes(buffer, at) {
    return (CENTRAL_HEADER_BYTES + buffer.readUInt16LE(at + 28) + buffer.readUInt16LE(at + 30) + buffer.readUInt16LE(at + 32));
}
/**
 * The fields of an extra field that this action reads, found in place. The walk is
 * yauzl.parseExtraFields' (a field that runs past the end is refused; fewer than 4 bytes left are
 * ignored), without its array of fields and views: every local header and directory record goes
 * through here, 60,000 times for a zip of 30,000 files.
 */
function scanExtra(buffer, start, end) {
    const area = { start, end, zip64: -1, zip64End: -1, unicodePath: false };
    for (let at = start; at < end - 3;) {
        const id = buffer.readUInt16LE(at);
        const dataEnd = at + 4 + buffer.readUInt16LE(at + 2);
        if (dataEnd > end)
            throw (0,archive_errors/* corrupt */.qb)(new Error('extra field length exceeds extra field buffer size'));
        if (id === ZIP64_EXTRA && area.zip64 < 0) {
            area.zip64 = at + 4;
            area.zip64End = dataEnd;
        }
        else if (id === UNICODE_PATH_EXTRA) {
            area.unicodePath = true;
        }
        at = dataEnd;
    }
    return area;
}
/**
 * A name as yauzl's decoder reads it (an Info-ZIP unicode path field, else UTF-8 when flagged,
 * else CP437; backslashes kept), and its bytes one character per byte. A name of printable ASCII
 * alone reads the same in UTF-8, CP437 and Latin-1, so with no unicode path field it is taken as
 * it is (one string for both), without the decoder's character-by-character CP437 join.
 */
function decodeName(flags, buffer, start, end, extra) {
    const rawName = buffer.toString('latin1', start, end);
    if (!extra.unicodePath && isPrintableAscii(buffer, start, end))
        return { name: rawName, rawName };
    // (scanExtra walked the area as yauzl does and refused what yauzl would: this parse cannot throw.)
    const fields = extra.unicodePath ? yauzl.parseExtraFields(buffer.subarray(extra.start, extra.end)) : [];
    // "Strict" keeps backslashes as they are, so errors name the entry as the archive spells it;
    // our checks treat them as separators.
    const name = yauzl.getFileNameLowLevel(flags, buffer.subarray(start, end), fields, true);
    return { name, rawName: rawName === name ? name : rawName };
}
/** Whether bytes are all printable ASCII (space to tilde): the characters CP437 shares with ASCII. */
function isPrintableAscii(buffer, start, end) {
    for (let at = start; at < end; at++) {
        const byte = buffer[at];
        if (byte < 0x20 || byte > 0x7e)
            return false;
    }
    return true;
}
/** A little-endian 64-bit field, refused past what a number holds exactly. */
function readUInt64(buffer, at) {
    const value = buffer.readUInt32LE(at) + buffer.readUInt32LE(at + 4) * 0x100000000;
    if (!Number.isSafeInteger(value))
        throw (0,archive_errors/* corrupt */.qb)(new Error('a zip64 size past what can be handled'));
    return value;
}

;// CONCATENATED MODULE: ./src/archive/zip-file.ts
/**
 * The finished zip file, read at random: its end records, its central directory's entries, and its
 * entries' local headers and bytes, with reads ahead for records and entries that come in a row.
 */




/** Bytes read from the finished file at once (entries in a row come from one read). */
const READ_BYTES = 1024 * 1024;
/**
 * What reading one central directory entry leaves for the collector (the parsed entry, its name,
 * the batch's share): about 450 bytes, measured on the 30,000-entry benchmark zip (3.8 KiB when
 * each entry was read and yielded with promises of its own). It is counted so that the young
 * generation is collected after every MiB or so of it. Why: nothing downloads by then, so nothing
 * else counts, and V8 lets the young generation, grown to its full size during the download, fill
 * up before it collects it; the pages it touches stay resident. On the 30,000-file zip that was
 * 25 MiB more peak RSS at the very end (116 -> 141 MiB).
 */
const DIRECTORY_ENTRY_GARBAGE_BYTES = 512;
/** Entries parsed in a row before the consumer takes them: a bound on what one batch holds. */
const DIRECTORY_BATCH_ENTRIES = 256;
/** Bytes read ahead from a file, for records or entries in a row. */
class ReadAhead {
    file;
    buffer = Buffer.alloc(0);
    start = 0;
    constructor(file) {
        this.file = file;
    }
    /** `length` bytes at `position`: valid only until the next read (copy what must live longer). */
    async read(position, length) {
        await this.load(position, length);
        return this.buffer.subarray(position - this.start, position - this.start + length);
    }
    /** At least `length` bytes at `position` and whatever was read after them: valid only until the next read. */
    async readOn(position, length) {
        await this.load(position, length);
        return this.buffer.subarray(position - this.start);
    }
    async load(position, length) {
        if (position < this.start || position + length > this.start + this.buffer.length) {
            if (position + length > this.file.size)
                throw (0,archive_errors/* corrupt */.qb)(new Error(`data runs past the end of the file (${position + length} > ${this.file.size})`));
            const bytes = Math.min(Math.max(length, READ_BYTES), this.file.size - position);
            const buffer = this.buffer.buffer.byteLength >= bytes
                ? Buffer.from(this.buffer.buffer, this.buffer.byteOffset, bytes)
                : Buffer.allocUnsafe(Math.max(bytes, READ_BYTES));
            await this.file.fill(buffer, position, bytes);
            this.buffer = buffer.subarray(0, bytes);
            this.start = position;
        }
    }
}
/** The finished archive file: its end records, its central directory, and its entries' bytes. */
class ZipFile {
    handle;
    size;
    /** Entries' headers and small contents, read ahead. */
    entries = new ReadAhead(this);
    constructor(handle, size) {
        this.handle = handle;
        this.size = size;
    }
    static async open(path) {
        const handle = await (0,promises_.open)(path, 'r');
        try {
            return new ZipFile(handle, (await handle.stat()).size);
        }
        catch (error) {
            await handle.close();
            throw error;
        }
    }
    close() {
        return this.handle.close();
    }
    /** The end of central directory record (and its zip64 form): as yauzl finds them. */
    async directory() {
        const tailBytes = Math.min(this.size, LOCATOR_BYTES + END_BYTES + MAX_COMMENT_BYTES);
        const tail = await this.readFresh(this.size - tailBytes, tailBytes);
        for (let at = tailBytes - END_BYTES; at >= 0; at--) {
            if (tail.readUInt32LE(at) !== END_OF_DIRECTORY)
                continue;
            const commentBytes = tail.readUInt16LE(at + 20);
            if (commentBytes !== tailBytes - at - END_BYTES)
                throw (0,archive_errors/* corrupt */.qb)(new Error('the end of central directory record is not at the end of the file'));
            let disk = tail.readUInt16LE(at + 4);
            let count = tail.readUInt16LE(at + 10);
            let size = tail.readUInt32LE(at + 12);
            let offset = tail.readUInt32LE(at + 16);
            /** Where the end records start: the central directory ends there. */
            let endRecords = this.size - tailBytes + at;
            if (at >= LOCATOR_BYTES && tail.readUInt32LE(at - LOCATOR_BYTES) === ZIP64_LOCATOR) {
                endRecords = readUInt64(tail, at - LOCATOR_BYTES + 8);
                const end64 = await this.readFresh(endRecords, ZIP64_END_BYTES);
                if (end64.readUInt32LE(0) !== ZIP64_END_OF_DIRECTORY)
                    throw (0,archive_errors/* corrupt */.qb)(new Error('invalid zip64 end of central directory record signature'));
                disk = end64.readUInt32LE(16);
                count = readUInt64(end64, 32);
                size = readUInt64(end64, 40);
                offset = readUInt64(end64, 48);
            }
            if (disk !== 0)
                throw new archive_errors/* UnsupportedArchiveError */.k9(`The bundle archive cannot be unpacked: it is a zip split over several disks (this is disk ${disk}), which the action does not unpack.`);
            if (offset + size > this.size)
                throw (0,archive_errors/* corrupt */.qb)(new Error('the central directory runs past the end of the file'));
            // Nothing between them: bytes there are read by no reader, and could be anything in any amount.
            if (offset + size !== endRecords) {
                throw (0,archive_errors/* corrupt */.qb)(new Error(`the central directory ends at byte ${offset + size}, but the end records start at byte ${endRecords}`));
            }
            return { count, offset, size };
        }
        throw (0,archive_errors/* corrupt */.qb)(new Error('End of central directory record signature not found. Either not a zip file, or file is truncated.'));
    }
    /**
     * The central directory's entries, in its order, a batch at a time: parsed in a plain loop from
     * the bytes read ahead, not awaited one by one (two promises an entry were most of what reading
     * 30,000 of them cost, and most of their garbage).
     */
    async *centralEntries(directory) {
        const records = new ReadAhead(this);
        let at = directory.offset;
        let index = 0;
        /** The bytes the next record needs in the window: its fixed part, then (if it did not fit) all of it. */
        let need = CENTRAL_HEADER_BYTES;
        // The end record gives both the count and the size: they must agree, or one of them is damaged
        // (a count one bit short would silently leave entries out of the site).
        const end = directory.offset + directory.size;
        while (index < directory.count) {
            const window = await records.readOn(at, need);
            const batch = [];
            let used = 0;
            need = CENTRAL_HEADER_BYTES;
            while (index < directory.count &&
                batch.length < DIRECTORY_BATCH_ENTRIES &&
                used + CENTRAL_HEADER_BYTES <= window.length) {
                const signature = window.readUInt32LE(used);
                if (signature !== CENTRAL_HEADER)
                    throw (0,archive_errors/* corrupt */.qb)(new Error(`invalid central directory file header signature: 0x${signature.toString(16)}`));
                const bytes = centralRecordBytes(window, used);
                if (at + used + bytes > end)
                    throw (0,archive_errors/* corrupt */.qb)(new Error(`the central directory holds more than the ${directory.size} bytes its end record gives for ${directory.count} entries`));
                if (used + bytes > window.length) {
                    need = bytes;
                    break;
                }
                batch.push(parseCentralHeader(window, used));
                used += bytes;
                index++;
            }
            at += used;
            collectMainThreadGarbage(batch.length * DIRECTORY_ENTRY_GARBAGE_BYTES);
            if (batch.length > 0)
                yield batch;
        }
        if (at !== end)
            throw (0,archive_errors/* corrupt */.qb)(new Error(`the central directory's ${directory.count} entries take ${at - directory.offset} bytes, but its end record gives ${directory.size}`));
    }
    /** The local header at `offset`. */
    async localEntry(offset) {
        const fixed = await this.read(offset, LOCAL_HEADER_BYTES);
        if (fixed.readUInt32LE(0) !== LOCAL_HEADER)
            throw (0,archive_errors/* corrupt */.qb)(new Error(`invalid local file header signature: 0x${fixed.readUInt32LE(0).toString(16)}`));
        const header = await this.read(offset, LOCAL_HEADER_BYTES + fixed.readUInt16LE(26) + fixed.readUInt16LE(28));
        return parseLocalHeader(header, 0, offset);
    }
    /** `length` bytes of entries at `position`: valid only until the next read (copy what must live longer). */
    read(position, length) {
        return this.entries.read(position, length);
    }
    /** `length` bytes at `position` in a buffer of their own. */
    async readFresh(position, length) {
        if (position < 0 || position + length > this.size)
            throw (0,archive_errors/* corrupt */.qb)(new Error(`data runs past the end of the file (${position + length} > ${this.size})`));
        const buffer = Buffer.allocUnsafe(length);
        await this.fill(buffer, position, length);
        return buffer;
    }
    async fill(buffer, position, length) {
        for (let done = 0; done < length;) {
            const { bytesRead } = await this.handle.read(buffer, done, length - done, position + done);
            if (bytesRead === 0)
                throw (0,archive_errors/* corrupt */.qb)(new Error('unexpected end of file'));
            done += bytesRead;
        }
    }
}

;// CONCATENATED MODULE: ./src/archive/zip.ts
/**
 * Unpacks a zip bundle: while it downloads when the archive allows, from the finished file when
 * it does not.
 *
 * While it downloads: a zip's entries come one after another, each behind its local header, and
 * the central directory (the archive's own list of its entries, with their kinds and modes) comes
 * last. Entries are unpacked from their local headers as their bytes arrive: plain files (the
 * writer threads inflate them) and folders, with the default mode. Local headers can disagree with
 * the central directory (a known way to show one tool one archive and another tool another), so
 * once the download is complete the central directory is read from the file and every entry is
 * checked against what was unpacked: the same entries at the same offsets with the same raw name,
 * method, CRC and sizes, or the archive is refused; modes the directory gives are then set.
 *
 * From the file (the central directory first): when an entry cannot be unpacked from its local
 * header alone (sizes only in a data descriptor after the data, an encrypted or unknown method, a
 * symlink or special file that only the directory names as such, entries out of order, anything
 * that failed), the streamed folder is cleared and the archive is unpacked from the finished file
 * in the directory's order: the entry count and declared sizes checked against the bounds before
 * anything is written, each local header checked against the directory as it is read.
 *
 * Either way every entry goes through the SiteWriter (EntryIndex, bounds) as tar's do, declared
 * sizes are counted before the content is read and inflated bytes as they are written (an entry
 * must inflate to exactly what it declares), and a symlink's target is read only up to what a
 * path can hold. The format's records are decoded in zip-records.ts; the finished file is read in
 * zip-file.ts.
 */









/** The mode files are created with when their entry gives none. */
const DEFAULT_FILE_MODE = fileMode(undefined);
/** What deflate may add to a symlink's target at most (block headers; it stores what it cannot shrink). */
const LINK_DEFLATE_SLACK = 64;
/**
 * Takes the downloaded bytes as they come (write), and once the download is complete (end)
 * checks what was unpacked against the central directory, or unpacks the archive from the file.
 */
class ZipUnpacker {
    options;
    stream;
    writer;
    constructor(writer, options) {
        this.options = options;
        this.writer = writer;
        this.stream = new LocalStream(writer);
    }
    /** Downloaded bytes; a returned promise asks the caller to wait before the next ones. */
    write(chunk) {
        return this.stream.write(chunk);
    }
    /** The download is complete and its file closed: the site is unpacked and checked, or this throws. */
    async end() {
        const { signal } = this.options;
        await this.stream.settle();
        signal.throwIfAborted();
        const file = await ZipFile.open(this.options.file);
        try {
            const directory = await file.directory();
            if (this.stream.entries !== undefined) {
                const verdict = await this.matchStreamed(file, directory);
                if (verdict === 'match')
                    return this.writer;
            }
            signal.throwIfAborted();
            this.writer = await this.options.restart();
            await unpackFromDirectory(file, directory, this.writer, signal);
            return this.writer;
        }
        finally {
            await file.close();
        }
    }
    /**
     * Whether what was unpacked from the local headers is what the central directory lists: 'match'
     * (modes set), 'again' (unpack from the file instead), or a refusal when they disagree.
     */
    async matchStreamed(file, directory) {
        const streamed = this.stream.entries;
        if (directory.count !== streamed.length || directory.offset !== this.stream.endOfEntries)
            return 'again';
        // Files were created with the default mode: only the others are kept, and the last entry at
        // a path gives its mode (a later default one drops an earlier other one).
        const modes = new Map();
        let index = 0;
        for await (const batch of file.centralEntries(directory)) {
            for (const entry of batch) {
                const local = streamed[index++];
                if (entry.offset !== local.offset)
                    return 'again';
                disagreement(entry, local);
                if (entry.name !== local.name)
                    return 'again';
                const kind = kindOf(entry);
                const localKind = local.name.endsWith('/') ? 'directory' : 'file';
                if (kind.kind !== localKind)
                    return 'again';
                if (kind.kind !== 'file')
                    continue;
                // (By folded path: a twin in another case is the same file, see EntryIndex.)
                if (fileMode(kind.mode) !== DEFAULT_FILE_MODE)
                    modes.set((0,file_names/* foldPath */.t)(entryPath(entry.name)), { name: entry.name, mode: kind.mode });
                else if (modes.size > 0)
                    modes.delete((0,file_names/* foldPath */.t)(entryPath(entry.name)));
            }
        }
        for (const { name, mode } of modes.values())
            this.writer.setMode(name, mode);
        await this.writer.finish();
        return 'match';
    }
}
// --- unpacking while downloading -------------------------------------------------------------------
/**
 * The entries of a zip as its bytes arrive, from their local headers. Stops (and says so through
 * `entries` being undefined) at anything it cannot unpack from a local header alone, or at any
 * failure: the central directory then decides, from the file.
 */
class LocalStream {
    writer;
    /** The entries unpacked so far, in file order; undefined once the streaming was given up. */
    entries = [];
    /** Where the central directory should start: the end of the last entry. */
    endOfEntries = -1;
    held = new ByteQueue();
    done = false;
    /** The entry whose data is being read. */
    current;
    /** Set while the work waits (the writer threads are behind, a large entry's writes): the caller waits too. */
    waiting;
    constructor(writer) {
        this.writer = writer;
    }
    /** Takes downloaded bytes; a returned promise asks the caller to wait before the next ones. */
    write(chunk) {
        if (this.done)
            return undefined;
        this.held.push(chunk);
        return this.waiting ?? this.run();
    }
    /** Resolves once the bytes written so far are handled; whatever entry is left unfinished ends the streaming. */
    async settle() {
        await this.waiting;
        if (!this.done)
            this.giveUp();
    }
    /** Works through the bytes held until more are needed, or until it must wait (then goes on after). */
    run() {
        let wait;
        try {
            wait = this.step();
        }
        catch {
            this.giveUp();
            return undefined;
        }
        if (wait === undefined)
            return undefined;
        const waiting = wait.then(() => {
            this.waiting = undefined;
            return this.done ? undefined : this.run();
        }, () => {
            this.waiting = undefined;
            this.giveUp();
        });
        this.waiting = waiting;
        return waiting;
    }
    giveUp() {
        this.done = true;
        this.entries = undefined;
        this.held.clear();
        this.current?.large?.abandon();
        this.current = undefined;
    }
    /** One step after another until more bytes are needed (undefined) or the work must wait (a promise). */
    step() {
        while (!this.done) {
            const current = this.current;
            if (current !== undefined) {
                if (this.held.length === 0 && current.left > 0)
                    return undefined;
                const piece = this.held.takeUpTo(current.left);
                current.left -= piece.length;
                let wait;
                if (current.large !== undefined)
                    wait = piece.length > 0 ? current.large.write(piece) : undefined;
                else if (!current.directory && piece.length > 0)
                    current.chunks.push(piece);
                if (current.left === 0)
                    wait = chain(wait, () => this.finishEntry(current));
                if (wait !== undefined)
                    return wait;
                continue;
            }
            if (this.held.length < 4)
                return undefined;
            const signature = this.held.peek(4).readUInt32LE(0);
            if (signature !== LOCAL_HEADER) {
                // The central directory (or the end record of an archive without entries) follows the
                // entries; anything else is for the directory to explain.
                if (signature !== CENTRAL_HEADER && signature !== END_OF_DIRECTORY && signature !== ZIP64_END_OF_DIRECTORY)
                    throw new Error('unexpected bytes between entries');
                this.endOfEntries = this.held.position;
                this.done = true;
                this.held.clear();
                return undefined;
            }
            if (this.held.length < LOCAL_HEADER_BYTES)
                return undefined;
            const fixed = this.held.peek(LOCAL_HEADER_BYTES);
            const headerBytes = LOCAL_HEADER_BYTES + fixed.readUInt16LE(26) + fixed.readUInt16LE(28);
            if (this.held.length < headerBytes)
                return undefined;
            const offset = this.held.position;
            const entry = parseLocalHeader(this.held.take(headerBytes), 0, offset);
            if (!streamable(entry))
                throw new Error('an entry that needs the central directory');
            this.entries.push(entry);
            const wait = this.begin(entry);
            if (wait !== undefined)
                return wait;
        }
        return undefined;
    }
    begin(entry) {
        const { writer } = this;
        let wait;
        if (entry.name.endsWith('/')) {
            wait = writer.directory(entry.name);
            this.current = { entry, left: entry.compressedSize, chunks: [], large: undefined, directory: true };
        }
        else if (entry.compressedSize <= SMALL_FILE_BYTES && entry.size <= SMALL_FILE_BYTES) {
            this.current = { entry, left: entry.compressedSize, chunks: [], large: undefined, directory: false };
        }
        else {
            const large = new LargeContent(writer.largeFile(entry.name, undefined, entry.size), entry);
            this.current = { entry, left: entry.compressedSize, chunks: [], large, directory: false };
        }
        return wait;
    }
    finishEntry(current) {
        this.current = undefined;
        const { entry } = current;
        if (current.directory)
            return undefined;
        if (current.large !== undefined)
            return current.large.end();
        return this.writer.fileInMemory(entry.name, undefined, entry.size, current.chunks, entry.method === DEFLATED
            ? { deflated: true, size: entry.size, crc: entry.crc }
            : { deflated: false, crc: entry.crc });
    }
}
/** `then` after `first` when there is one to wait for; else now. */
function chain(first, then) {
    return first === undefined ? then() : first.then(then);
}
/** A large entry's content on its way to the writer: as it is (stored), or inflated on the way. */
class LargeContent {
    file;
    entry;
    inflate;
    inflated = 0;
    /** The CRC-32 of the content so far, checked against the entry's at the end. */
    crc = 0;
    finished;
    constructor(file, entry) {
        this.file = file;
        this.entry = entry;
        if (entry.method !== DEFLATED)
            return;
        // (node's zlib streams take stream options; @types/node's ZlibOptions does not list them.)
        const inflate = external_node_zlib_default().createInflateRaw({
            chunkSize: 256 * 1024,
            writableHighWaterMark: 1024 * 1024
        });
        this.inflate = inflate;
        this.finished = new Promise((resolve, reject) => {
            inflate.on('data', (chunk) => {
                this.inflated += chunk.length;
                this.crc = external_node_zlib_default().crc32(chunk, this.crc);
                try {
                    if (this.inflated > entry.size)
                        throw (0,archive_errors/* corrupt */.qb)(new Error(`the entry ${JSON.stringify(entry.name)} holds more than the ${entry.size} bytes it declares`));
                    const wait = file.write(chunk);
                    if (wait === undefined)
                        return;
                    inflate.pause();
                    wait.then(() => inflate.resume(), (error) => inflate.destroy(error));
                }
                catch (error) {
                    inflate.destroy(error);
                }
            });
            inflate.on('end', () => {
                if (this.inflated === entry.size)
                    resolve();
                else
                    reject((0,archive_errors/* corrupt */.qb)(new Error(`the entry ${JSON.stringify(entry.name)} holds ${this.inflated} bytes, fewer than the ${entry.size} it declares`)));
            });
            inflate.on('error', (error) => reject(error instanceof archive_errors/* CorruptArchiveError */.sC || !isZlibError(error) ? error : (0,archive_errors/* corrupt */.qb)(error)));
        });
        // Observed through end(); a failure before then surfaces at the next write.
        this.finished.catch(() => undefined);
    }
    /** A returned promise asks the caller to wait before the next piece. */
    write(piece) {
        if (this.inflate === undefined) {
            this.crc = external_node_zlib_default().crc32(piece, this.crc);
            return this.file.write(piece);
        }
        if (this.inflate.write(piece))
            return undefined;
        return Promise.race([(0,external_node_events_.once)(this.inflate, 'drain').then(zip_noop), this.finished]);
    }
    end() {
        if (this.inflate === undefined) {
            checkCrc(this.crc, this.entry);
            return void this.file.end();
        }
        this.inflate.end();
        return this.finished.then(() => {
            checkCrc(this.crc, this.entry);
            this.file.end();
        });
    }
    abandon() {
        this.inflate?.destroy();
    }
}
function zip_noop() { }
function isZlibError(error) {
    return (typeof error?.errno === 'number' &&
        String(error.code ?? '').startsWith('Z_'));
}
// --- unpacking from the finished file -------------------------------------------------------------
/**
 * Unpacks the whole archive from the file in the central directory's order: its entry count and
 * declared sizes are checked against the bounds before anything is written.
 */
async function unpackFromDirectory(file, directory, writer, signal) {
    writer.checkDeclared(directory.count);
    // The directory's own bytes, once, for the declared total: a bomb fails before its first entry.
    // Its entries' data must also fit before it: records that point at the same bytes again and
    // again would have them read and inflated again for each (work without bound for a small file).
    let declared = 0;
    let stored = 0;
    for await (const batch of file.centralEntries(directory)) {
        for (const entry of batch) {
            if (kindOf(entry).kind === 'file')
                declared += entry.size;
            stored += LOCAL_HEADER_BYTES + entry.rawName.length + entry.compressedSize;
            if (stored > directory.offset) {
                throw (0,archive_errors/* corrupt */.qb)(new Error(`the central directory's entries hold more data than the ${directory.offset} bytes before it (entries that share their data?)`));
            }
        }
    }
    writer.checkDeclared(directory.count, declared);
    for await (const batch of file.centralEntries(directory)) {
        for (const entry of batch) {
            signal.throwIfAborted();
            await unpackEntry(file, entry, writer);
        }
    }
    await writer.finish();
}
async function unpackEntry(file, entry, writer) {
    const kind = kindOf(entry);
    if (kind.kind === 'directory')
        return writer.directory(entry.name);
    if (kind.kind === 'special')
        return writer.skip(entry.name, kind.what);
    if ((entry.flags & FLAG_STRONG_ENCRYPTION) !== 0)
        throw (0,archive_errors/* unsupportedEntry */._S)(entry.name, 'is encrypted (strong encryption)');
    // Before the sizes: a stored encrypted entry's data holds its 12-byte encryption header too.
    if ((entry.flags & FLAG_ENCRYPTED) !== 0)
        throw (0,archive_errors/* unsupportedEntry */._S)(entry.name, 'is encrypted');
    if (entry.method === STORED && entry.compressedSize !== entry.size) {
        throw (0,archive_errors/* corrupt */.qb)(new Error(`compressed/uncompressed size mismatch for stored file: ${entry.compressedSize} != ${entry.size}`));
    }
    if (kind.kind === 'symlink' &&
        (entry.size > MAX_LINK_TARGET_BYTES || entry.compressedSize > MAX_LINK_TARGET_BYTES + LINK_DEFLATE_SLACK)) {
        // The target is the entry's content: read only what a path can hold, never a bomb's worth.
        throw new archive_errors/* UnsafeEntryError */.vF(entry.name, `is a symlink whose target is longer than ${MAX_LINK_TARGET_BYTES} bytes (it declares ${entry.size}, ${entry.compressedSize} compressed)`);
    }
    const local = await file.localEntry(entry.offset);
    disagreement(entry, local);
    if ((entry.flags & FLAG_ENCRYPTED) !== 0)
        throw (0,archive_errors/* unsupportedEntry */._S)(entry.name, 'is encrypted');
    if (entry.method !== STORED && entry.method !== DEFLATED)
        throw (0,archive_errors/* unsupportedEntry */._S)(entry.name, `is compressed with method ${entry.method} (neither stored nor deflate)`);
    if (local.dataStart + entry.compressedSize > file.size)
        throw (0,archive_errors/* corrupt */.qb)(new Error(`file data overflows file bounds: ${local.dataStart} + ${entry.compressedSize} > ${file.size}`));
    if (kind.kind === 'symlink') {
        const data = await file.readFresh(local.dataStart, entry.compressedSize);
        const target = entry.method === DEFLATED ? inflateSmall(data, entry) : data;
        checkCrc(external_node_zlib_default().crc32(target), entry);
        return writer.symlink(entry.name, target.toString('utf8'));
    }
    if (entry.compressedSize <= SMALL_FILE_BYTES && entry.size <= SMALL_FILE_BYTES) {
        const data = await file.read(local.dataStart, entry.compressedSize);
        // The writer copies the bytes before it returns (the window may move after).
        await writer.fileInMemory(entry.name, kind.mode, entry.size, [data], entry.method === DEFLATED
            ? { deflated: true, size: entry.size, crc: entry.crc }
            : { deflated: false, crc: entry.crc });
        return;
    }
    const content = new LargeContent(writer.largeFile(entry.name, kind.mode, entry.size), entry);
    try {
        for (let at = 0; at < entry.compressedSize; at += READ_BYTES) {
            await content.write(await file.readFresh(local.dataStart + at, Math.min(READ_BYTES, entry.compressedSize - at)));
        }
        await content.end();
    }
    catch (error) {
        content.abandon();
        throw error;
    }
}
/** The CRC-32 of a zip entry's content against the one its archive gives: damaged data is refused. */
function checkCrc(crc, entry) {
    if (crc !== entry.crc)
        throw (0,archive_errors/* corrupt */.qb)(new Error(`the entry ${JSON.stringify(entry.name)} holds data that does not match its CRC-32 (the archive is damaged)`));
}
/** A small deflated entry (a symlink's target), inflated here to exactly its declared size. */
function inflateSmall(data, entry) {
    let content;
    try {
        content = external_node_zlib_default().inflateRawSync(data, { maxOutputLength: entry.size + 1 });
    }
    catch (error) {
        throw (0,archive_errors/* corrupt */.qb)(error);
    }
    if (content.length !== entry.size)
        throw (0,archive_errors/* corrupt */.qb)(new Error(`the entry ${JSON.stringify(entry.name)} does not hold the ${entry.size} bytes it declares`));
    return content;
}

;// CONCATENATED MODULE: ./src/archive/receiver.ts
/**
 * Takes one download attempt's bytes as they arrive and sends each chunk, without copies, to
 * three places at once: the sha256, the `<archive>.part` file, and the unpacker filling a staging
 * folder (tar, tar.gz, and zip from its local headers; a zip is checked against its central
 * directory, or unpacked from it, once the `.part` file is complete).
 * Each attempt gets a fresh receiver: fresh hash, fresh `.part`, fresh staging folder.
 */












/**
 * A tar's pages up to this size are scanned for the site check beside the reader, larger ones on
 * the writer thread. Measured on 2 cores: with 30,000 pages of 0.5-6 KiB the writer thread (one
 * file creation each) is what the unpacking waits on, and scanning them here made it 12% faster;
 * with 3,000 pages of ~60 KiB the reader is, and scanning them here made it 4% slower.
 */
const OBSERVE_HERE_BYTES = 16 * 1024;
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
    tar;
    zip;
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
    }
    /**
     * The writer of the staging folder, once the format is known: one writer thread, which for a
     * zip inflates its entries too (unless it is behind: then this thread does, see
     * SiteWriter.fileInMemory). A second thread for a zip cost 15-20 MiB of peak RSS (a V8 isolate
     * and a malloc arena of its own), which took every zip of the benchmark past its 120 MiB bound,
     * and with this thread inflating while the one is behind it is no longer faster: in 5
     * alternating runs against two threads, 3,000-page zip 1.41 against 1.38 s, 30,000 files 1.67
     * against 1.77 s, 1 GiB 5.9 against 6.9 s, on a disk that made every time vary by a third.
     *
     * The site check scans pages where there is time to spare: a tar's small pages here, where
     * they are as they will be written (see OBSERVE_HERE_BYTES), and its larger ones too whenever
     * the writer thread is behind (a slow disk); every page of a zip here too, sent
     * back by the thread that inflated and wrote it, since a zip's writer thread is what its
     * unpacking waits on and this thread mostly waits for it.
     */
    newWriter(staging) {
        const { log, limits, inspector } = this.options;
        return new SiteWriter(staging, log, this.stopper.signal, limits, inspector, {
            threads: 1,
            observeHereUpTo: this.format === 'zip' ? SMALL_FILE_BYTES : OBSERVE_HERE_BYTES
        });
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
        // Every chunk received becomes garbage within milliseconds, and so do the batches, gunzip
        // output and pieces made of it: a young collection after each MiB received keeps them from
        // piling up (see bufferCollector for the figures).
        collectMainThreadGarbage(chunk.length);
        const fileWait = this.writePart(chunk) ? undefined : (0,external_node_events_.once)(this.part, 'drain');
        const unpackWait = this.unpack(chunk);
        if (fileWait === undefined)
            return unpackWait;
        return unpackWait === undefined ? fileWait.then(receiver_noop) : Promise.all([fileWait, unpackWait]).then(receiver_noop);
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
            if (this.tar !== undefined)
                await this.tar.write(head);
        }
        const format = this.format;
        this.flushPart();
        this.part.end();
        await (0,external_node_events_.once)(this.part, 'close');
        const sha256 = this.hash.digest('hex');
        if (this.writer !== undefined) {
            try {
                if (format === 'zip')
                    this.writer = await this.zip.end();
                else {
                    await this.tar.end();
                    await this.writer.finish();
                }
            }
            catch (error) {
                if (!(error instanceof archive_errors/* CorruptArchiveError */.sC))
                    throw error;
                throw new archive_errors/* CorruptArchiveError */.sC(`The bundle archive is corrupt (${format}, ${this.bytes} bytes, sha256 ${sha256}): ${error.message}`, { cause: error });
            }
        }
        return {
            sha256,
            sizeBytes: this.bytes,
            format,
            staging: this.staging,
            counts: this.writer?.counts,
            entries: this.writer?.entryCount ?? 0
        };
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
        await Promise.all([this.writer?.settled(), this.part.closed ? undefined : (0,external_node_events_.once)(this.part, 'close').catch(receiver_noop)]);
        await Promise.all([
            removeQuietly(this.options.partFile),
            this.staging === undefined
                ? undefined
                : discardFolder(this.staging, this.options.siteDir, { cancelled, entries: this.writer?.entryCount ?? 0 })
        ]);
    }
    /**
     * A fresh start of the unpacking in the same staging folder (a zip that must be unpacked from
     * its central directory): the writer's work is stopped, the folder emptied, a new writer made.
     */
    async restartUnpacking() {
        const staging = this.staging;
        const old = this.writer;
        await old.stopAndSettle();
        await (0,promises_.rm)(staging, { recursive: true, force: true, maxRetries: 2 });
        await (0,promises_.mkdir)(staging);
        this.writer = this.newWriter(staging);
        return this.writer;
    }
    /**
     * Like `part.write`, but the chunks go to disk together, ~1 MiB per writev, without copies.
     * Never left corked while the caller waits for 'drain': a corked stream would not flush, and
     * 'drain' would never come. (The chunks held here outlive a young collection and need a full
     * one; copied into reused batch buffers instead, they die young, and the 3,000-page zip's
     * full collections went from 8-9 to 1-2, but neither its time nor its peak RSS moved in 8
     * alternating runs on Node 24: the copies are not worth it.)
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
        if (this.zip !== undefined)
            return this.zip.write(chunk);
        // After a corrupt-data failure the tar unpacker is left behind; the download goes on so that
        // the error can tell the size and sha256 of what was served.
        if (this.tar === undefined || this.tar.error !== undefined)
            return undefined;
        return this.tar.write(chunk);
    }
    /** Sets the format and, when unpacking, makes the writer and starts the streaming unpacker of that format. */
    decideFormat(verdict) {
        if ('unknown' in verdict) {
            throw new archive_errors/* NotAnArchiveError */.DD(`The downloaded bundle is not a zip, tar.gz or tar archive: its first bytes look like ${verdict.unknown}`);
        }
        this.format = verdict.format;
        if (this.staging === undefined)
            return;
        this.writer = this.newWriter(this.staging);
        if (verdict.format === 'zip') {
            this.zip = new ZipUnpacker(this.writer, {
                file: this.options.partFile,
                restart: () => this.restartUnpacking(),
                signal: this.stopper.signal
            });
            return;
        }
        this.tar = new TarUnpacker(this.writer, {
            gzip: verdict.format === 'tar.gz',
            onError: (error) => {
                if (!(error instanceof archive_errors/* CorruptArchiveError */.sC))
                    this.options.onFatal(error);
            },
            signal: this.stopper.signal
        });
    }
}
function receiver_noop() { }

// EXTERNAL MODULE: ./src/service/failure.ts
var failure = __webpack_require__(8817);
// EXTERNAL MODULE: ./src/service/retry.ts
var retry = __webpack_require__(5585);
// EXTERNAL MODULE: ./node_modules/@actions/http-client/lib/index.js
var lib = __webpack_require__(2779);
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
            throw new errors/* ActionError */.lZ(`${error.message}.`);
        if (error instanceof retry/* AttemptError */.cb || error instanceof errors/* ActionError */.lZ)
            throw error;
        // Read as properties: node's own errors may come from another realm (a vm context), not instanceof Error here.
        const { code, message } = (error ?? {});
        throw new retry/* AttemptError */.cb({
            kind: 'network',
            code,
            message: withoutQuery(message ?? (0,errors/* errorMessage */.gJ)(error), options.url)
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
            throw new errors/* ActionError */.lZ(`${refused}.`);
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
 * Feeds the body to `onChunk`, pausing the socket while it is busy; resolves with the byte count.
 * A stop (cancellation, stall, the consumer's failure) destroys the body at once; download() then
 * rejects with the stop's reason.
 */
function streamBody(response, options, stall, consumerFailed, progress) {
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
            const bound = options.sizeBound;
            if (bound !== undefined && bytes > bound.maxBytes)
                return settle(bound.exceeded(`more than ${(0,units/* formatBytes */.z3)(bound.maxBytes)} arrived`));
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
        response.on('error', (error) => settle(new retry/* AttemptError */.cb({
            kind: 'network',
            code: error.code,
            message: `${error.message} after ${bytes} bytes`
        })));
        response.on('close', () => ended ||
            settle(new retry/* AttemptError */.cb({
                kind: 'network',
                code: 'ECONNRESET',
                message: `the connection closed after ${bytes} bytes`
            })));
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
    /** "12.0 MiB in 3.1 s (3.9 MiB/s)", with "; waited 1.2 s more for writing and unpacking" when the receiver held it back. */
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
 * Downloads a bundle and, when asked, unpacks it into the site folder: retries through the one
 * retry loop, a fresh link when the old one is refused or expired, one more download for a
 * corrupt archive, and an all-or-nothing result on disk. The transfer owns the archive's folder:
 * it writes the archive as `.part` into a staging folder beside it, gives it the extension of its
 * format once the bytes tell, and swaps that folder in whole, as it does the site (whatever an
 * earlier run left there, an archive of another format or a site unpacked there, is replaced).
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
/** What an archive may take beyond twice the site it holds and a tar block pair per entry (see archiveBound). */
const ARCHIVE_OVERHEAD_BYTES = 64 * 1024 * 1024;
/** A tar entry of under 512 bytes still takes a 512-byte header and a 512-byte block of content. */
const SMALL_ENTRY_BYTES = 1024;
function transferBundle(options) {
    return withArchiveStaging(options, (archiveStaging) => transferInto(archiveStaging, options));
}
/** The download attempts, each writing the archive into `archiveStaging`, and the swap of what the last one received. */
async function transferInto(archiveStaging, options) {
    const { log, clock, signal } = options;
    const state = { link: options.link, linkRefused: false, attempts: 0, archiveStaging };
    log.info(`Downloading the bundle from ${(0,transfer_link/* describeLink */.Ex)(state.link.url)}${state.link.sizeBytes !== undefined ? ` (${(0,units/* formatBytes */.z3)(state.link.sizeBytes)})` : ''}`);
    for (let downloads = 1;; downloads++) {
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
                onRetry: ({ retry, delayMs, error }) => log.warning(`Bundle download attempt ${retry} failed (${describeAttemptError(error)}); trying again${delayMs > 0 ? ` in ${(0,units/* formatSeconds */.Xo)(delayMs)}` : ''}`)
            });
        }
        catch (error) {
            if (error instanceof archive_errors/* CorruptArchiveError */.sC && downloads < DOWNLOADS_OF_A_CORRUPT_ARCHIVE) {
                log.warning(`${error.message}. Downloading it once more.`);
                continue;
            }
            throw finalError(error, state, downloads);
        }
        return {
            ...(await finish(options, archiveStaging, received, state.inspector)),
            link: state.link,
            attempts: state.attempts
        };
    }
}
/**
 * Unpacks an archive already on disk (a bundle kept in the tool cache) as a download would be:
 * the same receiver, checks, staging and swap, and the same archive file in `archiveFolder`.
 * A CorruptArchiveError says the copy is bad (the caller downloads instead).
 */
function unpackLocalBundle(file, options) {
    return withArchiveStaging(options, async (archiveStaging) => {
        const inspector = options.inspect?.();
        const received = await receive(options, archiveStaging, inspector, async (receiver, stop) => {
            for await (const chunk of (0,external_node_fs_.createReadStream)(file, { highWaterMark: LOCAL_CHUNK_BYTES, signal: stop })) {
                await receiver.write(chunk);
            }
        });
        options.log.info(`Read the bundle from ${file}: ${(0,units/* formatBytes */.z3)(received.sizeBytes)}, sha256 ${received.sha256}`);
        return await finish(options, archiveStaging, received, inspector);
    });
}
/**
 * One archive received whole, from the network or from disk: a fresh `.part`, hash and staging
 * folder, filled by `fill` and completed. It stops on the user's cancellation or on a failure the
 * receiver reports (an unsafe entry, a full disk), and then the reason it stopped for is what it
 * throws, whatever way the stop surfaced; everything it wrote is removed first.
 */
async function receive(options, archiveStaging, inspector, fill) {
    const { signal } = options;
    (0,errors/* throwIfCancelled */.dZ)(signal);
    const stop = new AbortController();
    const onCancel = () => stop.abort(new errors/* CancelledError */.cc());
    signal?.addEventListener('abort', onCancel, { once: true });
    let receiver;
    try {
        receiver = await ArchiveReceiver.open({
            partFile: partFileIn(archiveStaging),
            siteDir: options.siteDir,
            log: options.log,
            onFatal: (error) => stop.abort(error),
            signal: stop.signal,
            limits: options.limits,
            inspector
        });
        await fill(receiver, stop.signal);
        const received = await receiver.complete();
        (0,errors/* throwIfCancelled */.dZ)(signal);
        return received;
    }
    catch (error) {
        const cause = stop.signal.aborted ? stop.signal.reason : error;
        if (!stop.signal.aborted)
            stop.abort(cause);
        await receiver?.discard(signal?.aborted === true);
        throw cause;
    }
    finally {
        signal?.removeEventListener('abort', onCancel);
    }
}
/**
 * Sweeps what an earlier run left beside the archive's folder and the site, then runs `body` with
 * a fresh staging folder for the archive, which finish() swaps in; whatever else happens, it is
 * removed after.
 */
async function withArchiveStaging(options, body) {
    (0,errors/* throwIfCancelled */.dZ)(options.signal);
    await sweepStaleFolders(options.archiveFolder, options.log, options.signal);
    if (options.siteDir !== undefined)
        await sweepStaleFolders(options.siteDir, options.log, options.signal);
    const archiveStaging = await createStagingFolder(options.archiveFolder).catch((error) => {
        throw (0,archive_errors/* writeFailure */.EU)(error, `the folder ${options.archiveFolder} for the bundle`);
    });
    try {
        return await body(archiveStaging);
    }
    finally {
        // Gone already when swapped in.
        await removeQuietly(archiveStaging);
    }
}
/** One attempt: a fresh `.part`, hash and staging folder (see receive); a refused link is asked anew next time. */
async function transfer_attempt(options, state) {
    const { log, clock, signal } = options;
    state.attempts++;
    (0,errors/* throwIfCancelled */.dZ)(signal);
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
        const received = await receive(options, state.archiveStaging, (state.inspector = options.inspect?.()), async (receiver, stop) => {
            await download({
                url: state.link.url,
                clock,
                signal: stop,
                stallTimeoutMs: STALL_TIMEOUT_MS,
                expectedSize: state.link.sizeBytes,
                sizeBound: { maxBytes: bound, exceeded: (detail) => archiveTooLarge(options.limits, detail) },
                policy: options.policy,
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
 * Names the whole archive by its format and swaps its folder in, then has the staged site reviewed
 * and swaps it in.
 */
async function finish(options, archiveStaging, received, inspector) {
    const { log, siteDir, archiveFolder } = options;
    const { staging, counts } = received;
    const archiveName = `${ARCHIVE_NAME}.${EXTENSIONS[received.format]}`;
    const archiveFile = (0,external_node_path_.join)(archiveFolder, archiveName);
    const kept = {
        archiveFile,
        sha256: received.sha256,
        sizeBytes: received.sizeBytes,
        format: received.format
    };
    try {
        (0,errors/* throwIfCancelled */.dZ)(options.signal);
        await (0,promises_.rename)(partFileIn(archiveStaging), (0,external_node_path_.join)(archiveStaging, archiveName));
        await swapIntoPlace(archiveStaging, archiveFolder, { entries: 1, signal: options.signal });
        options.onArchive?.(kept);
        if (siteDir !== undefined && staging !== undefined) {
            await inspector?.review(staging);
            await swapIntoPlace(staging, siteDir, { entries: received.entries, signal: options.signal });
        }
    }
    catch (error) {
        const how = { cancelled: options.signal?.aborted === true, entries: received.entries };
        // The archive's staging folder is its caller's to remove (see withArchiveStaging).
        if (staging !== undefined && siteDir !== undefined)
            await discardFolder(staging, siteDir, how);
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
    return { ...kept, siteDir };
}
/**
 * The most bytes an archive may have: the largest site it may hold (`max-site-size`) and its
 * format's overhead. A tar gives each entry a 512-byte header and pads its content to 512 bytes,
 * so a file of 1 KiB or more takes at most twice its size, and any entry (a folder, a file of a
 * few bytes) at least 1 KiB: 1 KiB for each entry the archive may hold. The fixed part holds
 * long names and end blocks. A zip's records and gzip's or deflate's framing take less.
 * Storage that says no Content-Length, and a bundle answer without `sizeBytes`, would otherwise
 * fill the disk until `timeout` (with `extract: false` nothing else reads the bytes, and an
 * unpacker may ignore what follows the archive's end).
 */
function archiveBound(limits) {
    const entries = limits.maxEntries ?? MAX_SITE_ENTRIES;
    return Math.min(Number.MAX_SAFE_INTEGER, 2 * limits.maxBytes + entries * SMALL_ENTRY_BYTES + ARCHIVE_OVERHEAD_BYTES);
}
/** The archive is larger than archiveBound allows (`detail`: how it showed). Final: the same link serves the same bytes. */
function archiveTooLarge(limits, detail) {
    return new archive_errors/* SiteLimitError */.ly(`The bundle archive is larger than ${(0,units/* formatBytes */.z3)(archiveBound(limits))} (${detail}), the most \`max-site-size\` (${(0,units/* formatBytes */.z3)(limits.maxBytes)}) allows: ` +
        `twice the site, 1 KiB for each of the ${(limits.maxEntries ?? MAX_SITE_ENTRIES).toLocaleString('en-US')} entries it may hold, and ${(0,units/* formatBytes */.z3)(ARCHIVE_OVERHEAD_BYTES)} for an archive's headers and padding. ` +
        'Nothing of it was kept, and `path` was left as it was; raise `max-site-size` if the site really is this large.');
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
    return new errors/* ActionError */.lZ(`Could not download the bundle from ${where} (${tries}): ${why}.${hint}${stopped}`, {
        cause: error
    });
}
function partFileIn(archiveStaging) {
    return (0,external_node_path_.join)(archiveStaging, `${ARCHIVE_NAME}.part`);
}


/***/ })

};
