#!/usr/bin/env node
// npm run local: runs the action from source (src/main.ts, through @github/local-action) with the inputs in .env,
// against the service simulator, which it starts first and stops afterwards.
//
// - No .env yet: copies .env.example to .env (it points at the simulator) and says so.
// - INPUT_BASE-URL in .env is a loopback address: the simulator is started on its port, unless something already
//   answers there (e.g. `npm run simulator` in another terminal), which is then used as it is.
// - Any other INPUT_BASE-URL: no simulator; the action runs against that service.
//
// Exits with the exit code of local-action, which is 0 also when the action fails (its log says so with ::error::).
import { spawn } from 'node:child_process'
import { copyFileSync, existsSync, readFileSync } from 'node:fs'
import * as path from 'node:path'
import { fileURLToPath } from 'node:url'

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const ENV_FILE = path.join(ROOT, '.env')
const STARTUP_TIMEOUT_MS = 30_000

/** The value of `name` in a dotenv file's text (no quotes, no expansion: the subset .env.example uses). */
function envValue(text, name) {
  const line = text.split(/\r?\n/).find((candidate) => candidate.startsWith(`${name}=`))
  return line?.slice(name.length + 1).trim()
}

/** The simulator port for a base URL on a loopback host; undefined for any other host. */
function loopbackPort(baseUrl) {
  let url
  try {
    url = new URL(baseUrl)
  } catch {
    return undefined
  }
  if (!['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname)) return undefined
  return Number(url.port || (url.protocol === 'https:' ? 443 : 80))
}

async function answers(url) {
  try {
    await fetch(url, { signal: AbortSignal.timeout(1000) })
    return true
  } catch {
    return false
  }
}

/** Starts the simulator on `port`; resolves once it answers, rejects when it exits or takes too long. */
async function startSimulator(port) {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', path.join(ROOT, 'simulator', 'cli.ts'), '--port', String(port)],
    {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe']
    }
  )
  let output = ''
  child.stdout.on('data', (chunk) => (output += chunk))
  child.stderr.on('data', (chunk) => (output += chunk))
  const exited = new Promise((resolve) => child.once('exit', resolve))
  const deadline = Date.now() + STARTUP_TIMEOUT_MS
  while (Date.now() < deadline) {
    const code = await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 250, 'waiting'))])
    if (code !== 'waiting') throw new Error(`the simulator exited (${code}) before it answered:\n${output}`)
    if (await answers(`http://127.0.0.1:${port}/`)) return { child, exited }
  }
  child.kill('SIGTERM')
  throw new Error(`the simulator did not answer on port ${port} within ${STARTUP_TIMEOUT_MS / 1000} s:\n${output}`)
}

function runLocalAction() {
  const child = spawn('npm', ['run', '-s', 'local-action'], { cwd: ROOT, stdio: 'inherit' })
  return new Promise((resolve) => child.once('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0))))
}

async function main() {
  if (!existsSync(ENV_FILE)) {
    copyFileSync(path.join(ROOT, '.env.example'), ENV_FILE)
    console.log('No .env: copied .env.example to .env (inputs for the simulator). Edit it to change the inputs.')
  }
  const baseUrl = envValue(readFileSync(ENV_FILE, 'utf8'), 'INPUT_BASE-URL') ?? ''
  const port = loopbackPort(baseUrl)

  let simulator
  if (port === undefined) {
    console.log(
      `INPUT_BASE-URL in .env is ${baseUrl || 'not set'}: not a loopback address, so no simulator is started.`
    )
  } else if (await answers(`http://127.0.0.1:${port}/`)) {
    console.log(`Something already answers on port ${port}: using it as the service.`)
  } else {
    console.log(`Starting the simulator on port ${port}...`)
    simulator = await startSimulator(port)
    console.log(`Simulator running at http://127.0.0.1:${port} (API key dsk_test_simulator).`)
  }

  try {
    return await runLocalAction()
  } finally {
    if (simulator) {
      simulator.child.kill('SIGTERM')
      await simulator.exited
      console.log('Simulator stopped.')
    }
  }
}

main().then(
  (code) => (process.exitCode = code),
  (error) => {
    console.error(`local: ${error.message}`)
    process.exitCode = 1
  }
)
