/**
 * Search settings of the pocketsphinx decoder (command-line flags of `ps_init`), chosen on the project's corpus
 * (bench/voice-capacity.bench.ts prints word error and CPU per second of speech of both, same run):
 *  - `accurate` (the default): the library's (tree search, then a flat-lexicon pass and a best-path pass at the end).
 *  - `fast`: no flat-lexicon pass, so what is left at the end of speech is the best path over what was already
 *    searched while the human spoke (word error 18.8 -> 20.2 %, CPU per second of speech 0.23 -> 0.20 s on 84
 *    utterances). The best-path pass stays: it gives the words' confidences the end-of-turn scorer reads. Narrower
 *    beams (-beam/-pbeam 1e-45 or 1e-40) halve the CPU but raise the word error to 31 %; -topn 2 or -maxhmmpf 10000
 *    cost accuracy for no measurable gain. The gain of `fast` did not hold on a loaded machine (0.34 vs 0.39 s) and
 *    the voice agent's tests mishear more with it, so it is not the default (decision 0100).
 */
export const POCKETSPHINX_SEARCH = {
  accurate: {},
  fast: { '-fwdflat': 'no' },
} as const satisfies Record<string, Record<string, string>>;

export type PocketsphinxSearch = keyof typeof POCKETSPHINX_SEARCH;
