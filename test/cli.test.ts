import * as path from 'node:path'
import { Writable } from 'node:stream'
import { describe, expect, test } from '@jest/globals'
import { INPUTS, type InputName, OPERATIONS } from '../src/action/inputs.js'
import { resumeHint } from '../src/action/resume.js'
import { flagsOf, parseCommandLine } from '../src/cli/args.js'
import { CliHost } from '../src/cli/cli-host.js'
import { inTerminalTerms } from '../src/cli/terms.js'
import { run } from '../src/main.js'
import { startSimulator } from '../simulator/server.js'
import { runnerCommand } from './support/runner.js'
import { exportInputs, simulatorPerTest } from './support/harness.js'
import { tempFolderPerFile } from './support/temp.js'

const sims = simulatorPerTest()
const temp = tempFolderPerFile('cli-')

const env = { DOCS_ADMIN_API_KEY: 'dsk_from_env', DOCS_ADMIN_BASE_URL: 'https://api.acme.com' }

describe('the command line', () => {
  test('the operation is a subcommand, flags are the inputs, the key and base URL come from the environment', () => {
    expect(
      parseCommandLine(
        ['export', '--domain', 'docs.acme.com', '--poll-interval=2s', '--paths', '/a', '--paths', '/b'],
        env
      )
    ).toEqual({
      kind: 'run',
      operation: 'export',
      inputs: {
        operation: 'export',
        domain: 'docs.acme.com',
        'poll-interval': '2s',
        paths: '/a\n/b',
        'api-key': 'dsk_from_env',
        'base-url': 'https://api.acme.com'
      },
      json: false,
      warnings: []
    })
    expect(
      parseCommandLine(['agent-status', '--job-id', 'j', '--base-url', 'https://other', '--json'], env)
    ).toMatchObject({
      inputs: { 'base-url': 'https://other', 'job-id': 'j' },
      json: true
    })
  })

  test('a secret on the command line is taken, with a warning', () => {
    expect(parseCommandLine(['agent-create', '--api-key', 'dsk_flag', '--prompt', 'x'], {})).toMatchObject({
      inputs: { 'api-key': 'dsk_flag' },
      warnings: [
        "--api-key puts a secret in your shell's history and the process list; set DOCS_ADMIN_API_KEY instead."
      ]
    })
  })

  test('errors: no operation known, a flag of another operation, a positional argument, no key', () => {
    expect(parseCommandLine(['publish'], env)).toEqual({
      kind: 'error',
      message:
        'unknown operation `publish`; one of export, agent, agent-message, agent-status, agent-create, deploy, ' +
        'preview, automation'
    })
    expect(parseCommandLine(['export', '--project-id', 'p'], env)).toEqual({
      kind: 'error',
      message: '`--project-id` is a flag of other operations, not of `export` (see `docs-admin export --help`)'
    })
    expect(parseCommandLine(['export', '--colour', 'blue'], env)).toMatchObject({
      message: 'unknown flag `--colour` (see `docs-admin export --help`)'
    })
    expect(parseCommandLine(['export', 'docs.acme.com'], env)).toMatchObject({
      kind: 'error',
      message: expect.stringContaining('docs-admin export --help')
    })
    expect(parseCommandLine(['export'], {})).toMatchObject({
      kind: 'error',
      message: expect.stringContaining('DOCS_ADMIN_API_KEY')
    })
  })

  test('an empty DOCS_ADMIN_BASE_URL or --base-url fails naming both; unset, the default is taken', async () => {
    const ended = async (args: string[], variables: Record<string, string>) => {
      const line = parseCommandLine(args, variables)
      if (line.kind !== 'run') throw new Error(`not a run: ${JSON.stringify(line)}`)
      const [stdout, stderr] = [capture(false), capture(false)]
      const host = new CliHost(line.inputs, { stdout, stderr, env: variables }, new AbortController().signal)
      await run(host)
      return { code: host.finish(false), stderr: stderr.text(), inputs: line.inputs }
    }
    const refused =
      'error: Invalid input: `--base-url` or `DOCS_ADMIN_BASE_URL` is empty (a variable that is not set expands to ' +
      'nothing): give it a value, or leave it out for its default `https://api.mintlify.com`.\n'
    const key = { DOCS_ADMIN_API_KEY: 'dsk_x' }
    expect(await ended(['deploy', '--project-id', 'p'], { ...key, DOCS_ADMIN_BASE_URL: '' })).toMatchObject({
      code: 2,
      stderr: refused
    })
    expect(await ended(['deploy', '--project-id', 'p', '--base-url', ' '], key)).toMatchObject({
      code: 2,
      stderr: refused
    })
    expect(parseCommandLine(['deploy', '--project-id', 'p'], key)).toMatchObject({ inputs: { 'base-url': undefined } })
  })

  test('a value out of place is never echoed: its position and length are told instead', () => {
    const key = 'mint_5f4dcc3b5aa765d61d8327deb882cf99'
    const messageOf = (argv: string[]): string => {
      const line = parseCommandLine(argv, env)
      return line.kind === 'error' ? line.message : `not refused: ${line.kind}`
    }
    const messages = [
      ['deploy', '--project-id', 'p1', key],
      ['deploy', '--project-id', 'p1', '--', key],
      ['deploy', `--${key}`],
      ['deploy', `-${key}`],
      ['deploy', '--project-id', `-${key}`],
      ['deploy', `--json=${key}`],
      [key, 'deploy']
    ].map(messageOf)
    expect(messages).toEqual([
      'argument 4 (37 characters, not shown: it may be a secret) follows no flag; each value follows its flag ' +
        '(`--name value`) (see `docs-admin deploy --help`)',
      expect.stringContaining('argument 5 (37 characters, not shown: it may be a secret) follows no flag'),
      'argument 2 is no flag of `deploy` (not shown: it may be a secret) (see `docs-admin deploy --help`)',
      'unknown flag `-m` (see `docs-admin deploy --help`)',
      'the value after `--project-id` (argument 2) starts with a dash: give it as `--project-id=<value>` if it ' +
        'is one, or give the flag its value (see `docs-admin deploy --help`)',
      '`--json` takes no value (argument 2) (see `docs-admin deploy --help`)',
      'unknown operation (the first argument, 37 characters); one of export, agent, agent-message, agent-status, ' +
        'agent-create, deploy, preview, automation'
    ])
    for (const message of messages) expect(message).not.toContain(key.slice(5, 13))
  })

  test('every line of a multi-line error, warning or notice starts with what it is', () => {
    const stderr = capture(false)
    const h = new CliHost({}, { stdout: capture(false), stderr, env: {} }, new AbortController().signal)
    h.setFailed('Invalid inputs:\n  - `timeout` is bad.\n  - `domain` is bad.', 'input')
    h.log.warning('two\nlines')
    h.log.notice('one\r\nmore')
    expect(stderr.text()).toBe(
      'error: Invalid inputs:\nerror:   - `--timeout` is bad.\nerror:   - `--domain` is bad.\n' +
        'warning: two\nwarning: lines\nnotice: one\nnotice: more\n'
    )
  })

  test('help, for all and per operation, needs no key', () => {
    for (const asked of ['--help', '-h', 'help'])
      expect(parseCommandLine([asked], {})).toMatchObject({
        kind: 'help',
        text: expect.stringContaining('Operations:')
      })
    expect(parseCommandLine(['agent-message', '-h'], {})).toMatchObject({
      kind: 'help',
      text: expect.stringContaining('--prompt <value>')
    })
  })

  test('no operation at all is a bad command line, with the help to go on', () => {
    expect(parseCommandLine([], env)).toEqual({
      kind: 'error',
      message: 'no operation given',
      help: expect.stringContaining('Operations:')
    })
  })

  test("the flags' help speaks of a command line, not of a workflow", () => {
    const help = (operation: string): string => {
      const line = parseCommandLine([operation, '--help'], {})
      return line.kind === 'help' ? line.text : ''
    }
    for (const operation of OPERATIONS) {
      // The workspace, the runner's folders, the step, the log's masking, the job summary, expressions, comment events.
      expect([
        operation,
        help(operation).match(
          new RegExp(
            /workspace|runner|mask|\bstep\b|workflow|summary|\$\{\{|\bevents?\b|/.source +
              /pull-request comment|comment(?:'s)? author|where a comment/.source,
            'gi'
          )
        )
      ]).toEqual([operation, null])
    }
    const exportHelp = help('export').replace(/\s+/g, ' ')
    expect(exportHelp).toContain(
      '--path <value> (default static-export) Folder for the unpacked site ' +
        '(or for the archive when --extract is false), relative to the current folder or absolute.'
    )
    expect(exportHelp).toContain(
      '--api-key <value> Mintlify admin API key (mint_...), from the API keys page of the dashboard; ' +
        'redacted in the log. Prefer DOCS_ADMIN_API_KEY'
    )
    expect(help('agent-status').replace(/\s+/g, ' ')).toContain(
      '--github-token <value> Token for the GitHub API, to record the job on the pull request the agent opens'
    )
  })

  test("the CLI's own wording of an input is only there where it differs, and only for a flag", () => {
    for (const [name, spec] of Object.entries(INPUTS) as Array<[InputName, { description: string; cli?: string }]>) {
      if (spec.cli === undefined) continue
      expect([name, spec.cli]).not.toEqual([name, spec.description])
      expect([name, OPERATIONS.some((operation) => flagsOf(operation).includes(name))]).toEqual([name, true])
    }
  })

  test('the flags of an operation are the inputs it reads; the comment-only ones are not flags', () => {
    expect(flagsOf('agent-status')).toEqual([
      'api-key',
      'base-url',
      'job-id',
      'wait',
      'timeout',
      'poll-interval',
      'max-poll-interval',
      'project-id',
      'github-token'
    ])
    expect(flagsOf('export')).not.toContain('prompt')
    expect(flagsOf('deploy')).toEqual([
      'api-key',
      'base-url',
      'job-id',
      'wait',
      'timeout',
      'poll-interval',
      'max-poll-interval',
      'project-id',
      'github-token'
    ])
  })

  test('deploy is an operation of its own: --project-id to trigger one, --job-id to follow one', () => {
    expect(parseCommandLine(['deploy', '--project-id', 'proj_1', '--timeout', '20m'], env)).toMatchObject({
      kind: 'run',
      operation: 'deploy',
      inputs: { operation: 'deploy', 'project-id': 'proj_1', timeout: '20m' }
    })
    const general = parseCommandLine(['--help'], {})
    expect(general.kind === 'help' ? general.text : '').toMatch(
      /^ {2}deploy +trigger a deployment of --project-id and wait for it \(or follow the one --job-id names\)$/m
    )
    const help = parseCommandLine(['deploy', '--help'], {})
    expect((help.kind === 'help' ? help.text : '').replace(/\s+/g, ' ')).toContain(
      '--job-id <value> export: reuse this export job (skip the start call). ' +
        'deploy, preview: follow this deployment (its status id) instead of triggering one.'
    )
    expect(parseCommandLine(['deploy', '--domain', 'docs.acme.com'], env)).toMatchObject({
      kind: 'error',
      message: expect.stringContaining('`--domain` is a flag of other operations, not of `deploy`')
    })
  })
})

describe('docs-admin automation', () => {
  test('--project-id and --automation-id run it; no --job-id; the help says it ends when queued', () => {
    expect(flagsOf('automation')).toEqual([
      'api-key',
      'base-url',
      'wait',
      'timeout',
      'poll-interval',
      'max-poll-interval',
      'project-id',
      'automation-id',
      'github-token'
    ])
    expect(parseCommandLine(['automation', '--project-id', 'proj_1', '--automation-id', 'wf_1'], env)).toMatchObject({
      kind: 'run',
      operation: 'automation',
      inputs: { operation: 'automation', 'project-id': 'proj_1', 'automation-id': 'wf_1' }
    })
    const general = parseCommandLine(['--help'], {})
    expect(general.kind === 'help' ? general.text : '').toMatch(
      /^ {2}automation +run the automation --automation-id of --project-id now; ends once its run is queued$/m
    )
    const help = parseCommandLine(['automation', '--help'], {})
    expect((help.kind === 'help' ? help.text : '').replace(/\s+/g, ' ')).toContain(
      '--automation-id <value> automation: the automation to run now (required), as the dashboard shows it: ' +
        'letters, digits, _ and - only. It must be active and on a custom schedule.'
    )
    expect(parseCommandLine(['automation', '--job-id', 'j'], env)).toMatchObject({
      kind: 'error',
      message: expect.stringContaining('`--job-id` is a flag of other operations, not of `automation`')
    })
  })

  test('prints job-id, automation-run-id and status=queued; exits 3 when refused, 2 on a bad id', async () => {
    const sim = await startSimulator()
    const ended = async (args: string[]) => {
      const line = parseCommandLine(['automation', '--base-url', sim.apiUrl, ...args], {
        DOCS_ADMIN_API_KEY: sim.apiKey
      })
      if (line.kind !== 'run') throw new Error(`not a run: ${JSON.stringify(line)}`)
      const [stdout, stderr] = [capture(false), capture(false)]
      const host = new CliHost(line.inputs, { stdout, stderr, env: {} }, new AbortController().signal)
      await run(host)
      return { code: host.finish(false), stdout: stdout.text(), stderr: stderr.text() }
    }
    try {
      const queued = await ended(['--project-id', 'proj_123', '--automation-id', 'wf_changelog'])
      const [runRecord] = sim.automationRuns
      expect(queued).toMatchObject({
        code: 0,
        stdout: `job-id=${runRecord?.jobId}\nautomation-run-id=${runRecord?.instanceId}\nstatus=queued\n`
      })
      expect(queued.stderr).toContain("Watch it in the dashboard's automation runs.")
      const missing = await ended(['--project-id', 'proj_123', '--automation-id', 'wf_gone'])
      expect(missing.code).toBe(3)
      expect(missing.stderr).toContain('Check `--automation-id`')
      expect(missing.stderr).toContain('and `--project-id`.')
      const bad = await ended(['--project-id', 'proj_123', '--automation-id', 'wf/../gone'])
      expect(bad).toMatchObject({ code: 2, stdout: '' })
      expect(bad.stderr).toContain('`--automation-id` must hold only letters, digits')
      expect(sim.count('automation-trigger')).toBe(2)
    } finally {
      await sim.close()
    }
  })
})

/** A stream that keeps what is written, and may claim to be a terminal. */
function capture(isTTY: boolean): Writable & { isTTY: boolean; text: () => string } {
  const chunks: string[] = []
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      chunks.push(chunk.toString())
      done()
    }
  })
  return Object.assign(stream, { isTTY, text: () => chunks.join('') })
}

