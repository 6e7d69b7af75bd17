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

/**
 * A second-order Butterworth low-pass (RBJ biquad): after linear interpolation from 8 kHz it takes out most of the
 * images above 4 kHz, which the 16 kHz speech recogniser would otherwise hear as noise in a band telephony never
 * carries.
 */
class LowPass {
  private readonly b0: number;
  private readonly b1: number;
  private readonly b2: number;
  private readonly a1: number;
  private readonly a2: number;
  private x1 = 0;
  private x2 = 0;
  private y1 = 0;
  private y2 = 0;

  constructor(cutoff: number, rate: number) {
    const w = (2 * Math.PI * cutoff) / rate;
    const alpha = Math.sin(w) / Math.SQRT2;
    const a0 = 1 + alpha;
    this.b0 = (1 - Math.cos(w)) / 2 / a0;
    this.b1 = (1 - Math.cos(w)) / a0;
    this.b2 = this.b0;
    this.a1 = (-2 * Math.cos(w)) / a0;
    this.a2 = (1 - alpha) / a0;
  }

  filter(input: Int16Array): Int16Array {
    const output = new Int16Array(input.length);
    for (let index = 0; index < input.length; index += 1) {
      const x = input[index]!;
      const y = this.b0 * x + this.b1 * this.x1 + this.b2 * this.x2 - this.a1 * this.y1 - this.a2 * this.y2;
      this.x2 = this.x1;
      this.x1 = x;
      this.y2 = this.y1;
      this.y1 = y;
      output[index] = Math.max(-32768, Math.min(32767, Math.round(y)));
    }
    return output;
  }
}

/** G.711 (PCMU/PCMA) at 8 kHz; 48 kHz -> 8 kHz through a 6-tap average (a cheap low-pass) and decimation. */
class G711Codec implements CallCodec {
  readonly timestampStep = 160;
  private readonly upsample = createLinearResampler(8000, 48_000);
  private readonly lowPass = new LowPass(3600, 48_000);
  private readonly law: typeof alawmulaw.mulaw;

  constructor(readonly codec: AudioCodec) {
    this.law = codec.name === 'PCMA' ? alawmulaw.alaw : alawmulaw.mulaw;
  }

  decode(payload: Uint8Array): Int16Array {
    return this.lowPass.filter(this.upsample(this.law.decode(payload)));
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
