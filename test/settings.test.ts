import * as path from 'node:path'
import { describe, expect, test } from '@jest/globals'
import { INPUTS, type InputName } from '../src/action/inputs.js'
import { type AgentSettings, type ExportByDomain, type ExportSettings, readSettings } from '../src/action/settings.js'
import { ActionError } from '../src/common/errors.js'
import { formatDuration, formatSeconds, parseDuration, parseSize } from '../src/common/units.js'
import { folderProblem } from '../src/action/path-guard.js'
import { MAX_SITE_ENTRIES } from '../src/site/entry-safety.js'
import { archiveBound } from '../src/site/ledger.js'

const workspace = path.resolve('/work/space')

function read(values: Partial<Record<InputName, string>>, warnings: string[] = [], eventName?: string) {
  return readSettings((name) => values[name], { workspace, eventName, warn: (m) => warnings.push(m) })
}

const exportInputs = {
  operation: 'export',
  'api-key': 'dsk_x',
  'base-url': 'https://api.example.com',
  domain: 'docs.acme.com'
}

function problemsOf(values: Partial<Record<InputName, string>>): string {
  try {
    read(values)
  } catch (error) {
    expect(error).toBeInstanceOf(ActionError)
    return (error as Error).message
  }
  throw new Error('expected the inputs to be refused')
}

describe('parseDuration', () => {
  test.each([
    ['250ms', 250],
    ['90s', 90_000],
    ['15m', 900_000],
    ['1h', 3_600_000],
    ['30', 30_000],
    ['1.5', 1500],
    [' 2 s ', 2000],
    ['0.5m', 30_000]
  ])('%s is %d ms', (text, ms) => expect(parseDuration(text)).toBe(ms))

  test.each(['', 'soon', '-5s', '5 minutes', '1h30m', 'NaN', '5d'])('%s is not a duration', (text) => {
    expect(parseDuration(text)).toBeUndefined()
  })

  test('formats for the log', () => {
    expect(formatDuration(850)).toBe('850ms')
    expect(formatDuration(42_000)).toBe('42s')
    expect(formatDuration(185_000)).toBe('3m 05s')
    expect(formatDuration(3_720_000)).toBe('1h 02m')
    // To a tenth where the tenths count (a retry's wait, a download's time).
    expect(formatSeconds(1460)).toBe('1.5 s')
    expect(formatSeconds(0)).toBe('0.0 s')
  })
})

describe('parseSize', () => {
  test.each([
    ['1048576', 1048576],
    ['512k', 512 * 1024],
    ['500m', 500 * 1024 ** 2],
    ['2g', 2 * 1024 ** 3],
    ['1.5G', 1.5 * 1024 ** 3],
    [' 2 GiB ', 2 * 1024 ** 3],
    ['500MB', 500 * 1024 ** 2],
    ['1t', 1024 ** 4],
    ['100b', 100]
  ])('%s is %d bytes', (text, bytes) => expect(parseSize(text)).toBe(bytes))

  test.each(['', 'big', '-1m', '5 gigabytes', '1e9', '2x', '9'.repeat(30)])('%s is not a size', (text) => {
    expect(parseSize(text)).toBeUndefined()
  })
})

describe('folderProblem', () => {
  const ALLOWED = '(allowed)'
  const guarded = [
    { path: path.resolve('/runner/temp'), name: "the runner's temp folder" },
    { path: path.resolve('/work/space'), name: 'the workspace' },
    { path: path.resolve('/cache/site/..tools'), name: 'the tool cache' }
  ]
  test.each([
    ['/work/space/site', undefined],
    ['/runner/temp/site', undefined],
    ['/work/space2', undefined],
    ['/runner/temp', "is the runner's temp folder"],
    ['/runner', "holds the runner's temp folder"],
    ['/Runner/TEMP', "is the runner's temp folder"],
    ['/work', 'holds the workspace'],
    // A folder whose name starts with two dots is inside, not above.
    ['/cache/site', 'holds the tool cache'],
    ['/', 'is the root of the file system'],
    ['/work/space/site/.git/x', 'is a `.git` folder or inside one'],
    ['/work/space/GIT~1', 'is a `.git` folder or inside one']
  ])('%s: %s', (folder, problem) => {
    expect(folderProblem(path.resolve(folder), guarded) ?? ALLOWED).toContain(problem ?? ALLOWED)
  })
})

