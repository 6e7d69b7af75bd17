import type { ChatTokenLogprob } from '../../../contract/chat-parameters.js';
import type { ChatCompletionResponse, ChatCompletionUsage, FinishReason } from '../../../contract/chat.js';
import type { ChatDelta } from './chat-model.js';

/** One choice being assembled. */
interface ChoiceParts {
  content: string | null;
  refusal: string | null;
  finishReason: FinishReason;
  calls: Map<number, { id: string; name: string; arguments: string }>;
  contentLogprobs: ChatTokenLogprob[] | undefined;
  refusalLogprobs: ChatTokenLogprob[] | undefined;
}

function newChoice(): ChoiceParts {
  return { content: null, refusal: null, finishReason: 'stop', calls: new Map(), contentLogprobs: undefined, refusalLogprobs: undefined };
}

function add(parts: ChoiceParts, delta: Exclude<ChatDelta, { type: 'usage' }>): void {
  switch (delta.type) {
    case 'text':
      parts.content = (parts.content ?? '') + delta.text;
      if (delta.logprobs) (parts.contentLogprobs ??= []).push(...delta.logprobs);
      break;
    case 'refusal':
      parts.refusal = (parts.refusal ?? '') + delta.text;
      if (delta.logprobs) (parts.refusalLogprobs ??= []).push(...delta.logprobs);
      break;
    case 'tool-call': {
      const call = parts.calls.get(delta.index) ?? { id: '', name: '', arguments: '' };
      if (delta.id) call.id = delta.id;
      if (delta.name) call.name += delta.name;
      if (delta.arguments) call.arguments += delta.arguments;
      parts.calls.set(delta.index, call);
      break;
    }
    case 'finish':
      parts.finishReason = delta.reason;
      break;
  }
}

function choiceOf(index: number, parts: ChoiceParts): ChatCompletionResponse['choices'][number] {
  const toolCalls = [...parts.calls.entries()]
    .sort(([left], [right]) => left - right)
    .map(([, call]) => ({ id: call.id, type: 'function' as const, function: { name: call.name, arguments: call.arguments } }));
  const logprobs = parts.contentLogprobs || parts.refusalLogprobs ? { content: parts.contentLogprobs ?? null, refusal: parts.refusalLogprobs ?? null } : null;
  return {
    index,
    message: { role: 'assistant', content: parts.content, refusal: parts.refusal, ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}) },
    finish_reason: parts.finishReason,
    logprobs,
  };
}

/**
 * Joins a model's deltas into one non-streamed answer, a choice per `choice` index (`n`): text concatenated, tool
 * calls assembled by `index` (id and name from their first delta, argument fragments appended in order), token
 * log probabilities in order.
 *
 * @example
 * assembleCompletion([{ type: 'text', text: 'Hi' }, { type: 'finish', reason: 'stop' }], { id, created, model })
 */
export function assembleCompletion(deltas: readonly ChatDelta[], identity: { id: string; created: number; model: string }): ChatCompletionResponse {
  let usage: ChatCompletionUsage | undefined;
  const choices = new Map<number, ChoiceParts>([[0, newChoice()]]);
  for (const delta of deltas) {
    if (delta.type === 'usage') {
      usage = delta.usage;
      continue;
    }
    const index = delta.choice ?? 0;
    let parts = choices.get(index);
    if (!parts) choices.set(index, (parts = newChoice()));
    add(parts, delta);
  }
  return {
    ...identity,
    object: 'chat.completion',
    choices: [...choices.entries()].sort(([left], [right]) => left - right).map(([index, parts]) => choiceOf(index, parts)),
    ...(usage ? { usage } : {}),
  };
}
