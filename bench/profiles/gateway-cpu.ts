// Profiling helper (not a benchmark): CPU time a gateway process spends per streamed chat completion at
// CONCURRENCY concurrent streams from the fake upstream (children from llm-gateway-child.ts).
// TARGET=platform (default), proxy or openai-proxy; BENCH_CPU_PROFILE=<dir> writes a V8 CPU profile of it;
// BENCH_PERF=1 starts it with --perf-basic-prof and prints its pid before measuring (for `perf record -p`);
// BENCH_NODE_FLAGS="<flags>" starts it with those flags (e.g. `--import ./profiles/heap-sampler.ts`).
import { GatewayChildren, type StartedChild } from '../llm-gateway-children.js';
import { cpuPerUnit, threadTicks } from '../thread-cpu.js';

const CONCURRENCY = Number(process.env.CONCURRENCY ?? 100);
const ROUNDS = Number(process.env.ROUNDS ?? 20);
const TARGET = process.env.TARGET ?? 'platform';
const children = new GatewayChildren();

function startChild<T>(...args: string[]): Promise<StartedChild<T>> {
  const flags =
    args[0] !== TARGET
      ? []
      : process.env.BENCH_NODE_FLAGS
        ? process.env.BENCH_NODE_FLAGS.split(/\s+/).filter(Boolean)
        : process.env.BENCH_CPU_PROFILE
          ? ['--cpu-prof', '--cpu-prof-interval', '250', `--cpu-prof-dir=${process.env.BENCH_CPU_PROFILE}`]
          : process.env.BENCH_PERF
            ? ['--perf-basic-prof']
            : [];
  return children.start<T>(args, flags);
}

const { info: upstream } = await startChild<{ chatUrl: string }>('upstream');
let pid: number;
let chatUrl: string;
let headers: Record<string, string> = {};
let model = 'bench-model';
if (TARGET === 'platform') {
  const started = await startChild<{ baseUrl: string; apiKey: string; llm: string }>('platform', upstream.chatUrl);
  pid = started.pid;
  chatUrl = `${started.info.baseUrl}/v1/chat/completions`;
  headers = { 'x-api-key': started.info.apiKey };
  model = started.info.llm;
} else {
  const started = await startChild<{ chatUrl: string }>(TARGET, upstream.chatUrl);
  pid = started.pid;
  chatUrl = started.info.chatUrl;
}

async function streamOnce(): Promise<number> {
  const started = performance.now();
  const response = await fetch(chatUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ model, stream: true, messages: [{ role: 'user', content: 'benchmark' }] }),
  });
  const reader = response.body!.getReader();
  let first: number | undefined;
  for (;;) {
    const { done } = await reader.read();
    first ??= performance.now() - started;
    if (done) break;
  }
  return first;
}

// Warm: TurboFan compiles the request path's functions over the first few thousand streams, on the helper threads.
const WARMUP_ROUNDS = Number(process.env.WARMUP_ROUNDS ?? 40);
for (let round = 0; round < WARMUP_ROUNDS; round += 1) await Promise.all(Array.from({ length: CONCURRENCY }, streamOnce));
if (process.env.BENCH_PERF || process.env.BENCH_NODE_FLAGS) {
  console.log(`PID ${pid}`);
  await new Promise((resolve) => setTimeout(resolve, 1000));
}
const before = threadTicks(pid);
const started = performance.now();
const firsts: number[] = [];
for (let round = 0; round < ROUNDS; round += 1) firsts.push(...(await Promise.all(Array.from({ length: CONCURRENCY }, streamOnce))));
const after = threadTicks(pid);
const streams = CONCURRENCY * ROUNDS;
firsts.sort((a, b) => a - b);
const busy = cpuPerUnit(before, after, streams);
const total = busy.reduce((sum, [, micros]) => sum + micros, 0);
console.log(
  `${TARGET}: ${streams} streams at ${CONCURRENCY} concurrent in ${(performance.now() - started).toFixed(0)} ms; CPU per stream ${total.toFixed(0)} µs ` +
    `(${busy.map(([name, micros]) => `${name} ${micros.toFixed(0)}`).join(', ')}); first chunk p50 ${firsts[Math.floor(streams / 2)]!.toFixed(1)} ms`,
);
children.stopAll();
