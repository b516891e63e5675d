/**
 * How a reader sees the plain text the action puts in a comment (commentText in
 * src/common/text.ts): Markdown's backslash escapes undone, `&lt;` read as `<`, and the zero-width
 * joiners that break mentions and links dropped. For tests that check what a reply says, not how
 * it is escaped.
 */
export function asShown(markdown: string): string {
  return markdown.replace(
    /\\([!-/:-@[-`{-~])|&lt;|\u200d/g,
    (found, escaped: string | undefined) => escaped ?? (found === '&lt;' ? '<' : '')
  )
}

/**
 * Marks commentText escapes wherever they are: each can start a link, image, emphasis, code span, table, heading,
 * quote, HTML, entity or math.
 */
const INLINE_MARKS = new Set('\\`*_[]!|~#>&$<')

/**
 * Where `markdown` (the action's plain text) still holds Markdown that GitHub would act on: a mark
 * not escaped by a backslash, a list item or heading underline starting a line, a link GitHub
 * would make by itself (`://`, `www.`) or a mention. Empty when it reads as plain text.
 */
export function liveMarkdown(markdown: string): string[] {
  const found: string[] = []
  for (let at = 0; at < markdown.length; at++) {
    const char = markdown[at] as string
    if (char === '\\') at++
    // `<` written as an entity: a `<` shown as text, no mark.
    else if (markdown.startsWith('&lt;', at)) at += 3
    else if (INLINE_MARKS.has(char)) found.push(`${char} at ${at}`)
  }
  for (const line of markdown.split(/\r\n|\r|\n/))
    if (/^[ \t]*([-+=]|\d+[.)])/.test(line)) found.push(`line start: ${line}`)
  for (const link of markdown.matchAll(/:\/\/|www\.|@[A-Za-z0-9]/gi))
    found.push(`link or mention: ${link[0]} at ${link.index}`)
  return found
}
