/**
 * The messages of Deepgram's live transcription websocket (`/v1/listen`) that the adapter reads and the fake
 * sends. The server speaks JSON text frames; the client sends binary audio and JSON control messages.
 */

export interface DeepgramWord {
  word: string;
  start: number;
  end: number;
  confidence: number;
  punctuated_word?: string;
}

export interface DeepgramResults {
  type: 'Results';
  channel_index: number[];
  /** Seconds of audio this result covers, from `start`. */
  duration: number;
  start: number;
  is_final: boolean;
  speech_final: boolean;
  from_finalize?: boolean;
  channel: { alternatives: Array<{ transcript: string; confidence: number; words: DeepgramWord[] }> };
  metadata?: { request_id: string; model_info: { name: string; version: string; arch: string }; model_uuid: string };
}

export interface DeepgramSpeechStarted {
  type: 'SpeechStarted';
  channel: number[];
  /** Seconds from the start of the stream's audio. */
  timestamp: number;
}

export interface DeepgramUtteranceEnd {
  type: 'UtteranceEnd';
  channel: number[];
  last_word_end: number;
}

export interface DeepgramMetadata {
  type: 'Metadata';
  transaction_key: string;
  request_id: string;
  sha256: string;
  created: string;
  duration: number;
  channels: number;
  models?: string[];
  model_info?: Record<string, { name: string; version: string; arch: string }>;
}

/** Sent by some deployments before they close on an error. */
export interface DeepgramError {
  type: 'Error';
  description?: string;
  message?: string;
  variant?: string;
}

export type DeepgramServerMessage = DeepgramResults | DeepgramSpeechStarted | DeepgramUtteranceEnd | DeepgramMetadata | DeepgramError;

export type DeepgramControlMessage = { type: 'KeepAlive' } | { type: 'Finalize'; channel?: number } | { type: 'CloseStream' };

/** Close codes Deepgram uses: undecodable audio (`DATA-0000`), and its timeouts (`NET-0000`, `NET-0001`). */
export const DEEPGRAM_CLOSE = { dataError: 1008, legacyDataError: 1002, timeout: 1011 } as const;
