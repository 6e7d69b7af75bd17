import type { ContextMessageContentItem, GraphContextMessage } from '../../../../contract/graph/pad-values.js';
import type { NodeImplementation } from '../../runtime/graph-node.js';
import { StatelessSinkPad } from '../../runtime/pads.js';
import { zipSinks } from '../utility/zip-sinks.js';
import { contentItemsOf } from './content-items.js';

function roleOf(value: unknown): GraphContextMessage['role']['value'] {
  return value === 'system' || value === 'assistant' || value === 'tool' ? value : 'user';
}

/**
 * ContextMessageZip: waits for one value on each linked `content_{i}`, then makes one context message with `role` of
 * all of them, in pad order (see `contentItemsOf`); a message with no content is not sent.
 */
export const contextMessageZipNode: NodeImplementation = async (node, signal) => {
  const pads = node.numbered('content_', StatelessSinkPad).filter((pad) => node.isLinked(pad.id));
  if (pads.length === 0) return;
  const padIds = pads.map((pad) => pad.id);
  for await (const values of zipSinks(node, padIds, signal)) {
    const content: ContextMessageContentItem[] = [];
    for (const [index, value] of values.entries()) {
      const padId = padIds[index];
      const items = await contentItemsOf(value, (message) => node.log('warning', message, padId), signal);
      if (items === undefined) node.log('warning', 'ignored a value that is not content', padId);
      else content.push(...items);
    }
    if (content.length === 0) continue;
    node
      .source('context_message')
      .push({ type: 'context_message', role: { type: 'context_message_role', value: roleOf(node.value('role')) }, content, tool_calls: [] });
  }
};
