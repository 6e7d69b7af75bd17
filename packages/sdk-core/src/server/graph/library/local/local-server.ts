import type { OutboundPolicy } from '../../../kernel/outbound/index.js';
import type { RuntimeNode } from '../../runtime/graph-node.js';
import type { LocalServers } from '../../runtime/run-environment.js';

/** The engine's ports, and Ollama's: what a server without `graph.localPorts` lets graphs use. */
export const DEFAULT_LOCAL_SERVERS: LocalServers = { url: 'http://127.0.0.1', ports: [7002, 7004, 11434] };

/**
 * Local servers are the operator's (its host, its ports): loopback and private networks are allowed, link-local and
 * unroutable addresses still refused by the outbound guard.
 */
export const LOCAL_SERVER_POLICY: OutboundPolicy = { allowLoopback: true, allowPrivateNetworks: true };

/**
 * The URL of a local node's server: the operator's local host (`graph.localUrl`) with the node's `port`, which must be
 * one of `graph.localPorts`. Throws (the node fails, its log naming `port`) otherwise.
 */
export function localServerUrl(node: RuntimeNode, defaultPort: number): URL {
  const servers = node.environment.engines.localServers ?? DEFAULT_LOCAL_SERVERS;
  const value = node.value('port');
  const port = typeof value === 'number' && Number.isInteger(value) ? value : defaultPort;
  if (!servers.ports.includes(port)) {
    const message = `port ${port} is not a local server port of this platform (graph.localPorts: ${servers.ports.join(', ') || 'none'})`;
    node.log('error', message, 'port');
    throw new Error(message);
  }
  const url = new URL(servers.url);
  url.port = String(port);
  url.pathname = '/';
  return url;
}
