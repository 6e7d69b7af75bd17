import { spawnSync } from 'node:child_process';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

it('the whole repository typechecks in strict mode', () => {
  const result = spawnSync(process.execPath, [resolve(root, 'node_modules/typescript/bin/tsc'), '-p', resolve(root, 'tsconfig.json')], {
    cwd: root,
    encoding: 'utf8',
    timeout: 240_000,
  });
  expect(result.stdout + result.stderr).toBe('');
  expect(result.status).toBe(0);
}, 250_000);
