import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pcmToBytes } from '../../speech/index.js';
import { runFfmpeg } from '../ffmpeg/run-ffmpeg.js';

/** Speech formats made by ffmpeg: AAC in ADTS frames, FLAC. */
export type FfmpegAudioFormat = 'aac' | 'flac';

export const FFMPEG_AUDIO_CONTENT_TYPES: Record<FfmpegAudioFormat, string> = { aac: 'audio/aac', flac: 'audio/flac' };

const ENCODER_ARGS: Record<FfmpegAudioFormat, string[]> = {
  aac: ['-c:a', 'aac', '-b:a', '64k', '-f', 'adts'],
  flac: ['-c:a', 'flac', '-f', 'flac'],
};

/**
 * 16-bit mono PCM as an AAC (ADTS) or FLAC file, encoded by ffmpeg.
 *
 * @example
 * const flac = await encodeWithFfmpeg(pcm, 16_000, 'flac');
 */
export function encodeWithFfmpeg(pcm: Int16Array, sampleRate: number, format: FfmpegAudioFormat, signal?: AbortSignal): Promise<Buffer> {
  const args = ['-f', 's16le', '-ar', String(sampleRate), '-ac', '1', '-i', 'pipe:0', ...ENCODER_ARGS[format], 'pipe:1'];
  return runFfmpeg({ args, input: [pcmToBytes(pcm)], ...(signal ? { signal } : {}) });
}

/** Containers decoded by ffmpeg, each with the one demuxer ffmpeg may use for it. */
export type FfmpegContainer = 'flac' | 'mp4' | 'webm';
const DEMUXERS: Record<FfmpegContainer, string> = { flac: 'flac', mp4: 'mov', webm: 'matroska' };

/** The container of a file by its first bytes: FLAC (`fLaC`), MP4/M4A (`ftyp` box), WebM/Matroska (EBML); else undefined. */
export function sniffFfmpegContainer(bytes: Uint8Array): FfmpegContainer | undefined {
  const ascii = new TextDecoder('latin1').decode(bytes.subarray(0, 12));
  if (ascii.startsWith('fLaC')) return 'flac';
  if (ascii.slice(4, 8) === 'ftyp') return 'mp4';
  if (bytes[0] === 0x1a && bytes[1] === 0x45 && bytes[2] === 0xdf && bytes[3] === 0xa3) return 'webm';
  return undefined;
}

/** Rate the decoded audio is given at (what the STT engines take). */
export const FFMPEG_DECODE_RATE = 16_000;

/**
 * The first audio stream of a FLAC, MP4/M4A or WebM file as 16 kHz 16-bit mono PCM, decoded by ffmpeg with only
 * the container's own demuxer. The file is written to a temporary file first: an MP4 may keep its index at the end,
 * which a pipe cannot seek to.
 *
 * @example
 * const { pcm, sampleRate } = await decodeWithFfmpeg(bytes, 'mp4');
 */
export async function decodeWithFfmpeg(bytes: Uint8Array, container: FfmpegContainer, signal?: AbortSignal): Promise<{ pcm: Int16Array; sampleRate: number }> {
  const folder = await mkdtemp(join(tmpdir(), 'palaver-audio-'));
  try {
    const path = join(folder, 'input');
    await writeFile(path, bytes);
    const args = [
      '-protocol_whitelist',
      'file',
      '-f',
      DEMUXERS[container],
      '-i',
      path,
      '-map',
      '0:a:0',
      '-f',
      's16le',
      '-acodec',
      'pcm_s16le',
      '-ac',
      '1',
      '-ar',
      String(FFMPEG_DECODE_RATE),
      'pipe:1',
    ];
    const output = await runFfmpeg({ args, ...(signal ? { signal } : {}) });
    const pcm = new Int16Array(output.buffer.slice(output.byteOffset, output.byteOffset + output.byteLength - (output.byteLength % 2)));
    return { pcm, sampleRate: FFMPEG_DECODE_RATE };
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}
