// `helm-values-file` replaces the file it names: never one of the runner's own files or folders,
// nor the home folder's settings. Judged on the real paths before any request, against the simulator.
import { Writable } from 'node:stream'
import { mkdir, readFile, symlink, writeFile } from 'node:fs/promises'
import * as path from 'node:path'
import { describe, expect, test } from '@jest/globals'
import { CliHost } from '../src/cli/cli-host.js'
import { run } from '../src/main.js'
import { type RunnerEnv, exportInputs, simulatorPerTest } from './support/harness.js'
import { tempFolderPerFile } from './support/temp.js'

const sims = simulatorPerTest()
const temp = tempFolderPerFile('helm-values-')

/** A GitHub-hosted runner's layout: the workspace, the temp folder and the actions under HOME. */
async function runnerLayout(): Promise<{ env: RunnerEnv; home: string; workspace: string; files: string[] }> {
  const root = path.join(temp.dir, `runner-${Math.random().toString(36).slice(2)}`)
  const home = path.join(root, 'home')
  const workspace = path.join(home, 'work', 'repo', 'repo')
  const runnerTemp = path.join(home, 'work', '_temp')
  const env: RunnerEnv = {
    HOME: home,
    GITHUB_WORKSPACE: workspace,
    RUNNER_TEMP: runnerTemp,
    RUNNER_TOOL_CACHE: path.join(root, 'hostedtoolcache'),
    GITHUB_ACTION_PATH: path.join(home, 'work', '_actions', 'acme', 'docs-admin', 'v1'),
    GITHUB_OUTPUT: path.join(runnerTemp, '_runner_file_commands', 'set_output_1'),
    GITHUB_ENV: path.join(runnerTemp, '_runner_file_commands', 'set_env_1'),
    GITHUB_EVENT_NAME: 'push',
    GITHUB_EVENT_PATH: path.join(runnerTemp, '_github_workflow', 'event.json')
  }
  const files = [
    env.GITHUB_OUTPUT,
    env.GITHUB_ENV,
    env.GITHUB_EVENT_PATH,
    path.join(home, '.bashrc'),
    path.join(home, '.ssh', 'authorized_keys'),
    path.join(home, 'work', '_actions', 'other', 'tool', 'v2', 'action.yml'),
    path.join(env.RUNNER_TOOL_CACHE as string, 'node', '20', 'x64', 'bin', 'node')
  ] as string[]
  await mkdir(path.join(workspace, 'deploy'), { recursive: true })
  await mkdir(env.GITHUB_ACTION_PATH as string, { recursive: true })
  for (const file of files) {
    await mkdir(path.dirname(file), { recursive: true })
    await writeFile(file, file.endsWith('.json') ? '{}' : 'the original')
  }
  await symlink(home, path.join(workspace, 'linked-home'))
  return { env, home, workspace, files }
}

