#!/usr/bin/env node
// Prints one line `N passed, N failed, N skipped` from the JSON reports of every runner under .reports/ (vitest,
// Playwright, and lint's checks).
// Usage: node scripts/summarize-reports.mjs [exit status of the test command]
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

const reports = join(new URL('..', import.meta.url).pathname, '.reports');
let passed = 0;
let failed = 0;
let skipped = 0;
const files = existsSync(reports) ? readdirSync(reports).filter((file) => file.endsWith('.json')) : [];
for (const file of files) {
  const report = JSON.parse(readFileSync(join(reports, file), 'utf8'));
  if (typeof report.numPassedTests === 'number') {
    // vitest
    passed += report.numPassedTests;
    failed += report.numFailedTests;
    skipped += (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
    // A suite that failed to load has no tests but must count as a failure.
    failed += (report.testResults ?? []).filter((suite) => suite.status === 'failed' && (suite.assertionResults ?? []).length === 0).length;
  } else if (Array.isArray(report.checks)) {
    // lint (scripts/lint-report.mjs): a clean tool passes; each ESLint message and each unformatted file fails
    for (const check of report.checks) {
      if (check.failures.length === 0) passed += 1;
      else failed += check.failures.length;
    }
  } else if (report.stats && typeof report.stats.expected === 'number') {
    // Playwright
    passed += report.stats.expected + (report.stats.flaky ?? 0);
    failed += report.stats.unexpected;
    skipped += report.stats.skipped ?? 0;
    if ((report.errors ?? []).length > 0) failed += report.errors.length;
  }
}
if (files.length === 0) failed += 1;
// The runners failed (exit status given by .ci/run) outside any test the reports count, e.g. a crashed vitest
// worker, whose unfinished test the report lists as pending: that is a failure, not a skip.
const runnerStatus = Number(process.argv[2] ?? 0);
if (runnerStatus !== 0 && failed === 0) {
  console.error('the test runners failed outside the counted tests (a crashed worker or an unhandled error): see the log above');
  failed += 1;
}
console.log(`${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(failed > 0 ? 1 : 0);
