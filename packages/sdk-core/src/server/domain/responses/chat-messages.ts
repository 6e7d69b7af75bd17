import type { ChatMessage, ChatMessageToolCall, ChatUserContentPart } from '../../../contract/chat.js';
import type { ResponseInputContent, ResponseItem, ResponseOutputItem } from '../../../contract/responses-items.js';
import { BadRequestError } from '../../../errors/api-error.js';

/** An item of the conversation, whether given as input or answered as output. */
export type ConversationItem = ResponseItem | ResponseOutputItem;

/**
 * The chat messages a conversation stands for, for an LLM that speaks Chat Completions: `instructions` first as a
 * system message, then every item in order. `system` and `developer` messages become system messages; the
 * assistant's text and its function calls one assistant message (calls in a row join it); a `function_call_output`
 * a `tool` message, refused (400 naming the item) when no earlier `function_call` has its `call_id`.
 *
 * @example
 * toChatMessages('Be brief.', [...history, ...input], (index) => `input[${index}]`);
 */
export function toChatMessages(instructions: string | null | undefined, items: readonly ConversationItem[], field: (index: number) => string): ChatMessage[] {
  const messages: ChatMessage[] = instructions ? [{ role: 'system', content: instructions }] : [];
  const calls = new Set<string>();
  items.forEach((item, index) => {
    if (item.type === 'function_call') {
      calls.add(item.call_id);
      const call: ChatMessageToolCall = { id: item.call_id, type: 'function', function: { name: item.name, arguments: item.arguments } };
      const last = messages.at(-1);
      if (last?.role === 'assistant') last.tool_calls = [...(last.tool_calls ?? []), call];
      else messages.push({ role: 'assistant', content: null, tool_calls: [call] });
      return;
    }
    if (item.type === 'function_call_output') {
      if (!calls.has(item.call_id)) {
        throw new BadRequestError(`Invalid body: ${field(index)}.call_id: no function_call with call_id '${item.call_id}' comes before this output`);
      }
      const content = typeof item.output === 'string' ? item.output : item.output.map((part) => ({ type: 'text' as const, text: part.text }));
      messages.push({ role: 'tool', tool_call_id: item.call_id, content });
      return;
    }
    messages.push(messageOf(item, () => field(index)));
  });
  return messages;
}

type MessageItem = Extract<ConversationItem, { type: 'message' }>;

function messageOf(item: MessageItem, field: () => string): ChatMessage {
  const parts: readonly ResponseInputContent[] = item.content;
  if (item.role === 'user') return { role: 'user', content: parts.map((part) => userPart(part)) };
  if (parts.some((part) => part.type === 'input_image')) {
    throw new BadRequestError(`Invalid body: ${field()}.content: input_image parts are only taken in user messages`);
  }
  const text = parts.map((part) => (part.type === 'refusal' ? part.refusal : part.type === 'input_image' ? '' : part.text)).join('');
  if (item.role === 'assistant') return { role: 'assistant', content: text };
  // The gateway sends `developer` as `system` to LLMs without the role.
  return { role: item.role, content: text };
}

function userPart(part: ResponseInputContent): ChatUserContentPart {
  switch (part.type) {
    case 'input_image':
      return { type: 'image_url', image_url: { url: part.image_url, detail: part.detail } };
    case 'refusal':
      return { type: 'text', text: part.refusal };
    default:
      return { type: 'text', text: part.text };
  }
}
