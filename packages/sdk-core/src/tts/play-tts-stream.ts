import type { TtsAudioChunk, TtsStream } from './tts-stream.js';

/** The WebAudio surface the player uses (a real `AudioContext`, or a compatible one in tests). */
export interface PlaybackContext {
  readonly currentTime: number;
  readonly destination: unknown;
  createBuffer(channels: number, length: number, sampleRate: number): { getChannelData(channel: number): Float32Array; readonly duration: number };
  createBufferSource(): {
    buffer: unknown;
    connect(destination: never): unknown;
    start(when?: number): void;
    stop(when?: number): void;
    onended: (() => void) | null;
  };
}

export interface TtsPlayback {
  /** Resolves when the last scheduled chunk has finished playing (rejects with the stream's failure). */
  done: Promise<void>;
  /** Stops playback now and aborts the stream. */
  stop(): void;
}

/** Start a little in the future so the first chunk is not clipped while the graph spins up. */
const START_LEAD_SECONDS = 0.05;

/**
 * Plays a TTS stream in a browser through WebAudio, gap-free: each chunk becomes an `AudioBuffer` scheduled
 * exactly where the previous one ends (`start(when)`), so network jitter never becomes audible as long as
 * audio arrives faster than it plays. Creates an `AudioContext` when none is given (call it from a user
 * gesture so the browser allows sound).
 *
 * @example
 * const stream = tts.stream({ voice: 'flite-slt' });
 * const playback = playTtsStream(stream);
 * stream.push('Hello from the browser.').end();
 * await playback.done;
 */
export function playTtsStream(stream: TtsStream, audioContext?: PlaybackContext): TtsPlayback {
  const context: PlaybackContext = audioContext ?? new (globalThis as unknown as { AudioContext: new () => PlaybackContext }).AudioContext();
  let nextStart = 0;
  let pending = 0;
  let finished = false;
  let stopped = false;
  const sources = new Set<ReturnType<PlaybackContext['createBufferSource']>>();
  let resolveDone!: () => void;
  let rejectDone!: (error: Error) => void;
  const done = new Promise<void>((resolve, reject) => {
    resolveDone = resolve;
    rejectDone = reject;
  });
  done.catch(() => undefined);

  const settleIfDrained = () => {
    if (finished && pending === 0) resolveDone();
  };

  const schedule = (chunk: TtsAudioChunk) => {
    if (stopped || chunk.pcm.length === 0) return;
    const buffer = context.createBuffer(1, chunk.pcm.length, chunk.sampleRate);
    const channel = buffer.getChannelData(0);
    for (let index = 0; index < chunk.pcm.length; index++) channel[index] = chunk.pcm[index]! / 32768;
    const source = context.createBufferSource();
    source.buffer = buffer;
    source.connect(context.destination as never);
    const when = Math.max(nextStart, context.currentTime + (nextStart === 0 ? START_LEAD_SECONDS : 0));
    source.start(when);
    nextStart = when + chunk.pcm.length / chunk.sampleRate;
    pending++;
    sources.add(source);
    source.onended = () => {
      sources.delete(source);
      pending--;
      settleIfDrained();
    };
  };

  stream.on('audio', schedule);
  stream.once('final', () => {
    finished = true;
    settleIfDrained();
  });
  stream.once('error', (error) => {
    finished = true;
    if (!stopped) rejectDone(error);
  });

  return {
    done,
    stop() {
      if (stopped) return;
      stopped = true;
      for (const source of sources) source.stop();
      sources.clear();
      stream.abort('playback stopped');
      resolveDone();
    },
  };
}
