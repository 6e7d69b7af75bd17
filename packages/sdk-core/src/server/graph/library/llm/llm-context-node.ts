import { GraphContextMessage, textContextMessage } from '../../../../contract/graph/pad-values.js';
import type { NodeImplementation } from '../../runtime/graph-node.js';
import { StatelessSinkPad } from '../../runtime/pads.js';

function bound(value: unknown, fallback: number): number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 ? value : fallback;
}

/**
 * The messages with only the newest `maxImages` pictures and `maxVideos` clips kept (older ones are left out of their
 * messages; a message left with no content stays, empty, so the conversation's order holds).
 */
export function withNewestMedia(messages: readonly GraphContextMessage[], maxImages: number, maxVideos: number): GraphContextMessage[] {
  let images = 0;
  let videos = 0;
  const kept = [...messages].reverse().map((message) => {
    const content = [...message.content].reverse().filter((item) => {
      if (item.image) return ++images <= maxImages;
      if (item.video) return ++videos <= maxVideos;
      return true;
    });
    return content.length === message.content.length ? message : { ...message, content: content.reverse() };
  });
  return kept.reverse();
}

/**
 * LLMContext: the system message followed by every message inserted on `insert_0`.. in arrival order,
 * keeping the newest `max_non_system_messages`. `source` holds the whole list after each change (before
 * `new_user_message` announces a user message, so an LLM run by that announcement sees it). Only the newest
 * `max_images` pictures and `max_videos` clips stay in it.
 */
export const llmContextNode: NodeImplementation = async (node, signal) => {
  const messages: GraphContextMessage[] = [];
  const source = node.propertySource('source');
  const publish = (): void => {
    const system = GraphContextMessage.safeParse(node.value('system_message'));
    const limit = bound(node.value('max_non_system_messages'), 64);
    if (messages.length > limit) messages.splice(0, messages.length - limit);
    const media = withNewestMedia(messages, bound(node.value('max_images'), 2), bound(node.value('max_videos'), 2));
    source.push([...(system.success ? [system.data] : []), ...media]);
  };
  const unsubscribers = [node.propertySink('system_message').onValue(publish), node.propertySink('max_non_system_messages').onValue(publish)];
  for (const insert of node.numbered('insert_', StatelessSinkPad)) {
    unsubscribers.push(
      insert.onValue((value) => {
        const parsed = GraphContextMessage.safeParse(value);
        if (!parsed.success) {
          node.log('warning', 'ignored a value that is not a context message', insert.id);
          return;
        }
        messages.push(parsed.data);
        publish();
        if (parsed.data.role.value === 'user') node.source('new_user_message').push(parsed.data);
      }),
    );
  }
  publish();
  await new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
  for (const unsubscribe of unsubscribers) unsubscribe();
};

/** ContextMessage: `role` and `content` as one context message, re-made whenever either changes. */
export const contextMessageNode: NodeImplementation = async (node, signal) => {
  const publish = (): void => {
    const role = node.value('role');
    const content = node.value('content');
    node
      .propertySource('context_message')
      .push(
        textContextMessage(
          role === 'user' || role === 'assistant' || role === 'tool' ? role : 'system',
          typeof content === 'string' ? content : String(content ?? ''),
        ),
      );
  };
  const unsubscribers = [node.propertySink('role').onValue(publish), node.propertySink('content').onValue(publish)];
  publish();
  await new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
  for (const unsubscribe of unsubscribers) unsubscribe();
};
