// The HTTP load generator of the benchmarks (autocannon), run as a child process so that on this 2-core machine
// the server under test keeps a core to itself. Argument: one JSON {@link Scenario}; prints one JSON result line.
import autocannon from 'autocannon';

export interface Scenario {
  url: string;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  /** Credit charges: `spread` (100 humans, a new key each), `hot` (one human, a new key each), `replay` (one human, the same 50 keys). */
  charges?: 'spread' | 'hot' | 'replay';
  durationMs: number;
  /** Requests sent before measuring, so that both sides are past their JIT warm-up. */
  warmupMs?: number;
  connections: number;
}

export interface LoadResult {
  perSecond: number;
  p50: number;
  p99: number;
  errors: number;
  count: number;
}

const scenario = JSON.parse(process.argv[2]!) as Scenario;
const run = `${process.pid}-${Date.now()}`;
let sent = 0;

function chargeRequest(request: autocannon.Request): autocannon.Request {
  const index = sent;
  sent += 1;
  const human = scenario.charges === 'spread' ? `human-${index % 100}` : 'hot-human';
  const key = scenario.charges === 'replay' ? `charge-replay-${index % 50}` : `charge-${run}-${index}`;
  return { ...request, headers: { ...scenario.headers, 'x-human-id': human }, body: JSON.stringify({ amount: -1, idempotency_key: key }) };
}

async function once(durationMs: number): Promise<autocannon.Result> {
  return autocannon({
    url: scenario.url,
    method: scenario.method ?? 'GET',
    headers: scenario.headers ?? {},
    connections: scenario.connections,
    pipelining: 1,
    duration: durationMs / 1000,
    ...(scenario.charges ? { requests: [{ setupRequest: chargeRequest }] } : {}),
  });
}

if (scenario.warmupMs) await once(scenario.warmupMs);
const result = await once(scenario.durationMs);
const output: LoadResult = {
  perSecond: result.requests.total / (scenario.durationMs / 1000),
  p50: result.latency.p50,
  p99: result.latency.p99,
  errors: result.non2xx + result.errors + result.timeouts,
  count: result.requests.total,
};
process.stdout.write(JSON.stringify(output));
