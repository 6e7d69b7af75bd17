// Word error and decoding cost of pocketsphinx settings (voice-capacity.bench.ts): the turn-taking corpus (Flite and
// eSpeak voices, mp3) and the bench sentences in three Flite voices, each decoded whole, one at a time.
import { readFileSync } from 'node:fs';
import { FliteEngine, PocketsphinxEngine, collectSynthesis, resampleLinear, turnCorpus, wordErrorRate, decodeMp3 } from '@palaver/sdk-core/testing';

export interface SpokenText {
  text: string;
  pcm: Int16Array;
  sampleRate: number;
}

/** The corpus' utterances and `sentences` said by Flite's slt, rms and kal16 voices. */
export async function spokenTexts(sentences: readonly string[]): Promise<SpokenText[]> {
  const corpus = turnCorpus();
  const spoken: SpokenText[] = [];
  for (const item of corpus.items) {
    const decoded = await decodeMp3(readFileSync(`${corpus.folder}${item.file}`));
    spoken.push({ text: `${item.before} ${item.after}`, pcm: decoded.pcm, sampleRate: decoded.sampleRate });
  }
  const flite = new FliteEngine();
  for (const voice of ['slt', 'rms', 'kal16']) {
    for (const text of sentences) spoken.push({ text, ...(await collectSynthesis(flite.synthesize({ text, voice }))) });
  }
  await flite.close();
  return spoken;
}

export interface WordErrorFigures {
  /** Word errors over reference words, all utterances together. */
  wordError: number;
  utterances: number;
  /** CPU seconds of the process (the decoder's thread above all) per second of speech, audio pushed as fast as it goes. */
  cpuPerAudioSecond: number;
}

/** Decodes every utterance with a decoder of `options` and counts the word errors. */
export async function wordErrorOf(spoken: readonly SpokenText[], options: ConstructorParameters<typeof PocketsphinxEngine>[0]): Promise<WordErrorFigures> {
  const engine = new PocketsphinxEngine({ ...options, poolSize: 1 });
  await engine.warmUp();
  let errors = 0;
  let words = 0;
  let audioSeconds = 0;
  const cpu = process.cpuUsage();
  for (const { text, pcm, sampleRate } of spoken) {
    const samples = resampleLinear(pcm, sampleRate, 16_000);
    const session = engine.createSession({ sampleRate: 16_000 });
    for (let offset = 0; offset < samples.length; offset += 320) session.push(samples.subarray(offset, offset + 320));
    const heard = await session.finish();
    audioSeconds += samples.length / 16_000;
    session.close();
    const count = text.split(/\s+/).filter(Boolean).length;
    errors += wordErrorRate(text, heard) * count;
    words += count;
  }
  const used = process.cpuUsage(cpu);
  await engine.close();
  return { wordError: errors / words, utterances: spoken.length, cpuPerAudioSecond: (used.user + used.system) / 1e6 / audioSeconds };
}
