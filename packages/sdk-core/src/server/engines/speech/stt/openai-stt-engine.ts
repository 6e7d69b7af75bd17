import { concatPcm } from '../codecs/pcm.js';
import { encodeWav } from '../codecs/wav.js';
import type { EngineStatus } from '../engine-status.js';
import { vendorPost, type VendorEndpoint } from '../vendor-endpoint.js';
import { BaseSttSession, type SttEngine, type SttSession, type SttSessionOptions } from './stt-engine.js';

/**
 * Any OpenAI-compatible `POST /audio/transcriptions` endpoint (OpenAI, whisper.cpp server,
 * faster-whisper). The protocol is not streaming: a session buffers an utterance and sends it as a
 * WAV file on `finish()`; there are no interim transcripts.
 *
 * @example
 * const stt = new OpenAiSttEngine({ baseUrl: 'http://127.0.0.1:8000/v1', model: 'whisper-1' });
 */
export class OpenAiSttEngine implements SttEngine {
  readonly provider = 'openai';

  constructor(private readonly endpoint: VendorEndpoint) {}

  async status(): Promise<EngineStatus> {
    return { available: true };
  }

  createSession(options: SttSessionOptions): SttSession {
    return new OpenAiSttSession(this.endpoint, options);
  }

  async close(): Promise<void> {}
}

/** Longest utterance buffered for one request (Whisper-style endpoints cap uploads anyway). */
const MAXIMUM_UTTERANCE_SECONDS = 300;

class OpenAiSttSession extends BaseSttSession {
  private chunks: Int16Array[] = [];
  private samples = 0;
  private readonly abort = new AbortController();

  constructor(
    private readonly endpoint: VendorEndpoint,
    private readonly options: SttSessionOptions,
  ) {
    super();
    options.signal?.addEventListener('abort', () => this.close(), { once: true });
  }

  push(pcm: Int16Array): void {
    if (this.closed || this.samples >= MAXIMUM_UTTERANCE_SECONDS * this.options.sampleRate) return;
    this.chunks.push(pcm.slice());
    this.samples += pcm.length;
  }

  async finish(): Promise<string> {
    if (this.closed || this.samples === 0) return '';
    const audio = concatPcm(this.chunks);
    this.chunks = [];
    this.samples = 0;
    const utterance = this.utterance++;
    const started = performance.now();
    const form = new FormData();
    form.append('file', new Blob([encodeWav(audio, this.options.sampleRate)], { type: 'audio/wav' }), 'audio.wav');
    form.append('model', this.endpoint.model);
    form.append('response_format', 'json');
    if (this.options.language) form.append('language', this.options.language.split('-')[0]!);
    try {
      const response = await vendorPost(this.endpoint, '/audio/transcriptions', { body: form, signal: this.abort.signal });
      const body = (await response.json()) as { text?: unknown };
      const text = typeof body.text === 'string' ? body.text.trim() : '';
      this.emit('transcript', { type: 'final', text, utterance, latencyMs: performance.now() - started });
      return text;
    } catch (error) {
      const failure = error instanceof Error ? error : new Error(String(error));
      this.emit('error', failure);
      throw failure;
    }
  }

  close(): void {
    this.closed = true;
    this.chunks = [];
    this.abort.abort();
  }
}
