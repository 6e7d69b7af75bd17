import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { setPriority, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LibraryHandle } from 'koffi';
import { importOptional } from '../../../kernel/optional-package.js';
import {
  POCKETSPHINX_SAMPLE_RATE,
  type FinalHypothesis,
  type InterimHypothesis,
  type PocketsphinxOptions,
  type UtteranceInput,
  type UtteranceJob,
} from './pocketsphinx-protocol.js';
import { serveJobs } from './worker-runtime.js';

type Koffi = typeof import('koffi').default;

function loadLibrary(koffi: Koffi, path: string): LibraryHandle {
  try {
    return koffi.load(path);
  } catch (error) {
    throw new Error(
      `${path} not found (${error instanceof Error ? error.message.split('\n')[0] : String(error)}); install libpocketsphinx3 and pocketsphinx-en-us`,
    );
  }
}

/** Linux sets a thread's own niceness with setpriority(0): the process' other threads keep theirs. */
function lowerPriority(niceness: number | undefined): void {
  if (!niceness) return;
  try {
    setPriority(niceness);
  } catch {
    // Not permitted here (another OS, a sandbox): the decoder runs at the process' priority.
  }
}

/** The transform as a file for `-mllr` (the library reads only files), removed when the worker exits. */
function mllrFile(matrix: string): string {
  const folder = mkdtempSync(join(tmpdir(), 'palaver-mllr-'));
  const file = join(folder, 'mllr_matrix');
  writeFileSync(file, matrix);
  process.once('exit', () => rmSync(folder, { recursive: true, force: true }));
  return file;
}

serveJobs(async (rawOptions) => {
  const options = rawOptions as PocketsphinxOptions;
  lowerPriority(options.niceness);
  const { default: koffi } = await importOptional('koffi', 'Offline speech recognition (pocketsphinx)', () => import('koffi'));
  const files = {
    hmm: join(options.modelDirectory, 'en-us'),
    lm: join(options.modelDirectory, 'en-us.lm.bin'),
    dict: join(options.modelDirectory, 'cmudict-en-us.dict'),
  };
  for (const file of Object.values(files)) {
    if (!existsSync(file)) throw new Error(`pocketsphinx model file missing: ${file}; install pocketsphinx-en-us`);
  }
  const sphinxbase = loadLibrary(koffi, options.sphinxbaseLibraryPath);
  const pocketsphinx = loadLibrary(koffi, options.libraryPath);
  const psArgs = pocketsphinx.func('void* ps_args()');
  const commandLineInit = sphinxbase.func('void* cmd_ln_init(void* inout, void* defn, int strict, ...)');
  const psInit = pocketsphinx.func('void* ps_init(void* config)');
  const startUtterance = pocketsphinx.func('int ps_start_utt(void* ps)');
  const processRaw = pocketsphinx.func('int ps_process_raw(void* ps, const int16_t* data, size_t n, int no_search, int full_utt)');
  const endUtterance = pocketsphinx.func('int ps_end_utt(void* ps)');
  const getHypothesis = pocketsphinx.func('const char* ps_get_hyp(void* ps, _Out_ int32_t* score)');
  // Word segments of the final hypothesis, with posteriors from the best-path lattice (5prealpha signatures).
  const segmentIterator = pocketsphinx.func('void* ps_seg_iter(void* ps)');
  const nextSegment = pocketsphinx.func('void* ps_seg_next(void* seg)');
  const segmentWord = pocketsphinx.func('const char* ps_seg_word(void* seg)');
  const segmentProbability = pocketsphinx.func('int32_t ps_seg_prob(void* seg, _Out_ int32_t* ascr, _Out_ int32_t* lscr, _Out_ int32_t* lback)');
  const decoderLogmath = pocketsphinx.func('void* ps_get_logmath(void* ps)');
  const logmathExp = sphinxbase.func('double logmath_exp(void* lmath, int32_t logb_p)');

  const argument = (name: string, value: string) => ['str', name, 'str', value];
  // Native pointers (koffi returns them as `any`) are kept as `unknown`: only the library reads them.
  const config: unknown = commandLineInit(
    null,
    psArgs(),
    1,
    ...argument('-hmm', files.hmm),
    ...argument('-lm', files.lm),
    ...argument('-dict', files.dict),
    ...argument('-samprate', String(POCKETSPHINX_SAMPLE_RATE)),
    // The library logs verbosely to stderr; the worker reports what matters itself.
    ...argument('-logfn', '/dev/null'),
    ...Object.entries(options.decoderArguments ?? {}).flatMap(([name, value]) => argument(name, value)),
    ...(options.mllrMatrix ? argument('-mllr', mllrFile(options.mllrMatrix)) : []),
    'void*',
    null,
  );
  if (!config) throw new Error('pocketsphinx rejected its configuration');
  // ~330-800 ms: load the acoustic model and dictionary once and reuse the decoder for every utterance.
  const decoder: unknown = psInit(config);
  if (!decoder) throw new Error('pocketsphinx failed to initialise its decoder');

  const hypothesis = (): string => {
    const score = [0];
    return ((getHypothesis(decoder, score) as string | null) ?? '').trim();
  };

  /** The final hypothesis' words and their posteriors; silences, fillers and sentence marks left out. */
  const wordConfidences = (): FinalHypothesis['words'] => {
    const words: FinalHypothesis['words'] = [];
    const logmath: unknown = decoderLogmath(decoder);
    // ps_seg_next frees the iterator when it returns null.
    for (let segment: unknown = segmentIterator(decoder); segment; segment = nextSegment(segment)) {
      const word = ((segmentWord(segment) as string | null) ?? '').replace(/\(\d+\)$/, '');
      if (word === '' || /^(<.*>|\[.*\]|\+\+.*\+\+)$/.test(word)) continue;
      const probability = logmathExp(logmath, segmentProbability(segment, [0], [0], [0])) as number;
      words.push({ word, confidence: Math.min(1, Math.max(0, probability)) });
    }
    return words;
  };

  return {
    utterance(payload, context) {
      const job = payload as UtteranceJob;
      const interimSamples = Math.max(1, Math.round((job.interimIntervalMs / 1000) * POCKETSPHINX_SAMPLE_RATE));
      if (startUtterance(decoder) < 0) throw new Error('pocketsphinx could not start an utterance');
      let sinceInterim = 0;
      let lastInterim = '';
      return new Promise<FinalHypothesis>((resolve) => {
        const finish = (discard: boolean) => {
          const started = performance.now();
          endUtterance(decoder);
          const text = discard ? '' : hypothesis();
          resolve({ text, words: text === '' ? [] : wordConfidences(), decodeMs: performance.now() - started });
        };
        context.onInput((data) => {
          const input = data as UtteranceInput;
          if (input.type === 'audio') {
            if (context.isCancelled()) return finish(true);
            processRaw(decoder, input.pcm, input.pcm.length, 0, 0);
            sinceInterim += input.pcm.length;
            if (sinceInterim >= interimSamples) {
              sinceInterim = 0;
              const text = hypothesis();
              if (text && text !== lastInterim) {
                lastInterim = text;
                context.emit({ text } satisfies InterimHypothesis);
              }
            }
          } else if (input.type === 'peek') {
            context.emit({ text: hypothesis(), peek: true } satisfies InterimHypothesis);
          } else finish(input.type === 'cancel');
        });
      });
    },
  };
});
