// The runner's entry point: the action runs against the GitHub runner's Host.
import { actionsHost } from './action/actions-host.js'
import { run } from './main.js'

await run(actionsHost())
