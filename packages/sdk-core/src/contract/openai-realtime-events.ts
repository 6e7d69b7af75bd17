import { z } from 'zod';
import {
  RealtimeAudioFormat,
  RealtimeFunctionTool,
  RealtimeItem,
  RealtimeItemInput,
  RealtimeSessionAudioFormat,
  RealtimeSessionObject,
  RealtimeSessionUpdate,
  RealtimeToolChoice,
} from './openai-realtime-session.js';

/**
 * The events of OpenAI's Realtime API on `/v1/realtime` (GA names), one JSON object per websocket text message.
 * Client events are strict (an unknown field or event is an `error` event naming it; the socket stays open).
 */

const EventId = { event_id: z.string().max(128).optional() };
const Base64 = z.string().regex(/^[A-Za-z0-9+/]*={0,2}$/, 'must be base64');

/** Per response overrides of `response.create`. */
export const RealtimeResponseCreateParams = z.strictObject({
  conversation: z.enum(['auto', 'none']).optional(),
  input: z.array(RealtimeItemInput).max(1000).optional(),
  instructions: z.string().max(100_000).optional(),
  output_modalities: z.union([z.tuple([z.literal('audio')]), z.tuple([z.literal('text')])]).optional(),
  tools: z.array(RealtimeFunctionTool).max(128).optional(),
  tool_choice: RealtimeToolChoice.optional(),
  max_output_tokens: z.union([z.number().int().min(1).max(4096), z.literal('inf')]).optional(),
  metadata: z.record(z.string().max(64), z.string().max(512)).optional(),
  audio: z
    .strictObject({ output: z.strictObject({ format: RealtimeAudioFormat.optional(), voice: z.string().min(1).max(200).optional() }).optional() })
    .optional(),
});
export type RealtimeResponseCreateParams = z.infer<typeof RealtimeResponseCreateParams>;

export const RealtimeClientEvent = z.discriminatedUnion('type', [
  z.strictObject({ ...EventId, type: z.literal('session.update'), session: RealtimeSessionUpdate }),
  z.strictObject({ ...EventId, type: z.literal('input_audio_buffer.append'), audio: Base64.max(4_000_000) }),
  z.strictObject({ ...EventId, type: z.literal('input_audio_buffer.commit') }),
  z.strictObject({ ...EventId, type: z.literal('input_audio_buffer.clear') }),
  z.strictObject({ ...EventId, type: z.literal('conversation.item.create'), previous_item_id: z.string().nullable().optional(), item: RealtimeItemInput }),
  z.strictObject({ ...EventId, type: z.literal('conversation.item.retrieve'), item_id: z.string() }),
  z.strictObject({ ...EventId, type: z.literal('conversation.item.delete'), item_id: z.string() }),
  z.strictObject({
    ...EventId,
    type: z.literal('conversation.item.truncate'),
    item_id: z.string(),
    content_index: z.number().int().min(0),
    audio_end_ms: z.number().int().min(0),
  }),
  z.strictObject({ ...EventId, type: z.literal('response.create'), response: RealtimeResponseCreateParams.optional() }),
  z.strictObject({ ...EventId, type: z.literal('response.cancel'), response_id: z.string().optional() }),
  z.strictObject({ ...EventId, type: z.literal('output_audio_buffer.clear') }),
]);
export type RealtimeClientEvent = z.infer<typeof RealtimeClientEvent>;

export const RealtimeUsage = z.object({
  total_tokens: z.number().int(),
  input_tokens: z.number().int(),
  output_tokens: z.number().int(),
  input_token_details: z.object({ text_tokens: z.number().int(), audio_tokens: z.number().int(), cached_tokens: z.number().int() }),
  output_token_details: z.object({ text_tokens: z.number().int(), audio_tokens: z.number().int() }),
});
export type RealtimeUsage = z.infer<typeof RealtimeUsage>;

/** A response as the server reports it (`response.created`, `response.done`). */
export const RealtimeResponseObject = z.object({
  id: z.string(),
  object: z.literal('realtime.response'),
  status: z.enum(['in_progress', 'completed', 'cancelled', 'failed', 'incomplete']),
  status_details: z
    .object({
      type: z.enum(['completed', 'cancelled', 'failed', 'incomplete']),
      reason: z.string().optional(),
      error: z.object({ type: z.string(), code: z.string().optional(), message: z.string().optional() }).optional(),
    })
    .nullable(),
  output: z.array(RealtimeItem),
  conversation_id: z.string().nullable(),
  output_modalities: z.array(z.enum(['audio', 'text'])),
  max_output_tokens: z.union([z.number().int(), z.literal('inf')]),
  audio: z.object({ output: z.object({ format: RealtimeSessionAudioFormat, voice: z.string() }) }),
  metadata: z.record(z.string(), z.string()).nullable(),
  usage: RealtimeUsage.nullable(),
});
export type RealtimeResponseObject = z.infer<typeof RealtimeResponseObject>;

const ServerBase = { event_id: z.string() };
const InResponse = { ...ServerBase, response_id: z.string(), item_id: z.string(), output_index: z.number().int() };
const InPart = { ...InResponse, content_index: z.number().int() };
const Part = z.object({ type: z.enum(['text', 'audio']), text: z.string().optional(), transcript: z.string().optional() });

