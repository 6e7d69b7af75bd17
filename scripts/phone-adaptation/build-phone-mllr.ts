/**
 * Estimates the MLLR transform that adapts pocketsphinx's 16 kHz `en-us` model to phone callers' speech (decision
 * 0124): the training sentences said by voices no measurement uses (Flite kal, eSpeak NG accents and variants nobody
 * tunes or tests with), each through the phone line (8 kHz, G.711 PCMU, the SIP endpoint's decoder and low-pass) and
 * the recogniser's resampling to 16 kHz, then sphinxtrain's `bw` (counts with the transcripts) and `mllr_solve` (one
 * global transform of the means). Writes `packages/sdk-core/src/server/engines/speech/stt/phone-mllr.ts`.
 *
 * Needs Debian's sphinxtrain, sphinxbase-utils (`sphinx_fe`), pocketsphinx (`pocketsphinx_mdef_convert`) and
 * pocketsphinx-en-us. Run: `pnpm tsx scripts/phone-adaptation/build-phone-mllr.ts` (~1.5 min), then prettier on the
 * file. Two builds agree to ~0.02 per coefficient, not to the byte (decision 0124).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { TRAINING_SENTENCES } from './adaptation-sentences.js';
import { TRAINING_VOICES, closePhoneSpeech, phoneUtterance, transcriptWords } from './phone-speech.js';
import { sendumpToMixtureWeights } from './sendump.js';

const MODEL = '/usr/share/pocketsphinx/model/en-us';
const HMM = join(MODEL, 'en-us');
const SPHINXTRAIN = '/usr/lib/sphinxtrain';
const OUTPUT = fileURLToPath(new URL('../../packages/sdk-core/src/server/engines/speech/stt/phone-mllr.ts', import.meta.url));

/** Runs a tool and returns what it logged (sphinxtrain logs to stderr). */
const run = (command: string, args: string[]) => {
  const result = spawnSync(command, args, { maxBuffer: 256 * 1024 * 1024 });
  const log = `${result.stdout?.toString() ?? ''}${result.stderr?.toString() ?? ''}`;
  if (result.status !== 0) throw new Error(`${command} failed (${result.status ?? result.signal}): ${log.slice(-2000)}`);
  return log;
};

const work = mkdtempSync(join(tmpdir(), 'phone-mllr-'));
try {
  const dictionary = new Set(
    readFileSync(join(MODEL, 'cmudict-en-us.dict'), 'utf8')
      .split('\n')
      .map((line) => line.split(' ')[0]!),
  );
  const ids: string[] = [];
  const transcripts: string[] = [];
  let seconds = 0;
  for (const voice of TRAINING_VOICES) {
    for (const [index, sentence] of TRAINING_SENTENCES.entries()) {
      const words = transcriptWords(sentence);
      const unknown = words.filter((word) => !dictionary.has(word));
      if (unknown.length > 0) throw new Error(`not in the dictionary: ${unknown.join(', ')} ("${sentence}")`);
      const pcm = await phoneUtterance(voice, sentence);
      const id = `${voice.id}-${String(index).padStart(3, '0')}`;
      writeFileSync(join(work, `${id}.raw`), new Uint8Array(pcm.buffer, pcm.byteOffset, pcm.byteLength));
      ids.push(id);
      transcripts.push(`<s> ${words.join(' ')} </s> (${id})`);
      seconds += pcm.length / 16_000;
    }
    console.log(`${voice.id}: ${TRAINING_SENTENCES.length} sentences`);
  }
  writeFileSync(join(work, 'train.fileids'), ids.join('\n') + '\n');
  writeFileSync(join(work, 'train.transcription'), transcripts.join('\n') + '\n');
  console.log(`${ids.length} utterances, ${(seconds / 60).toFixed(1)} minutes of phone speech`);

  // Features as the decoder computes them (the model's feat.params); silence kept, the transcripts' <s> </s> align it.
  run('sphinx_fe', [
    ...['-argfile', join(HMM, 'feat.params'), '-samprate', '16000', '-c', join(work, 'train.fileids')],
    ...['-di', work, '-do', work, '-ei', 'raw', '-eo', 'mfc', '-raw', 'yes', '-input_endian', 'little', '-remove_silence', 'no'],
  ]);
  // bw reads a text model definition and mixture weights; the model ships a binary mdef and quantized weights (sendump).
  run('pocketsphinx_mdef_convert', ['-text', join(HMM, 'mdef'), join(work, 'mdef.txt')]);
  writeFileSync(join(work, 'mixture_weights'), sendumpToMixtureWeights(readFileSync(join(HMM, 'sendump'))));
  const bwLog = run(join(SPHINXTRAIN, 'bw'), [
    ...['-hmmdir', HMM, '-moddeffn', join(work, 'mdef.txt'), '-mixwfn', join(work, 'mixture_weights'), '-ts2cbfn', '.ptm.'],
    ...['-feat', '1s_c_d_dd', '-svspec', '0-12/13-25/26-38', '-cmn', 'batch', '-agc', 'none'],
    ...['-dictfn', join(MODEL, 'cmudict-en-us.dict'), '-fdictfn', join(HMM, 'noisedict')],
    ...['-ctlfn', join(work, 'train.fileids'), '-lsnfn', join(work, 'train.transcription'), '-cepdir', work, '-accumdir', work],
  ]);
  // Utterances bw could not align to their transcript (accents the dictionary does not spell, very fast speech) are left out.
  const ignored = (bwLog.match(/ ignored/g) ?? []).length;
  console.log(`bw aligned ${ids.length - ignored} of ${ids.length} utterances`);
  run(join(SPHINXTRAIN, 'mllr_solve'), [
    ...['-meanfn', join(HMM, 'means'), '-varfn', join(HMM, 'variances'), '-outmllrfn', join(work, 'mllr_matrix'), '-accumdir', work],
  ]);
  const matrix = readFileSync(join(work, 'mllr_matrix'), 'utf8');
  writeFileSync(
    OUTPUT,
    [
      '// Generated by scripts/phone-adaptation/build-phone-mllr.ts (decision 0124); do not edit.',
      `// ${ids.length} utterances (${(seconds / 60).toFixed(1)} min, ${ids.length - ignored} aligned) through the phone line, voices:`,
      `// ${TRAINING_VOICES.map((voice) => voice.id).join(', ')}.`,
      '',
      '/** One global MLLR transform of pocketsphinx en-us means (sphinxtrain `mllr_solve`) for speech that came through G.711. */',
      `export const PHONE_MLLR_MATRIX = ${JSON.stringify(matrix)};`,
      '',
    ].join('\n'),
  );
  console.log(`wrote ${OUTPUT}`);
} finally {
  await closePhoneSpeech();
  if (!process.env.KEEP_WORK) rmSync(work, { recursive: true, force: true });
  else console.log(`work folder kept: ${work}`);
}