describe('what the inputs say of their bounds', () => {
  test("max-site-size gives the archive's fixed allowance as archiveBound counts it", () => {
    const allowance = archiveBound({ maxBytes: 0 })
    expect(archiveBound({ maxBytes: 1024 })).toBe(allowance + 2048)
    for (const description of [INPUTS['max-site-size'].description, INPUTS['max-site-size'].cli]) {
      expect(description).toContain(`twice that plus ${Math.floor(allowance / 2 ** 20).toLocaleString('en-US')} MiB`)
      expect(description).toContain(`${MAX_SITE_ENTRIES.toLocaleString('en-US')} entries' headers at 1 KiB each`)
    }
  })
})

describe('export inputs', () => {
  test('defaults match action.yml', () => {
    const settings = read(exportInputs) as ExportSettings
    expect(settings).toMatchObject({
      operation: 'export',
      baseUrl: 'https://api.example.com',
      domain: 'docs.acme.com',
      wait: true,
      timeoutMs: 30 * 60_000,
      pollIntervalMs: 5000,
      maxPollIntervalMs: 60_000,
      path: path.join(workspace, 'static-export'),
      download: true,
      extract: true,
      paths: undefined,
      helmValuesFile: undefined
    })
    // A new export: no job to reuse.
    expect('jobId' in settings).toBe(false)
  })

  test("base-url is Mintlify's admin API unless a self-hosted deployment gives its own", () => {
    expect(read({ ...exportInputs, 'base-url': undefined }).baseUrl).toBe('https://api.mintlify.com')
  })

  test('an input with a default given empty (an unset variable) is refused, not taken for the default', () => {
    // `base-url: ${{ vars.DOCS_API_URL }}` with the variable unset: the key must not go to Mintlify's own API.
    for (const empty of ['', '  '])
      expect(problemsOf({ ...exportInputs, 'base-url': empty })).toBe(
        'Invalid input: `base-url` is empty (a variable that is not set expands to nothing): give it a value, or ' +
          'leave it out for its default `https://api.mintlify.com`.'
      )
    const message = problemsOf({ ...exportInputs, timeout: '', verify: '' })
    expect(message).toContain('`timeout` is empty (a variable that is not set expands to nothing)')
    expect(message).toContain('leave it out for its default `true`.')
    // Without a default of the action's own, empty is not given: no job to reuse, no token.
    const settings = read({ ...exportInputs, 'job-id': '', 'github-token': '', 'helm-values-file': '' })
    expect(settings).toMatchObject({ domain: 'docs.acme.com', githubToken: undefined, helmValuesFile: undefined })
    expect('jobId' in settings).toBe(false)
  })

  test('base-url keeps a path prefix and drops a trailing slash', () => {
    expect(read({ ...exportInputs, 'base-url': 'https://gw.acme.com/docs-api/' }).baseUrl).toBe(
      'https://gw.acme.com/docs-api'
    )
  })

  test.each(['http://127.0.0.1:8787', 'http://localhost:1', 'http://[::1]:9', 'http://127.1.2.3'])(
    'http is allowed for loopback %s',
    (url) => {
      expect(read({ ...exportInputs, 'base-url': url }).baseUrl).toBe(new URL(url).origin)
    }
  )

  test('http to any other host is refused', () => {
    expect(problemsOf({ ...exportInputs, 'base-url': 'http://api.example.com' })).toMatch(
      /`base-url` must use `https:\/\/`/
    )
  })

  test('a site URL is normalised to its hostname, with a warning', () => {
    const warnings: string[] = []
    expect((read({ ...exportInputs, domain: 'https://Docs.Acme.com/' }, warnings) as ExportSettings).domain).toBe(
      'docs.acme.com'
    )
    expect(warnings.join()).toMatch(/bare hostname/)
  })

  test.each([
    'https://docs.acme.com/guide',
    'docs acme',
    'docs.acme.com:8080',
    'ftp://docs.acme.com/',
    '-bad.com',
    'a..b'
  ])('domain %s is refused', (domain) => {
    expect(problemsOf({ ...exportInputs, domain })).toMatch(/`domain` must be a bare hostname/)
  })

  test('paths are split on lines, blanks dropped', () => {
    expect((read({ ...exportInputs, paths: '/a\n\n  /b/c  \r\n' }) as ExportByDomain).paths).toEqual(['/a', '/b/c'])
  })

  test('job-id alone is enough, and relative paths resolve against the workspace', () => {
    const settings = read({
      ...exportInputs,
      domain: '',
      'job-id': 'exp_1',
      'helm-values-file': 'deploy/values.yaml',
      path: '/abs/site'
    }) as ExportSettings
    expect(settings.jobId).toBe('exp_1')
    expect(settings.helmValuesFile).toBe(path.join(workspace, 'deploy/values.yaml'))
    expect(settings.path).toBe(path.resolve('/abs/site'))
  })

  test('every problem is listed in one error, before any request', () => {
    const message = problemsOf({
      operation: 'export',
      'base-url': 'ftp://x',
      wait: 'yes',
      timeout: 'forever',
      'poll-interval': '10s',
      'max-poll-interval': '5s',
      path: '.',
      'job-id': '../etc'
    })
    expect(message).toMatch(/^Invalid inputs:/)
    for (const name of ['api-key', 'base-url', 'wait', 'timeout', 'max-poll-interval', 'path', 'job-id']) {
      expect(message).toContain(`\`${name}\``)
    }
    // A job-id given but refused is its own problem: no second one about a missing domain.
    expect(message).not.toContain('`domain` is required')
    expect(problemsOf({ operation: 'export', 'api-key': 'k' })).toContain(
      '`domain` is required unless `job-id` names an existing export job.'
    )
  })

  test('absurd durations are refused, naming the input and the bound', () => {
    const message = problemsOf({
      ...exportInputs,
      timeout: '2000h',
      'poll-interval': '700h',
      'max-poll-interval': '700h'
    })
    expect(message).toContain('`timeout` must be at most `168h`, not `2000h`.')
    expect(message).toContain('`poll-interval` must be at most `24h`, not `700h`.')
    expect(message).toContain('`max-poll-interval` must be at most `24h`, not `700h`.')
    expect(
      read({ ...exportInputs, timeout: '168h', 'poll-interval': '24h', 'max-poll-interval': '24h' }).timeoutMs
    ).toBe(168 * 3_600_000)
  })

  test('a timeout of a bare number under a minute is taken as seconds, with a warning', () => {
    const warnings: string[] = []
    expect(read({ ...exportInputs, timeout: '10' }, warnings).timeoutMs).toBe(10_000)
    expect(warnings).toEqual([
      '`timeout` is `10`, which is 10 seconds (a number without a unit is seconds): write `10m` for minutes, or ' +
        '`10s` to keep it without this warning.'
    ])
    // A unit says what is meant; a minute or more of plain seconds is meant too; poll intervals are seconds.
    const none: string[] = []
    for (const timeout of ['10s', '45s', '60', '900', '1.5m'])
      expect(read({ ...exportInputs, timeout, 'poll-interval': '5', 'max-poll-interval': '30' }, none).timeoutMs).toBe(
        parseDuration(timeout)
      )
    expect(none).toEqual([])
  })

  test('a bad interval gets one problem, none about its order; a poll-interval over the cap says to raise it', () => {
    const bad = problemsOf({ ...exportInputs, 'max-poll-interval': 'abc' })
    expect(bad).toContain('`max-poll-interval` must be a positive duration')
    expect(bad).not.toContain('must not be shorter than')
    expect(problemsOf({ ...exportInputs, 'poll-interval': '2m', 'max-poll-interval': '60s' })).toContain(
      '`max-poll-interval` (60s) must not be shorter than `poll-interval` (2m): ' +
        'raise `max-poll-interval` too (its default is `60s`).'
    )
  })

  test('the workspace or a parent of it is refused as `path`', () => {
    expect(problemsOf({ ...exportInputs, path: '..' })).toMatch(/`path` must be a folder of its own/)
    expect(problemsOf({ ...exportInputs, path: '/' })).toMatch(/`path` must be a folder of its own/)
  })

  test.each(['.git', '.git/site', 'docs/.git', '.GIT', '.git.', 'sub/.Git/x', '../space/.git'])(
    '`path: %s`, in a .git folder, is refused',
    (value) => {
      expect(problemsOf({ ...exportInputs, path: value })).toContain(
        `\`path\` must be a folder of its own (it is replaced by each export), not \`${value}\`, ` +
          `which is a \`.git\` folder or inside one`
      )
    }
  )

  test('max-site-size: 5g by default, sizes with units, positive only', () => {
    expect((read(exportInputs) as ExportSettings).maxSiteBytes).toBe(5 * 1024 ** 3)
    expect((read({ ...exportInputs, 'max-site-size': '500m' }) as ExportSettings).maxSiteBytes).toBe(500 * 1024 ** 2)
    expect(problemsOf({ ...exportInputs, 'max-site-size': 'lots' })).toContain(
      '`max-site-size` must be a positive size such as `500m`, `2g` or plain bytes, not `lots`.'
    )
    expect(problemsOf({ ...exportInputs, 'max-site-size': '0' })).toContain('`max-site-size` must be a positive size')
    // Positive, but past what a number holds exactly: the problem says so, not that it is no size.
    expect(problemsOf({ ...exportInputs, 'max-site-size': '999999999999999999999t' })).toContain(
      '`max-site-size` must be less than 8 PiB (`8192t`), not `999999999999999999999t`.'
    )
  })

  test('inputs that would change nothing get a warning, not silence', () => {
    const warnings: string[] = []
    read({ ...exportInputs, domain: '', 'job-id': 'exp_1', 'docs-version': 'v2', paths: '/guides' }, warnings)
    read({ ...exportInputs, verify: 'strict', extract: 'false' }, warnings)
    read({ ...exportInputs, wait: 'false', 'helm-values-file': 'values.yaml', 'export-version': 'v1' }, warnings)
    expect(warnings).toEqual([
      '`docs-version` and `paths` only shape a new export; `job-id` reuses one as it was started.',
      '`verify: strict` checks an unpacked site; with `extract: false` nothing is unpacked or checked.',
      '`helm-values-file`, `export-version` shape the Helm values, written once the bundle link exists; ' +
        'with `wait: false` the run stops before that.'
    ])
    const none: string[] = []
    read({ ...exportInputs, verify: 'strict', 'docs-version': 'v2' }, none)
    expect(none).toEqual([])
  })

  test('no key on a pull-request event says that a fork gets no secrets, and what to do', () => {
    const agentStatus = {
      operation: 'agent-status',
      'project-id': 'p',
      'job-id': 'j',
      'base-url': 'https://api.example.com'
    }
    const refused = (eventName: string | undefined): string => {
      try {
        read(agentStatus, [], eventName)
      } catch (error) {
        return (error as Error).message
      }
      throw new Error('expected the inputs to be refused')
    }
    expect(refused('pull_request_review_comment')).toBe(
      'Invalid input: `api-key` is required. On a pull request from a fork, GitHub passes no secrets to ' +
        "`pull_request_review_comment` runs: comment on the pull request's conversation tab instead, whose " +
        'comments run in the base repository, with its secrets.'
    )
    expect(refused('pull_request_review')).toContain('no secrets to `pull_request_review` runs: comment on')
    expect(refused('pull_request')).toContain(
      'no secrets to `pull_request` runs: skip the step for forks ' +
        '(`if: github.event.pull_request.head.repo.full_name == github.repository`).'
    )
    // Elsewhere the key is simply missing; a comment on the conversation gets the secrets.
    for (const eventName of [undefined, 'push', 'issue_comment'])
      expect(refused(eventName)).toBe('Invalid input: `api-key` is required.')
  })

  test('an unknown operation names the allowed ones', () => {
    expect(problemsOf({ ...exportInputs, operation: 'publish' })).toMatch(
      new RegExp(
        /`operation` must be one of `export`, `agent`, `agent-message`, `agent-status`, `agent-create`, /.source +
          /`deploy`, `preview`, `automation`, not `publish`/.source
      )
    )
  })
})

