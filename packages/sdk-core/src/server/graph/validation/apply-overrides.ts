import type { GraphDocument } from '../../../contract/graph/graph-document.js';
import { describeConstraints } from '../../../contract/graph/pad-constraints.js';
import { clientPadValue, plainPadValue } from '../../../contract/graph/pad-values.js';
import { BadRequestError } from '../../../errors/api-error.js';
import { SUBGRAPH_NODE_TYPE, type NodeLibrary } from '../runtime/node-library.js';
import { declaredPads, subgraphPorts } from '../runtime/subgraph-interface.js';
import { settingProblem } from './node-settings.js';
import { padValueFits } from './pad-value-check.js';

/** One value to set before a run starts: a property pad of a top-level node. */
export interface PadOverride {
  node: string;
  pad: string;
  value: unknown;
}

/**
 * A copy of `document` with the overrides' values stored on their pads (a run's `overrides`). 400 naming
 * the node and pad for an unknown node or pad, a pad that holds no value, or a value of the wrong type.
 *
 * @example
 * const document = applyOverrides(resolved.document, resolved.subgraphs, [{ node: 'system_prompt', pad: 'content', value: 'Be brief.' }], library);
 */
export function applyOverrides(
  document: GraphDocument,
  subgraphs: ReadonlyMap<string, GraphDocument>,
  overrides: readonly PadOverride[],
  library: NodeLibrary,
): GraphDocument {
  if (overrides.length === 0) return document;
  const copy = structuredClone(document);
  overrides.forEach((override, index) => {
    const field = `overrides[${index}]`;
    const node = copy.nodes.find((candidate) => candidate.id === override.node);
    if (!node) throw new BadRequestError(`${field}.node: no node '${override.node}' in the graph`);
    let declared: { kind: string; types: Parameters<typeof padValueFits>[1] } | undefined;
    if (node.type === SUBGRAPH_NODE_TYPE) {
      const id = node.pads.find((pad) => pad.id === '__subgraph_id__')?.value as { value?: unknown } | string | undefined;
      const subgraphId = typeof id === 'string' ? id : id?.value;
      const inner = typeof subgraphId === 'string' ? subgraphs.get(subgraphId) : undefined;
      declared = inner ? subgraphPorts(inner, library).find((port) => port.id === override.pad) : undefined;
    } else {
      declared = declaredPads(node, library)?.find((pad) => pad.id === override.pad);
    }
    if (!declared) throw new BadRequestError(`${field}.pad: node '${override.node}' (${node.type}) has no pad '${override.pad}'`);
    if (!declared.kind.startsWith('Property')) {
      throw new BadRequestError(
        `${field}.pad: node '${override.node}' pad '${override.pad}' holds no value (a ${declared.kind}); push to it once the run started`,
      );
    }
    if (!padValueFits(override.value, declared.types)) {
      throw new BadRequestError(
        `${field}.value: node '${override.node}' pad '${override.pad}' takes type ${describeConstraints(declared.types)}, not ${JSON.stringify(override.value)?.slice(0, 80)}`,
      );
    }
    const problem = settingProblem(node.type, override.pad, plainPadValue(override.value));
    if (problem) throw new BadRequestError(`${field}.value: node '${override.node}' pad '${override.pad}': ${problem}`);
    const value = clientPadValue(override.value, declared.types) ?? null;
    const stored = node.pads.find((pad) => pad.id === override.pad);
    if (stored) stored.value = value;
    else
      node.pads.push({
        id: override.pad,
        group: override.pad,
        type: declared.kind as 'PropertySinkPad',
        default_allowed_types: declared.types,
        allowed_types: declared.types,
        value,
        next_pads: [],
        previous_pad: null,
      });
  });
  return copy;
}
