import type { CloneVoiceRequest, Voice } from '../../../contract/voices.js';
import { BadRequestError } from '../../../errors/api-error.js';
import { analyzeVoiceSample, decodeMp3, looksLikeMp3, VoiceAnalysisError } from '../../engines/speech/index.js';
import type { Principal } from '../../kernel/principal.js';
import type { VoiceService } from './voice-service.js';

export interface VoiceCloningOptions {
  /** Largest sample analysed, in bytes (bigger uploads are refused with 400 before decoding). */
  maxBytes: number;
}

/**
 * Longest sample analysed: pitch and rate settle within seconds, and the analysis (YIN on the main
 * thread) costs ~10 ms per second of audio.
 */
export const MAX_CLONE_SECONDS = 120;

/**
 * `POST /v1/voice/clone` without a cloning model: decodes the MP3, measures pitch (YIN median F0) and
 * syllable rate, and stores a project voice (scoped to the caller's human, if any) whose `embeddings`
 * hold the measured profile and whose eSpeak-NG `voice`/`_extra` parameters reproduce that pitch and rate
 * (docs/decisions/0030-offline-speech.md). Nothing is stored when the sample is unusable.
 *
 * @example
 * const voice = await services.voiceCloning.clone(principal, { name: 'Narrator', language: 'en', file });
 */
export class VoiceCloningService {
  constructor(
    private readonly voices: VoiceService,
    private readonly options: VoiceCloningOptions,
  ) {}

  async clone(principal: Principal, request: CloneVoiceRequest): Promise<Voice> {
    const { file } = request;
    if (file.size === 0) throw new BadRequestError('file: the file is empty');
    if (file.size > this.options.maxBytes) {
      throw new BadRequestError(`file: the sample is ${file.size} bytes; the largest accepted is ${this.options.maxBytes} bytes`);
    }
    const type = file.type.toLowerCase();
    if (type !== '' && type !== 'application/octet-stream' && !/^audio\/(mpeg|mp3|mpeg3|x-mpeg|x-mpeg-3)$/.test(type)) {
      throw new BadRequestError(`file: expected an MP3 (audio/mpeg), got ${file.type}`);
    }
    const bytes = new Uint8Array(await file.arrayBuffer());
    if (!looksLikeMp3(bytes)) throw new BadRequestError('file: the file is not an MP3 (no ID3 tag or MPEG frame sync)');
    // Decoding is cheap (~265x real time); the duration check keeps the costlier analysis bounded.
    const decoded = await decodeMp3(bytes).catch((error: Error) => {
      throw new BadRequestError(`file: the MP3 could not be decoded: ${error.message}`, { cause: error });
    });
    const seconds = decoded.pcm.length / decoded.sampleRate;
    if (seconds > MAX_CLONE_SECONDS) {
      throw new BadRequestError(`file: the sample is ${Math.round(seconds)} s long; the longest accepted is ${MAX_CLONE_SECONDS} s`);
    }
    let analysis;
    try {
      analysis = await analyzeVoiceSample(bytes, request.language);
    } catch (error) {
      if (error instanceof VoiceAnalysisError) throw new BadRequestError(`file: ${error.message}`, { cause: error });
      throw error;
    }
    const { synthesis, profile } = analysis;
    return this.voices.createProjectVoice(principal, {
      name: request.name,
      language: request.language.toLowerCase(),
      service: synthesis.service,
      voice: synthesis.voice,
      model: null,
      embeddings: analysis.embeddings,
      preview_url: null,
      tags: ['cloned', 'engine:espeak-ng', profile.medianF0 > 165 ? 'pitch:high' : 'pitch:low'],
      _extra: { ...synthesis._extra, cloned_from: { median_f0_hz: round(profile.medianF0), syllables_per_second: round(profile.syllablesPerSecond) } },
    });
  }
}

function round(value: number): number {
  return Math.round(value * 100) / 100;
}
