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

/** The text of a context message (its text items joined). */
export function contextMessageText(message: GraphContextMessage): string {
  return message.content
    .filter((item) => item.content_type === 'text')
    .map((item) => item.text ?? '')
    .join('');
}

/** Builds a context message holding one text. */
export function textContextMessage(role: ContextMessageRoleName, text: string, extra: Partial<GraphContextMessage> = {}): GraphContextMessage {
  return { type: 'context_message', role: { type: 'context_message_role', value: role }, content: [{ content_type: 'text', text }], tool_calls: [], ...extra };
}

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

/** The trigger value: a pad event without data. */
export const TRIGGER = Object.freeze({ type: 'trigger' as const });
export type Trigger = typeof TRIGGER;
export function isTrigger(value: unknown): value is Trigger {
  return typeof value === 'object' && value !== null && (value as { type?: unknown }).type === 'trigger';
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The plain value a pad holds, from a value in the client format (as stored in graphs, sent in
 * `push_value` and in run `overrides`). Lenient the way stored graphs need: `{type: "string", value}` is
 * accepted for an enum or secret pad, a bare primitive for any primitive pad.
 *
 * Plain values: strings (string, enum, secret name, role, node id), numbers, booleans, arrays (list),
 * records (object), context messages, `TRIGGER`.
 */
export function plainPadValue(value: unknown): unknown {
  if (!isRecord(value)) return value;
  switch (value.type) {
    case 'trigger':
      return TRIGGER;
    case 'context_message':
      return GraphContextMessage.safeParse(value).data ?? value;
    case 'list':
      return Array.isArray(value.items) ? value.items.map(plainPadValue) : [];
    case 'secret':
      return typeof value.name === 'string' ? value.name : (value.secret_id ?? value.value ?? null);
    case 'node_reference':
      return value.node_id ?? value.value ?? null;
    case 'audio_clip':
    case 'tool_definition':
      return value;
    default:
      return 'value' in value ? plainPadValue(value.value) : value;
  }
}

/** The first data type of a pad's constraints (what its values are presented as), or undefined for any. */
export function primaryType(constraints: PadConstraints): PadDataType | undefined {
  return constraints?.[0]?.type;
}

/**
 * A plain pad value in the client format, typed by the pad's constraints (or by the value itself when the
 * pad takes any type). Answers undefined for values that never leave the runtime (audio, streams).
 */
export function clientPadValue(value: unknown, constraints: PadConstraints): ClientPadValue | undefined {
  const type = primaryType(constraints);
  if (value === null || value === undefined) return null;
  if (isTrigger(value)) return TRIGGER;
  if (isRecord(value) && value.type === 'context_message') return value as GraphContextMessage;
  if (isRecord(value) && (value.type === 'audio_clip' || value.type === 'tool_definition')) return value as ClientPadValue;
  switch (typeof value) {
    case 'string':
      if (type === 'enum') return { type: 'enum', value };
      if (type === 'secret') return { type: 'secret', secret_id: value, name: value };
      if (type === 'node_reference') return { type: 'node_reference', node_id: value };
      if (type === 'context_message_role' && ContextMessageRoleName.safeParse(value).success) return { type: 'context_message_role', value: value as ContextMessageRoleName };
      return { type: 'string', value };
    case 'number':
      return type === 'integer' || (type === undefined && Number.isInteger(value)) ? { type: 'integer', value } : { type: 'float', value };
    case 'boolean':
      return { type: 'boolean', value };
    default:
      break;
  }
  if (Array.isArray(value)) {
    const itemConstraints = constraints?.[0]?.item_type_constraints ?? null;
    const items = value.map((item) => clientPadValue(item, itemConstraints)).filter((item): item is ClientPadValue => item !== undefined);
    return { type: 'list', count: items.length, items };
  }
  if (isRecord(value) && !('kind' in value && typeof value.kind === 'string' && value.kind.startsWith('runtime:'))) return { type: 'object', value };
  return undefined;
}
