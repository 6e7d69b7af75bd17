import type { Voice } from '../../../../contract/voices.js';
import type { EngineStatus } from '../engine-status.js';
import type { PcmChunk, SynthesisRequest, TtsEngine } from './tts-engine.js';

/** The catalog fields that select an engine and its settings. */
export type VoiceSelection = Pick<Voice, 'service' | 'voice' | '_extra'>;

/** The voice names a service with no catalog `voice` falls back to. */
const DEFAULT_ENGINE_VOICE: Record<string, string> = { flite: 'slt', 'espeak-ng': 'en-us', openai: 'alloy' };

/** A voice's service has no engine here (e.g. `openai` without a configured endpoint). */
export class TtsServiceUnavailableError extends Error {
  override name = 'TtsServiceUnavailableError';
}

export type RoutedSynthesisRequest = Omit<SynthesisRequest, 'voice' | 'parameters'> & { voice: VoiceSelection };

/**
 * Sends each synthesis to the engine named by the voice's `service`, with the engine voice name from
 * `voice` and the catalog's `_extra` as engine parameters.
 *
 * @example
 * const router = new TtsRouter([new FliteEngine(), new EspeakEngine()]);
 * const voice = await services.voices.retrieve(principal, 'flite-slt');
 * for await (const chunk of router.synthesize({ voice, text: 'Hello.' })) send(chunk);
 */
export class TtsRouter {
  private readonly engines = new Map<string, TtsEngine>();

  constructor(engines: Iterable<TtsEngine>) {
    for (const engine of engines) this.engines.set(engine.service, engine);
  }

  get services(): string[] {
    return [...this.engines.keys()];
  }

  engine(service: string): TtsEngine | undefined {
    return this.engines.get(service);
  }

  /** Throws {@link TtsServiceUnavailableError} before any work when the service has no engine. */
  synthesize(request: RoutedSynthesisRequest): AsyncIterable<PcmChunk> {
    const service = request.voice.service ?? 'flite';
    const engine = this.engines.get(service);
    if (!engine) throw new TtsServiceUnavailableError(`no TTS engine for service "${service}" (have ${this.services.join(', ')})`);
    const { voice, ...rest } = request;
    return engine.synthesize({
      ...rest,
      voice: voice.voice ?? DEFAULT_ENGINE_VOICE[service] ?? '',
      ...(voice._extra ? { parameters: voice._extra } : {}),
    });
  }

  async status(): Promise<Record<string, EngineStatus>> {
    const entries = await Promise.all([...this.engines].map(async ([service, engine]) => [service, await engine.status()] as const));
    return Object.fromEntries(entries);
  }

  async warmUp(): Promise<void> {
    await Promise.all([...this.engines.values()].map((engine) => engine.warmUp?.() ?? Promise.resolve()));
  }

  async close(): Promise<void> {
    await Promise.all([...this.engines.values()].map((engine) => engine.close()));
  }
}
