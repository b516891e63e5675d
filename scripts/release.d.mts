// Types of the functions scripts/release.mjs exports (for its tests).
export interface Version {
  major: number
  minor: number
  patch: number
  text: string
}
export interface ReleaseOptions {
  version: string | undefined
  push: boolean
  skipDistCheck: boolean
  help: boolean
}
export function parseVersion(text: string): Version | undefined
export function compareVersions(a: Version, b: Version): number
export function latestVersionTag(tags: readonly string[]): Version | undefined
export function changelogSection(changelog: string, version: string): string | undefined
export function releaseProblems(state: {
  versionText: string | undefined
  tags: readonly string[]
  changelog: string | undefined
  status: string
  packageVersion: string | undefined
}): string[]
export function githubRepository(packageJson: { repository?: string | { url?: string } }): string | undefined
export function cliTarball(
  packageJson: { name: string; repository?: string | { url?: string } },
  version: string
): { file: string; url: string }
export function planCommands(versionText: string): string[][]
export function formatCommand(command: readonly string[]): string
export function parseArguments(argv: readonly string[]): ReleaseOptions
