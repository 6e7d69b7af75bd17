import { MAX_GENERATE_TEXT_LENGTH } from '../../../contract/voices.js';

/** Limits of the TTS websocket; see docs/decisions/0031-tts-socket.md. */
export interface TtsSocketLimits {
  /** Pause synthesis while the socket has more than this many bytes not yet written. */
  highWaterBytes: number;
  /** Characters a session may have waiting for synthesis. */
  maximumQueuedCharacters: number;
  /** Characters in one `push_text`. */
  maximumPushCharacters: number;
  /** Sessions open at once on one socket. */
  maximumSessions: number;
  /** Largest incoming message. */
  maximumMessageBytes: number;
  /** Audio samples per `audio` message (at 24 kHz): small enough to interleave sessions, large enough to be cheap. */
  samplesPerMessage: number;
}

export const DEFAULT_TTS_SOCKET_LIMITS: TtsSocketLimits = {
  highWaterBytes: 256 * 1024,
  maximumQueuedCharacters: 20_000,
  maximumPushCharacters: MAX_GENERATE_TEXT_LENGTH,
  maximumSessions: 16,
  maximumMessageBytes: 64 * 1024,
  samplesPerMessage: 4_800,
};

/** The socket's audio format: PCM16LE mono at 24 kHz, whatever the engine's native rate. */
export const TTS_SOCKET_SAMPLE_RATE = 24_000;
