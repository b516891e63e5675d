// Every relative link of README.md and docs/*.md leads to a file of the repository, and every anchor to a heading
// of the page it names, as GitHub makes anchors of headings: what a reader clicks after the reference moved.
import { existsSync, readFileSync } from 'node:fs'
import * as path from 'node:path'
import { describe, expect, test } from '@jest/globals'
import { DOCUMENTS, ROOT } from './support/documents.js'

/** The text outside fenced code blocks, where headings and links are markdown. */
const prose = (text: string): string => text.replace(/^[ \t]*(`{3,}|~{3,})[^\n]*\n[\s\S]*?^[ \t]*\1[ \t]*$/gm, '')

/** GitHub's anchor of a heading: its text lowercased, punctuation dropped, each space a hyphen. */
function anchorOf(heading: string): string {
  return heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\p{M} _-]/gu, '')
    .replace(/ /g, '-')
}

/** The anchors of a markdown file's headings; a repeated one gets `-1`, `-2`, ... as on GitHub. */
function anchorsOf(file: string): Set<string> {
  const anchors = new Set<string>()
  const seen = new Map<string, number>()
  for (const [, heading] of prose(readFileSync(file, 'utf8')).matchAll(/^#{1,6} +(.+?) *#*$/gm)) {
    const anchor = anchorOf(heading ?? '')
    const count = seen.get(anchor) ?? 0
    seen.set(anchor, count + 1)
    anchors.add(count === 0 ? anchor : `${anchor}-${count}`)
  }
  return anchors
}

/** The targets of a file's inline links, outside code. */
function linksOf(text: string): string[] {
  const outsideCode = prose(text).replace(/`+[^`\n]*`+/g, '')
  return [...outsideCode.matchAll(/\]\(([^)\s]+)(?: +"[^"]*")?\)/g)].map(([, target]) => target ?? '')
}

/** What is wrong with `target`, a link of `document`; undefined when it leads somewhere. */
function brokenLink(document: string, target: string): string | undefined {
  if (/^[a-z][a-z+.-]*:/i.test(target)) return undefined
  const [file = '', anchor] = target.split('#', 2)
  const resolved = file === '' ? path.join(ROOT, document) : path.resolve(path.dirname(path.join(ROOT, document)), file)
  if (!resolved.startsWith(ROOT)) return 'outside the repository'
  if (!existsSync(resolved)) return 'no such file'
  if (anchor === undefined) return undefined
  if (!resolved.endsWith('.md')) return 'an anchor in a file that is not markdown'
  return anchorsOf(resolved).has(decodeURIComponent(anchor)) ? undefined : 'no such heading'
}

describe('links of the documents', () => {
  test('anchors are made as GitHub makes them', () => {
    expect(anchorOf('Outside GitHub: the `docs-admin` CLI')).toBe('outside-github-the-docs-admin-cli')
    expect(anchorOf('Serve `.html` pages at extensionless URLs')).toBe('serve-html-pages-at-extensionless-urls')
    expect(anchorOf('Retries, timeouts and cancellation')).toBe('retries-timeouts-and-cancellation')
    expect(anchorOf('Export, for enterprise teams')).toBe('export-for-enterprise-teams')
  })

  test('a broken link is seen: a missing file, a missing heading', () => {
    expect(brokenLink('README.md', 'docs/nowhere.md')).toBe('no such file')
    expect(brokenLink('README.md', 'docs/reference.md#nowhere')).toBe('no such heading')
    expect(brokenLink('docs/reference.md', '../README.md#previews')).toBeUndefined()
    expect(brokenLink('README.md', '#fork-pull-requests')).toBeUndefined()
  })

  test.each(DOCUMENTS)('%s: every relative link and anchor leads somewhere', (document) => {
    const links = linksOf(readFileSync(path.join(ROOT, document), 'utf8'))
    const broken = links
      .map((target) => ({ target, why: brokenLink(document, target) }))
      .filter(({ why }) => why !== undefined)
    expect(broken).toEqual([])
  })

  test('README and the reference link each other', () => {
    expect(linksOf(readFileSync(path.join(ROOT, 'README.md'), 'utf8'))).toContain('docs/reference.md')
    expect(linksOf(readFileSync(path.join(ROOT, 'docs/reference.md'), 'utf8'))).toContain('../README.md')
  })
})