export const RealtimeErrorDetail = z.object({
  type: z.enum(['invalid_request_error', 'server_error']),
  code: z.string().nullable(),
  message: z.string(),
  param: z.string().nullable(),
  event_id: z.string().nullable(),
});
export type RealtimeErrorDetail = z.infer<typeof RealtimeErrorDetail>;

export const RealtimeServerEvent = z.discriminatedUnion('type', [
  z.object({ ...ServerBase, type: z.literal('error'), error: RealtimeErrorDetail }),
  z.object({ ...ServerBase, type: z.literal('session.created'), session: RealtimeSessionObject }),
  z.object({ ...ServerBase, type: z.literal('session.updated'), session: RealtimeSessionObject }),
  z.object({ ...ServerBase, type: z.literal('conversation.item.added'), previous_item_id: z.string().nullable(), item: RealtimeItem }),
  z.object({ ...ServerBase, type: z.literal('conversation.item.done'), previous_item_id: z.string().nullable(), item: RealtimeItem }),
  z.object({ ...ServerBase, type: z.literal('conversation.item.retrieved'), item: RealtimeItem }),
  z.object({ ...ServerBase, type: z.literal('conversation.item.deleted'), item_id: z.string() }),
  z.object({
    ...ServerBase,
    type: z.literal('conversation.item.truncated'),
    item_id: z.string(),
    content_index: z.number().int(),
    audio_end_ms: z.number().int(),
  }),
  z.object({
    ...ServerBase,
    type: z.literal('conversation.item.input_audio_transcription.completed'),
    item_id: z.string(),
    content_index: z.number().int(),
    transcript: z.string(),
    usage: z.object({ type: z.literal('duration'), seconds: z.number() }),
  }),
  z.object({
    ...ServerBase,
    type: z.literal('conversation.item.input_audio_transcription.failed'),
    item_id: z.string(),
    content_index: z.number().int(),
    error: z.object({ type: z.string(), code: z.string(), message: z.string(), param: z.string().nullable() }),
  }),
  z.object({ ...ServerBase, type: z.literal('input_audio_buffer.speech_started'), audio_start_ms: z.number().int(), item_id: z.string() }),
  z.object({ ...ServerBase, type: z.literal('input_audio_buffer.speech_stopped'), audio_end_ms: z.number().int(), item_id: z.string() }),
  z.object({ ...ServerBase, type: z.literal('input_audio_buffer.committed'), previous_item_id: z.string().nullable(), item_id: z.string() }),
  z.object({ ...ServerBase, type: z.literal('input_audio_buffer.cleared') }),
  // WebRTC only: the agent's track started / stopped playing a response's audio, or was cleared (output_audio_buffer.clear).
  z.object({ ...ServerBase, type: z.literal('output_audio_buffer.started'), response_id: z.string() }),
  z.object({ ...ServerBase, type: z.literal('output_audio_buffer.stopped'), response_id: z.string() }),
  z.object({ ...ServerBase, type: z.literal('output_audio_buffer.cleared'), response_id: z.string() }),
  z.object({ ...ServerBase, type: z.literal('response.created'), response: RealtimeResponseObject }),
  z.object({ ...ServerBase, type: z.literal('response.done'), response: RealtimeResponseObject }),
  z.object({ ...ServerBase, type: z.literal('response.output_item.added'), response_id: z.string(), output_index: z.number().int(), item: RealtimeItem }),
  z.object({ ...ServerBase, type: z.literal('response.output_item.done'), response_id: z.string(), output_index: z.number().int(), item: RealtimeItem }),
  z.object({ ...InPart, type: z.literal('response.content_part.added'), part: Part }),
  z.object({ ...InPart, type: z.literal('response.content_part.done'), part: Part }),
  z.object({ ...InPart, type: z.literal('response.output_text.delta'), delta: z.string() }),
  z.object({ ...InPart, type: z.literal('response.output_text.done'), text: z.string() }),
  z.object({ ...InPart, type: z.literal('response.output_audio.delta'), delta: z.string() }),
  z.object({ ...InPart, type: z.literal('response.output_audio.done') }),
  z.object({ ...InPart, type: z.literal('response.output_audio_transcript.delta'), delta: z.string() }),
  z.object({ ...InPart, type: z.literal('response.output_audio_transcript.done'), transcript: z.string() }),
  z.object({ ...InResponse, type: z.literal('response.function_call_arguments.delta'), call_id: z.string(), delta: z.string() }),
  z.object({ ...InResponse, type: z.literal('response.function_call_arguments.done'), call_id: z.string(), name: z.string(), arguments: z.string() }),
  z.object({
    ...ServerBase,
    type: z.literal('rate_limits.updated'),
    rate_limits: z.array(z.object({ name: z.enum(['requests', 'tokens']), limit: z.number(), remaining: z.number(), reset_seconds: z.number() })),
  }),
]);
export type RealtimeServerEvent = z.infer<typeof RealtimeServerEvent>;

/** A server event before its `event_id` is stamped. */
export type RealtimeServerEventBody = RealtimeServerEvent extends infer E ? (E extends { event_id: string } ? Omit<E, 'event_id'> : never) : never;
