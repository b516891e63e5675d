// npm audit of what the action and the CLI ship: the packages bundled into dist/. They are all
// devDependencies (the packed CLI installs nothing), so `npm audit --omit=dev` would see nothing:
// the whole tree is audited and the report kept to what the bundle can contain, i.e. the packages
// src/ imports and everything they depend on in package-lock.json. Any advisory rated high or
// critical among them fails. When the registry's audit service cannot be reached (some mirrors
// refuse it) that is said plainly and the check is skipped, unless AUDIT_REQUIRED=1 makes it fail.
import { spawnSync } from 'node:child_process'
import { readFileSync, readdirSync } from 'node:fs'
import { builtinModules } from 'node:module'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'

/** `import x from 'a'` and `export ... from 'a'`, `import('a')`, `import 'a'`: one group each. */
const SPECIFIER = new RegExp(
  [
    String.raw`(?:^|\n)\s*(?:import|export)\b[^'"]*?\bfrom\s*['"]([^'"]+)['"]`,
    String.raw`\bimport\s*\(\s*['"]([^'"]+)['"]\s*\)`,
    String.raw`(?:^|\n)\s*import\s*['"]([^'"]+)['"]`
  ].join('|'),
  'g'
)

/** The npm packages a source imports: bare specifiers cut to their package name, no node built-ins. */
export function importedPackages(source) {
  const names = new Set()
  for (const match of source.matchAll(SPECIFIER)) {
    const specifier = match[1] ?? match[2] ?? match[3]
    if (specifier.startsWith('.') || specifier.startsWith('/') || specifier.startsWith('node:')) continue
    const parts = specifier.split('/')
    const name = specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]
    if (!builtinModules.includes(name)) names.add(name)
  }
  return names
}

/** Where node finds `name` from the package at `from` (a lock path, '' for the root), in the lock's tree. */
function resolve(packages, from, name) {
  for (let base = from; ;) {
    const candidate = base === '' ? `node_modules/${name}` : `${base}/node_modules/${name}`
    if (packages[candidate] !== undefined) return candidate
    if (base === '') return undefined
    const parent = base.lastIndexOf('/node_modules/')
    base = parent < 0 ? '' : base.slice(0, parent)
  }
}

/** The lock paths (`node_modules/a/node_modules/b`) of `roots` and of everything they depend on. */
export function packageClosure(lock, roots) {
  const packages = lock.packages ?? {}
  const seen = new Set()
  const visit = (from, name) => {
    const path = resolve(packages, from, name)
    if (path === undefined || seen.has(path)) return
    seen.add(path)
    const entry = packages[path]
    const needs = { ...entry.peerDependencies, ...entry.optionalDependencies, ...entry.dependencies }
    for (const dependency of Object.keys(needs)) visit(path, dependency)
  }
  for (const root of roots) visit('', root)
  return seen
}

/** The entries of an `npm audit --json` report whose package is installed at one of `paths`. */
export function shippedVulnerabilities(report, paths) {
  return Object.values(report.vulnerabilities ?? {}).filter((vulnerability) =>
    (vulnerability.nodes ?? []).some((node) => paths.has(node))
  )
}

function sourcesIn(folder) {
  return readdirSync(folder, { recursive: true })
    .filter((name) => /\.[cm]?[jt]s$/.test(name))
    .map((name) => readFileSync(join(folder, name), 'utf8'))
}

function main() {
  const roots = new Set(sourcesIn('src').flatMap((source) => [...importedPackages(source)]))
  const shipped = packageClosure(JSON.parse(readFileSync('package-lock.json', 'utf8')), roots)
  const result = spawnSync('npm', ['audit', '--json'], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 })
  let report
  try {
    report = JSON.parse(result.stdout)
  } catch {
    report = undefined
  }
  if (report?.vulnerabilities === undefined) {
    const why =
      report?.message ?? report?.error?.summary ?? (result.stderr.trim().split('\n').at(-1) || `exit ${result.status}`)
    console.log(`npm audit could not run: ${why}`)
    if (process.env.AUDIT_REQUIRED === '1') return 1
    console.log('Skipped (set AUDIT_REQUIRED=1 to fail instead).')
    return 0
  }
  const found = shippedVulnerabilities(report, shipped)
  const counts = ['critical', 'high', 'moderate', 'low'].map(
    (severity) => `${found.filter((vulnerability) => vulnerability.severity === severity).length} ${severity}`
  )
  const bundled = `${shipped.size} packages bundled into dist/ (${[...roots].sort().join(', ')} and their dependencies)`
  console.log(`npm audit of the ${bundled}: ${counts.join(', ')}`)
  const serious = found.filter((vulnerability) => ['high', 'critical'].includes(vulnerability.severity))
  for (const vulnerability of serious) {
    const advisories = vulnerability.via
      .filter((via) => typeof via === 'object')
      .map((via) => `${via.title} (${via.url})`)
    const through = vulnerability.via.filter((via) => typeof via === 'string')
    const why = advisories.length > 0 ? advisories.join('; ') : `through ${through.join(', ')}`
    console.log(`  ${vulnerability.severity}: ${vulnerability.name} ${vulnerability.range}: ${why}`)
  }
  return serious.length > 0 ? 1 : 0
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) process.exitCode = main()
