import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const source = (path: string) => fileURLToPath(new URL(`./packages/${path}`, import.meta.url));

export default defineConfig({
  resolve: {
    // Inside the repository the packages resolve to their sources, as tsconfig.json's paths say; their
    // package.json files point only at dist (what the consumer tests install from tarballs).
    alias: [
      { find: /^@palaver\/sdk-core$/, replacement: source('sdk-core/src/index.ts') },
      { find: /^@palaver\/sdk-core\/(realtime|tts|graph|openai|server|testing)$/, replacement: source('sdk-core/src/$1.ts') },
      { find: /^@palaver\/sdk-react$/, replacement: source('sdk-react/src/index.ts') },
      { find: /^@palaver\/sdk-node$/, replacement: source('sdk-node/src/index.ts') },
    ],
  },
  test: {
    include: ['packages/*/src/**/*.test.{ts,tsx}', 'packages/*/tests/**/*.test.{ts,tsx}', 'examples/**/*.test.ts', 'tests/**/*.test.ts'],
    exclude: ['**/node_modules/**', '**/dist/**'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Two test files at a time on this 2-core machine kind: most tests wait on media, timers and child
    // processes, so the suite takes ~12 min instead of ~24 (measured by .ci/run in a fresh clone).
    maxWorkers: 2,
  },
});
