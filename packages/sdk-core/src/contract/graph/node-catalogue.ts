import { inputNodes } from './catalogue/input.js';
import { llmNodes } from './catalogue/llm.js';
import { localNodes } from './catalogue/local.js';
import { logicNodes } from './catalogue/logic.js';
import { mediaNodes } from './catalogue/media.js';
import { videoNodes } from './catalogue/video.js';
import { primitiveNodes } from './catalogue/primitive.js';
import { speechNodes } from './catalogue/speech.js';
import { subgraphNodes } from './catalogue/subgraph.js';
import { timingNodes } from './catalogue/timing.js';
import { toolNodes } from './catalogue/tools.js';
import { utilityNodes } from './catalogue/utility.js';
import { visemeNodes } from './catalogue/visemes.js';
import type { NodeSpec } from './node-spec.js';

/**
 * Every node type apps can use, with its pads and their types: what validation checks graphs against and
 * what the runtime builds. Read it to build an editor or to type a client's pad values.
 *
 * @example
 * import { nodeCatalogue } from '@palaver/sdk-core/graph';
 * nodeCatalogue.STT.pads.map((pad) => pad.id); // ['service', 'api_key', 'audio', ...]
 */
export const nodeCatalogue: Readonly<Record<string, NodeSpec>> = Object.freeze(
  Object.fromEntries(
    [
      ...mediaNodes,
      ...videoNodes,
      ...speechNodes,
      ...llmNodes,
      ...localNodes,
      ...visemeNodes,
      ...toolNodes,
      ...inputNodes,
      ...primitiveNodes,
      ...logicNodes,
      ...timingNodes,
      ...utilityNodes,
      ...subgraphNodes,
    ].map((spec) => [spec.type, spec]),
  ),
);

/** The catalogue's node types. */
export function nodeTypes(): string[] {
  return Object.keys(nodeCatalogue);
}
