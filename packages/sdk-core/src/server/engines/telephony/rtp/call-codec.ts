import * as alawmulawModule from 'alawmulaw';
import { createLinearResampler, OPUS_FRAME_SAMPLES, OpusFrameDecoder, OpusFrameEncoder } from '../../media/index.js';
import type { AudioCodec } from '../sdp/sdp-negotiation.js';

// A CommonJS build under Node's ESM loader: the codecs sit on `default`.
const alawmulaw = (alawmulawModule as unknown as { default?: typeof alawmulawModule }).default ?? alawmulawModule;

/** 20 ms at 48 kHz: the frame the room's audio comes and goes in. */
export const ROOM_FRAME_SAMPLES = OPUS_FRAME_SAMPLES;

/** The call's codec between RTP payloads and the room's 48 kHz mono PCM. */
export interface CallCodec {
  readonly codec: AudioCodec;
  /** RTP timestamp units per 20 ms frame. */
  readonly timestampStep: number;
  decode(payload: Uint8Array): Int16Array;
  /** One 20 ms frame of 48 kHz PCM to one payload. */
  encode(pcm: Int16Array): Uint8Array;
}

/** G.711 (PCMU/PCMA) at 8 kHz; 48 kHz -> 8 kHz through a 6-tap average (a cheap low-pass) and decimation. */
class G711Codec implements CallCodec {
  readonly timestampStep = 160;
  private readonly upsample = createLinearResampler(8000, 48_000);
  private readonly law: typeof alawmulaw.mulaw;

  constructor(readonly codec: AudioCodec) {
    this.law = codec.name === 'PCMA' ? alawmulaw.alaw : alawmulaw.mulaw;
  }

  decode(payload: Uint8Array): Int16Array {
    return this.upsample(this.law.decode(payload));
  }

  encode(pcm: Int16Array): Uint8Array {
    const narrow = new Int16Array(Math.floor(pcm.length / 6));
    for (let index = 0; index < narrow.length; index += 1) {
      const base = index * 6;
      narrow[index] = (pcm[base]! + pcm[base + 1]! + pcm[base + 2]! + pcm[base + 3]! + pcm[base + 4]! + pcm[base + 5]!) / 6;
    }
    return this.law.encode(narrow);
  }
}

/** Opus at 48 kHz with the platform's codec (mono in and out; a stereo stream is mixed down by the decoder). */
class OpusCallCodec implements CallCodec {
  readonly timestampStep = OPUS_FRAME_SAMPLES;
  private readonly decoder = new OpusFrameDecoder();
  private readonly encoder = new OpusFrameEncoder();

  constructor(readonly codec: AudioCodec) {}

  decode(payload: Uint8Array): Int16Array {
    return this.decoder.decode(payload);
  }

  encode(pcm: Int16Array): Uint8Array {
    return this.encoder.encode(pcm);
  }
}

export function createCallCodec(codec: AudioCodec): CallCodec {
  return codec.name === 'opus' ? new OpusCallCodec(codec) : new G711Codec(codec);
}
