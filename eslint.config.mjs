// ESLint flat config: ESLint's and typescript-eslint's recommended rules everywhere, the Jest plugin's
// for the tests. Formatting is Prettier's job (`npm run format:check`), not ESLint's.
import eslint from '@eslint/js'
import { defineConfig } from 'eslint/config'
import jest from 'eslint-plugin-jest'
import globals from 'globals'
import tseslint from 'typescript-eslint'

export default defineConfig(
  { ignores: ['dist/', 'coverage/', 'node_modules/', 'bench/out/', 'demo-output/'] },
  eslint.configs.recommended,
  tseslint.configs.recommended,
  {
    languageOptions: { ecmaVersion: 2023, sourceType: 'module', globals: globals.node }
  },
  {
    files: ['test/**/*.ts'],
    ...jest.configs['flat/recommended'],
    rules: {
      ...jest.configs['flat/recommended'].rules,
      // A test may assert through a helper named for what it checks (`refused`, `expectUnpacked`...).
      'jest/expect-expect': ['error', { assertFunctionNames: ['expect', 'expect*', 'refused'] }]
    }
  },
  {
    // The fuzz tests check invariants per generated case: which ones hold depends on whether the
    // case was refused or unpacked, so their assertions are conditional by design.
    files: ['test/e2e/fuzz*.test.ts', 'test/support/scenarios.ts'],
    rules: { 'jest/no-conditional-expect': 'off' }
  }
)
