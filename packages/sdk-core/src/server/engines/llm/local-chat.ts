import type { Logger } from 'pino';
import type { OutboundPolicy } from '../../kernel/outbound/index.js';
import type { ChatPort } from '../../kernel/ports/chat.js';
import { unmeteredUsage } from '../../kernel/ports/usage-meter.js';
import { ChatGateway } from './chat-gateway.js';
import { createOpenAiCompatibleModel } from './openai-compatible-model.js';

export interface LocalChatOptions {
  /** The server's OpenAI-compatible base URL, e.g. `http://127.0.0.1:11434/v1`; requests go to `<url>/chat/completions`. */
  baseUrl: string;
  /** The model name sent upstream (empty for a server that serves one model, as the engine's local server). */
  model: string;
  /** Which addresses the connection may reach (the outbound guard judges each new connection). */
  addressPolicy: OutboundPolicy;
  logger: Logger;
}

/**
 * Chat completions from a local OpenAI-compatible server (Ollama, llama.cpp's server, vLLM...) with the gateway's
 * behaviour (streamed deltas, tool calls assembled, retries before the first chunk, timeouts): whatever model a
 * request names, this server answers. Tokens are not metered: the operator's own hardware answers.
 *
 * @example
 * const chat = createLocalChat({ baseUrl: 'http://127.0.0.1:11434/v1', model: 'llama3.2', addressPolicy, logger });
 * for await (const event of await chat.stream(principal, { model: '', messages, stream: true }, { signal })) ...
 */
export function createLocalChat(options: LocalChatOptions): Pick<ChatPort, 'stream'> {
  const model = createOpenAiCompatibleModel({
    id: 'local',
    label: `the local server at ${options.baseUrl}`,
    url: `${options.baseUrl.replace(/\/+$/, '')}/chat/completions`,
    model: options.model,
    addressPolicy: options.addressPolicy,
    retry: { maxAttempts: 2 },
  });
  return new ChatGateway({ resolveModel: () => Promise.resolve(model), usageMeter: unmeteredUsage, logger: options.logger });
}
