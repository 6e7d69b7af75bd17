import type { ResponseCreateRequest } from '../../../contract/responses.js';
import type { ResponseInputContent, ResponseInputItem, ResponseItem } from '../../../contract/responses-items.js';
import { newId } from '../../store/ids.js';

/**
 * A request's `input` as the stored items `input_items` lists: a string is one user message; each item gets its id
 * (the caller's, else a new one) and status, and a message's text becomes a part (`input_text`, or `output_text` for
 * the assistant's).
 *
 * @example
 * normalizeInput('Hello'); // [{ type: 'message', id: 'msg_01...', status: 'completed', role: 'user', content: [{ type: 'input_text', text: 'Hello' }] }]
 */
export function normalizeInput(input: ResponseCreateRequest['input']): ResponseItem[] {
  const items: ResponseInputItem[] = typeof input === 'string' ? [{ type: 'message', role: 'user', content: input }] : input;
  return items.map(normalizeItem);
}

function normalizeItem(item: ResponseInputItem): ResponseItem {
  switch (item.type) {
    case 'function_call':
      return { ...item, id: item.id ?? newId('fc'), status: item.status ?? 'completed' };
    case 'function_call_output':
      return { ...item, id: item.id ?? newId('fco'), status: item.status ?? 'completed' };
    default: {
      const content: ResponseInputContent[] =
        typeof item.content !== 'string'
          ? item.content
          : [item.role === 'assistant' ? { type: 'output_text', text: item.content, annotations: [] } : { type: 'input_text', text: item.content }];
      return { type: 'message', id: item.id ?? newId('msg'), status: item.status ?? 'completed', role: item.role, content };
    }
  }
}
