/**
 * The environment the runner gives `node dist/index.js` (or the peer's `index.js`): every input of
 * the action's action.yml as an INPUT_* variable (its default unless given; name upper-cased with
 * hyphens kept, INPUT_API-KEY), the GITHUB_OUTPUT and GITHUB_STEP_SUMMARY files, RUNNER_TEMP and
 * GITHUB_WORKSPACE, and the tool cache of a GitHub-hosted runner.
 *
 * The defaults are read from action.yml, not from the sources, so the benchmark runs the built
 * action exactly as a workflow that sets only the given inputs would.
 */
import { readFileSync } from 'node:fs'
import { mkdir, writeFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parse } from 'yaml'
import { childEnv } from './measure.js'

/** The project's action; the peer of the unpack benchmark has an action.yml of its own. */
export const ACTION_YML = join(dirname(fileURLToPath(import.meta.url)), '..', 'action.yml')

interface ActionYml {
  inputs: Record<string, { default?: string }>
}

const inputsOf = new Map<string, ActionYml['inputs']>()
function declaredInputs(actionYml: string): ActionYml['inputs'] {
  let inputs = inputsOf.get(actionYml)
  if (inputs === undefined) {
    inputs = (parse(readFileSync(actionYml, 'utf8')) as ActionYml).inputs
    inputsOf.set(actionYml, inputs)
  }
  return inputs
}

export interface RunnerFiles {
  outputFile: string
  summaryFile: string
}

/**
 * `folder` receives the output and summary files; `temp` is RUNNER_TEMP and `workspace`
 * GITHUB_WORKSPACE (both created); `actionYml` declares the inputs and their defaults. Expression
 * defaults (`${{ github.token }}`) are what the runner would evaluate them to: a token, here a fake one.
 */
export async function runnerEnv(
  inputs: Record<string, string>,
  dirs: { folder: string; temp: string; workspace: string },
  actionYml: string = ACTION_YML
): Promise<{ env: NodeJS.ProcessEnv } & RunnerFiles> {
  const declared = declaredInputs(actionYml)
  const outputFile = join(dirs.folder, 'github_output')
  const summaryFile = join(dirs.folder, 'step_summary')
  await Promise.all([
    mkdir(dirs.temp, { recursive: true }),
    mkdir(dirs.workspace, { recursive: true }),
    mkdir(dirname(outputFile), { recursive: true })
  ])
  await Promise.all([writeFile(outputFile, ''), writeFile(summaryFile, '')])
  const values: Record<string, string> = {}
  for (const [name, input] of Object.entries(declared)) {
    if (input.default !== undefined)
      values[name] = input.default.startsWith('${{') ? 'ghs_bench0123456789abcdef' : input.default
  }
  for (const [name, value] of Object.entries(inputs)) {
    if (!(name in declared)) throw new Error(`${actionYml} has no input \`${name}\``)
    values[name] = value
  }
  // The children's environment (bench/measure.ts), minus what a runner sets itself.
  const env: NodeJS.ProcessEnv = Object.fromEntries(
    Object.entries(childEnv()).filter(([name]) => !/^(INPUT_|GITHUB_|RUNNER_)/.test(name))
  )
  Object.assign(env, {
    CI: 'true',
    GITHUB_ACTIONS: 'true',
    GITHUB_OUTPUT: outputFile,
    GITHUB_STEP_SUMMARY: summaryFile,
    GITHUB_WORKSPACE: dirs.workspace,
    RUNNER_TEMP: dirs.temp,
    // As on a GitHub-hosted runner (ubuntu-latest), where the tool cache does not outlive the job.
    RUNNER_ENVIRONMENT: 'github-hosted',
    RUNNER_TOOL_CACHE: join(dirs.folder, 'tool-cache')
  })
  for (const [name, value] of Object.entries(values)) env[`INPUT_${name.replace(/ /g, '_').toUpperCase()}`] = value
  return { env, outputFile, summaryFile }
}
