import type { ChatCompletionResponse, ChatCompletionUsage, FinishReason } from '../../../contract/chat.js';
import type { ChatDelta } from './chat-model.js';

/**
 * Joins a model's deltas into one non-streamed answer: text concatenated, tool calls assembled by
 * `index` (id and name from their first delta, argument fragments appended in order).
 *
 * @example
 * assembleCompletion([{ type: 'text', text: 'Hi' }, { type: 'finish', reason: 'stop' }], { id, created, model })
 */
export function assembleCompletion(deltas: readonly ChatDelta[], identity: { id: string; created: number; model: string }): ChatCompletionResponse {
  let content: string | null = null;
  let refusal: string | null = null;
  let finishReason: FinishReason = 'stop';
  let usage: ChatCompletionUsage | undefined;
  const calls = new Map<number, { id: string; name: string; arguments: string }>();
  for (const delta of deltas) {
    switch (delta.type) {
      case 'text':
        content = (content ?? '') + delta.text;
        break;
      case 'refusal':
        refusal = (refusal ?? '') + delta.text;
        break;
      case 'tool-call': {
        const call = calls.get(delta.index) ?? { id: '', name: '', arguments: '' };
        if (delta.id) call.id = delta.id;
        if (delta.name) call.name += delta.name;
        if (delta.arguments) call.arguments += delta.arguments;
        calls.set(delta.index, call);
        break;
      }
      case 'finish':
        finishReason = delta.reason;
        break;
      case 'usage':
        usage = delta.usage;
        break;
    }
  }
  const toolCalls = [...calls.entries()]
    .sort(([left], [right]) => left - right)
    .map(([, call]) => ({ id: call.id, type: 'function' as const, function: { name: call.name, arguments: call.arguments } }));
  return {
    ...identity,
    object: 'chat.completion',
    choices: [
      {
        index: 0,
        message: { role: 'assistant', content, refusal, ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}) },
        finish_reason: finishReason,
        logprobs: null,
      },
    ],
    ...(usage ? { usage } : {}),
  };
}
