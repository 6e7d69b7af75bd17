/**
 * LLM gateway overhead: the same streamed completion from the local fake OpenAI upstream, fetched
 * directly and through `POST /v1/chat/completions`, interleaved in one run. Prints time to first chunk
 * and total time, p50 and p99, at 1 and 100 concurrent streams, and the gateway's added latency.
 * Target (issue 5): added p50 under 2 ms, p99 under 10 ms (LiteLLM reports p99 13-43 ms).
 *
 * Run: `pnpm bench llm-gateway` (or `node --import tsx bench/llm-gateway.bench.ts`).
 */
import { createServer } from '@palaver/sdk-core/server';
import { startFakeOpenAiUpstream, textChunks } from '../packages/sdk-core/tests/support/fake-openai-upstream.js';
import { fixed, percentile } from './statistics.js';

const CHUNKS = 20;
const SEQUENTIAL_SAMPLES = Number(process.env.BENCH_SAMPLES ?? 300);
const CONCURRENT_ROUNDS = Number(process.env.BENCH_ROUNDS ?? 6);
const CONCURRENCY = 100;
const TIME_LIMIT_MS = 120_000;

interface Sample {
  firstChunkMs: number;
  totalMs: number;
}

const upstream = await startFakeOpenAiUpstream();
const server = await createServer({ env: {}, config: { logLevel: 'silent' } });
const baseUrl = await server.listen(0, '127.0.0.1');
const llm = await server.services.llms.create(
  { project: server.project, kind: 'key', human: null, credentialId: 'bench' },
  { name: 'bench upstream', description: 'fake OpenAI upstream', headers: [], model: 'bench-model', post_url: upstream.chatUrl },
);
const words = Array.from({ length: CHUNKS - 2 }, (_, index) => ` word${index}`);

async function streamOnce(url: string, headers: Record<string, string>, model: string): Promise<Sample> {
  upstream.enqueue({ kind: 'stream', chunks: textChunks(words) });
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

const direct = () => streamOnce(upstream.chatUrl, {}, 'bench-model');
const gateway = () => streamOnce(`${baseUrl}/v1/chat/completions`, { 'x-api-key': server.apiKey }, llm.id);

// The fake upstream serves queued scenarios in order; both paths enqueue the same default stream, so
// interleaving them is safe.
async function measure(concurrency: number, rounds: number): Promise<{ direct: Sample[]; gateway: Sample[] }> {
  const result = { direct: [] as Sample[], gateway: [] as Sample[] };
  const deadline = performance.now() + TIME_LIMIT_MS;
  for (let round = 0; round < rounds && performance.now() < deadline; round += 1) {
    const viaGatewayFirst = round % 2 === 0;
    for (const path of viaGatewayFirst ? (['gateway', 'direct'] as const) : (['direct', 'gateway'] as const)) {
      const samples = await Promise.all(Array.from({ length: concurrency }, () => (path === 'direct' ? direct() : gateway())));
      result[path].push(...samples);
    }
  }
  return result;
}

function report(label: string, samples: { direct: Sample[]; gateway: Sample[] }): void {
  const row = (name: string, pick: (sample: Sample) => number) => {
    const directValues = samples.direct.map(pick);
    const gatewayValues = samples.gateway.map(pick);
    const figures = [50, 99].map((rank) => {
      const d = percentile(directValues, rank);
      const g = percentile(gatewayValues, rank);
      return `p${rank} direct ${fixed(d, 2)} ms, gateway ${fixed(g, 2)} ms, added ${fixed(g - d, 2)} ms`;
    });
    console.log(`  ${name.padEnd(16)} ${figures.join(' | ')}`);
  };
  console.log(`${label} (${samples.gateway.length} streams of ${CHUNKS} chunks per path)`);
  row('first chunk', (sample) => sample.firstChunkMs);
  row('total', (sample) => sample.totalMs);
}

try {
  // Warm-up: JIT, connection pools, the openai package's lazy import.
  await measure(1, 30);
  await measure(10, 2);
  report('1 stream at a time', await measure(1, SEQUENTIAL_SAMPLES));
  report(`${CONCURRENCY} concurrent streams`, await measure(CONCURRENCY, CONCURRENT_ROUNDS));
} finally {
  await server.close();
  await upstream.close();
}
