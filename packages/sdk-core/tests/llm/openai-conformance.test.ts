import { readFileSync, writeFileSync } from 'node:fs';
import { isDeepStrictEqual } from 'node:util';
import OpenAI, { toFile } from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { conformanceMarkdown, OPENAI_CONFORMANCE, type ConformanceRow, type ConformanceTarget } from '../../src/contract/openai-conformance.js';
import { createTestPlatform, type TestPlatform } from '../../src/testing.js';
import { startFakeOpenAiUpstream, type FakeOpenAiUpstream } from '../../src/testing/fake-openai-upstream.js';
import { pocketsphinxAvailable } from '../speech/speech-test-support.js';
import { convertWav, ffmpegPresent } from '../support/ffmpeg-audio-files.js';
import { CALL_PROBES, REALTIME_PROBES, type RealtimeProbe, type CallProbe } from './openai-conformance-probes.js';
import { openSession } from './realtime-test-client.js';

/** Where the table is written (`PALAVER_WRITE_CONFORMANCE=1`) and checked. */
const DOC = new URL('../../../../docs/OPENAI-CONFORMANCE.md', import.meta.url);
const sttAvailable = pocketsphinxAvailable();

/** What a probe saw: refused with 400 naming the field, taken as given, or taken and changed on the way. */
type Observed = 'refused' | 'as given' | 'mapped' | 'accepted';

/** A chat probe: fields merged into a request; `field` is what a refusal must name. */
interface ChatProbe {
  kind: 'chat';
  extra: Record<string, unknown>;
  field: string;
}
/** An audio probe: runs the call; `field` is what a refusal must name. */
interface AudioProbe {
  kind: 'audio';
  field: string;
  needsStt?: boolean;
  needsFfmpeg?: boolean;
  run: (openai: OpenAI) => Promise<unknown>;
}

const user = [{ role: 'user', content: 'Hi there' }];
const chat = (field: string, extra: Record<string, unknown>): ChatProbe => ({ kind: 'chat', field, extra });
const SPEECH = { model: 'tts-1', voice: 'flite-slt', input: 'Please call me tomorrow morning.' } as const;
let recording: Uint8Array;
const transcribe = (extra: Record<string, unknown>, file?: (openai: OpenAI) => Promise<File>) => async (openai: OpenAI) =>
  openai.audio.transcriptions.create({
    file: file ? await file(openai) : await toFile(recording, 'speech.wav'),
    model: 'whisper-1',
    ...extra,
  } as OpenAI.Audio.TranscriptionCreateParamsNonStreaming);
const speech = (extra: Record<string, unknown>) => async (openai: OpenAI) => {
  const response = await openai.audio.speech.create({ ...SPEECH, ...extra });
  return response.arrayBuffer();
};
const audio = (field: string, run: AudioProbe['run'], needsStt = false, needsFfmpeg = false): AudioProbe => ({
  kind: 'audio',
  field,
  run,
  needsStt,
  needsFfmpeg,
});
const spokenAs = (format: 'mp3' | 'opus') => async (openai: OpenAI) => {
  const response = await openai.audio.speech.create({ ...SPEECH, response_format: format });
  return toFile(new Uint8Array(await response.arrayBuffer()), `speech.${format === 'opus' ? 'ogg' : 'mp3'}`);
};

