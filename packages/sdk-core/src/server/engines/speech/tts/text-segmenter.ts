/** Where text is cut into separately synthesized segments. */
export interface TextSegmenterOptions {
  /** The first segment may end at a clause mark (`,;:`) once it has this many characters. */
  firstClauseMinimumCharacters?: number;
  /** Segments longer than this are cut at the last space. */
  maximumCharacters?: number;
}

/**
 * The first segment may stop at a clause mark once it is this long: an opener such as "Sure," or "Hello," is
 * spoken while the rest of the sentence is synthesized, which is what a listener waits for (decision 0032).
 */
export const FIRST_CLAUSE_MINIMUM_CHARACTERS = 4;

const SENTENCE_END = /[.!?…。！？]["'”’)\]]*$/u;
const CLAUSE_END = /[,;:—–]$/u;
/** Abbreviations whose period is not a sentence end. */
const ABBREVIATIONS = new Set(['mr.', 'mrs.', 'ms.', 'dr.', 'st.', 'prof.', 'vs.', 'e.g.', 'i.e.', 'etc.', 'no.', 'jr.', 'sr.']);

/**
 * Cuts text into speakable segments as it arrives. A boundary is confirmed only by the whitespace that
 * follows it (a streamed "3." may continue as "3.5"), or by the end of the text. The first segment may
 * end at a clause boundary, which gets the first audio out sooner for long opening sentences.
 *
 * @example
 * const segmenter = new TextSegmenter();
 * segmenter.push('Hello there. How are'); // ['Hello there.']
 * segmenter.push(' you?');                // []
 * segmenter.flush();                      // ['How are you?']
 */
export class TextSegmenter {
  private buffer = '';
  private emitted = 0;
  private readonly firstClauseMinimum: number;
  private readonly maximum: number;

  constructor(options: TextSegmenterOptions = {}) {
    this.firstClauseMinimum = options.firstClauseMinimumCharacters ?? FIRST_CLAUSE_MINIMUM_CHARACTERS;
    this.maximum = options.maximumCharacters ?? 400;
  }

  push(text: string): string[] {
    this.buffer += text;
    const segments: string[] = [];
    let start = 0;
    for (let index = 0; index < this.buffer.length; index++) {
      if (!/\s/u.test(this.buffer[index]!)) {
        if (index - start >= this.maximum) {
          const cut = this.buffer.lastIndexOf(' ', index);
          const end = cut > start ? cut : index;
          this.take(segments, start, end);
          start = end;
        }
        continue;
      }
      const candidate = this.buffer.slice(start, index).trimEnd();
      if (this.isBoundary(candidate)) {
        this.take(segments, start, index);
        start = index;
      }
    }
    // The opener ("Sure,") need not wait for the next token: a clause mark right after a letter ends it now.
    const rest = this.buffer.slice(start);
    if (this.emitted === 0 && /\p{L}[,;:]$/u.test(rest) && rest.trim().length >= this.firstClauseMinimum) {
      this.take(segments, start, this.buffer.length);
      start = this.buffer.length;
    }
    this.buffer = this.buffer.slice(start);
    return segments;
  }

  /** Ends the text: whatever is left becomes the last segment. */
  flush(): string[] {
    const rest = this.buffer.trim();
    this.buffer = '';
    if (!rest || !/[\p{L}\p{N}]/u.test(rest)) return [];
    this.emitted++;
    return [rest];
  }

  private isBoundary(candidate: string): boolean {
    if (SENTENCE_END.test(candidate)) {
      const lastWord = candidate.slice(candidate.lastIndexOf(' ') + 1).toLowerCase();
      return !ABBREVIATIONS.has(lastWord) && !/^[a-z]\.$/u.test(lastWord);
    }
    return this.emitted === 0 && candidate.trim().length >= this.firstClauseMinimum && CLAUSE_END.test(candidate);
  }

  private take(segments: string[], start: number, end: number): void {
    const segment = this.buffer.slice(start, end).trim();
    // Punctuation-only pieces ("...") produce no speech; skip them.
    if (segment && /[\p{L}\p{N}]/u.test(segment)) {
      segments.push(segment);
      this.emitted++;
    }
  }
}

/**
 * Segments from a whole text or from a stream of text pieces.
 *
 * @example
 * for await (const sentence of textSegments({ text: 'One. Two.' })) console.log(sentence);
 */
export async function* textSegments(source: { text?: string; textStream?: AsyncIterable<string> }, options?: TextSegmenterOptions): AsyncIterable<string> {
  const segmenter = new TextSegmenter(options);
  if (source.text !== undefined) yield* segmenter.push(source.text);
  if (source.textStream) for await (const piece of source.textStream) yield* segmenter.push(piece);
  yield* segmenter.flush();
}
