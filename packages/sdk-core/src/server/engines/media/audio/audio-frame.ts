/** A block of 16-bit PCM audio, interleaved when `channels` > 1. */
export interface AudioFrame {
  samples: Int16Array;
  sampleRate: number;
  channels: number;
}

/** Milliseconds of audio a frame holds. */
export function frameDurationMs(frame: AudioFrame): number {
  return (frame.samples.length / frame.channels / frame.sampleRate) * 1000;
}

/**
 * Resamples mono PCM by linear interpolation. Good enough for speech between the rates the
 * pipeline uses (16/24/48 kHz); keeps fractional position across calls through `state`.
 *
 * @example
 * const resampler = createLinearResampler(24_000, 48_000);
 * const output = resampler(frame.samples);
 */
export function createLinearResampler(fromRate: number, toRate: number): (input: Int16Array) => Int16Array {
  if (fromRate === toRate) return (input) => input;
  const step = fromRate / toRate;
  let position = 0;
  let previous = 0;
  return (input) => {
    const output: number[] = [];
    // position is relative to the sample before input[0] (the previous call's last sample).
    while (position < input.length) {
      const index = Math.floor(position);
      const fraction = position - index;
      const left = index === 0 ? previous : input[index - 1]!;
      const right = input[index]!;
      output.push(Math.round(left + (right - left) * fraction));
      position += step;
    }
    position -= input.length;
    if (input.length > 0) previous = input[input.length - 1]!;
    return Int16Array.from(output);
  };
}
