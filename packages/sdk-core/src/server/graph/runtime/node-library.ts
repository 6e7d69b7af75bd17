import type { NodeSpec } from '../../../contract/graph/node-spec.js';
import type { NodeImplementation } from './graph-node.js';

/** Node types the runtime can build and run: the catalogue's specs with their implementations. */
export interface NodeLibrary {
  spec(type: string): NodeSpec | undefined;
  /** Undefined for nodes that do nothing by themselves (Comment, proxies, plain property holders). */
  implementation(type: string): NodeImplementation | undefined;
}

/** The type of the node that embeds a sub graph, and the key of the pad naming it. */
export const SUBGRAPH_NODE_TYPE = 'SubGraph';
export const SUBGRAPH_ID_PAD = '__subgraph_id__';

/** Proxy node types inside a sub graph: each becomes one pad of the SubGraph node embedding it. */
export const PROXY_NODE_TYPES = {
  ProxyStatelessSink: { outer: 'sink', property: false },
  ProxyPropertySink: { outer: 'sink', property: true },
  ProxyStatelessSource: { outer: 'source', property: false },
  ProxyPropertySource: { outer: 'source', property: true },
} as const;
export type ProxyNodeType = keyof typeof PROXY_NODE_TYPES;

export function isProxyNodeType(type: string): type is ProxyNodeType {
  return Object.hasOwn(PROXY_NODE_TYPES, type);
}
