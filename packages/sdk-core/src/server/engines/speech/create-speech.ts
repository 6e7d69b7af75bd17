import { speechCodecs, type SpeechCodecs } from './codecs/speech-codecs.js';
import { SpeechConfig, type SpeechConfigInput } from './speech-config.js';
import { OpenAiSttEngine } from './stt/openai-stt-engine.js';
import { PocketsphinxEngine } from './stt/pocketsphinx-engine.js';
import type { SttEngine } from './stt/stt-engine.js';
import { createStreamingStt } from './stt/streaming/create-streaming-stt.js';
import type { StreamingSttEngine, StreamingSttMeter } from './stt/streaming/streaming-stt.js';
import { UnavailableSttEngine } from './stt/unavailable-stt-engine.js';
import { EspeakEngine } from './tts/espeak-engine.js';
import { FliteEngine } from './tts/flite-engine.js';
import { OpenAiTtsEngine } from './tts/openai-tts-engine.js';
import type { TtsEngine } from './tts/tts-engine.js';
import { TtsRouter } from './tts/tts-router.js';
import { VoiceActivityDetector } from './vad/voice-activity-detector.js';
import type { WorkerRestartListener } from './workers/supervised-worker.js';

/** The speech stack, as hung on the services container. */
export interface Speech {
  tts: TtsRouter;
  stt: SttEngine;
  /** The hosted streaming STT service, when one is configured (`streamingStt`); the agent does not use it yet. */
  streamingStt?: StreamingSttEngine;
  /** Loaded on first use (onnxruntime start-up is not free). */
  vad(): Promise<VoiceActivityDetector>;
  codecs: SpeechCodecs;
  close(): Promise<void>;
}

/** What the speech stack tells its owner about itself (the server routes it to its metrics). */
export interface SpeechEvents {
  /** An engine worker (`flite`, `espeak-ng`, `pocketsphinx`) crashed or hung and was replaced. */
  workerRestarted?: WorkerRestartListener | undefined;
  /** A streaming STT stream ended, having sent `audioSeconds` to its vendor (what the vendor bills). */
  streamingSttMetered?: StreamingSttMeter | undefined;
}

/**
 * Builds the speech stack from configuration. Nothing heavy starts here: engine workers start with
 * their first request (or `tts.warmUp()` / `stt.warmUp()`), the VAD model with the first `vad()`.
 * With pocketsphinx selected by `auto` but not installed, `stt.status()` reports why.
 *
 * @example
 * const speech = createSpeech({}, { workerRestarted: ({ name }) => console.warn(`${name} restarted`) });
 * for await (const chunk of speech.tts.synthesize({ voice: { service: 'flite', voice: 'slt' }, text: 'Hi.' })) send(chunk);
 * await speech.close();
 */
export function createSpeech(input: SpeechConfigInput = {}, events: SpeechEvents = {}): Speech {
  const config = SpeechConfig.parse(input);
  const onWorkerRestart = events.workerRestarted;
  const engines: TtsEngine[] = [];
  if (config.tts.embedded.includes('flite')) engines.push(new FliteEngine({ jobTimeoutMs: config.tts.jobTimeoutMs, onWorkerRestart }));
  if (config.tts.embedded.includes('espeak-ng')) engines.push(new EspeakEngine({ jobTimeoutMs: config.tts.jobTimeoutMs, onWorkerRestart }));
  if (config.tts.openai) engines.push(new OpenAiTtsEngine(config.tts.openai));
  const tts = new TtsRouter(engines);

  const stt = chooseStt(config, onWorkerRestart);
  const streamingStt = config.streamingStt ? createStreamingStt(config.streamingStt, events.streamingSttMetered) : undefined;
  let vad: Promise<VoiceActivityDetector> | undefined;
  return {
    tts,
    stt,
    ...(streamingStt ? { streamingStt } : {}),
    vad: () => (vad ??= VoiceActivityDetector.create({ engine: config.vad.engine })),
    codecs: speechCodecs,
    async close() {
      await Promise.all([
        tts.close(),
        stt.close(),
        streamingStt?.close(),
        vad?.then(
          (detector) => detector.close(),
          () => undefined,
        ),
      ]);
    },
  };
}

function chooseStt(config: SpeechConfig, onWorkerRestart: WorkerRestartListener | undefined): SttEngine {
  const { provider, openai, pocketsphinx } = config.stt;
  if (provider === 'none') return new UnavailableSttEngine('speech input is disabled (stt.provider = none)');
  if (provider === 'openai' || (provider === 'auto' && openai)) {
    if (!openai) return new UnavailableSttEngine('stt.provider is openai but stt.openai is not configured');
    return new OpenAiSttEngine(openai);
  }
  return new PocketsphinxEngine({ ...pocketsphinx, onWorkerRestart });
}
