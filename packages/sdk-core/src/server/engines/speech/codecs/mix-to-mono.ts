/**
 * Averages decoded channels into one, for decoders that hand out planar Float32 channels (`channelData`).
 * One channel is returned as it is (trimmed to `length`), without a copy.
 *
 * @example
 * const mono = mixToMono([left, right], samplesDecoded);
 */
export function mixToMono(channels: readonly Float32Array[], length: number): Float32Array {
  if (channels.length === 1) return channels[0]!.subarray(0, length);
  const mono = new Float32Array(length);
  for (const channel of channels) {
    for (let index = 0; index < length; index++) mono[index]! += channel[index]! / channels.length;
  }
  return mono;
}
