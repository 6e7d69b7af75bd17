import { textContextMessage } from '../../../../contract/graph/pad-values.js';
import type { NodeImplementation } from '../../runtime/graph-node.js';
import { AudioClip, isTextStream } from '../../runtime/stream-values.js';

/**
 * CreateContextMessage: one context message with `role` per content that arrives: a string as is, a text
 * stream once it ends (not when cancelled), an audio clip's transcription. Empty contents make nothing.
 */
export const createContextMessageNode: NodeImplementation = async (node, signal) => {
  for await (const value of node.sink('content')) {
    if (signal.aborted) break;
    let text: string | undefined;
    if (typeof value === 'string') text = value;
    else if (isTextStream(value)) {
      text = await value.readAll();
      if (value.wasCancelled) continue;
    } else if (value instanceof AudioClip) text = value.transcription ?? undefined;
    else {
      node.log('warning', 'ignored a content that is not text', 'content');
      continue;
    }
    if (!text || text.trim() === '') continue;
    const role = node.value('role');
    node.source('context_message').push(textContextMessage(role === 'system' || role === 'assistant' || role === 'tool' ? role : 'user', text));
  }
};
