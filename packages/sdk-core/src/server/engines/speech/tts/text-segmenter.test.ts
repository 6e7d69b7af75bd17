import { describe, expect, it } from 'vitest';
import { TextSegmenter, textSegments } from './text-segmenter.js';

async function* pieces(values: string[]): AsyncIterable<string> {
  for (const value of values) yield value;
}

describe('TextSegmenter', () => {
  it('cuts at sentence ends confirmed by the following whitespace', () => {
    const segmenter = new TextSegmenter();
    expect(segmenter.push('Hello there. How are')).toEqual(['Hello there.']);
    expect(segmenter.push(' you?')).toEqual([]);
    expect(segmenter.push(' Fine')).toEqual(['How are you?']);
    expect(segmenter.flush()).toEqual(['Fine']);
  });

  it('does not cut decimals, abbreviations or initials', () => {
    // Clause cuts are off here: this is about sentence ends only.
    const segmenter = new TextSegmenter({ firstClauseMinimumCharacters: Number.POSITIVE_INFINITY });
    expect(segmenter.push('It costs 3.')).toEqual([]);
    expect(segmenter.push('5 dollars, says Dr. Smith and J. Doe. Next')).toEqual(['It costs 3.5 dollars, says Dr. Smith and J. Doe.']);
  });

  it('ends an opener at its comma as soon as it arrives (a streamed "Sure,"), but not a number\'s comma', () => {
    const segmenter = new TextSegmenter();
    expect(segmenter.push('Sure,')).toEqual(['Sure,']);
    expect(segmenter.push(' I can help, of course.')).toEqual([]);
    expect(segmenter.flush()).toEqual(['I can help, of course.']);
    const numbers = new TextSegmenter();
    expect(numbers.push('It is 1,')).toEqual([]);
    expect(numbers.push('000 dollars.')).toEqual([]);
  });

  it('lets the first segment end at a long enough clause, later ones only at sentences', () => {
    const segmenter = new TextSegmenter({ firstClauseMinimumCharacters: 10 });
    expect(segmenter.push('Well, after thinking about it, I agree, mostly. ')).toEqual(['Well, after thinking about it,', 'I agree, mostly.']);
  });

  it('cuts over-long text at a space and drops punctuation-only pieces', () => {
    const segmenter = new TextSegmenter({ maximumCharacters: 20 });
    const segments = [...segmenter.push('one two three four five six seven eight nine '), ...segmenter.flush()];
    expect(segments.length).toBeGreaterThan(1);
    expect(segments.every((segment) => segment.length <= 21)).toBe(true);
    expect(segments.join(' ')).toBe('one two three four five six seven eight nine');
    const dots = new TextSegmenter();
    expect([...dots.push('Hello. ... '), ...dots.flush()]).toEqual(['Hello.']);
  });

  it('segments a text stream', async () => {
    const result: string[] = [];
    for await (const segment of textSegments({ textStream: pieces(['Hi', ' there', '! Bye', ' now.']) })) result.push(segment);
    expect(result).toEqual(['Hi there!', 'Bye now.']);
  });

  it('by default speaks a short opening clause on its own, so first audio does not wait for the whole sentence', async () => {
    const segments: string[] = [];
    for await (const segment of textSegments({ text: 'Hello, how can I help you today? Tell me, please.' })) segments.push(segment);
    expect(segments).toEqual(['Hello,', 'how can I help you today?', 'Tell me, please.']);
    const tooShort: string[] = [];
    for await (const segment of textSegments({ text: 'Hi, there you are.' })) tooShort.push(segment);
    expect(tooShort).toEqual(['Hi, there you are.']);
  });
});
