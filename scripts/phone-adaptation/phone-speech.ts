/**
 * Phone callers' speech for the phone adaptation (decision 0124): a sentence said by one of the platform's offline
 * voices, through the phone line (8 kHz, G.711 PCMU, the SIP endpoint's decoder and low-pass, `phoneLine`), at the
 * recogniser's 16 kHz.
 */
import { EspeakEngine, FliteEngine, collectSynthesis, phoneLine, resampleLinear, type CorpusVoice } from '@palaver/sdk-core/testing';

const espeak = (id: string, voice: string, rate: number, pitch: number): CorpusVoice => ({
  id,
  selection: { service: 'espeak-ng', voice, _extra: { engine: 'espeak-ng', sample_rate: 22_050, rate, pitch } },
});

/**
 * Voices the transform is estimated from: none of them says anything that is measured (the tuning voices Flite slt
 * and rms and eSpeak en-us at 175/50, the held-out voices Flite awb and kal16 and eSpeak en / en-gb-scotland).
 */
export const TRAINING_VOICES: readonly CorpusVoice[] = [
  { id: 'flite-kal', selection: { service: 'flite', voice: 'kal' } },
  espeak('espeak-en-us-f3', 'en-us+f3', 150, 60),
  espeak('espeak-en-us-m3', 'en-us+m3', 200, 40),
  espeak('espeak-en-029', 'en-029', 170, 50),
  espeak('espeak-en-gb-x-rp-f2', 'en-gb-x-rp+f2', 165, 65),
  espeak('espeak-en-gb-x-gbclan', 'en-gb-x-gbclan', 180, 45),
  espeak('espeak-en-gb-x-gbcwmd-m1', 'en-gb-x-gbcwmd+m1', 155, 35),
  espeak('espeak-en-us-f4', 'en-us+f4', 190, 70),
];

const RATE = 16_000;
let engines: { flite: FliteEngine; espeak: EspeakEngine } | undefined;

async function synthesize(voice: CorpusVoice, text: string): Promise<{ pcm: Int16Array; sampleRate: number }> {
  engines ??= { flite: new FliteEngine(), espeak: new EspeakEngine() };
  const { service, voice: name, _extra } = voice.selection;
  const engine = service === 'flite' ? engines.flite : engines.espeak;
  return collectSynthesis(engine.synthesize({ text, voice: name ?? '', ...(_extra ? { parameters: _extra } : {}) }));
}

/** `text` said by `voice` as a phone caller's speech reaches the recogniser: 16 kHz PCM16. */
export async function phoneUtterance(voice: CorpusVoice, text: string): Promise<Int16Array> {
  const said = await synthesize(voice, text);
  const heard = phoneLine(said.pcm, said.sampleRate);
  return resampleLinear(heard.pcm, heard.sampleRate, RATE);
}

/** `text` said by `voice` as a room participant's speech reaches the recogniser (no phone line): 16 kHz PCM16. */
export async function roomUtterance(voice: CorpusVoice, text: string): Promise<Int16Array> {
  const said = await synthesize(voice, text);
  return resampleLinear(said.pcm, said.sampleRate, RATE);
}

export async function closePhoneSpeech(): Promise<void> {
  await Promise.all([engines?.flite.close(), engines?.espeak.close()]);
  engines = undefined;
}

/** A sentence's words as the dictionary spells them: lower case, no punctuation. */
export function transcriptWords(sentence: string): string[] {
  return sentence
    .toLowerCase()
    .replace(/[^a-z' ]/g, ' ')
    .split(/\s+/)
    .filter(Boolean);
}
