import { describe, expect, it } from 'vitest';
import { dominantFrequency, sineTone } from './tone-analysis.js';

describe('dominantFrequency', () => {
  it('names the candidate a tone is at, dominant over the others', () => {
    const heard = dominantFrequency(sineTone(440, 8000, 500, 0.3), 8000, [1000, 440, 700]);
    expect(heard.frequency).toBe(440);
    expect(heard.dominance).toBeGreaterThan(10);
  });

  it('answers frequency 0 for silence and for a tone too quiet to hear, whatever the candidates order', () => {
    expect(dominantFrequency(new Int16Array(4000), 8000, [440, 1000]).frequency).toBe(0);
    expect(dominantFrequency(sineTone(440, 8000, 500, 0.001), 8000, [440, 1000]).frequency).toBe(0);
  });
});
