/**
 * Builds the turn-taking corpus (`packages/sdk-core/tests/fixtures/turn-corpus/`): utterances with a pause
 * inside, each said by a Flite voice and an eSpeak voice of the platform, as 16 kHz mono MP3s (48 kbps; the
 * harness appends the silence after the turn) with `corpus.json` saying where the speech stops and resumes. The files are kept in the repository, so the tests
 * and the bench read the same audio every time; run this again only to change the corpus.
 *
 * Run: `pnpm tsx scripts/build-turn-corpus.ts`.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { collectSynthesis, concatSamples, createTestPlatform, resampleLinear, speechBounds, type TurnCorpusItem } from '@palaver/sdk-core/testing';

const RATE = 16_000;

/** Mid-sentence hesitations: the words before the pause do not finish the sentence. */
const SPLITS: Array<[string, string, number]> = [
  ['I would like to book a table for', 'two people tonight', 500],
  ['Can you tell me about the', 'weather in Paris', 400],
  ['My favourite colour is', 'blue and green', 600],
  ['I need to go to the', 'train station', 350],
  ['Please remind me to call my', 'sister tomorrow', 700],
  ['What is the best way to', 'learn French', 450],
  ['I was thinking that we could', 'meet on Friday', 800],
  ['The reason I am calling is', 'my order is late', 550],
  ['Could you help me find a', 'good restaurant', 300],
  ['I want to buy some apples and', 'a loaf of bread', 650],
  ['Tell me a story about a', 'brave little dog', 500],
  ['How long does it take to', 'drive to London', 400],
  ['I am looking for a hotel near the', 'airport', 750],
  ['Yesterday I went to the shop and', 'bought new shoes', 600],
  ['Um', 'what time is it', 700],
  ['Well I think that', 'it will rain today', 500],
  ['Can I pay with', 'a credit card', 350],
  ['I would like to change my', 'flight to Monday', 800],
];

/** The platform's voices that say the corpus. */
const VOICES = [
  { id: 'flite-slt', voice: { service: 'flite', voice: 'slt' } },
  { id: 'flite-rms', voice: { service: 'flite', voice: 'rms' } },
  { id: 'espeak-en-us', voice: { service: 'espeak-ng', voice: 'en-us' } },
] as const;

const folder = fileURLToPath(new URL('../packages/sdk-core/tests/fixtures/turn-corpus/', import.meta.url));
mkdirSync(folder, { recursive: true });
const platform = await createTestPlatform();
const { tts } = platform.server.services.speech;
const items: TurnCorpusItem[] = [];
try {
  for (const [index, [before, after, pauseMs]] of SPLITS.entries()) {
    // Each text with two of the three voices, alternating, so every voice says a third of the corpus twice.
    for (const voice of [VOICES[index % 2]!, VOICES[2]]) {
      const say = async (text: string) => {
        const { pcm, sampleRate } = await collectSynthesis(tts.synthesize({ voice: voice.voice, text }));
        const at16k = sampleRate === RATE ? pcm : resampleLinear(pcm, sampleRate, RATE);
        return at16k.subarray(0, speechBounds(at16k).last + 1);
      };
      const first = await say(before);
      const second = await say(after);
      const lead = new Int16Array(RATE * 0.2);
      const pause = new Int16Array(Math.round((RATE * pauseMs) / 1000));
      // A short tail so the encoder's padding never clips the last word.
      const pcm = concatSamples([lead, first, pause, second, new Int16Array(RATE * 0.1)]);
      const id = `${String(index + 1).padStart(2, '0')}-${voice.id}`;
      const file = `${id}.mp3`;
      writeFileSync(`${folder}${file}`, platform.server.services.speech.codecs.mp3.encode(pcm, RATE, { bitrateKbps: 48 }));
      const ms = (samples: number) => Math.round((samples / RATE) * 1000);
      items.push({
        id,
        file,
        voice: voice.id,
        before,
        after,
        pauseStartMs: ms(lead.length + first.length),
        resumeMs: ms(lead.length + first.length + pause.length),
        speechEndMs: ms(lead.length + first.length + pause.length + second.length),
      });
    }
  }
  writeFileSync(`${folder}corpus.json`, JSON.stringify({ sampleRate: RATE, items }, null, 2) + '\n');
  console.log(`${items.length} utterances written to ${folder}`);
} finally {
  await platform.close();
}
