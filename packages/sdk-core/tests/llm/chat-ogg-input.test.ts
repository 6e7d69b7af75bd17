import { spawnSync } from 'node:child_process';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOpenAiClient } from '../../src/client/openai.js';
import { resampleHighQuality } from '../../src/server/engines/speech/codecs/resample.js';
import { decodeWav } from '../../src/server/engines/speech/codecs/wav.js';
import { wordErrorRate } from '../../src/server/engines/speech/stt/word-error-rate.js';
import { requireComponent } from '../support/components.js';
import { encodeOggOpus } from '../support/ogg-opus-file.js';
import { startTestServer, type TestServer } from '../support/test-server.js';
import { pocketsphinxAvailable } from '../speech/speech-test-support.js';

const sttAvailable = pocketsphinxAvailable();
const SENTENCE = 'Please call me tomorrow morning.';
const FIELD = 'messages[0].content[0].input_audio.data';

/** The sentence the offline model was told, out of its reflection `You said: "...". I am ...`. */
function echoed(reply: string | null | undefined): string {
  return /You said: "(.*)"\./.exec(reply ?? '')?.[1] ?? '';
}

interface ErrorBody {
  type: string;
  message: string;
}

describe.skipIf(!sttAvailable)('chat completions: Ogg input_audio', () => {
  let test: TestServer;
  let baseUrl: string;
  let openai: OpenAI;
  let speech: { pcm: Int16Array; sampleRate: number };

  beforeAll(async () => {
    test = await startTestServer('sqlite');
    baseUrl = await test.server.listen(0, '127.0.0.1');
    openai = await createOpenAiClient({ baseUrl, apiKey: test.server.apiKey, openAiOptions: { maxRetries: 0 } });
    // Flite speech through the platform's own `POST /v1/voice/generate`.
    const response = await fetch(`${baseUrl}/v1/voice/generate`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': test.server.apiKey, accept: 'audio/wav' },
      body: JSON.stringify({ text: SENTENCE, voice_id: 'flite-slt' }),
    });
    expect(response.status).toBe(200);
    speech = decodeWav(new Uint8Array(await response.arrayBuffer()));
  });
  afterAll(async () => test.close());

  function transcribeOgg(file: Uint8Array) {
    // openai's types list `wav` and `mp3` only; the platform's contract (ChatAudioPart) also takes `ogg`.
    const part = {
      type: 'input_audio',
      input_audio: { data: Buffer.from(file).toString('base64'), format: 'ogg' },
    } as unknown as OpenAI.Chat.ChatCompletionContentPartInputAudio;
    return openai.chat.completions.create({ model: 'builtin-offline', messages: [{ role: 'user', content: [part] }] });
  }

  /** Ogg Opus of the Flite sentence at 48 kHz, as a browser records it. */
  async function speechAsOggOpus(): Promise<Uint8Array> {
    return encodeOggOpus(await resampleHighQuality(speech.pcm, speech.sampleRate, 48_000), 48_000);
  }

  it('transcribes Flite speech sent as Ogg Opus through the official openai client', async () => {
    const file = await speechAsOggOpus();
    expect(new TextDecoder().decode(file.subarray(28, 36))).toBe('OpusHead');
    const completion = await transcribeOgg(file);
    const heard = echoed(completion.choices[0]!.message.content);
    expect(wordErrorRate(SENTENCE, heard), heard).toBeLessThan(0.2);
  });

  it.skipIf(!requireComponent('sox', spawnSync('sox', ['--version']).status === 0, 'apt install sox'))(
    'transcribes the same speech as Ogg Vorbis (encoded by sox)',
    async () => {
      const raw = Buffer.from(speech.pcm.buffer, speech.pcm.byteOffset, speech.pcm.byteLength);
      // Quality 6 (sox's default is 3, whose artefacts already cost pocketsphinx a word of this sentence).
      const made = spawnSync(
        'sox',
        ['-t', 'raw', '-e', 'signed', '-b', '16', '-L', '-c', '1', '-r', String(speech.sampleRate), '-', '-t', 'vorbis', '-C', '6', '-'],
        { input: raw, maxBuffer: 1 << 24 },
      );
      expect(made.status, made.stderr.toString()).toBe(0);
      const completion = await transcribeOgg(new Uint8Array(made.stdout));
      const heard = echoed(completion.choices[0]!.message.content);
      expect(wordErrorRate(SENTENCE, heard), heard).toBeLessThan(0.2);
    },
  );

  it('refuses corrupt Ogg and other Ogg codecs with 400 invalid_input naming the data field', async () => {
    const file = await speechAsOggOpus();
    const speex = file.slice();
    speex.set(new TextEncoder().encode('Speex   '), Buffer.from(speex).indexOf('OpusHead'));
    const cases = [
      [new TextEncoder().encode('OggS'), 'could not be decoded as ogg: not a complete Ogg stream'],
      [new TextEncoder().encode(`OggS${'garbage '.repeat(16)}`), 'could not be decoded as ogg: no Ogg page found'],
      [new TextEncoder().encode('RIFF....WAVEfmt '), 'could not be decoded as ogg: no Ogg capture pattern (OggS)'],
      [file.subarray(0, file.length - 200), 'could not be decoded as ogg: the Ogg stream is truncated'],
      [speex, 'cannot be transcribed: the Ogg stream holds an unknown codec (identification header "Speex"), and only Opus and Vorbis are decoded'],
    ] as const;
    for (const [data, words] of cases) {
      const failure = await transcribeOgg(data).then(
        () => undefined,
        (error: unknown) => error,
      );
      expect(failure, words).toBeInstanceOf(OpenAI.BadRequestError);
      // The body as the wire carries it, for the platform's `{type, message}` shape.
      const response = await fetch(`${baseUrl}/v1/chat/completions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': test.server.apiKey },
        body: JSON.stringify({
          model: 'builtin-offline',
          messages: [{ role: 'user', content: [{ type: 'input_audio', input_audio: { data: Buffer.from(data).toString('base64'), format: 'ogg' } }] }],
        }),
      });
      expect(response.status, words).toBe(400);
      const error = (await response.json()) as ErrorBody;
      expect(error.type).toBe('invalid_input');
      expect(error.message).toContain(`${FIELD}: ${words}`);
    }
  });
});
