import { afterEach, describe, expect, it } from 'vitest';
import { speechConfigFrom } from '../../../../domain/voices/platform-speech.js';
import { loadConfig } from '../../../../kernel/config.js';
import { startFakeDeepgramLive, type FakeDeepgramLive } from '../../../../../testing/streaming-stt/fake-deepgram-live.js';
import { pushPaced, toneBurst } from '../../../../../testing/streaming-stt/paced-audio.js';
import { recordStream } from '../../../../../testing/streaming-stt/recorded-stream.js';
import { createSpeech } from '../../create-speech.js';
import type { StreamingSttUsage } from './streaming-stt.js';

let fake: FakeDeepgramLive | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

describe('hosted streaming STT selected by configuration', () => {
  it('maps PALAVER_SPEECH_STREAMING_STT_* onto the speech stack, which meters each stream through its owner', async () => {
    fake = await startFakeDeepgramLive({ apiKey: 'dg-key', script: ['Hello there.'] });
    const config = loadConfig({
      PALAVER_SPEECH_STREAMING_STT_PROVIDER: 'deepgram',
      PALAVER_SPEECH_STREAMING_STT_URL: fake.url,
      PALAVER_SPEECH_STREAMING_STT_API_KEY: 'dg-key',
      PALAVER_SPEECH_STREAMING_STT_MODEL: 'nova-2',
      PALAVER_SPEECH_STREAMING_STT_ENDPOINTING_MS: '250',
    });
    const metered: StreamingSttUsage[] = [];
    const speech = createSpeech({ ...speechConfigFrom(config.speech), stt: { provider: 'none' } }, { streamingSttMetered: (usage) => metered.push(usage) });
    try {
      expect(speech.streamingStt).toMatchObject({ provider: 'deepgram', model: 'nova-2' });
      const stream = speech.streamingStt!.open({ sampleRate: 16000 });
      const recorded = recordStream(stream);
      await pushPaced(stream, toneBurst(16000, { toneMs: 600, tailMs: 500 }), 16000, { speed: 2 });
      const final = await recorded.next('final', (event) => event.endOfSpeech);
      expect(final.text).toBe('Hello there.');
      expect(fake.requests[0]!.query).toMatchObject({ model: 'nova-2', endpointing: '250' });
    } finally {
      await speech.close();
    }
    expect(metered).toHaveLength(1);
    expect(metered[0]).toMatchObject({ provider: 'deepgram', model: 'nova-2' });
    expect(metered[0]!.audioSeconds).toBeGreaterThan(0);
  });

  it('selects OpenAI realtime transcription, and has none by default', () => {
    const openai = speechConfigFrom(
      loadConfig({ PALAVER_SPEECH_STREAMING_STT_PROVIDER: 'openai-realtime', PALAVER_SPEECH_STREAMING_STT_API_KEY: 'sk-x' }).speech,
    );
    expect(openai.streamingStt).toEqual({ provider: 'openai-realtime', apiKey: 'sk-x', endpointingMs: 300 });
    const speech = createSpeech({ ...openai, stt: { provider: 'none' } });
    expect(speech.streamingStt).toMatchObject({ provider: 'openai-realtime', model: 'gpt-4o-transcribe' });
    void speech.close();
    expect(speechConfigFrom(loadConfig({}).speech).streamingStt).toBeUndefined();
  });

  it('refuses a provider without a key, and a URL that is not a websocket', () => {
    expect(() => speechConfigFrom(loadConfig({ PALAVER_SPEECH_STREAMING_STT_PROVIDER: 'deepgram' }).speech)).toThrow(/PALAVER_SPEECH_STREAMING_STT_API_KEY/);
    expect(() => loadConfig({ PALAVER_SPEECH_STREAMING_STT_URL: 'https://api.deepgram.com/v1/listen' })).toThrow(/PALAVER_SPEECH_STREAMING_STT_URL/);
  });
});
