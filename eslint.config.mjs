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
    ...jest.configs['flat/recommended']
  }
)
