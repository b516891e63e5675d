import { describe, expect, test } from '@jest/globals'
import { Outputs } from '../src/action/outputs.js'
import { newReport, renderSummary } from '../src/action/summary.js'
import { brokenLinksFold } from '../src/export/site-check.js'
import { readSummary } from './support/github-summary.js'
import { secretsOf } from './support/secrets.js'

function summaryOf(
  notes: string[],
  failure?: string,
  rows: Array<[string, string]> = [],
  secrets: string[] = []
): string {
  const report = newReport('Docs admin')
  report.notes.push(...notes)
  report.rows.push(...rows)
  const outputs = new Outputs(() => undefined)
  outputs.set('job-id', 'job_abc')
  return renderSummary(report, outputs, failure, secretsOf(...secrets), 0)
}

describe('the job summary as GitHub shows it', () => {
  test("a note's code spans are <code>: no backtick shows", () => {
    const summary = summaryOf(['Not waiting for the job (`wait: false`).'])
    expect(summary).toContain('<p>Not waiting for the job (<code>wait: false</code>).</p>')
    const { markdownBlocks, shownText } = readSummary(summary)
    expect(markdownBlocks).toEqual([])
    expect(shownText).not.toContain('`')
  })

  test('several problems are a list, each item with its code', () => {
    const summary = summaryOf(
      [],
      'Invalid inputs:\n  - `timeout` must be a duration\n  - `domain` must be a host name, got <b>x</b>'
    )
    expect(summary).toContain(
      '<p>❌ Invalid inputs:</p>\n<ul><li><code>timeout</code> must be a duration</li>' +
        '<li><code>domain</code> must be a host name, got &#60;b&#62;x&#60;/b&#62;</li></ul>'
    )
    const { markdownBlocks, shownText, lists } = readSummary(summary)
    expect(markdownBlocks).toEqual([])
    expect(shownText).not.toContain('`')
    expect(lists).toHaveLength(1)
    expect(lists[0]).toHaveLength(2)
  })

  test('the secrets are taken out, as written and as they are escaped', () => {
    const summary = summaryOf(
      ['Sent `k&y<1>` and k&y<1> again'],
      'The service said: bad key k&y<1>',
      [['Key', 'k&y<1>']],
      ['k&y<1>']
    )
    expect(summary).not.toMatch(/k&y|k&#38;y/)
    expect(summary.match(/\*\*\*/g)).toHaveLength(4)
  })

  test('a secret with an @ in it is taken out of plain text too, where the @ no longer pings', () => {
    const summary = summaryOf(['Sent tok@en99 as `tok@en99`'], 'The service said: bad key tok@en99', [], ['tok@en99'])
    expect(summary).not.toContain('en99')
    expect(summary.match(/\*\*\*/g)).toHaveLength(3)
  })

  test('one problem is one paragraph', () => {
    const summary = summaryOf([], 'Invalid input: `operation` must be one of `export`, `agent`.')
    expect(summary).toContain(
      '<p>❌ Invalid input: <code>operation</code> must be one of <code>export</code>, <code>agent</code>.</p>'
    )
    expect(readSummary(summary).lists).toEqual([])
  })

  test("a message's paragraphs and lists keep their order: a blank line starts a paragraph", () => {
    // Every line break is one, CR LF and CR too.
    const failure =
      'Agent job job_abc failed: the build broke:\n- step one\n- step two\nSee the log.\n\nThen rerun.\r\nOr not.\rBye.'
    expect(summaryOf([], failure)).toContain(
      '<p>❌ Agent job job_abc failed: the build broke:</p>\n<ul><li>step one</li><li>step two</li></ul>\n' +
        '<p>See the log.</p>\n<p>Then rerun.<br>Or not.<br>Bye.</p>'
    )
    // A message that starts with a list: the failure's mark still comes first.
    expect(summaryOf([], '- one\n- two')).toContain('<p>❌</p>\n<ul><li>one</li><li>two</li></ul>')
  })

  test('code spans as Markdown reads them: a longer fence holds a backtick, a lone backtick is text', () => {
    const summary = summaryOf(['a `` b`c `` d, and `one` and a lone ` here'])
    expect(summary).toContain('<p>a <code>b`c</code> d, and <code>one</code> and a lone ` here</p>')
  })

  test('text from elsewhere cannot end the HTML, add any, or ping anyone', () => {
    const hostile =
      'done\n\n![tracker](https://evil.example/p.png) @octocat <img src=x onerror=alert(1)>' +
      '\r\r<script>x</script>\n \n# heading \u202eevil\u0007'
    const summary = summaryOf([hostile], `Agent job job_abc failed: ${hostile}.`, [['Prompt', hostile]])
    const { markdownBlocks } = readSummary(summary)
    // One HTML block: no blank line lets the rest be read as Markdown.
    expect(markdownBlocks).toEqual([])
    expect(summary.trimEnd()).not.toMatch(/\n[ \t]*\n/)
    expect(summary).not.toMatch(/<(img|script)/)
    expect(summary).not.toContain('@octocat')
    expect(summary).toContain('@\u200doctocat')
    // Nor reorder what is shown (a right-to-left override), nor carry a control character.
    for (const mark of ['\u202e', '\u0007']) expect(summary).not.toContain(mark)
    expect(summary).toContain(
      '<td>done<br><br>![tracker](https://evil.example/p.png) @\u200doctocat &#60;img src=x onerror=alert(1)&#62;'
    )
  })

  test('code is escaped too: a code span of a message, a value shown as code', () => {
    const outputs = new Outputs(() => undefined)
    outputs.set('source-ref', '<img src=x>')
    const summary = renderSummary(
      newReport('Docs admin'),
      outputs,
      'Invalid input: `project-id` must be a plain identifier, not `<img src=x>`.',
      secretsOf(),
      0
    )
    expect(summary).not.toContain('<img')
    expect(summary).toContain('<tr><td>Branch</td><td><code>&#60;img src=x&#62;</code></td></tr>')
    expect(summary).toContain('not <code>&#60;img src=x&#62;</code>.</p>')
  })

  test('a fold is one line: a list, or a log whose blank and indented lines keep their place; its text escaped', () => {
    const report = newReport('Deployment')
    report.folds.push(
      { title: 'Added (2)', kind: 'list', lines: ['docs/<b>.mdx', '@team/page.mdx'] },
      {
        title: "The deployment's log",
        kind: 'log',
        lines: ['step 1', '', '  at build (x.js:1)', '::error::x'],
        open: true
      }
    )
    const summary = renderSummary(report, new Outputs(() => undefined), 'Deployment d1 failed.', secretsOf(), 0)
    expect(summary).toContain(
      '<details><summary>Added (2)</summary><ul><li>docs/&#60;b&#62;.mdx</li>' +
        '<li>@\u200dteam/page.mdx</li></ul></details>\n'
    )
    expect(summary).toContain(
      '<details open><summary>The deployment&#39;s log</summary>' +
        '<pre>step 1<br><br>  at build (x.js:1)<br>::error::x</pre></details>\n' +
        '<p>❌ Deployment d1 failed.</p>'
    )
    expect(readSummary(summary).markdownBlocks).toEqual([])
  })

  test('the tables stay as they were', () => {
    const summary = summaryOf([], undefined, [['Permission', 'write']])
    expect(summary).toBe(
      '<h3>Docs admin</h3>\n<table><tr><th>Item</th><th>Value</th></tr>' +
        '<tr><td>Job</td><td><code>job_abc</code></td></tr><tr><td>Permission</td><td>write</td></tr></table>\n'
    )
  })

  test('moments in UTC and from when the summary is written; cache-hit in words; text that is no time as it is', () => {
    const outputs = new Outputs(() => undefined)
    outputs.set('expires-at', '2025-06-01T14:32:05.000Z')
    outputs.set('created-at', '2025-06-01 13:00:00')
    outputs.set('archived-at', 'yesterday')
    outputs.set('cache-hit', true)
    const summary = renderSummary(
      newReport('Static export of docs.acme.com'),
      outputs,
      undefined,
      secretsOf(),
      Date.parse('2025-06-01T14:18:00Z')
    )
    expect(summary).toContain('<tr><td>Link expires</td><td>2025-06-01 14:32:05 UTC (in 14 min)</td></tr>')
    // A time without a zone is the service's, read as UTC.
    expect(summary).toContain('<tr><td>Job created</td><td>2025-06-01 13:00:00 UTC (1 h 18 min ago)</td></tr>')
    expect(summary).toContain('<tr><td>Archived</td><td>yesterday</td></tr>')
    expect(summary).toContain('<tr><td>Cache hit</td><td>yes: from the runner&#39;s tool cache</td></tr>')
    outputs.set('cache-hit', false)
    expect(renderSummary(newReport('x'), outputs, undefined, secretsOf(), 0)).toContain(
      '<td>Cache hit</td><td>no: downloaded</td>'
    )
  })

  test("a broken link's text (the archive's) is made safe, and the run's secrets go before it is cut", () => {
    const key = 'mint_live_Q7w9ZkX2vB4nM8pL3rT6yH1jD5fG0sAe'
    // The key straddles the 300th character, where the line is cut.
    const link = `/docs/${'a'.repeat(280)}${key}\u202e/tail`
    const fold = brokenLinksFold(
      {
        problems: [],
        htmlPages: 2,
        links: 3,
        brokenCount: 3,
        broken: [{ file: 'guide.html', line: 7, link, count: 2 }],
        reviewMs: 1
      },
      secretsOf(key)
    )
    expect(fold.lines).toHaveLength(2)
    expect(fold.lines[0]).toMatch(/^guide\.html line 7 → \/docs\/a{280}\*\*\*.*\(and 1 more place\)$/)
    expect(fold.lines[0]).not.toContain(key.slice(0, 8))
    expect(fold.lines[0]).not.toContain('\u202e')
    expect(fold.lines[1]).toBe('… and 1 more place (the first 1 link shown)')
  })
})
