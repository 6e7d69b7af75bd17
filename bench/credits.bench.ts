/**
 * Credit ledger benchmark: charges per second and latency percentiles over real HTTP, on SQLite and
 * PostgreSQL, for spread load (many humans: no lock contention) and a hot balance (one human: every
 * charge queues on one row lock). Baseline in the same run: GET /v1/credit/{id} on the same server.
 */
import { createServer } from '@palaver/sdk-core/server';
import { dropSchema, postgresReachable, uniqueSchema } from '@palaver/sdk-core/testing';

const postgresUrl = process.env.PALAVER_TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
import { fixed, percentile } from './statistics.js';

const DURATION_MS = Number(process.env.BENCH_DURATION_MS ?? 4000);
const CONCURRENCY = 16;

interface Result {
  perSecond: number;
  p50: number;
  p99: number;
  errors: number;
  count: number;
}

async function load(send: (index: number) => Promise<Response>): Promise<Result> {
  const latencies: number[] = [];
  let errors = 0;
  let next = 0;
  const started = performance.now();
  const deadline = started + DURATION_MS;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (performance.now() < deadline) {
        const index = next;
        next += 1;
        const before = performance.now();
        const response = await send(index);
        await response.arrayBuffer();
        latencies.push(performance.now() - before);
        if (response.status !== 200) errors += 1;
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  return { perSecond: latencies.length / seconds, p50: percentile(latencies, 50), p99: percentile(latencies, 99), errors, count: latencies.length };
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
    const charge = (human: (index: number) => string) => (index: number) =>
      fetch(`${base}/v1/credit/${credit.id}/ledger`, {
        method: 'POST',
        headers: { ...headers, 'x-human-id': human(index) },
        body: JSON.stringify({ amount: -1, idempotency_key: `charge-${index}` }),
      });

    console.log(`${store} (concurrency ${CONCURRENCY}, ${DURATION_MS / 1000} s each):`);
    const baseline = await load(() => fetch(`${base}/v1/credit/${credit.id}`, { headers }));
    console.log(line('baseline GET /v1/credit/{id}', baseline));
    const spread = await load(charge((index) => `human-${index % 100}`));
    console.log(line('charges, 100 humans', spread));
    const hot = await load(charge(() => 'hot-human'));
    console.log(line('charges, one human (hot row)', hot));
    const replays = await load((index) =>
      fetch(`${base}/v1/credit/${credit.id}/ledger`, {
        method: 'POST',
        headers: { ...headers, 'x-human-id': 'hot-human' },
        body: JSON.stringify({ amount: -1, idempotency_key: `charge-${index % 50}` }),
      }),
    );
    console.log(line('idempotent replays (same 50 keys)', replays));
    console.log(`  charge/baseline throughput ratio: spread ${fixed(spread.perSecond / baseline.perSecond, 2)}, hot ${fixed(hot.perSecond / baseline.perSecond, 2)}`);
  } finally {
    await server.close();
    if (schema) await dropSchema(postgresUrl, schema);
  }
}

await run('sqlite');
if (await postgresReachable(postgresUrl)) await run('postgres');
else console.log(`postgres: skipped (cannot connect to ${postgresUrl})`);
