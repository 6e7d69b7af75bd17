import type { NodeImplementation } from '../../runtime/graph-node.js';

export const speechImplementations: Record<string, NodeImplementation> = {};
