#!/usr/bin/env node
// Tags a release: vX.Y.Z on HEAD, and moves the major tag vX (what `uses: owner/docs-admin-action@vX` resolves to);
// packs the CLI (`npm pack`) into the tarball the GitHub release carries.
//
//   npm run release -- 1.2.3          dry run: runs the checks, prints the commands it would run, changes nothing
//   npm run release -- 1.2.3 --push   runs the checks, packs the CLI, creates both tags and pushes them to origin
//
// Checks, all before anything is tagged: the working tree is clean; the version is X.Y.Z and greater than the
// latest vX.Y.Z tag; package.json has that version; CHANGELOG.md has a `## [X.Y.Z]` section; dist/ is what
// `npm run bundle` builds.
// `--skip-dist-check` skips the last one; it exists for the script's own tests and is not for releases.
// See RELEASING.md.
import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { pathToFileURL } from 'node:url'

const USAGE = 'usage: npm run release -- X.Y.Z [--push] [--skip-dist-check]'

/**
 * `1.2.3` (or `v1.2.3`) as numbers; undefined for anything else (prereleases included: the major tag must not move to
 * one).
 */
export function parseVersion(text) {
  const match = /^v?(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)$/.exec(String(text).trim())
  if (!match) return undefined
  const [major, minor, patch] = match.slice(1).map(Number)
  return { major, minor, patch, text: `${major}.${minor}.${patch}` }
}

/** Negative, zero or positive, as `a` is lower than, equal to or greater than `b`. */
export function compareVersions(a, b) {
  return a.major - b.major || a.minor - b.minor || a.patch - b.patch
}

/** The greatest `vX.Y.Z` among tag names; major tags (`v1`) and other names are ignored. */
export function latestVersionTag(tags) {
  let latest
  for (const tag of tags) {
    const version = tag.startsWith('v') ? parseVersion(tag) : undefined
    if (version && (!latest || compareVersions(version, latest) > 0)) latest = version
  }
  return latest
}

/** The text under `## [X.Y.Z]` in a keep-a-changelog file, up to the next `## ` heading; undefined when absent. */
export function changelogSection(changelog, version) {
  const lines = changelog.split(/\r?\n/)
  const heading = `## [${version}]`
  const start = lines.findIndex((line) => line === heading || line.startsWith(`${heading} `))
  if (start < 0) return undefined
  const end = lines.findIndex((line, index) => index > start && line.startsWith('## '))
  return lines
    .slice(start + 1, end < 0 ? undefined : end)
    .join('\n')
    .trim()
}

/**
 * `owner/name` of the GitHub repository package.json's `repository` names (the one place it is written down):
 * `git+https://github.com/owner/name.git`, `github:owner/name` or `owner/name`; undefined for anything else.
 */
export function githubRepository(packageJson) {
  const { repository } = packageJson
  const text = typeof repository === 'string' ? repository : repository?.url
  const match =
    /^(?:git\+)?(?:https?|ssh|git):\/\/(?:git@)?github\.com\/([\w.-]+)\/([\w.-]+?)(?:\.git)?\/?$/.exec(text ?? '') ??
    /^(?:github:)?([\w.-]+)\/([\w.-]+)$/.exec(text ?? '')
  return match ? `${match[1]}/${match[2]}` : undefined
}

/** The CLI's tarball as `npm pack` names it, and where the GitHub release of `version` serves it. */
export function cliTarball(packageJson, version) {
  const repository = githubRepository(packageJson)
  if (repository === undefined) throw new Error("package.json's `repository` names no GitHub repository")
  const file = `${packageJson.name}-${version}.tgz`
  return { file, url: `https://github.com/${repository}/releases/download/v${version}/${file}` }
}

/** What stands in the way of releasing `versionText`; an empty list when nothing does. */
export function releaseProblems({ versionText, tags, changelog, status, packageVersion }) {
  const problems = []
  if (status.trim() !== '') problems.push(`the working tree is not clean; commit or stash first:\n${status.trimEnd()}`)
  const version = parseVersion(versionText ?? '')
  if (!version) {
    problems.push(`"${versionText ?? ''}" is not a version of the form X.Y.Z`)
    return problems
  }
  const latest = latestVersionTag(tags)
  if (latest && compareVersions(version, latest) <= 0)
    problems.push(`${version.text} is not greater than the latest release tag v${latest.text}`)
  if (packageVersion !== version.text)
    problems.push(`package.json's version is ${packageVersion}, not ${version.text} (the CLI's tarball takes its name)`)
  if (changelog === undefined) problems.push('there is no CHANGELOG.md')
  else if (!changelogSection(changelog, version.text))
    problems.push(`CHANGELOG.md has no "## [${version.text}]" section with content`)
  return problems
}

