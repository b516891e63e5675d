/**
 * The repository's markdown documents, for the tests that hold them to the code, to the workflows and to each
 * other: the README and the pages of docs/.
 */
import { readdirSync } from 'node:fs'
import * as path from 'node:path'
import { fileURLToPath } from 'node:url'

export const ROOT = fileURLToPath(new URL('../..', import.meta.url))

/** README.md and docs/*.md, as paths from the repository's root. */
export const DOCUMENTS: readonly string[] = [
  'README.md',
  ...readdirSync(path.join(ROOT, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`)
]

/** The text under `## heading` of `doc` (the whole heading line), up to the next `## ` heading. */
export function sectionOf(doc: string, heading: string): string {
  return doc.split(/^## /m).find((part) => part.startsWith(`${heading}\n`)) ?? ''
}
