import { describe, expect, it } from 'vitest';
import { lineWords } from './line-words.js';

describe('lineWords', () => {
  it('shows a whole line as said', () => {
    expect(lineWords({ text: 'You said: "hello". I can only repeat what I hear.' })).toBe('You said: "hello". I can only repeat what I hear.');
    expect(lineWords({ text: 'Hello there', interrupted: false })).toBe('Hello there');
  });

  it('ends an interrupted line with an ellipsis and closes the quote it left open', () => {
    expect(lineWords({ text: 'You said: "what is', interrupted: true })).toBe('You said: "what is…"');
    expect(lineWords({ text: 'He said “go on, ', interrupted: true })).toBe('He said “go on…”');
    expect(lineWords({ text: 'Let me tell you a long story about the sea,', interrupted: true })).toBe('Let me tell you a long story about the sea…');
    expect(lineWords({ text: 'You said: "hi". I am the', interrupted: true })).toBe('You said: "hi". I am the…');
  });
});
