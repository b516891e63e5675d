// The compiled link scanner the code loads is the one its WebAssembly text describes.
import { readFile } from 'node:fs/promises'
import { expect, test } from '@jest/globals'
// @ts-expect-error: a plain script of the project, without types.
import { scannerModuleSource } from '../scripts/build-wasm.mjs'

test('src/verify/link-scan-wasm.ts is what `npm run build:wasm` makes of link-scan.wat', async () => {
  const committed = await readFile(new URL('../src/verify/link-scan-wasm.ts', import.meta.url), 'utf8')
  expect(committed).toBe(await scannerModuleSource())
})
