import { describe, expect, test } from '@jest/globals'
import fc from 'fast-check'
import {
  commentPhrase,
  commentText,
  cutShort,
  plainLogLines,
  serviceText,
  withoutMentions
} from '../src/common/text.js'
import { text } from '../src/service/answer.js'
import { asShown, liveMarkdown } from './support/markdown.js'
import { runnerCommand, runnerLines as lines } from './support/runner.js'

const hostile = [
  '::stop-commands::x',
  '  ::set-output name=bundle-url::https://evil.example',
  'running\n::set-output name=x::y',
  'running\r::add-mask::everything',
  'running\u2028::warning::spoofed',
  'done ##[set-output name=x;]y',
  '\u00a0\u3000::error::unicode white space first',
  '\u0085::set-output name=x::next line first',
  'tab\there'
]

describe('text from the service', () => {
  test('cut short at a bound, saying so, never through a UTF-16 pair; as it is when it fits', () => {
    expect(cutShort('abcdef', 6, '(cut)')).toBe('abcdef')
    expect(cutShort('abcdefg', 6, '(cut)')).toBe('abcdef… (cut)')
    expect(cutShort('abcdefg', 6)).toBe('abcdef…')
    expect(cutShort('ab😀cd', 3, '(cut)')).toBe('ab… (cut)')
    expect(cutShort('ab😀cd', 4, '(cut)')).toBe('ab😀… (cut)')
  })

  test.each(hostile)('%j reads as one line that starts no command', (value) => {
    const safe = serviceText(value)
    expect(lines(safe)).toHaveLength(1)
    expect(runnerCommand(safe)).toBeUndefined()
    // And it stays readable: only invisible marks and spaces were added.
    expect(safe.replace(/[\u200b\s]/g, '')).toBe(value.replace(/[\s\u2028\u0085]/g, ''))
  })

  test('the answer readers give it out made safe', () => {
    expect(text('::stop-commands::x')).toBe('\u200b::stop-commands::x')
    expect(text('running\n::set-output name=x::y')).toBe('running ::set-output name=x::y')
    expect(text('  job_1  ')).toBe('job_1')
  })

  test('a log line of ours cannot become a command, whatever it embeds', () => {
    const message = `Export job x: ${hostile.join('\n')}`
    for (const line of lines(plainLogLines(message))) expect(runnerCommand(line)).toBeUndefined()
    expect(plainLogLines('Export job exp_1: running, 40%')).toBe('Export job exp_1: running, 40%')
  })

  test('a log line of ours carries no terminal escape and no Azure Pipelines command (for the CLI there)', () => {
    const line = plainLogLines(
      'page \u001b[2J\u001b]0;title\u0007 ##vso[task.setvariable variable=X]1 ##VSO[task.complete]\tok'
    )
    expect([...line].filter((c) => c < ' ' && c !== '\t')).toEqual([])
    expect(line).not.toMatch(/##vso\[/i)
    expect(line).toContain('\tok')
  })

  test('mentions in a comment keep their text but ping nobody', () => {
    const safe = withoutMentions('ask @octocat and @acme/docs-team, mail a@b.c')
    expect(safe).not.toMatch(/(^|[^\w])@[A-Za-z0-9]/)
    expect(safe.replace(/\u200d/g, '')).toBe('ask @octocat and @acme/docs-team, mail a@b.c')
  })

  test('in a comment it is plain text: no Markdown construct, HTML or mention, and it reads the same', () => {
    // No Markdown construct: no link, image, heading, quote, emphasis, code span or table.
    const phishing =
      '# ✅ Approved by @acme/maintainers — [click here to merge](https://evil.example/phish) ' +
      '![](https://evil.example/pixel.png)'
    expect(commentText(phishing)).toBe(
      '\\# ✅ Approved by @\u200dacme/maintainers — \\[click here to merge\\](https:\u200d//evil.example/phish) ' +
        '\\!\\[\\](https:\u200d//evil.example/pixel.png)'
    )
    const blocks = [
      '> quoted',
      '- item',
      '2) item',
      'Title',
      '===',
      '| a | b |',
      '|---|---|',
      '`code` *em* _em_ ~~gone~~ $x$',
      '<b>bold</b> &amp; www.evil.example'
    ].join('\n')
    expect(liveMarkdown(commentText(blocks))).toEqual([])
    expect(asShown(commentText(blocks))).toBe(blocks)
    // A status inside `**…**`: one line, and it cannot close the emphasis.
    expect(commentPhrase('done**\n# [x](https://evil.example)')).toBe(
      'done\\*\\* \\# \\[x\\](https:\u200d//evil.example)'
    )
  })

  test('any text in a comment reads as plain text and reads the same (property)', () => {
    const piece = fc.constantFrom(
      '[',
      ']',
      '(',
      ')',
      '!',
      '*',
      '_',
      '~',
      '`',
      '#',
      '>',
      '<',
      '|',
      '&',
      '$',
      '\\',
      '-',
      '+',
      '=',
      '1.',
      '2)',
      ' ',
      '\t',
      '\n',
      '\r\n',
      'https://',
      'www.',
      '@',
      'a',
      'Z',
      '7',
      'é',
      '😀',
      ':',
      '/',
      '.'
    )
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 40 }), (pieces) => {
        const original = pieces.join('')
        const safe = commentText(original)
        expect(liveMarkdown(safe)).toEqual([])
        expect(asShown(safe)).toBe(original)
      }),
      { numRuns: 2000 }
    )
  })
})
