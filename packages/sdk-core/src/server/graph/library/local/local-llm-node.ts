import { createLocalChat } from '../../../engines/llm/index.js';
import type { NodeImplementation } from '../../runtime/graph-node.js';
import { llmNode } from '../llm/openai-compatible-llm-node.js';
import { LOCAL_SERVER_POLICY, localServerUrl } from './local-server.js';

/** The engine's LocalLLM port. */
const DEFAULT_PORT = 7002;

/**
 * LocalLLM: the LLM node (the engine's BaseLLM pads) answered by a local OpenAI-compatible server at the operator's
 * local host and the node's `port` (`/v1/chat/completions`, streamed): Ollama, llama.cpp's server, vLLM. `model` (a
 * Palaver extension) names the server's model; empty, as the engine sends, suits a server with one model. Tokens are
 * not metered.
 */
export const localLlmNode: NodeImplementation = llmNode((node) => {
  const url = localServerUrl(node, DEFAULT_PORT);
  const model = node.value('model');
  const baseUrl = new URL('/v1', url).toString();
  node.log('info', `answering with the local server at ${baseUrl}`, 'port');
  return {
    chat: createLocalChat({
      baseUrl,
      model: typeof model === 'string' ? model.trim() : '',
      addressPolicy: LOCAL_SERVER_POLICY,
      logger: node.environment.logger,
    }),
    model: 'local',
  };
});
