import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { heardConfidence, scoreEndOfTurn, unsureTail } from './end-of-turn-scorer.js';
import { transcriptWords } from './transcript-words.js';
import { DEFAULT_TURN_END, turnEndWait } from './turn-end-policy.js';

/** The turn-taking corpus' texts (the words before each pause, and the whole sentences). */
const corpus = (
  JSON.parse(readFileSync(new URL('../../../../tests/fixtures/turn-corpus/corpus.json', import.meta.url), 'utf8')) as {
    items: Array<{ before: string; after: string }>;
  }
).items;
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

  it('words the recogniser is unsure of at the end do not decide: the turn is judged by the words it is sure of', () => {
    // Posteriors pocketsphinx gave for "I would like to book a table for" (Flite, cut at the pause).
    const heard = [
      { word: 'i', confidence: 0.83 },
      { word: 'would', confidence: 0.99 },
      { word: 'like', confidence: 1 },
      { word: 'to', confidence: 0.79 },
      { word: 'but', confidence: 0.17 },
      { word: 'the', confidence: 0.32 },
      { word: 'cable', confidence: 0.08 },
      { word: 'far', confidence: 0.3 },
    ];
    expect(unsureTail(heard)).toBe(4);
    const text = heard.map(({ word }) => word).join(' ');
    expect(turnEndWait(DEFAULT_TURN_END, text).score.reason).toBe('statement');
    // The sure words stop mid-clause, the unsure ones read finished: the ending is unknown, a middle wait that
    // outlasts most pauses mid-sentence (the corpus' are 300-800 ms, this one 500 ms).
    const judged = turnEndWait(DEFAULT_TURN_END, text, { unsureWords: unsureTail(heard) });
    expect(judged.score).toEqual({ probability: 0.2, reason: 'unsure', unsureWords: 4 });
    expect(judged.waitMs).toBeGreaterThan(800);
    expect(judged.waitMs).toBeLessThan(900);
    // The same for a finished sentence whose last word was misheard ("blue" as "uglier", Flite through pocketsphinx):
    // it no longer waits as long as a continuation.
    expect(turnEndWait(DEFAULT_TURN_END, 'my favorite color is uglier', { unsureWords: 1 }).waitMs).toBe(judged.waitMs);
    expect(turnEndWait(DEFAULT_TURN_END, 'i would like to').waitMs).toBeGreaterThan(1000);
    // Unsure words that themselves stop mid-clause keep the continuation's long wait.
    expect(scoreEndOfTurn('please remind me to calm my', { unsureWords: 2 })).toEqual({ probability: 0.05, reason: 'continuation', unsureWords: 2 });
    // Sure words that read as a likely end or a short start keep their reading.
    expect(scoreEndOfTurn('the reason why colleagues', { unsureWords: 2 })).toMatchObject({ reason: 'short', probability: 0.35 });
    // A finished question whose last word is unsure still reads as a question.
    expect(scoreEndOfTurn('what time does the train leave', { unsureWords: 1 })).toMatchObject({ reason: 'question', probability: 0.95 });
    // Nothing sure at all: in between.
    expect(scoreEndOfTurn('can u it', { unsureWords: 3 })).toMatchObject({ reason: 'empty', probability: 0.5 });
    expect(unsureTail([{ confidence: 0.9 }])).toBe(0);
    expect(unsureTail([])).toBe(0);
  });

  it('words the recogniser was mostly unsure of cannot say the turn ended: a moderate wait, never a shorter one', () => {
    // Posteriors pocketsphinx gave for eSpeak's "Could you help me find a" at a 300 ms pause mid-sentence.
    const heard = [
      { word: 'could', confidence: 0.03 },
      { word: 'you', confidence: 0.48 },
      { word: 'help', confidence: 0.37 },
      { word: 'me', confidence: 0.6 },
      { word: 'find', confidence: 0.87 },
      { word: 'a', confidence: 0.08 },
      { word: 'group', confidence: 0.13 },
    ];
    expect(heardConfidence(heard)).toEqual({ unsureWords: 2, mostlyUnsure: true });
    const text = heard.map(({ word }) => word).join(' ');
    expect(turnEndWait(DEFAULT_TURN_END, text, { unsureWords: 2 }).waitMs).toBeLessThan(250);
    const judged = turnEndWait(DEFAULT_TURN_END, text, heardConfidence(heard));
    expect(judged.score).toEqual({ probability: 0.4, reason: 'unsure', unsureWords: 2 });
    expect(judged.waitMs).toBeGreaterThan(500);
    expect(judged.waitMs).toBeLessThan(650);
    // A reading that already waits longer keeps its wait.
    expect(scoreEndOfTurn('i want to go to', { mostlyUnsure: true })).toMatchObject({ reason: 'continuation', probability: 0.05 });
    // Even counts: the median is the mean of the middle two; no words, nothing to say.
    expect(heardConfidence([{ confidence: 0.3 }, { confidence: 0.6 }])).toEqual({ unsureWords: 0, mostlyUnsure: true });
    expect(heardConfidence([{ confidence: 0.3 }, { confidence: 0.8 }])).toEqual({ unsureWords: 0, mostlyUnsure: false });
    expect(heardConfidence([])).toEqual({ unsureWords: 0, mostlyUnsure: false });
  });

  it('how far the confidences are trusted is a setting: the unsure bar and the cap of a mostly unsure reading', () => {
    // Posteriors pocketsphinx gave for Flite's "Please call me tomorrow morning" through G.711 (a phone call).
    const heard = [0.03, 0.12, 0.35, 0.06, 1].map((confidence) => ({ confidence }));
    const text = 'please call me tomorrow morning';
    expect(heardConfidence(heard)).toEqual({ unsureWords: 0, mostlyUnsure: true });
    expect(heardConfidence(heard, 0.1)).toEqual({ unsureWords: 0, mostlyUnsure: false });
    expect(unsureTail([{ confidence: 0.2 }, { confidence: 0.4 }], 0.3)).toBe(0);
    const server = turnEndWait(DEFAULT_TURN_END, text, heardConfidence(heard));
    expect(server.score).toMatchObject({ reason: 'unsure', probability: 0.4 });
    // A higher cap: the same reading waits less; a lower bar: the words read as the statement they are.
    const capped = turnEndWait({ ...DEFAULT_TURN_END, mostlyUnsureProbability: 0.6 }, text, heardConfidence(heard));
    expect(capped.score).toMatchObject({ reason: 'unsure', probability: 0.6 });
    expect(capped.waitMs).toBeLessThan(server.waitMs);
    const trusted = { ...DEFAULT_TURN_END, unsureWordConfidence: 0.1 };
    expect(turnEndWait(trusted, text, heardConfidence(heard, trusted.unsureWordConfidence)).score.reason).toBe('statement');
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
