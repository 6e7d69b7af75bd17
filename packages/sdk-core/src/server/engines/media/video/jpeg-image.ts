import type { VideoFrame } from './video-frame.js';

/** JPEG quality of images handed to vision models: small enough for a data URI, clear enough to read. */
export const VISION_JPEG_QUALITY = 80;

/**
 * A frame as a JPEG file (jpeg-js, pure JavaScript: no native build, loaded on first use).
 *
 * @example
 * const url = `data:image/jpeg;base64,${(await encodeJpeg(frame)).toString('base64')}`;
 */
export async function encodeJpeg(frame: VideoFrame, quality = VISION_JPEG_QUALITY): Promise<Buffer> {
  const jpeg = await import('jpeg-js');
  const encode = jpeg.encode ?? (jpeg as unknown as { default: typeof jpeg }).default.encode;
  const { data } = encode({ data: frame.rgba, width: frame.width, height: frame.height }, quality);
  return Buffer.from(data.buffer, data.byteOffset, data.byteLength);
}

/** A frame as a `data:image/jpeg;base64,...` URI, the form OpenAI's `image_url` parts take. */
export async function jpegDataUrl(frame: VideoFrame, quality = VISION_JPEG_QUALITY): Promise<string> {
  return `data:image/jpeg;base64,${(await encodeJpeg(frame, quality)).toString('base64')}`;
}

/** Reads a JPEG back into a frame (tests and fakes that check what a model received). */
export async function decodeJpeg(bytes: Uint8Array): Promise<VideoFrame> {
  const jpeg = await import('jpeg-js');
  const decode = jpeg.decode ?? (jpeg as unknown as { default: typeof jpeg }).default.decode;
  const image = decode(bytes, { useTArray: true, formatAsRGBA: true });
  return { width: image.width, height: image.height, rgba: image.data, timestampMs: 0 };
}
