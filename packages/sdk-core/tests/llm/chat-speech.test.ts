import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOpenAiClient } from '../../src/client/openai.js';
import { ChatCompletionResponse } from '../../src/contract/chat.js';
import { encodeMp3 } from '../../src/server/engines/speech/codecs/mp3.js';
import { encodeWav } from '../../src/server/engines/speech/codecs/wav.js';
import { wordErrorRate } from '../../src/server/engines/speech/stt/word-error-rate.js';
import { storeKinds } from '../support/databases.js';
import { startFakeOpenAiUpstream, textChunks, type FakeOpenAiUpstream } from '../../src/testing/fake-openai-upstream.js';
import { startTestServer, type TestServer } from '../support/test-server.js';
import { decodeAudio, pocketsphinxAvailable, transcribe } from '../speech/speech-test-support.js';
import { readEvents } from './sse-reader.js';

const sttAvailable = pocketsphinxAvailable();
const SENTENCE = 'Please call me tomorrow morning.';

/** The sentence the offline model was told, out of its reflection `You said: "...". I am ...`. */
function echoed(reply: string | null | undefined): string {
  return /You said: "(.*)"\./.exec(reply ?? '')?.[1] ?? '';
}

interface ErrorBody {
  type: string;
  message: string;
  error?: { message: string; code: string };
}

