import { readFile, readdir } from 'node:fs/promises'
import { describe, expect, test } from '@jest/globals'
import { parse } from 'yaml'
import { INPUTS, OPERATIONS } from '../src/action/inputs.js'
import { readSettings } from '../src/action/settings.js'
import { OUTPUT_NAMES } from '../src/action/outputs.js'
import { EXIT_CODES } from '../src/cli/exit-codes.js'
import { sectionOf } from './support/documents.js'

interface ActionYml {
  runs: { using: string; main: string }
  inputs: Record<string, { description?: string; required?: boolean; default?: string }>
  outputs: Record<string, { description?: string }>
}

const action = parse(await readFile(new URL('../action.yml', import.meta.url), 'utf8')) as ActionYml
const readFromRoot = (name: string): Promise<string> => readFile(new URL(`../${name}`, import.meta.url), 'utf8')
const readme = await readFromRoot('README.md')
const reference = await readFromRoot('docs/reference.md')
const cliDoc = await readFromRoot('docs/cli.md')
const changelog = await readFromRoot('CHANGELOG.md')
const packageJson = JSON.parse(await readFromRoot('package.json')) as {
  engines: { node: string }
}

/** The headings `## ...` of `doc`, in order. */
const headingsOf = (doc: string): string[] => [...doc.matchAll(/^## (.+)$/gm)].map(([, heading]) => heading ?? '')

/**
 * The reference's list under `## heading`: one item per name, `- **`name`**: facts.` (or the name
 * alone), and the description as the item's indented paragraph.
 */
function entriesUnder(heading: string): { name: string; facts: string | undefined; text: string }[] {
  const entries: { name: string; facts: string | undefined; text: string[] }[] = []
  let open = false
  for (const line of sectionOf(reference, heading).split('\n')) {
    const item = /^- \*\*`([^`]+)`\*\*(?:: (.*))?$/.exec(line)
    if (item) {
      entries.push({ name: item[1] ?? '', facts: item[2], text: [] })
      open = true
    } else if (open && line.startsWith('  ')) entries.at(-1)?.text.push(line.trim())
    else if (line.trim() !== '') open = false
  }
  return entries.map((entry) => ({ ...entry, text: entry.text.join(' ') }))
}

/** What the reference says of an input before its description: required, its default, who reads it. */
function inputFacts(name: keyof typeof INPUTS, declared: ActionYml['inputs'][string]): string {
  const spec: { for: 'all' | readonly string[] } = INPUTS[name]
  const readers = spec.for === 'all' ? 'every operation' : spec.for.map((operation) => `\`${operation}\``).join(', ')
  const facts = [
    ...(declared.required ? ['required'] : []),
    ...(declared.default === undefined ? [] : [`default \`${declared.default}\``]),
    readers
  ]
  return `${facts.join(', ')}.`
}

