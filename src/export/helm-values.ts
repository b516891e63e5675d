import { randomBytes } from 'node:crypto'
import { mkdir, rename, rm, writeFile } from 'node:fs/promises'
import * as path from 'node:path'

/**
 * The Helm values a self-hosted deployment reads to serve the bundle. Strings are written as
 * JSON strings, which are valid YAML double-quoted scalars, so no value can break the document.
 */
export function helmValuesYaml(bundleUrl: string, version: string | undefined): string {
  const lines = ['staticExport:', '  enabled: true', `  bundleUrl: ${JSON.stringify(bundleUrl)}`]
  if (version !== undefined) lines.push(`  version: ${JSON.stringify(version)}`)
  return `${lines.join('\n')}\n`
}

/** Writes `content` whole or not at all: a reader never sees half a values file. */
export async function writeFileAtomically(file: string, content: string): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true })
  const temporary = `${file}.${randomBytes(4).toString('hex')}.tmp`
  try {
    await writeFile(temporary, content, { mode: 0o600 })
    await rename(temporary, file)
  } catch (error) {
    await rm(temporary, { force: true })
    throw error
  }
}
