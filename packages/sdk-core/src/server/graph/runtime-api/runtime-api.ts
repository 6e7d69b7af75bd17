import type { Logger } from 'pino';
import {
  RUNTIME_API_TOPIC,
  RuntimeRequest,
  type RuntimeApiEnvelope,
  type RuntimeEventPayload,
  type RuntimeLogItem,
} from '../../../contract/graph/runtime-api.js';
import { clientPadValue, plainPadValue } from '../../../contract/graph/pad-values.js';
import type { AgentRoomConnection, ReceivedData } from '../../engines/media/index.js';
import type { GraphRuntime } from '../runtime/graph-runtime.js';
import { PropertySinkPad, PropertySourcePad, type RuntimePad } from '../runtime/pads.js';
import type { RunLogEntry } from '../runtime/run-log.js';
import { pushPadValue, readPadValue, runPad } from './pad-push.js';

/** Log entries are sent in batches at most this often, ms. */
const LOG_FLUSH_MS = 100;
const MAX_LOG_BATCH = 50;
/** The `value` events kept per client for `replay_events` (the oldest are dropped first). */
export const MAX_REPLAY_EVENTS = 1_000;

/** The `value` events sent to one client, numbered, kept for a replay after a dropped connection. */
interface SentEvents {
  seq: number;
  events: Array<{ seq: number; payload: RuntimeEventPayload }>;
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * A run's `runtime_api` topic: answers clients' requests (`ack` at once, then `complete`), sends `value`
 * events of the pads each client subscribed to (to that client only), and the run's `logs` to everyone.
 *
 * @example
 * const api = new RuntimeApi(connection, runtime, logger);
 * api.start();
 * api.log(entry);
 */
export class RuntimeApi {
  /** identity -> subscriptions (`node.pad` -> unsubscribe). */
  private readonly subscriptions = new Map<string, Map<string, () => void>>();
  /** identity -> the value events sent to it (kept when it leaves: a client that rejoins asks for what it missed). */
  private readonly sent = new Map<string, SentEvents>();
  private readonly pendingLogs: RuntimeLogItem[] = [];
  private logTimer: NodeJS.Timeout | undefined;
  private unsubscribeData: (() => void) | undefined;
  private unsubscribeLeft: (() => void) | undefined;

  constructor(
    private readonly connection: AgentRoomConnection,
    private readonly runtime: GraphRuntime,
    private readonly logger: Logger,
  ) {}

  start(): void {
    this.unsubscribeData = this.connection.on('data', (data) => this.receive(data));
    this.unsubscribeLeft = this.connection.on('participantLeft', (participant) => this.dropSubscriptions(participant.identity));
  }

  stop(): void {
    this.unsubscribeData?.();
    this.unsubscribeLeft?.();
    for (const identity of [...this.subscriptions.keys()]) this.dropSubscriptions(identity);
    if (this.logTimer) clearTimeout(this.logTimer);
    this.flushLogs();
  }

  /** Queues a log entry for the `logs` event. */
  log(entry: RunLogEntry): void {
    this.pendingLogs.push({ ...entry });
    if (this.pendingLogs.length >= MAX_LOG_BATCH) this.flushLogs();
    else this.logTimer ??= setTimeout(() => this.flushLogs(), LOG_FLUSH_MS);
  }

  private flushLogs(): void {
    this.logTimer = undefined;
    if (this.pendingLogs.length === 0) return;
    const items = this.pendingLogs.splice(0);
    this.send({ type: 'event', payload: { type: 'logs', items } });
  }

  private send(message: RuntimeApiEnvelope, to?: string): void {
    this.connection
      .sendData(JSON.stringify(message), { topic: RUNTIME_API_TOPIC, reliable: true, ...(to ? { destinationIdentities: [to] } : {}) })
      .catch((error: unknown) => this.logger.debug({ err: error }, 'a runtime_api message was not sent'));
  }

