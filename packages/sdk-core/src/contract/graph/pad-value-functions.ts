import type { PadConstraints, PadDataType } from './pad-constraints.js';
import type { ClientPadValue, ContextMessageRoleName, GraphContextMessage } from './pad-value-schemas.js';

/**
 * Pad value helpers without zod (the browser entries import these; the schemas are in `pad-value-schemas.ts`).
 */

const ROLES = new Set(['system', 'user', 'assistant', 'tool']);

/** A stored context message with its defaults filled (`content`, `tool_calls`); unchanged when it is not one. */
function normalizeContextMessage(value: Record<string, unknown>): unknown {
  const role = value.role as { value?: unknown } | undefined;
  if (typeof role !== 'object' || role === null || !ROLES.has(String(role.value))) return value;
  return { ...value, content: Array.isArray(value.content) ? value.content : [], tool_calls: Array.isArray(value.tool_calls) ? value.tool_calls : [] };
}

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
      return normalizeContextMessage(value);
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
  if (isRecord(value) && (value.type === 'audio_clip' || value.type === 'video_clip' || value.type === 'av_clip' || value.type === 'tool_definition'))
    return value as ClientPadValue;
  switch (typeof value) {
    case 'string':
      if (type === 'enum') return { type: 'enum', value };
      if (type === 'viseme') return { type: 'viseme', value };
      if (type === 'secret') return { type: 'secret', secret_id: value, name: value };
      if (type === 'node_reference') return { type: 'node_reference', node_id: value };
      if (type === 'context_message_role' && ROLES.has(value)) return { type: 'context_message_role', value: value as ContextMessageRoleName };
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