/** One probe per row, keyed `endpoint | feature`. */
const PROBES: Record<string, ChatProbe | AudioProbe | AudioProbe[] | CallProbe | RealtimeProbe> = {
  'POST /v1/chat/completions | messages: system, user, assistant, tool': chat('messages', {
    messages: [
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'Weather?' },
      { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'weather', arguments: '{}' } }] },
      { role: 'tool', tool_call_id: 'call_1', content: 'sunny' },
    ],
  }),
  'POST /v1/chat/completions | messages: developer role': chat('messages', { messages: [{ role: 'developer', content: 'Be brief.' }, ...user] }),
  'POST /v1/chat/completions | stream, stream_options.include_usage': chat('stream', { stream: true, stream_options: { include_usage: true } }),
  'POST /v1/chat/completions | stream_options.include_obfuscation': chat('stream_options', {
    stream: true,
    stream_options: { include_usage: true, include_obfuscation: false },
  }),
  'POST /v1/chat/completions | max_completion_tokens': chat('max_completion_tokens', { max_completion_tokens: 20 }),
  'POST /v1/chat/completions | max_tokens': chat('max_tokens', { max_tokens: 20 }),
  'POST /v1/chat/completions | n': chat('n', { n: 2 }),
  'POST /v1/chat/completions | stop': chat('stop', { stop: ['END'] }),
  'POST /v1/chat/completions | seed': chat('seed', { seed: 3 }),
  'POST /v1/chat/completions | temperature, top_p': chat('temperature', { temperature: 0.2, top_p: 0.9 }),
  'POST /v1/chat/completions | logprobs, top_logprobs': chat('logprobs', { logprobs: true, top_logprobs: 2 }),
  'POST /v1/chat/completions | response_format: json_object': chat('response_format', { response_format: { type: 'json_object' } }),
  'POST /v1/chat/completions | response_format: json_schema (strict)': chat('response_format', {
    response_format: {
      type: 'json_schema',
      json_schema: {
        name: 'answer',
        strict: true,
        schema: { type: 'object', properties: { a: { type: 'string' } }, required: ['a'], additionalProperties: false },
      },
    },
  }),
  'POST /v1/chat/completions | tools, tool_choice, parallel_tool_calls': chat('tools', {
    tools: [{ type: 'function', function: { name: 'lookup', parameters: { type: 'object', properties: {} } } }],
    tool_choice: 'auto',
    parallel_tool_calls: false,
  }),
  'POST /v1/chat/completions | prediction': chat('prediction', { prediction: { type: 'content', content: 'Hello' } }),
  'POST /v1/chat/completions | user, safety_identifier, prompt_cache_key, prompt_cache_retention': chat('user', {
    user: 'u1',
    safety_identifier: 's1',
    prompt_cache_key: 'k1',
    prompt_cache_retention: '24h',
  }),
  'POST /v1/chat/completions | metadata': chat('metadata', { metadata: { tag: 'conformance' } }),
  'POST /v1/chat/completions | store: true, metadata': chat('store', { store: true, metadata: { tag: 'stored' } }),
  'POST /v1/chat/completions | service_tier: flex, scale, priority': chat('service_tier', { service_tier: 'flex' }),
  'POST /v1/chat/completions | reasoning_effort': chat('reasoning_effort', { reasoning_effort: 'low' }),
  'POST /v1/chat/completions | verbosity': chat('verbosity', { verbosity: 'low' }),
  'POST /v1/chat/completions | frequency_penalty, presence_penalty': chat('frequency_penalty', { frequency_penalty: 0.5 }),
  'POST /v1/chat/completions | logit_bias': chat('logit_bias', { logit_bias: { '42': 10 } }),
  'POST /v1/chat/completions | web_search_options': chat('web_search_options', { web_search_options: { search_context_size: 'low' } }),
  'POST /v1/chat/completions | moderation (OpenAI’s)': chat('moderation', { moderation: { model: 'omni-moderation-latest' } }),
  'POST /v1/chat/completions | functions, function_call (deprecated)': chat('functions', { functions: [{ name: 'f', parameters: {} }], function_call: 'auto' }),
  'POST /v1/chat/completions | messages: assistant audio, function_call': chat('messages[1].audio', {
    messages: [...user, { role: 'assistant', content: null, audio: { id: 'audio_1' } }, { role: 'user', content: 'And?' }],
  }),
  'POST /v1/chat/completions | modalities: audio, audio': chat('modalities', { modalities: ['text', 'audio'], audio: { voice: 'flite-slt', format: 'wav' } }),
  'POST /v1/chat/completions | a field OpenAI does not define': chat('max_output_tokens', { max_output_tokens: 5 }),
  'POST /v1/audio/speech | voice: a platform voice id': audio('voice', speech({ voice: 'flite-rms' })),
  'POST /v1/audio/speech | model': audio('model', speech({ model: 'gpt-4o-mini-tts' })),
  'POST /v1/audio/speech | response_format: mp3, opus, wav, pcm': (['mp3', 'opus', 'wav', 'pcm'] as const).map((format) =>
    audio('response_format', speech({ response_format: format })),
  ),
  'POST /v1/audio/speech | streamed audio': audio('stream_format', async (openai) => {
    const response = await openai.audio.speech.create({ ...SPEECH, response_format: 'pcm', stream_format: 'audio' });
    expect(response.headers.get('transfer-encoding')).toBe('chunked');
    return response.arrayBuffer();
  }),
  'POST /v1/audio/speech | response_format: aac, flac': [
    audio('response_format', speech({ response_format: 'aac' })),
    audio('response_format', speech({ response_format: 'flac' })),
  ],
  'POST /v1/audio/speech | speed other than 1': [audio('speed', speech({ speed: 2 })), audio('speed', speech({ speed: 0.5, voice: 'espeak-en-gb' }))],
  'POST /v1/audio/speech | instructions': audio('instructions', speech({ instructions: 'Whisper.' })),
  'POST /v1/audio/speech | stream_format: sse': audio('stream_format', async (openai) => {
    const response = await openai.audio.speech.create({ ...SPEECH, stream_format: 'sse' });
    expect(await response.text()).toContain('"type":"speech.audio.done"');
  }),
  'POST /v1/audio/transcriptions | file: wav, mp3, ogg': [
    audio('file', transcribe({}), true),
    audio('file', transcribe({}, spokenAs('mp3')), true),
    audio('file', transcribe({}, spokenAs('opus')), true),
  ],
  'POST /v1/audio/transcriptions | file: flac, m4a, mp4, webm': (['flac', 'm4a', 'mp4', 'webm'] as const).map((format) =>
    audio(
      'file',
      transcribe({}, async () => toFile(await convertWav(recording, format), `speech.${format}`)),
      true,
      true,
    ),
  ),
  'POST /v1/audio/transcriptions | model': audio('model', transcribe({ model: 'gpt-4o-transcribe' }), true),
  'POST /v1/audio/transcriptions | response_format: json, text, srt, vtt': (['json', 'text', 'srt', 'vtt'] as const).map((format) =>
    audio('response_format', transcribe({ response_format: format }), true),
  ),
  'POST /v1/audio/transcriptions | response_format: verbose_json, timestamp_granularities': audio(
    'response_format',
    transcribe({ response_format: 'verbose_json', timestamp_granularities: ['word', 'segment'] }),
    true,
  ),
  'POST /v1/audio/transcriptions | language: en': audio('language', transcribe({ language: 'en' }), true),
  'POST /v1/audio/transcriptions | prompt': audio('prompt', transcribe({ prompt: 'Palaver' }), true),
  'POST /v1/audio/transcriptions | temperature other than 0': audio('temperature', transcribe({ temperature: 0.5 }), true),
  'POST /v1/audio/transcriptions | response_format: diarized_json': audio('response_format', transcribe({ response_format: 'diarized_json' }), true),
  'POST /v1/audio/transcriptions | include: logprobs': audio('include[]', transcribe({ include: ['logprobs'] }), true),
  'POST /v1/audio/transcriptions | stream: true': audio('stream', transcribe({ stream: true }), true),
  ...CALL_PROBES,
  ...REALTIME_PROBES,
};

