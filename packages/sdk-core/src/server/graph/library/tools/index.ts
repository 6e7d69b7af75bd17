import type { NodeImplementation } from '../../runtime/graph-node.js';

export const toolImplementations: Record<string, NodeImplementation> = {};
