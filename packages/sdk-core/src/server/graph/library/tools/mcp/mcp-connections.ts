import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { GraphRunEnvironment } from '../../../runtime/run-environment.js';

/** The MCP nodes of a run by node id: each holds its connected client (or is still connecting). */
const connections = new WeakMap<GraphRunEnvironment, Map<string, Promise<Client>>>();

/** Makes the MCP node `nodeId`'s client reachable by the run's LLM nodes; returns the unregister function. */
export function registerMcpClient(environment: GraphRunEnvironment, nodeId: string, client: Promise<Client>): () => void {
  let byNode = connections.get(environment);
  if (!byNode) connections.set(environment, (byNode = new Map<string, Promise<Client>>()));
  byNode.set(nodeId, client);
  return () => byNode.delete(nodeId);
}

/** The client of the MCP node `nodeId` of this run, once connected; undefined when there is no such node. */
export function mcpClientOf(environment: GraphRunEnvironment, nodeId: string): Promise<Client> | undefined {
  return connections.get(environment)?.get(nodeId);
}
