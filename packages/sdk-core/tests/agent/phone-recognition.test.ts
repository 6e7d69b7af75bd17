import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DEFAULT_TURN_DETECTION,
  createTestPlatform,
  EspeakEngine,
  FliteEngine,
  HELD_OUT_VOICES,
  PocketsphinxEngine,
  collectSynthesis,
  phoneLine,
  runTurnCorpus,
  turnCorpus,
  wordErrorRate,
  type CorpusVoice,
  type TtsEngine,
  type TurnCorpusItem,
} from '../../src/testing.js';
import { createSpeech } from '../../src/server/engines/speech/create-speech.js';
import { PHONE_MLLR_MATRIX } from '../../src/server/engines/speech/stt/phone-mllr.js';
import type { SttEngine, SttSessionOptions } from '../../src/server/engines/speech/stt/stt-engine.js';
import { pocketsphinxAvailable } from '../speech/speech-test-support.js';

/**
 * Sentences of decision 0124's evaluation (`scripts/phone-adaptation/adaptation-sentences.ts`): the transform was
 * estimated from other sentences said by other voices (Flite kal, eSpeak accents and variants), so these say how it
 * does on phone speech it never heard.
 */
const HELD_OUT_SENTENCES = [
  'Can you tell me how much the repair will cost?',
  'I would like to cancel my gym membership.',
  'Is there a pharmacy open late tonight?',
  'Please call my mobile rather than the landline.',
];

