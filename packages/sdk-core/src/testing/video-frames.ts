/**
 * Synthetic video for media tests and benches: RGBA frames of one colour carrying a 16-bit stamp (a frame counter) as a
 * row of black and white blocks across the top ninth of the picture, which survives VP8/H.264 coding and scaling to a
 * smaller simulcast layer, so a receiver can tell which frame it got and what colour it was.
 */

/** Bits in the stamp; one block each across the picture's width. */
const STAMP_BITS = 16;
/** The stamp's band: the top ninth of the picture (40 px of 360). */
const STAMP_BAND = 1 / 9;

export type Rgb = readonly [number, number, number];

/** An RGBA picture of `colour` with `stamp` (0..65535) in its top band. */
export function paintFrame(width: number, height: number, colour: Rgb, stamp: number): Uint8Array {
  const data = new Uint8Array(width * height * 4);
  const band = Math.round(height * STAMP_BAND);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const offset = (y * width + x) * 4;
      let pixel: Rgb = colour;
      if (y < band) {
        const bit = Math.min(STAMP_BITS - 1, Math.floor((x * STAMP_BITS) / width));
        pixel = (stamp >> bit) & 1 ? [255, 255, 255] : [0, 0, 0];
      }
      data[offset] = pixel[0];
      data[offset + 1] = pixel[1];
      data[offset + 2] = pixel[2];
      data[offset + 3] = 255;
    }
  }
  return data;
}

/** Reads the stamp of a decoded RGBA picture painted by {@link paintFrame} (at any scale). */
export function readFrameStamp(data: Uint8Array, width: number, height: number): number {
  const y = Math.floor(height * STAMP_BAND * 0.5);
  let stamp = 0;
  for (let bit = 0; bit < STAMP_BITS; bit++) {
    const x = Math.floor(((bit + 0.5) * width) / STAMP_BITS);
    const offset = (y * width + x) * 4;
    const luma = (data[offset]! + data[offset + 1]! + data[offset + 2]!) / 3;
    if (luma > 128) stamp |= 1 << bit;
  }
  return stamp;
}

/** The average colour of a decoded RGBA picture's middle (below the stamp band). */
export function frameColour(data: Uint8Array, width: number, height: number): Rgb {
  const sums = [0, 0, 0];
  let count = 0;
  for (let y = Math.floor(height * 0.4); y < Math.floor(height * 0.6); y += 2) {
    for (let x = Math.floor(width * 0.3); x < Math.floor(width * 0.7); x += 2) {
      const offset = (y * width + x) * 4;
      for (let channel = 0; channel < 3; channel++) sums[channel]! += data[offset + channel]!;
      count += 1;
    }
  }
  return [Math.round(sums[0]! / count), Math.round(sums[1]! / count), Math.round(sums[2]! / count)];
}
