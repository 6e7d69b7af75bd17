import type { ChatMessage, ChatMessageToolCall, ChatUserContentPart } from '../../../../contract/chat.js';
import { GraphContextMessage, contextMessageText, type GraphToolCall } from '../../../../contract/graph/pad-values.js';
import type { MediaMode } from './media-fallback.js';

/** Characters per token, roughly, to keep a context within `max_context_len` tokens. */
const CHARS_PER_TOKEN = 4;
/** What a picture or clip counts for in that budget (vision models bill a picture as a few hundred tokens, not its bytes). */
const MEDIA_CHARS = 1000 * CHARS_PER_TOKEN;

function toChatToolCall(call: GraphToolCall): ChatMessageToolCall {
  return { id: call.call_id, type: 'function', function: { name: call.name, arguments: JSON.stringify(call.arguments ?? {}) } };
}

/** A graph context message from a chat tool call (arguments parsed; unparsable ones kept as `_raw`). */
export function toGraphToolCall(call: ChatMessageToolCall, index: number): GraphToolCall {
  let args: Record<string, unknown>;
  try {
    const parsed: unknown = JSON.parse(call.function.arguments || '{}');
    args = typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : { _raw: call.function.arguments };
  } catch {
    args = { _raw: call.function.arguments };
  }
  return { call_id: call.id, index, name: call.function.name, arguments: args };
}

/**
 * A user message's content: its text alone, or parts when it holds pictures or clips: text parts, `image_url` parts
 * (JPEG data URIs), a clip as a `video_url` part (MP4) or, in `frames` mode or without an MP4, its sampled frames as
 * images. In `none` mode pictures and clips are left out (the node has said so in the run's log).
 */
function userContent(message: GraphContextMessage, text: string, media: MediaMode): string | ChatUserContentPart[] {
  if (media === 'none' || !message.content.some((item) => item.image || item.video)) return text;
  const parts: ChatUserContentPart[] = [];
  for (const item of message.content) {
    if (item.content_type === 'text' && item.text) parts.push({ type: 'text', text: item.text });
    else if (item.image) parts.push({ type: 'image_url', image_url: { url: item.image.url } });
    else if (item.video?.url && media === 'video') parts.push({ type: 'video_url', video_url: { url: item.video.url } });
    else if (item.video) parts.push(...item.video.frames.map((url) => ({ type: 'image_url' as const, image_url: { url } })));
  }
  return parts;
}

/**
 * The chat messages of a graph context (a list of context messages): system and user texts (with their media as
 * `media` says), assistant
 * texts with their tool calls, tool results; the oldest non-system messages are dropped past
 * `maxTokens` (roughly). Values that are not context messages are skipped.
 */
export function chatMessagesOf(context: unknown, maxTokens: number, media: MediaMode = 'video'): ChatMessage[] {
  const items = Array.isArray(context) ? context : [];
  const messages: ChatMessage[] = [];
  for (const item of items) {
    const parsed = GraphContextMessage.safeParse(item);
    if (!parsed.success) continue;
    const message = parsed.data;
    const text = contextMessageText(message);
    switch (message.role.value) {
      case 'system':
        messages.push({ role: 'system', content: text });
        break;
      case 'user': {
        const content = userContent(message, text, media);
        if (content.length > 0) messages.push({ role: 'user', content });
        break;
      }
      case 'assistant':
        if (message.tool_calls.length > 0)
          messages.push({ role: 'assistant', content: text === '' ? null : text, tool_calls: message.tool_calls.map(toChatToolCall) });
        else if (text !== '') messages.push({ role: 'assistant', content: text });
        break;
      case 'tool':
        if (message.tool_call_id) messages.push({ role: 'tool', content: text, tool_call_id: message.tool_call_id });
        break;
    }
  }
  const budget = maxTokens * CHARS_PER_TOKEN;
  const size = (message: ChatMessage) => {
    let mediaParts = 0;
    const text = JSON.stringify(message, (_key, value: unknown) => (typeof value === 'string' && value.startsWith('data:') ? (mediaParts++, '') : value));
    return text.length + mediaParts * MEDIA_CHARS;
  };
  let total = messages.reduce((sum, message) => sum + size(message), 0);
  while (total > budget) {
    const index = messages.findIndex((message) => message.role !== 'system');
    if (index < 0 || index === messages.length - 1) break;
    total -= size(messages[index]!);
    messages.splice(index, 1);
    // A tool result without its call is refused by models: drop orphans with it.
    while (messages[index]?.role === 'tool') {
      total -= size(messages[index]);
      messages.splice(index, 1);
    }
  }
  return messages;
}
