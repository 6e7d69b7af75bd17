import type { NodeImplementation } from '../../runtime/graph-node.js';
import { contextMessageZipNode } from './context-message-zip-node.js';
import { createContextMessageNode } from './create-context-message-node.js';
import { contextMessageNode, llmContextNode } from './llm-context-node.js';
import { openAiCompatibleLlmNode } from './openai-compatible-llm-node.js';

export const llmImplementations: Record<string, NodeImplementation> = {
  LLMContext: llmContextNode,
  ContextMessage: contextMessageNode,
  CreateContextMessage: createContextMessageNode,
  ContextMessageZip: contextMessageZipNode,
  OpenAICompatibleLLM: openAiCompatibleLlmNode,
};