let conformanceBaseUrl = '';
const keyOf = (row: ConformanceRow) => `${row.endpoint} | ${row.feature}`;

/** Whether what a probe saw is what the row declares for the target. */
function agrees(declared: string, observed: Observed): boolean {
  if (declared === 'refused') return observed === 'refused';
  if (observed === 'accepted') return declared === 'served' || declared === 'bridged';
  return declared === (observed === 'as given' ? 'served' : 'bridged');
}

describe('OpenAI conformance table (openai package)', () => {
  let platform: TestPlatform;
  let upstream: FakeOpenAiUpstream;
  let openai: OpenAI;
  let compatibleLlm: string;

  beforeAll(async () => {
    upstream = await startFakeOpenAiUpstream();
    platform = await createTestPlatform({
      config: { llm: { openaiApiKey: 'sk-platform-test', openaiBaseUrl: upstream.baseUrl, openaiModels: ['gpt-4o-mini'] } },
    });
    const baseUrl = await platform.server.listen(0, '127.0.0.1');
    const headers = { 'x-api-key': platform.server.apiKey };
    conformanceBaseUrl = `${baseUrl}/v1`;
    openai = new OpenAI({ baseURL: `${baseUrl}/v1`, apiKey: platform.server.apiKey, defaultHeaders: headers, maxRetries: 0 });
    compatibleLlm = (await platform.client.llms.create({ name: 'compatible', description: '', headers: [], model: 'fake-gpt', post_url: upstream.chatUrl })).id;
    recording = new Uint8Array(await (await openai.audio.speech.create({ ...SPEECH, response_format: 'wav' })).arrayBuffer());
  });
  afterAll(async () => {
    await platform.close();
    await upstream.close();
  });

  /** Runs a call; `refused` when it fails with 400 naming `field`, else `accepted`. */
  async function outcome(call: () => Promise<unknown>, field: string): Promise<'refused' | 'accepted'> {
    try {
      const result = await call();
      if (result && typeof (result as AsyncIterable<unknown>)[Symbol.asyncIterator] === 'function')
        for await (const _ of result as AsyncIterable<unknown>) void _;
      return 'accepted';
    } catch (error) {
      expect(error).toBeInstanceOf(OpenAI.BadRequestError);
      expect((error as Error).message).toContain(`${field}:`);
      return 'refused';
    }
  }

  const modelFor = (target: ConformanceTarget) =>
    target === 'offline model' ? 'builtin-offline' : target === 'openai upstream' ? 'builtin-openai-gpt-4o-mini' : compatibleLlm;

  /** A realtime probe on a session of its own: `refused` when an error event names its field, `accepted` when it completes. */
  async function observeRealtime(probe: RealtimeProbe): Promise<'refused' | 'accepted'> {
    const { socket, events } = await openSession(conformanceBaseUrl.replace(/\/v1$/, ''), platform.server.apiKey);
    try {
      const seen = await new Promise<'refused' | 'accepted'>((resolve, reject) => {
        const watch = setInterval(() => {
          if (events.errors.length === 0) return;
          clearInterval(watch);
          resolve('refused');
        }, 20);
        probe.run(socket, events, platform.server.services.speech).then(
          () => (clearInterval(watch), resolve('accepted')),
          (error: unknown) => (events.errors.length === 0 ? (clearInterval(watch), reject(error as Error)) : undefined),
        );
      });
      if (seen === 'refused') expect(events.errors[0]!.param ?? events.errors[0]!.message).toContain(probe.field);
      return seen;
    } finally {
      socket.close();
    }
  }

  async function observe(probe: ChatProbe | AudioProbe | CallProbe | RealtimeProbe, target: ConformanceTarget): Promise<Observed> {
    if (probe.kind === 'chat') return observeChat(probe, target);
    if (probe.kind === 'call') return outcome(() => probe.run(openai, modelFor(target)), probe.field);
    if (probe.kind === 'realtime') return observeRealtime(probe);
    return outcome(() => probe.run(openai), probe.field);
  }

  async function observeChat(probe: ChatProbe, target: ConformanceTarget): Promise<Observed> {
    const model = modelFor(target);
    const before = upstream.requests.length;
    const body = { model, messages: user, ...probe.extra } as unknown as OpenAI.ChatCompletionCreateParamsNonStreaming;
    const seen = await outcome(() => openai.chat.completions.create(body), probe.field);
    if (seen === 'refused' || target === 'offline model') return seen;
    expect(upstream.requests.length).toBe(before + 1);
    const sent = upstream.requests.at(-1)!.body;
    return Object.entries(probe.extra).every(([name, value]) => isDeepStrictEqual(sent[name], value)) ? 'as given' : 'mapped';
  }

  it('every row has a probe, and every probe a row', () => {
    expect(OPENAI_CONFORMANCE.map(keyOf).sort()).toEqual(Object.keys(PROBES).sort());
  });

  for (const row of OPENAI_CONFORMANCE) {
    const probes = [PROBES[keyOf(row)]].flat().filter((probe) => probe !== undefined);
    const needsStt = probes.some((probe) => (probe.kind === 'audio' || probe.kind === 'realtime') && probe.needsStt);
    const needsFfmpeg = probes.some((probe) => probe.kind === 'audio' && probe.needsFfmpeg) || /aac|flac/.test(row.feature);
    it.skipIf((needsStt && !sttAvailable) || (needsFfmpeg && !ffmpegPresent()))(
      `${keyOf(row)}: ${JSON.stringify(row.statuses)}`,
      async () => {
        for (const probe of probes) {
          for (const [target, declared] of Object.entries(row.statuses) as Array<[ConformanceTarget, string]>) {
            const observed = await observe(probe, target);
            expect(agrees(declared, observed), `${target}: declared ${declared}, observed ${observed}`).toBe(true);
          }
        }
        // Several speech syntheses and transcriptions in one row: on a loaded 2-core machine that outlasts the default 30 s.
      },
      120_000,
    );
  }

  it('the OpenAPI description (/docs) shows the same table', async () => {
    const document = (await (await fetch(conformanceBaseUrl.replace(/\/v1$/, '/openapi.json'))).json()) as { info: { description: string } };
    expect(document.info.description).toContain('## OpenAI compatibility');
    expect(document.info.description).toContain(conformanceMarkdown(OPENAI_CONFORMANCE).replace(/^### /gm, '#### '));
  });

  it('docs/OPENAI-CONFORMANCE.md holds the table (PALAVER_WRITE_CONFORMANCE=1 writes it)', () => {
    const document = [
      '# OpenAI compatibility',
      '',
      'How the platform answers each feature of OpenAI’s API, per endpoint and per target: **served** (taken as OpenAI',
      'defines it; for an upstream, passed on exactly as given), **bridged** (taken, and mapped onto what the target',
      'has), **refused** (400 naming the field). Each',
      'row is probed with the `openai` package by `packages/sdk-core/tests/llm/openai-conformance.test.ts`, which writes',
      'this file from `packages/sdk-core/src/contract/openai-conformance.ts`; `/docs` shows the same table.',
      '',
      conformanceMarkdown(OPENAI_CONFORMANCE),
      '',
    ].join('\n');
    if (process.env.PALAVER_WRITE_CONFORMANCE === '1') writeFileSync(DOC, document);
    expect(readFileSync(DOC, 'utf8')).toBe(document);
  });
});
