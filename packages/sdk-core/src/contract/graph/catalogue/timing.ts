import type { NodeSpec } from '../node-spec.js';

export const timingNodes: NodeSpec[] = [];
