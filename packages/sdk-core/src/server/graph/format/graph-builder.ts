import { GraphDocument, type GraphDocumentInput, type GraphNode, type GraphPad } from '../../../contract/graph/graph-document.js';
import { expandPads } from '../../../contract/graph/node-spec.js';
import { nodeCatalogue } from '../../../contract/graph/node-catalogue.js';
import { clientPadValue } from '../../../contract/graph/pad-values.js';

/** A node of a graph being built: its type, id, property values to store (plain values) and editor position. */
export interface KitNode {
  id: string;
  type: string;
  values?: Record<string, unknown>;
  name?: string;
  position?: [number, number];
}

/** A link `from: 'node.pad'` -> `to: 'node.pad'`. */
export interface KitLink {
  from: string;
  to: string;
}

/**
 * Builds a graph document in the stored format from a compact description: each node's pads come from the
 * catalogue (with the given values), links fill `next_pads` and `previous_pad`.
 *
 * @example
 * const document = graphOf([{ id: 'a', type: 'String' }, { id: 'b', type: 'String' }], [{ from: 'a.value', to: 'b.set' }]);
 */
export function graphOf(nodes: KitNode[], links: KitLink[] = [], subgraphPads: Record<string, GraphPad[]> = {}): GraphDocument {
  const documents: GraphNode[] = nodes.map((node) => {
    const spec = nodeCatalogue[node.type];
    const counts = Object.fromEntries(Object.entries(node.values ?? {}).filter(([, value]) => typeof value === 'number')) as Record<string, number>;
    const pads: GraphPad[] = spec
      ? expandPads(spec, counts).map((declared) => {
          const value = node.values && Object.hasOwn(node.values, declared.id) ? node.values[declared.id] : declared.default;
          return {
            id: declared.id,
            group: declared.group ?? declared.id,
            type: declared.kind,
            default_allowed_types: declared.types,
            allowed_types: declared.types,
            value: declared.kind.startsWith('Property') ? (clientPadValue(value, declared.types) ?? null) : null,
            next_pads: [],
            previous_pad: null,
          };
        })
      : [];
    pads.push(...(subgraphPads[node.id] ?? []));
    return {
      id: node.id,
      type: node.type,
      editor_name: node.name ?? node.type,
      editor_position: node.position ?? [0, 0],
      description: spec?.description ?? null,
      pads,
    };
  });
  for (const link of links) {
    const [fromNode, fromPad] = link.from.split('.') as [string, string];
    const [toNode, toPad] = link.to.split('.') as [string, string];
    const source = documents.find((node) => node.id === fromNode)?.pads.find((pad) => pad.id === fromPad);
    const sink = documents.find((node) => node.id === toNode)?.pads.find((pad) => pad.id === toPad);
    if (!source || !sink) throw new Error(`graphOf: no pad for link ${link.from} -> ${link.to}`);
    source.next_pads.push({ node: toNode, pad: toPad });
    sink.previous_pad = { node: fromNode, pad: fromPad };
  }
  return GraphDocument.parse({ nodes: documents, portals: [] } satisfies GraphDocumentInput);
}
