import { z } from 'zod';

/**
 * The open engine's local speech server protocol (its `services/gabber-stt`, spoken by LocalSTT and LocalViseme):
 * JSON text messages over a WebSocket, each `{payload, session_id}`. The client starts a session (16 kHz PCM16,
 * transcription or lip sync), then sends audio as base64 PCM16 in 100 ms pieces (3200 bytes); the server answers
 * speech starts, interim and final transcriptions (with the session's sample range) and visemes.
 */
export const LOCAL_SPEECH_SAMPLE_RATE = 16_000;
/** Bytes of audio per message: 100 ms of 16 kHz PCM16, as the engine sends. */
export const LOCAL_SPEECH_CHUNK_BYTES = 3200;

export type LocalSpeechRequest =
  | { type: 'start_session'; sample_rate: number; stt_enabled: boolean; lipsync_enabled: boolean }
  | { type: 'audio'; b64_data: string }
  | { type: 'end_session' };

export const LocalSpeechResponse = z.object({
  session_id: z.string(),
  payload: z.discriminatedUnion('type', [
    z.object({ type: z.literal('error'), message: z.string() }),
    z.object({ type: z.literal('speaking_started'), trans_id: z.number().int(), start_sample: z.number().int() }),
    z.object({
      type: z.literal('interim_transcription'),
      trans_id: z.number().int(),
      start_sample: z.number().int(),
      end_sample: z.number().int(),
      transcription: z.string(),
    }),
    z.object({
      type: z.literal('final_transcription'),
      trans_id: z.number().int(),
      start_sample: z.number().int(),
      end_sample: z.number().int(),
      transcription: z.string(),
    }),
    z.object({
      type: z.literal('lipsync_viseme'),
      viseme: z.string(),
      probability: z.number(),
      start_sample: z.number().int(),
      end_sample: z.number().int(),
    }),
  ]),
});
export type LocalSpeechResponse = z.infer<typeof LocalSpeechResponse>;
export type LocalSpeechEvent = LocalSpeechResponse['payload'];
