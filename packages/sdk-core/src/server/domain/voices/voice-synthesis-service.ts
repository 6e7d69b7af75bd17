import type { GenerateVoiceRequest, Voice } from '../../../contract/voices.js';
import { ApiError, BadRequestError, ModerationError } from '../../../errors/api-error.js';
import { AUDIO_CONTENT_TYPES, collectSynthesis, encodeAudio, type PcmChunk, type Speech } from '../../engines/speech/index.js';
import type { Principal } from '../../kernel/principal.js';
import type { UsageService, UsageSubject } from '../usage/usage-service.js';
import type { AudioFormat } from '../../kernel/ports/speech-output.js';
import { DEFAULT_VOICE_ID } from './builtin-voices.js';
import type { Moderator } from './moderator.js';
import { speechFailure } from './speech-errors.js';
import type { VoiceService } from './voice-service.js';

/** Generated speech, ready to send. */
export interface GeneratedAudio {
  audio: Uint8Array;
  contentType: string;
  sampleRate: number;
  durationSeconds: number;
}

export interface VoiceSynthesisDependencies {
  voices: VoiceService;
  speech: Speech;
  usage: UsageService;
  moderator: Moderator;
}

/** What a synthesis speaks: a whole text, or pieces as they arrive (the TTS socket). */
export type SynthesisText = { text: string } | { textStream: AsyncIterable<string> };

/**
 * Speech synthesis for the platform: resolves the caller's voice, moderates, checks and records
 * `voice_synthesis_seconds` usage for the human, and runs the engine chosen by the voice (on its worker).
 * Used by `POST /v1/voice/generate` and the TTS websocket.
 *
 * @example
 * const { audio, contentType } = await services.voiceSynthesis.generate(principal, { text: 'Hello.' }, 'wav');
 */
export class VoiceSynthesisService {
  constructor(private readonly dependencies: VoiceSynthesisDependencies) {}

  /** The voice to speak with: `voiceId`, or the platform default (`flite-slt`); 404 when not visible to the caller. */
  resolveVoice(principal: Principal, voiceId: string | undefined): Promise<Voice> {
    return this.dependencies.voices.retrieve(principal, voiceId ?? DEFAULT_VOICE_ID);
  }

  /** 400 `usage_limit_exceeded` when the caller's human has used up `voice_synthesis_seconds`. */
  assertWithinLimit(principal: UsageSubject): Promise<void> {
    return this.dependencies.usage.assertWithinLimit(principal.project, principal.human, 'voice_synthesis_seconds');
  }

  /** 400 `moderation_error` when the moderator flags the text; 502 when the moderation endpoint fails. */
  async moderate(text: string, signal?: AbortSignal): Promise<void> {
    const moderator = this.dependencies.moderator;
    let verdict;
    try {
      verdict = await moderator.check(text, signal);
    } catch (error) {
      if (error instanceof Error && error.name === 'AbortError') throw error;
      throw new ApiError({ status: 502, type: 'upstream_error', message: `moderation check failed: ${(error as Error).message}`, cause: error });
    }
    if (verdict.flagged) {
      const categories = verdict.categories.length > 0 ? ` (${verdict.categories.join(', ')})` : '';
      throw new ModerationError(`the text was refused by moderation${categories}`);
    }
  }

  /**
   * Audio for `text` with `voice`, as the engine produces it (native sample rate). Engine failures surface
   * as API errors (503 engine unavailable, 500 worker crash) while iterating. `speed` multiplies the voice's rate.
   */
  async *synthesize(voice: Voice, text: SynthesisText & { speed?: number }, signal?: AbortSignal): AsyncIterable<PcmChunk> {
    try {
      yield* this.dependencies.speech.tts.synthesize({ voice, ...text, ...(signal ? { signal } : {}) });
    } catch (error) {
      throw speechFailure(error);
    }
  }

  /** Records seconds of synthesized audio for the caller's project and human (nothing for zero seconds). */
  async recordUsage(subject: UsageSubject, seconds: number, metadata: Record<string, unknown>): Promise<void> {
    if (seconds <= 0) return;
    await this.dependencies.usage.record(subject, 'voice_synthesis_seconds', Math.round(seconds * 1000) / 1000, metadata);
  }

  /**
   * `POST /v1/voice/generate`: the whole text as one audio file (MP3 or WAV at the engine's rate).
   *
   * @example
   * const result = await service.generate(principal, { text: 'Hi there.', voice_id: 'flite-rms' }, 'mp3');
   */
  async generate(principal: Principal, request: GenerateVoiceRequest, format: AudioFormat, signal?: AbortSignal): Promise<GeneratedAudio> {
    const voice = await this.resolveVoice(principal, request.voice_id);
    await this.assertWithinLimit(principal);
    if (request.moderation) await this.moderate(request.text, signal);
    const synthesis = await collectSynthesis(this.synthesize(voice, { text: request.text }, signal));
    if (synthesis.pcm.length === 0) throw new BadRequestError('text: nothing speakable (no letters or digits)');
    const durationSeconds = synthesis.pcm.length / synthesis.sampleRate;
    const audio = await encodeAudio(synthesis.pcm, synthesis.sampleRate, format);
    await this.recordUsage(principal, durationSeconds, { voice: voice.id, characters: request.text.length, source: 'voice.generate' });
    return { audio, contentType: AUDIO_CONTENT_TYPES[format], sampleRate: synthesis.sampleRate, durationSeconds };
  }
}