  private receive(data: ReceivedData): void {
    if (data.topic !== RUNTIME_API_TOPIC || !data.from) return;
    const from = data.from;
    let json: unknown;
    try {
      json = JSON.parse(new TextDecoder().decode(data.payload));
    } catch {
      return;
    }
    const parsed = RuntimeRequest.safeParse(json);
    if (!parsed.success) {
      const reqId = typeof (json as { req_id?: unknown } | null)?.req_id === 'string' ? (json as { req_id: string }).req_id : undefined;
      if (reqId && (json as { type?: unknown }).type === 'request') {
        this.send({ type: 'ack', req_id: reqId }, from);
        this.send({ type: 'complete', req_id: reqId, error: `invalid request: ${parsed.error.issues[0]?.message ?? 'malformed'}` }, from);
      }
      return;
    }
    const request = parsed.data;
    this.send({ type: 'ack', req_id: request.req_id }, from);
    try {
      const payload = this.handle(request, from);
      this.send({ type: 'complete', req_id: request.req_id, payload }, from);
    } catch (error) {
      this.send({ type: 'complete', req_id: request.req_id, error: errorMessage(error) }, from);
    }
  }

  private handle(request: RuntimeRequest, from: string): { type: string; [key: string]: unknown } {
    const { payload } = request;
    switch (payload.type) {
      case 'push_value':
        pushPadValue(this.runtime, payload.node_id, payload.pad_id, payload.value === undefined ? undefined : plainPadValue(payload.value));
        return { type: 'push_value' };
      case 'get_value':
        return { type: 'get_value', value: readPadValue(this.runtime, payload.node_id, payload.pad_id) };
      case 'get_list_items': {
        const value = readPadValue(this.runtime, payload.node_id, payload.pad_id);
        if (value === null || value.type !== 'list') throw new Error(`node '${payload.node_id}' pad '${payload.pad_id}' does not hold a list`);
        return { type: 'get_list_items', items: value.items };
      }
      case 'subscribe': {
        const pad = runPad(this.runtime, payload.node_id, payload.pad_id);
        this.subscribe(from, pad, payload.node_id);
        return { type: 'subscribe' };
      }
      case 'replay_events': {
        for (const event of this.sent.get(from)?.events ?? []) {
          if (event.seq > payload.after) this.send({ type: 'event', payload: event.payload, seq: event.seq }, from);
        }
        return { type: 'replay_events' };
      }
      case 'unsubscribe': {
        const key = `${payload.node_id}.${payload.pad_id}`;
        this.subscriptions.get(from)?.get(key)?.();
        this.subscriptions.get(from)?.delete(key);
        return { type: 'unsubscribe' };
      }
    }
  }

  private subscribe(identity: string, pad: RuntimePad, nodeId: string): void {
    let mine = this.subscriptions.get(identity);
    if (!mine) this.subscriptions.set(identity, (mine = new Map<string, () => void>()));
    const key = `${nodeId}.${pad.id}`;
    if (mine.has(key)) return;
    const emit = (value: unknown): void => {
      const client = clientPadValue(value, pad.types);
      if (client === undefined) return;
      this.sendEvent(identity, { type: 'value', node_id: nodeId, pad_id: pad.id, value: client });
    };
    mine.set(key, pad.onValue(emit));
    if (pad instanceof PropertySinkPad || pad instanceof PropertySourcePad) emit(pad.value);
  }

  /** Sends a value event to one client, numbered and kept for `replay_events`. */
  private sendEvent(identity: string, payload: RuntimeEventPayload): void {
    let sent = this.sent.get(identity);
    if (!sent) this.sent.set(identity, (sent = { seq: 0, events: [] }));
    const seq = ++sent.seq;
    sent.events.push({ seq, payload });
    if (sent.events.length > MAX_REPLAY_EVENTS) sent.events.shift();
    this.send({ type: 'event', payload, seq }, identity);
  }

  private dropSubscriptions(identity: string): void {
    for (const unsubscribe of this.subscriptions.get(identity)?.values() ?? []) unsubscribe();
    this.subscriptions.delete(identity);
  }
}
