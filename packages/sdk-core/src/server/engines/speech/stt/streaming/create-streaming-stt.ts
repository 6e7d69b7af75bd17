import { DeepgramLiveStt } from './deepgram/deepgram-live-stt.js';
import { OpenAiRealtimeTranscription } from './openai-realtime/openai-realtime-stt.js';
import type { StreamingSttEngine, StreamingSttMeter } from './streaming-stt.js';

/** A hosted streaming STT service as configured (`speech.streamingStt`). */
export interface StreamingSttConfig {
  provider: 'deepgram' | 'openai-realtime';
  apiKey: string;
  /** The vendor's websocket URL; its public endpoint when unset. */
  url?: string | undefined;
  /** `nova-3` (Deepgram) or `gpt-4o-transcribe` (OpenAI) when unset. */
  model?: string | undefined;
  /** Silence that ends an utterance: Deepgram's `endpointing`, OpenAI's server VAD `silence_duration_ms`. */
  endpointingMs?: number | undefined;
  language?: string | undefined;
}

/**
 * The streaming STT engine for a configuration, metering each stream's seconds through `meter` (the composition
 * root reports them to the server's metrics).
 *
 * @example
 * const engine = createStreamingStt({ provider: 'deepgram', apiKey: process.env.DEEPGRAM_API_KEY! });
 * const stream = engine.open({ sampleRate: 16000 });
 */
export function createStreamingStt(config: StreamingSttConfig, meter?: StreamingSttMeter): StreamingSttEngine {
  const common = { apiKey: config.apiKey, url: config.url, model: config.model, language: config.language, meter };
  if (config.provider === 'deepgram') return new DeepgramLiveStt({ ...common, endpointingMs: config.endpointingMs });
  return new OpenAiRealtimeTranscription({
    ...common,
    ...(config.endpointingMs !== undefined ? { turnDetection: { silenceDurationMs: config.endpointingMs } } : {}),
  });
}
