import { rms } from './agent-harness.js';

/** A PCM16 WAV file read back: its format and one array of samples per channel. */
export interface ReadWav {
  channels: number;
  sampleRate: number;
  /** One Int16Array per channel. */
  sides: Int16Array[];
}

/**
 * Reads the canonical 44-byte-header PCM16 WAV the platform writes (a session's or an app run's recording).
 *
 * @example
 * const { channels, sides: [human, agent] } = readWav(new Uint8Array(await blob.arrayBuffer()));
 */
export function readWav(bytes: Uint8Array): ReadWav {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const riff = new TextDecoder().decode(bytes.subarray(0, 4));
  if (riff !== 'RIFF') throw new Error(`not a WAV file: it starts with '${riff}'`);
  const channels = view.getUint16(22, true);
  const sampleRate = view.getUint32(24, true);
  const dataBytes = view.getUint32(40, true);
  const frames = dataBytes / 2 / channels;
  const sides = Array.from({ length: channels }, () => new Int16Array(frames));
  for (let frame = 0; frame < frames; frame++)
    for (let channel = 0; channel < channels; channel++) sides[channel]![frame] = view.getInt16(44 + (frame * channels + channel) * 2, true);
  return { channels, sampleRate, sides };
}

/**
 * The 20 ms windows of `samples` louder than speech's floor (RMS 300), as their start times in ms.
 *
 * @example
 * const loud = loudWindowsMs(human, 16_000); // [1020, 1040, ...]
 */
export function loudWindowsMs(samples: Int16Array, sampleRate: number): number[] {
  const window = sampleRate / 50;
  const loud: number[] = [];
  for (let start = 0; start + window <= samples.length; start += window)
    if (rms(samples.subarray(start, start + window)) > 300) loud.push((start / sampleRate) * 1000);
  return loud;
}

/** Milliseconds of `samples` louder than speech's floor, counted in 20 ms windows. @example audibleMs(agent, 16_000) // 1840 */
export function audibleMs(samples: Int16Array, sampleRate: number): number {
  return loudWindowsMs(samples, sampleRate).length * 20;
}
