// Profiling helper (not a benchmark): CPU time a gateway process spends per streamed chat completion at
// CONCURRENCY concurrent streams from the fake upstream (children from llm-gateway-child.ts).
// TARGET=platform (default), proxy or openai-proxy; BENCH_CPU_PROFILE=<dir> writes a V8 CPU profile of it;
// BENCH_PERF=1 starts it with --perf-basic-prof and prints its pid before measuring (for `perf record -p`);
// BENCH_NODE_FLAGS="<flags>" starts it with those flags (e.g. `--import ./profiles/heap-sampler.ts`).
import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const CONCURRENCY = Number(process.env.CONCURRENCY ?? 100);
const ROUNDS = Number(process.env.ROUNDS ?? 20);
const TARGET = process.env.TARGET ?? 'platform';
const children: ChildProcess[] = [];

async function startChild<T>(...args: string[]): Promise<{ info: T; pid: number }> {
  const flags =
    args[0] !== TARGET ? [] : process.env.BENCH_NODE_FLAGS ? process.env.BENCH_NODE_FLAGS.split(/\s+/).filter(Boolean) : process.env.BENCH_CPU_PROFILE ? ['--cpu-prof', '--cpu-prof-interval', '250', `--cpu-prof-dir=${process.env.BENCH_CPU_PROFILE}`] : process.env.BENCH_PERF ? ['--perf-basic-prof'] : [];
  // After tsx's import, so a flag may import a TypeScript file (BENCH_NODE_FLAGS="--import ./profiles/heap-sampler.ts").
  const child = spawn(process.execPath, ['--import', 'tsx', ...flags, join(dirname(fileURLToPath(import.meta.url)), '..', 'llm-gateway-child.ts'), ...args], {
    stdio: ['pipe', 'pipe', 'inherit'],
    env: { ...process.env, PALAVER_LOG_LEVEL: 'silent' },
  });
  children.push(child);
  for await (const line of createInterface({ input: child.stdout! })) return { info: JSON.parse(line) as T, pid: child.pid! };
  throw new Error('child exited');
}

/** CPU ticks (10 ms) per thread of a process. */
function threadTicks(pid: number): Map<string, number> {
  const result = new Map<string, number>();
  for (const task of readdirSync(`/proc/${pid}/task`)) {
    try {
      const stat = readFileSync(`/proc/${pid}/task/${task}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      result.set(`${stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'))}#${task}`, Number(fields[11]) + Number(fields[12]));
    } catch {
      // The thread ended.
    }
  }
  return result;
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

for (let round = 0; round < 5; round += 1) await Promise.all(Array.from({ length: CONCURRENCY }, streamOnce));
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
const busy = [...after].map(([name, ticks]) => [name, ticks - (before.get(name) ?? 0)] as const).filter(([, ticks]) => ticks > 0).sort((a, b) => b[1] - a[1]);
const total = busy.reduce((sum, [, ticks]) => sum + ticks, 0);
console.log(
  `${TARGET}: ${streams} streams at ${CONCURRENCY} concurrent in ${(performance.now() - started).toFixed(0)} ms; CPU per stream ${((total * 10_000) / streams).toFixed(0)} µs ` +
    `(${busy.map(([name, ticks]) => `${name} ${((ticks * 10_000) / streams).toFixed(0)}`).join(', ')}); first chunk p50 ${firsts[Math.floor(streams / 2)]!.toFixed(1)} ms`,
);
for (const child of children) child.stdin!.end();
