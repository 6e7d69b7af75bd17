/**
 * What the Responses API adds to a streamed answer's first event over the gateway's chat path: the same upstream
 * answer (the local fake OpenAI upstream, an 8-word answer at once) streamed through `POST /v1/responses` and through
 * `POST /v1/chat/completions` (the baseline), interleaved in one run. Measured twice: over plain HTTP (time to the
 * first SSE frame: `response.created` vs the first chunk) and with the `openai` package (`responses.stream` vs
 * `chat.completions.create({ stream: true })`, time to the first event the iterator yields). Prints p50 and p90 of
 * each, the added p50 and the ratio.
 *
 * Run: `pnpm bench responses` (or `node --import tsx bench/responses.bench.ts`).
 */
import OpenAI from 'openai';
import { createServer } from '@palaver/sdk-core/server';
import { startFakeOpenAiUpstream, textChunks } from '@palaver/sdk-core/testing';
import { fixed, median, percentile } from './statistics.js';

const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 200);
const WARMUP = 20;
const WORDS = ['Sure,', ' here', ' is', ' a', ' short', ' answer', ' for', ' you.'];
const INPUT = 'A short answer, please.';

type Path = 'responses' | 'chat';

const upstream = await startFakeOpenAiUpstream();
upstream.answerByDefault({ kind: 'stream', chunks: textChunks(WORDS) });
const server = await createServer({ env: {}, config: { logLevel: 'silent', webhook: { dispatch: false } } });
try {
  const baseUrl = await server.listen(0, '127.0.0.1');
  const principal = { project: server.project, kind: 'key' as const, human: null, credentialId: 'bench' };
  const llm = await server.services.llms.create(principal, {
    name: 'bench upstream',
    description: '',
    headers: [],
    model: 'bench-model',
    post_url: upstream.chatUrl,
  });
  const openai = new OpenAI({ baseURL: `${baseUrl}/v1`, apiKey: server.apiKey, maxRetries: 0 });

  /** Time to the first SSE frame over plain HTTP; the rest is read to the end. */
  const overHttp = async (path: Path): Promise<number> => {
    const body =
      path === 'responses'
        ? { model: llm.id, input: INPUT, stream: true, store: false }
        : { model: llm.id, messages: [{ role: 'user', content: INPUT }], stream: true };
    const started = performance.now();
    const response = await fetch(`${baseUrl}/v1/${path === 'responses' ? 'responses' : 'chat/completions'}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': server.apiKey },
      body: JSON.stringify(body),
    });
    if (!response.ok) throw new Error(`HTTP ${response.status} ${await response.text()}`);
    const reader = response.body!.getReader();
    let first: number | undefined;
    for (;;) {
      const { done } = await reader.read();
      if (done) break;
      first ??= performance.now() - started;
    }
    return first ?? Number.NaN;
  };

  /**
   * Time to the first event the `openai` client yields: `responses.create({ stream: true })` (the same wire as chat's
   * stream), or the `responses.stream` helper, which starts its request in a `setTimeout` and accumulates a snapshot.
   */
  const overClient = async (path: Path, helper = false): Promise<number> => {
    const started = performance.now();
    let first: number | undefined;
    if (path === 'responses' && helper) {
      for await (const event of openai.responses.stream({ model: llm.id, input: INPUT, store: false })) first ??= event && performance.now() - started;
    } else if (path === 'responses') {
      const stream = await openai.responses.create({ model: llm.id, input: INPUT, store: false, stream: true });
      for await (const event of stream) first ??= event && performance.now() - started;
    } else {
      const stream = await openai.chat.completions.create({ model: llm.id, messages: [{ role: 'user', content: INPUT }], stream: true });
      for await (const chunk of stream) first ??= chunk && performance.now() - started;
    }
    return first ?? Number.NaN;
  };

  const measure = async (run: (path: Path) => Promise<number>) => {
    for (let index = 0; index < WARMUP; index += 1) for (const path of ['responses', 'chat'] as const) await run(path);
    const samples: Record<Path, number[]> = { responses: [], chat: [] };
    for (let index = 0; index < SAMPLES; index += 1) {
      for (const path of index % 2 === 0 ? (['responses', 'chat'] as const) : (['chat', 'responses'] as const)) samples[path].push(await run(path));
    }
    return samples;
  };

  const report = (label: string, samples: Record<Path, number[]>) => {
    const line = (name: string, values: number[]) =>
      `  ${name.padEnd(34)} p50 ${fixed(median(values), 2).padStart(6)} ms   p90 ${fixed(percentile(values, 90), 2).padStart(6)} ms`;
    const added = median(samples.responses) - median(samples.chat);
    // Each responses sample ran next to a chat sample: the median of their differences cancels the machine's drift.
    const paired = median(samples.responses.map((value, index) => value - samples.chat[index]!));
    console.log(label);
    console.log(line('chat completions (baseline)', samples.chat));
    console.log(line('responses', samples.responses));
    console.log(
      `  added by the Responses API: p50 ${fixed(added, 2)} ms (median of paired differences ${fixed(paired, 2)} ms), ` +
        `ratio ${fixed(median(samples.responses) / median(samples.chat), 2)}x`,
    );
  };

  /** CPU time (this process: server and client) per whole streamed request: 10 alternating rounds of 20 requests each. */
  const cpuPerRequest = async (): Promise<Record<Path, number>> => {
    const used: Record<Path, number> = { responses: 0, chat: 0 };
    for (let round = 0; round < 10; round += 1) {
      for (const path of round % 2 === 0 ? (['responses', 'chat'] as const) : (['chat', 'responses'] as const)) {
        const before = process.cpuUsage();
        for (let index = 0; index < 20; index += 1) await overHttp(path);
        const delta = process.cpuUsage(before);
        used[path] += (delta.user + delta.system) / 1000;
      }
    }
    return { responses: used.responses / 200, chat: used.chat / 200 };
  };

  /**
   * The server's own work to the first event, in process (no sockets): `services.responses.stream` vs
   * `services.chat.stream` on the built-in offline model (no upstream), each until its first event.
   */
  const inProcess = async (path: Path): Promise<number> => {
    const signal = new AbortController().signal;
    const started = performance.now();
    // The requests as the route's schemas leave them (defaults applied).
    const events =
      path === 'responses'
        ? await server.services.responses.stream(
            principal,
            { model: 'builtin-offline', input: INPUT, stream: true, store: false, parallel_tool_calls: true },
            { signal },
          )
        : await server.services.chat.stream(
            principal,
            { model: 'builtin-offline', messages: [{ role: 'user', content: INPUT }], stream: true, parallel_tool_calls: true },
            { signal },
          );
    let first: number | undefined;
    for await (const event of events) first ??= event && performance.now() - started;
    return first ?? Number.NaN;
  };

  console.log(`first event of a streamed answer (${WORDS.length} words, upstream at once), ${SAMPLES} samples each, interleaved`);
  report('in process, built-in offline model (request parsed, to the first event):', await measure(inProcess));
  report('over HTTP (first SSE frame):', await measure(overHttp));
  report('openai package, responses.create({ stream: true }) vs chat (first event yielded):', await measure((path) => overClient(path)));
  report('openai package, the responses.stream helper vs chat (first event yielded):', await measure((path) => overClient(path, true)));
  const cpu = await cpuPerRequest();
  console.log(
    `CPU per streamed request over HTTP (server and client, one process): chat ${fixed(cpu.chat, 2)} ms, responses ${fixed(cpu.responses, 2)} ms ` +
      `(+${fixed(cpu.responses - cpu.chat, 2)} ms)`,
  );
} finally {
  await server.close();
  await upstream.close();
}
