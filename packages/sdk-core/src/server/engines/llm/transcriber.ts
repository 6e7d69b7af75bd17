/** Audio of a user `input_audio` part. */
export interface AudioInput {
  data: Uint8Array;
  format: 'wav' | 'mp3' | 'ogg';
}

/**
 * The caller's audio cannot be transcribed (undecodable, unsupported format, too long, or no STT engine).
 * `field` is the `input_audio` field at fault, so the gateway can name it in the 400 it answers with.
 */
export class AudioInputError extends Error {
  override readonly name = 'AudioInputError';

  constructor(
    readonly field: 'data' | 'format' | 'stt',
    message: string,
    options: { cause?: unknown } = {},
  ) {
    super(message, options);
  }
}

/**
 * Speech-to-text for the gateway's `input_audio` parts; the speech engines provide it. Problems with the
 * audio itself are thrown as {@link AudioInputError}.
 *
 * @example
 * const text = await transcriber.transcribe({ data, format: 'wav' }, { signal });
 */
export interface Transcriber {
  transcribe(audio: AudioInput, options: { signal: AbortSignal }): Promise<string>;
}
