import { z } from 'zod';

const Endpoint = z.object({
  baseUrl: z.url(),
  apiKey: z.string().min(1).optional(),
  model: z.string().min(1),
  timeoutMs: z.number().int().min(100).optional(),
});

/**
 * Speech configuration; every field has a default that works on a bare machine.
 *
 * @example
 * const config = SpeechConfig.parse({ stt: { provider: 'openai', openai: { baseUrl: 'http://127.0.0.1:8000/v1', model: 'whisper-1' } } });
 */
export const SpeechConfig = z.object({
  tts: z
    .object({
      /** Embedded engines to run. */
      embedded: z.array(z.enum(['flite', 'espeak-ng'])).default(['flite', 'espeak-ng']),
      /** An OpenAI-compatible `/audio/speech` endpoint, served as the `openai` service. */
      openai: Endpoint.extend({ model: z.string().min(1).default('gpt-4o-mini-tts') }).optional(),
      /** A segment synthesis running longer than this is a hung worker. */
      jobTimeoutMs: z.number().int().min(100).default(15_000),
    })
    .default({ embedded: ['flite', 'espeak-ng'], jobTimeoutMs: 15_000 }),
  stt: z
    .object({
      /** `auto`: the OpenAI-compatible endpoint when configured, else pocketsphinx when installed, else none. */
      provider: z.enum(['auto', 'pocketsphinx', 'openai', 'none']).default('auto'),
      openai: Endpoint.extend({ model: z.string().min(1).default('whisper-1') }).optional(),
      pocketsphinx: z
        .object({
          libraryPath: z.string().min(1).optional(),
          sphinxbaseLibraryPath: z.string().min(1).optional(),
          modelDirectory: z.string().min(1).optional(),
          /** Decoders (a worker thread each): as many as humans speaking at the same moment; more wait (decision 0100). */
          poolSize: z.number().int().min(1).max(64).default(2),
          /** `accurate` (default): the library's search; `fast`: no flat-lexicon pass (word error 18.8 -> 20.2 % on the corpus). */
          search: z.enum(['fast', 'accurate']).default('accurate'),
          /** Niceness of the decoder threads (0-19; Linux): above 0 a decoder backlog delays transcripts rather than media. */
          niceness: z.number().int().min(0).max(19).default(0),
          /**
           * Phone callers' speech decoded with the model adapted to G.711 speech (an MLLR transform; decision 0124: word
           * error 51.8 -> 34.3 % on held-out phone speech, but more cut-ins into their pauses, so off by default).
           */
          phoneAdaptation: z.boolean().default(false),
        })
        .default({ poolSize: 2, search: 'accurate', niceness: 0, phoneAdaptation: false }),
    })
    .default({ provider: 'auto', pocketsphinx: { poolSize: 2, search: 'accurate', niceness: 0, phoneAdaptation: false } }),
  /**
   * A hosted streaming STT service (decision 0090): one websocket per speaker, the vendor's own endpointing, interim
   * and final results with word times. Not used by the voice agent yet; `Speech.streamingStt` when set.
   */
  streamingStt: z
    .object({
      provider: z.enum(['deepgram', 'openai-realtime']),
      apiKey: z.string().min(1),
      url: z.url({ protocol: /^wss?$/ }).optional(),
      model: z.string().min(1).optional(),
      endpointingMs: z.number().int().min(10).max(10_000).optional(),
      language: z.string().min(2).optional(),
    })
    .optional(),
  vad: z
    .object({
      engine: z.enum(['auto', 'silero', 'energy']).default('auto'),
    })
    .default({ engine: 'auto' }),
});
export type SpeechConfig = z.output<typeof SpeechConfig>;
export type SpeechConfigInput = z.input<typeof SpeechConfig>;
