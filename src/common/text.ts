/**
 * Text from elsewhere (the service, the storage, an archive) is data: before it reaches a log
 * line or a comment it must not be able to act. The runner reads its stdout line by line (a line
 * ends at \n, \r or \r\n) and obeys a line that starts, after leading white space, with `::`
 * (`::set-output`, `::stop-commands`, `::add-mask`...), and one that holds `##[` anywhere (the
 * older form). A zero-width space is not white space to the runner, so one put in front of
 * either turns the command into plain text and still reads the same to a person.
 */

const ZERO_WIDTH_SPACE = '\u200b'
const ZERO_WIDTH_JOINER = '\u200d'

/** Line breaks, other control characters, and the marks that reorder text on screen. */
// eslint-disable-next-line no-control-regex -- control characters are what this finds
const UNPRINTABLE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]+/g
// The runner trims what .NET calls white space, which also takes in U+0085 (next line).
const COMMAND_START = /^([\s\u0085]*)(::)/
/** The runner's older form, and Azure Pipelines' (`##vso[`), which a CLI run there would obey. */
const OLD_COMMAND = /##(\[|vso\[)/gi
const HAS_UNPRINTABLE = new RegExp(UNPRINTABLE.source)
// eslint-disable-next-line no-control-regex -- control characters are what this finds
const UNPRINTABLE_BUT_TAB = /[\u0000-\u0008\u000a-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]+/g
const LINE_BREAK = /\r\n|\r|\n/
/** Half of a UTF-16 pair without its other half: no character at all (and `encodeURIComponent` throws on it). */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g

/**
 * `text` cut to `max` characters (never through a UTF-16 pair), with `…` and `note` to say so
 * after the cut; as it is when it fits.
 */
export function cutShort(text: string, max: number, note?: string): string {
  if (text.length <= max) return text
  return `${text.slice(0, max).replace(/[\ud800-\udbff]$/, '')}…${note === undefined ? '' : ` ${note}`}`
}

/**
 * One line of someone else's text, safe to print anywhere in a log line: control characters
 * become spaces (so the text cannot end our line and start one of its own), and the command
 * marks are broken.
 */
export function serviceText(text: string): string {
  return defuseLine(text.replace(UNPRINTABLE, ' ').replace(LONE_SURROGATE, '\ufffd'))
}

/**
 * A message of ours, line by line, so that no line of it can be taken for a workflow command
 * even if it embeds text that was not made safe, and with no other control character (a
 * terminal's escape sequences) but tabs. For the runner's `info` lines (`::error::` and the other
 * commands escape their own data) and every line of the CLI.
 */
export function plainLogLines(message: string): string {
  return message
    .split(LINE_BREAK)
    .map((line) => defuseLine(line.replace(UNPRINTABLE_BUT_TAB, ' ')))
    .join('\n')
}

/** Whether `text` holds a line break, another control character, a mark that reorders text, or half a UTF-16 pair. */
export function hasUnprintable(text: string): boolean {
  LONE_SURROGATE.lastIndex = 0
  return HAS_UNPRINTABLE.test(text) || LONE_SURROGATE.test(text)
}

/**
 * Someone else's text cut into its lines (at \n, \r and \r\n), each without any other control
 * character or mark that reorders text on screen (they become spaces), for a format that gives
 * line breaks a markup of its own (the job summary's HTML).
 */
export function printableLines(text: string): string[] {
  return text.split(LINE_BREAK).map((line) => line.replace(UNPRINTABLE, ' ').replace(LONE_SURROGATE, '\ufffd'))
}

/** `@name` in a comment notifies that user or team: a zero-width joiner after the `@` keeps the text, not the ping. */
export function withoutMentions(text: string): string {
  return text.replace(/@(?=[A-Za-z0-9])/g, `@${ZERO_WIDTH_JOINER}`)
}

/**
 * Markdown's marks that can make something of the text around them anywhere in a line: links and
 * images (`[`, `]`, `!`), emphasis and strikethrough (`*`, `_`, `~`), code spans, tables, headings
 * and quotes, HTML and entities (`&`), math (`$`), and the backslash that would escape our own escape.
 */
