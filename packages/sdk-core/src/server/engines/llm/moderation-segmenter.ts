import { TextSegmenter } from '../speech/index.js';

/** A completed piece of a streamed answer, ready to be moderated. */
export interface ModerationSentence {
  /** The sentence, trimmed. */
  text: string;
  /**
   * Offset in the whole streamed text just past the sentence and the whitespace known to follow it: text
   * before it is covered by sentences already returned.
   */
  end: number;
}

/** Long sentences are cut at a space after this many characters, so an unpunctuated answer is still released in pieces. */
export const MODERATION_SENTENCE_MAXIMUM_CHARACTERS = 400;

/**
 * Cuts a streamed answer into the sentences it is moderated by, and tells where each ends in the text, so
 * the chunks holding it can be released once it is checked. A sentence ends at `.!?…` confirmed by the
 * whitespace after it (the TTS {@link TextSegmenter}, without its opening-clause rule), at a line break
 * (list items, code), or after 400 characters. `finish()` ends the text (or one run of it: before a tool
 * call) and returns the rest.
 *
 * @example
 * const sentences = new ModerationSegmenter();
 * sentences.push('Hello there. How'); // [{ text: 'Hello there.', end: 13 }]
 * sentences.finish();                 // [{ text: 'How', end: 16 }]
 */
export class ModerationSegmenter {
  // Moderation looks at whole sentences: the TTS segmenter's early cut at an opening clause is disabled.
  private readonly segmenter = new TextSegmenter({
    firstClauseMinimumCharacters: Number.POSITIVE_INFINITY,
    maximumCharacters: MODERATION_SENTENCE_MAXIMUM_CHARACTERS,
  });
  /** Text received and not yet covered by a returned sentence. */
  private unread = '';
  /** Offset of `unread` in the whole text. */
  private unreadStart = 0;

  /** Adds a piece of text; returns the sentences it completed, in order. */
  push(text: string): ModerationSentence[] {
    const sentences: ModerationSentence[] = [];
    for (const piece of text.split(/(?<=\n)/u)) {
      if (piece === '') continue;
      this.unread += piece;
      this.locate(this.segmenter.push(piece), sentences);
      if (piece.endsWith('\n')) this.locate(this.segmenter.flush(), sentences);
    }
    return sentences;
  }

  /** Ends the current text: returns the last sentence, if any; afterwards all text received is covered. */
  finish(): ModerationSentence[] {
    const sentences: ModerationSentence[] = [];
    this.locate(this.segmenter.flush(), sentences);
    this.unreadStart += this.unread.length;
    this.unread = '';
    return sentences;
  }

  /** The offset just past all text received. */
  get received(): number {
    return this.unreadStart + this.unread.length;
  }

  /** Finds each segment in the unread text (it is an exact, trimmed substring of it) and moves past it. */
  private locate(segments: readonly string[], into: ModerationSentence[]): void {
    for (const segment of segments) {
      const at = this.unread.indexOf(segment);
      if (at < 0) {
        // Cannot happen (segments are substrings of what was pushed); if it did, nothing more is covered.
        into.push({ text: segment, end: this.unreadStart });
        continue;
      }
      let end = at + segment.length;
      while (end < this.unread.length && /\s/u.test(this.unread[end]!)) end++;
      into.push({ text: segment, end: this.unreadStart + end });
      this.unread = this.unread.slice(end);
      this.unreadStart += end;
    }
  }
}
