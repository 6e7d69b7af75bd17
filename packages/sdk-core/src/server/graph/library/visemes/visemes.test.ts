import { describe, expect, it } from 'vitest';
import { VISEMES } from '../../../../contract/graph/catalogue/visemes.js';
import { clientPadValue } from '../../../../contract/graph/pad-values.js';
import { visemeOf } from './phoneme-visemes.js';
import { VisemeSchedule, type ScheduleClock } from './viseme-schedule.js';

function manualClock(): ScheduleClock & { advance(ms: number): void } {
  let now = 0;
  let timers: Array<{ at: number; callback: () => void; handle: object }> = [];
  return {
    now: () => now,
    set(callback, ms) {
      const handle = {};
      timers.push({ at: now + ms, callback, handle });
      return handle;
    },
    clear(handle) {
      timers = timers.filter((timer) => timer.handle !== handle);
    },
    advance(ms) {
      const until = now + ms;
      for (;;) {
        const next = timers.filter((timer) => timer.at <= until).sort((a, b) => a.at - b.at)[0];
        if (!next) break;
        timers = timers.filter((timer) => timer !== next);
        now = next.at;
        next.callback();
      }
      now = until;
    },
  };
}

/** A mono 48 kHz frame of `ms`. */
const frame = (ms: number) => ({ samples: new Int16Array((48_000 * ms) / 1000), sampleRate: 48_000, channels: 1 });
const arpabet = (phoneme: string, offsetMs: number, durationMs: number) => ({ phoneme, alphabet: 'arpabet' as const, offsetMs, durationMs });

describe('phonemes to visemes (Oculus 15)', () => {
  it("maps Flite's ARPAbet phones", () => {
    const phones = 'pau hh ax l ow w er l d pau'.split(' ');
    expect(phones.map((phoneme) => visemeOf({ phoneme, alphabet: 'arpabet' }))).toEqual(['SILENCE', 'KK', 'AA', 'NN', 'OH', 'OU', 'RR', 'NN', 'DD', 'SILENCE']);
    expect(['p', 'f', 'th', 'ch', 's', 'eh', 'iy', 'uw'].map((phoneme) => visemeOf({ phoneme, alphabet: 'arpabet' }))).toEqual([
      'PP',
      'FF',
      'TH',
      'CH',
      'SS',
      'E',
      'IH',
      'OU',
    ]);
  });

  it("maps eSpeak-NG's IPA by its first sound, stress and length dropped; pauses and unknown symbols are SILENCE", () => {
    const phonemes = ['h', 'ə', 'l', 'ˈoʊ', 'w', 'ˈɜː', 'l', 'd', '', 'tʃ', 'dʒ', 'θ', 'ɑːɹ', 'ˈɛ', 'ɪ', 'ʊ', '¿'];
    expect(phonemes.map((phoneme) => visemeOf({ phoneme, alphabet: 'ipa' }))).toEqual([
      'KK',
      'AA',
      'NN',
      'OH',
      'OU',
      'RR',
      'NN',
      'DD',
      'SILENCE',
      'CH',
      'CH',
      'TH',
      'AA',
      'E',
      'IH',
      'OU',
      'SILENCE',
    ]);
  });

  it('uses the Oculus order: a viseme index is its Oculus id', () => {
    expect(VISEMES.indexOf('SILENCE')).toBe(0);
    expect(VISEMES.indexOf('PP')).toBe(1);
    expect(VISEMES.indexOf('OU')).toBe(14);
    expect(VISEMES).toHaveLength(15);
  });

  it("reaches clients as the engine's viseme value", () => {
    expect(clientPadValue('AA', [{ type: 'viseme' }])).toEqual({ type: 'viseme', value: 'AA' });
  });
});

describe('VisemeSchedule', () => {
  it("tells each phoneme's viseme when its sound starts, then SILENCE when the last ends; repeats are not told", () => {
    const clock = manualClock();
    const told: Array<[number, string]> = [];
    const schedule = new VisemeSchedule((viseme) => told.push([clock.now(), viseme]), clock);
    schedule.frame(frame(400), [arpabet('hh', 0, 100), arpabet('ax', 100, 50), arpabet('l', 150, 100), arpabet('l', 250, 50), arpabet('ow', 300, 200)]);
    clock.advance(1000);
    expect(told).toEqual([
      [0, 'KK'],
      [100, 'AA'],
      [150, 'NN'],
      [300, 'OH'],
      [500, 'SILENCE'],
    ]);
  });

  it('a burst of frames plays one after the other: a later frame starts when the one before ends', () => {
    const clock = manualClock();
    const told: Array<[number, string]> = [];
    const schedule = new VisemeSchedule((viseme) => told.push([clock.now(), viseme]), clock);
    schedule.frame(frame(200), [arpabet('m', 20, 100)]);
    schedule.frame(frame(200), [arpabet('aa', 50, 100)]);
    clock.advance(100);
    // Arrives late: starts when it arrives.
    clock.advance(400);
    schedule.frame(frame(100), [arpabet('s', 0, 50)]);
    clock.advance(500);
    expect(told).toEqual([
      [20, 'PP'],
      [250, 'AA'],
      [350, 'SILENCE'],
      [500, 'SS'],
      [550, 'SILENCE'],
    ]);
  });

  it('cancel (barge-in) drops what is scheduled and tells SILENCE', () => {
    const clock = manualClock();
    const told: string[] = [];
    const schedule = new VisemeSchedule((viseme) => told.push(viseme), clock);
    schedule.frame(frame(500), [arpabet('f', 0, 100), arpabet('uw', 100, 300)]);
    clock.advance(50);
    schedule.cancel();
    clock.advance(1000);
    expect(told).toEqual(['FF', 'SILENCE']);
  });
});
