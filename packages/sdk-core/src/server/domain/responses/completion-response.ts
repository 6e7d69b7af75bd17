import type { ChatCompletionResponse } from '../../../contract/chat.js';
import type { ResponseObject } from '../../../contract/responses-object.js';
import type { ResponseOutputItem } from '../../../contract/responses-items.js';
import { newId } from '../../store/ids.js';
import { responseUsage } from './response-assembler.js';

/**
 * The finished response a whole chat completion stands for: its text (and refusal) as one message item, then each
 * tool call as a `function_call` item; `length` and `content_filter` finishes make it `incomplete`.
 *
 * @example
 * const response = responseFromCompletion(initialResponse(id, request, now), await chat.complete(principal, chatRequest, { signal }));
 */
export function responseFromCompletion(initial: ResponseObject, completion: ChatCompletionResponse): ResponseObject {
  const choice = completion.choices[0];
  const output: ResponseOutputItem[] = [];
  const message = choice?.message;
  if (message && (message.content || message.refusal)) {
    const content: Extract<ResponseOutputItem, { type: 'message' }>['content'] = [];
    if (message.content) content.push({ type: 'output_text', text: message.content, annotations: [] });
    if (message.refusal) content.push({ type: 'refusal', refusal: message.refusal });
    output.push({ type: 'message', id: newId('msg'), status: 'completed', role: 'assistant', content });
  }
  for (const call of message?.tool_calls ?? []) {
    output.push({
      type: 'function_call',
      id: newId('fc'),
      call_id: call.id,
      name: call.function.name,
      arguments: call.function.arguments,
      status: 'completed',
    });
  }
  const reason = choice?.finish_reason;
  const incomplete = reason === 'length' || reason === 'content_filter';
  return {
    ...initial,
    status: incomplete ? 'incomplete' : 'completed',
    incomplete_details: incomplete ? { reason: reason === 'length' ? 'max_output_tokens' : 'content_filter' } : null,
    output,
    usage: completion.usage ? responseUsage(completion.usage) : null,
  };
}
