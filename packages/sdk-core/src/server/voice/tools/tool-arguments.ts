import type { ChatMessageToolCall } from '../../../contract/chat.js';
import type { ContextMessageToolCall } from '../../../contract/contexts.js';

/** A model's tool call arguments (a JSON string) as an object; undefined when they are not a JSON object. */
export function parseToolArguments(text: string): Record<string, unknown> | undefined {
  if (text.trim() === '') return {};
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * A model's tool call as transcriptions and context messages record it: the arguments as an object
 * (empty when the model's were not a JSON object).
 *
 * @example
 * recordedToolCall({ id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } })
 * // { id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: { city: 'Paris' } } }
 */
export function recordedToolCall(call: ChatMessageToolCall): ContextMessageToolCall {
  return { id: call.id, type: 'function', function: { name: call.function.name, arguments: parseToolArguments(call.function.arguments) ?? {} } };
}
