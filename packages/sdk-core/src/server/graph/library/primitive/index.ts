import type { NodeImplementation } from '../../runtime/graph-node.js';
import { booleanNode } from './boolean-node.js';
import { floatNode } from './float-node.js';
import { integerNode } from './integer-node.js';
import { jsonNode } from './json-node.js';
import { stringNode } from './string-node.js';
import { variableNode } from './variable-node.js';

export const primitiveImplementations: Record<string, NodeImplementation> = {
  String: stringNode,
  Integer: integerNode,
  Float: floatNode,
  Boolean: booleanNode,
  Json: jsonNode,
  Variable: variableNode,
};
