import type { EngineStatus } from '../engine-status.js';
import { SupervisedWorker, type WorkerRestartListener } from '../workers/supervised-worker.js';
import type { PcmChunk, SynthesisRequest, TtsEngine } from './tts-engine.js';

/** The worker an embedded engine synthesizes in. */
export interface TtsWorkerSettings {
  /** Used in errors and events, e.g. `flite`. */
  name: string;
  /** Worker module, resolved by the engine with `siblingModule` (so a bundled build finds it too). */
  entry: URL;
  /** A synthesis job (one segment) running longer than this is treated as a hang. */
  jobTimeoutMs?: number | undefined;
  /** Told when the supervisor replaces a crashed or hung worker. */
  onWorkerRestart?: WorkerRestartListener | undefined;
}

/**
 * What the embedded engines (Flite, eSpeak-NG) share: one supervised worker thread runs their jobs, and
 * the engine is available exactly when that worker is. Each engine says how a request becomes jobs.
 *
 * @example
 * class QuietEngine extends WorkerTtsEngine {
 *   readonly service = 'quiet';
 *   constructor() {
 *     super({ name: 'quiet', entry: siblingModule(import.meta.url, '../workers/quiet-worker') });
 *   }
 *   synthesize(request: SynthesisRequest) {
 *     return synthesizeBySegment(this.worker, request, (text) => ({ text }));
 *   }
 * }
 */
export abstract class WorkerTtsEngine implements TtsEngine {
  abstract readonly service: string;
  readonly worker: SupervisedWorker;

  protected constructor(settings: TtsWorkerSettings) {
    this.worker = new SupervisedWorker({ name: settings.name, entry: settings.entry, jobTimeoutMs: settings.jobTimeoutMs ?? 15_000 });
    if (settings.onWorkerRestart) this.worker.on('restarted', settings.onWorkerRestart);
  }

  async status(): Promise<EngineStatus> {
    const reason = this.worker.unavailable;
    return reason ? { available: false, reason } : { available: true };
  }

  warmUp(): Promise<void> {
    return this.worker.warmUp();
  }

  abstract synthesize(request: SynthesisRequest): AsyncIterable<PcmChunk>;

  close(): Promise<void> {
    return this.worker.close();
  }
}
