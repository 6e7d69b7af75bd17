import type { NodeImplementation } from '../../runtime/graph-node.js';
import { localLlmNode } from './local-llm-node.js';
import { localSttNode } from './local-stt-node.js';

/** Nodes served by the operator's local inference servers (the open engine's `local` nodes). */
export const localImplementations: Record<string, NodeImplementation> = {
  LocalLLM: localLlmNode,
  LocalSTT: localSttNode,
};
