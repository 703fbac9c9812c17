// ESLint for the whole repository, run by `npm test` (docs/testing.md). Type-aware rules catch what the
// compiler lets through: a promise nobody awaits or catches, and `any` flowing into typed code.
import js from '@eslint/js'
import tseslint from 'typescript-eslint'

export default tseslint.config(
  { ignores: ['**/dist/**', '**/node_modules/**', '.test-results/**', '.doorway/**', 'test-results/**', 'devnet/src/onramp/buy.js', 'examples/demo/demo.js'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: false }],
      '@typescript-eslint/no-unsafe-argument': 'error',
      '@typescript-eslint/no-unsafe-assignment': 'error',
      '@typescript-eslint/no-unsafe-call': 'error',
      '@typescript-eslint/no-unsafe-member-access': 'error',
      '@typescript-eslint/no-unsafe-return': 'error',
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      '@typescript-eslint/no-namespace': ['error', { allowDeclarations: true }],
      // Small functions (docs/architecture.md §11): a longer one says why in an eslint-disable comment.
      'max-lines-per-function': ['error', { max: 80, skipBlankLines: true, skipComments: true, IIFEs: true }],
    },
  },
  {
    // Tests read untyped JSON answers on purpose (that is what they check) and are long by nature.
    files: ['**/*.test.ts', '**/*.test.tsx', '**/*.testing.ts', '**/testing.ts', 'e2e/**', 'bench/**'],
    rules: {
      'max-lines-per-function': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/no-explicit-any': 'off',
    },
  },
  // Playwright reads a hook's fixtures from its first parameter, which must be a destructuring pattern.
  { files: ['e2e/**'], rules: { 'no-empty-pattern': 'off' } },
  { files: ['**/*.js', '**/*.cjs', '**/*.mjs'], extends: [tseslint.configs.disableTypeChecked] },
  { files: ['**/*.cjs'], languageOptions: { sourceType: 'commonjs', globals: { module: 'writable', require: 'readonly' } } },
)
