import { expandPads, type PadSpec } from '../../../contract/graph/node-spec.js';
import type { GraphDocument, GraphNode, PadKind } from '../../../contract/graph/graph-document.js';
import { plainPadValue } from '../../../contract/graph/pad-values.js';
import { PROXY_NODE_TYPES, SUBGRAPH_NODE_TYPE, isProxyNodeType, type NodeLibrary } from './node-library.js';

/** One pad a SubGraph node shows, backed by a proxy node of its sub graph. */
export interface SubGraphPort {
  /** The pad's id on the SubGraph node (the proxy's `pad_id`). */
  id: string;
  kind: PadKind;
  types: PadSpec['types'];
  /** The proxy node inside the sub graph. */
  proxyNode: string;
}

/** Pad counts of a node as its stored values say (`num_inserts: 3`). */
export function padCounts(node: GraphNode): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const pad of node.pads) {
    const value = plainPadValue(pad.value);
    if (typeof value === 'number' && Number.isInteger(value)) counts[pad.id] = value;
  }
  return counts;
}

/** The pads of a (non-SubGraph) node as the library declares them for this node's counts. */
export function declaredPads(node: GraphNode, library: NodeLibrary): PadSpec[] | undefined {
  const spec = library.spec(node.type);
  if (!spec) return undefined;
  const expanded = expandPads(spec, padCounts(node));
  return spec.resolvePads ? spec.resolvePads(node, expanded) : expanded;
}

function padOf(document: GraphDocument, library: NodeLibrary, nodeId: string, padId: string): { kind: PadKind; types: PadSpec['types'] } | undefined {
  const node = document.nodes.find((candidate) => candidate.id === nodeId);
  if (!node || node.type === SUBGRAPH_NODE_TYPE) {
    const stored = node?.pads.find((candidate) => candidate.id === padId);
    return stored ? { kind: stored.type, types: stored.default_allowed_types ?? stored.allowed_types ?? null } : undefined;
  }
  const declared = declaredPads(node, library)?.find((candidate) => candidate.id === padId);
  return declared ? { kind: declared.kind, types: declared.types } : undefined;
}

/**
 * The pads a SubGraph node embedding `document` shows: one per proxy node, named by its `pad_id`. A sink
 * proxy feeding a property pad inside makes a property sink outside (and likewise for sources), so values
 * keep their semantics across the boundary.
 *
 * @example
 * subgraphPorts(subgraph, library); // [{ id: 'audio_in', kind: 'StatelessSinkPad', ... }]
 */
export function subgraphPorts(document: GraphDocument, library: NodeLibrary): SubGraphPort[] {
  const ports: SubGraphPort[] = [];
  for (const node of document.nodes) {
    if (!isProxyNodeType(node.type)) continue;
    const proxy = PROXY_NODE_TYPES[node.type];
    const padId = plainPadValue(node.pads.find((pad) => pad.id === 'pad_id')?.value);
    if (typeof padId !== 'string' || padId === '') continue;
    const proxyPad = node.pads.find((pad) => pad.id === 'proxy');
    const inner =
      proxy.outer === 'sink'
        ? proxyPad?.next_pads[0] && padOf(document, library, proxyPad.next_pads[0].node, proxyPad.next_pads[0].pad)
        : proxyPad?.previous_pad && padOf(document, library, proxyPad.previous_pad.node, proxyPad.previous_pad.pad);
    const property = inner ? inner.kind === 'PropertySinkPad' || inner.kind === 'PropertySourcePad' : proxy.property;
    const kind: PadKind = proxy.outer === 'sink' ? (property ? 'PropertySinkPad' : 'StatelessSinkPad') : property ? 'PropertySourcePad' : 'StatelessSourcePad';
    ports.push({ id: padId, kind, types: inner?.types ?? null, proxyNode: node.id });
  }
  return ports;
}
