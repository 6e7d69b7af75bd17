import { FLITE_VOICES, type FliteJob } from '../workers/flite-protocol.js';
import { siblingModule } from '../workers/spawn-worker.js';
import { clamp } from './clamp.js';
import { synthesizeBySegment } from './segmented-synthesis.js';
import type { PcmChunk, SynthesisRequest } from './tts-engine.js';
import { WorkerTtsEngine, type TtsWorkerSettings } from './worker-tts-engine.js';

export interface FliteEngineOptions extends Pick<TtsWorkerSettings, 'onWorkerRestart'> {
  /** A synthesis job (one segment) running longer than this is treated as a hang. */
  jobTimeoutMs?: number;
}

/**
 * Flite (WASI build) in a supervised worker thread: English voices kal (8 kHz), kal16, awb, rms and
 * slt (16 kHz). Flite renders a segment at once (~15-50 ms per sentence), so audio arrives one
 * sentence at a time. Speed maps to `duration_stretch`; Flite has no general pitch control, so
 * `pitch` is ignored. Catalog parameter: `duration_stretch`.
 *
 * @example
 * const flite = new FliteEngine();
 * for await (const chunk of flite.synthesize({ text: 'Hello.', voice: 'slt' })) send(chunk);
 */
export class FliteEngine extends WorkerTtsEngine {
  readonly service = 'flite';
  readonly voices: readonly string[] = FLITE_VOICES;

  constructor(options: FliteEngineOptions = {}) {
    super({
      name: 'flite',
      entry: siblingModule(import.meta.url, '../workers/flite-worker'),
      jobTimeoutMs: options.jobTimeoutMs,
      onWorkerRestart: options.onWorkerRestart,
    });
  }

  synthesize(request: SynthesisRequest): AsyncIterable<PcmChunk> {
    if (!this.voices.includes(request.voice)) {
      throw new RangeError(`unknown Flite voice "${request.voice}" (have ${this.voices.join(', ')})`);
    }
    const baseStretch = Number(request.parameters?.duration_stretch ?? 1) || 1;
    const speed = clamp(request.speed ?? 1, 0.25, 4);
    return synthesizeBySegment(
      this.worker,
      request,
      (text) =>
        ({
          text,
          voice: request.voice,
          durationStretch: baseStretch / speed,
        }) satisfies FliteJob,
    );
  }
}