describe('agent inputs', () => {
  const agent = { 'api-key': 'k', 'base-url': 'https://api.example.com', 'project-id': 'proj_1' }

  test('agent-message needs a job, a project and a prompt', () => {
    const message = problemsOf({
      operation: 'agent-message',
      'api-key': 'k',
      'base-url': 'https://api.example.com',
      prompt: '   '
    })
    expect(message).toContain('`job-id` is required for `agent-message`')
    expect(message).toContain('`project-id` is required')
    expect(message).toContain('`prompt` is required')
  })

  test('a comment command may supply the prompt later', () => {
    const settings = read({
      ...agent,
      operation: 'agent-message',
      'job-id': 'job_1',
      'comment-command': '/docs-agent'
    }) as AgentSettings
    expect(settings).toMatchObject({
      prompt: { from: 'comment', command: '/docs-agent' },
      commentCommand: '/docs-agent',
      commentReply: true
    })
  })

  test.each(['a/b', 'a\\b', '.', '..', 'job\u0000', 'job\n1', 'job\u202e1'])('path segment %s is refused', (id) => {
    expect(problemsOf({ ...agent, operation: 'agent-status', 'job-id': id })).toMatch(
      /`job-id` must be a plain identifier/
    )
    expect(problemsOf({ ...agent, operation: 'agent-status', 'job-id': 'j', 'project-id': id })).toMatch(
      /`project-id` must be a plain identifier/
    )
  })

  test('agent-create needs no job id; the github token default is not taken literally', () => {
    const settings = read({ ...agent, operation: 'agent-create', prompt: ' Update docs ' }) as AgentSettings
    expect(settings).toMatchObject({
      operation: 'agent-create',
      prompt: { from: 'input', text: 'Update docs' },
      githubToken: undefined
    })
    expect('jobId' in settings).toBe(false)
  })
})

