/**
 * Which files of a git repository a folder holds, asked of git itself (`git ls-files`): an export
 * replaces `path` whole, and a folder of tracked files (a team's `docs/`) would show up as deleted
 * in the next commit. Git knows its index, worktrees and submodules; reading `.git` by hand would not.
 */
import { spawn } from 'node:child_process'
import { stat } from 'node:fs/promises'
import * as path from 'node:path'
import { ActionError } from '../common/errors.js'
import type { Logger } from '../common/log.js'
import { cutShort, serviceText } from '../common/text.js'

/** `git ls-files` of one folder reads the index only: far quicker than this on any repository. */
const GIT_TIME_MS = 30_000
/** Enough for the first name, which is all the answer needs. */
const NAME_BYTES = 4096
/** Enough of git's complaint for a message. */
const STDERR_BYTES = 4096

/**
 * The first file under `folder` (absolute, real; it need not exist yet) that the git repository
 * holding it tracks, named from the repository's top (`docs/intro.mdx`). Undefined when it holds
 * none, when it is in no repository, and when git is not installed (said at debug level). Throws
 * an ActionError when git cannot answer: the check guards the team's files, so it does not guess.
 */
export async function firstTrackedFile(folder: string, log: Logger): Promise<string | undefined> {
  const base = await nearestFolder(folder)
  const rest = path.relative(base, folder).split(path.sep).join('/')
  // `literal`: a name with `*` or `?` is that name, not a pattern.
  const pathspec = rest === '' ? '.' : `:(literal)${rest}`
  const answer = await listTracked(base, pathspec)
  if (answer.kind === 'no-git') {
    log.debug(`git is not installed: not checking whether \`path\` (${folder}) holds files a repository tracks.`)
    return undefined
  }
  if (answer.kind === 'outside') return undefined
  if (answer.kind === 'failed') {
    throw new ActionError(
      `Could not check whether \`path\` (${folder}) holds files its git repository tracks: ${answer.why}.`
    )
  }
  return answer.first
}

type Answer =
  | { kind: 'listed'; first: string | undefined }
  | { kind: 'outside' }
  | { kind: 'no-git' }
  | { kind: 'failed'; why: string }

/**
 * Runs `git ls-files` in `cwd` and reads its first name only (git is stopped once it is read);
 * stopped, too, when it takes longer than GIT_TIME_MS.
 */
function listTracked(cwd: string, pathspec: string): Promise<Answer> {
  return new Promise((resolve) => {
    const git = spawn('git', ['ls-files', '-z', '--full-name', '--', pathspec], {
      cwd,
      // English messages: "not a git repository" is how git says there is none.
      env: { ...process.env, LC_ALL: 'C', LANG: 'C' },
      stdio: ['ignore', 'pipe', 'pipe'],
      windowsHide: true
    })
    let name = Buffer.alloc(0)
    let complaint = ''
    let timedOut = false
    const timer = setTimeout(() => {
      timedOut = true
      git.kill()
    }, GIT_TIME_MS)
    git.stdout.on('data', (chunk: Buffer) => {
      if (name.includes(0)) return
      name = Buffer.concat([name, chunk])
      // One name is the answer: the rest of a large repository's list is not read.
      if (name.includes(0) || name.length >= NAME_BYTES) git.kill()
    })
    git.stderr.on('data', (chunk: Buffer) => {
      if (complaint.length < STDERR_BYTES) complaint += chunk.toString('utf8')
    })
    git.on('error', (error: NodeJS.ErrnoException) => {
      clearTimeout(timer)
      resolve(
        error.code === 'ENOENT' ? { kind: 'no-git' } : { kind: 'failed', why: `git could not start (${error.message})` }
      )
    })
    git.on('close', (code) => {
      clearTimeout(timer)
      if (name.length > 0) {
        const end = name.indexOf(0)
        const text = name.subarray(0, end < 0 ? Math.min(name.length, NAME_BYTES) : end).toString('utf8')
        resolve({ kind: 'listed', first: cutShort(serviceText(text), 200) })
      } else if (timedOut)
        resolve({ kind: 'failed', why: `git ls-files gave no answer within ${GIT_TIME_MS / 1000} s` })
      else if (code === 0) resolve({ kind: 'listed', first: undefined })
      else if (/not a git repository/i.test(complaint)) resolve({ kind: 'outside' })
      else {
        const said = cutShort(serviceText(complaint.trim()), 400)
        resolve({
          kind: 'failed',
          why: `git ls-files ended with exit code ${code ?? 'none'}${said ? `: ${said}` : ''}`
        })
      }
    })
  })
}

/** `folder` itself when it is a folder, else its nearest ancestor that is: where git is asked. */
async function nearestFolder(folder: string): Promise<string> {
  for (let at = folder; ; at = path.dirname(at)) {
    if ((await stat(at).catch(() => undefined))?.isDirectory() === true || path.dirname(at) === at) return at
  }
}
