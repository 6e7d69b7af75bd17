import type { NodeImplementation } from '../../runtime/graph-node.js';

export const timingImplementations: Record<string, NodeImplementation> = {};
