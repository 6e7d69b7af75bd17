import type { RuntimeApiEnvelope, RuntimeEventPayload, RuntimeRequestPayload } from '../../contract/graph/runtime-api.js';
import { PalaverError } from '../../errors/palaver-error.js';
import { AbortError, ConnectionError, TimeoutError } from '../../errors/transport-errors.js';

/**
 * A run answered a `runtime_api` request with an error (an unknown node or pad, a value of the wrong
 * type, a pad that holds no list).
 *
 * @example
 * if (RuntimeApiError.isInstance(error)) console.warn(error.request, error.message);
 */
export class RuntimeApiError extends PalaverError {
  static override readonly marker: symbol = Symbol.for('palaver.error.RuntimeApiError');
  constructor(
    /** The request's type (`push_value`, `get_value`, ...). */
    readonly request: RuntimeRequestPayload['type'],
    message: string,
  ) {
    super(message);
  }
}

/** What a `complete` carries back: `{type}` plus the answer (`value` for `get_value`, `items` for `get_list_items`). */
export type RuntimeReply = { type: string; [key: string]: unknown };

export interface RuntimeApiClientOptions {
  /** Sends one request (JSON text) on the `runtime_api` topic to the run. */
  send: (text: string) => Promise<void>;
  /** Called with each event (`value`, `logs`) the run sends. */
  /** `seq`: the event's number among the value events sent to this client (`replay_events`). */
  onEvent: (event: RuntimeEventPayload, seq: number | undefined) => void;
  /** Give up when the run has not acknowledged a request this long (default 5 000 ms). */
  ackTimeoutMs?: number;
  /** Give up when the run has not completed a request this long (default 15 000 ms). */
  completeTimeoutMs?: number;
}

interface Pending {
  type: RuntimeRequestPayload['type'];
  acknowledged: boolean;
  timer: ReturnType<typeof setTimeout>;
  resolve: (reply: RuntimeReply) => void;
  reject: (error: Error) => void;
  cleanup: () => void;
}

let clientCount = 0;

/**
 * The client side of a run's `runtime_api` topic: sends requests (`{type:"request", req_id, payload}`),
 * matches the run's `ack` and `complete` by `req_id` (rejecting on an error, a timeout or an abort), and
 * hands the run's events to `onEvent`. Transport-free: the app run connector feeds it what arrives.
 *
 * @example
 * const api = new RuntimeApiClient({ send: (text) => session.sendData('runtime_api', text), onEvent });
 * session.on('dataPacket', (packet) => packet.topic === 'runtime_api' && api.receive(packet.payload));
 * const { value } = await api.request({ type: 'get_value', node_id: 'llm', pad_id: 'model' });
 */
export class RuntimeApiClient {
  private readonly pending = new Map<string, Pending>();
  private readonly prefix = `c${(clientCount += 1)}_${Math.random().toString(36).slice(2, 8)}`;
  private sequence = 0;

  constructor(private readonly options: RuntimeApiClientOptions) {}

  /** Requests in flight. */
  get inFlight(): number {
    return this.pending.size;
  }

  /** Sends a request; resolves with the `complete` payload, rejects with a {@link RuntimeApiError} when the run refused it. */
  request(payload: RuntimeRequestPayload, options: { signal?: AbortSignal } = {}): Promise<RuntimeReply> {
    const signal = options.signal;
    if (signal?.aborted) return Promise.reject(new AbortError(`the ${payload.type} request was aborted`));
    this.sequence += 1;
    const reqId = `${this.prefix}_${this.sequence}`;
    return new Promise<RuntimeReply>((resolve, reject) => {
      const onAbort = () => this.settle(reqId, new AbortError(`the ${payload.type} request was aborted`));
      signal?.addEventListener('abort', onAbort, { once: true });
      const entry: Pending = {
        type: payload.type,
        acknowledged: false,
        timer: this.timeout(reqId, payload.type, 'acknowledge', this.options.ackTimeoutMs ?? 5_000),
        resolve,
        reject,
        cleanup: () => signal?.removeEventListener('abort', onAbort),
      };
      this.pending.set(reqId, entry);
      this.options.send(JSON.stringify({ type: 'request', req_id: reqId, payload })).catch((error: unknown) => {
        const failure = error instanceof Error ? error : new ConnectionError('closed', String(error));
        this.settle(reqId, failure);
      });
    });
  }

  /** Takes one message of the topic from the run. */
  receive(message: RuntimeApiEnvelope): void {
    switch (message.type) {
      case 'ack': {
        const entry = this.pending.get(message.req_id);
        if (!entry || entry.acknowledged) return;
        entry.acknowledged = true;
        clearTimeout(entry.timer);
        entry.timer = this.timeout(message.req_id, entry.type, 'complete', this.options.completeTimeoutMs ?? 15_000);
        return;
      }
      case 'complete': {
        const entry = this.pending.get(message.req_id);
        if (!entry) return;
        if (message.error) this.settle(message.req_id, new RuntimeApiError(entry.type, message.error));
        else this.settle(message.req_id, undefined, message.payload ?? { type: entry.type });
        return;
      }
      case 'event':
        this.options.onEvent(message.payload, message.seq);
        return;
      case 'request':
        // Requests flow from clients to the run; another client's are not ours to answer.
        return;
    }
  }

  /** Rejects every request in flight (the connection ended). */
  failAll(error: Error): void {
    for (const reqId of [...this.pending.keys()]) this.settle(reqId, error);
  }

  private timeout(reqId: string, type: RuntimeRequestPayload['type'], what: 'acknowledge' | 'complete', ms: number): ReturnType<typeof setTimeout> {
    return setTimeout(() => this.settle(reqId, new TimeoutError(`the run did not ${what} the ${type} request within ${ms} ms`)), ms);
  }

  private settle(reqId: string, error: Error | undefined, reply?: RuntimeReply): void {
    const entry = this.pending.get(reqId);
    if (!entry) return;
    this.pending.delete(reqId);
    clearTimeout(entry.timer);
    entry.cleanup();
    if (error) entry.reject(error);
    else entry.resolve(reply ?? { type: entry.type });
  }
}
