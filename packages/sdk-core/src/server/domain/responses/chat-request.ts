import type { z } from 'zod';
import { ChatCompletionRequest, type ChatMessage } from '../../../contract/chat.js';
import type { ResponseCreateRequest } from '../../../contract/responses.js';
import type { ResponseObject, ResponseTextFormat } from '../../../contract/responses-object.js';
import { BadRequestError } from '../../../errors/api-error.js';

type ChatRequestInput = z.input<typeof ChatCompletionRequest>;

function responseFormat(format: ResponseTextFormat | undefined): ChatRequestInput['response_format'] {
  if (!format || format.type === 'text') return undefined;
  if (format.type === 'json_object') return { type: 'json_object' };
  const { name, schema, description, strict } = format;
  return { type: 'json_schema', json_schema: { name, schema, ...(description !== undefined ? { description } : {}), ...(strict != null ? { strict } : {}) } };
}

function toolChoice(request: ResponseCreateRequest): ChatRequestInput['tool_choice'] {
  const choice = request.tool_choice;
  if (choice === undefined) return undefined;
  return typeof choice === 'string' ? choice : { type: 'function', function: { name: choice.name } };
}

/**
 * The chat completion a response stands for: the conversation's messages, the same LLM, its tools, sampling, limit
 * and text format (`text.format` -> `response_format`); always a stream with usage, as the gateway meters it. A
 * field the chat contract refuses is a 400 naming the Responses field it came from.
 *
 * @example
 * await chat.stream(principal, chatRequestOf(request, messages, true), { signal });
 */
export function chatRequestOf(request: ResponseCreateRequest, messages: ChatMessage[], stream: boolean): ChatCompletionRequest {
  const tools = request.tools ?? [];
  const input: ChatRequestInput = {
    model: request.model,
    messages,
    stream,
    ...(stream ? { stream_options: { include_usage: true } } : {}),
    ...(request.temperature != null ? { temperature: request.temperature } : {}),
    ...(request.top_p != null ? { top_p: request.top_p } : {}),
    ...(request.max_output_tokens != null ? { max_tokens: request.max_output_tokens } : {}),
    ...(request.metadata ? { metadata: request.metadata } : {}),
    ...(request.user !== undefined ? { user: request.user } : {}),
    ...(request.reasoning?.effort != null ? { reasoning_effort: request.reasoning.effort } : {}),
    ...(request.text?.verbosity != null ? { verbosity: request.text.verbosity } : {}),
    ...(request.service_tier != null ? { service_tier: request.service_tier } : {}),
    ...(request.safety_identifier != null ? { safety_identifier: request.safety_identifier } : {}),
    ...(request.prompt_cache_key != null ? { prompt_cache_key: request.prompt_cache_key } : {}),
    ...(request.text?.format && request.text.format.type !== 'text' ? { response_format: responseFormat(request.text.format) } : {}),
    ...(tools.length > 0
      ? {
          tools: tools.map((tool) => ({
            type: 'function' as const,
            function: {
              name: tool.name,
              ...(tool.description != null ? { description: tool.description } : {}),
              ...(tool.parameters != null ? { parameters: tool.parameters } : {}),
              strict: tool.strict ?? false,
            },
          })),
          tool_choice: toolChoice(request),
          parallel_tool_calls: request.parallel_tool_calls ?? true,
        }
      : {}),
  };
  const parsed = ChatCompletionRequest.safeParse(input);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  throw new BadRequestError(`Invalid body: ${issue.path.join('.') || 'input'}: ${issue.message}`);
}

/** The response as it starts: everything the request decided, no output yet. */
export function initialResponse(id: string, request: ResponseCreateRequest, createdAt: number): ResponseObject {
  return {
    id,
    object: 'response',
    created_at: createdAt,
    status: 'in_progress',
    error: null,
    incomplete_details: null,
    instructions: request.instructions ?? null,
    max_output_tokens: request.max_output_tokens ?? null,
    model: request.model,
    output: [],
    parallel_tool_calls: request.parallel_tool_calls ?? true,
    previous_response_id: request.previous_response_id ?? null,
    temperature: request.temperature ?? null,
    top_p: request.top_p ?? null,
    text: { format: request.text?.format ?? { type: 'text' } },
    tool_choice: request.tool_choice ?? 'auto',
    tools: request.tools ?? [],
    truncation: 'disabled',
    store: request.store ?? true,
    usage: null,
    metadata: request.metadata ?? {},
    user: request.user ?? null,
  };
}
