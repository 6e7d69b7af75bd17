/**
 * The events of OpenAI's Realtime API in transcription mode (`/v1/realtime?intent=transcription`, beta protocol
 * `OpenAI-Beta: realtime=v1`) that the adapter sends and reads and the fake speaks. All are JSON text frames.
 */

export interface RealtimeTurnDetection {
  type: 'server_vad';
  threshold?: number;
  prefix_padding_ms?: number;
  silence_duration_ms?: number;
}

export interface TranscriptionSessionConfig {
  input_audio_format?: 'pcm16' | 'g711_ulaw' | 'g711_alaw';
  input_audio_transcription?: { model: string; language?: string; prompt?: string };
  turn_detection?: RealtimeTurnDetection | null;
  input_audio_noise_reduction?: { type: 'near_field' | 'far_field' } | null;
  include?: string[];
}

export type RealtimeClientEvent =
  | { type: 'transcription_session.update'; event_id?: string; session: TranscriptionSessionConfig }
  | { type: 'input_audio_buffer.append'; event_id?: string; audio: string }
  | { type: 'input_audio_buffer.commit'; event_id?: string }
  | { type: 'input_audio_buffer.clear'; event_id?: string };

export interface RealtimeLogprob {
  token: string;
  logprob: number;
  bytes: number[];
}

export interface RealtimeErrorEvent {
  type: 'error';
  event_id: string;
  error: { type: string; code: string | null; message: string; param: string | null; event_id: string | null };
}

export type RealtimeServerEvent =
  | { type: 'transcription_session.created' | 'transcription_session.updated'; event_id: string; session: Record<string, unknown> }
  | { type: 'input_audio_buffer.speech_started'; event_id: string; item_id: string; audio_start_ms: number }
  | { type: 'input_audio_buffer.speech_stopped'; event_id: string; item_id: string; audio_end_ms: number }
  | { type: 'input_audio_buffer.committed'; event_id: string; item_id: string; previous_item_id: string | null }
  | { type: 'input_audio_buffer.cleared'; event_id: string }
  | {
      type: 'conversation.item.input_audio_transcription.delta';
      event_id: string;
      item_id: string;
      content_index: number;
      delta: string;
      logprobs?: RealtimeLogprob[] | null;
    }
  | {
      type: 'conversation.item.input_audio_transcription.completed';
      event_id: string;
      item_id: string;
      content_index: number;
      transcript: string;
      logprobs?: RealtimeLogprob[] | null;
    }
  | { type: 'conversation.item.input_audio_transcription.failed'; event_id: string; item_id: string; error: { type?: string; code?: string; message?: string } }
  | RealtimeErrorEvent;

/** The close code and reason OpenAI's realtime server ends a connection with after an `invalid_api_key` error. */
export const REALTIME_INVALID_KEY_CLOSE = { code: 3000, reason: 'invalid_request_error.invalid_api_key' } as const;
export const REALTIME_SAMPLE_RATE = 24_000;
