import type { NodeImplementation } from '../../runtime/graph-node.js';

export const llmImplementations: Record<string, NodeImplementation> = {};