/** The commands that pack the CLI, then tag and push a release, in order. */
export function planCommands(versionText) {
  const version = parseVersion(versionText)
  if (!version) throw new Error(`not a version: ${versionText}`)
  const tag = `v${version.text}`
  const major = `v${version.major}`
  return [
    ['npm', 'pack', '--silent'],
    ['git', 'tag', '-a', tag, '-m', tag],
    ['git', 'tag', '-fa', major, '-m', `${major} -> ${tag}`],
    ['git', 'push', 'origin', tag],
    ['git', 'push', '--force', 'origin', major]
  ]
}

/** A command as it would be typed in a POSIX shell. */
export function formatCommand(command) {
  return command.map((arg) => (/^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, `'\\''`)}'`)).join(' ')
}

/** The command line: the version, `--push` and `--skip-dist-check`. */
export function parseArguments(argv) {
  const options = { version: undefined, push: false, skipDistCheck: false, help: false }
  for (const arg of argv) {
    if (arg === '--push') options.push = true
    else if (arg === '--skip-dist-check') options.skipDistCheck = true
    else if (arg === '-h' || arg === '--help') options.help = true
    else if (arg.startsWith('-')) throw new Error(`unknown option ${arg}`)
    else if (options.version === undefined) options.version = arg
    else throw new Error(`one version only, got ${options.version} and ${arg}`)
  }
  if (!options.help && options.version === undefined) throw new Error('no version given')
  return options
}

function git(...args) {
  return execFileSync('git', args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] })
}

function readText(file) {
  try {
    return readFileSync(file, 'utf8')
  } catch {
    return undefined
  }
}

/** Rebuilds dist/ and returns what changed in it (empty when it was fresh). */
function distDrift() {
  console.log('Rebuilding dist/ (npm run bundle) to check that it is fresh...')
  execFileSync('npm', ['run', '-s', 'bundle'], { stdio: ['ignore', 'ignore', 'inherit'] })
  return git('status', '--porcelain', '--', 'dist').trimEnd()
}

function main(argv) {
  let options
  try {
    options = parseArguments(argv)
  } catch (error) {
    console.error(`release: ${error.message}\n${USAGE}`)
    return 2
  }
  if (options.help) {
    console.log(USAGE)
    return 0
  }
  process.chdir(git('rev-parse', '--show-toplevel').trim())

  const packageJson = JSON.parse(readText('package.json') ?? '{}')
  const problems = releaseProblems({
    versionText: options.version,
    tags: git('tag', '--list', 'v*').split('\n').filter(Boolean),
    changelog: readText('CHANGELOG.md'),
    status: git('status', '--porcelain'),
    packageVersion: packageJson.version
  })
  if (problems.length === 0 && !options.skipDistCheck) {
    const drift = distDrift()
    if (drift) problems.push(`dist/ is not what the sources build; run npm run bundle and commit dist/:\n${drift}`)
  }
  if (problems.length > 0) {
    for (const problem of problems) console.error(`release: ${problem}`)
    return 1
  }

  const commands = planCommands(options.version)
  if (!options.push) {
    console.log(
      `Dry run. Checks passed; to release ${parseVersion(options.version).text} ` +
        `from ${git('rev-parse', '--short', 'HEAD').trim()} these commands would run:`
    )
    for (const command of commands) console.log(`  ${formatCommand(command)}`)
    console.log('Nothing was tagged or pushed. Run again with --push to do it.')
    return 0
  }
  for (const command of commands) {
    console.log(`$ ${formatCommand(command)}`)
    execFileSync(command[0], command.slice(1), { stdio: 'inherit' })
  }
  const version = parseVersion(options.version).text
  const tarball = cliTarball(packageJson, version)
  console.log(
    `Released v${version}. Next: publish the GitHub release from that tag with ${tarball.file} attached ` +
      `(see RELEASING.md), so that the CLI installs with\n  npm install -g ${tarball.url}`
  )
  return 0
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  try {
    process.exitCode = main(process.argv.slice(2))
  } catch (error) {
    // A git or npm command failed; it has said why on stderr.
    console.error(`release: ${error.message}`)
    process.exitCode = 1
  }
}
