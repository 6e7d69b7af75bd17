import type { ChatCompletionCreateParamsStreaming } from 'openai/resources/chat/completions';
import type { ChatMessage } from '../../../../contract/chat.js';
import type { ChatModelRequest } from '../chat-model.js';

/** What the body needs to know of the upstream besides the request. */
export interface UpstreamDialect {
  /** The upstream model name. */
  model: string;
  /** Whether the upstream knows the `developer` role (OpenAI); otherwise such messages are sent as `system`. */
  developerRole: boolean;
}

/** A message as the upstream takes it: the platform's `tool_call_name` removed, `developer` mapped when needed. */
function upstreamMessage(message: ChatMessage, dialect: UpstreamDialect): unknown {
  if (message.role === 'tool') {
    // `tool_call_name` is the platform's extension; upstreams may reject unknown message fields.
    const { tool_call_name: _name, ...rest } = message;
    return rest;
  }
  if (message.role === 'developer' && !dialect.developerRole) return { ...message, role: 'system' };
  return message;
}

function toolFields(request: ChatModelRequest): Partial<ChatCompletionCreateParamsStreaming> {
  if ((request.tools?.length ?? 0) === 0) return {};
  return {
    tools: request.tools!.map((tool) => ({
      type: 'function' as const,
      function: {
        name: tool.function.name,
        ...(tool.function.description !== undefined ? { description: tool.function.description } : {}),
        ...(tool.function.parameters !== undefined ? { parameters: tool.function.parameters } : {}),
        ...(tool.function.strict ? { strict: true } : {}),
      },
    })),
    tool_choice: request.toolChoice,
    parallel_tool_calls: request.parallelToolCalls,
  };
}

/**
 * The upstream's request body: the caller's fields as given (OpenAI's answer-shaping parameters, tools, metadata),
 * the token limit under the field(s) the caller used, and always a stream with usage, so tokens are metered even
 * when the caller did not ask for usage.
 *
 * @example
 * JSON.stringify(toUpstreamBody(request, { model: 'gpt-4o-mini', developerRole: true }))
 */
export function toUpstreamBody(request: ChatModelRequest, dialect: UpstreamDialect): ChatCompletionCreateParamsStreaming {
  const limit: Record<string, number> = {};
  if (request.maxTokens !== undefined) for (const field of request.limitFields ?? ['max_tokens']) limit[field] = request.maxTokens;
  return {
    ...(request.parameters as Partial<ChatCompletionCreateParamsStreaming>),
    model: dialect.model,
    messages: request.messages.map((message) => upstreamMessage(message, dialect)) as ChatCompletionCreateParamsStreaming['messages'],
    stream: true,
    stream_options: { include_usage: true },
    ...limit,
    ...(request.temperature !== undefined ? { temperature: request.temperature } : {}),
    ...(request.metadata !== undefined ? { metadata: request.metadata as Record<string, string> } : {}),
    ...toolFields(request),
  };
}
