/**
 * App graphs, browser-safe: the node catalogue (every node type with its pads and their types), pad type
 * intersection (which pads may be linked) and pad value helpers. Types of the graph format come with them.
 *
 * @example
 * import { nodeCatalogue, expandPads } from '@palaver/sdk-core/graph';
 * expandPads(nodeCatalogue.LLMContext!, { num_inserts: 2 }).map((pad) => pad.id); // [..., 'insert_0', 'insert_1']
 */
export { nodeCatalogue, nodeTypes } from './contract/graph/node-catalogue.js';
export { expandPads } from './contract/graph/node-spec.js';
export { intersectConstraints, describeConstraints, PAD_DATA_TYPES } from './contract/graph/pad-constraints.js';
export { clientPadValue, plainPadValue, contextMessageText, textContextMessage, isTrigger, TRIGGER } from './contract/graph/pad-value-functions.js';
export type { GraphDocument, GraphNode, GraphPad, GraphPortal, PadKind, PadReference } from './contract/graph/graph-document.js';
export type { PadConstraint, PadConstraints, PadDataType } from './contract/graph/pad-constraints.js';
export type { ClientPadValue, GraphContextMessage, GraphToolCall, ContextMessageRoleName } from './contract/graph/pad-values.js';
export type { NodeSpec, PadSpec, RepeatedPadsSpec, NodeCategory } from './contract/graph/node-spec.js';
export type { RuntimeApiEnvelope, RuntimeEventPayload, RuntimeLogItem, RuntimeRequestPayload } from './contract/graph/runtime-api.js';
