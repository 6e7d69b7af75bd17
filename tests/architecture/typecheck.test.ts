import { spawnSync } from 'node:child_process';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

function typecheck(project: string) {
  return spawnSync(process.execPath, [resolve(root, 'node_modules/typescript/bin/tsc'), '-p', resolve(root, project)], {
    cwd: root,
    encoding: 'utf8',
    timeout: 240_000,
  });
}

it('the whole repository typechecks in strict mode', () => {
  const result = typecheck('tsconfig.json');
  expect(result.stdout + result.stderr).toBe('');
  expect(result.status).toBe(0);
}, 250_000);

it("the browser code typechecks without Node's types (tsconfig.browser.json): no Node API can slip into a browser entry", () => {
  const result = typecheck('tsconfig.browser.json');
  expect(result.stdout + result.stderr).toBe('');
  expect(result.status).toBe(0);
}, 250_000);
