import { encodeWithFfmpeg, type FfmpegAudioFormat } from '../../engines/media/index.js';
import { concatPcm, createStreamingEncoder, type PcmChunk, type StreamedAudioFormat } from '../../engines/speech/index.js';

/** Every `response_format` of `POST /v1/audio/speech`: streamed by our encoders, or made whole by ffmpeg. */
export type SpeechAudioFormat = StreamedAudioFormat | FfmpegAudioFormat;

const BY_FFMPEG = new Set<SpeechAudioFormat>(['aac', 'flac']);

/** Whether the format is made by ffmpeg (so needs it installed). */
export function madeByFfmpeg(format: SpeechAudioFormat): format is FfmpegAudioFormat {
  return BY_FFMPEG.has(format);
}

/**
 * The encoded bytes of the engine's chunks, as they are ready: mp3, opus and pcm while the engine speaks, wav, aac
 * and flac once at the end. `onEnd` gets the seconds spoken, also when the consumer stops early (`return()`).
 *
 * @example
 * for await (const bytes of speechAudio(iterator, first, 'mp3', signal, record)) send(bytes);
 */
export async function* speechAudio(
  iterator: AsyncIterator<PcmChunk>,
  first: PcmChunk,
  format: SpeechAudioFormat,
  signal: AbortSignal,
  onEnd: (seconds: number) => Promise<void>,
): AsyncGenerator<Uint8Array> {
  let seconds = 0;
  let completed = false;
  try {
    if (madeByFfmpeg(format)) {
      const chunks: Int16Array[] = [];
      for (let chunk: PcmChunk | undefined = first; chunk; chunk = await nextChunk(iterator)) {
        seconds += chunk.pcm.length / chunk.sampleRate;
        chunks.push(chunk.pcm);
      }
      yield new Uint8Array(await encodeWithFfmpeg(concatPcm(chunks), first.sampleRate, format, signal));
    } else {
      const encoder = createStreamingEncoder(format, first.sampleRate);
      for (let chunk: PcmChunk | undefined = first; chunk; chunk = await nextChunk(iterator)) {
        seconds += chunk.pcm.length / chunk.sampleRate;
        for (const bytes of encoder.push(chunk.pcm)) yield bytes;
      }
      for (const bytes of encoder.end()) yield bytes;
    }
    completed = true;
  } finally {
    if (!completed) await iterator.return?.();
    await onEnd(seconds);
  }
}

async function nextChunk(iterator: AsyncIterator<PcmChunk>): Promise<PcmChunk | undefined> {
  const result = await iterator.next();
  return result.done ? undefined : result.value;
}
