import type { NodeImplementation } from '../../runtime/graph-node.js';
import { combineBooleanInputs } from './boolean-inputs.js';

/** Or: `source` is true while at least one input is true. */
export const orNode: NodeImplementation = (node, signal) => combineBooleanInputs(node, signal, (values) => values.some(Boolean));
