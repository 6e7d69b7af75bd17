#!/usr/bin/env node
// Runs lint and every test runner of the repository (vitest, then Playwright when e2e specs exist), each writing a
// JSON report under .reports/, and exits non-zero when any of them failed.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const reports = join(root, '.reports');
rmSync(reports, { recursive: true, force: true });
mkdirSync(reports, { recursive: true });

const extra = process.argv.slice(2);
let failed = false;

function run(command, args) {
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit', env: process.env });
  if (result.status !== 0) failed = true;
}

// Lint first (ESLint, then Prettier's check: `pnpm lint`), alone on the machine's two cores; each finding counts
// as a failure in the summary (.reports/lint.json). Left out when arguments name the tests to run.
if (extra.length === 0) run('node', [join(root, 'scripts', 'lint-report.mjs'), join(reports, 'lint.json')]);

run('pnpm', ['exec', 'vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${join(reports, 'vitest.json')}`, ...extra]);

const e2eConfig = join(root, 'e2e', 'playwright.config.ts');
const hasSpecs = existsSync(e2eConfig) && readdirSync(join(root, 'e2e'), { recursive: true }).some((file) => String(file).endsWith('.spec.ts'));
if (hasSpecs && extra.length === 0) {
  run('pnpm', ['exec', 'playwright', 'test', '-c', e2eConfig]);
}

process.exit(failed ? 1 : 0);
