import { describe, expect, it } from 'vitest';
import type { Answer } from '../answering/answer-stream.js';
import { AnswerPreparer, answersTheSame } from './answer-preparer.js';

describe('answersTheSame', () => {
  it('takes words that differ by case, punctuation or an inflection as the same request', () => {
    expect(answersTheSame('what time does the train leave', 'What time does the train leaves?')).toBe(true);
    expect(answersTheSame('i wanted to book a table', 'I want to book a table.')).toBe(true);
    expect(answersTheSame('is it raining', 'is it rain')).toBe(true);
    expect(answersTheSame("what's the weather", "What's the weather?")).toBe(true);
  });

  it('refuses other words, more or fewer words, and inflections of short words', () => {
    expect(answersTheSame('i would lie', 'i would like to book a table')).toBe(false);
    expect(answersTheSame('can you help me', "can't you help me")).toBe(false);
    expect(answersTheSame('near the', 'nearby')).toBe(false);
    expect(answersTheSame('go home', 'goes home')).toBe(false);
    expect(answersTheSame('is it hot', 'is it hotter')).toBe(false);
    expect(answersTheSame('', '')).toBe(true);
    expect(answersTheSame('', '.')).toBe(false);
  });
});

describe('AnswerPreparer', () => {
  const asked: string[] = [];
  const ask = (text: string, signal: AbortSignal): Answer => {
    asked.push(text);
    return { done: new Promise((_resolve, reject) => signal.addEventListener('abort', () => reject(signal.reason))) } as unknown as Answer;
  };

  it('keeps the answer for an inflection of the words, and throws it away for other words or another conversation', () => {
    const preparer = new AnswerPreparer(ask);
    preparer.prepare('what time does the train leave', 1);
    expect(preparer.holds('What time does the train leaves?', 1)).toBe(true);
    expect(preparer.take('What time does the train leaves?', 1)?.text).toBe('what time does the train leave');
    expect(preparer.discarded).toBe(0);
    // The model was asked once: the inflected final reuses the answer asked for the early words.
    expect(asked).toEqual(['what time does the train leave']);

    preparer.prepare('what time does the train leave', 2);
    expect(preparer.take('what time does the bus leave', 2)).toBeUndefined();
    preparer.prepare('what time does the train leave', 2);
    expect(preparer.take('what time does the train leave', 3)).toBeUndefined();
    expect(preparer.discarded).toBe(2);
  });
});
