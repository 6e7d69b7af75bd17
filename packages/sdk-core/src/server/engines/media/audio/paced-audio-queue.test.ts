import { describe, expect, it, vi } from 'vitest';
import { createLinearResampler } from './audio-frame.js';
import { PacedAudioQueue } from './paced-audio-queue.js';
import { dominantFrequency, sineTone } from '../../../../testing/tone-analysis.js';

describe('PacedAudioQueue', () => {
  it('sends 48 kHz 20 ms frames at real time, applies backpressure and drains (on a fake clock)', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'setTimeout', 'clearTimeout', 'performance'] });
    try {
      const sent: Array<{ at: number; length: number }> = [];
      const queue = new PacedAudioQueue({ sampleRate: 24_000, onFrame: (samples) => sent.push({ at: performance.now(), length: samples.length }) });
      const started = performance.now();
      // 600 ms of 24 kHz audio written at once (30 frames): write resolves only once less than 200 ms is queued.
      let written = false;
      const writing = queue.write({ samples: new Int16Array(24_000 * 0.6), sampleRate: 24_000, channels: 1 }).then(() => (written = true));
      while (!written) {
        expect(queue.queuedMs).toBeGreaterThanOrEqual(200);
        await vi.advanceTimersByTimeAsync(10);
      }
      await writing;
      expect(queue.queuedMs).toBeLessThan(200);
      let drained = false;
      void queue.drained().then(() => (drained = true));
      while (!drained) await vi.advanceTimersByTimeAsync(10);
      // Every frame went out, one 20 ms frame each 20 ms of the clock from the first on.
      expect(sent).toHaveLength(30);
      expect(sent.every((frame) => frame.length === 960)).toBe(true);
      expect(sent.map((frame) => frame.at - started)).toEqual(Array.from({ length: 30 }, (_, index) => index * 20));
      queue.close();
    } finally {
      vi.useRealTimers();
    }
  });

  it('flush drops queued audio at once (barge-in)', async () => {
    let frames = 0;
    const queue = new PacedAudioQueue({ sampleRate: 48_000, onFrame: () => (frames += 1) });
    void queue.write({ samples: new Int16Array(48_000 * 2), sampleRate: 48_000, channels: 1 });
    expect(queue.queuedMs).toBeGreaterThan(1900);
    const dropped = queue.flush();
    expect(dropped).toBeGreaterThan(1900);
    expect(queue.queuedMs).toBe(0);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(frames).toBeLessThanOrEqual(2);
    queue.close();
    await expect(queue.write({ samples: new Int16Array(960), sampleRate: 48_000, channels: 1 })).rejects.toThrow(/closed/);
  });

  it('refuses audio at another sample rate than declared', async () => {
    const queue = new PacedAudioQueue({ sampleRate: 16_000, onFrame: () => undefined });
    await expect(queue.write({ samples: new Int16Array(160), sampleRate: 48_000, channels: 1 })).rejects.toThrow(RangeError);
  });
});

describe('linear resampler', () => {
  it('keeps a tone at its frequency across calls', () => {
    const resample = createLinearResampler(16_000, 48_000);
    const input = sineTone(440, 16_000, 1000);
    const output = [resample(input.subarray(0, 5000)), resample(input.subarray(5000))];
    const joined = new Int16Array(output[0]!.length + output[1]!.length);
    joined.set(output[0]!);
    joined.set(output[1]!, output[0]!.length);
    expect(Math.abs(joined.length - 48_000)).toBeLessThanOrEqual(3);
    const found = dominantFrequency(joined, 48_000, [440, 880, 1000]);
    expect(found.frequency).toBe(440);
    expect(found.dominance).toBeGreaterThan(100);
  });
});