describe('action.yml, README, the reference and the code say the same', () => {
  test('action.yml runs dist/index.js on node24', () => {
    expect(action.runs).toEqual({ using: 'node24', main: 'dist/index.js' })
  })

  test('every input of the code is in action.yml with the same default and description, and no other', () => {
    expect(Object.keys(action.inputs)).toEqual(Object.keys(INPUTS))
    for (const [name, spec] of Object.entries(INPUTS)) {
      const declared = action.inputs[name]
      expect([name, declared?.default, declared?.description]).toEqual([
        name,
        'default' in spec ? spec.default : undefined,
        spec.description
      ])
    }
  })

  test('every output of the code is in action.yml, and no other', () => {
    expect(Object.keys(action.outputs)).toEqual([...OUTPUT_NAMES])
    for (const output of Object.values(action.outputs)) expect(output.description).toBeTruthy()
  })

  test("the reference's inputs: each input of action.yml, its default, who reads it, its description", () => {
    expect(entriesUnder('Inputs')).toEqual(
      Object.entries(action.inputs).map(([name, input]) => ({
        name,
        facts: inputFacts(name as keyof typeof INPUTS, input),
        text: input.description
      }))
    )
  })

  test("the reference's outputs: each output of action.yml with its description, and no other", () => {
    expect(entriesUnder('Outputs')).toEqual(
      Object.entries(action.outputs).map(([name, output]) => ({ name, facts: undefined, text: output.description }))
    )
  })

  test("the CLI's page has a row for each exit code of the CLI, and no other", () => {
    const rows = [...sectionOf(cliDoc, 'Exit codes').matchAll(/^\| `(\d+)` +\| \S/gm)].map(([, code]) => Number(code))
    expect(rows).toEqual(Object.values(EXIT_CODES).sort((a, b) => a - b))
  })

  test('README leads with deploy, then previews, forks and export, then the agent, automations, the CLI', () => {
    const order = [
      'What you need',
      'Quick start: deploy on every merge',
      'Previews',
      'Fork pull requests',
      'Export, for enterprise teams',
      'Agent conversations',
      'Automations',
      'Outside GitHub: the `docs-admin` CLI'
    ]
    expect(headingsOf(readme).filter((heading) => order.includes(heading))).toEqual(order)
    // Its table of needs names every operation.
    const needs = sectionOf(readme, 'What you need')
      .split('\n')
      .filter((line) => line.startsWith('| ['))
      .join('\n')
    expect(OPERATIONS.filter((operation) => !needs.includes(`\`${operation}\``))).toEqual([])
  })

  test("README's fork section quotes the message a review comment on a fork's pull request gets", () => {
    let message = ''
    try {
      readSettings(
        (name) => ({ operation: 'agent', 'project-id': 'p', 'comment-command': '/docs-agent' })[name as string],
        {
          workspace: '/w',
          eventName: 'pull_request_review_comment',
          warn: () => undefined
        }
      )
    } catch (error) {
      message = (error as Error).message
    }
    const forks = sectionOf(readme, 'Fork pull requests').replace(/\s+/g, ' ')
    expect(message).toContain('conversation tab')
    expect(forks).toContain(`\`\`\`text ${message} \`\`\``)
    expect(forks).toContain('`skip-reason=fork`')
  })

  test('README says what happens to comment runs without `queue: max`, which the example leaves out', async () => {
    const agent = sectionOf(readme, 'Agent conversations').replace(/\s+/g, ' ')
    expect(agent).toContain('Without `queue: max` on the concurrency group, GitHub keeps one pending run per group')
    expect(await readFromRoot('examples/agent-comments.yml')).not.toMatch(/^\s*queue:/m)
  })

  test('README gives the two set-up commands of a fresh clone', () => {
    expect(readme).toContain('npm ci && npm run demo')
    expect(readme).toMatch(/^npm test\b/m)
  })

  test("what CHANGELOG's unreleased section says engines.node is, package.json says", () => {
    const unreleased = changelog.split(/^## /m).find((part) => part.startsWith('[Unreleased]')) ?? ''
    const said = [...unreleased.matchAll(/`engines\.node` is `([^`]+)`/g)].map(([, range]) => range)
    expect(said).toEqual([packageJson.engines.node])
  })

  // What a side-by-side review shows whole. package.json is left out: JSON cannot break a string, and its
  // description and its fuzz:archives script are longer than that.
  test('no line of the code, tests, tools, action.yml or workflows is over 120 characters', async () => {
    // The root's own files (action.yml, the tools' configuration) and every file of these folders but
    // node_modules/, dist/ and the benchmark's output.
    const folders = ['src/', 'test/', 'bench/', 'scripts/', 'simulator/', 'examples/', '.github/']
    const skipped = ['node_modules', 'dist', 'bench/out']
    const files: string[] = []
    const walk = async (folder: string, deep: boolean): Promise<void> => {
      for (const entry of await readdir(new URL(`../${folder}`, import.meta.url), { withFileTypes: true })) {
        const name = `${folder}${entry.name}`
        if (!entry.isDirectory()) {
          if (/\.(ts|mts|cts|js|mjs|cjs|ya?ml)$/.test(name)) files.push(name)
        } else if (deep && !skipped.includes(entry.name) && !skipped.includes(name)) await walk(`${name}/`, true)
      }
    }
    await walk('', false)
    for (const folder of folders) await walk(folder, true)
    const long: string[] = []
    for (const name of files) {
      const text = await readFile(new URL(`../${name}`, import.meta.url), 'utf8')
      text.split('\n').forEach((line, i) => {
        if (line.length > 120) long.push(`${name}:${i + 1}`)
      })
    }
    expect(files).toContain('action.yml')
    expect(folders.filter((folder) => !files.some((name) => name.startsWith(folder)))).toEqual([])
    expect(files.filter((name) => name.startsWith('src/')).length).toBeGreaterThan(50)
    expect(long).toEqual([])
  })
})
