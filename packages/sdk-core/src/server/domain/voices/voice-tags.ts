import type { VoiceTag } from '../../../contract/voices.js';

/** Display names of the tags the built-in catalog uses. */
const KNOWN_TAGS: Record<string, string> = {
  'gender:male': 'Male',
  'gender:female': 'Female',
  'accent:american': 'American',
  'accent:british': 'British',
  'accent:scottish': 'Scottish',
  'accent:brazilian': 'Brazilian',
  'accent:european': 'European',
  'engine:flite': 'Flite',
  'engine:espeak-ng': 'eSpeak NG',
  'quality:wideband': 'Wideband (16 kHz)',
  'quality:narrowband': 'Narrowband (8 kHz)',
  'use:conversational': 'Conversational',
  'use:multilingual': 'Multilingual',
};

/**
 * The `human_name` of a tag: a known display name, else the part after the last `:`, spaced and capitalised.
 *
 * @example
 * voiceTag('gender:female') // { name: 'gender:female', human_name: 'Female' }
 * voiceTag('mood:calm-warm') // { name: 'mood:calm-warm', human_name: 'Calm warm' }
 */
export function voiceTag(name: string): VoiceTag {
  const known = KNOWN_TAGS[name];
  if (known !== undefined) return { name, human_name: known };
  const words = (name.split(':').at(-1) ?? name).replace(/[-.]+/g, ' ').trim() || name;
  return { name, human_name: words.charAt(0).toUpperCase() + words.slice(1) };
}
