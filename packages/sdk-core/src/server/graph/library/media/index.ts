import type { NodeImplementation } from '../../runtime/graph-node.js';

export const mediaImplementations: Record<string, NodeImplementation> = {};
