import { speechCodecs, type SpeechCodecs } from './codecs/speech-codecs.js';
import { SpeechConfig, type SpeechConfigInput } from './speech-config.js';
import { OpenAiSttEngine } from './stt/openai-stt-engine.js';
import { PocketsphinxEngine } from './stt/pocketsphinx-engine.js';
import type { SttEngine } from './stt/stt-engine.js';
import { UnavailableSttEngine } from './stt/unavailable-stt-engine.js';
import { EspeakEngine } from './tts/espeak-engine.js';
import { FliteEngine } from './tts/flite-engine.js';
import { OpenAiTtsEngine } from './tts/openai-tts-engine.js';
import type { TtsEngine } from './tts/tts-engine.js';
import { TtsRouter } from './tts/tts-router.js';
import { VoiceActivityDetector } from './vad/voice-activity-detector.js';

/** The speech stack, as hung on the services container. */
export interface Speech {
  tts: TtsRouter;
  stt: SttEngine;
  /** Loaded on first use (onnxruntime start-up is not free). */
  vad(): Promise<VoiceActivityDetector>;
  codecs: SpeechCodecs;
  close(): Promise<void>;
}

/**
 * Builds the speech stack from configuration. Nothing heavy starts here: engine workers start with
 * their first request (or `tts.warmUp()` / `stt.warmUp()`), the VAD model with the first `vad()`.
 * With pocketsphinx selected by `auto` but not installed, `stt.status()` reports why.
 *
 * @example
 * const speech = createSpeech({});
 * for await (const chunk of speech.tts.synthesize({ voice: { service: 'flite', voice: 'slt' }, text: 'Hi.' })) send(chunk);
 * await speech.close();
 */
export function createSpeech(input: SpeechConfigInput = {}): Speech {
  const config = SpeechConfig.parse(input);
  const engines: TtsEngine[] = [];
  if (config.tts.embedded.includes('flite')) engines.push(new FliteEngine({ jobTimeoutMs: config.tts.jobTimeoutMs }));
  if (config.tts.embedded.includes('espeak-ng')) engines.push(new EspeakEngine({ jobTimeoutMs: config.tts.jobTimeoutMs }));
  if (config.tts.openai) engines.push(new OpenAiTtsEngine(config.tts.openai));
  const tts = new TtsRouter(engines);

  const stt = chooseStt(config);
  let vad: Promise<VoiceActivityDetector> | undefined;
  return {
    tts,
    stt,
    vad: () => (vad ??= VoiceActivityDetector.create({ engine: config.vad.engine })),
    codecs: speechCodecs,
    async close() {
      await Promise.all([tts.close(), stt.close(), vad?.then((detector) => detector.close(), () => undefined)]);
    },
  };
}

function chooseStt(config: SpeechConfig): SttEngine {
  const { provider, openai, pocketsphinx } = config.stt;
  if (provider === 'none') return new UnavailableSttEngine('speech input is disabled (stt.provider = none)');
  if (provider === 'openai' || (provider === 'auto' && openai)) {
    if (!openai) return new UnavailableSttEngine('stt.provider is openai but stt.openai is not configured');
    return new OpenAiSttEngine(openai);
  }
  return new PocketsphinxEngine(pocketsphinx);
}
