import { Decoder, Encoder } from '@evan/opus';
import { bytesToPcm } from './pcm.js';

/** Sample rates Opus accepts. */
export type OpusSampleRate = 8000 | 12000 | 16000 | 24000 | 48000;

/**
 * A mono Opus encoder (native libopus through `@evan/opus`, wasm fallback). Feed it frames of
 * 2.5/5/10/20/40/60 ms; 20 ms (`sampleRate / 50` samples) is what WebRTC uses.
 *
 * @example
 * const encoder = new OpusFrameEncoder(48000);
 * const packet = encoder.encode(new Int16Array(960));
 */
export class OpusFrameEncoder {
  private readonly encoder: Encoder;

  constructor(
    readonly sampleRate: OpusSampleRate,
    application: 'voip' | 'audio' | 'restricted_lowdelay' = 'voip',
  ) {
    this.encoder = new Encoder({ channels: 1, sample_rate: sampleRate, application });
  }

  encode(frame: Int16Array): Uint8Array {
    return this.encoder.encode(frame);
  }
}

/**
 * A mono Opus decoder; returns PCM16 at the decoder's rate.
 *
 * @example
 * const decoder = new OpusFrameDecoder(48000);
 * const pcm = decoder.decode(packet);
 */
export class OpusFrameDecoder {
  private readonly decoder: Decoder;

  constructor(readonly sampleRate: OpusSampleRate) {
    this.decoder = new Decoder({ channels: 1, sample_rate: sampleRate });
  }

  decode(packet: Uint8Array): Int16Array {
    const bytes = this.decoder.decode(packet);
    // The returned view may alias the codec's internal buffer: copy before the next call reuses it.
    return bytesToPcm(bytes.slice());
  }
}
