import { bytesToPcm } from '../codecs/pcm.js';
import type { EngineStatus } from '../engine-status.js';
import { vendorPost, type VendorEndpoint } from '../vendor-endpoint.js';
import { textSegments } from './text-segmenter.js';
import type { PcmChunk, SynthesisRequest, TtsEngine } from './tts-engine.js';

/** OpenAI's `response_format: "pcm"`: raw 16-bit little-endian mono at 24 kHz. */
export const OPENAI_PCM_SAMPLE_RATE = 24_000;

/**
 * Any OpenAI-compatible `POST /audio/speech` endpoint, streamed as raw PCM. Streamed text is sent one
 * segment (sentence) per request, so speech starts before the text is complete. `pitch` is ignored;
 * `speed` is passed through (0.25-4).
 *
 * @example
 * const openai = new OpenAiTtsEngine({ baseUrl: 'https://api.openai.com/v1', apiKey, model: 'gpt-4o-mini-tts' });
 * for await (const chunk of openai.synthesize({ text: 'Hello.', voice: 'alloy' })) play(chunk);
 */
export class OpenAiTtsEngine implements TtsEngine {
  readonly service = 'openai';

  constructor(private readonly endpoint: VendorEndpoint) {}

  async status(): Promise<EngineStatus> {
    return { available: true };
  }

  async *synthesize(request: SynthesisRequest): AsyncIterable<PcmChunk> {
    for await (const segment of textSegments(request)) {
      const payload: Record<string, unknown> = {
        model: this.endpoint.model,
        input: segment,
        voice: request.voice,
        response_format: 'pcm',
      };
      if (request.speed !== undefined) payload.speed = Math.min(4, Math.max(0.25, request.speed));
      if (typeof request.parameters?.instructions === 'string') payload.instructions = request.parameters.instructions;
      const response = await vendorPost(this.endpoint, '/audio/speech', {
        body: JSON.stringify(payload),
        json: true,
        ...(request.signal ? { signal: request.signal } : {}),
      });
      if (!response.body) continue;
      // Network reads split samples anywhere; carry an odd trailing byte into the next read.
      let carry: number | undefined;
      for await (const piece of response.body as unknown as AsyncIterable<Uint8Array>) {
        let bytes = piece;
        if (carry !== undefined) {
          bytes = new Uint8Array(piece.length + 1);
          bytes[0] = carry;
          bytes.set(piece, 1);
          carry = undefined;
        }
        if (bytes.length % 2 === 1) {
          carry = bytes[bytes.length - 1];
          bytes = bytes.subarray(0, bytes.length - 1);
        }
        if (bytes.length > 0) yield { pcm: bytesToPcm(bytes.slice()), sampleRate: OPENAI_PCM_SAMPLE_RATE };
      }
    }
  }

  async close(): Promise<void> {}
}
