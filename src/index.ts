// The runner's entry point: everything lives in main.ts, so that tests and local runs can call run().
import { run } from './main.js'

await run()
