/**
 * The schemas and types of pad values as clients send and receive them, written with `zod/mini`: the server checks what
 * clients push with them; the browser's app run connector checks what a run sends to the same effect without zod
 * (`realtime/received/`, decision 0121). `pad-values.ts` re-exports them with the zod-free helpers of
 * `pad-value-functions.ts`.
 */
import * as z from 'zod/mini';

/** Roles of a context message. */
export const ContextMessageRoleName = z.enum(['system', 'user', 'assistant', 'tool']);
export type ContextMessageRoleName = z.infer<typeof ContextMessageRoleName>;

/** A picture in a context message: a JPEG data URI (what OpenAI's `image_url` parts take) and its size. */
export const ContextMessageImage = z.object({ url: z.string(), width: z.int(), height: z.int() });
export type ContextMessageImage = z.infer<typeof ContextMessageImage>;

/**
 * A clip in a context message: an MP4 data URI for models that take `video_url` parts (null when the server could
 * not encode one), and JPEG frames sampled across it for the others.
 */
export const ContextMessageVideo = z.object({ url: z.nullable(z.string()), frames: z.array(z.string()), frame_count: z.int(), duration: z.number() });
export type ContextMessageVideo = z.infer<typeof ContextMessageVideo>;

export const ContextMessageContentItem = z.looseObject({
  content_type: z.enum(['text', 'image', 'audio', 'video']),
  text: z.nullish(z.string()),
  image: z.nullish(ContextMessageImage),
  video: z.nullish(ContextMessageVideo),
});
export type ContextMessageContentItem = z.infer<typeof ContextMessageContentItem>;

export const GraphToolCall = z.object({
  call_id: z.string(),
  index: z.int(),
  name: z.string(),
  arguments: z.record(z.string(), z.unknown()),
});
export type GraphToolCall = z.infer<typeof GraphToolCall>;

/**
 * A message of an LLM context as pads carry it (the client format): `role` is itself a typed value.
 *
 * @example
 * const message: GraphContextMessage = { type: 'context_message', role: { type: 'context_message_role', value: 'user' }, content: [{ content_type: 'text', text: 'Hi' }], tool_calls: [] };
 */
export const GraphContextMessage = z.looseObject({
  type: z.literal('context_message'),
  role: z.object({ type: z.literal('context_message_role'), value: ContextMessageRoleName }),
  content: z._default(z.array(ContextMessageContentItem), []),
  tool_calls: z._default(z.array(GraphToolCall), []),
  tool_call_id: z.nullish(z.string()),
  refusal: z.nullish(z.string()),
});
export type GraphContextMessage = z.infer<typeof GraphContextMessage>;

/** A video clip as clients see it: how many frames over how many seconds (the pictures stay in the run). */
export interface VideoClipSummary {
  type: 'video_clip';
  frame_count: number;
  duration: number;
}
const VideoClipSummarySchema = z.object({ type: z.literal('video_clip'), frame_count: z.int(), duration: z.number() });

/**
 * A pad value as clients send and receive it on the `runtime_api` topic: tagged by `type`.
 * Audio and text streams never leave the runtime.
 */
export type ClientPadValue =
  | { type: 'string'; value: string }
  | { type: 'integer'; value: number }
  | { type: 'float'; value: number }
  | { type: 'boolean'; value: boolean }
  | { type: 'enum'; value: string }
  | { type: 'trigger' }
  | { type: 'secret'; secret_id: string; name: string }
  | { type: 'node_reference'; node_id: string }
  | { type: 'context_message_role'; value: ContextMessageRoleName }
  | GraphContextMessage
  | { type: 'list'; count: number; items: ClientPadValue[] }
  | { type: 'object'; value: Record<string, unknown> }
  | { type: 'audio_clip'; transcription: string | null; duration: number }
  | VideoClipSummary
  | { type: 'av_clip'; video: VideoClipSummary; audio: { type: 'audio_clip'; transcription: string | null; duration: number } }
  | { type: 'tool_definition'; name: string; description: string; parameters?: Record<string, unknown> | null; destination: unknown }
  | { type: 'viseme'; value: string }
  | null;

export const ClientPadValueSchema: z.ZodMiniType<ClientPadValue> = z.lazy(() =>
  z.union([
    z.null(),
    z.object({ type: z.literal('string'), value: z.string() }),
    z.object({ type: z.literal('integer'), value: z.int() }),
    z.object({ type: z.literal('float'), value: z.number() }),
    z.object({ type: z.literal('boolean'), value: z.boolean() }),
    z.object({ type: z.literal('enum'), value: z.string() }),
    z.object({ type: z.literal('trigger') }),
    z.object({ type: z.literal('secret'), secret_id: z.string(), name: z.string() }),
    z.object({ type: z.literal('node_reference'), node_id: z.string() }),
    z.object({ type: z.literal('context_message_role'), value: ContextMessageRoleName }),
    GraphContextMessage,
    z.object({ type: z.literal('list'), count: z.int(), items: z.array(ClientPadValueSchema) }),
    z.object({ type: z.literal('object'), value: z.record(z.string(), z.unknown()) }),
    z.object({ type: z.literal('audio_clip'), transcription: z.nullable(z.string()), duration: z.number() }),
    VideoClipSummarySchema,
    z.object({
      type: z.literal('av_clip'),
      video: VideoClipSummarySchema,
      audio: z.object({ type: z.literal('audio_clip'), transcription: z.nullable(z.string()), duration: z.number() }),
    }),
    z.looseObject({ type: z.literal('tool_definition'), name: z.string(), description: z.string(), destination: z.unknown() }),
    z.object({ type: z.literal('viseme'), value: z.string() }),
  ]),
);
