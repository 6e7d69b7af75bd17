import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { withDatabase } from './open-database.js';

const main = resolve(dirname(fileURLToPath(import.meta.url)), 'main.ts');
let folder: string;
let database: string;

function palaver(...args: string[]) {
  const result = spawnSync(process.execPath, ['--import', 'tsx', main, 'webhooks', ...args, '--database', database], { encoding: 'utf8', timeout: 60_000 });
  expect(result.status, result.stderr).toBe(0);
  return result.stdout;
}

beforeAll(() => {
  folder = mkdtempSync(join(tmpdir(), 'palaver-webhooks-'));
  database = join(folder, 'palaver.db');
});
afterAll(() => rmSync(folder, { recursive: true, force: true }));

it('adds, lists, disables and removes endpoints; lists, shows and replays deliveries', async () => {
  const added = palaver('add', 'http://127.0.0.1:9/hook', '--secret', 'whsec_cli_test_secret_value');
  const endpointId = added.split('\t')[0]!;
  expect(added).toContain('signing secret: whsec_cli_test_secret_value');
  expect(palaver('list')).toContain(`${endpointId}\tenabled\thttp://127.0.0.1:9/hook`);

  // An event produced by the platform itself (usage metering writes it with its outbox row).
  await withDatabase(database, async (server) => {
    await server.services.usage.record({ project: server.project, human: 'cli-human' }, 'token_cnt', 42);
  });
  const deliveries = palaver('deliveries');
  expect(deliveries).toMatch(/usage\.tracked\tpending\tattempts 0/);
  const deliveryId = deliveries.split('\t')[0]!;
  const shown = JSON.parse(palaver('show', deliveryId)) as { event_type: string; body: string };
  expect(shown.event_type).toBe('usage.tracked');
  expect(JSON.parse(shown.body)).toMatchObject({ type: 'usage.tracked', payload: { value: 42, human: 'cli-human' } });
  expect(palaver('replay', deliveryId)).toContain('queued 1 delivery');

  expect(palaver('disable', endpointId)).toContain('disabled');
  expect(palaver('list')).toContain('disabled (disabled from the CLI)');
  palaver('remove', endpointId);
  expect(palaver('list')).not.toContain(endpointId);
}, 180_000);
