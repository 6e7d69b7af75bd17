import type { NodeImplementation } from '../../runtime/graph-node.js';
import { autoConvertNode } from './auto-convert-node.js';

export const utilityImplementations: Record<string, NodeImplementation> = {
  AutoConvert: autoConvertNode,
};
