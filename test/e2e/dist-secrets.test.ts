// The built action and CLI, run as the runner and a shell run them: no part of the API key where
// the cut of a service's error text falls, in the runner's log (its masking applied), the job
// summary, or the CLI's stderr.
import { describe, expect, test } from '@jest/globals'
import * as path from 'node:path'
import type { Simulator } from '../../simulator/server.js'
import { agentInputs, simulatorPerTest } from '../support/harness.js'
import { maskedByRunner, runCli, runDist, runnerLines } from '../support/runner.js'
import { tempFolderPerFile } from '../support/temp.js'

/** A key long and distinct enough that any 8 characters of it in a text are a leak. */
const API_KEY = 'dsk_live_5f4dcc3b5aa765d61d8327deb882cf99'

const sims = simulatorPerTest()
const temp = tempFolderPerFile('dist-secrets-')
async function startSim(): Promise<Simulator> {
  const fixture = await sims.start({ apiKey: API_KEY })
  return fixture.sim
}

/** The parts (any 8 characters) of `secret` found in `text`. */
const leaked = (text: string, secret: string): string[] =>
  Array.from({ length: secret.length - 7 }, (_, at) => secret.slice(at, at + 8)).filter((part) => text.includes(part))

describe('the built action and CLI, as they are run: no part of the key where a cut falls', () => {
  test("the runner's `::error::` line and the summary, with the runner's masking applied", async () => {
    const sim = await startSim()
    sim.addFault({ route: 'agent-message', status: 400, body: { error: `${'x'.repeat(290)} ${API_KEY} was refused` } })
    const run = await runDist({
      inputs: agentInputs(sim, { operation: 'agent-message', 'job-id': 'job_abc', prompt: 'Fix it' }) as Record<
        string,
        string
      >,
      env: { GITHUB_WORKSPACE: temp.dir }
    })
    const lines = runnerLines(run.stdout)
    const masked = lines.filter((line) => line.startsWith('::add-mask::')).map((line) => line.slice(12))
    const shown = maskedByRunner(lines.filter((line) => !line.startsWith('::add-mask::')).join('\n'), masked)
    expect(shown).toMatch(/^::error::.*x{200} \*\*\* was r…/m)
    expect(leaked(shown, API_KEY)).toEqual([])
    expect(leaked(run.summary, API_KEY)).toEqual([])
  })

  test("the CLI's stderr", async () => {
    const sim = await startSim()
    sim.addFault({ route: 'export-start', status: 400, body: `${'y'.repeat(110)} ${API_KEY} denied` })
    const run = await runCli({
      args: ['export', '--domain', 'docs.acme.com', '--base-url', sim.apiUrl, '--path', path.join(temp.dir, 'site')],
      env: { DOCS_ADMIN_API_KEY: API_KEY },
      cwd: temp.dir
    })
    // A refusal (HTTP 400): exit code 3.
    expect(run.exitCode).toBe(3)
    expect(run.stderr).toMatch(/^error: .*y{100}/m)
    expect(leaked(run.stderr, API_KEY)).toEqual([])
  })
})