describe('`helm-values-file` on a runner: refused naming why, nothing sent or replaced; else written', () => {
  test.each([
    ['$GITHUB_OUTPUT', "is the runner's output file (GITHUB_OUTPUT)"],
    ['$GITHUB_ENV', "is the runner's environment file (GITHUB_ENV)"],
    ['$GITHUB_EVENT_PATH', "is the runner's event file (GITHUB_EVENT_PATH)"],
    ['$RUNNER_TEMP/_runner_file_commands/set_env_2', "is in the runner's own `_runner_file_commands` folder"],
    ['$RUNNER_TEMP/_github_workflow/values.yaml', "which holds the runner's event file (GITHUB_EVENT_PATH)"],
    ['$RUNNER_TEMP/docs-export-exp_1/values.yaml', 'is in a folder the export keeps its archive in'],
    ['$RUNNER_TOOL_CACHE/node/20/x64/bin/node', "is in the runner's tool cache (RUNNER_TOOL_CACHE)"],
    ['$GITHUB_ACTION_PATH/action.yml', "is in the action's own folder (GITHUB_ACTION_PATH)"],
    ['$HOME/.bashrc', 'is in the home folder (HOME) among its settings and keys'],
    ['../../../.ssh/authorized_keys', 'is in the home folder (HOME) among its settings and keys'],
    ['linked-home/.bashrc', 'is in the home folder (HOME) among its settings and keys'],
    ['$HOME/work/_actions/other/tool/v2/action.yml', 'is in the home folder (HOME) outside the workspace and'],
    ['$HOME/values.yaml', 'is in the home folder (HOME) outside the workspace and the temp folder']
  ])('refused: `%s`', async (file, why) => {
    const { sim } = await sims.start({ exportJob: { durationMs: 0 } })
    const { env, files } = await runnerLayout()
    const value = file.replace(/^\$([A-Z_]+)/, (_, variable: keyof RunnerEnv) => env[variable] as string)
    const result = await sims.current.run(exportInputs(sim, { 'helm-values-file': value, download: 'false' }), {
      env
    })
    expect(result.failureKind).toBe('input')
    expect(result.failure).toContain('`helm-values-file` must be a file of its own')
    expect(result.failure).toContain(why)
    expect(sim.requests).toEqual([])
    for (const kept of files) expect(await readFile(kept, 'utf8')).toBe(kept.endsWith('.json') ? '{}' : 'the original')
  })

  test.each([
    ['deploy/values.yaml'],
    // The job's scratch space, out of the checkout: where examples/export-on-merge.yml keeps it.
    ['$RUNNER_TEMP/release/values.yaml']
  ])("written: `%s` (the job's folders, though under HOME as on hosted runners)", async (file) => {
    const { sim } = await sims.start({ exportJob: { durationMs: 0 } })
    const { env } = await runnerLayout()
    const value = file.replace(/^\$([A-Z_]+)/, (_, variable: keyof RunnerEnv) => env[variable] as string)
    const result = await sims.current.run(exportInputs(sim, { 'helm-values-file': value, download: 'false' }), { env })
    expect(result.failure).toBeUndefined()
    const written = path.resolve(env.GITHUB_WORKSPACE as string, value)
    expect(await readFile(written, 'utf8')).toContain('staticExport:')
  })
})

describe('`helm-values-file` outside a runner (the CLI)', () => {
  /** The CLI's run in-process: no workspace or runner folders, HOME as the terminal has it. */
  async function cliRun(file: string, home: string): Promise<{ code: number; stderr: string }> {
    const { sim } = await sims.start({ exportJob: { durationMs: 0 } })
    const chunks: string[] = []
    const stderr = new Writable({
      write(chunk: Buffer, _encoding, done) {
        chunks.push(chunk.toString())
        done()
      }
    })
    const stdout = new Writable({ write: (_chunk, _encoding, done) => done() })
    const inputs = exportInputs(sim, { 'helm-values-file': file, download: 'false', 'poll-interval': '10ms' })
    const host = new CliHost(inputs, { stdout, stderr, env: { HOME: home } }, new AbortController().signal)
    await run(host)
    return { code: host.finish(false), stderr: chunks.join('') }
  }

  test("the home folder's dotfiles are refused; any other file of it is the user's", async () => {
    const home = path.join(temp.dir, 'cli-home')
    await mkdir(path.join(home, 'deploy'), { recursive: true })
    await writeFile(path.join(home, '.bashrc'), 'the original')
    const refused = await cliRun(path.join(home, '.bashrc'), home)
    expect(refused.code).toBe(2)
    expect(refused.stderr).toContain('is in the home folder (HOME) among its settings and keys')
    expect(await readFile(path.join(home, '.bashrc'), 'utf8')).toBe('the original')
    const written = await cliRun(path.join(home, 'deploy', 'values.yaml'), home)
    expect([written.code, written.stderr]).toEqual([0, expect.stringContaining('Helm values')])
    expect(await readFile(path.join(home, 'deploy', 'values.yaml'), 'utf8')).toContain('staticExport:')
  })
})
