import { describe, expect, it } from 'vitest';
import type { AudioFrame, AudioOutput, RemoteAudioTrack } from '../../engines/media/index.js';
import { RECORDING_SAMPLE_RATE, SessionRecorder } from './session-recorder.js';

/** `ms` of a constant 48 kHz mono signal. */
function frame(ms: number, value: number): AudioFrame {
  return { samples: new Int16Array((48_000 * ms) / 1000).fill(value), sampleRate: 48_000, channels: 1 };
}

/** An output that queues nothing and reports what a flush drops. */
function fakeOutput(droppedMs: number): AudioOutput {
  return { trackSid: 'TR_agent', queuedMs: 0, write: async () => {}, flush: () => droppedMs, drained: async () => {}, close: async () => {} };
}

function trackOf(frames: AudioFrame[], identity = 'human'): RemoteAudioTrack {
  return {
    trackSid: 'TR_human',
    name: 'microphone',
    participant: { identity } as RemoteAudioTrack['participant'],
    async *frames() {
      yield* frames;
    },
  };
}

/** The WAV's channels as arrays of 16 kHz samples. */
function channelsOf(wav: Uint8Array): [number[], number[]] {
  const view = new DataView(wav.buffer, wav.byteOffset, wav.byteLength);
  const left: number[] = [];
  const right: number[] = [];
  for (let offset = 44; offset < wav.length; offset += 4) {
    left.push(view.getInt16(offset, true));
    right.push(view.getInt16(offset + 2, true));
  }
  return [left, right];
}

describe('SessionRecorder', () => {
  it('puts the human left and the agent right, each on the session clock, silence where a side said nothing', async () => {
    let now = 0;
    const recorder = new SessionRecorder(() => now);
    const output = recorder.tapOutput(fakeOutput(0));
    // The human speaks 100 ms at once; the agent answers at 500 ms for 200 ms.
    for await (const _ of recorder.tapTrack(trackOf([frame(100, 1000)])).frames());
    now = 500;
    await output.write(frame(200, 2000));
    const { wav, channels, sampleRate, durationMs } = recorder.finish();
    expect({ channels, sampleRate, durationMs }).toEqual({ channels: 2, sampleRate: RECORDING_SAMPLE_RATE, durationMs: 700 });
    const [left, right] = channelsOf(wav);
    const at = (ms: number) => (ms * RECORDING_SAMPLE_RATE) / 1000;
    expect(left.slice(at(10), at(90)).every((sample) => sample === 1000)).toBe(true);
    expect(left.slice(at(110)).every((sample) => sample === 0)).toBe(true);
    expect(right.slice(0, at(490)).every((sample) => sample === 0)).toBe(true);
    expect(right.slice(at(510), at(690)).every((sample) => sample === 2000)).toBe(true);
  });

  it('takes back what a barge-in dropped from the queue', async () => {
    const recorder = new SessionRecorder(() => 0);
    const output = recorder.tapOutput(fakeOutput(300));
    await output.write(frame(1000, 2000));
    expect(output.flush()).toBe(300);
    expect(recorder.finish().durationMs).toBe(700);
  });

  it('records a track nobody else reads on the side it is given, and mixes sources that overlap on one side', async () => {
    let now = 0;
    const recorder = new SessionRecorder(() => now);
    // Two agents speak at once from 0 ms (a graph and a worker in an app run), 100 ms each.
    await recorder.record(trackOf([frame(100, 1000)], 'graph'), 'agent');
    await recorder.record(trackOf([frame(100, 500)], 'worker'), 'agent');
    // A second human track starts at 300 ms.
    now = 300;
    await recorder.record(trackOf([frame(100, 700)], 'guest'), 'human');
    const { wav, durationMs } = recorder.finish();
    // Mixed, not appended one after the other: the agent side is 100 ms long, the file as long as the human's 400 ms.
    expect(durationMs).toBe(400);
    const [left, right] = channelsOf(wav);
    const at = (ms: number) => (ms * RECORDING_SAMPLE_RATE) / 1000;
    expect(right.slice(at(10), at(90)).every((sample) => sample === 1500)).toBe(true);
    expect(right.slice(at(110)).every((sample) => sample === 0)).toBe(true);
    expect(left.slice(0, at(290)).every((sample) => sample === 0)).toBe(true);
    expect(left.slice(at(310), at(390)).every((sample) => sample === 700)).toBe(true);
  });

  it('clips mixed sources at the PCM16 range', async () => {
    const recorder = new SessionRecorder(() => 0);
    await recorder.record(trackOf([frame(20, 30_000)]), 'human');
    await recorder.record(trackOf([frame(20, 30_000)]), 'human');
    const [left] = channelsOf(recorder.finish().wav);
    expect(left.slice(10, 300).every((sample) => sample === 32_767)).toBe(true);
  });

  it("passes the human's frames and the track's other properties through to the pipeline", async () => {
    const recorder = new SessionRecorder(() => 0);
    const track = recorder.tapTrack(trackOf([frame(20, 5)]));
    expect(track.trackSid).toBe('TR_human');
    const frames: AudioFrame[] = [];
    for await (const received of track.frames()) frames.push(received);
    expect(frames).toHaveLength(1);
    expect(frames[0]!.samples[0]).toBe(5);
  });
});
