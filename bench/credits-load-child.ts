// Child process of credits.bench.ts: the load generator, in its own process so that the server under test has a
// core of this 2-core machine to itself. Prints one JSON result line.
import { percentile } from './statistics.js';

interface Scenario {
  kind: 'get' | 'charge';
  base: string;
  credit: string;
  apiKey: string;
  /** Charges: `spread` (100 humans), `hot` (one human), `replay` (the same 50 keys of one human). */
  humans?: 'spread' | 'hot' | 'replay';
  durationMs: number;
  concurrency: number;
}

const scenario = JSON.parse(process.argv[2]!) as Scenario;
const headers = { 'x-api-key': scenario.apiKey, 'content-type': 'application/json' };
const run = `${process.pid}-${Date.now()}`;

function send(index: number): Promise<Response> {
  if (scenario.kind === 'get') return fetch(`${scenario.base}/v1/credit/${scenario.credit}`, { headers });
  const human = scenario.humans === 'spread' ? `human-${index % 100}` : 'hot-human';
  const key = scenario.humans === 'replay' ? `charge-replay-${index % 50}` : `charge-${run}-${index}`;
  return fetch(`${scenario.base}/v1/credit/${scenario.credit}/ledger`, {
    method: 'POST',
    headers: { ...headers, 'x-human-id': human },
    body: JSON.stringify({ amount: -1, idempotency_key: key }),
  });
}

const latencies: number[] = [];
let errors = 0;
let next = 0;
const started = performance.now();
const deadline = started + scenario.durationMs;
await Promise.all(
  Array.from({ length: scenario.concurrency }, async () => {
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
process.stdout.write(JSON.stringify({ perSecond: latencies.length / seconds, p50: percentile(latencies, 50), p99: percentile(latencies, 99), errors, count: latencies.length }));
