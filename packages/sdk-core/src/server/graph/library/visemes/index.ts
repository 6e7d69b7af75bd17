import type { NodeImplementation } from '../../runtime/graph-node.js';
import { localVisemeNode } from './local-viseme-node.js';
import { visemeDebugNode } from './viseme-debug-node.js';

/** Lip sync: visemes of speech, and a node to watch them. */
export const visemeImplementations: Record<string, NodeImplementation> = {
  LocalViseme: localVisemeNode,
  VisemeDebug: visemeDebugNode,
};
