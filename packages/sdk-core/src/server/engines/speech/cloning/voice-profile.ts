import { decodeMp3, looksLikeMp3 } from '../codecs/mp3.js';
import { int16ToFloat32 } from '../codecs/pcm.js';
import { resampleHighQuality } from '../codecs/resample.js';
import { ESPEAK_F3_PITCH_CURVE, ESPEAK_PITCH_CURVE, ESPEAK_RATE_CURVE, F3_VARIANT_THRESHOLD_HZ, parameterFor } from './espeak-calibration.js';
import { quantile, trackPitch } from './pitch-tracker.js';
import { estimateSyllableRate } from './syllable-rate.js';

/** What was measured in a voice sample. */
export interface VoiceProfile {
  medianF0: number;
  f0Low: number;
  f0High: number;
  syllablesPerSecond: number;
  /** Share of analysed frames that were voiced. */
  voicedFraction: number;
  durationSeconds: number;
}

/** Catalog fields that make the embedded synthesizer speak like the sample. */
export interface CloneSynthesisConfig {
  service: 'espeak-ng';
  voice: string;
  _extra: { engine: 'espeak-ng'; pitch: number; rate: number; range: number; sample_rate: number };
}

export interface VoiceAnalysis {
  profile: VoiceProfile;
  /** The profile as the voice's `embeddings`: see {@link PROFILE_EMBEDDING_LAYOUT}. */
  embeddings: number[];
  synthesis: CloneSynthesisConfig;
}

/** Order of the numbers in a cloned voice's `embeddings` (version first, so the layout can change). */
export const PROFILE_EMBEDDING_LAYOUT = [
  'version',
  'median_f0_hz',
  'f0_p10_hz',
  'f0_p90_hz',
  'syllables_per_second',
  'voiced_fraction',
  'duration_seconds',
] as const;
const PROFILE_VERSION = 1;

/** The sample cannot be used (not MP3, silent, too short); the message is fit for a 400 response. */
export class VoiceAnalysisError extends Error {
  override name = 'VoiceAnalysisError';
}

const ANALYSIS_RATE = 16_000;
const MINIMUM_VOICED_FRAMES = 20;

/**
 * Measures pitch and speaking rate of PCM speech.
 *
 * @example
 * const profile = await measureVoice(pcm, 22050);
 */
export async function measureVoice(pcm: Int16Array, sampleRate: number): Promise<VoiceProfile> {
  const samples = int16ToFloat32(await resampleHighQuality(pcm, sampleRate, ANALYSIS_RATE));
  const track = trackPitch(samples, ANALYSIS_RATE);
  if (track.voicedF0.length < MINIMUM_VOICED_FRAMES) {
    throw new VoiceAnalysisError('the sample contains too little voiced speech to analyse (need ~0.2 s or more)');
  }
  const rate = estimateSyllableRate(samples, ANALYSIS_RATE);
  return {
    medianF0: quantile(track.voicedF0, 0.5),
    f0Low: quantile(track.voicedF0, 0.1),
    f0High: quantile(track.voicedF0, 0.9),
    syllablesPerSecond: rate.syllablesPerSecond,
    voicedFraction: track.voicedF0.length / Math.max(1, track.frameCount),
    durationSeconds: pcm.length / sampleRate,
  };
}

/**
 * eSpeak voice name for a language code (`en` speaks American English; `en-gb` is eSpeak's `en`).
 *
 * @example
 * espeakVoiceForLanguage('en'); // 'en-us'
 */
export function espeakVoiceForLanguage(language: string): string {
  const code = language.toLowerCase();
  if (code === 'en' || code === 'en-us') return 'en-us';
  if (code === 'en-gb' || code === 'en-uk') return 'en';
  return code;
}

/**
 * Maps a measured profile onto eSpeak-NG parameters through the calibration curves.
 *
 * @example
 * synthesisConfigFor({ medianF0: 210, syllablesPerSecond: 5, ... }, 'en').voice; // 'en-us+f3'
 */
export function synthesisConfigFor(profile: VoiceProfile, language: string): CloneSynthesisConfig {
  const high = profile.medianF0 > F3_VARIANT_THRESHOLD_HZ;
  const pitch = parameterFor(high ? ESPEAK_F3_PITCH_CURVE : ESPEAK_PITCH_CURVE, profile.medianF0);
  const rate = profile.syllablesPerSecond > 0 ? parameterFor(ESPEAK_RATE_CURVE, profile.syllablesPerSecond) : 175;
  // The calibration holds at range 50 only (range shifts the median F0 too), so it stays there.
  const range = 50;
  const base = espeakVoiceForLanguage(language);
  return {
    service: 'espeak-ng',
    voice: high ? `${base}+f3` : base,
    _extra: {
      engine: 'espeak-ng',
      pitch: Math.round(Math.min(99, Math.max(0, pitch))),
      rate: Math.round(Math.min(450, Math.max(80, rate))),
      range: Math.round(Math.min(99, Math.max(0, range))),
      sample_rate: 22_050,
    },
  };
}

/**
 * Analyses an uploaded MP3 voice sample: decode, measure, map to synthesis parameters.
 * Throws {@link VoiceAnalysisError} for unusable input.
 *
 * @example
 * const { embeddings, synthesis } = await analyzeVoiceSample(mp3Bytes, 'en');
 */
export async function analyzeVoiceSample(mp3: Uint8Array, language: string): Promise<VoiceAnalysis> {
  if (mp3.length === 0) throw new VoiceAnalysisError('the file is empty');
  if (!looksLikeMp3(mp3)) throw new VoiceAnalysisError('the file is not an MP3');
  let decoded;
  try {
    decoded = await decodeMp3(mp3);
  } catch (error) {
    throw new VoiceAnalysisError(`the MP3 could not be decoded: ${error instanceof Error ? error.message : String(error)}`);
  }
  const profile = await measureVoice(decoded.pcm, decoded.sampleRate);
  return {
    profile,
    embeddings: [
      PROFILE_VERSION,
      profile.medianF0,
      profile.f0Low,
      profile.f0High,
      profile.syllablesPerSecond,
      profile.voicedFraction,
      profile.durationSeconds,
    ].map((value) => Math.round(value * 1000) / 1000),
    synthesis: synthesisConfigFor(profile, language),
  };
}
