import type { NodeImplementation } from '../../runtime/graph-node.js';

export const utilityImplementations: Record<string, NodeImplementation> = {};
