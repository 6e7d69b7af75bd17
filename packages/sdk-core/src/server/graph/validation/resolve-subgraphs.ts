import { GraphDocument } from '../../../contract/graph/graph-document.js';
import { plainPadValue } from '../../../contract/graph/pad-values.js';
import { SUBGRAPH_ID_PAD, SUBGRAPH_NODE_TYPE } from '../runtime/node-library.js';
import type { GraphIssue } from './graph-issues.js';
import { MAX_SUBGRAPH_DEPTH } from './validate-graph.js';

/** Loads a sub graph's stored graph by id (as the caller may see it); undefined when there is none. */
export type SubgraphLoader = (id: string) => Promise<unknown>;

function subgraphReferences(document: GraphDocument): { node: string; id: string }[] {
  return document.nodes
    .filter((node) => node.type === SUBGRAPH_NODE_TYPE)
    .map((node) => ({ node: node.id, id: plainPadValue(node.pads.find((pad) => pad.id === SUBGRAPH_ID_PAD)?.value) }))
    .filter((reference): reference is { node: string; id: string } => typeof reference.id === 'string' && reference.id !== '');
}

/**
 * Loads every sub graph a graph embeds, transitively: cycles (a sub graph embedding itself, directly or
 * not), nesting deeper than {@link MAX_SUBGRAPH_DEPTH} and sub graphs whose stored graph is not in the graph
 * format are issues. `self` names the sub graph being saved, whose new graph is `document`.
 *
 * @example
 * const { subgraphs, issues } = await resolveSubgraphs(document, (id) => services.subgraphs.graphOf(principal, id));
 */
export async function resolveSubgraphs(
  document: GraphDocument,
  load: SubgraphLoader,
  self?: string,
): Promise<{ subgraphs: Map<string, GraphDocument>; issues: GraphIssue[] }> {
  const subgraphs = new Map<string, GraphDocument>();
  const issues: GraphIssue[] = [];
  const visit = async (graph: GraphDocument, path: string[], depth: number, at: { node: string } | undefined): Promise<void> => {
    for (const reference of subgraphReferences(graph)) {
      const node = at?.node ?? reference.node;
      if (path.includes(reference.id)) {
        issues.push({ node, pad: SUBGRAPH_ID_PAD, message: `sub graphs form a cycle: ${[...path, reference.id].join(' -> ')}` });
        continue;
      }
      if (depth >= MAX_SUBGRAPH_DEPTH) {
        issues.push({ node, pad: SUBGRAPH_ID_PAD, message: `sub graphs nest deeper than ${MAX_SUBGRAPH_DEPTH} levels` });
        continue;
      }
      let inner = subgraphs.get(reference.id);
      if (!inner) {
        const stored = reference.id === self ? document : await load(reference.id);
        if (stored === undefined) continue; // validation reports the missing sub graph
        const parsed = GraphDocument.safeParse(stored);
        if (!parsed.success) {
          issues.push({ node, pad: SUBGRAPH_ID_PAD, message: `sub graph '${reference.id}' is not in the graph format` });
          continue;
        }
        inner = parsed.data;
        subgraphs.set(reference.id, inner);
      }
      await visit(inner, [...path, reference.id], depth + 1, at ?? { node: reference.node });
    }
  };
  await visit(document, self ? [self] : [], 0, undefined);
  return { subgraphs, issues };
}
