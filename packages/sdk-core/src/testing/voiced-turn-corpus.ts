import { collectSynthesis, resampleLinear, type Speech, type VoiceSelection } from '../server/engines/speech/index.js';
import { speechBounds } from './agent-harness.js';
import { turnCorpus, type TurnCorpusItem } from './turn-corpus.js';

/** A synthetic speaker of the corpus: an engine voice with its parameters. */
export interface CorpusVoice {
  id: string;
  selection: VoiceSelection;
}

const espeak = (id: string, voice: string, rate: number, pitch: number): CorpusVoice => ({
  id,
  selection: { service: 'espeak-ng', voice, _extra: { engine: 'espeak-ng', sample_rate: 22_050, rate, pitch } },
});
const flite = (voice: string): CorpusVoice => ({ id: `flite-${voice}`, selection: { service: 'flite', voice } });

/** The voices of the corpus kept in the repository (Flite slt and rms, eSpeak en-us): turn detection is tuned on these. */
export const TUNING_VOICES: readonly CorpusVoice[] = [flite('slt'), flite('rms'), espeak('espeak-en-us', 'en-us', 175, 50)];
/** Voices nothing was tuned on: other Flite voices, eSpeak's British and Scottish English at other rates and pitches. */
export const HELD_OUT_VOICES: readonly CorpusVoice[] = [
  flite('awb'),
  flite('kal16'),
  espeak('espeak-en-gb-high', 'en', 160, 75),
  espeak('espeak-en-scotland-low', 'en-gb-scotland', 190, 30),
];

const RATE = 16_000;
const LEAD_MS = 300;

/** A voiced corpus: items (with exact pause and end positions) and their audio. */
export interface VoicedTurnCorpus {
  items: TurnCorpusItem[];
  audio(item: TurnCorpusItem): Promise<{ pcm: Int16Array; sampleRate: number }>;
}

/**
 * The corpus's utterances said by other voices: the words before the pause and after it synthesized apart, trimmed
 * to their speech and joined with the corpus's pause (300-800 ms) between them, after 300 ms of silence.
 *
 * @example
 * const heldOut = await voicedTurnCorpus(speech, HELD_OUT_VOICES);
 * const outcomes = await runTurnCorpus(speech, DEFAULT_TURN_DETECTION, { items: heldOut.items, audio: heldOut.audio });
 */
export async function voicedTurnCorpus(speech: Pick<Speech, 'tts'>, voices: readonly CorpusVoice[]): Promise<VoicedTurnCorpus> {
  const sentences = new Map<string, TurnCorpusItem>();
  for (const item of turnCorpus().items) {
    const number = item.id.split('-')[0]!;
    if (!sentences.has(number)) sentences.set(number, item);
  }
  const audio = new Map<string, Int16Array>();
  const items: TurnCorpusItem[] = [];
  for (const voice of voices) {
    for (const [number, sentence] of sentences) {
      const before = await spoken(speech, voice, sentence.before);
      const after = await spoken(speech, voice, sentence.after);
      const pauseMs = sentence.resumeMs - sentence.pauseStartMs;
      const samples = (ms: number) => Math.round((ms / 1000) * RATE);
      const pcm = new Int16Array(samples(LEAD_MS) + before.length + samples(pauseMs) + after.length);
      pcm.set(before, samples(LEAD_MS));
      pcm.set(after, samples(LEAD_MS) + before.length + samples(pauseMs));
      const pauseStartMs = LEAD_MS + (before.length / RATE) * 1000;
      const item: TurnCorpusItem = {
        id: `${number}-${voice.id}`,
        file: '',
        voice: voice.id,
        before: sentence.before,
        after: sentence.after,
        pauseStartMs: Math.round(pauseStartMs),
        resumeMs: Math.round(pauseStartMs + pauseMs),
        speechEndMs: Math.round(pauseStartMs + pauseMs + (after.length / RATE) * 1000),
      };
      audio.set(item.id, pcm);
      items.push(item);
    }
  }
  return { items, audio: async (item) => ({ pcm: audio.get(item.id)!, sampleRate: RATE }) };
}

/** `text` in `voice` at 16 kHz, trimmed to its speech. */
async function spoken(speech: Pick<Speech, 'tts'>, voice: CorpusVoice, text: string): Promise<Int16Array> {
  const { pcm, sampleRate } = await collectSynthesis(speech.tts.synthesize({ voice: voice.selection, text }));
  const resampled = resampleLinear(pcm, sampleRate, RATE);
  const { first, last } = speechBounds(resampled);
  return resampled.slice(first, last + 1);
}
