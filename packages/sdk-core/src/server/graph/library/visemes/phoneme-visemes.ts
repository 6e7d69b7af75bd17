import type { Viseme } from '../../../../contract/graph/catalogue/visemes.js';
import type { FramePhoneme } from '../../../voice/index.js';

/** Each viseme's phonemes, space-separated, as a lookup from phoneme to viseme. */
function table(groups: Partial<Record<Viseme, string>>): ReadonlyMap<string, Viseme> {
  return new Map(Object.entries(groups).flatMap(([viseme, phonemes]) => phonemes.split(' ').map((phoneme) => [phoneme, viseme as Viseme] as const)));
}

/** Flite's phones (the CMU lexicon's ARPAbet) -> Oculus visemes. */
const ARPABET = table({
  SILENCE: 'pau',
  PP: 'p b m',
  FF: 'f v',
  TH: 'th dh',
  DD: 't d dx',
  KK: 'k g hh',
  CH: 'ch jh sh zh',
  SS: 's z',
  NN: 'n ng l en el',
  RR: 'r er axr',
  AA: 'aa ae ah ax aw ay',
  E: 'eh ey',
  IH: 'ih iy ix y',
  OH: 'ao ow oy',
  OU: 'uh uw w',
});

/** eSpeak-NG's IPA, by a phoneme's first sound (the affricates `tʃ` and `dʒ` as one) -> Oculus visemes. */
const IPA = table({
  PP: 'p b m',
  FF: 'f v',
  TH: 'θ ð',
  DD: 't d ɾ',
  KK: 'k g ɡ h x ʔ',
  CH: 'tʃ dʒ ʃ ʒ',
  SS: 's z',
  NN: 'n ŋ l ɫ',
  RR: 'ɹ r ɜ ɚ ɝ',
  AA: 'a ɑ ɐ æ ʌ ə',
  E: 'e ɛ',
  IH: 'i ɪ j ᵻ',
  OH: 'o ɔ ɒ',
  OU: 'u ʊ w',
});

/**
 * The Oculus viseme of a phoneme of the offline TTS engines: Flite's ARPAbet phones by table, eSpeak-NG's IPA by its
 * first sound (stress and length marks dropped: `ˈoʊ` is `OH`, `ɑːɹ` is `AA`). A pause, and a phoneme the tables do
 * not know, is `SILENCE`. Decision 0110 gives the tables' reasons.
 *
 * @example
 * visemeOf({ phoneme: 'ˈoʊ', alphabet: 'ipa' }); // 'OH'
 * visemeOf({ phoneme: 'f', alphabet: 'arpabet' }); // 'FF'
 */
export function visemeOf(phoneme: Pick<FramePhoneme, 'phoneme' | 'alphabet'>): Viseme {
  if (phoneme.alphabet === 'arpabet') return ARPABET.get(phoneme.phoneme.toLowerCase().replace(/\d/g, '')) ?? 'SILENCE';
  const sounds = [...phoneme.phoneme.replace(/[ˈˌːˑ'",.%=_|]/g, '')];
  if (sounds.length === 0) return 'SILENCE';
  return IPA.get(sounds.slice(0, 2).join('')) ?? IPA.get(sounds[0]!) ?? 'SILENCE';
}
