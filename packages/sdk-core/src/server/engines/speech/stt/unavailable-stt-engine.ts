import type { EngineStatus } from '../engine-status.js';
import { EngineUnavailableError } from '../workers/supervised-worker.js';
import type { SttEngine, SttSession } from './stt-engine.js';

/**
 * Stands in when no STT provider is configured or installed: the server still runs (typed turns
 * work) and anything asking for speech input gets the reason.
 *
 * @example
 * const stt = new UnavailableSttEngine('no STT engine: install libpocketsphinx3 or configure an OpenAI-compatible endpoint');
 */
export class UnavailableSttEngine implements SttEngine {
  readonly provider = 'none';

  constructor(readonly reason: string) {}

  async status(): Promise<EngineStatus> {
    return { available: false, reason: this.reason };
  }

  createSession(): SttSession {
    throw new EngineUnavailableError(this.reason);
  }

  async close(): Promise<void> {}
}
