import { decodeMp3, encodeMp3, looksLikeMp3 } from './mp3.js';
import { decodeOgg, looksLikeOgg } from './ogg.js';
import { OpusFrameDecoder, OpusFrameEncoder } from './opus.js';
import { base64ToPcm, bytesToPcm, concatPcm, float32ToInt16, int16ToFloat32, pcmDurationSeconds, pcmToBase64, pcmToBytes, rmsDecibels } from './pcm.js';
import { LinearResampler, resampleHighQuality, resampleLinear } from './resample.js';
import { decodeWav, encodeWav } from './wav.js';

/**
 * The audio codecs in one object, as `createSpeech()` hands them out.
 *
 * @example
 * const wav = speechCodecs.wav.encode(pcm, 16000);
 * const mp3 = speechCodecs.mp3.encode(pcm, 16000);
 * const decoded = await speechCodecs.ogg.decode(oggOpusFile); // { pcm, sampleRate: 48000, codec: 'opus', ... }
 */
export const speechCodecs = {
  wav: { encode: encodeWav, decode: decodeWav },
  mp3: { encode: encodeMp3, decode: decodeMp3, sniff: looksLikeMp3 },
  ogg: { decode: decodeOgg, sniff: looksLikeOgg },
  opus: { Encoder: OpusFrameEncoder, Decoder: OpusFrameDecoder },
  resample: { Linear: LinearResampler, linear: resampleLinear, highQuality: resampleHighQuality },
  pcm: {
    int16ToFloat32,
    float32ToInt16,
    concat: concatPcm,
    toBytes: pcmToBytes,
    fromBytes: bytesToPcm,
    toBase64: pcmToBase64,
    fromBase64: base64ToPcm,
    durationSeconds: pcmDurationSeconds,
    rmsDecibels,
  },
} as const;

export type SpeechCodecs = typeof speechCodecs;
