import type { NodeImplementation } from '../../runtime/graph-node.js';
import { contentItemsOf } from './content-items.js';

/**
 * CreateContextMessage: one context message with `role` per content that arrives: a string as is, a text stream
 * once it ends (not when cancelled), an audio clip's transcription, a frame as an image, a clip as a video (see
 * `contentItemsOf`). Empty contents make nothing.
 */
export const createContextMessageNode: NodeImplementation = async (node, signal) => {
  for await (const value of node.sink('content')) {
    if (signal.aborted) break;
    const content = await contentItemsOf(value, (message) => node.log('warning', message, 'content'), signal);
    if (content === undefined) {
      if (typeof value !== 'object' || value === null || !('kind' in value))
        node.log('warning', 'ignored a content that is not text, media or a clip', 'content');
      continue;
    }
    if (content.length === 0) continue;
    const role = node.value('role');
    const name = role === 'system' || role === 'assistant' || role === 'tool' ? role : 'user';
    node.source('context_message').push({ type: 'context_message', role: { type: 'context_message_role', value: name }, content, tool_calls: [] });
  }
};