describe('deploy inputs', () => {
  const deployInputs = { operation: 'deploy', 'api-key': 'dsk_x', 'base-url': 'https://api.example.com' }

  test('project-id triggers a deployment; job-id follows one, with or without project-id', () => {
    expect(read({ ...deployInputs, 'project-id': 'proj_1', wait: 'false' })).toMatchObject({
      operation: 'deploy',
      projectId: 'proj_1',
      wait: false,
      timeoutMs: 30 * 60_000
    })
    expect(read({ ...deployInputs, 'job-id': '65f0c0ffee' })).toMatchObject({
      jobId: '65f0c0ffee',
      projectId: undefined
    })
    expect(read({ ...deployInputs, 'job-id': 'st_1', 'project-id': 'proj_1' })).toMatchObject({
      jobId: 'st_1',
      projectId: 'proj_1'
    })
  })

  test('neither is refused, and so is an id that is no plain path segment, with every other problem', () => {
    expect(problemsOf(deployInputs)).toBe(
      'Invalid input: `project-id` is required for `deploy` unless `job-id` names a deployment to follow.'
    )
    const problems = problemsOf({ ...deployInputs, 'project-id': 'a/b', 'poll-interval': '0' })
    expect(problems).toContain('`project-id` must be a plain identifier (no `/`, not `.` or `..`), not `a/b`.')
    expect(problems).toContain('`poll-interval` must be a positive duration')
    expect(problems).not.toContain('is required for `deploy`')
  })
})

