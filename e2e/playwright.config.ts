import { defineConfig } from '@playwright/test';

/**
 * Browser tests: Debian's Chromium (never a downloaded browser) running the unmodified
 * livekit-client against the platform's embedded media endpoint.
 */
export default defineConfig({
  testDir: '.',
  testMatch: ['media/**/*.spec.ts', 'realtime/**/*.spec.ts', 'demo/**/*.spec.ts', 'docs/**/*.spec.ts'],
  timeout: 90_000,
  workers: 1,
  fullyParallel: false,
  retries: 0,
  reporter: [['list'], ['json', { outputFile: '../.reports/playwright.json' }]],
  use: { trace: 'off' },
});
