import type { NodeSpec } from '../node-spec.js';

export const primitiveNodes: NodeSpec[] = [];
