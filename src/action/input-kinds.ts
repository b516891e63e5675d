/**
 * The kinds of input the action takes, each a parser from an input's text (trimmed, or its
 * default) to the value a flow uses. A parser reports what is wrong through `problem`, naming the
 * input, and returns a stand-in, so that every other input is still read: a run with any problem
 * stops before its settings are used. Pure: no I/O.
 */
import * as path from 'node:path'
import { isPlainSegment } from '../common/path-segment.js'
import { hasUnprintable } from '../common/text.js'
import { parseDuration, parseSize } from '../common/units.js'
import { fileProblem, folderProblem } from './path-guard.js'

export interface ParseContext {
  /** The folder relative paths are resolved against (the workspace). */
  workspace: string
  problem(message: string): void
  /** For what is fixed up rather than refused. */
  warn(message: string): void
}

export type Parse<T> = (text: string, name: string, context: ParseContext) => T

const TRUE_WORDS = new Set(['true', 'True', 'TRUE'])
const FALSE_WORDS = new Set(['false', 'False', 'FALSE'])
const LOOPBACK_HOSTS = /^(localhost|127(\.\d{1,3}){3}|\[::1\])$/i
const HOSTNAME_LABEL = /^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/

/** Names as the code spans of a message: `` `a`, `b` ``. */
export function codeList(names: readonly string[], separator = ', '): string {
  return names.map((name) => `\`${name}\``).join(separator)
}

/** Free text, as given. */
export const text: Parse<string> = (value) => value

/** One line of printable text (a branch, an environment's name), sent on as it is. */
export const printable: Parse<string | undefined> = (value, name, { problem }) => {
  if (!hasUnprintable(value)) return value
  problem(`\`${name}\` must be one line of printable text, not ${JSON.stringify(value)}.`)
  return undefined
}

export const flag: Parse<boolean> = (value, name, { problem }) => {
  if (TRUE_WORDS.has(value)) return true
  if (!FALSE_WORDS.has(value)) problem(`\`${name}\` must be \`true\` or \`false\`, not \`${value}\`.`)
  return false
}

/**
 * A positive duration (see parseDuration) of at most `most`, in milliseconds. With `bareAtLeast`, a
 * number without a unit shorter than that is taken, with a warning: `timeout: 10` is ten seconds,
 * and most likely meant ten minutes.
 */
export function duration(most: string, bareAtLeast?: string): Parse<number> {
  const mostMs = parseDuration(most)
  const leastBareMs = bareAtLeast === undefined ? 0 : parseDuration(bareAtLeast)
  if (mostMs === undefined || leastBareMs === undefined) throw new Error(`not a duration: ${most}, ${bareAtLeast}`)
  return (value, name, { problem, warn }) => {
    const ms = parseDuration(value)
    if (ms === undefined || ms <= 0) {
      problem(
        `\`${name}\` must be a positive duration such as \`250ms\`, \`90s\`, \`15m\`, \`1h\` or plain seconds, ` +
          `not \`${value}\`.`
      )
      return 1
    }
    if (ms > mostMs) {
      problem(`\`${name}\` must be at most \`${most}\`, not \`${value}\`.`)
      return mostMs
    }
    if (ms < leastBareMs && /^[\d.]+$/.test(value))
      warn(
        `\`${name}\` is \`${value}\`, which is ${value} seconds (a number without a unit is seconds): write ` +
          `\`${value}m\` for minutes, or \`${value}s\` to keep it without this warning.`
      )
    return ms
  }
}

/** A positive size in bytes (see parseSize). */
export const size: Parse<number> = (value, name, { problem }) => {
  const bytes = parseSize(value)
  if (bytes === undefined && parseSize(value.replace(/\d+/, '1')) !== undefined) {
    // A size, but more bytes than a number holds exactly (~8 PiB): no site is that large.
    problem(`\`${name}\` must be less than 8 PiB (\`8192t\`), not \`${value}\`.`)
    return 1
  }
  if (bytes === undefined || bytes <= 0) {
    problem(`\`${name}\` must be a positive size such as \`500m\`, \`2g\` or plain bytes, not \`${value}\`.`)
    return 1
  }
  return bytes
}

/** One of `choices`; undefined when it is none, or `standIn` when given. */
export function oneOf<const C extends readonly string[]>(choices: C): Parse<C[number] | undefined>
export function oneOf<const C extends readonly string[]>(choices: C, standIn: C[number]): Parse<C[number]>
export function oneOf(choices: readonly string[], standIn?: string): Parse<string | undefined> {
  return (value, name, { problem }) => {
    if (choices.includes(value)) return value
    problem(`\`${name}\` must be one of ${codeList(choices)}, not \`${value}\`.`)
    return standIn
  }
}

/** The site check's mode: `true` warns, `strict` fails, `false` skips. */
export const verifyMode: Parse<'warn' | 'strict' | 'off'> = (value, name, { problem }) => {
  if (TRUE_WORDS.has(value)) return 'warn'
  if (FALSE_WORDS.has(value)) return 'off'
  if (value === 'strict') return 'strict'
  problem(`\`${name}\` must be \`true\`, \`false\` or \`strict\`, not \`${value}\`.`)
  return 'warn'
}

/** An identifier that becomes one path segment of an API address. */
export const segment: Parse<string | undefined> = (value, name, { problem }) => {
  if (isPlainSegment(value)) return value
  problem(`\`${name}\` must be a plain identifier (no \`/\`, not \`.\` or \`..\`), not \`${value}\`.`)
  return undefined
}

