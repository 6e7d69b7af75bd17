#!/usr/bin/env node
// `pnpm lint` as the test command runs it (scripts/run-tests.mjs): ESLint and Prettier's check over the repository,
// what they found printed and written to a JSON report that scripts/summarize-reports.mjs counts: a clean tool is one
// passed check; each ESLint message and each file Prettier would change is one failure.
// Usage: node scripts/lint-report.mjs <report.json>
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const reportFile = process.argv[2];
if (!reportFile) throw new Error('usage: node scripts/lint-report.mjs <report.json>');

function eslintCheck() {
  const folder = mkdtempSync(join(tmpdir(), 'palaver-eslint-'));
  const output = join(folder, 'eslint.json');
  const started = performance.now();
  const result = spawnSync('pnpm', ['exec', 'eslint', '.', '--max-warnings=0', '--format', 'json', '--output-file', output], {
    cwd: root,
    encoding: 'utf8',
  });
  const seconds = ((performance.now() - started) / 1000).toFixed(0);
  try {
    // Exit status 2: ESLint could not run (a configuration or parser crash), so there is no report to read.
    if (result.status !== 0 && result.status !== 1)
      return { name: 'eslint', failures: [`eslint did not run (${result.status ?? result.signal}): ${result.stderr.trim()}`] };
    const failures = [];
    for (const file of JSON.parse(readFileSync(output, 'utf8'))) {
      for (const message of file.messages) {
        failures.push(
          `${relative(root, file.filePath)}:${message.line ?? 0}:${message.column ?? 0} ${message.ruleId ?? 'eslint'}: ${message.message.split('\n')[0]}`,
        );
      }
    }
    console.log(`eslint: ${failures.length === 0 ? 'no problems' : `${failures.length} problem(s)`} (${seconds} s)`);
    return { name: 'eslint', failures };
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

function prettierCheck() {
  const result = spawnSync('pnpm', ['exec', 'prettier', '.', '--list-different'], { cwd: root, encoding: 'utf8' });
  // Exit status 1: some files differ (listed on stdout); 2: Prettier failed (a file it could not parse).
  if (result.status !== 0 && result.status !== 1)
    return { name: 'prettier --check', failures: [`prettier failed (${result.status ?? result.signal}): ${result.stderr.trim()}`] };
  const failures = result.stdout
    .split('\n')
    .filter(Boolean)
    .map((file) => `${file}: not formatted (pnpm format)`);
  console.log(`prettier --check: ${failures.length === 0 ? 'every file formatted' : `${failures.length} file(s) not formatted (pnpm format)`}`);
  return { name: 'prettier --check', failures };
}

const checks = [eslintCheck(), prettierCheck()];
for (const check of checks) {
  for (const failure of check.failures.slice(0, 50)) console.log(`  ${check.name}: ${failure}`);
  if (check.failures.length > 50) console.log(`  ${check.name}: ... ${check.failures.length - 50} more in ${relative(root, reportFile)}`);
}
writeFileSync(reportFile, JSON.stringify({ checks }, null, 2));
process.exit(checks.some((check) => check.failures.length > 0) ? 1 : 0);
