// ESLint for the whole repository (docs/decisions/0092-lint-and-format.md): typescript-eslint's type-aware rules over
// every TypeScript file through the project service (tsconfig.json), the React hooks rules for React code, and
// eslint-config-prettier last so no stylistic rule disagrees with Prettier (`pnpm format`).
import js from '@eslint/js';
import prettier from 'eslint-config-prettier/flat';
import { defineConfig, globalIgnores } from 'eslint/config';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default defineConfig([
  globalIgnores([
    '**/node_modules/',
    '**/dist/',
    '.reports/',
    '**/coverage/',
    '**/test-results/',
    '**/playwright-report/',
    'bench/*.tmp.*',
    'packages/*/scratch/',
  ]),

  js.configs.recommended,
  tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      ecmaVersion: 2023,
      sourceType: 'module',
      globals: { ...globals.node },
      parserOptions: {
        projectService: {
          // The one TypeScript file outside tsconfig.json's `include` (tsconfig.browser.json's stand-in), checked with its options.
          allowDefaultProject: ['packages/sdk-core/types/*.d.ts'],
          defaultProject: 'tsconfig.json',
        },
        tsconfigRootDir: import.meta.dirname,
      },
    },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      // Bugs the base set does not look for.
      '@typescript-eslint/switch-exhaustiveness-check': ['error', { considerDefaultExhaustiveForUnions: true }],
      '@typescript-eslint/return-await': ['error', 'in-try-catch'],
      // A leading underscore marks a binding kept on purpose: a rest sibling that drops a key, an unused parameter.
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_', ignoreRestSiblings: true },
      ],
      // A `let` that closures above its one assignment read (declared early for them) stays a `let`.
      'prefer-const': ['error', { ignoreReadBeforeAssign: true }],
      // Noise here: async functions without await implement Promise-returning ports and handlers (a throw becomes a rejection).
      '@typescript-eslint/require-await': 'off',
      // `{}` is an `unknown` narrowed by a null check: its String() is the deliberate fallback for a value of any shape.
      '@typescript-eslint/no-base-to-string': ['error', { ignoredTypeNames: ['Error', 'RegExp', 'URL', 'URLSearchParams', '{}'] }],
      // Passing an abort reason or a caught value on as it came is how this code propagates failures.
      '@typescript-eslint/prefer-promise-reject-errors': ['error', { allowThrowingAny: true, allowThrowingUnknown: true }],
    },
  },

  // Tests, e2e specs and benchmarks read JSON bodies (`any`) and hand vitest mocks' methods to expect(): the
  // no-unsafe-* and unbound-method findings there are the test's own assertions, not bugs.
  {
    files: ['**/*.test.{ts,tsx}', '**/tests/**', 'e2e/**', 'bench/**'],
    rules: {
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/unbound-method': 'off',
      // Stand-in servers and emitters take async handlers: a rejection there fails the run as an unhandled one.
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { arguments: false } }],
    },
  },

  // Kysely's documented migration signature: a migration must not depend on today's schema type.
  {
    files: ['packages/sdk-core/src/server/store/migrations/**'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },

  // Browser code: sdk-core's browser folders, sdk-react, the examples' pages, the pages Playwright loads.
  {
    files: [
      'packages/sdk-core/src/{client,realtime,tts}/**',
      'packages/sdk-react/src/**',
      'examples/*/app/**',
      'e2e/**/support/**/*.tsx',
      'tests/consumers/fixtures/web-app/src/**',
    ],
    languageOptions: { globals: { ...globals.browser } },
  },

  // React: the rules of hooks (and the React Compiler's checks) wherever hooks are written.
  {
    files: ['packages/sdk-react/src/**/*.{ts,tsx}', 'examples/**/*.{ts,tsx}', 'e2e/**/*.tsx', 'tests/consumers/fixtures/web-app/**/*.tsx'],
    ...reactHooks.configs.flat['recommended-latest'],
  },
  {
    files: ['packages/sdk-react/src/**/*.{ts,tsx}', 'examples/**/*.{ts,tsx}', 'e2e/**/*.tsx', 'tests/consumers/fixtures/web-app/**/*.tsx'],
    rules: {
      'react-hooks/exhaustive-deps': 'error',
      // Noise here: it flags the subscribe-and-refresh effect (an effect that starts an async read or resets a
      // field when its input changes), which this code uses on purpose; nothing here runs the React Compiler.
      'react-hooks/set-state-in-effect': 'off',
    },
  },
  // Test harnesses hand a hook's result to the test through outer variables, refs and window on purpose.
  {
    files: ['**/*.test.tsx', 'e2e/**/*.tsx'],
    rules: { 'react-hooks/refs': 'off', 'react-hooks/globals': 'off', 'react-hooks/immutability': 'off' },
  },

  // JavaScript files and the consumer fixtures (their own projects, compiled against the packed packages, which
  // are not installed here): the rules that need no types.
  {
    files: ['**/*.{js,mjs,cjs}', 'tests/consumers/fixtures/**'],
    ...tseslint.configs.disableTypeChecked,
  },
  {
    files: ['**/*.cjs'],
    languageOptions: { sourceType: 'commonjs' },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  // `import x = require()` is how a CommonJS TypeScript file (.cts) imports.
  {
    files: ['**/*.cts'],
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },

  prettier,
]);
