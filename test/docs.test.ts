import { readFile, readdir } from 'node:fs/promises'
import { describe, expect, test } from '@jest/globals'
import { parse } from 'yaml'
import { INPUTS } from '../src/action/inputs.js'
import { OUTPUT_NAMES } from '../src/action/outputs.js'
import { EXIT_CODES } from '../src/cli/exit-codes.js'

interface ActionYml {
  runs: { using: string; main: string }
  inputs: Record<string, { description?: string; required?: boolean; default?: string }>
  outputs: Record<string, { description?: string }>
}

const action = parse(await readFile(new URL('../action.yml', import.meta.url), 'utf8')) as ActionYml
const readme = await readFile(new URL('../README.md', import.meta.url), 'utf8')
const changelog = await readFile(new URL('../CHANGELOG.md', import.meta.url), 'utf8')
const packageJson = JSON.parse(await readFile(new URL('../package.json', import.meta.url), 'utf8')) as {
  engines: { node: string }
}

/** The rows of the first markdown table under `## heading`, as arrays of cell texts. */
function tableUnder(heading: string): string[][] {
  const section = readme.split(/^## /m).find((part) => part.startsWith(`${heading}\n`)) ?? ''
  return section
    .split('\n')
    .filter((line) => line.startsWith('|'))
    .slice(2)
    .map((line) =>
      line
        .split('|')
        .slice(1, -1)
        .map((cell) => cell.trim())
    )
}

const unquote = (cell: string | undefined): string => (cell ?? '').replace(/^`(.*)`$/, '$1')

describe('action.yml, README and the code say the same', () => {
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

  test("README's inputs table matches action.yml: names, required, defaults and meanings", () => {
    const rows = tableUnder('Inputs').map(([name, required, fallback, meaning]) => [
      unquote(name),
      required,
      unquote(fallback),
      meaning
    ])
    const expected = Object.entries(action.inputs).map(([name, input]) => [
      name,
      input.required ? 'yes' : 'no',
      input.default ?? '',
      input.description
    ])
    expect(rows).toEqual(expected)
  })

  test("README's outputs table matches action.yml", () => {
    expect(tableUnder('Outputs').map(([name, meaning]) => [unquote(name), meaning])).toEqual(
      Object.entries(action.outputs).map(([name, output]) => [name, output.description])
    )
  })

  test("README's CLI section has a row for each exit code of the CLI, and no other", () => {
    const cli = readme.split(/^## /m).find((part) => part.startsWith('Outside GitHub: the `docs-admin` CLI\n')) ?? ''
    const rows = [...cli.matchAll(/^\s*\| `(\d+)` +\| \S/gm)].map(([, code]) => Number(code))
    expect(rows).toEqual(Object.values(EXIT_CODES).sort((a, b) => a - b))
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
