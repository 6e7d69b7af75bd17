import type { NodeImplementation } from '../../runtime/graph-node.js';
import { autoConvertNode } from './auto-convert-node.js';
import { entryNode } from './entry-node.js';
import { jinja2Node } from './jinja2-node.js';
import { mergeNode } from './merge-node.js';
import { passThroughNode } from './pass-through-node.js';

/** Comment has no implementation: it does nothing. */
export const utilityImplementations: Record<string, NodeImplementation> = {
  AutoConvert: autoConvertNode,
  Merge: mergeNode,
  Jinja2: jinja2Node,
  Noop: passThroughNode,
  TypeConstraint: passThroughNode,
  Entry: entryNode,
};