describe('automation inputs', () => {
  const automationInputs = { operation: 'automation', 'api-key': 'dsk_x', 'base-url': 'https://api.example.com' }

  test('project-id and automation-id, both required; job-id and domain are no inputs of it', () => {
    expect(read({ ...automationInputs, 'project-id': 'proj_1', 'automation-id': 'Wf-1_a' })).toMatchObject({
      operation: 'automation',
      projectId: 'proj_1',
      automationId: 'Wf-1_a'
    })
    const ignored = read({ ...automationInputs, 'project-id': 'p', 'automation-id': 'a', 'job-id': 'j', domain: 'x' })
    expect('jobId' in ignored || 'domain' in ignored).toBe(false)
    expect(problemsOf(automationInputs)).toBe(
      'Invalid inputs:\n  - `project-id` is required for `automation`.\n' +
        '  - `automation-id` is required for `automation`.'
    )
  })

  test.each(['a/b', 'a b', 'a.b', '..', 'a%2F', 'é', 'a\u0000', 'a\nb'])('automation-id %j is refused', (id) => {
    const problems = problemsOf({ ...automationInputs, 'project-id': 'p', 'automation-id': id, timeout: 'soon' })
    expect(problems).toContain('`automation-id` must hold only letters, digits, `_` and `-`')
    expect(problems).toContain('`timeout` must be a positive duration')
    expect(problems).not.toContain('is required for `automation`')
  })
})

