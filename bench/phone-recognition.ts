/**
 * What the offline recogniser makes of phone callers' speech, with and without the phone adaptation (decision 0124),
 * for `pnpm bench telephony` (TELEPHONY_ONLY=recognition): sentences the transform was not estimated from, said by
 * voices it never heard (the held-out and the tuning voices of the turn corpus), through the phone line (G.711 and
 * the SIP endpoint's decoder) and, for the room path, as they are (16 kHz). CPU-independent figures: word error,
 * sentences heard right, the words' confidences and how many finals the end of turn reads as mostly unsure.
 */
import { HELD_OUT_VOICES, PocketsphinxEngine, TUNING_VOICES, turnCorpus, wordErrorRate, type CorpusVoice } from '@palaver/sdk-core/testing';
import { EVALUATION_SENTENCES } from '../scripts/phone-adaptation/adaptation-sentences.js';
import { closePhoneSpeech, phoneUtterance, roomUtterance } from '../scripts/phone-adaptation/phone-speech.js';
import { fixed, median } from './statistics.js';

/** The recogniser's word confidence under which the end of turn calls a word unsure (the server's default). */
const UNSURE_BELOW = 0.5;

interface Utterance {
  voice: string;
  text: string;
  pcm: Int16Array;
}

interface RecognitionFigures {
  wordError: number;
  /** Sentences heard word for word. */
  exact: number;
  utterances: number;
  confidenceP50: number;
  /** Finals whose median word is below UNSURE_BELOW: the end of turn waits its longest "unsure" wait on these. */
  mostlyUnsure: number;
}

/** The sentences measured: the evaluation sentences, the turn corpus's utterances whole, the telephony bench's. */
function measuredSentences(): string[] {
  const corpus = new Map(turnCorpus().items.map((item) => [item.id.split('-')[0], `${item.before} ${item.after}`]));
  const bench = [
    'Please call me tomorrow morning.',
    'I would like to book a table for two.',
    'What time does the train leave?',
    'Where is the nearest pharmacy?',
  ];
  return [...EVALUATION_SENTENCES, ...corpus.values(), ...bench];
}

async function said(voices: readonly CorpusVoice[], path: 'phone' | 'room', sentences: readonly string[]): Promise<Utterance[]> {
  const utterances: Utterance[] = [];
  for (const voice of voices) {
    for (const text of sentences) utterances.push({ voice: voice.id, text, pcm: await (path === 'phone' ? phoneUtterance : roomUtterance)(voice, text) });
  }
  return utterances;
}

/** Decodes every utterance whole: with a room human's decoder, or a phone caller's adapted one (`narrowband`, `phoneAdaptation`). */
export async function recognitionOf(utterances: readonly Utterance[], narrowband: boolean): Promise<RecognitionFigures> {
  const engine = new PocketsphinxEngine({ poolSize: 1, phoneAdaptation: true });
  await engine.warmUp();
  let errors = 0;
  let words = 0;
  let exact = 0;
  let mostlyUnsure = 0;
  const confidences: number[] = [];
  try {
    for (const { text, pcm } of utterances) {
      const session = engine.createSession({ sampleRate: 16_000, narrowband });
      let heardWords: Array<{ confidence: number }> = [];
      session.on('transcript', (event) => {
        if (event.type === 'final') heardWords = event.words ?? [];
      });
      for (let offset = 0; offset < pcm.length; offset += 320) session.push(pcm.subarray(offset, offset + 320));
      const heard = await session.finish();
      session.close();
      const count = text.split(/\s+/).filter(Boolean).length;
      const error = wordErrorRate(text, heard);
      errors += error * count;
      words += count;
      if (error === 0) exact += 1;
      const own = heardWords.map((word) => word.confidence);
      confidences.push(...own);
      if (own.length > 0 && median(own) < UNSURE_BELOW) mostlyUnsure += 1;
    }
  } finally {
    await engine.close();
  }
  return { wordError: errors / words, exact, utterances: utterances.length, confidenceP50: median(confidences), mostlyUnsure };
}

function line(label: string, figures: RecognitionFigures): string {
  const share = (count: number) => `${count}/${figures.utterances}`;
  return `    ${label.padEnd(34)} word error ${fixed(figures.wordError * 100, 1)} %, sentences right ${share(figures.exact)}, word confidence p50 ${fixed(figures.confidenceP50, 2)}, mostly unsure ${share(figures.mostlyUnsure)}`;
}

const DECODERS = [
  ['room decoder (no adaptation)', false],
  ['phone decoder (adapted, 0124)', true],
] as const;

/**
 * The room human's decoder and the phone caller's on phone audio (`TELEPHONY_RECOGNITION_VOICES=held-out` or `tuning`:
 * one group of voices) and, with TELEPHONY_RECOGNITION_ROOM=1, on room audio too.
 */
export async function phoneRecognition(): Promise<void> {
  const sentences = measuredSentences();
  const groups = [
    ['held-out voices', HELD_OUT_VOICES],
    ['tuning voices', TUNING_VOICES],
  ] as const;
  console.log(`\nphone recognition: ${sentences.length} sentences none of which trained the transform, voices it never heard`);
  try {
    for (const [group, voices] of groups.filter(
      ([name]) => !process.env.TELEPHONY_RECOGNITION_VOICES || name.startsWith(process.env.TELEPHONY_RECOGNITION_VOICES),
    )) {
      const phone = await said(voices, 'phone', sentences);
      console.log(`  ${group} (${voices.map((voice) => voice.id).join(', ')}), through G.711 (PCMU) and the SIP endpoint:`);
      for (const [label, narrowband] of DECODERS) console.log(line(label, await recognitionOf(phone, narrowband)));
      if (!process.env.TELEPHONY_RECOGNITION_ROOM) continue;
      const room = await said(voices, 'room', sentences);
      console.log(`  ${group}, room path (16 kHz, no phone line):`);
      for (const [label, narrowband] of DECODERS) console.log(line(label, await recognitionOf(room, narrowband)));
    }
  } finally {
    await closePhoneSpeech();
  }
}
