// npm run fuzz [-- RUNS [SEED]]: the fuzz tests of the service client and of the site check's link
// scanner with many cases and a random seed, printed first so that a failure can be replayed
// (`npm run fuzz -- 300 12345`). `npm run test:e2e` runs them with a fixed seed and few cases.
import { spawnSync } from 'node:child_process'

const runs = process.argv[2] ?? process.env.FUZZ_RUNS ?? '300'
const seed = process.argv[3] ?? process.env.FUZZ_SEED ?? String(Math.floor(Math.random() * 2 ** 31))
console.log(`fuzz: ${runs} runs, seed ${seed} (replay: npm run fuzz -- ${runs} ${seed})`)
const result = spawnSync('npx', ['jest', 'test/e2e/fuzz.test.ts', 'test/e2e/fuzz-links.test.ts'], {
  stdio: 'inherit',
  env: { ...process.env, FUZZ_RUNS: runs, FUZZ_SEED: seed, NODE_OPTIONS: '--experimental-vm-modules' }
})
console.log(`fuzz: seed ${seed}`)
process.exit(result.status ?? 1)
