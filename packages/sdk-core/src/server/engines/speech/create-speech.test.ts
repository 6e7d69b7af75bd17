import { describe, expect, it } from 'vitest';
import { createSpeech } from './create-speech.js';
import { collectSynthesis } from './tts/collect-synthesis.js';

describe('createSpeech', () => {
  it('assembles embedded TTS, STT status, VAD and codecs from defaults', async () => {
    const speech = createSpeech({ stt: { provider: 'none' } });
    try {
      expect(speech.tts.services).toEqual(['flite', 'espeak-ng']);
      const audio = await collectSynthesis(speech.tts.synthesize({ voice: { service: 'flite', voice: 'slt' }, text: 'Ready.' }));
      const wav = speech.codecs.wav.encode(audio.pcm, audio.sampleRate);
      expect(speech.codecs.wav.decode(wav).pcm.length).toBe(audio.pcm.length);
      expect(await speech.stt.status()).toEqual({ available: false, reason: 'speech input is disabled (stt.provider = none)' });
      expect(() => speech.stt.createSession({ sampleRate: 16000 })).toThrow(/disabled/);
      expect((await speech.vad()).backend).toBe('silero');
    } finally {
      await speech.close();
    }
  });

  it('serves the openai service and STT provider when endpoints are configured', async () => {
    const endpoint = { baseUrl: 'http://127.0.0.1:9/v1', apiKey: 'key' };
    const speech = createSpeech({ tts: { embedded: [], openai: endpoint }, stt: { openai: endpoint } });
    expect(speech.tts.services).toEqual(['openai']);
    expect(speech.stt.provider).toBe('openai');
    await speech.close();
  });

  it('rejects invalid configuration', () => {
    expect(() => createSpeech({ stt: { provider: 'whisper' as never } })).toThrow();
  });
});