describe('the CLI host', () => {
  const host = (isTTY: boolean) => {
    const stdout = capture(false)
    const stderr = capture(isTTY)
    return {
      stdout,
      stderr,
      host: new CliHost({ 'api-key': 'k' }, { stdout, stderr, env: {} }, new AbortController().signal)
    }
  }

  test('on a terminal a progress line is rewritten in place, and the next line starts below it', () => {
    const { host: h, stderr } = host(true)
    h.log.progress('Downloaded 1 MiB')
    h.log.progress('Downloaded 2 MiB')
    h.log.info('Unpacked')
    expect(stderr.text()).toBe('\rDownloaded 1 MiB\u001b[K\rDownloaded 2 MiB\u001b[K\nUnpacked\n')
  })

  test('elsewhere progress lines are plain lines', () => {
    const { host: h, stderr } = host(false)
    h.log.progress('Downloaded 1 MiB')
    h.log.warning('slow')
    expect(stderr.text()).toBe('Downloaded 1 MiB\nwarning: slow\n')
  })

  test('secrets are redacted in the log; outputs keep them; the exit code follows the failure', () => {
    const { host: h, stderr, stdout } = host(false)
    h.setSecret('s3cr3t-signature')
    h.log.info('link ?sig=s3cr3t-signature')
    h.setOutput('bundle-url', 'https://x/b?sig=s3cr3t-signature')
    h.setOutput('helm-values', 'a: 1\nb: "c\\\\d"\n')
    h.setFailed('Export job e1 failed.', 'failed')
    expect(stderr.text()).toBe('link ?sig=***\nerror: Export job e1 failed.\n')
    expect(h.finish(false)).toBe(1)
    expect(stdout.text()).toBe('bundle-url=https://x/b?sig=s3cr3t-signature\nhelm-values=a: 1\\nb: "c\\\\\\\\d"\\n\n')
  })

  test('no log line can be a command of the CI system the CLI runs in, or a terminal escape', () => {
    const { host: h, stderr } = host(false)
    // An archive's file name reaches a warning as it is (its control characters and all).
    h.log.warning('Broken link in guide\n::error title=PWNED::x\n##vso[task.setvariable variable=X]1\nx.html line 3')
    h.log.info('\u001b[2Jcleared')
    for (const line of stderr.text().split(/\r\n|\r|\n/)) {
      expect(runnerCommand(line)).toBeUndefined()
      expect(line).not.toMatch(/##vso\[/i)
      expect(line).not.toContain('\u001b')
    }
  })

  test("the core's messages name inputs as the CLI takes them", () => {
    expect(inTerminalTerms('`max-poll-interval` (abc) must not be shorter than `poll-interval` (5s).')).toBe(
      '`--max-poll-interval` (abc) must not be shorter than `--poll-interval` (5s).'
    )
    expect(inTerminalTerms('Could not start: check `api-key`.')).toBe('Could not start: check `DOCS_ADMIN_API_KEY`.')
    expect(
      inTerminalTerms('The job may still finish: check it with `operation: agent-status` and `job-id: j_1`.')
    ).toBe('The job may still finish: check it with `docs-admin agent-status --job-id j_1`.')
    expect(inTerminalTerms('rerun with `job-id: exp_1` to pick it up')).toBe(
      'rerun with `--job-id exp_1` to pick it up'
    )
    expect(inTerminalTerms('such as `path: static-export`, not `operation: x` or `colour: red`')).toBe(
      'such as `--path static-export`, not `operation: x` or `colour: red`'
    )
    // Outside a runner, relative paths start from the current folder: that is what the core calls the workspace.
    expect(
      inTerminalTerms(
        '`path` must be a folder of its own (it is replaced by each export), not `.`, which is the workspace.'
      )
    ).toBe(
      '`--path` must be a folder of its own (it is replaced by each export), not `.`, which is the current folder.'
    )
    // A cancelled run's hint for each operation is a command line to run.
    const agentHint = 'check it with `docs-admin agent-status --job-id j_1` (and the same `--project-id`)'
    expect(OPERATIONS.map((operation) => inTerminalTerms(resumeHint(operation, 'j_1')))).toEqual([
      'Export job j_1 was not cancelled with the run: pick it up with `docs-admin export --job-id j_1`.',
      ...['agent', 'agent-message', 'agent-status', 'agent-create'].map(
        () => `Agent job j_1 was not cancelled with the run: ${agentHint}.`
      ),
      'Deployment j_1 was not cancelled with the run: follow it with `docs-admin deploy --job-id j_1`.',
      'Preview j_1 was not cancelled with the run: follow it with `docs-admin preview --job-id j_1`.',
      'Automation job j_1 was not cancelled with the run: its run is queued; ' +
        "watch it in the dashboard's automation runs."
    ])
    // Backticked words that are no input stay.
    expect(inTerminalTerms('status `completed`, not `abc`')).toBe('status `completed`, not `abc`')
  })

  test('--json gives counts as numbers and yes-or-no as booleans; as lines every value is text', async () => {
    const { sim } = await sims.start({ exportJob: { durationMs: 40, queuedMs: 0 } })
    const printed = async (json: boolean): Promise<string> => {
      const stdout = capture(false)
      const inputs = exportInputs(sim, { path: path.join(temp.dir, `site-${json}`), 'poll-interval': '10ms' })
      const h = new CliHost(inputs, { stdout, stderr: capture(false), env: {} }, new AbortController().signal)
      await run(h)
      expect(h.finish(json)).toBe(0)
      return stdout.text()
    }
    const outputs = JSON.parse(await printed(true)) as Record<string, unknown>
    expect(outputs).toMatchObject({
      status: 'completed',
      'page-count': expect.any(Number),
      'bundle-size': expect.any(Number),
      'broken-links': 1,
      'cache-hit': false,
      'job-id': expect.any(String)
    })
    expect(outputs['bundle-size']).toBeGreaterThan(0)
    const lines = (await printed(false)).split('\n')
    expect(lines).toContain('cache-hit=false')
    expect(lines).toContain('broken-links=1')
  })

  test('the exit code says how the run ended: one code for each kind of failure', () => {
    expect(host(false).host.finish(true)).toBe(0)
    const codes = Object.fromEntries(
      (['failed', 'input', 'refused', 'unavailable', 'timeout', 'cancelled'] as const).map((kind) => {
        const ended = host(false).host
        ended.setFailed('It failed.', kind)
        return [kind, ended.finish(true)]
      })
    )
    expect(codes).toEqual({ failed: 1, input: 2, refused: 3, unavailable: 4, timeout: 5, cancelled: 130 })
  })
})
