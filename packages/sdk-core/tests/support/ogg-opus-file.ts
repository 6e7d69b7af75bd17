import { BufferTarget, EncodedAudioPacketSource, EncodedPacket, OggOutputFormat, Output } from 'mediabunny';
import { OpusFrameEncoder, type OpusSampleRate } from '../../src/server/engines/speech/codecs/opus.js';

/** libopus's encoder delay at 48 kHz (2.5 ms look-ahead + 4 ms delay compensation), as opusenc writes it. */
const PRE_SKIP = 312;
const FRAME_SECONDS = 0.02;

/**
 * An Ogg Opus file of mono PCM16, as a browser's MediaRecorder or opusenc makes one: the platform's libopus
 * encoder (`@evan/opus`) makes 20 ms packets and mediabunny's Ogg muxer pages them. The stream is padded to
 * cover the encoder delay and its last granule position ends it where the input ends, so it decodes to
 * exactly `pcm.length * 48000 / sampleRate` samples at 48 kHz.
 *
 * @example
 * const file = await encodeOggOpus(pcm, 16000);
 */
export async function encodeOggOpus(pcm: Int16Array, sampleRate: OpusSampleRate): Promise<Uint8Array> {
  const encoder = new OpusFrameEncoder(sampleRate, 'audio');
  const output = new Output({ format: new OggOutputFormat(), target: new BufferTarget() });
  const source = new EncodedAudioPacketSource('opus');
  output.addAudioTrack(source);
  await output.start();

  const frame = Math.round(sampleRate * FRAME_SECONDS);
  const frame48k = 48_000 * FRAME_SECONDS;
  const total48k = Math.round((pcm.length * 48_000) / sampleRate) + PRE_SKIP;
  const frames = Math.ceil(total48k / frame48k);
  const config = { decoderConfig: { codec: 'opus', numberOfChannels: 1, sampleRate: 48_000, description: opusHead(sampleRate) } } as const;
  for (let index = 0; index < frames; index++) {
    const samples = new Int16Array(frame); // zero padding past the input's end
    samples.set(pcm.subarray(index * frame, (index + 1) * frame));
    // The last packet's shorter duration becomes the final granule position: the decoder drops what follows.
    const duration = index === frames - 1 ? (total48k - index * frame48k) / 48_000 : FRAME_SECONDS;
    await source.add(new EncodedPacket(encoder.encode(samples), 'key', index * FRAME_SECONDS, duration), index === 0 ? config : undefined);
  }
  await output.finalize();
  return new Uint8Array(output.target.buffer!);
}

/** The identification header (RFC 7845 §5.1): mono, channel mapping family 0. */
function opusHead(inputSampleRate: number): Uint8Array {
  const head = new Uint8Array(19);
  const view = new DataView(head.buffer);
  head.set(new TextEncoder().encode('OpusHead'));
  head[8] = 1; // version
  head[9] = 1; // channels
  view.setUint16(10, PRE_SKIP, true);
  view.setUint32(12, inputSampleRate, true);
  view.setInt16(16, 0, true); // output gain
  head[18] = 0; // channel mapping family
  return head;
}
