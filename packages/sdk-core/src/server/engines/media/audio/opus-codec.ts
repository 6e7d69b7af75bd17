import { Decoder, Encoder } from '@evan/opus';

/** Opus runs at 48 kHz mono here, 20 ms per packet (960 samples). */
export const OPUS_SAMPLE_RATE = 48_000;
export const OPUS_FRAME_SAMPLES = 960;

/**
 * Encodes 20 ms mono PCM frames into Opus packets.
 *
 * @example
 * const encoder = new OpusFrameEncoder();
 * const packet = encoder.encode(new Int16Array(960));
 */
export class OpusFrameEncoder {
  private readonly encoder = new Encoder({ channels: 1, sample_rate: OPUS_SAMPLE_RATE, application: 'voip' });

  constructor(bitrate = 32_000) {
    this.encoder.bitrate = bitrate;
  }

  encode(samples: Int16Array): Uint8Array {
    if (samples.length !== OPUS_FRAME_SAMPLES) throw new RangeError(`Opus frames must hold ${OPUS_FRAME_SAMPLES} samples`);
    return this.encoder.encode(samples);
  }
}

/**
 * Decodes Opus packets (mono or stereo) into 48 kHz mono PCM. A corrupt packet yields silence of
 * one frame instead of throwing: one bad packet from a client must not end the stream.
 *
 * @example
 * const pcm = new OpusFrameDecoder().decode(packet);
 */
export class OpusFrameDecoder {
  private readonly decoder = new Decoder({ channels: 1, sample_rate: OPUS_SAMPLE_RATE });

  decode(packet: Uint8Array): Int16Array {
    try {
      const bytes = this.decoder.decode(packet);
      return new Int16Array(bytes.buffer, bytes.byteOffset, bytes.byteLength >> 1).slice();
    } catch {
      return new Int16Array(OPUS_FRAME_SAMPLES);
    }
  }
}
