/**
 * LLM gateway overhead: the same streamed completion from the local fake OpenAI upstream, fetched
 * directly, through `POST /v1/chat/completions`, and through a bare node:http proxy (the floor of any Node
 * gateway: one more loopback hop, no work), interleaved in one run. Prints time to first chunk and total time,
 * p50 and p99, at 1 and 100 concurrent streams, and what each hop adds to the direct call.
 * Upstream, platform and client each run in their own process, as in a deployment.
 * Target (issue 5): added p50 under 2 ms, p99 under 10 ms (LiteLLM reports p99 13-43 ms).
 *
 * Run: `pnpm bench llm-gateway` (or `node --import tsx bench/llm-gateway.bench.ts`).
 */
import { GatewayChildren } from './llm-gateway-children.js';
import { fixed, percentile } from './statistics.js';
import { cpuPerUnit, threadTicks } from './thread-cpu.js';

const CHUNKS = 8;
const SEQUENTIAL_SAMPLES = Number(process.env.BENCH_SAMPLES ?? 300);
const CONCURRENT_ROUNDS = Number(process.env.BENCH_ROUNDS ?? 6);
const CONCURRENCY = 100;
/**
 * Rounds of CONCURRENCY streams per path before measuring. TurboFan compiles the platform's request path over its
 * first few thousand streams, on V8's helper threads (200-280 compilations, ~1.1 s of CPU, between streams 500 and
 * 4,500 here): measured earlier, the 100-stream figure is the JIT's warm-up competing for two cores, not the
 * gateway a deployment runs (decision 0076).
 */
const WARMUP_ROUNDS = Number(process.env.BENCH_WARMUP_ROUNDS ?? 40);
const TIME_LIMIT_MS = 120_000;

interface Sample {
  firstChunkMs: number;
  totalMs: number;
}

const children = new GatewayChildren();
/** Starts a child (see llm-gateway-child.ts): what it printed once ready, and its pid. */
async function startChild<T>(...args: string[]): Promise<T & { pid: number }> {
  // BENCH_CPU_PROFILE=<dir> writes a V8 CPU profile of the platform process there (open it in Chrome DevTools).
  const profile = args[0] === 'platform' && process.env.BENCH_CPU_PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROFILE}`] : [];
  const { info, pid } = await children.start<T>(args, profile);
  return { ...info, pid };
}

const { chatUrl } = await startChild<{ chatUrl: string }>('upstream');
const platform = await startChild<{ baseUrl: string; apiKey: string; llm: string }>('platform', chatUrl);
const proxy = await startChild<{ chatUrl: string }>('proxy', chatUrl);
const openAiProxy = await startChild<{ chatUrl: string }>('openai-proxy', chatUrl);
async function streamOnce(url: string, headers: Record<string, string>, model: string): Promise<Sample> {
  const started = performance.now();
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ model, stream: true, messages: [{ role: 'user', content: 'benchmark' }] }),
  });
  if (!response.ok) throw new Error(`${url}: HTTP ${response.status} ${await response.text()}`);
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let firstChunkMs: number | undefined;
  let text = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    text += decoder.decode(value, { stream: true });
    // The first chunk carrying content (the role chunk's empty content counts, as clients render from it).
    if (firstChunkMs === undefined && text.includes('data: {')) firstChunkMs = performance.now() - started;
  }
  if (!text.endsWith('data: [DONE]\n\n')) throw new Error(`${url}: stream did not end with [DONE]`);
  return { firstChunkMs: firstChunkMs ?? Number.NaN, totalMs: performance.now() - started };
}

// Both paths get the fake's default answer: the same 8 chunks plus [DONE].
const direct = () => streamOnce(chatUrl, {}, 'bench-model');
const gateway = () => streamOnce(`${platform.baseUrl}/v1/chat/completions`, { 'x-api-key': platform.apiKey }, platform.llm);
const bareProxy = () => streamOnce(proxy.chatUrl, {}, 'bench-model');
const viaOpenAi = () => streamOnce(openAiProxy.chatUrl, {}, 'bench-model');
const paths = { direct, gateway, proxy: bareProxy, openai: viaOpenAi } as const;
type Path = keyof typeof paths;

type Samples = Record<Path, Sample[]>;

/** Rounds of `concurrency` streams per path, the order of the paths rotating from round to round. */
async function measure(concurrency: number, rounds: number): Promise<Samples> {
  const result: Samples = { direct: [], gateway: [], proxy: [], openai: [] };
  const order: Path[] = ['gateway', 'direct', 'proxy', 'openai'];
  const deadline = performance.now() + TIME_LIMIT_MS;
  for (let round = 0; round < rounds && performance.now() < deadline; round += 1) {
    for (let step = 0; step < order.length; step += 1) {
      const path = order[(round + step) % order.length]!;
      result[path].push(...(await Promise.all(Array.from({ length: concurrency }, () => paths[path]()))));
    }
  }
  return result;
}

function report(label: string, samples: Samples): void {
  const row = (name: string, pick: (sample: Sample) => number) => {
    const figures = [50, 99].map((rank) => {
      const [d, g, p, o] = (['direct', 'gateway', 'proxy', 'openai'] as const).map((path) => percentile(samples[path].map(pick), rank));
      return `    p${rank}: direct ${fixed(d!, 2)} | gateway ${fixed(g!, 2)} (added ${fixed(g! - d!, 2)}) | bare proxy ${fixed(p!, 2)} (added ${fixed(p! - d!, 2)}) | openai-package proxy ${fixed(o!, 2)} (added ${fixed(o! - d!, 2)}) ms`;
    });
    console.log(`  ${name}\n${figures.join('\n')}`);
  };
  console.log(`${label} (${samples.gateway.length} streams of ${CHUNKS} chunks per path)`);
  row('first chunk', (sample) => sample.firstChunkMs);
  row('total', (sample) => sample.totalMs);
}

try {
  // Warm-up: JIT, connection pools, the openai package's lazy import. Thousands of requests per path: a server's hot
  // code is optimised after ~1,000 calls (the chat request's validation takes 30 µs at first, 2-5 µs warm), the
  // request path has hundreds of functions, and a deployed gateway runs warm.
  await measure(1, 300);
  await measure(CONCURRENCY, WARMUP_ROUNDS);
  report('1 stream at a time', await measure(1, SEQUENTIAL_SAMPLES));
  const before = threadTicks(platform.pid);
  const concurrent = await measure(CONCURRENCY, CONCURRENT_ROUNDS);
  const threads = cpuPerUnit(before, threadTicks(platform.pid), concurrent.gateway.length);
  report(`${CONCURRENCY} concurrent streams`, concurrent);
  // Only the gateway's streams reach the platform's process. Its main thread first, then V8's helpers (GC, JIT).
  const [main, ...helpers] = threads;
  console.log(
    `  platform CPU per gateway stream: ${fixed(
      threads.reduce((sum, [, micros]) => sum + micros, 0),
      0,
    )} µs ` +
      `(main thread ${fixed(main?.[1] ?? 0, 0)}, other threads ${fixed(
        helpers.reduce((sum, [, micros]) => sum + micros, 0),
        0,
      )})`,
  );
} finally {
  children.stopAll();
}
