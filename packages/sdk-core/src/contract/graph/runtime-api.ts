/**
 * The `runtime_api` data topic of app runs, written with `zod/mini`: the server checks requests with these schemas;
 * the browser's app run connector checks replies and events to the same effect without zod (`realtime/received/`,
 * decision 0121).
 */
import * as z from 'zod/mini';
import { ClientPadValueSchema } from './pad-values.js';

export { RUNTIME_API_TOPIC } from '../wire.js';

const Id = z.string().check(z.minLength(1), z.maxLength(128));
const PadAddress = { node_id: Id, pad_id: Id };

/** What a client asks of a run over the `runtime_api` topic. */
export const RuntimeRequestPayload = z.discriminatedUnion('type', [
  /** Sets a property pad, or fires a stateless pad (a trigger, a text into ChatInput). */
  z.object({ type: z.literal('push_value'), ...PadAddress, value: z.optional(ClientPadValueSchema) }),
  /** The value a property pad holds now. */
  z.object({ type: z.literal('get_value'), ...PadAddress }),
  /** The items of a list property pad (an LLM context's messages). */
  z.object({ type: z.literal('get_list_items'), ...PadAddress }),
  /** From now on, `value` events of this pad reach the client (its current value first, for property pads). */
  z.object({ type: z.literal('subscribe'), ...PadAddress }),
  z.object({ type: z.literal('unsubscribe'), ...PadAddress }),
  /**
   * The `value` events sent to this client after its event number `after` (`seq`), sent again with their numbers: what
   * a dropped connection lost. The connector asks once back from a resume or a rejoin.
   */
  z.object({ type: z.literal('replay_events'), after: z.int().check(z.nonnegative()) }),
]);
export type RuntimeRequestPayload = z.infer<typeof RuntimeRequestPayload>;

export const RuntimeRequest = z.object({
  type: z.literal('request'),
  req_id: z.string().check(z.minLength(1), z.maxLength(200)),
  payload: RuntimeRequestPayload,
});
export type RuntimeRequest = z.infer<typeof RuntimeRequest>;

/** A run's log entry. */
export const RuntimeLogItem = z.object({
  message: z.string(),
  level: z.enum(['debug', 'info', 'warning', 'error']),
  timestamp: z.string(),
  node: z.nullish(z.string()),
  subgraph: z.nullish(z.string()),
  pad: z.nullish(z.string()),
});
export type RuntimeLogItem = z.infer<typeof RuntimeLogItem>;

/** Run -> client: a subscribed pad's value, or log entries. */
export const RuntimeEventPayload = z.discriminatedUnion('type', [
  z.object({ type: z.literal('value'), node_id: z.string(), pad_id: z.string(), value: ClientPadValueSchema }),
  z.object({ type: z.literal('logs'), items: z.array(RuntimeLogItem) }),
]);
export type RuntimeEventPayload = z.infer<typeof RuntimeEventPayload>;

/**
 * Every message of the `runtime_api` topic: client `request` -> run `ack` at once -> run `complete` with
 * `error` or `payload` (`get_value`: `{type, value}`; `get_list_items`: `{type, items}`); run `event`s.
 */
export const RuntimeApiEnvelope = z.discriminatedUnion('type', [
  RuntimeRequest,
  z.object({ type: z.literal('ack'), req_id: z.string() }),
  z.object({ type: z.literal('complete'), req_id: z.string(), error: z.nullish(z.string()), payload: z.nullish(z.looseObject({ type: z.string() })) }),
  /** `seq`: the number of a `value` event among those sent to this client, from 1 (`logs` go to everyone, unnumbered). */
  z.object({ type: z.literal('event'), payload: RuntimeEventPayload, seq: z.optional(z.int().check(z.positive())) }),
]);
export type RuntimeApiEnvelope = z.infer<typeof RuntimeApiEnvelope>;
