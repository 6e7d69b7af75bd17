import { ESPEAK_F3_PITCH_CURVE, ESPEAK_PITCH_CURVE, parameterFor, valueAt } from '../cloning/espeak-calibration.js';
import type { EspeakJob } from '../workers/espeak-protocol.js';
import { siblingModule } from '../workers/spawn-worker.js';
import { clamp } from './clamp.js';
import { synthesizeBySegment } from './segmented-synthesis.js';
import type { PcmChunk, SynthesisRequest } from './tts-engine.js';
import { WorkerTtsEngine, type TtsWorkerSettings } from './worker-tts-engine.js';

export interface EspeakEngineOptions extends Pick<TtsWorkerSettings, 'onWorkerRestart'> {
  jobTimeoutMs?: number;
}

/** eSpeak-NG parameters a voice's `_extra` may carry. */
export interface EspeakParameters {
  rate?: number;
  pitch?: number;
  range?: number;
  volume?: number;
}

/**
 * eSpeak-NG (Emscripten build) in a supervised worker thread: 100+ languages, rate/pitch/range
 * control, audio streamed in ~100 ms pieces at 22.05 kHz with word timings. An unknown voice name
 * fails the request (eSpeak itself would silently keep the previous voice).
 *
 * @example
 * const espeak = new EspeakEngine();
 * const audio = espeak.synthesize({ text: 'Guten Tag.', voice: 'de', parameters: { rate: 160 } });
 */
export class EspeakEngine extends WorkerTtsEngine {
  readonly service = 'espeak-ng';

  constructor(options: EspeakEngineOptions = {}) {
    super({
      name: 'espeak-ng',
      entry: siblingModule(import.meta.url, '../workers/espeak-worker'),
      jobTimeoutMs: options.jobTimeoutMs,
      onWorkerRestart: options.onWorkerRestart,
    });
  }

  /** The voices eSpeak-NG knows (identifier such as `gmw/de`, and language codes). */
  listVoices(): Promise<Array<{ name: string; identifier: string; languages: Array<{ name: string }> }>> {
    return this.worker.run<Array<{ name: string; identifier: string; languages: Array<{ name: string }> }>>('voices', null).result;
  }

  synthesize(request: SynthesisRequest): AsyncIterable<PcmChunk> {
    const job = espeakJobParameters(request);
    return synthesizeBySegment(this.worker, request, (text) => ({ ...job, text }) satisfies EspeakJob);
  }
}

/**
 * eSpeak settings for a request: catalog parameters, then the generic `speed`/`pitch` multipliers
 * (pitch goes through the measured F0 curve so "1.2x" means 20 % higher F0, not 20 % more parameter).
 *
 * @example
 * espeakJobParameters({ voice: 'en-us', speed: 1.5, parameters: { rate: 160 } }).rate; // 240
 */
export function espeakJobParameters(request: Pick<SynthesisRequest, 'voice' | 'speed' | 'pitch' | 'parameters'>): Omit<EspeakJob, 'text'> {
  const parameters = (request.parameters ?? {}) as EspeakParameters;
  const numberOr = (value: unknown, fallback: number) => (typeof value === 'number' && Number.isFinite(value) ? value : fallback);
  let pitch = numberOr(parameters.pitch, 50);
  if (request.pitch !== undefined && request.pitch !== 1) {
    const curve = request.voice.includes('+f') ? ESPEAK_F3_PITCH_CURVE : ESPEAK_PITCH_CURVE;
    pitch = parameterFor(curve, valueAt(curve, pitch) * request.pitch);
  }
  return {
    voice: request.voice,
    rate: Math.round(clamp(numberOr(parameters.rate, 175) * (request.speed ?? 1), 80, 450)),
    pitch: Math.round(clamp(pitch, 0, 99)),
    range: Math.round(clamp(numberOr(parameters.range, 50), 0, 99)),
    volume: Math.round(clamp(numberOr(parameters.volume, 100), 0, 200)),
  };
}
