import type { NodeImplementation } from '../../runtime/graph-node.js';
import { combineBooleanInputs } from './boolean-inputs.js';

/** And: `source` is true while every input is true. */
export const andNode: NodeImplementation = (node, signal) => combineBooleanInputs(node, signal, (values) => values.every(Boolean));
