import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DEFAULT_TURN_DETECTION,
  createTestPlatform,
  phoneLine,
  runTurnCorpus,
  turnCorpus,
  type TestPlatform,
  type TurnCorpusItem,
  type TurnCorpusOutcome,
} from '../../src/testing.js';
import { pocketsphinxAvailable } from '../speech/speech-test-support.js';

const describeOutcome = (outcome: TurnCorpusOutcome) =>
  `${outcome.item.id}: ${outcome.premature ? 'cut in' : 'waited'} (${outcome.texts.map((text) => `"${text}"`).join(' + ')}; pauses ${outcome.pauses.map((pause) => `${pause.reason} ${pause.waitMs} ms`).join(', ')})`;

describe.skipIf(!pocketsphinxAvailable())('turn taking on phone audio: the corpus through G.711 and the SIP endpoint, real VAD and STT', () => {
  let platform: TestPlatform;
  beforeAll(async () => {
    platform = await createTestPlatform();
  });
  afterAll(async () => platform?.close());

  // The turn detection a phone caller gets is the server's: no setting tried on phone audio cut into fewer pauses
  // (decision 0107; `pnpm bench telephony` with TELEPHONY_ONLY=turns). Which turns end where, not how fast.
  it("a phone caller's mid-sentence pause is waited through, though the recogniser mishears most narrowband words", async () => {
    const corpus = turnCorpus();
    const speech = platform.server.services.speech;
    // The Flite utterances whose words before the pause stop mid-clause, pauses of 300-700 ms (the issue's range).
    const items = corpus.items.filter((item) => item.voice.startsWith('flite') && item.resumeMs - item.pauseStartMs <= 700);
    expect(items.length).toBeGreaterThanOrEqual(10);
    const audio = async (item: TurnCorpusItem) => {
      const file = await speech.codecs.mp3.decode(readFileSync(`${corpus.folder}${item.file}`));
      return phoneLine(file.pcm, file.sampleRate);
    };
    const phone = DEFAULT_TURN_DETECTION;
    // One utterance first, not counted: the STT workers start with it.
    await runTurnCorpus(speech, phone, { items: items.slice(0, 1), audio, concurrency: 1 });
    const outcomes = await runTurnCorpus(speech, phone, { items, audio, concurrency: 2 });
    console.log(['phone audio:', ...outcomes.map(describeOutcome)].join('\n  '));
    // Waited through deliberately: the words read as unfinished (1.1 s), an unsure ending (840 ms) or mostly misheard
    // (560 ms). A pause read as a finished statement (223 ms) that the caller still spoke through was not waited for:
    // the recogniser's final came after they resumed, which depends on the machine's load, so it counts with the cut-ins.
    const deliberate = (outcome: TurnCorpusOutcome) => !outcome.premature && Math.max(...outcome.pauses.map((pause) => pause.waitMs)) >= 560;
    const notWaitedFor = outcomes.filter((outcome) => !deliberate(outcome));
    // The recogniser mishears most narrowband speech, so a garbled reading of the words before a pause can pass for a
    // finished sentence ("i would like to take a lot harder"): 2-3 of these 15 were cut into in runs on a loaded
    // machine (decision 0107). Most pauses are waited through, each for what its words read as.
    expect(notWaitedFor.length, notWaitedFor.map(describeOutcome).join('; ')).toBeLessThanOrEqual(Math.floor(items.length / 3));
    for (const outcome of outcomes.filter((candidate) => !candidate.premature)) {
      expect(outcome.turns, describeOutcome(outcome)).toBe(1);
      expect(outcome.resumptions, describeOutcome(outcome)).toBeGreaterThanOrEqual(1);
    }
  }, 180_000);
});
