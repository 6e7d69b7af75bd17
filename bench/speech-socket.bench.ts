/**
 * TTS websocket: time to first audio for a short sentence through `/v1/voice/websocket` (real client, real
 * listening server, warm workers), against calling the same engine directly in the same run; the ratio is
 * what the socket adds (auth is paid once per socket, so a warm socket is measured, plus one cold socket).
 * Target: under 50 ms. Run: `pnpm bench speech-socket`.
 */
import { createServer } from '@palaver/sdk-core/server';
import { createTtsClient, type TtsStream } from '@palaver/sdk-core/tts';
import { fixed, median, percentile } from './statistics.js';

const SHORT = 'Hello, how can I help you today?';
const RUNS = 15;

const server = await createServer({ env: {}, config: { logLevel: 'silent' } });
const baseUrl = await server.listen(0, '127.0.0.1');
const speech = server.services.speech;
const voice = await server.services.voices.retrieve({ project: server.project, kind: 'key', human: null, credentialId: 'bench' }, 'flite-slt');
await speech.tts.warmUp();

async function directFirstAudio(): Promise<number> {
  const started = performance.now();
  let first = 0;
  for await (const chunk of speech.tts.synthesize({ voice, text: SHORT })) {
    if (!first && chunk.pcm.length > 0) first = performance.now() - started;
  }
  return first;
}

async function socketFirstAudio(stream: TtsStream): Promise<number> {
  const started = performance.now();
  let first = 0;
  stream.push(SHORT).end();
  for await (const chunk of stream) if (!first && chunk.pcm.length > 0) first = performance.now() - started;
  return first;
}

// Warm both paths (worker start, JIT, the socket's auth).
const tts = createTtsClient({ baseUrl, apiKey: server.apiKey });
await directFirstAudio();
await socketFirstAudio(tts.stream({ voice: 'flite-slt' }));

const direct: number[] = [];
const socket: number[] = [];
for (let run = 0; run < RUNS; run++) {
  direct.push(await directFirstAudio());
  socket.push(await socketFirstAudio(tts.stream({ voice: 'flite-slt' })));
}
tts.close();

const coldClient = createTtsClient({ baseUrl, apiKey: server.apiKey });
const cold = await socketFirstAudio(coldClient.stream({ voice: 'flite-slt' }));
coldClient.close();

const ratio = median(socket) / median(direct);
console.log(`engine direct (flite/slt): first audio p50 ${fixed(median(direct))} ms, p95 ${fixed(percentile(direct, 95))} ms`);
console.log(`tts socket, warm socket:   first audio p50 ${fixed(median(socket))} ms, p95 ${fixed(percentile(socket, 95))} ms (ratio ${fixed(ratio, 2)}x)`);
console.log(`tts socket, new socket (connect + auth + first audio): ${fixed(cold)} ms`);
console.log(`target < 50 ms: ${median(socket) < 50 ? 'met' : 'NOT met'} (figures scale with machine load; the ratio is the comparable figure)`);
await server.close();
