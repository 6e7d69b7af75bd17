import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { ReceivedData } from '../../../../engines/media/index.js';
import { MCP_PROXY_IDENTITY, RoomDataTransport } from './room-data-transport.js';

/**
 * A room with a client app relaying MCP on `__mcp__:<name>` (the room is the media boundary): what the agent
 * sends reaches the proxy's MCP server, what the server answers comes back as packets from `from`.
 */
function roomWithProxy(from: string) {
  const listeners = new Set<(data: ReceivedData) => void>();
  const sent: string[] = [];
  const proxy: Transport = {
    start: () => Promise.resolve(),
    close: () => Promise.resolve(),
    send: (message: JSONRPCMessage) => {
      const data: ReceivedData = { payload: new TextEncoder().encode(JSON.stringify(message)), topic: '__mcp__:calc', from, reliable: true };
      for (const listener of listeners) listener(data);
      return Promise.resolve();
    },
  };
  const room = {
    on: (_event: 'data', listener: (data: ReceivedData) => void) => (listeners.add(listener), () => listeners.delete(listener)),
    sendData: (payload: Uint8Array | string, options?: { topic?: string }) => {
      sent.push(options?.topic ?? '');
      proxy.onmessage?.(JSON.parse(String(payload)) as JSONRPCMessage);
      return Promise.resolve();
    },
  };
  const server = new McpServer({ name: 'calc', version: '1.0.0' });
  server.registerTool('add', { inputSchema: { a: z.number(), b: z.number() } }, ({ a, b }) => ({ content: [{ type: 'text', text: String(a + b) }] }));
  return { room: room as unknown as ConstructorParameters<typeof RoomDataTransport>[0], sent, ready: server.connect(proxy) };
}

describe('RoomDataTransport (the engine’s __mcp__:<name> room proxy)', () => {
  it('speaks MCP with the mcp_proxy participant over the topic', async () => {
    const { room, sent, ready } = roomWithProxy(MCP_PROXY_IDENTITY);
    await ready;
    const client = new Client({ name: 'test', version: '1.0.0' });
    await client.connect(new RoomDataTransport(room, 'calc'));
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(['add']);
    expect((await client.callTool({ name: 'add', arguments: { a: 1, b: 2 } })).content).toEqual([{ type: 'text', text: '3' }]);
    expect(new Set(sent)).toEqual(new Set(['__mcp__:calc']));
    await client.close();
  });

  it('ignores packets from anyone but mcp_proxy', async () => {
    const { room, ready } = roomWithProxy('someone_else');
    await ready;
    const client = new Client({ name: 'test', version: '1.0.0' });
    await expect(client.connect(new RoomDataTransport(room, 'calc'), { timeout: 300 })).rejects.toThrow(/timed out/i);
  });
});
