/**
 * Records the spec's endpoints in `spec-endpoints.snapshot.json`, the copy the contract tests compare against:
 * `PALAVER_SPEC_PATH=/path/to/platform-api.md pnpm exec tsx packages/sdk-core/tests/contract/record-spec-endpoints.ts`.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { parseSpecEndpoints, recordedForm, specPath } from './spec-endpoints.js';

const path = specPath();
if (path === undefined) throw new Error('Set PALAVER_SPEC_PATH to the platform API spec (platform-api.md)');
const endpoints = parseSpecEndpoints(readFileSync(path, 'utf8')).map(recordedForm);
writeFileSync(new URL('./spec-endpoints.snapshot.json', import.meta.url), `${JSON.stringify(endpoints, null, 2)}\n`);
console.log(`recorded ${endpoints.length} endpoints from ${path}`);
