/**
 * Credit ledger benchmark: charges per second and latency percentiles over real HTTP, on SQLite and
 * PostgreSQL, for spread load (many humans: no lock contention) and a hot balance (one human: every
 * charge queues on one row lock). Baseline in the same run: GET /v1/credit/{id} on the same server. The load
 * comes from a child process (`credits-load-child.ts`), so the server has one of the two cores to itself.
 */
import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createServer } from '@palaver/sdk-core/server';
import { dropSchema, postgresReachable, uniqueSchema } from '@palaver/sdk-core/testing';

const postgresUrl = process.env.PALAVER_TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
import { fixed, percentile } from './statistics.js';

const folder = dirname(fileURLToPath(import.meta.url));
const DURATION_MS = Number(process.env.BENCH_DURATION_MS ?? 4000);
const CONCURRENCY = 16;

interface Result {
  perSecond: number;
  p50: number;
  p99: number;
  errors: number;
  count: number;
}

/** Runs one scenario in a child process (the load generator), so the server keeps its core. */
function load(scenario: Record<string, unknown>): Promise<Result> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', join(folder, 'credits-load-child.ts'), JSON.stringify({ durationMs: DURATION_MS, concurrency: CONCURRENCY, ...scenario })], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('exit', (code) => (code === 0 ? resolve(JSON.parse(output) as Result) : reject(new Error(`load generator exited with ${code}`))));
  });
}

function line(label: string, result: Result): string {
  return `  ${label.padEnd(34)} ${fixed(result.perSecond, 0).padStart(6)} req/s   p50 ${fixed(result.p50, 2).padStart(7)} ms   p99 ${fixed(result.p99, 2).padStart(7)} ms   (${result.count} requests, ${result.errors} non-200)`;
}

async function run(store: 'sqlite' | 'postgres'): Promise<void> {
  const schema = store === 'postgres' ? uniqueSchema() : undefined;
  const server = await createServer({
    env: {},
    config: { logLevel: 'silent', webhook: { dispatch: false }, ...(store === 'postgres' ? { databaseUrl: postgresUrl } : {}) },
    ...(schema ? { databaseSchema: schema } : {}),
  });
  try {
    const base = await server.listen(0, '127.0.0.1');
    const headers = { 'x-api-key': server.apiKey, 'content-type': 'application/json' };
    const createCredit = await fetch(`${base}/v1/credit`, { method: 'POST', headers, body: JSON.stringify({ name: 'bench', allow_negative_balance: true }) });
    const credit = (await createCredit.json()) as { id: string };
    const target = { base, credit: credit.id, apiKey: server.apiKey };
    console.log(`${store} (concurrency ${CONCURRENCY}, ${DURATION_MS / 1000} s each):`);
    const baseline = await load({ ...target, kind: 'get' });
    console.log(line('baseline GET /v1/credit/{id}', baseline));
    const spread = await load({ ...target, kind: 'charge', humans: 'spread' });
    console.log(line('charges, 100 humans', spread));
    const hot = await load({ ...target, kind: 'charge', humans: 'hot' });
    console.log(line('charges, one human (hot row)', hot));
    const replays = await load({ ...target, kind: 'charge', humans: 'replay' });
    console.log(line('idempotent replays (same 50 keys)', replays));
    const wanted = store === 'sqlite' ? 2000 : 500;
    const met = spread.perSecond >= wanted && spread.p99 < 100;
    console.log(`  target ${wanted} charges/s with p99 under 100 ms (100 humans): ${met ? 'met' : 'MISSED'}`);
    console.log(`  charge/baseline throughput ratio: spread ${fixed(spread.perSecond / baseline.perSecond, 2)}, hot ${fixed(hot.perSecond / baseline.perSecond, 2)}`);
  } finally {
    await server.close();
    if (schema) await dropSchema(postgresUrl, schema);
  }
}

await run('sqlite');
if (await postgresReachable(postgresUrl)) await run('postgres');
else console.log(`postgres: skipped (cannot connect to ${postgresUrl})`);