/** Reference words the recogniser heard (each counted once), lower case. */
function wordsHeard(reference: string, heard: string): string[] {
  const said = new Set(heard.toLowerCase().split(/\s+/));
  return [
    ...new Set(
      reference
        .toLowerCase()
        .replace(/[^a-z' ]/g, ' ')
        .split(/\s+/),
    ),
  ].filter((word) => word && said.has(word));
}

describe.skipIf(!pocketsphinxAvailable())("a phone caller's recogniser: the offline model adapted to narrowband speech (decision 0124)", () => {
  const stt = new PocketsphinxEngine({ poolSize: 1, phoneAdaptation: true });
  const engines: Record<string, TtsEngine> = { flite: new FliteEngine(), 'espeak-ng': new EspeakEngine() };
  afterAll(() => Promise.all([stt.close(), ...Object.values(engines).map((engine) => engine.close())]));
  // Both decoders loaded first (~0.5-1 s each): a cold one would miss the corpus harness's wait for the last final.
  beforeAll(() => Promise.all([stt.warmUp(), stt.warmUp({ narrowband: true })]));

  /** What `voice` saying `text` becomes through the phone line (G.711 PCMU, the SIP endpoint's decoder): 48 kHz. */
  const phoneSpeech = async (voice: CorpusVoice, text: string) => {
    const { service, voice: name, _extra } = voice.selection;
    const said = await collectSynthesis(engines[String(service)]!.synthesize({ text, voice: name ?? '', ...(_extra ? { parameters: _extra } : {}) }));
    return phoneLine(said.pcm, said.sampleRate).pcm;
  };
  const recognise = async (pcm: Int16Array, narrowband: boolean) => {
    const session = stt.createSession({ sampleRate: 48_000, narrowband });
    for (let offset = 0; offset < pcm.length; offset += 960) session.push(pcm.subarray(offset, offset + 960));
    const text = await session.finish();
    session.close();
    return text;
  };

  it('decodes narrowband sessions with the phone transform and room sessions without it', () => {
    expect(PHONE_MLLR_MATRIX).toMatch(/^1\n3\n13\n/);
    expect(stt.decoderSettings.mllrMatrix).toBeUndefined();
    expect(stt.narrowbandEngine().decoderSettings.mllrMatrix).toBe(PHONE_MLLR_MATRIX);
    // Everything else is the room decoder's: the same model, dictionary, language model and search.
    const { mllrMatrix, ...phone } = stt.narrowbandEngine().decoderSettings;
    expect(mllrMatrix).toBeDefined();
    expect(phone).toEqual(stt.decoderSettings);
    // Without phoneAdaptation (the default), phone callers are heard by the room decoders.
    const plain = new PocketsphinxEngine();
    expect(plain.narrowbandEngine()).toBe(plain);
  });

  it("the server's phoneAdaptation setting: off by default (phone callers get the room decoder), on gives them the adapted one", async () => {
    for (const [phoneAdaptation, adapted] of [
      [undefined, false],
      [true, true],
    ] as const) {
      const speech = createSpeech({ stt: { provider: 'pocketsphinx', pocketsphinx: phoneAdaptation === undefined ? {} : { phoneAdaptation } } });
      const engine = speech.stt as PocketsphinxEngine;
      expect(engine.narrowbandEngine().decoderSettings.mllrMatrix === PHONE_MLLR_MATRIX).toBe(adapted);
      await speech.close();
    }
  });

  it('hears more of held-out phone utterances (voices and sentences it was not estimated from) than the room decoder', async () => {
    const voices = [HELD_OUT_VOICES.find((voice) => voice.id === 'flite-awb')!, HELD_OUT_VOICES.find((voice) => voice.id === 'espeak-en-scotland-low')!];
    let room = 0;
    let phone = 0;
    let words = 0;
    const lines: string[] = [];
    for (const voice of voices) {
      for (const sentence of HELD_OUT_SENTENCES) {
        const pcm = await phoneSpeech(voice, sentence);
        const [asRoom, asPhone] = [await recognise(pcm, false), await recognise(pcm, true)];
        room += wordsHeard(sentence, asRoom).length;
        phone += wordsHeard(sentence, asPhone).length;
        words += wordsHeard(sentence, sentence).length;
        lines.push(
          `${voice.id} "${sentence}": room decoder "${asRoom}" (${wordErrorRate(sentence, asRoom).toFixed(2)}), phone "${asPhone}" (${wordErrorRate(sentence, asPhone).toFixed(2)})`,
        );
      }
    }
    console.log(['held-out phone utterances:', ...lines, `words heard: room decoder ${room}/${words}, phone decoder ${phone}/${words}`].join('\n  '));
    expect(phone, lines.join('\n')).toBeGreaterThan(room);
    expect(phone, lines.join('\n')).toBeGreaterThanOrEqual(Math.ceil(words / 2));
  }, 240_000);

  it("a phone caller's listener asks for the narrowband recogniser, a room human's does not", async () => {
    const platform = await createTestPlatform();
    try {
      const asked: Array<SttSessionOptions['narrowband']> = [];
      // The real engine, with what each listener asked of it written down.
      const recording: SttEngine = {
        provider: stt.provider,
        status: () => stt.status(),
        warmUp: (options) => stt.warmUp(options),
        createSession: (options) => {
          asked.push(options.narrowband);
          return stt.createSession(options);
        },
        close: async () => undefined,
      };
      const { vad, codecs } = platform.server.services.speech;
      const speech = { vad: () => vad(), codecs, stt: recording };
      const corpus = turnCorpus();
      const items = corpus.items.filter((item) => item.voice.startsWith('flite')).slice(0, 1);
      const audio = async (item: TurnCorpusItem) => {
        const file = await codecs.mp3.decode(readFileSync(`${corpus.folder}${item.file}`));
        return phoneLine(file.pcm, file.sampleRate);
      };
      const [caller] = await runTurnCorpus(speech, DEFAULT_TURN_DETECTION, { items, audio, participantKind: 'sip', concurrency: 1 });
      expect(asked.length).toBeGreaterThanOrEqual(1);
      expect(new Set(asked)).toEqual(new Set([true]));
      expect(caller!.texts.join(' ')).not.toBe('');
      asked.length = 0;
      await runTurnCorpus(speech, DEFAULT_TURN_DETECTION, { items, concurrency: 1 });
      expect(asked.length).toBeGreaterThanOrEqual(1);
      expect(new Set(asked)).toEqual(new Set([false]));
    } finally {
      await platform.close();
    }
  }, 120_000);
});
