import * as alawmulawModule from 'alawmulaw';
import { resampleLinear } from '../server/engines/speech/index.js';
import { createCallCodec, ROOM_FRAME_SAMPLES } from '../server/engines/telephony/index.js';

// A CommonJS build under Node's ESM loader: the codecs sit on `default`.
const alawmulaw = (alawmulawModule as unknown as { default?: typeof alawmulawModule }).default ?? alawmulawModule;

const PHONE_RATE = 8000;
/** 20 ms of G.711 at 8 kHz: one RTP payload. */
const PAYLOAD_BYTES = 160;

/**
 * `pcm` as a phone caller's speech reaches the room: the phone resamples it to 8 kHz and encodes it with G.711
 * (PCMU by default), then the platform's SIP endpoint decodes each 20 ms payload with the call's codec (48 kHz,
 * low-passed), as the bridge hands it to the room.
 *
 * @example
 * const heard = phoneLine(said.pcm, said.sampleRate); // { pcm, sampleRate: 48000 }
 */
export function phoneLine(pcm: Int16Array, sampleRate: number, law: 'PCMU' | 'PCMA' = 'PCMU'): { pcm: Int16Array; sampleRate: number } {
  const platform = createCallCodec({ name: law, payloadType: law === 'PCMU' ? 0 : 8, clockRate: PHONE_RATE, channels: 1 });
  const narrow = resampleLinear(pcm, sampleRate, PHONE_RATE);
  const phone = law === 'PCMU' ? alawmulaw.mulaw : alawmulaw.alaw;
  const frames = Math.ceil(narrow.length / PAYLOAD_BYTES);
  const out = new Int16Array(frames * ROOM_FRAME_SAMPLES);
  for (let frame = 0; frame < frames; frame += 1) {
    const slice = new Int16Array(PAYLOAD_BYTES);
    slice.set(narrow.subarray(frame * PAYLOAD_BYTES, (frame + 1) * PAYLOAD_BYTES));
    out.set(platform.decode(phone.encode(slice)), frame * ROOM_FRAME_SAMPLES);
  }
  return { pcm: out, sampleRate: 48_000 };
}
