import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pcmToBytes } from './codecs/pcm.js';
import { decodeWav } from './codecs/wav.js';
import { OpenAiSttEngine } from './stt/openai-stt-engine.js';
import { collectSynthesis } from './tts/collect-synthesis.js';
import { OpenAiTtsEngine } from './tts/openai-tts-engine.js';
import { VendorRequestError } from './vendor-endpoint.js';

const API_KEY = 'sk-test-0123456789';
const speechRequests: Array<Record<string, unknown>> = [];

async function readBody(request: IncomingMessage): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const part of request) parts.push(part as Buffer);
  return Buffer.concat(parts);
}

/** A local stand-in speaking the OpenAI audio protocol: /audio/speech (pcm) and /audio/transcriptions. */
let server: Server;
let baseUrl: string;
beforeAll(async () => {
  server = createServer(async (request, response) => {
    const body = await readBody(request);
    if (request.headers.authorization !== `Bearer ${API_KEY}`) {
      response.writeHead(401, { 'content-type': 'application/json' }).end('{"error":{"message":"bad key"}}');
      return;
    }
    if (request.url === '/v1/audio/speech') {
      const payload = JSON.parse(body.toString()) as Record<string, unknown>;
      speechRequests.push(payload);
      if (payload.voice === 'missing') {
        response.writeHead(400, { 'content-type': 'application/json' }).end('{"error":{"message":"unknown voice"}}');
        return;
      }
      // 0.25 s of a 24 kHz ramp per input character group, written in odd-sized pieces.
      const pcm = new Int16Array(6000).map((_, index) => (index % 200) * 100 - 10000);
      const bytes = Buffer.from(pcmToBytes(pcm));
      response.writeHead(200, { 'content-type': 'audio/pcm' });
      for (let offset = 0; offset < bytes.length; offset += 1001) {
        response.write(bytes.subarray(offset, offset + 1001));
        await new Promise((resolve) => setTimeout(resolve, 2));
      }
      response.end();
      return;
    }
    if (request.url === '/v1/audio/transcriptions') {
      const form = await new Request('http://local/', {
        method: 'POST',
        headers: { 'content-type': request.headers['content-type']! },
        body: new Uint8Array(body),
      }).formData();
      const file = form.get('file') as Blob;
      const wav = decodeWav(new Uint8Array(await file.arrayBuffer()));
      const seconds = (wav.pcm.length / wav.sampleRate).toFixed(2);
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(
        JSON.stringify({ text: ` heard ${seconds} seconds at ${wav.sampleRate} with ${form.get('model') as string} in ${form.get('language') as string} ` }),
      );
      return;
    }
    response.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('OpenAI-compatible TTS adapter', () => {
  it('streams PCM from /audio/speech, one request per sentence', async () => {
    const engine = new OpenAiTtsEngine({ baseUrl, apiKey: API_KEY, model: 'tts-test' });
    speechRequests.length = 0;
    const result = await collectSynthesis(engine.synthesize({ text: 'First sentence here. Second one.', voice: 'alloy', speed: 1.25 }));
    expect(result.sampleRate).toBe(24000);
    expect(result.pcm.length).toBe(12000);
    // Odd network pieces must not shift the sample alignment.
    expect(result.pcm[0]).toBe(-10000);
    expect(result.pcm[6001]).toBe(-9900);
    expect(speechRequests).toEqual([
      { model: 'tts-test', input: 'First sentence here.', voice: 'alloy', response_format: 'pcm', speed: 1.25 },
      { model: 'tts-test', input: 'Second one.', voice: 'alloy', response_format: 'pcm', speed: 1.25 },
    ]);
  });

  it('surfaces vendor errors with their status', async () => {
    const engine = new OpenAiTtsEngine({ baseUrl, apiKey: API_KEY, model: 'tts-test' });
    await expect(collectSynthesis(engine.synthesize({ text: 'Hi.', voice: 'missing' }))).rejects.toMatchObject({
      name: 'VendorRequestError',
      status: 400,
    });
    const unauthorised = new OpenAiTtsEngine({ baseUrl, apiKey: 'wrong-key', model: 'tts-test' });
    await expect(collectSynthesis(unauthorised.synthesize({ text: 'Hi.', voice: 'alloy' }))).rejects.toBeInstanceOf(VendorRequestError);
  });

  it('aborts an in-flight request', async () => {
    const engine = new OpenAiTtsEngine({ baseUrl, apiKey: API_KEY, model: 'tts-test' });
    const controller = new AbortController();
    controller.abort();
    await expect(collectSynthesis(engine.synthesize({ text: 'Hi.', voice: 'alloy', signal: controller.signal }))).rejects.toThrow(/abort/i);
  });
});

describe('OpenAI-compatible STT adapter', () => {
  it('uploads each utterance as WAV and emits the final transcript', async () => {
    const engine = new OpenAiSttEngine({ baseUrl, apiKey: API_KEY, model: 'whisper-test' });
    const session = engine.createSession({ sampleRate: 16000, language: 'en-US' });
    const events: string[] = [];
    session.on('transcript', (event) => events.push(`${event.type}:${event.utterance}:${event.text}`));
    for (let frame = 0; frame < 50; frame++) session.push(new Int16Array(320));
    expect(await session.finish()).toBe('heard 1.00 seconds at 16000 with whisper-test in en');
    for (let frame = 0; frame < 25; frame++) session.push(new Int16Array(320));
    expect(await session.finish()).toBe('heard 0.50 seconds at 16000 with whisper-test in en');
    expect(events).toEqual(['final:0:heard 1.00 seconds at 16000 with whisper-test in en', 'final:1:heard 0.50 seconds at 16000 with whisper-test in en']);
    expect(await session.finish()).toBe('');
  });

  it('rejects with the vendor status on failure', async () => {
    const engine = new OpenAiSttEngine({ baseUrl, apiKey: 'wrong-key', model: 'whisper-test' });
    const session = engine.createSession({ sampleRate: 16000 });
    session.on('error', () => undefined);
    session.push(new Int16Array(1600));
    await expect(session.finish()).rejects.toMatchObject({ status: 401 });
  });
});
