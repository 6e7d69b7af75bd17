import { RUNTIME_API_TOPIC, RuntimeApiEnvelope, type RuntimeEventPayload, type RuntimeRequestPayload } from '../../src/contract/graph/runtime-api.js';
import { RuntimeApiClient } from '../../src/realtime/app-run/runtime-api-client.js';
import type { AgentRoomConnection } from '../../src/server/engines/media/agent-transport.js';

/**
 * The SDK's runtime API client over a Node room connection (the browser's runs over livekit-client):
 * requests, and every event received.
 */
export class RuntimeApiProbe {
  readonly events: RuntimeEventPayload[] = [];
  /** The number (`seq`) of each event, in the order received (undefined for `logs`). */
  readonly seqs: Array<number | undefined> = [];
  readonly client: RuntimeApiClient;

  constructor(connection: AgentRoomConnection) {
    this.client = new RuntimeApiClient({
      send: (text) => connection.sendData(text, { topic: RUNTIME_API_TOPIC, reliable: true, destinationIdentities: ['agent'] }),
      onEvent: (event, seq) => {
        this.events.push(event);
        this.seqs.push(seq);
      },
    });
    connection.on('data', (data) => {
      if (data.topic !== RUNTIME_API_TOPIC) return;
      const parsed = RuntimeApiEnvelope.safeParse(JSON.parse(new TextDecoder().decode(data.payload)));
      if (parsed.success) this.client.receive(parsed.data);
    });
  }

  request(payload: RuntimeRequestPayload): Promise<unknown> {
    return this.client.request(payload);
  }

  values(node: string, pad: string): unknown[] {
    return this.events
      .filter((event) => event.type === 'value' && event.node_id === node && event.pad_id === pad)
      .map((event) => (event as { value: unknown }).value);
  }

  logs(): string[] {
    return this.events.flatMap((event) => (event.type === 'logs' ? event.items.map((item) => `${item.level} ${item.node ?? ''}: ${item.message}`) : []));
  }
}
