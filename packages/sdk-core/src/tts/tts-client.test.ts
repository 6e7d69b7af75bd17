import { describe, expect, it } from 'vitest';
import { AbortError } from '../errors/transport-errors.js';
import { base64ToPcm16 } from './pcm-base64.js';
import { playTtsStream, type PlaybackContext } from './play-tts-stream.js';
import { TtsStreamError } from './tts-stream-error.js';
import { TtsStream, type TtsStreamChannel } from './tts-stream.js';

/** A channel that records what the stream would send over the socket. */
function recordingChannel() {
  const sent: string[] = [];
  const channel: TtsStreamChannel = {
    sendText: (session, text) => sent.push(`${session}:text:${text}`),
    sendEnd: (session) => sent.push(`${session}:eos`),
    release: (session) => sent.push(`${session}:released`),
    backlogChanged: () => sent.push('backlog'),
  };
  return { sent, channel };
}

/** A WebAudio stand-in that records when each buffer is scheduled (the browser plays them). */
function recordingContext() {
  const scheduled: Array<{ when: number; duration: number }> = [];
  const ends: Array<() => void> = [];
  const context: PlaybackContext = {
    currentTime: 1,
    destination: {},
    createBuffer: (_channels, length, sampleRate) => {
      const data = new Float32Array(length);
      return { getChannelData: () => data, duration: length / sampleRate };
    },
    createBufferSource: () => {
      const source = {
        buffer: null as unknown,
        connect: () => undefined,
        start: (when = 0) => {
          scheduled.push({ when, duration: (source.buffer as { duration: number }).duration });
          ends.push(() => source.onended?.());
        },
        stop: () => undefined,
        onended: null as (() => void) | null,
      };
      return source;
    },
  };
  return { context, scheduled, ends };
}

describe('TTS client pieces', () => {
  it('decodes base64 PCM16LE without Buffer, like Buffer does', () => {
    const samples = new Int16Array([0, 1, -1, 32767, -32768, 1234, -4321]);
    const encoded = Buffer.from(samples.buffer).toString('base64');
    expect(base64ToPcm16(encoded)).toEqual(samples);
    expect(base64ToPcm16('')).toEqual(new Int16Array(0));
    expect(() => base64ToPcm16('AB$C')).toThrow(SyntaxError);
  });

  it('a stream buffers audio for its iterator, ends at final, and aborts with AbortError', async () => {
    const { sent, channel } = recordingChannel();
    const stream = new TtsStream('s1', 'flite-slt', channel);
    stream.push('Hello ').push('').push('there.').end();
    expect(() => stream.push('more')).toThrow(/after end/);
    expect(sent).toEqual(['s1:text:Hello ', 's1:text:there.', 's1:eos']);
    stream.deliverAudio({ pcm: new Int16Array([1, 2]), sampleRate: 24_000, channels: 1 });
    stream.deliverAudio({ pcm: new Int16Array([3]), sampleRate: 24_000, channels: 1 });
    stream.deliverFinal();
    const received: number[] = [];
    for await (const chunk of stream) received.push(...chunk.pcm);
    expect(received).toEqual([1, 2, 3]);
    await expect(stream.finished).resolves.toBeUndefined();

    const controller = new AbortController();
    const aborted = new TtsStream('s2', 'flite-slt', channel, controller.signal);
    const events: string[] = [];
    aborted.on('error', (error) => events.push(error.name));
    controller.abort();
    await expect(aborted.finished).rejects.toSatisfy((error: unknown) => AbortError.isInstance(error));
    expect(events).toEqual(['AbortError']);
    expect(sent.slice(-2)).toEqual(['s2:eos', 's2:released']);
  });

  it('audio received before a service error stays readable; then the iterator throws the TtsStreamError', async () => {
    const stream = new TtsStream('s3', 'flite-slt', recordingChannel().channel);
    stream.deliverAudio({ pcm: new Int16Array([5]), sampleRate: 24_000, channels: 1 });
    stream.fail(new TtsStreamError('s3', 'synthesis failed'));
    const iterator = stream[Symbol.asyncIterator]();
    expect((await iterator.next()).value?.pcm).toEqual(new Int16Array([5]));
    await expect(iterator.next()).rejects.toSatisfy((error: unknown) => TtsStreamError.isInstance(error));
  });

  it('playTtsStream schedules chunks back to back (gap-free) and resolves when the last one has played', async () => {
    const stream = new TtsStream('s4', 'flite-slt', recordingChannel().channel);
    const { context, scheduled, ends } = recordingContext();
    const playback = playTtsStream(stream, context);
    for (const length of [2_400, 4_800, 1_200]) stream.deliverAudio({ pcm: new Int16Array(length), sampleRate: 24_000, channels: 1 });
    stream.deliverFinal();
    expect(scheduled).toHaveLength(3);
    expect(scheduled[0]!.when).toBeCloseTo(1.05, 6);
    for (let index = 1; index < scheduled.length; index++) {
      expect(scheduled[index]!.when).toBeCloseTo(scheduled[index - 1]!.when + scheduled[index - 1]!.duration, 9);
    }
    let done = false;
    void playback.done.then(() => (done = true));
    ends.slice(0, 2).forEach((end) => end());
    await Promise.resolve();
    expect(done).toBe(false);
    ends[2]!();
    await playback.done;
    expect(done).toBe(true);
  });
});
