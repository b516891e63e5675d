// scripts/release.mjs: the checks and the plan as pure functions, then the script itself in dry-run mode
// in a throwaway git repository.
import { spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import * as path from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals'
import {
  changelogSection,
  cliTarball,
  compareVersions,
  formatCommand,
  githubRepository,
  latestVersionTag,
  parseArguments,
  parseVersion,
  planCommands,
  releaseProblems
} from '../../scripts/release.mjs'

const SCRIPT = fileURLToPath(new URL('../../scripts/release.mjs', import.meta.url))

const CHANGELOG = `# Changelog

## [Unreleased]

## [1.1.0] - 2026-11-22

### Added

- Something new.

## [1.0.0] - 2026-11-01

### Added

- The first release.
`

describe('versions and tags', () => {
  test('parseVersion accepts X.Y.Z with an optional v, and nothing else', () => {
    expect(parseVersion('1.2.3')).toEqual({ major: 1, minor: 2, patch: 3, text: '1.2.3' })
    expect(parseVersion('v10.0.1')).toEqual({ major: 10, minor: 0, patch: 1, text: '10.0.1' })
    for (const bad of ['1.2', '1.2.3.4', '01.2.3', '1.2.3-rc.1', 'v1', 'latest', ''])
      expect([bad, parseVersion(bad)]).toEqual([bad, undefined])
  })

  test('compareVersions orders numerically, not as text', () => {
    const v = (text: string) => parseVersion(text)!
    expect(compareVersions(v('1.10.0'), v('1.9.9'))).toBeGreaterThan(0)
    expect(compareVersions(v('1.2.3'), v('1.2.3'))).toBe(0)
    expect(compareVersions(v('1.2.3'), v('2.0.0'))).toBeLessThan(0)
  })

  test('latestVersionTag ignores major tags and other names', () => {
    expect(latestVersionTag(['v1', 'v1.0.0', 'v1.10.0', 'v1.9.9', 'v2', 'v2.0.0-rc.1', 'nightly'])?.text).toBe('1.10.0')
    expect(latestVersionTag(['v1', 'nightly'])).toBeUndefined()
  })
})

describe('changelogSection', () => {
  test('finds a section with or without a date, up to the next version', () => {
    expect(changelogSection(CHANGELOG, '1.1.0')).toBe('### Added\n\n- Something new.')
    expect(changelogSection(CHANGELOG, '1.0.0')).toBe('### Added\n\n- The first release.')
    expect(changelogSection('## [2.0.0]\n- Breaking.\n', '2.0.0')).toBe('- Breaking.')
  })

  test('is undefined for a version that is not there, or only mentioned', () => {
    expect(changelogSection(CHANGELOG, '1.2.0')).toBeUndefined()
    expect(changelogSection(CHANGELOG, '1.1')).toBeUndefined()
    expect(changelogSection('See ## [1.2.0] below\n', '1.2.0')).toBeUndefined()
  })
})

describe('releaseProblems', () => {
  const ready = {
    versionText: '1.1.0',
    tags: ['v1', 'v1.0.0'],
    changelog: CHANGELOG,
    status: '',
    packageVersion: '1.1.0'
  }

  test('none when the tree is clean, the version new and in the changelog', () => {
    expect(releaseProblems(ready)).toEqual([])
  })

  test('names each problem', () => {
    expect(releaseProblems({ ...ready, status: ' M src/main.ts\n' })).toEqual([
      expect.stringContaining('working tree is not clean')
    ])
    expect(releaseProblems({ ...ready, versionText: '1.0.0', packageVersion: '1.0.0' })).toEqual([
      '1.0.0 is not greater than the latest release tag v1.0.0'
    ])
    expect(releaseProblems({ ...ready, tags: ['v1.1.0'] })).toEqual([
      '1.1.0 is not greater than the latest release tag v1.1.0'
    ])
    expect(releaseProblems({ ...ready, versionText: '1.2.0', tags: [], packageVersion: '1.2.0' })).toEqual([
      'CHANGELOG.md has no "## [1.2.0]" section with content'
    ])
    expect(releaseProblems({ ...ready, packageVersion: '1.0.0' })).toEqual([
      "package.json's version is 1.0.0, not 1.1.0 (the CLI's tarball takes its name)"
    ])
    expect(releaseProblems({ ...ready, changelog: undefined })).toEqual(['there is no CHANGELOG.md'])
    expect(releaseProblems({ ...ready, versionText: 'one' })).toEqual(['"one" is not a version of the form X.Y.Z'])
  })

  test('an empty section does not count', () => {
    expect(releaseProblems({ ...ready, changelog: '## [1.1.0] - 2026-11-22\n\n## [1.0.0]\n- x\n' })).toEqual([
      'CHANGELOG.md has no "## [1.1.0]" section with content'
    ])
  })
})

describe('the plan', () => {
  test('packs the CLI, tags vX.Y.Z, moves vX, and pushes both', () => {
    expect(planCommands('v2.3.4').map(formatCommand)).toEqual([
      'npm pack --silent',
      'git tag -a v2.3.4 -m v2.3.4',
      "git tag -fa v2 -m 'v2 -> v2.3.4'",
      'git push origin v2.3.4',
      'git push --force origin v2'
    ])
  })

  test("the CLI's tarball: the name npm pack gives it, on the release of package.json's repository", () => {
    const packageJson = {
      name: 'docs-admin-action',
      repository: { url: 'git+https://github.com/acme/docs-admin-action.git' }
    }
    expect(cliTarball(packageJson, '1.2.3')).toEqual({
      file: 'docs-admin-action-1.2.3.tgz',
      url: 'https://github.com/acme/docs-admin-action/releases/download/v1.2.3/docs-admin-action-1.2.3.tgz'
    })
    for (const repository of [
      'github:acme/docs-admin-action',
      'acme/docs-admin-action',
      'https://github.com/acme/docs-admin-action'
    ])
      expect([repository, githubRepository({ repository })]).toEqual([repository, 'acme/docs-admin-action'])
    for (const repository of [undefined, 'https://gitlab.com/acme/docs-admin-action.git', 'not a repository'])
      expect([repository, githubRepository({ repository })]).toEqual([repository, undefined])
    expect(() => cliTarball({ name: 'x' }, '1.0.0')).toThrow('names no GitHub repository')
  })

  test('formatCommand quotes what the shell would split or expand', () => {
    expect(formatCommand(['echo', 'a b', "it's", '$HOME', 'plain-1.0'])).toBe(`echo 'a b' 'it'\\''s' '$HOME' plain-1.0`)
  })

  test('parseArguments: a version, --push, --skip-dist-check; anything else is an error', () => {
    expect(parseArguments(['1.2.3'])).toEqual({ version: '1.2.3', push: false, skipDistCheck: false, help: false })
    expect(parseArguments(['--push', '1.2.3', '--skip-dist-check'])).toMatchObject({
      version: '1.2.3',
      push: true,
      skipDistCheck: true
    })
    expect(() => parseArguments([])).toThrow('no version given')
    expect(() => parseArguments(['1.2.3', '--force'])).toThrow('unknown option --force')
    expect(() => parseArguments(['1.2.3', '1.2.4'])).toThrow('one version only')
  })
})

describe('the script in a throwaway repository', () => {
  let repo: string
  // No GIT_* variables from the surroundings (a hook, a CI checkout): the repository is the temporary one.
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('GIT_')))
  const identity = {
    GIT_AUTHOR_NAME: 'Test',
    GIT_AUTHOR_EMAIL: 'test@example.com',
    GIT_COMMITTER_NAME: 'Test',
    GIT_COMMITTER_EMAIL: 'test@example.com'
  }

  function run(command: string, args: string[]): { status: number | null; stdout: string; stderr: string } {
    const result = spawnSync(command, args, {
      cwd: repo,
      encoding: 'utf8',
      env: { ...env, ...identity },
      timeout: 15_000
    })
    return { status: result.status, stdout: result.stdout, stderr: result.stderr }
  }
  const git = (...args: string[]) => run('git', ['-c', 'init.defaultBranch=main', ...args])
  const release = (...args: string[]) => run(process.execPath, [SCRIPT, ...args])
  const tags = () => git('tag', '--list').stdout.split('\n').filter(Boolean).sort()

  beforeAll(() => {
    repo = mkdtempSync(path.join(tmpdir(), 'release-test-'))
    writeFileSync(path.join(repo, 'CHANGELOG.md'), CHANGELOG)
    writeFileSync(
      path.join(repo, 'package.json'),
      JSON.stringify({ name: 'release-test', version: '1.1.0', repository: 'github:acme/release-test', files: [] })
    )
    writeFileSync(path.join(repo, '.gitignore'), '/*.tgz\n')
    for (const args of [
      ['init', '-q'],
      ['add', 'CHANGELOG.md', 'package.json', '.gitignore'],
      ['commit', '-q', '-m', 'First'],
      ['tag', 'v1.0.0'],
      ['tag', 'v1']
    ]) {
      const result = git(...args)
      if (result.status !== 0) throw new Error(`git ${args.join(' ')} failed: ${result.stderr}`)
    }
  })
  afterAll(() => {
    rmSync(repo, { recursive: true, force: true })
  })

  test('dry run: prints the exact commands and tags nothing', () => {
    const { status, stdout, stderr } = release('1.1.0', '--skip-dist-check')
    expect(stderr).toBe('')
    expect(status).toBe(0)
    const head = git('rev-parse', '--short', 'HEAD').stdout.trim()
    expect(stdout).toBe(
      [
        `Dry run. Checks passed; to release 1.1.0 from ${head} these commands would run:`,
        '  npm pack --silent',
        '  git tag -a v1.1.0 -m v1.1.0',
        "  git tag -fa v1 -m 'v1 -> v1.1.0'",
        '  git push origin v1.1.0',
        '  git push --force origin v1',
        'Nothing was tagged or pushed. Run again with --push to do it.',
        ''
      ].join('\n')
    )
    expect(tags()).toEqual(['v1', 'v1.0.0'])
  })

  test('refuses an old version, a version missing from the changelog, and a dirty tree', () => {
    expect(release('1.0.0', '--skip-dist-check')).toMatchObject({
      status: 1,
      stderr: expect.stringContaining('not greater than the latest release tag v1.0.0')
    })
    expect(release('1.2.0', '--skip-dist-check')).toMatchObject({
      status: 1,
      stderr: expect.stringContaining('no "## [1.2.0]" section')
    })
    writeFileSync(path.join(repo, 'CHANGELOG.md'), `${CHANGELOG}\nmore\n`)
    try {
      expect(release('1.1.0', '--skip-dist-check')).toMatchObject({
        status: 1,
        stderr: expect.stringContaining('M CHANGELOG.md')
      })
    } finally {
      git('checkout', '--', 'CHANGELOG.md')
    }
    expect(tags()).toEqual(['v1', 'v1.0.0'])
  })

  test('a bad command line exits 2 with the usage', () => {
    expect(release('--push')).toMatchObject({
      status: 2,
      stderr: expect.stringContaining('usage: npm run release -- X.Y.Z')
    })
  })

  test('--push creates both tags and pushes them, moving the major tag on the remote', () => {
    const remote = path.join(repo, '.remote.git')
    expect(git('init', '-q', '--bare', remote)).toMatchObject({ status: 0 })
    expect(git('remote', 'add', 'origin', remote)).toMatchObject({ status: 0 })
    expect(git('push', '-q', 'origin', 'main', 'v1', 'v1.0.0')).toMatchObject({ status: 0 })
    writeFileSync(path.join(repo, '.git', 'info', 'exclude'), '.remote.git/\n')
    expect(git('commit', '-q', '--allow-empty', '-m', 'Second')).toMatchObject({ status: 0 })

    const { status, stdout } = release('1.1.0', '--skip-dist-check', '--push')
    expect(status).toBe(0)
    expect(stdout).toContain('$ git push --force origin v1')
    // The tarball the GitHub release carries, and the command that installs it from there.
    expect(existsSync(path.join(repo, 'release-test-1.1.0.tgz'))).toBe(true)
    expect(stdout).toContain(
      'npm install -g https://github.com/acme/release-test/releases/download/v1.1.0/release-test-1.1.0.tgz'
    )
    const head = git('rev-parse', 'HEAD').stdout.trim()
    expect(git('cat-file', '-t', 'v1.1.0').stdout.trim()).toBe('tag')
    const remoteTags = git('ls-remote', '--tags', 'origin').stdout
    expect(remoteTags).toContain(`${head}\trefs/tags/v1.1.0^{}`)
    expect(remoteTags).toContain(`${head}\trefs/tags/v1^{}`)
  })
})
