import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { scoreEndOfTurn, transcriptWords, unsureTail } from './end-of-turn-scorer.js';
import { DEFAULT_TURN_END, turnEndWait } from './turn-end-policy.js';

/** The turn-taking corpus' texts (the words before each pause, and the whole sentences). */
const corpus = (JSON.parse(readFileSync(new URL('../../../../tests/fixtures/turn-corpus/corpus.json', import.meta.url), 'utf8')) as { items: Array<{ before: string; after: string }> }).items;
const splits = [...new Map(corpus.map((item) => [item.before, item])).values()];
/** What a recogniser gives: lowercase words, no punctuation. */
const asHeard = (text: string) => transcriptWords(text).join(' ');

describe('the end-of-turn scorer and the adaptive wait, on the corpus texts', () => {
  it('every pause of the corpus stops mid-clause: the wait is long enough for the longest pause (800 ms)', () => {
    for (const { before } of splits) {
      const { score, waitMs } = turnEndWait(DEFAULT_TURN_END, asHeard(before));
      expect({ before, reason: score.reason }).toEqual({ before, reason: expect.stringMatching(/continuation|filler/) });
      expect(waitMs).toBeGreaterThan(1000);
    }
  });

  it('every whole sentence of the corpus ends the turn after a short wait', () => {
    for (const { before, after } of splits) {
      const whole = asHeard(`${before} ${after}`);
      const { score, waitMs } = turnEndWait(DEFAULT_TURN_END, whole);
      expect({ whole, reason: score.reason }).toEqual({ whole, reason: expect.stringMatching(/question|statement/) });
      expect(waitMs).toBeLessThanOrEqual(250);
    }
  });

  it('questions, statements, replies, fillers and recogniser markup', () => {
    expect(scoreEndOfTurn('what time does the train leave')).toEqual({ probability: 0.95, reason: 'question' });
    expect(scoreEndOfTurn('Please call me tomorrow morning.')).toEqual({ probability: 0.85, reason: 'statement' });
    expect(scoreEndOfTurn('thank you')).toMatchObject({ reason: 'reply' });
    expect(scoreEndOfTurn('yes')).toMatchObject({ reason: 'reply' });
    expect(scoreEndOfTurn('i mean')).toMatchObject({ reason: 'filler' });
    expect(scoreEndOfTurn('so the thing is um')).toMatchObject({ reason: 'filler' });
    expect(scoreEndOfTurn('pizza [noise] <sil>')).toMatchObject({ reason: 'short' });
    expect(scoreEndOfTurn('')).toEqual({ probability: 0.5, reason: 'empty' });
    expect(transcriptWords("It's <s> fine, [laugh] OK?")).toEqual(["it's", 'fine', 'ok']);
  });

  it("words the recogniser is unsure of at the end do not decide: the turn is judged by the words it is sure of", () => {
    // Posteriors pocketsphinx gave for "I would like to book a table for" (Flite, cut at the pause).
    const heard = [
      { word: 'i', confidence: 0.83 }, { word: 'would', confidence: 0.99 }, { word: 'like', confidence: 1 }, { word: 'to', confidence: 0.79 },
      { word: 'but', confidence: 0.17 }, { word: 'the', confidence: 0.32 }, { word: 'cable', confidence: 0.08 }, { word: 'far', confidence: 0.3 },
    ];
    expect(unsureTail(heard)).toBe(4);
    const text = heard.map(({ word }) => word).join(' ');
    expect(turnEndWait(DEFAULT_TURN_END, text).score.reason).toBe('statement');
    const judged = turnEndWait(DEFAULT_TURN_END, text, { unsureWords: unsureTail(heard) });
    expect(judged.score).toEqual({ probability: 0.05, reason: 'continuation', unsureWords: 4 });
    expect(judged.waitMs).toBeGreaterThan(1000);
    // A finished question whose last word is unsure still reads as a question.
    expect(scoreEndOfTurn('what time does the train leave', { unsureWords: 1 })).toMatchObject({ reason: 'question', probability: 0.95 });
    // Nothing sure at all: in between.
    expect(scoreEndOfTurn('can u it', { unsureWords: 3 })).toMatchObject({ reason: 'empty', probability: 0.5 });
    expect(unsureTail([{ confidence: 0.9 }])).toBe(0);
    expect(unsureTail([])).toBe(0);
  });

  it('the wait stays within the bounds; fixed mode waits the set silence whatever was said', () => {
    const settings = { ...DEFAULT_TURN_END, minWaitMs: 300, maxWaitMs: 900 };
    expect(turnEndWait(settings, 'what is the weather like').waitMs).toBeGreaterThanOrEqual(300);
    expect(turnEndWait(settings, 'i would like to').waitMs).toBeLessThanOrEqual(900);
    expect(turnEndWait({ ...settings, mode: 'fixed', silenceMs: 550 }, 'i would like to').waitMs).toBe(550);
    expect(turnEndWait({ ...settings, mode: 'fixed', silenceMs: 550 }, 'what is the weather like').waitMs).toBe(550);
    // The pause that triggers the reading is the floor of the wait.
    expect(turnEndWait({ ...settings, pauseMs: 400, minWaitMs: 200 }, 'what is the weather like').waitMs).toBeGreaterThanOrEqual(400);
  });
});
