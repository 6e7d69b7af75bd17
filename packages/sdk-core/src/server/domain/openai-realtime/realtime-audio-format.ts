import * as alawmulawModule from 'alawmulaw';
import type { RealtimeAudioFormat, RealtimeSessionObject } from '../../../contract/openai-realtime-session.js';
import { LinearResampler, resampleLinear } from '../../engines/speech/index.js';
import { REALTIME_SAMPLE_RATE } from './pushed-audio-track.js';
import { RealtimeRequestError } from './realtime-errors.js';

// A CommonJS build under Node's ESM loader: the codecs sit on `default`.
const alawmulaw = (alawmulawModule as unknown as { default?: typeof alawmulawModule }).default ?? alawmulawModule;

/** A session's audio format as the server reports it. */
export type SessionAudioFormat = RealtimeSessionObject['audio']['output']['format'];

/** G.711's rate (`audio/pcmu`, `audio/pcma`). */
const G711_RATE = 8000;

/** The format a client asked for, as the session reports it (`audio/pcm` with its rate). */
export function sessionAudioFormat(format: RealtimeAudioFormat): SessionAudioFormat {
  return format.type === 'audio/pcm' ? { type: 'audio/pcm', rate: REALTIME_SAMPLE_RATE } : { type: format.type };
}

/**
 * A client's base64 audio in the session's input format as the 24 kHz PCM16 the engines hear: PCM16 as it is (an odd
 * byte count is an error naming `audio`), G.711 µ-law or A-law decoded and brought from 8 kHz to 24 kHz.
 *
 * @example
 * const pcm = clientPcm(event.audio, { type: 'audio/pcmu' });
 */
export function clientPcm(audio: string, format: SessionAudioFormat): Int16Array {
  const bytes = Buffer.from(audio, 'base64');
  if (format.type === 'audio/pcm') {
    if (bytes.length % 2 !== 0) throw new RealtimeRequestError('The audio must be 16-bit PCM: an even number of bytes.', 'audio');
    const pcm = new Int16Array(bytes.length / 2);
    for (let index = 0; index < pcm.length; index += 1) pcm[index] = bytes.readInt16LE(index * 2);
    return pcm;
  }
  const narrow = format.type === 'audio/pcmu' ? alawmulaw.mulaw.decode(bytes) : alawmulaw.alaw.decode(bytes);
  return resampleLinear(narrow, G711_RATE, REALTIME_SAMPLE_RATE);
}

/**
 * The encoder of one response's audio deltas: 24 kHz PCM16 to base64 in the session's output format (G.711 resampled
 * to 8 kHz as one stream, so the pieces join without clicks).
 *
 * @example
 * const delta = outputAudioEncoder({ type: 'audio/pcma' });
 * send({ type: 'response.output_audio.delta', delta: delta(pcm) });
 */
export function outputAudioEncoder(format: SessionAudioFormat): (pcm: Int16Array) => string {
  if (format.type === 'audio/pcm') return (pcm) => Buffer.from(pcm.buffer, pcm.byteOffset, pcm.byteLength).toString('base64');
  const resampler = new LinearResampler(REALTIME_SAMPLE_RATE, G711_RATE);
  const encode = format.type === 'audio/pcmu' ? alawmulaw.mulaw.encode : alawmulaw.alaw.encode;
  return (pcm) => Buffer.from(encode(resampler.push(pcm))).toString('base64');
}
