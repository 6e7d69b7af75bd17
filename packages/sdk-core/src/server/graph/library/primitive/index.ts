import type { NodeImplementation } from '../../runtime/graph-node.js';

export const primitiveImplementations: Record<string, NodeImplementation> = {};
