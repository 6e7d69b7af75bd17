import type { NodeImplementation } from '../../runtime/graph-node.js';
import { outputNode } from './output-node.js';
import { publishNode } from './publish-node.js';

export const mediaImplementations: Record<string, NodeImplementation> = {
  Publish: publishNode,
  Output: outputNode,
};
