import type { GraphInput } from '../../contract/apps.js';
import type { PadConstraints } from '../../contract/graph/pad-constraints.js';
import { clientPadValue } from '../../contract/graph/pad-value-functions.js';
import type { ClientPadValue } from '../../contract/graph/pad-values.js';

/** Types of the client pad value format (`{type, ...}`): a value tagged with one is sent as it is. */
const CLIENT_VALUE_TYPES = new Set([
  'string',
  'integer',
  'float',
  'boolean',
  'enum',
  'trigger',
  'secret',
  'node_reference',
  'context_message_role',
  'context_message',
  'list',
  'object',
  'audio_clip',
  'tool_definition',
  'viseme',
]);

function isClientPadValue(value: unknown): value is Exclude<ClientPadValue, null> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && CLIENT_VALUE_TYPES.has(String((value as { type?: unknown }).type));
}

/** A pad's allowed types as the run's graph declares them (null takes any type). */
function padTypes(graph: GraphInput, nodeId: string, padId: string): PadConstraints {
  const node = graph.nodes?.find((candidate) => candidate.id === nodeId);
  if (!node) throw new TypeError(`the run's graph has no node '${nodeId}'`);
  const pad = node.pads?.find((candidate) => candidate.id === padId);
  if (!pad) throw new TypeError(`node '${nodeId}' (${node.type}) has no pad '${padId}'`);
  return pad.allowed_types ?? pad.default_allowed_types ?? null;
}

/**
 * A value to push, in the client format: typed values pass as they are; plain ones (`'hi'`, `3`, `true`,
 * arrays, records) are typed by the pad's types when the graph is known, else by the value itself.
 * Undefined stays undefined (fires a stateless pad without data).
 *
 * @example
 * toClientPadValue(graph, 'max_tokens', 'value', 300); // { type: 'integer', value: 300 }
 */
export function toClientPadValue(graph: GraphInput | undefined, nodeId: string, padId: string, value: unknown): ClientPadValue | undefined {
  const types = graph ? padTypes(graph, nodeId, padId) : null;
  if (value === undefined) return undefined;
  if (isClientPadValue(value)) return value;
  const typed = clientPadValue(value, types);
  if (typed === undefined) throw new TypeError(`node '${nodeId}' pad '${padId}': a ${typeof value} cannot be pushed (send a typed pad value)`);
  return typed;
}
