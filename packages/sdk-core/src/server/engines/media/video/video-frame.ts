/**
 * One picture as the platform handles it past the decoder: RGBA pixels, row by row from the top left
 * (`width * height * 4` bytes), with the time it was captured on the producer's clock.
 */
export interface VideoFrame {
  readonly width: number;
  readonly height: number;
  readonly rgba: Uint8Array;
  /** Capture time in milliseconds (the producer's clock: a decoder's presentation time, a generator's simulated time). */
  readonly timestampMs: number;
}

/** A frame of one colour (tests, placeholders). */
export function solidFrame(width: number, height: number, [r, g, b]: readonly [number, number, number], timestampMs = 0): VideoFrame {
  const rgba = new Uint8Array(width * height * 4);
  for (let offset = 0; offset < rgba.length; offset += 4) {
    rgba[offset] = r;
    rgba[offset + 1] = g;
    rgba[offset + 2] = b;
    rgba[offset + 3] = 255;
  }
  return { width, height, rgba, timestampMs };
}

/** The mean colour of a frame's pixels (what a test checks a frame by). */
export function meanColour(frame: VideoFrame): [number, number, number] {
  let r = 0;
  let g = 0;
  let b = 0;
  const pixels = frame.width * frame.height;
  for (let offset = 0; offset < pixels * 4; offset += 4) {
    r += frame.rgba[offset]!;
    g += frame.rgba[offset + 1]!;
    b += frame.rgba[offset + 2]!;
  }
  return [Math.round(r / pixels), Math.round(g / pixels), Math.round(b / pixels)];
}