/** What an id of the service's made of letters, digits, `_` and `-` may hold (an automation's). */
const PLAIN_ID = /^[A-Za-z0-9_-]+$/

/** An id of letters, digits, `_` and `-` only: anything else is a typo, or an address of another request. */
export const plainId: Parse<string | undefined> = (value, name, { problem }) => {
  if (PLAIN_ID.test(value)) return value
  problem(`\`${name}\` must hold only letters, digits, \`_\` and \`-\`, not \`${value}\`.`)
  return undefined
}

/** Non-blank lines, each trimmed; undefined when there is none. */
export const lines: Parse<string[] | undefined> = (value) => {
  const found = value
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '')
  return found.length > 0 ? found : undefined
}

/**
 * A secret that travels in an HTTP header. Node refuses a line break, another control character
 * or a character outside Latin-1 there only as it builds the request, and a request that failed
 * that late cannot tell whether it was sent: refused here, before any request. Its value is not
 * repeated: it is a secret.
 */
export const headerSecret: Parse<string> = (value, name, { problem }) => {
  if (/[^\t\x20-\x7e\x80-\xff]/.test(value))
    problem(
      `\`${name}\` holds a line break, a control character or a character outside Latin-1, which no HTTP header ` +
        `can carry: check the secret's value.`
    )
  return value
}

/** The base address of an API the key is sent to: https (http only to loopback), without a trailing slash. */
export const apiBaseUrl: Parse<string> = (value, name, { problem }) => {
  let url: URL
  try {
    url = new URL(value)
  } catch {
    problem(`\`${name}\` must be an absolute address such as \`https://api.example.com\`, not \`${value}\`.`)
    return ''
  }
  const loopback = LOOPBACK_HOSTS.test(url.hostname)
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && loopback)) {
    problem(
      `\`${name}\` must use \`https://\` (\`http://\` is allowed only for 127.0.0.1, ::1 and localhost): the API ` +
        'key must not travel in clear text.'
    )
  }
  if (url.username || url.password)
    problem(`\`${name}\` must not carry a user name or password; the API key goes in \`api-key\`.`)
  if (url.search || url.hash) problem(`\`${name}\` must not carry a query or fragment.`)
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`
}

/** An address a deployment can fetch: absolute, with a scheme (https, or the storage's own such as s3). */
export const absoluteUrl: Parse<string | undefined> = (value, name, { problem }) => {
  if (/\s/.test(value) || !URL.canParse(value) || !/^[a-z][a-z0-9+.-]*:\/\/./i.test(value)) {
    problem(
      `\`${name}\` must be an absolute address such as \`https://downloads.acme.com/docs/bundle.tar.gz\`, not ` +
        `\`${value}\`.`
    )
    return undefined
  }
  return value
}

/** A bare hostname, lower case; a URL of a site's root is accepted with a warning. */
export const hostname: Parse<string | undefined> = (value, name, { problem, warn }) => {
  const refuse = (): undefined => {
    problem(`\`${name}\` must be a bare hostname such as \`docs.acme.com\`, not \`${value}\`.`)
    return undefined
  }
  let host = value.toLowerCase()
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(value)) {
    const url = URL.canParse(value) ? new URL(value) : undefined
    if (!url || !/^https?:$/.test(url.protocol) || url.port || url.username || url.password) return refuse()
    if (url.search || url.hash || url.pathname !== '/') return refuse()
    host = url.hostname
    warn(`\`${name}\` should be a bare hostname: using \`${host}\` for \`${value}\`.`)
  }
  return isHostname(host) ? host : refuse()
}

/**
 * A DNS hostname: dot-separated labels of letters, digits and inner hyphens, each at most 63
 * characters, 253 in all. (Checked label by label: one regex with bounded repeats costs a few
 * milliseconds to compile at every start.)
 */
function isHostname(host: string): boolean {
  return host.length <= 253 && host.split('.').every((label) => label.length <= 63 && HOSTNAME_LABEL.test(label))
}

/**
 * A folder the export replaces whole, absolute: never the workspace, one of its parents, the file
 * system root, or inside a `.git` folder. (The export's pre-flight judges the real path against
 * the runner's folders too.)
 */
export const ownFolder: Parse<string> = (value, name, { workspace, problem }) => {
  const folder = path.resolve(workspace, value)
  const why = folderProblem(folder, [{ path: path.resolve(workspace), name: 'the workspace' }])
  if (why !== undefined)
    problem(`\`${name}\` must be a folder of its own (it is replaced by each export), not \`${value}\`, which ${why}.`)
  return folder
}

/**
 * A file the export writes (the Helm values), absolute: a file's name, not a folder's (`.`, a
 * trailing `/`), nor a path in `.git`. Where else it may not be is the operation's rule (inside
 * `path`) and the export's pre-flight (the real path, the runner's folders).
 */
export const ownFile: Parse<string | undefined> = (value, name, { workspace, problem }) => {
  const file = path.resolve(workspace, value)
  const last = value.split(/[\\/]/).at(-1) ?? ''
  const why = last === '' || last === '.' || last === '..' ? 'names a folder, not a file' : fileProblem(file, [])
  if (why === undefined) return file
  problem(notOwnFile(name, value, why))
  return undefined
}

/** Why a file input is refused: `why` ends the sentence. */
export function notOwnFile(name: string, value: string, why: string): string {
  return `\`${name}\` must be a file of its own, not \`${value}\`, which ${why}.`
}
