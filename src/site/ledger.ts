/**
 * The action's policy over an archive's entries, whichever reader reads them: each entry is
 * checked (see EntryIndex) and counted against the site's bounds before it is written, so an
 * unsafe or oversized archive stops at its first offending entry, not at its end.
 */
import type { Logger } from '../common/log.js'
import { formatBytes } from '../common/units.js'
import { EntryIndex, type JudgedNode, MAX_SITE_ENTRIES } from './entry-safety.js'
import { writeFailure } from '../common/write-failure.js'
import { SiteLimitError } from './errors.js'

export interface SiteLimits {
  /** Bytes of file content in all (`max-site-size`). */
  maxBytes: number
  /** Entries of every kind; MAX_SITE_ENTRIES unless a test asks for fewer. */
  maxEntries?: number
}

export type EntryKind = 'file' | 'directory' | 'symlink' | 'hardlink' | 'special'

/** `size`: the bytes a file writes; `replacesFile`: a folder takes the place of a file before it (see addDirectory). */
export interface EntryDetails {
  size?: number
  target?: string
  special?: string
  replacesFile?: boolean
}

export interface SiteCounts {
  files: number
  directories: number
  symlinks: number
  hardlinks: number
  skipped: number
}

/** What an archive may take beyond twice the site it holds and a tar block pair per entry (see archiveBound). */
const ARCHIVE_OVERHEAD_BYTES = 64 * 1024 * 1024
/** A tar entry of under 512 bytes still takes a 512-byte header and a 512-byte block of content. */
const SMALL_ENTRY_BYTES = 1024

/**
 * The most bytes an archive may have: the largest site it may hold
 * (`max-site-size`) and its format's overhead. A tar gives each entry a 512-byte header and pads
 * its content to 512 bytes, so a file of 1 KiB or more takes at most twice its size, and any
 * entry at least 1 KiB; the fixed part holds long names and end blocks. Storage that sends no
 * Content-Length would otherwise fill the disk until `timeout`.
 */
export function archiveBound(limits: SiteLimits): number {
  const entries = limits.maxEntries ?? MAX_SITE_ENTRIES
  return Math.min(Number.MAX_SAFE_INTEGER, 2 * limits.maxBytes + entries * SMALL_ENTRY_BYTES + ARCHIVE_OVERHEAD_BYTES)
}

/** The fixed part of archiveBound, for the message that names it. */
export const ARCHIVE_OVERHEAD = ARCHIVE_OVERHEAD_BYTES

/** The longest path Linux opens (PATH_MAX, its NUL included): a site's files must be reachable by path. */
const MAX_FULL_PATH_BYTES = 4095

const UNCHANGED = 'Nothing was unpacked into the site folder, and the previous site was left as it was'

export class SiteLedger {
  readonly counts: SiteCounts = { files: 0, directories: 0, symlinks: 0, hardlinks: 0, skipped: 0 }
  private readonly index: EntryIndex
  private readonly maxEntries: number
  private entries = 0
  private bytes = 0

  /** `root`: the folder the entries are written below, whose path counts towards each entry's. */
  constructor(
    private readonly limits: SiteLimits,
    private readonly log: Logger,
    private readonly root: string | undefined
  ) {
    this.maxEntries = limits.maxEntries ?? MAX_SITE_ENTRIES
    this.index = new EntryIndex({ paths: this.maxEntries })
    this.rootBytes = root === undefined ? 0 : Buffer.byteLength(root) + 1
  }

  private readonly rootBytes: number

  /** Entries taken so far, of every kind. */
  get entryCount(): number {
    return this.entries
  }

  /**
   * Checks and counts one entry; returns its path in the site, or undefined when it is skipped
   * (a device or a fifo: `special` names what it is). `size`: the bytes a file writes.
   */
  entry(kind: EntryKind, name: string, details: EntryDetails = {}) {
    const path = this.check(kind, name, details)
    if (path !== undefined && this.rootBytes + Buffer.byteLength(path) > MAX_FULL_PATH_BYTES) {
      const tooLong = Object.assign(new Error('name too long'), { code: 'ENAMETOOLONG' })
      throw writeFailure(tooLong, `the archive entry ${JSON.stringify(name)} into ${this.root}`)
    }
    return path
  }

  private check(kind: EntryKind, name: string, details: EntryDetails) {
    if (++this.entries > this.maxEntries) {
      throw new SiteLimitError(
        `The bundle holds more than ${this.maxEntries.toLocaleString('en-US')} entries, the most the action ` +
          `unpacks: the entry ${JSON.stringify(name)} is one more. ${UNCHANGED}.`
      )
    }
    switch (kind) {
      case 'directory':
        this.counts.directories++
        return this.index.addDirectory(name, details.replacesFile)
      case 'file':
        this.addBytes(name, details.size ?? 0)
        this.counts.files++
        return this.index.addFile(name, details.size ?? 0)
      case 'symlink':
        this.counts.symlinks++
        return this.index.addSymlink(name, details.target ?? '')
      case 'hardlink':
        this.counts.hardlinks++
        return this.index.addHardlink(name, details.target ?? '')
      case 'special':
        this.counts.skipped++
        this.log.warning(
          `Skipped the archive entry ${JSON.stringify(name)}: ${details.special ?? 'special file'} entries are ` +
            `not extracted`
        )
        return undefined
    }
  }

  /** The archive's entries declare `total` bytes in all (a zip says so before any is read). */
  declared(total: number): void {
    if (total > this.limits.maxBytes) throw this.tooLarge(`the archive's entries declare ${formatBytes(total)} in all`)
  }

  /** What was judged to be at `path` (a file with the bytes it was counted as); undefined where nothing was. */
  judgedAt(path: string): JudgedNode | undefined {
    return this.index.judgedAt(path)
  }

  /** Every entry is in: the symlinks are judged against the whole tree. */
  finish(): void {
    this.index.checkSymlinks()
  }

  private addBytes(name: string, size: number): void {
    this.bytes += size
    if (this.bytes > this.limits.maxBytes) {
      throw this.tooLarge(
        `the entry ${JSON.stringify(name)} (${formatBytes(size)}) takes it to ${formatBytes(this.bytes)}`
      )
    }
  }

  private tooLarge(detail: string): SiteLimitError {
    return new SiteLimitError(
      `The bundle unpacks to more than ${formatBytes(this.limits.maxBytes)}, the bound set by \`max-site-size\`: ` +
        `${detail}. ${UNCHANGED}; raise \`max-site-size\` if the site really is this large.`
    )
  }
}
