import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { NodeImplementation, RuntimeNode } from '../../../runtime/graph-node.js';
import { holdUntilAborted } from '../../utility/node-lifetime.js';
import { guardedFetch } from './guarded-fetch.js';
import { registerMcpClient } from './mcp-connections.js';
import { RoomDataTransport } from './room-data-transport.js';

/** The MCP client's name and version, as servers see it. */
const CLIENT_INFO = { name: 'palaver-graph', version: '1.0.0' };

/**
 * The transport to the server `mcp_server` names: an http(s) URL is a streamable-HTTP server reached through
 * the outbound guard; another name is a server of the platform's configuration (`graph.mcpServers`), whose
 * stdio programs only the operator can declare, else the room's MCP proxy (`__mcp__:<name>`, as the engine).
 */
function transportFor(node: RuntimeNode): Transport {
  const server = node.value('mcp_server');
  if (typeof server !== 'string' || server.trim() === '') throw new Error('mcp_server names no MCP server');
  const policy = node.environment.engines.toolAddressPolicy ?? { allowLoopback: false, allowPrivateNetworks: false };
  if (/^https?:\/\//i.test(server)) return new StreamableHTTPClientTransport(new URL(server), { fetch: guardedFetch(policy) });
  const configured = node.environment.engines.mcpServers?.[server];
  if (!configured && node.environment.room) return new RoomDataTransport(node.environment.room, server);
  if (!configured) throw new Error(`no MCP server named '${server}' is configured on this server (graph.mcpServers), and the run has no room for a proxy`);
  if ('url' in configured) {
    return new StreamableHTTPClientTransport(new URL(configured.url), { fetch: guardedFetch(policy), requestInit: { headers: configured.headers } });
  }
  return new StdioClientTransport({ command: configured.command, args: configured.args, env: configured.env, cwd: configured.cwd, stderr: 'ignore' });
}

/**
 * MCP: a client of the MCP server `mcp_server` names for as long as the run lasts. LLM nodes whose
 * `mcp_server_{i}` pad names this node offer its tools to their model and call them through it.
 */
export const mcpNode: NodeImplementation = async (node, signal) => {
  const client = new Client(CLIENT_INFO);
  const connected = (async () => {
    await client.connect(transportFor(node), { signal });
    node.log('info', `connected to MCP server ${client.getServerVersion()?.name ?? '(unnamed)'}`, 'mcp_server');
    return client;
  })();
  const unregister = registerMcpClient(node.environment, node.id, connected);
  node.propertySource('self').push(node.id);
  try {
    await connected;
    await holdUntilAborted(signal);
  } finally {
    unregister();
    await client.close().catch(() => undefined);
  }
};
