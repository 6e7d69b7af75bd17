import type { ModerationResult, Moderator } from './moderator.js';

/**
 * The embedded moderator's list: phrases per category, matched case-insensitively on whole words with
 * any run of whitespace or punctuation between words. Deliberately short and explicit (threats and
 * self-harm), so it never flags ordinary speech; deployments that need real moderation configure an
 * OpenAI-compatible endpoint (`PALAVER_SPEECH_MODERATION_URL`).
 */
export const DEFAULT_MODERATION_TERMS: Readonly<Record<string, readonly string[]>> = {
  violence: ['i will kill you', "i'll kill you", 'kill you all', 'i will shoot you', 'i will stab you', 'bomb threat', 'plant a bomb', 'massacre'],
  'self-harm': ['kill myself', 'suicide method', 'how to hurt myself', 'self harm instructions'],
  harassment: ['die in a fire', 'nobody would miss you'],
  illicit: ['how to make a bomb', 'build a pipe bomb', 'make meth at home'],
};

export interface WordListModeratorOptions {
  /** Category -> phrases; defaults to {@link DEFAULT_MODERATION_TERMS}. */
  terms?: Readonly<Record<string, readonly string[]>>;
}

/** Lower-cases and reduces punctuation and whitespace to single spaces, so "Kill   you!" matches "kill you". */
function normalise(text: string): string {
  return ` ${text
    .toLowerCase()
    .replace(/[’‘]/g, "'")
    .replace(/[^\p{L}\p{N}']+/gu, ' ')
    .trim()} `;
}

/**
 * Offline, deterministic moderation by phrase list: flags text containing any listed phrase as a whole
 * word sequence ("skill you" does not match "kill you").
 *
 * @example
 * const moderator = new WordListModerator();
 * await moderator.check('I will kill you'); // { flagged: true, categories: ['violence'] }
 */
export class WordListModerator implements Moderator {
  readonly name = 'word-list';
  private readonly phrases: Array<{ category: string; phrase: string }>;

  constructor(options: WordListModeratorOptions = {}) {
    const terms = options.terms ?? DEFAULT_MODERATION_TERMS;
    this.phrases = Object.entries(terms).flatMap(([category, list]) => list.map((phrase) => ({ category, phrase: normalise(phrase) })));
  }

  async check(text: string): Promise<ModerationResult> {
    const normalised = normalise(text);
    const categories = new Set<string>();
    for (const { category, phrase } of this.phrases) if (normalised.includes(phrase)) categories.add(category);
    return { flagged: categories.size > 0, categories: [...categories] };
  }
}
