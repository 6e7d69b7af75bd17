/**
 * What output moderation of streamed answers costs the client: time to first chunk of the same streamed
 * completion through `POST /v1/chat/completions`, with `metadata.moderation: true` and without (the
 * baseline), interleaved in one run. The fake upstream sends one word every 20 ms; the first sentence is
 * 8 words. Prints medians of the first SSE chunk (the empty role chunk) and of the first word, and the
 * added time. Moderation is the embedded word list (no moderation endpoint configured).
 *
 * Run: `pnpm bench chat-moderation` (or `node --import tsx bench/chat-moderation.bench.ts`).
 */
import { createServer } from '@palaver/sdk-core/server';
import { startFakeOpenAiUpstream, textChunks } from '@palaver/sdk-core/testing';
import { fixed, median, percentile } from './statistics.js';

const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 50);
const CHUNK_INTERVAL_MS = 20;
const WORDS = ['Sure,', ' here', ' is', ' a', ' short', ' answer', ' for', ' you.', ' It', ' has', ' two', ' sentences', '.'];

interface Sample {
  firstChunkMs: number;
  firstWordMs: number;
  /** When the chunk that confirms the first sentence's end (" It") arrived. */
  confirmingChunkMs: number;
}

const upstream = await startFakeOpenAiUpstream();
const server = await createServer({ env: {}, config: { logLevel: 'silent', webhook: { dispatch: false } } });
try {
  const baseUrl = await server.listen(0, '127.0.0.1');
  const llm = await server.services.llms.create(
    { project: server.project, kind: 'key', human: null, credentialId: 'bench' },
    { name: 'bench upstream', description: 'fake OpenAI upstream', headers: [], model: 'bench-model', post_url: upstream.chatUrl },
  );

  const streamOnce = async (moderated: boolean): Promise<Sample> => {
    upstream.enqueue({ kind: 'stream', chunks: textChunks(WORDS), delayMs: CHUNK_INTERVAL_MS });
    const started = performance.now();
    const response = await fetch(`${baseUrl}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': server.apiKey },
      body: JSON.stringify({
        model: llm.id,
        stream: true,
        messages: [{ role: 'user', content: 'A short answer, please.' }],
        ...(moderated ? { metadata: { moderation: true } } : {}),
      }),
    });
    if (!response.ok) throw new Error(`HTTP ${response.status} ${await response.text()}`);
    const reader = response.body!.getReader();
    const decoder = new TextDecoder();
    let text = '';
    let firstChunkMs: number | undefined;
    let firstWordMs: number | undefined;
    let confirmingChunkMs: number | undefined;
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      text += decoder.decode(value, { stream: true });
      const now = performance.now() - started;
      if (firstChunkMs === undefined && text.includes('data: {')) firstChunkMs = now;
      if (firstWordMs === undefined && text.includes('"content":"Sure,"')) firstWordMs = now;
      if (confirmingChunkMs === undefined && text.includes('"content":" It"')) confirmingChunkMs = now;
    }
    if (!text.endsWith('data: [DONE]\n\n') || text.includes('event: error')) throw new Error(`unexpected stream end: ${text.slice(-200)}`);
    return { firstChunkMs: firstChunkMs ?? Number.NaN, firstWordMs: firstWordMs ?? Number.NaN, confirmingChunkMs: confirmingChunkMs ?? Number.NaN };
  };

  await streamOnce(false);
  await streamOnce(true);
  const runs = { plain: [] as Sample[], moderated: [] as Sample[] };
  for (let index = 0; index < SAMPLES; index += 1) {
    for (const moderated of index % 2 === 0 ? [true, false] : [false, true]) {
      runs[moderated ? 'moderated' : 'plain'].push(await streamOnce(moderated));
    }
  }

  const line = (label: string, values: number[]) =>
    `  ${label.padEnd(36)} p50 ${fixed(median(values), 1).padStart(6)} ms   p90 ${fixed(percentile(values, 90), 1).padStart(6)} ms`;
  console.log(`streamed completion, ${WORDS.length} words ${CHUNK_INTERVAL_MS} ms apart, first sentence 8 words; ${SAMPLES} samples each, interleaved`);
  console.log(
    line(
      'first chunk, unmoderated (baseline)',
      runs.plain.map((sample) => sample.firstChunkMs),
    ),
  );
  console.log(
    line(
      'first chunk, moderated',
      runs.moderated.map((sample) => sample.firstChunkMs),
    ),
  );
  console.log(
    line(
      'first word, unmoderated (baseline)',
      runs.plain.map((sample) => sample.firstWordMs),
    ),
  );
  console.log(
    line(
      'first word, moderated',
      runs.moderated.map((sample) => sample.firstWordMs),
    ),
  );
  console.log(
    line(
      '" It" (ends sentence 1), unmoderated',
      runs.plain.map((sample) => sample.confirmingChunkMs),
    ),
  );
  const addedFirstWord = median(runs.moderated.map((sample) => sample.firstWordMs)) - median(runs.plain.map((sample) => sample.firstWordMs));
  const addedFirstChunk = median(runs.moderated.map((sample) => sample.firstChunkMs)) - median(runs.plain.map((sample) => sample.firstChunkMs));
  // What the gate itself adds: its first release vs when the unmoderated client saw the chunk that allows it.
  const gate = median(runs.moderated.map((sample) => sample.firstWordMs)) - median(runs.plain.map((sample) => sample.confirmingChunkMs));
  console.log(`  moderated first word minus unmoderated " It" (segmenting + word-list check): ${fixed(gate, 1)} ms`);
  console.log(
    `  added by moderation (medians): first chunk ${fixed(addedFirstChunk, 1)} ms, first word ${fixed(addedFirstWord, 1)} ms ` +
      `(the first sentence's 8 chunks at ${CHUNK_INTERVAL_MS} ms: ${8 * CHUNK_INTERVAL_MS} ms)`,
  );
} finally {
  await server.close();
  await upstream.close();
}
