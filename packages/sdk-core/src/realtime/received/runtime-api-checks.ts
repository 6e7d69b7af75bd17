/** The `runtime_api` topic of app runs, checked as `contract/graph/runtime-api.ts` parses it, without zod (see `checks.ts`). */
import type { RuntimeApiEnvelope, RuntimeEventPayload, RuntimeLogItem, RuntimeRequestPayload } from '../../contract/graph/runtime-api.js';
import { array, int, literal, nullish, object, oneOf, optional, string, tagged, type Check } from './checks.js';
import { clientPadValue } from './pad-value-checks.js';

const id = string(1, 128);
const at = <Tag extends RuntimeRequestPayload['type']>(type: Tag) => ({ type: literal(type), node_id: id, pad_id: id });

const requestPayload = tagged<RuntimeRequestPayload>({
  push_value: object({ ...at('push_value'), value: optional(clientPadValue) }),
  get_value: object(at('get_value')),
  get_list_items: object(at('get_list_items')),
  subscribe: object(at('subscribe')),
  unsubscribe: object(at('unsubscribe')),
  replay_events: object({ type: literal('replay_events'), after: int(0) }),
});

const logItem = object<RuntimeLogItem>({
  message: string(),
  level: oneOf({ debug: 1, info: 1, warning: 1, error: 1 }),
  timestamp: string(),
  node: nullish(string()),
  subgraph: nullish(string()),
  pad: nullish(string()),
});

const eventPayload = tagged<RuntimeEventPayload>({
  value: object({ type: literal('value'), node_id: string(), pad_id: string(), value: clientPadValue }),
  logs: object({ type: literal('logs'), items: array(logItem) }),
});

/** A message of the `runtime_api` topic as `RuntimeApiEnvelope` parses it. */
export const runtimeApiMessage: Check<RuntimeApiEnvelope> = tagged<RuntimeApiEnvelope>({
  request: object({ type: literal('request'), req_id: string(1, 200), payload: requestPayload }),
  ack: object({ type: literal('ack'), req_id: string() }),
  complete: object({
    type: literal('complete'),
    req_id: string(),
    error: nullish(string()),
    payload: nullish(object({ type: string() }, true)),
  }),
  event: object({ type: literal('event'), payload: eventPayload, seq: optional(int(1)) }),
});
