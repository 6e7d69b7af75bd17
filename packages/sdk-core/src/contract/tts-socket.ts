/**
 * Messages of the streaming TTS websocket (spec part 4, "TTS websocket messages").
 *
 * Written with `zod/mini` so the browser TTS client can parse what it receives without pulling the full
 * zod build into its bundle.
 */
import * as z from 'zod/mini';

const SessionId = z.string().check(z.minLength(1), z.maxLength(200));
const EmptyPayload = z.object({});

/** Client -> service: opens a synthesis session with a voice. */
export const TtsStartSessionMessage = z.object({
  type: z.literal('start_session'),
  session: SessionId,
  payload: z.object({ voice: z.string().check(z.minLength(1), z.maxLength(200)) }),
});

/** Client -> service: more text to speak. */
export const TtsPushTextMessage = z.object({
  type: z.literal('push_text'),
  session: SessionId,
  payload: z.object({ text: z.string() }),
});

/** Client -> service: no more text; the service flushes and answers `final`. */
export const TtsEndOfStreamMessage = z.object({
  type: z.literal('eos'),
  session: SessionId,
  payload: EmptyPayload,
});

/**
 * Any message a client sends over the TTS socket, tagged by `type`.
 *
 * @example
 * const message = TtsClientMessage.parse(JSON.parse(frame));
 * if (message.type === 'push_text') synthesise(message.payload.text);
 */
export const TtsClientMessage = z.discriminatedUnion('type', [TtsStartSessionMessage, TtsPushTextMessage, TtsEndOfStreamMessage]);
export type TtsClientMessage = z.infer<typeof TtsClientMessage>;

/** Service -> client: a chunk of raw audio. */
export const TtsAudioMessage = z.object({
  type: z.literal('audio'),
  session: SessionId,
  payload: z.object({
    /** Base64 of little-endian signed 16-bit PCM samples. */
    audio: z.string().check(z.regex(/^[A-Za-z0-9+/]*={0,2}$/)),
    sample_rate: z.int().check(z.positive()),
    channels: z.int().check(z.positive()),
    audio_format: z.literal('pcm16le'),
    encoding: z.literal('pcm'),
  }),
});

/** Service -> client: every audio chunk of the session was sent. */
export const TtsFinalMessage = z.object({
  type: z.literal('final'),
  session: SessionId,
  payload: EmptyPayload,
});

/** Service -> client: the session failed. */
export const TtsErrorMessage = z.object({
  type: z.literal('error'),
  session: SessionId,
  payload: z.object({ message: z.string() }),
});

/**
 * Any message the service sends over the TTS socket, tagged by `type`.
 *
 * @example
 * const result = TtsServiceMessage.safeParse(JSON.parse(event.data));
 * if (result.success && result.data.type === 'audio') play(result.data.payload.audio);
 */
export const TtsServiceMessage = z.discriminatedUnion('type', [TtsAudioMessage, TtsFinalMessage, TtsErrorMessage]);
export type TtsServiceMessage = z.infer<typeof TtsServiceMessage>;

export type TtsStartSessionMessage = z.infer<typeof TtsStartSessionMessage>;
export type TtsPushTextMessage = z.infer<typeof TtsPushTextMessage>;
export type TtsEndOfStreamMessage = z.infer<typeof TtsEndOfStreamMessage>;
export type TtsAudioMessage = z.infer<typeof TtsAudioMessage>;
export type TtsFinalMessage = z.infer<typeof TtsFinalMessage>;
export type TtsErrorMessage = z.infer<typeof TtsErrorMessage>;
