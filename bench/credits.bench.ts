/**
 * Credit ledger benchmark: charges per second and latency percentiles over real HTTP, on SQLite and
 * PostgreSQL, for spread load (many humans: no lock contention) and a hot balance (one human: every
 * charge queues on one row lock). Baseline in the same run: GET /v1/credit/{id} on the same server. The load
 * comes from autocannon in a child process (`http-load-child.ts`), so the server has one of the two cores to itself.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer } from '@palaver/sdk-core/server';
import { dropSchema, postgresReachable, uniqueSchema } from '@palaver/sdk-core/testing';
import { loadFromChild, type LoadResult } from './http-load.js';
import { fixed } from './statistics.js';

const postgresUrl = process.env.PALAVER_TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const DURATION_MS = Number(process.env.BENCH_DURATION_MS ?? 4000);
const WARMUP_MS = 1500;
const CONCURRENCY = 16;

function line(label: string, result: LoadResult): string {
  return `  ${label.padEnd(34)} ${fixed(result.perSecond, 0).padStart(6)} req/s   p50 ${fixed(result.p50, 2).padStart(7)} ms   p99 ${fixed(result.p99, 2).padStart(7)} ms   (${result.count} requests, ${result.errors} non-200)`;
}

type StoreKind = 'sqlite (memory)' | 'sqlite (file, WAL)' | 'postgres';

async function run(store: StoreKind): Promise<void> {
  const schema = store === 'postgres' ? uniqueSchema() : undefined;
  const folder = store === 'sqlite (file, WAL)' ? await mkdtemp(join(tmpdir(), 'palaver-credits-bench-')) : undefined;
  const server = await createServer({
    env: {},
    config: {
      logLevel: 'silent',
      webhook: { dispatch: false },
      ...(store === 'postgres' ? { databaseUrl: postgresUrl } : {}),
      ...(folder ? { database: join(folder, 'palaver.db') } : {}),
    },
    ...(schema ? { databaseSchema: schema } : {}),
  });
  try {
    const base = await server.listen(0, '127.0.0.1');
    const headers = { 'x-api-key': server.apiKey, 'content-type': 'application/json' };
    const createCredit = await fetch(`${base}/v1/credit`, { method: 'POST', headers, body: JSON.stringify({ name: 'bench', allow_negative_balance: true }) });
    const credit = (await createCredit.json()) as { id: string };
    const common = { connections: CONCURRENCY, durationMs: DURATION_MS, warmupMs: WARMUP_MS };
    const charge = { ...common, url: `${base}/v1/credit/${credit.id}/ledger`, method: 'POST' as const, headers };
    console.log(`${store} (${CONCURRENCY} connections, ${DURATION_MS / 1000} s each after ${WARMUP_MS / 1000} s of warm-up):`);
    const baseline = await loadFromChild({ ...common, url: `${base}/v1/credit/${credit.id}`, headers: { 'x-api-key': server.apiKey } });
    console.log(line('baseline GET /v1/credit/{id}', baseline));
    const spread = await loadFromChild({ ...charge, charges: 'spread' });
    console.log(line('charges, 100 humans', spread));
    const hot = await loadFromChild({ ...charge, charges: 'hot' });
    console.log(line('charges, one human (hot row)', hot));
    const replays = await loadFromChild({ ...charge, charges: 'replay' });
    console.log(line('idempotent replays (same 50 keys)', replays));
    const wanted = store === 'postgres' ? 500 : 2000;
    const met = spread.perSecond >= wanted && spread.p99 < 100;
    console.log(`  target ${wanted} charges/s with p99 under 100 ms (100 humans): ${met ? 'met' : 'MISSED'}`);
    console.log(
      `  charge/baseline throughput ratio: spread ${fixed(spread.perSecond / baseline.perSecond, 2)}, hot ${fixed(hot.perSecond / baseline.perSecond, 2)}`,
    );
  } finally {
    await server.close();
    if (schema) await dropSchema(postgresUrl, schema);
    if (folder) await rm(folder, { recursive: true, force: true });
  }
}

await run('sqlite (memory)');
await run('sqlite (file, WAL)');
if (await postgresReachable(postgresUrl)) await run('postgres');
else console.log(`postgres: skipped (cannot connect to ${postgresUrl})`);
