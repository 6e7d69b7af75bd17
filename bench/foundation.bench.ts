/**
 * Foundation benchmarks: cold start to first answered request, and GET-by-id throughput, each against a
 * bare node:http server measured in the same run.
 */
import { spawnSync } from 'node:child_process';
import { statSync } from 'node:fs';
import { createServer as createHttpServer } from 'node:http';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { createServer } from '@palaver/sdk-core/server';
import { builtFile } from './built-package.js';
import { loadFromChild } from './http-load.js';
import { fixed, median, percentile } from './statistics.js';

const folder = dirname(fileURLToPath(import.meta.url));
/** The built server entry: cold start is measured on what an application runs, not on sources under tsx. */
const serverEntry = builtFile('dist/server.js');
const RUNS = 7;
const WARMUP_MS = 2000;

interface ColdStart {
  status: number;
  importMs: number;
  startMs: number;
  totalMs: number;
}

function coldStarts(mode: 'palaver' | 'bare'): ColdStart[] {
  const results: ColdStart[] = [];
  for (let run = 0; run < RUNS; run += 1) {
    const child = spawnSync(process.execPath, [join(folder, 'cold-start-child.mjs'), mode, serverEntry], { encoding: 'utf8' });
    if (child.status !== 0) throw new Error(`cold start child failed: ${child.stderr}`);
    const result = JSON.parse(child.stdout) as ColdStart;
    if (result.status !== 200) throw new Error(`cold start answered ${result.status}`);
    results.push(result);
  }
  return results;
}

/** Alternating rounds per side: the VM's speed drifts over seconds, and both sides see the same drift. */
const ROUNDS = 4;
const ROUND_MS = 3000;

interface Throughput {
  requestsPerSecond: number;
  p50: number;
  p99: number;
}

/** autocannon in this process (the original yardstick: client and server share the event loop and a core). */
async function throughputInProcess(url: string, headers: Record<string, string>, durationMs: number): Promise<Throughput> {
  const result = await autocannon({ url, headers, connections: 10, duration: durationMs / 1000, pipelining: 1 });
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`${result.non2xx} non-2xx answers, ${result.errors} errors`);
  return { requestsPerSecond: result.requests.total / (durationMs / 1000), p50: result.latency.p50, p99: result.latency.p99 };
}

/** autocannon in a child process: the server has a core to itself, the client the other. */
async function throughputFromChild(url: string, headers: Record<string, string>, durationMs: number): Promise<Throughput> {
  const result = await loadFromChild({ url, headers, connections: 10, durationMs, warmupMs: 500 });
  if (result.errors > 0) throw new Error(`${result.errors} failed answers`);
  return { requestsPerSecond: result.perSecond, p50: result.p50, p99: result.p99 };
}

/** Warms both sides, then ROUNDS alternating rounds of each; the medians of the rounds and each round's ratio. */
async function compare(measure: typeof throughputInProcess, palaverUrl: string, palaverHeaders: Record<string, string>, bareUrl: string) {
  await measure(palaverUrl, palaverHeaders, WARMUP_MS);
  await measure(bareUrl, {}, WARMUP_MS);
  const palaver: Throughput[] = [];
  const bare: Throughput[] = [];
  for (let round = 0; round < ROUNDS; round += 1) {
    palaver.push(await measure(palaverUrl, palaverHeaders, ROUND_MS));
    bare.push(await measure(bareUrl, {}, ROUND_MS));
  }
  const middle = (runs: Throughput[]) => ({
    requestsPerSecond: median(runs.map((run) => run.requestsPerSecond)),
    p50: median(runs.map((run) => run.p50)),
    p99: median(runs.map((run) => run.p99)),
  });
  return { palaver: middle(palaver), bare: middle(bare), ratios: palaver.map((run, index) => run.requestsPerSecond / bare[index]!.requestsPerSecond) };
}

const palaverCold = coldStarts('palaver');
console.log(`(built package from ${statSync(serverEntry).mtime.toISOString()}; \`pnpm build\` after changing the sources)`);
const bareCold = coldStarts('bare');
const startMedian = median(palaverCold.map((run) => run.startMs));
console.log(`cold start (createServer -> first answered request, in-memory SQLite, built package in plain Node), ${RUNS} runs:`);
console.log(
  `  palaver: median ${fixed(startMedian)} ms, p95 ${fixed(
    percentile(
      palaverCold.map((run) => run.startMs),
      95,
    ),
  )} ms (module import median ${fixed(median(palaverCold.map((run) => run.importMs)))} ms; total median ${fixed(median(palaverCold.map((run) => run.totalMs)))} ms)`,
);
console.log(`  bare node:http: median ${fixed(median(bareCold.map((run) => run.startMs)))} ms (listen + first fetch)`);
console.log(
  `  target < 100 ms: ${startMedian < 100 ? 'met' : 'MISSED'}; ratio palaver/bare ${fixed(startMedian / median(bareCold.map((run) => run.startMs)), 2)}`,
);

const server = await createServer({ env: {}, config: { logLevel: 'silent' } });
const base = await server.listen(0);
const voice = (await (await fetch(`${base}/v1/voice/list`, { headers: { 'x-api-key': server.apiKey } })).json()) as { values?: Array<{ id: string }> };
const voiceId = voice.values?.[0]?.id;
let path = '/v1/usage/limits';
let headers: Record<string, string> = { 'x-api-key': server.apiKey, 'x-human-id': 'bench' };
let body = '[]';
if (voiceId) {
  const created = await fetch(`${base}/v1/persona`, {
    method: 'POST',
    headers: { 'x-api-key': server.apiKey, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'Bench', description: 'A persona for the benchmark', voice: voiceId }),
  });
  body = await created.text();
  path = `/v1/persona/${(JSON.parse(body) as { id: string }).id}`;
  headers = { 'x-api-key': server.apiKey };
}
const bare = createHttpServer((_request, response) => {
  response.setHeader('content-type', 'application/json');
  response.end(body);
});
await new Promise<void>((resolve) => bare.listen(0, '127.0.0.1', resolve));
const barePort = (bare.address() as { port: number }).port;

const label = `GET ${path.replace(/\/[^/]+$/, '/{id}')} with auth + store read + contract validation, 10 connections, ${ROUNDS} alternating rounds of ${ROUND_MS / 1000} s per side after ${WARMUP_MS / 1000} s of warm-up`;
for (const [mode, measure] of [
  ["load generator in the server process (the issue's yardstick)", throughputInProcess],
  ['load generator in its own process (server alone on a core)', throughputFromChild],
] as const) {
  const { palaver, bare: bareRun, ratios } = await compare(measure, `${base}${path}`, headers, `http://127.0.0.1:${barePort}${path}`);
  const ratio = palaver.requestsPerSecond / bareRun.requestsPerSecond;
  console.log(`${label}; ${mode}:`);
  console.log(`  palaver: median ${fixed(palaver.requestsPerSecond, 0)} req/s, p50 ${palaver.p50} ms, p99 ${palaver.p99} ms`);
  console.log(`  bare node:http (same body, no work): median ${fixed(bareRun.requestsPerSecond, 0)} req/s, p50 ${bareRun.p50} ms, p99 ${bareRun.p99} ms`);
  console.log(`  ratio palaver/bare (of the medians): ${fixed(ratio, 3)} (target 0.35); round by round ${ratios.map((value) => fixed(value, 3)).join(', ')}`);
}

bare.close();
await server.close();
