import type { GraphNode } from '@palaver/sdk-core/graph';
import { isSourcePad, padDataType } from './app-graph.js';

/** A link of the graph: a source pad to a sink pad, with the type of data it carries. */
export interface Link {
  from: { node: string; pad: string };
  to: { node: string; pad: string };
  dataType: string;
}

/** Every link between drawn nodes, typed by its source pad (else its sink: AutoConvert pads take any type). */
export function graphLinks(nodes: readonly GraphNode[]): Link[] {
  const byId = new Map(nodes.map((node) => [node.id, node]));
  const links: Link[] = [];
  for (const node of nodes) {
    for (const pad of node.pads) {
      if (!isSourcePad(pad)) continue;
      for (const next of pad.next_pads ?? []) {
        const target = byId.get(next.node)?.pads.find((candidate) => candidate.id === next.pad);
        if (!target) continue;
        links.push({
          from: { node: node.id, pad: pad.id },
          to: { node: next.node, pad: next.pad },
          dataType: padDataType(pad) ?? padDataType(target) ?? 'any',
        });
      }
    }
  }
  return links;
}

/**
 * The nodes in an order that keeps as many links forward as it can (Eades, Lin and Smyth's greedy
 * heuristic): sinks go last, sources first, and otherwise the node with the most outgoing over incoming
 * links. Links that point backwards in this order close loops.
 */
export function linkOrder(ids: readonly string[], links: readonly Link[]): string[] {
  const remaining = new Set(ids);
  const head: string[] = [];
  const tail: string[] = [];
  const degree = (id: string, direction: 'in' | 'out') =>
    links.filter(
      (link) =>
        link.from.node !== link.to.node &&
        (direction === 'out' ? link.from.node === id && remaining.has(link.to.node) : link.to.node === id && remaining.has(link.from.node)),
    ).length;
  while (remaining.size > 0) {
    let changed = true;
    while (changed) {
      changed = false;
      for (const id of ids) {
        if (remaining.has(id) && degree(id, 'out') === 0) {
          tail.unshift(id);
          remaining.delete(id);
          changed = true;
        }
      }
      for (const id of ids) {
        if (remaining.has(id) && degree(id, 'in') === 0) {
          head.push(id);
          remaining.delete(id);
          changed = true;
        }
      }
    }
    let best: string | undefined;
    for (const id of ids) {
      if (!remaining.has(id)) continue;
      if (best === undefined || degree(id, 'out') - degree(id, 'in') > degree(best, 'out') - degree(best, 'in')) best = id;
    }
    if (best !== undefined) {
      head.push(best);
      remaining.delete(best);
    }
  }
  return [...head, ...tail];
}

/** Layers by the longest forward path; a node without inputs sits just before the first node it feeds. */
export function graphLayers(ids: readonly string[], links: readonly Link[]): Map<string, number> {
  const order = linkOrder(ids, links);
  const position = new Map(order.map((id, index) => [id, index]));
  const forward = links.filter((link) => position.get(link.from.node)! < position.get(link.to.node)!);
  const layer = new Map<string, number>();
  for (const id of order) {
    const before = forward.filter((link) => link.to.node === id).map((link) => layer.get(link.from.node)! + 1);
    layer.set(id, Math.max(0, ...before));
  }
  for (const id of [...order].reverse()) {
    if (forward.some((link) => link.to.node === id)) continue;
    const after = forward.filter((link) => link.from.node === id).map((link) => layer.get(link.to.node)! - 1);
    if (after.length > 0) layer.set(id, Math.max(layer.get(id)!, Math.min(...after)));
  }
  return layer;
}
