// The entry point of `docs-admin`, the CLI for every CI system: the action's own run() against a
// Host made of the command line, stdout and stderr.
import { run } from '../main.js'
import { parseCommandLine } from './args.js'
import { CliHost, ERROR_PREFIX, prefixLines } from './cli-host.js'
import { EXIT_CODES } from './exit-codes.js'

const commandLine = parseCommandLine(process.argv.slice(2), process.env)
if (commandLine.kind === 'help') {
  process.stdout.write(`${commandLine.text}\n`)
} else if (commandLine.kind === 'error') {
  process.stderr.write(`${prefixLines(ERROR_PREFIX, commandLine.message)}\n`)
  if (commandLine.help !== undefined) process.stderr.write(`\n${commandLine.help}\n`)
  // `--json` promises JSON on stdout, also when there is nothing to say.
  if (process.argv.includes('--json')) process.stdout.write('{}\n')
  process.exitCode = EXIT_CODES.input
} else {
  const host = new CliHost(commandLine.inputs, { stdout: process.stdout, stderr: process.stderr, env: process.env })
  for (const warning of commandLine.warnings) host.log.warning(warning)
  await run(host)
  process.exitCode = host.finish(commandLine.json)
}
