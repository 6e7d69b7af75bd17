import { describe, expect, it } from 'vitest';
import { transcriptWords } from './transcript-words.js';

describe('transcriptWords', () => {
  it('keeps words of any script, accents and apostrophes inside words; drops punctuation and recogniser markup', () => {
    expect(transcriptWords('¿Qué hora es?')).toEqual(['qué', 'hora', 'es']);
    expect(transcriptWords('Die Straße, bitte.')).toEqual(['die', 'straße', 'bitte']);
    expect(transcriptWords('Café au lait (2) <sil> [noise]')).toEqual(['café', 'au', 'lait']);
    expect(transcriptWords('Привет, как дела?')).toEqual(['привет', 'как', 'дела']);
    expect(transcriptWords("don't ' stop")).toEqual(["don't", 'stop']);
    expect(transcriptWords('Don\u2019t stop')).toEqual(["don't", 'stop']);
    // Decomposed accents (a letter and a combining mark) stay one word.
    expect(transcriptWords('cafe\u0301 noir')).toEqual(['cafe\u0301', 'noir']);
    expect(transcriptWords('  \t ')).toEqual([]);
  });
});
