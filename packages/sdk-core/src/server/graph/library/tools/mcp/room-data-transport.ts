import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { JSONRPCMessageSchema, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import type { AgentRoomConnection } from '../../../../engines/media/index.js';

/** The identity of the room participant that proxies MCP servers (the engine's `mcp_proxy`). */
export const MCP_PROXY_IDENTITY = 'mcp_proxy';

/** The room data topic of the MCP server `name`, as the open engine names it. */
export function mcpTopic(name: string): string {
  return `__mcp__:${name}`;
}

/**
 * MCP over the room's data channel, as the open engine speaks it: each JSON-RPC message is one reliable packet
 * on `__mcp__:<name>`, sent to the room and read only from the participant `mcp_proxy` (a client app relaying to
 * an MCP server it can reach).
 */
export class RoomDataTransport implements Transport {
  onmessage?: (message: JSONRPCMessage) => void;
  onerror?: (error: Error) => void;
  onclose?: () => void;
  private unsubscribe: (() => void) | undefined;
  private readonly decoder = new TextDecoder();

  constructor(
    private readonly room: Pick<AgentRoomConnection, 'on' | 'sendData'>,
    private readonly name: string,
  ) {}

  start(): Promise<void> {
    const topic = mcpTopic(this.name);
    this.unsubscribe = this.room.on('data', (data) => {
      if (data.topic !== topic || data.from !== MCP_PROXY_IDENTITY) return;
      try {
        const parsed = JSONRPCMessageSchema.safeParse(JSON.parse(this.decoder.decode(data.payload)));
        if (parsed.success) this.onmessage?.(parsed.data);
        else this.onerror?.(new Error(`not a JSON-RPC message on ${topic}`));
      } catch (error) {
        this.onerror?.(error instanceof Error ? error : new Error(String(error)));
      }
    });
    return Promise.resolve();
  }

  send(message: JSONRPCMessage): Promise<void> {
    return this.room.sendData(JSON.stringify(message), { topic: mcpTopic(this.name), reliable: true });
  }

  close(): Promise<void> {
    this.unsubscribe?.();
    this.unsubscribe = undefined;
    this.onclose?.();
    return Promise.resolve();
  }
}
