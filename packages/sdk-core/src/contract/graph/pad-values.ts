import { z } from 'zod';
import type { PadConstraints, PadDataType } from './pad-constraints.js';

/** Roles of a context message. */
export const ContextMessageRoleName = z.enum(['system', 'user', 'assistant', 'tool']);
export type ContextMessageRoleName = z.infer<typeof ContextMessageRoleName>;

export const ContextMessageContentItem = z.looseObject({
  content_type: z.enum(['text', 'image', 'audio', 'video']),
  text: z.string().nullish(),
});
export type ContextMessageContentItem = z.infer<typeof ContextMessageContentItem>;

export const GraphToolCall = z.object({
  call_id: z.string(),
  index: z.number().int(),
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
  content: z.array(ContextMessageContentItem).default([]),
  tool_calls: z.array(GraphToolCall).default([]),
  tool_call_id: z.string().nullish(),
  refusal: z.string().nullish(),
});
export type GraphContextMessage = z.infer<typeof GraphContextMessage>;

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
  | { type: 'tool_definition'; name: string; description: string; parameters?: Record<string, unknown> | null; destination: unknown }
  | { type: 'viseme'; value: string }
  | null;

export const ClientPadValueSchema: z.ZodType<ClientPadValue> = z.lazy(() =>
  z.union([
    z.null(),
    z.object({ type: z.literal('string'), value: z.string() }),
    z.object({ type: z.literal('integer'), value: z.number().int() }),
    z.object({ type: z.literal('float'), value: z.number() }),
    z.object({ type: z.literal('boolean'), value: z.boolean() }),
    z.object({ type: z.literal('enum'), value: z.string() }),
    z.object({ type: z.literal('trigger') }),
    z.object({ type: z.literal('secret'), secret_id: z.string(), name: z.string() }),
    z.object({ type: z.literal('node_reference'), node_id: z.string() }),
    z.object({ type: z.literal('context_message_role'), value: ContextMessageRoleName }),
    GraphContextMessage,
    z.object({ type: z.literal('list'), count: z.number().int(), items: z.array(ClientPadValueSchema) }),
    z.object({ type: z.literal('object'), value: z.record(z.string(), z.unknown()) }),
    z.object({ type: z.literal('audio_clip'), transcription: z.string().nullable(), duration: z.number() }),
    z.looseObject({ type: z.literal('tool_definition'), name: z.string(), description: z.string(), destination: z.unknown() }),
    z.object({ type: z.literal('viseme'), value: z.string() }),
  ]),
) as z.ZodType<ClientPadValue>;

export * from './pad-value-functions.js';
