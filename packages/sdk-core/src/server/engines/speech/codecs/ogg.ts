import type CodecParserClass from 'codec-parser';
import type { OggPage } from 'codec-parser';
import { mixToMono } from './mix-to-mono.js';
import { float32ToInt16 } from './pcm.js';

/** The codecs an Ogg stream may carry that {@link decodeOgg} decodes. */
export type OggAudioCodec = 'opus' | 'vorbis';

/** Decoded Ogg audio: mono PCM16 (channels are averaged). */
export interface DecodedOgg {
  pcm: Int16Array;
  /** 48000 for Opus (its decoders' native rate); the encoder's rate for Vorbis. */
  sampleRate: number;
  codec: OggAudioCodec;
  /** Packets the decoder could not decode (their samples are missing or concealed). */
  errorCount: number;
}

/** A well-formed Ogg stream whose codec is neither Opus nor Vorbis (FLAC, Speex, a video codec...). */
export class UnsupportedOggCodecError extends Error {
  override readonly name = 'UnsupportedOggCodecError';

  constructor(readonly codec: string) {
    super(`the Ogg stream holds ${codec}, and only Opus and Vorbis are decoded`);
  }
}

/**
 * Decodes an Ogg Opus or Ogg Vorbis file with the wasm decoders of `wasm-audio-decoders` (`ogg-opus-decoder`,
 * `@wasm-audio-decoders/ogg-vorbis`), after `codec-parser`, their demuxer, has read the pages and named the codec.
 * Rejects data with no Ogg page, a truncated last page or no decodable packet (plain `Error`), and streams of
 * any other codec ({@link UnsupportedOggCodecError}).
 *
 * @example
 * const { pcm, sampleRate, codec } = await decodeOgg(await readFile('recording.ogg')); // MediaRecorder's Opus
 */
export async function decodeOgg(file: Uint8Array): Promise<DecodedOgg> {
  // Loaded on first use: the demuxer and the wasm decoders are ~100 ms of a cold start that most servers never need.
  const { default: CodecParser } = await import('codec-parser');
  const codec = identifyOggCodec(file, CodecParser);
  const decoder =
    codec === 'opus' ? new (await import('ogg-opus-decoder')).OggOpusDecoder() : new (await import('@wasm-audio-decoders/ogg-vorbis')).OggVorbisDecoder();
  await decoder.ready;
  try {
    const decoded = await decoder.decodeFile(file);
    if (decoded.samplesDecoded === 0 || decoded.channelData.length === 0) {
      const firstError = decoded.errors[0]?.message;
      throw new Error(`no ${codec === 'opus' ? 'Opus' : 'Vorbis'} audio decoded${firstError ? ` (${firstError})` : ''}`);
    }
    const mono = mixToMono(decoded.channelData, decoded.samplesDecoded);
    return { pcm: float32ToInt16(mono), sampleRate: decoded.sampleRate, codec, errorCount: decoded.errors.length };
  } finally {
    decoder.free();
  }
}

/**
 * Cheap sniffing of Ogg data (the `OggS` capture pattern that starts every page) before decoding it.
 *
 * @example
 * looksLikeOgg(new TextEncoder().encode('OggS...')); // true
 */
export function looksLikeOgg(file: Uint8Array): boolean {
  return file.length >= 4 && file[0] === 0x4f && file[1] === 0x67 && file[2] === 0x67 && file[3] === 0x53;
}

/** Reads the pages and names the first audio stream's codec; throws for data that is not a complete Ogg stream. */
function identifyOggCodec(file: Uint8Array, CodecParser: typeof CodecParserClass): OggAudioCodec {
  let detected: string | undefined;
  let pages: OggPage[];
  try {
    const parser = new CodecParser<OggPage>('application/ogg', {
      onCodec: (codec) => {
        detected ??= codec;
      },
      enableFrameCRC32: false,
    });
    pages = parser.parseAll(file);
  } catch (error) {
    // codec-parser reads past the end of a page header cut short.
    throw new Error(`not a complete Ogg stream (${error instanceof Error ? error.message : String(error)})`, { cause: error });
  }
  const last = pages.at(-1);
  if (!last) throw new Error('no Ogg page found');
  // codec-parser hands out a page cut short as it is, and the decoders would conceal the missing packets.
  const declared = declaredPageLength(last.rawData);
  if (last.rawData.length < declared) {
    throw new Error(`the Ogg stream is truncated: its last page declares ${declared} bytes and ${last.rawData.length} are present`);
  }
  if (detected === 'opus' || detected === 'vorbis') return detected;
  throw new UnsupportedOggCodecError(detected ? detected.toUpperCase() : unknownCodecName(pages[0]!.data));
}

/** A page is its 27-byte header, its segment table, then as many bytes as the table's lacing values add up to (RFC 3533). */
function declaredPageLength(page: Uint8Array): number {
  const segments = page[26] ?? 0;
  let length = 27 + segments;
  for (let index = 0; index < segments; index++) length += page[27 + index] ?? 0;
  return length;
}

/** The start of the first packet (its identification header, e.g. `Speex   `), printable, to name the codec. */
function unknownCodecName(firstPacket: Uint8Array): string {
  const magic = Array.from(firstPacket.subarray(0, 8), (byte) => (byte >= 0x20 && byte < 0x7f ? String.fromCharCode(byte) : ' '))
    .join('')
    .trim();
  return magic ? `an unknown codec (identification header "${magic}")` : 'no known codec';
}
