import type { z } from 'zod';
import { RealtimeClientEvent } from '../../../contract/openai-realtime-events.js';
import { RealtimeRequestError } from '../../domain/openai-realtime/index.js';
import { GA_DIALECT, type RealtimeDialect } from './beta-dialect.js';

/** A client event, or why it cannot be read (and its `event_id` when it had one). */
export type ParsedClientEvent = { event: RealtimeClientEvent } | { error: RealtimeRequestError; eventId: string | undefined };

function where(path: ReadonlyArray<PropertyKey>): string {
  return path
    .map((key) => (typeof key === 'number' ? `[${key}]` : `.${String(key)}`))
    .join('')
    .replace(/^\./, '')
    .replace(/\.\[/g, '[');
}

/** The value at `path` in what the client sent. */
function valueAt(value: unknown, path: ReadonlyArray<PropertyKey>): unknown {
  let at = value;
  for (const key of path) at = typeof at === 'object' && at !== null ? (at as Record<PropertyKey, unknown>)[key] : undefined;
  return at;
}

/** OpenAI's wording of the first problem: an unknown parameter, an unknown event type, or a value out of range. */
function describe(issue: z.core.$ZodIssue, event: object): RealtimeRequestError {
  if (issue.code === 'unrecognized_keys') {
    const param = where([...issue.path, issue.keys[0]!]);
    return new RealtimeRequestError(`Unknown parameter: '${param}' (this server does not serve it).`, param, 'unknown_parameter');
  }
  const param = where(issue.path) || null;
  if (param === 'type' && issue.code === 'invalid_union')
    return new RealtimeRequestError('Invalid value for the event type: not a client event of the Realtime API.', 'type', 'invalid_value');
  if (issue.code === 'invalid_type' && valueAt(event, issue.path) === undefined)
    return new RealtimeRequestError(`Missing required parameter: '${param}'.`, param, 'missing_required_parameter');
  return new RealtimeRequestError(`Invalid value for '${param ?? 'event'}': ${issue.message}.`, param, 'invalid_value');
}

/**
 * Reads one websocket message as a client event of the Realtime API: JSON, then the contract's strict union. A
 * message that is not one is an `invalid_request_error` naming the parameter, as OpenAI answers it.
 *
 * @example
 * const parsed = parseClientEvent(text);
 * if ('error' in parsed) send({ type: 'error', error: parsed.error.detail(parsed.eventId) });
 */
export function parseClientEvent(text: string, dialect: RealtimeDialect = GA_DIALECT): ParsedClientEvent {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { error: new RealtimeRequestError('The event is not valid JSON.', null, 'invalid_json'), eventId: undefined };
  }
  const eventId =
    typeof value === 'object' && value !== null && typeof (value as { event_id?: unknown }).event_id === 'string'
      ? (value as { event_id: string }).event_id
      : undefined;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { error: new RealtimeRequestError('An event is a JSON object with a `type`.', null, 'invalid_value'), eventId };
  }
  const translated = dialect.incoming(value as Record<string, unknown>);
  const parsed = RealtimeClientEvent.safeParse(translated);
  if (parsed.success) return { event: parsed.data };
  return { error: describe(parsed.error.issues[0]!, translated), eventId };
}