const MARKDOWN_MARK = /[\\`*_[\]!|~#>&$<]/g
/** What makes a block of a line when it starts it: a list item, or (under a line) a heading's `=`/`-` underline. */
const LINE_START_MARK = /^([ \t]*)([-+=]|\d+(?=[.)]))/gm
/** What GitHub turns into a link by itself: a scheme's `://` and `www.` (after `@`: a mention, see withoutMentions). */
const AUTOLINK = /:(?=\/\/)|www(?=\.)/gi
/** An issue reference GitHub links by itself, `GH-12`: broken between `GH` and `-`. */
const GH_REFERENCE = /\b(gh)(?=-\d)/gi
/**
 * A run of 7 or more hex digits with a digit among them, which GitHub links as a commit when one
 * starts so: broken every 6 characters, shorter than any it links.
 */
const COMMIT_LIKE = /\b(?=[a-f]*\d)[0-9a-f]{7,}\b/gi

/**
 * Someone else's text as paragraphs of a GitHub comment, shown as the plain text it is: every
 * Markdown mark is escaped, so it makes no link, image, heading, quote, emphasis, code span, table
 * or math; a zero-width joiner breaks what GitHub would link by itself (`https://`, `www.`, an
 * issue's `GH-12`, a commit's hex id) and every mention; `<` is written as an entity, so it holds
 * no HTML, no comment, and so no marker the action reads back (see job-record.ts). It reads the
 * same. Cut secrets out before (see Secrets.redact): an escape changes how a secret is spelled.
 */
export function commentText(text: string): string {
  return (
    withoutMentions(text)
      .replace(AUTOLINK, `$&${ZERO_WIDTH_JOINER}`)
      .replace(GH_REFERENCE, `$1${ZERO_WIDTH_JOINER}`)
      .replace(COMMIT_LIKE, (hex) => hex.replace(/.{6}(?=.)/g, `$&${ZERO_WIDTH_JOINER}`))
      .replace(MARKDOWN_MARK, (mark) => (mark === '<' ? '&lt;' : `\\${mark}`))
      // After the marks: the backslash this adds must not be escaped in turn.
      .replace(
        LINE_START_MARK,
        (_, space: string, mark: string) => `${space}${/\d/.test(mark) ? `${mark}\\` : `\\${mark}`}`
      )
  )
}

/**
 * Someone else's text (a status) inside one line of a comment: on one line, and as commentText
 * shows it, so it cannot end the emphasis around it or start a link.
 */
export function commentPhrase(text: string): string {
  return commentText(text.replace(UNPRINTABLE, ' '))
}

/**
 * Someone else's text (a job id) as a code span of a comment: on one line, fenced by more
 * backticks than any run of them inside, so it cannot close the span early (nothing in a code
 * span pings or links).
 */
export function commentCode(text: string): string {
  const line = text.replace(UNPRINTABLE, ' ')
  const fence = '`'.repeat(Math.max(0, ...Array.from(line.matchAll(/`+/g), (run) => run[0].length)) + 1)
  const pad = line.startsWith('`') || line.endsWith('`') ? ' ' : ''
  return `${fence}${pad}${line}${pad}${fence}`
}

function defuseLine(line: string): string {
  return line.replace(COMMAND_START, `${ZERO_WIDTH_SPACE}$1$2`).replace(OLD_COMMAND, `#${ZERO_WIDTH_SPACE}#$1`)
}

/** A code span of a message of ours: a run of backticks, its text, and as many backticks again. */
const CODE_SPAN = /(`+)([^`]|[^`][\s\S]*?[^`])\1(?!`)/g

/**
 * A message of ours, written for the log with Markdown's code spans (`` `job-id` ``, an id), as a
 * GitHub comment shows it: each code span stays one (its text made a safe span, see commentCode),
 * and everything else is plain text (see commentText), so that a service's text inside the message
 * still makes no link, mention or markup. Cut secrets out before.
 */
export function commentMarkdown(text: string): string {
  let out = ''
  let at = 0
  for (const match of text.matchAll(CODE_SPAN)) {
    out += commentText(text.slice(at, match.index)) + commentCode(match[2] ?? '')
    at = match.index + match[0].length
  }
  return out + commentText(text.slice(at))
}
