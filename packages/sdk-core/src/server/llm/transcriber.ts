/** Audio of a user `input_audio` part. */
export interface AudioInput {
  data: Uint8Array;
  format: 'wav' | 'mp3' | 'ogg';
}

/**
 * Speech-to-text for the gateway's `input_audio` parts; the speech engines provide it.
 *
 * @example
 * const text = await transcriber.transcribe({ data, format: 'wav' }, { signal });
 */
export interface Transcriber {
  transcribe(audio: AudioInput, options: { signal: AbortSignal }): Promise<string>;
}
