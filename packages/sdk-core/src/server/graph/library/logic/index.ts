import type { NodeImplementation } from '../../runtime/graph-node.js';

export const logicImplementations: Record<string, NodeImplementation> = {};
