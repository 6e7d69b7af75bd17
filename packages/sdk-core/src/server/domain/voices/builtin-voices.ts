import type { Voice } from '../../../contract/voices.js';
import { voiceTag } from './voice-tags.js';

/** A voice of the built-in catalog, before it is stored. */
export type BuiltinVoice = Omit<Voice, 'created_at' | 'project' | 'human'> & { id: string };

/** Stable creation time of every built-in, so the catalog sorts the same on every server. */
export const BUILTIN_VOICES_CREATED_AT = '2025-01-01T00:00:00.000Z';

const PRODUCT_NAME = 'palaver-embedded-tts';

interface FliteEntry {
  engineVoice: string;
  name: string;
  gender: 'male' | 'female';
  accent: string;
  sampleRate: number;
}

/** Flite's English voices (see design/speech-stack.md: kal, kal16, awb, rms, slt). */
const FLITE_VOICES: FliteEntry[] = [
  { engineVoice: 'kal', name: 'Kal (8 kHz)', gender: 'male', accent: 'american', sampleRate: 8_000 },
  { engineVoice: 'kal16', name: 'Kal', gender: 'male', accent: 'american', sampleRate: 16_000 },
  { engineVoice: 'awb', name: 'Alan', gender: 'male', accent: 'scottish', sampleRate: 16_000 },
  { engineVoice: 'rms', name: 'Richard', gender: 'male', accent: 'american', sampleRate: 16_000 },
  { engineVoice: 'slt', name: 'Sally', gender: 'female', accent: 'american', sampleRate: 16_000 },
];

interface EspeakEntry {
  language: string;
  /** eSpeak-NG voice (language file) name; it silently keeps the previous voice on an unknown one. */
  engineVoice: string;
  name: string;
  accent?: string;
}

const ESPEAK_VOICES: EspeakEntry[] = [
  { language: 'en-gb', engineVoice: 'en', name: 'English (British, eSpeak)', accent: 'british' },
  { language: 'de', engineVoice: 'de', name: 'German (eSpeak)' },
  { language: 'fr', engineVoice: 'fr', name: 'French (eSpeak)', accent: 'european' },
  { language: 'es', engineVoice: 'es', name: 'Spanish (eSpeak)', accent: 'european' },
  { language: 'it', engineVoice: 'it', name: 'Italian (eSpeak)' },
  { language: 'pt', engineVoice: 'pt', name: 'Portuguese (eSpeak)', accent: 'european' },
  { language: 'nl', engineVoice: 'nl', name: 'Dutch (eSpeak)' },
  { language: 'pl', engineVoice: 'pl', name: 'Polish (eSpeak)' },
  { language: 'ru', engineVoice: 'ru', name: 'Russian (eSpeak)' },
  { language: 'hi', engineVoice: 'hi', name: 'Hindi (eSpeak)' },
  { language: 'cmn', engineVoice: 'cmn', name: 'Mandarin Chinese (eSpeak)' },
  { language: 'ja', engineVoice: 'ja', name: 'Japanese (eSpeak)' },
  { language: 'ar', engineVoice: 'ar', name: 'Arabic (eSpeak)' },
  { language: 'tr', engineVoice: 'tr', name: 'Turkish (eSpeak)' },
  { language: 'sv', engineVoice: 'sv', name: 'Swedish (eSpeak)' },
];

function fliteVoice(entry: FliteEntry): BuiltinVoice {
  const tagNames = [
    `gender:${entry.gender}`,
    `accent:${entry.accent}`,
    'engine:flite',
    entry.sampleRate >= 16_000 ? 'quality:wideband' : 'quality:narrowband',
    'use:conversational',
  ];
  return {
    id: `flite-${entry.engineVoice}`,
    name: entry.name,
    language: 'en',
    tags: tagNames.map(voiceTag),
    pricing: { price_per_second: '0.0001', currency: 'USD', product_name: PRODUCT_NAME },
    service: 'flite',
    model: null,
    voice: entry.engineVoice,
    preview_url: null,
    _extra: { engine: 'flite', sample_rate: entry.sampleRate, duration_stretch: 1 },
  };
}

function espeakVoice(entry: EspeakEntry): BuiltinVoice {
  const tagNames = ['gender:male', ...(entry.accent ? [`accent:${entry.accent}`] : []), 'engine:espeak-ng', 'use:multilingual'];
  return {
    id: `espeak-${entry.language}`,
    name: entry.name,
    language: entry.language,
    tags: tagNames.map(voiceTag),
    pricing: { price_per_second: '0.00005', currency: 'USD', product_name: PRODUCT_NAME },
    service: 'espeak-ng',
    model: null,
    voice: entry.engineVoice,
    preview_url: null,
    _extra: { engine: 'espeak-ng', sample_rate: 22_050, rate: 175, pitch: 50 },
  };
}

/**
 * The voices every project can use without configuration: one per embedded engine voice, with stable ids
 * (`flite-slt`, `espeak-de`...).
 */
export const BUILTIN_VOICES: readonly BuiltinVoice[] = [...FLITE_VOICES.map(fliteVoice), ...ESPEAK_VOICES.map(espeakVoice)];

/** The default voice of the platform (intelligible, wideband, female). */
export const DEFAULT_VOICE_ID = 'flite-slt';
