import type { NodeImplementation } from '../../runtime/graph-node.js';

export const inputImplementations: Record<string, NodeImplementation> = {};