describe.each(await storeKinds())('chat completions: audio input, speech output, moderation (%s)', (kind) => {
  let test: TestServer;
  let baseUrl: string;
  let openai: OpenAI;
  let upstream: FakeOpenAiUpstream;
  let upstreamLlm: string;

  beforeAll(async () => {
    upstream = await startFakeOpenAiUpstream();
    test = await startTestServer(kind);
    baseUrl = await test.server.listen(0, '127.0.0.1');
    openai = await createOpenAiClient({ baseUrl, apiKey: test.server.apiKey, openAiOptions: { maxRetries: 0 } });
    upstreamLlm = (await test.client.llms.create({ name: 'fake', description: 'fake upstream', headers: [], model: 'fake-gpt', post_url: upstream.chatUrl }))
      .id;
  });
  afterAll(async () => {
    await test.close();
    await upstream.close();
  });

  const post = (body: unknown, headers: Record<string, string> = { 'x-api-key': test.server.apiKey }) =>
    fetch(`${baseUrl}/v1/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });

  /** Flite speech of `text` through the platform's own `POST /v1/voice/generate`. */
  async function speak(text: string, accept: 'audio/wav' | 'audio/mpeg'): Promise<Uint8Array> {
    const response = await fetch(`${baseUrl}/v1/voice/generate`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': test.server.apiKey, accept },
      body: JSON.stringify({ text, voice_id: 'flite-slt' }),
    });
    expect(response.status).toBe(200);
    return new Uint8Array(await response.arrayBuffer());
  }

  const usageRows = (human: string, type: string) =>
    test.server.services.store.db.selectFrom('usage_records').selectAll().where('human', '=', human).where('type', '=', type).orderBy('created_at').execute();

  describe.skipIf(!sttAvailable)('input_audio parts', () => {
    it.each([
      ['wav', 'audio/wav'],
      ['mp3', 'audio/mpeg'],
    ] as const)('are transcribed before the model sees them (%s)', async (format, accept) => {
      const data = Buffer.from(await speak(SENTENCE, accept)).toString('base64');
      const completion = await openai.chat.completions.create({
        model: 'builtin-offline',
        messages: [{ role: 'user', content: [{ type: 'input_audio', input_audio: { data, format } }] }],
      });
      const heard = echoed(completion.choices[0]!.message.content);
      expect(wordErrorRate(SENTENCE, heard), heard).toBeLessThan(0.2);
    });

    it('refuses undecodable data and over-long audio with 400 naming the field', async () => {
      const part = (data: string, format: string) => ({
        model: 'builtin-offline',
        messages: [
          {
            role: 'user',
            content: [
              { type: 'text', text: 'listen' },
              { type: 'input_audio', input_audio: { data, format } },
            ],
          },
        ],
      });
      const minute = encodeMp3(new Int16Array(8000 * 61), 8000, { bitrateKbps: 8 });
      for (const [body, field, words] of [
        [part(Buffer.from('not a wave file').toString('base64'), 'wav'), 'messages[0].content[1].input_audio.data', 'could not be decoded as wav'],
        [part(Buffer.from('not an mp3 file').toString('base64'), 'mp3'), 'messages[0].content[1].input_audio.data', 'could not be decoded as mp3'],
        [part(Buffer.from('OggS').toString('base64'), 'ogg'), 'messages[0].content[1].input_audio.data', 'could not be decoded as ogg'],
        [part(Buffer.from(minute).toString('base64'), 'mp3'), 'messages[0].content[1].input_audio.data', 'at most 60 s'],
      ] as const) {
        const response = await post(body);
        expect(response.status, field).toBe(400);
        const error = (await response.json()) as ErrorBody;
        expect(error.type).toBe('invalid_input');
        expect(error.message).toContain(field);
        expect(error.message).toContain(words);
      }
      // Audio under the cap is accepted (silence is heard as nothing).
      const short = encodeWav(new Int16Array(8000 * 5), 8000);
      expect((await post(part(Buffer.from(short).toString('base64'), 'wav'))).status).toBe(200);
    });
  });

  describe('speech output', () => {
    it('non-streamed, official client with an API key and x-human-id: audio_url serves WAV of the answer, usage recorded', async () => {
      const human = `speaker-${kind}`;
      const client = new OpenAI({ baseURL: `${baseUrl}/v1`, apiKey: test.server.apiKey, defaultHeaders: { 'x-human-id': human }, maxRetries: 0 });
      const before = Math.floor(Date.now() / 1000);
      // `audio` and `modalities` are OpenAI's own request fields; the voice is a platform voice id.
      const completion = await client.chat.completions.create({
        model: 'builtin-offline',
        modalities: ['text', 'audio'],
        audio: { voice: 'flite-slt', format: 'wav' },
        metadata: { campaign: 'spring' },
        messages: [{ role: 'user', content: SENTENCE }],
      });
      expect(ChatCompletionResponse.parse(completion)).toMatchObject({ object: 'chat.completion' });
      const message = completion.choices[0]!.message as (typeof completion.choices)[0]['message'] & {
        service_ext: { voice: { audio_url: string; expires_at: number } };
      };
      const voice = message.service_ext.voice;
      expect(voice.audio_url).toMatch(new RegExp(`^${baseUrl}/v1/chat/audio/[A-Za-z0-9_-]{22}$`));
      expect(voice.expires_at).toBeGreaterThanOrEqual(before + 3600);
      expect(voice.expires_at).toBeLessThanOrEqual(Math.floor(Date.now() / 1000) + 3600);

      const response = await fetch(voice.audio_url); // no credentials
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('audio/wav');
      const audio = await decodeAudio(new Uint8Array(await response.arrayBuffer()), 'audio/wav');
      const seconds = audio.pcm.length / audio.sampleRate;
      expect(seconds).toBeGreaterThan(3);
      if (sttAvailable) {
        const heard = await transcribe(test.server.services.speech, audio.pcm, audio.sampleRate);
        expect(wordErrorRate(message.content!, heard), heard).toBeLessThan(0.35);
      }

      const [synthesis] = await usageRows(human, 'voice_synthesis_seconds');
      expect(synthesis!.value).toBeCloseTo(seconds, 2);
      expect(JSON.parse(synthesis!.metadata)).toMatchObject({ source: 'chat.completions', voice: 'flite-slt', model: 'builtin-offline', campaign: 'spring' });
      // metadata is stored with the token usage too.
      const [tokens] = await usageRows(human, 'token_cnt');
      expect(tokens!.value).toBe(completion.usage!.total_tokens);
      expect(JSON.parse(tokens!.metadata)).toMatchObject({ campaign: 'spring', model: 'builtin-offline', stream: false, outcome: 'completed' });
    });

    it('streamed with a usage token: MP3 by default, the speech chunk after the finish chunk and before the usage chunk', async () => {
      const { token } = await test.client.usage.createToken({ human: `streamer-${kind}` });
      const client = await createOpenAiClient({ baseUrl, usageToken: token, openAiOptions: { maxRetries: 0 } });
      const stream = await client.chat.completions.create({
        model: 'builtin-offline',
        modalities: ['text', 'audio'],
        stream: true,
        stream_options: { include_usage: true },
        messages: [{ role: 'user', content: 'Good morning everybody' }],
      });
      const chunks = [];
      for await (const chunk of stream) chunks.push(chunk);
      const finishAt = chunks.findIndex((chunk) => chunk.choices[0]?.finish_reason === 'stop');
      const speechChunk = chunks[finishAt + 1]!;
      const voice = (speechChunk.choices[0]!.delta as { service_ext?: { voice: { audio_url: string; expires_at: number } } }).service_ext!.voice;
      expect(chunks.at(-1)!.usage).toBeTruthy();
      expect(chunks.length).toBe(finishAt + 3);
      const response = await fetch(voice.audio_url);
      expect(response.headers.get('content-type')).toBe('audio/mpeg');
      const audio = await decodeAudio(new Uint8Array(await response.arrayBuffer()), 'audio/mpeg');
      expect(audio.pcm.length / audio.sampleRate).toBeGreaterThan(2);
      expect(await usageRows(`streamer-${kind}`, 'voice_synthesis_seconds')).toHaveLength(1);
    });

    it("refuses with 400 usage_limit_exceeded before the model runs once the human's voice_synthesis_seconds are used up", async () => {
      const human = `limited-${kind}`;
      await test.client.usage.updateLimits({ human, limits: [{ type: 'voice_synthesis_seconds', value: 1 }] });
      const body = { model: 'builtin-offline', modalities: ['text', 'audio'], messages: [{ role: 'user', content: 'Say something long enough' }] };
      expect((await post(body, { 'x-api-key': test.server.apiKey, 'x-human-id': human })).status).toBe(200);
      const response = await post(body, { 'x-api-key': test.server.apiKey, 'x-human-id': human });
      expect(response.status).toBe(400);
      expect(((await response.json()) as ErrorBody).type).toBe('usage_limit_exceeded');
      const streamed = await post({ ...body, stream: true }, { 'x-api-key': test.server.apiKey, 'x-human-id': human });
      expect(streamed.status).toBe(400);
      expect(await usageRows(human, 'token_cnt')).toHaveLength(1); // the refused requests used no tokens
      // Text-only answers are not limited by speech.
      expect((await post({ ...body, modalities: ['text'] }, { 'x-api-key': test.server.apiKey, 'x-human-id': human })).status).toBe(200);
    });

    it('validates modalities, audio.voice, audio.format and metadata.moderation (400 invalid_input naming the field)', async () => {
      const base = { model: 'builtin-offline', messages: [{ role: 'user', content: 'hi' }] };
      for (const [body, field] of [
        [{ ...base, audio: { voice: 'flite-slt', format: 'wav' } }, 'modalities'],
        [{ ...base, modalities: ['text', 'video'] }, 'modalities'],
        [{ ...base, modalities: ['text', 'audio'], audio: { voice: 'flite-slt', format: 'flac' } }, 'audio.format'],
        [{ ...base, modalities: ['text', 'audio'], audio: { voice: 'voice_that_does_not_exist', format: 'mp3' } }, 'audio.voice'],
        [{ ...base, metadata: { moderation: 'maybe' } }, 'metadata.moderation'],
      ] as const) {
        const response = await post(body);
        expect(response.status, field).toBe(400);
        const error = (await response.json()) as ErrorBody;
        expect(error.type).toBe('invalid_input');
        expect(error.message).toContain(field);
      }
    });

    it('the audio URL: 404 for unknown ids and once expired; expired rows are swept', async () => {
      expect((await fetch(`${baseUrl}/v1/chat/audio/${'A'.repeat(22)}`)).status).toBe(404);
      expect((await fetch(`${baseUrl}/v1/chat/audio/..%2F..%2Fhealth`)).status).toBe(404);
      const response = await post({ model: 'builtin-offline', modalities: ['text', 'audio'], messages: [{ role: 'user', content: 'Expire soon' }] });
      const url = ((await response.json()) as ChatCompletionResponse).choices[0]!.message.service_ext!.voice!.audio_url;
      expect((await fetch(url)).status).toBe(200);
      const id = url.split('/').at(-1)!;
      const { db } = test.server.services.store;
      await db
        .updateTable('chat_audio')
        .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
        .where('id', '=', id)
        .execute();
      const expired = await fetch(url);
      expect(expired.status).toBe(404);
      expect(((await expired.json()) as ErrorBody).type).toBe('not_found');
      expect(await test.server.services.chatAudio.sweep()).toBeGreaterThanOrEqual(1);
      expect(await db.selectFrom('chat_audio').select('id').where('id', '=', id).execute()).toEqual([]);
    });
  });

  describe('moderation (metadata.moderation)', () => {
    it('refuses a flagged latest user message with moderation_error before calling the model (the openai client shows the message)', async () => {
      const calls = upstream.requests.length;
      const error = await openai.chat.completions
        .create({ model: upstreamLlm, metadata: { moderation: 'true' }, messages: [{ role: 'user', content: 'Listen. I will KILL you!' }] })
        .then(
          () => undefined,
          (failure: unknown) => failure,
        );
      expect(error).toBeInstanceOf(OpenAI.BadRequestError);
      expect((error as InstanceType<typeof OpenAI.BadRequestError>).message).toContain('refused by moderation');
      expect((error as InstanceType<typeof OpenAI.BadRequestError>).code).toBe('moderation_error');
      const streamed = await post({
        model: upstreamLlm,
        stream: true,
        metadata: { moderation: true },
        messages: [{ role: 'user', content: 'I will kill you' }],
      });
      expect(streamed.status).toBe(400);
      expect(((await streamed.json()) as ErrorBody).type).toBe('moderation_error');
      expect(upstream.requests.length).toBe(calls);
      // Only the latest user message is checked, and only when asked.
      upstream.enqueue({ kind: 'stream', chunks: textChunks(['Calm', ' down.']) });
      const earlier = await post({
        model: upstreamLlm,
        metadata: { moderation: true },
        messages: [
          { role: 'user', content: 'I will kill you' },
          { role: 'assistant', content: 'Please calm down.' },
          { role: 'user', content: 'Sorry, I am fine now.' },
        ],
      });
      expect(earlier.status).toBe(200);
    });

    it('refuses a flagged non-streamed answer with moderation_error; unmoderated requests get it', async () => {
      const flagged = ['You', ' know,', ' I will', ' kill you.'];
      upstream.enqueue(
        { kind: 'stream', chunks: textChunks(flagged) },
        { kind: 'stream', chunks: textChunks(flagged) },
        { kind: 'stream', chunks: textChunks(flagged) },
      );
      const refused = await post({ model: upstreamLlm, metadata: { moderation: true }, messages: [{ role: 'user', content: 'What do you think?' }] });
      expect(refused.status).toBe(400);
      const body = (await refused.json()) as ErrorBody;
      expect(body).toMatchObject({ type: 'moderation_error', error: { code: 'moderation_error' } });
      expect(body.message).toContain('violence');
      const unmoderated = await post({ model: upstreamLlm, messages: [{ role: 'user', content: 'What do you think?' }] });
      expect(((await unmoderated.json()) as ChatCompletionResponse).choices[0]!.message.content).toBe(flagged.join(''));
      // Streams are checked sentence by sentence (tests/llm/chat-stream-moderation.test.ts): the flagged one is never sent.
      const streamed = await post({
        model: upstreamLlm,
        stream: true,
        metadata: { moderation: true },
        messages: [{ role: 'user', content: 'What do you think?' }],
      });
      expect(streamed.status).toBe(200);
      const events = await readEvents(streamed, performance.now());
      expect(events.map((event) => event.event ?? 'data')).toEqual(['data', 'error', 'data']);
      expect(JSON.parse(events[1]!.data)).toMatchObject({ error: { type: 'moderation_error', code: 'moderation_error' } });
      expect(events.at(-1)?.data).toBe('[DONE]');
    });
  });
});

describe('input_audio without a speech-to-text engine', () => {
  let test: TestServer;
  beforeAll(async () => {
    test = await startTestServer('sqlite', { config: { speech: { sttProvider: 'none' } } });
  });
  afterAll(async () => test.close());

  it('is refused with 400 naming the part and the missing STT provider', async () => {
    const data = Buffer.from(encodeWav(new Int16Array(1600), 16000)).toString('base64');
    const response = await test.server.fetch(
      new Request('http://palaver.test/v1/chat/completions', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': test.server.apiKey },
        body: JSON.stringify({
          model: 'builtin-offline',
          messages: [
            {
              role: 'user',
              content: [
                { type: 'text', text: 'hi' },
                { type: 'input_audio', input_audio: { data, format: 'wav' } },
              ],
            },
          ],
        }),
      }),
    );
    expect(response.status).toBe(400);
    const error = (await response.json()) as ErrorBody;
    expect(error.type).toBe('invalid_input');
    expect(error.message).toContain('messages[0].content[1]');
    expect(error.message).toContain('speech-to-text provider');
    expect(error.message).toContain('stt.provider = none');
  });
});
