import { isNativeError } from 'node:util/types'
import { ActionError, CancelledError } from './errors.js'
import { formatBytes } from './units.js'

/**
 * A failure while writing the site or the archive file, said in the user's terms: what was being
 * written, what went wrong, and (a full disk) how much had been written. Errors that are already
 * the user's (a refusal, corrupt data, a bound) and stops are returned as they are.
 */
export function writeFailure(error: unknown, what: string, writtenBytes?: number): unknown {
  // isNativeError, not instanceof: node's own errors may come from another realm (a vm context).
  if (
    !isNativeError(error) ||
    error instanceof ActionError ||
    error instanceof CancelledError ||
    error.name === 'AbortError'
  )
    return error
  const code = (error as NodeJS.ErrnoException).code
  const why = code === undefined ? error.message : `${WRITE_FAILURES[code] ?? error.message} (${code})`
  const full = code === 'ENOSPC' || code === 'EDQUOT'
  const written = full && writtenBytes !== undefined ? `, after ${formatBytes(writtenBytes)} had been written` : ''
  return new ActionError(`Could not write ${what}: ${why}${written}`, { cause: error })
}

const WRITE_FAILURES: Record<string, string> = {
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
}
