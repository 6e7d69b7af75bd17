import { afterAll, describe, expect, it } from 'vitest';
import { encodeMp3 } from '../codecs/mp3.js';
import { resampleHighQuality } from '../codecs/resample.js';
import { collectSynthesis } from '../tts/collect-synthesis.js';
import { EspeakEngine } from '../tts/espeak-engine.js';
import { FliteEngine } from '../tts/flite-engine.js';
import { TtsRouter } from '../tts/tts-router.js';
import { PROFILE_EMBEDDING_LAYOUT, VoiceAnalysisError, analyzeVoiceSample, measureVoice } from './voice-profile.js';

const router = new TtsRouter([new FliteEngine(), new EspeakEngine()]);
afterAll(() => router.close());

const SAMPLE_TEXT = 'The weather today is quite pleasant, and we plan to walk along the river before dinner. Tomorrow we will visit the museum.';

async function mp3Sample(voice: { service: string; voice: string; _extra?: Record<string, unknown> }) {
  const audio = await collectSynthesis(router.synthesize({ voice, text: SAMPLE_TEXT }));
  // Uploads are typically 44.1 kHz MP3s.
  const pcm = await resampleHighQuality(audio.pcm, audio.sampleRate, 44100);
  return { mp3: encodeMp3(pcm, 44100, { bitrateKbps: 96 }), source: await measureVoice(audio.pcm, audio.sampleRate) };
}

describe('voice cloning analysis', () => {
  it.each([
    ['a low male Flite voice', { service: 'flite', voice: 'rms' }],
    ['a female Flite voice', { service: 'flite', voice: 'slt' }],
    ['a high eSpeak voice', { service: 'espeak-ng', voice: 'en-us+f3', _extra: { pitch: 70, rate: 150 } }],
  ])('re-synthesis of %s matches the sample pitch within 10 %%', async (_label, voice) => {
    const { mp3, source } = await mp3Sample(voice);
    const analysis = await analyzeVoiceSample(mp3, 'en');
    expect(analysis.embeddings).toHaveLength(PROFILE_EMBEDDING_LAYOUT.length);
    expect(analysis.embeddings[0]).toBe(1);
    // The MP3 round trip must not move the measured pitch.
    expect(Math.abs(analysis.profile.medianF0 - source.medianF0) / source.medianF0).toBeLessThan(0.03);
    expect(analysis.synthesis.service).toBe('espeak-ng');

    const cloned = await collectSynthesis(router.synthesize({ voice: analysis.synthesis, text: SAMPLE_TEXT }));
    const clonedProfile = await measureVoice(cloned.pcm, cloned.sampleRate);
    expect(Math.abs(clonedProfile.medianF0 - source.medianF0) / source.medianF0).toBeLessThan(0.1);
    expect(Math.abs(clonedProfile.syllablesPerSecond - source.syllablesPerSecond) / source.syllablesPerSecond).toBeLessThan(0.35);
  });

  it('picks the +f3 variant for high voices and the language voice', async () => {
    const { mp3 } = await mp3Sample({ service: 'flite', voice: 'slt' });
    const analysis = await analyzeVoiceSample(mp3, 'de');
    expect(analysis.profile.medianF0).toBeGreaterThan(165);
    expect(analysis.synthesis.voice).toBe('de+f3');
  });

  it('rejects empty, non-MP3 and silent samples with a reason', async () => {
    await expect(analyzeVoiceSample(new Uint8Array(0), 'en')).rejects.toThrow(/empty/);
    await expect(analyzeVoiceSample(new TextEncoder().encode('not audio at all'), 'en')).rejects.toThrow(/not an MP3/);
    const silence = encodeMp3(new Int16Array(44100), 44100);
    await expect(analyzeVoiceSample(silence, 'en')).rejects.toBeInstanceOf(VoiceAnalysisError);
  });
});
