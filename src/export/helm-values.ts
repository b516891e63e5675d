import { randomBytes } from 'node:crypto'
import { mkdir, rename, rm, writeFile } from 'node:fs/promises'
import * as path from 'node:path'
import { formatMoment } from '../common/units.js'
import type { BundleLink } from '../service/export-api.js'

/** A link that expires sooner than this is no address for a deployment that may restart any time. */
const DURABLE_MS = 24 * 60 * 60 * 1000

/**
 * The Helm values a self-hosted deployment reads to serve the bundle. Strings are written as
 * JSON strings, which are valid YAML double-quoted scalars, so no value can break the document.
 */
export function helmValuesYaml(bundleUrl: string, version: string | undefined): string {
  const lines = ['staticExport:', '  enabled: true', `  bundleUrl: ${yamlString(bundleUrl)}`]
  if (version !== undefined) lines.push(`  version: ${yamlString(version)}`)
  return `${lines.join('\n')}\n`
}

/**
 * A JSON string, with the characters YAML does not take as they are in a double-quoted scalar
 * (DEL, the C1 controls, which YAML 1.1 refuses, NEL, read as a line break, the line and
 * paragraph separators and a byte order mark) escaped as well.
 */
function yamlString(text: string): string {
  return JSON.stringify(text).replace(
    /[\u007f-\u009f\u2028\u2029\ufeff]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`
  )
}

/**
 * Why the Helm values should not hold `link`: a pod that starts after the link expires (a node
 * drain, a scale-up, a crash) cannot fetch the bundle. Undefined when it lasts a day or more, or
 * the service did not say.
 */
export function expiryWarning(link: BundleLink, now: number): string | undefined {
  if (link.expiresAt === undefined || link.expiresAt.getTime() - now >= DURABLE_MS) return undefined
  return (
    `The Helm values point at the presigned bundle link, which expires at ${formatMoment(link.expiresAt, now)}: ` +
    'a pod that starts after that cannot fetch the bundle. Copy the bundle somewhere durable and give its ' +
    'address as `helm-bundle-url`.'
  )
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
