import { randomUUID } from 'node:crypto';
import { RUNTIME_API_TOPIC, RuntimeApiEnvelope, type RuntimeEventPayload, type RuntimeRequestPayload } from '../../src/contract/graph/runtime-api.js';
import type { AgentRoomConnection } from '../../src/server/engines/media/agent-transport.js';

/** A client of a run's `runtime_api` topic over a room connection: requests, and the events received. */
export class RuntimeApiProbe {
  readonly events: RuntimeEventPayload[] = [];
  readonly acks: string[] = [];
  private readonly pending = new Map<string, { resolve: (payload: unknown) => void; reject: (error: Error) => void }>();

  constructor(private readonly connection: AgentRoomConnection) {
    connection.on('data', (data) => {
      if (data.topic !== RUNTIME_API_TOPIC) return;
      const parsed = RuntimeApiEnvelope.safeParse(JSON.parse(new TextDecoder().decode(data.payload)));
      if (!parsed.success) return;
      const message = parsed.data;
      if (message.type === 'event') this.events.push(message.payload);
      else if (message.type === 'ack') this.acks.push(message.req_id);
      else if (message.type === 'complete') {
        const waiting = this.pending.get(message.req_id);
        this.pending.delete(message.req_id);
        if (message.error) waiting?.reject(new Error(message.error));
        else waiting?.resolve(message.payload);
      }
    });
  }

  request(payload: RuntimeRequestPayload): Promise<unknown> {
    const req_id = randomUUID();
    return new Promise((resolve, reject) => {
      this.pending.set(req_id, { resolve, reject });
      this.connection.sendData(JSON.stringify({ type: 'request', req_id, payload }), { topic: RUNTIME_API_TOPIC }).catch(reject);
    });
  }

  values(node: string, pad: string): unknown[] {
    return this.events.filter((event) => event.type === 'value' && event.node_id === node && event.pad_id === pad).map((event) => (event as { value: unknown }).value);
  }

  logs(): string[] {
    return this.events.flatMap((event) => (event.type === 'logs' ? event.items.map((item) => `${item.level} ${item.node ?? ''}: ${item.message}`) : []));
  }
}
