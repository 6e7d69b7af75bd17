import type { NodeSpec } from '../node-spec.js';

export const utilityNodes: NodeSpec[] = [];
