import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

const support = join(dirname(fileURLToPath(import.meta.url)), 'support');

it('starting the platform and answering REST requests loads no WebRTC: werift comes with the first media join', () => {
  const child = spawnSync(process.execPath, ['--import', join(support, 'register-import-recorder.mjs'), '--import', 'tsx', join(support, 'rest-only-start.ts')], {
    encoding: 'utf8',
    timeout: 60_000,
  });
  expect(child.stdout).toContain('STATUS 200');
  const imported = child.stderr.split('\n').flatMap((line) => (line.startsWith('IMPORT ') ? [line.slice('IMPORT '.length)] : []));
  // The recorder works: the platform's own dependencies show up.
  expect(imported).toEqual(expect.arrayContaining(['hono', 'kysely']));
  expect(imported.filter((name) => /^(werift|@peculiar\/x509|@fidm\/x509)$/.test(name))).toEqual([]);
}, 90_000);
