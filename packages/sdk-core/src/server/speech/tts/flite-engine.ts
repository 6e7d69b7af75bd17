import type { EngineStatus } from '../engine-status.js';
import { FLITE_VOICES, type FliteJob } from '../workers/flite-protocol.js';
import { siblingModule } from '../workers/spawn-worker.js';
import { SupervisedWorker } from '../workers/supervised-worker.js';
import { synthesizeBySegment } from './segmented-synthesis.js';
import type { PcmChunk, SynthesisRequest, TtsEngine } from './tts-engine.js';

export interface FliteEngineOptions {
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
export class FliteEngine implements TtsEngine {
  readonly service = 'flite';
  readonly voices: readonly string[] = FLITE_VOICES;
  readonly worker: SupervisedWorker;

  constructor(options: FliteEngineOptions = {}) {
    this.worker = new SupervisedWorker({
      name: 'flite',
      entry: siblingModule(import.meta.url, '../workers/flite-worker'),
      jobTimeoutMs: options.jobTimeoutMs ?? 15_000,
    });
  }

  async status(): Promise<EngineStatus> {
    const reason = this.worker.unavailable;
    return reason ? { available: false, reason } : { available: true };
  }

  warmUp(): Promise<void> {
    return this.worker.warmUp();
  }

  synthesize(request: SynthesisRequest): AsyncIterable<PcmChunk> {
    if (!this.voices.includes(request.voice)) {
      throw new RangeError(`unknown Flite voice "${request.voice}" (have ${this.voices.join(', ')})`);
    }
    const baseStretch = Number(request.parameters?.duration_stretch ?? 1) || 1;
    const speed = clamp(request.speed ?? 1, 0.25, 4);
    return synthesizeBySegment(this.worker, request, (text) => ({
      text,
      voice: request.voice,
      durationStretch: baseStretch / speed,
    } satisfies FliteJob));
  }

  close(): Promise<void> {
    return this.worker.close();
  }
}

function clamp(value: number, minimum: number, maximum: number): number {
  return Math.min(maximum, Math.max(minimum, value));
}
