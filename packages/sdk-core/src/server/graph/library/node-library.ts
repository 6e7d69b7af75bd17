import { nodeCatalogue } from '../../../contract/graph/node-catalogue.js';
import type { NodeImplementation } from '../runtime/graph-node.js';
import type { NodeLibrary } from '../runtime/node-library.js';
import { inputImplementations } from './input/index.js';
import { llmImplementations } from './llm/index.js';
import { localImplementations } from './local/index.js';
import { logicImplementations } from './logic/index.js';
import { mediaImplementations } from './media/index.js';
import { primitiveImplementations } from './primitive/index.js';
import { speechImplementations } from './speech/index.js';
import { timingImplementations } from './timing/index.js';
import { toolImplementations } from './tools/index.js';
import { utilityImplementations } from './utility/index.js';
import { videoImplementations } from './video/index.js';
import { visemeImplementations } from './visemes/index.js';

const implementations: Readonly<Record<string, NodeImplementation>> = {
  ...mediaImplementations,
  ...videoImplementations,
  ...speechImplementations,
  ...llmImplementations,
  ...localImplementations,
  ...toolImplementations,
  ...inputImplementations,
  ...primitiveImplementations,
  ...logicImplementations,
  ...timingImplementations,
  ...utilityImplementations,
  ...visemeImplementations,
};

/**
 * The platform's node library: the catalogue (`contract/graph/node-catalogue.ts`) with the implementations
 * of `library/<category>/`.
 */
export const platformNodeLibrary: NodeLibrary = {
  spec: (type) => (Object.hasOwn(nodeCatalogue, type) ? nodeCatalogue[type] : undefined),
  implementation: (type) => (Object.hasOwn(implementations, type) ? implementations[type] : undefined),
};