describe('hostname rules', () => {
  const exportOf = (domain: string) => (read({ ...exportInputs, domain }) as ExportSettings).domain
  test('labels of up to 63 characters and names of up to 253 are accepted', () => {
    const label = 'a'.repeat(63)
    expect(exportOf(`${label}.acme.com`)).toBe(`${label}.acme.com`)
    expect(exportOf('localhost')).toBe('localhost')
    expect(exportOf('x-1.docs.acme.io')).toBe('x-1.docs.acme.io')
  })
  test.each([
    `${'a'.repeat(64)}.acme.com`,
    `${'abcdefghi.'.repeat(25)}example.com`,
    'docs.acme.com.',
    '.acme.com',
    'a_b.com',
    'docs-.acme.com'
  ])('%s is refused', (domain) => {
    expect(problemsOf({ ...exportInputs, domain })).toMatch(/`domain` must be a bare hostname/)
  })
})

describe('comment conversations', () => {
  const agent = { 'api-key': 'k', 'base-url': 'https://api.example.com', 'project-id': 'proj_1' }

  test('comment-permission defaults to write and takes only GitHub roles', () => {
    expect(read({ ...agent, operation: 'agent', prompt: 'x' })).toMatchObject({
      operation: 'agent',
      commentPermission: 'write',
      jobId: undefined
    })
    expect(read({ ...agent, operation: 'agent', prompt: 'x', 'comment-permission': 'maintain' })).toMatchObject({
      commentPermission: 'maintain'
    })
    expect(problemsOf({ ...agent, operation: 'agent', prompt: 'x', 'comment-permission': 'owner' })).toMatch(
      /`comment-permission` must be one of `none`, `read`, `triage`, `write`, `maintain`, `admin`, not `owner`/
    )
  })

  test('on a comment, agent-message and agent-status may leave job-id to the pull request; elsewhere not', () => {
    const onComment = read({ ...agent, operation: 'agent-status' }, [], 'issue_comment')
    expect(onComment).toMatchObject({ operation: 'agent-status', jobId: { from: 'pull-request' } })
    expect(
      read(
        { ...agent, operation: 'agent-message', 'comment-command': '/docs-agent' },
        [],
        'pull_request_review_comment'
      )
    ).toMatchObject({
      jobId: { from: 'pull-request' },
      prompt: { from: 'comment', command: '/docs-agent' }
    })
    expect(read({ ...agent, operation: 'agent-status', 'job-id': 'job_9' }, [], 'issue_comment')).toMatchObject({
      jobId: { from: 'input', id: 'job_9' }
    })
    expect(problemsOf({ ...agent, operation: 'agent-status' })).toMatch(/`job-id` is required for `agent-status`/)
  })

  test('agent needs an instruction: the prompt input or a comment command', () => {
    expect(problemsOf({ ...agent, operation: 'agent' })).toMatch(/`prompt` is required for `agent`/)
    expect(read({ ...agent, operation: 'agent', 'comment-command': '/docs-agent', 'job-id': 'job_2' })).toMatchObject({
      jobId: 'job_2',
      prompt: { from: 'comment' }
    })
  })
})
