/**
 * The site check's own time and memory on the benchmark's bundles, apart from the download and
 * the unpacking: each bundle is unpacked once by GNU tar into bench/out/site-check/, then
 * checkSite() runs over it round after round, in one process, the bundles interleaved.
 *
 *   npx tsx bench/site-check.ts [--rounds=N] [--bundle=NAME] [--against=SRC]
 *
 * Prints, per bundle, the median and range of the check's wall time and its CPU time, and the
 * process's peak RSS at the end. `--against` names another checkout's `src` folder (an earlier
 * version of the check): each round then runs both, in turns, and the medians of both are printed.
 */
import { execFileSync } from 'node:child_process'
import { mkdir, rm } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { SITE_3000, SITE_30K_SMALL, ensureBundle } from './bundles.js'
import { checkSite as checkSiteHere } from '../src/verify/site.js'
import { listSite } from '../src/common/site-paths.js'

const OUT_DIR = join(dirname(fileURLToPath(import.meta.url)), 'out')
const argument = (name: string): string | undefined =>
  process.argv.find((arg) => arg.startsWith(`--${name}=`))?.slice(name.length + 3)
const rounds = Number(argument('rounds') ?? 9)
const only = argument('bundle')
const specs = [SITE_3000, SITE_30K_SMALL].filter((spec) => only === undefined || spec.name === only)
if (specs.length === 0) throw new Error(`--bundle: no bundle named ${only}`)

type Check = typeof checkSiteHere
const against = argument('against')
const checks: Array<{ name: string; check: Check }> = [{ name: 'this checkout', check: checkSiteHere }]
if (against !== undefined) {
  const module = (await import(join(against, 'verify', 'site.ts'))) as { checkSite: Check }
  checks.push({ name: against, check: module.checkSite })
}

const sites = []
for (const spec of specs) {
  const bundle = await ensureBundle(spec, join(OUT_DIR, 'bundles'), (line) => console.error(line))
  const dir = join(OUT_DIR, 'site-check', spec.name)
  await rm(dir, { recursive: true, force: true })
  await mkdir(dir, { recursive: true })
  execFileSync('tar', ['-xzf', bundle.archives['tar.gz'].file, '-C', dir])
  const times = checks.map(() => ({ wall: [] as number[], cpu: [] as number[] }))
  sites.push({ spec, dir, files: await listSite(dir), times, links: [] as number[] })
}

for (let round = 0; round < rounds; round++) {
  for (const site of round % 2 === 0 ? sites : [...sites].reverse()) {
    for (const at of round % 2 === 0 ? checks.keys() : [...checks.keys()].reverse()) {
      const cpuBefore = process.cpuUsage()
      const started = performance.now()
      const result = await (checks[at] as { check: Check }).check(site.dir, { files: site.files })
      const times = site.times[at] as { wall: number[]; cpu: number[] }
      times.wall.push(performance.now() - started)
      const cpu = process.cpuUsage(cpuBefore)
      times.cpu.push((cpu.user + cpu.system) / 1000)
      site.links[at] = result.links
    }
  }
}

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)] as number
}
for (const site of sites) {
  for (const [at, { name }] of checks.entries()) {
    const { wall, cpu } = site.times[at] as { wall: number[]; cpu: number[] }
    const range = `${Math.round(Math.min(...wall))}-${Math.round(Math.max(...wall))}`
    console.log(
      `${site.spec.label}, ${name}: ${site.files.length} files, ${site.links[at]} links; ${rounds} rounds: ` +
        `wall median ${Math.round(median(wall))} ms (${range}), CPU median ${Math.round(median(cpu))} ms`
    )
  }
}
console.log(`peak RSS of the process: ${Math.round(process.resourceUsage().maxRSS / 1024)} MiB`)
