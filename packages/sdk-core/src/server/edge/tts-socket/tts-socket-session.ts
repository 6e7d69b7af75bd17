import type { Logger } from 'pino';
import type { Voice } from '../../../contract/voices.js';
import type { TtsServiceMessage } from '../../../contract/tts-socket.js';
import { ApiError } from '../../../errors/api-error.js';
import { LinearResampler, pcmToBase64 } from '../../engines/speech/index.js';
import type { Principal } from '../../kernel/principal.js';
import type { VoiceSynthesisService } from '../../domain/voices/voice-synthesis-service.js';
import { BoundedTextQueue } from './bounded-text-queue.js';
import { TTS_SOCKET_SAMPLE_RATE, type TtsSocketLimits } from './tts-socket-limits.js';

/** What a session needs from its socket. */
export interface SessionTransport {
  send(message: TtsServiceMessage): void;
  /** Resolves once the socket has room for more (rejects when `signal` aborts). */
  writable(signal: AbortSignal): Promise<void>;
}

/**
 * One synthesis session of the TTS socket: text arrives with `push_text` into a bounded queue that the
 * engine's segmenter reads, so each clause is synthesized as soon as it is complete; audio is resampled
 * to 24 kHz, cut into small messages and sent in order, waiting whenever the socket is congested (which
 * stops synthesis, since it is pull-based). `eos` ends the text; `final` follows the last audio.
 *
 * @example
 * const session = new TtsSocketSession('s1', 'flite-slt', { principal, synthesis, transport, limits });
 * void session.run(); session.push('Hello there.'); session.end();
 */
export class TtsSocketSession {
  readonly text: BoundedTextQueue;
  private readonly abortController = new AbortController();
  private sentSamples = 0;
  private characters = 0;
  private recorded = false;

  constructor(
    readonly id: string,
    private readonly voiceId: string,
    private readonly context: {
      principal: Principal;
      synthesis: VoiceSynthesisService;
      transport: SessionTransport;
      limits: TtsSocketLimits;
      logger: Logger;
    },
  ) {
    this.text = new BoundedTextQueue(context.limits.maximumQueuedCharacters);
  }

  get ended(): boolean {
    return this.text.isEnded;
  }

  /** Seconds of audio sent so far. */
  get sentSeconds(): number {
    return this.sentSamples / TTS_SOCKET_SAMPLE_RATE;
  }

  push(text: string): void {
    this.characters += text.length;
    this.text.push(text);
  }

  end(): void {
    this.text.end();
  }

  /** Stops synthesis (the socket closed, or the session failed); nothing more is sent. */
  abort(reason = 'session aborted'): void {
    this.text.end();
    if (!this.abortController.signal.aborted) this.abortController.abort(new DOMException(reason, 'AbortError'));
  }

  /** Fails the session with an `error` message and stops it. */
  fail(message: string): void {
    if (this.abortController.signal.aborted) return;
    this.context.transport.send({ type: 'error', session: this.id, payload: { message } });
    this.abort(message);
  }

  /** Resolves the voice, synthesizes until the text ends, sends `final` (or `error`), records usage. */
  async run(): Promise<void> {
    const { principal, synthesis, transport, limits } = this.context;
    const signal = this.abortController.signal;
    let voice: Voice | undefined;
    try {
      voice = await synthesis.resolveVoice(principal, this.voiceId);
      await synthesis.assertWithinLimit(principal);
      let resampler: LinearResampler | undefined;
      for await (const chunk of synthesis.synthesize(voice, { textStream: this.text }, signal)) {
        if (resampler?.inputRate !== chunk.sampleRate) resampler = new LinearResampler(chunk.sampleRate, TTS_SOCKET_SAMPLE_RATE);
        const pcm = resampler.push(chunk.pcm);
        for (let offset = 0; offset < pcm.length; offset += limits.samplesPerMessage) {
          await transport.writable(signal);
          const piece = pcm.subarray(offset, offset + limits.samplesPerMessage);
          transport.send({
            type: 'audio',
            session: this.id,
            payload: { audio: pcmToBase64(piece), sample_rate: TTS_SOCKET_SAMPLE_RATE, channels: 1, audio_format: 'pcm16le', encoding: 'pcm' },
          });
          this.sentSamples += piece.length;
        }
      }
      // Usage is recorded before `final`, so a client that saw `final` can rely on it being counted.
      await this.recordUsage(voice);
      if (!signal.aborted) transport.send({ type: 'final', session: this.id, payload: {} });
    } catch (error) {
      if (!signal.aborted) this.fail(sessionErrorMessage(error));
      await this.recordUsage(voice);
    } finally {
      this.text.end();
    }
  }

  /** Records the seconds sent (once, also for failed or abandoned sessions); never throws. */
  private async recordUsage(voice: Voice | undefined): Promise<void> {
    if (this.recorded || !voice || this.sentSamples === 0) return;
    this.recorded = true;
    const { principal, synthesis, logger } = this.context;
    await synthesis
      .recordUsage(principal, this.sentSeconds, { voice: voice.id, characters: this.characters, source: 'voice.websocket', session: this.id })
      .catch((error: unknown) => logger.error({ err: error, session: this.id }, 'recording TTS socket usage failed'));
  }
}

function sessionErrorMessage(error: unknown): string {
  if (ApiError.isInstance(error)) return `${error.type}: ${error.message}`;
  return error instanceof Error ? error.message : String(error);
}
