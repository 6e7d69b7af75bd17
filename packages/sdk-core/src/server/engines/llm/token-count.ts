import type { ChatMessage } from '../../../contract/chat.js';

/**
 * Splits text into the pieces the offline model streams: each word with its leading whitespace, so
 * joining the pieces gives the text back exactly.
 */
export function splitTokens(text: string): string[] {
  return text.match(/\s*\S+|\s+$/g) ?? [];
}

/**
 * A rough token count (about four characters a token, as OpenAI's rule of thumb) for metering when an
 * upstream reports no usage, e.g. a stream cut short by a client disconnect.
 */
export function estimateTokens(text: string): number {
  return text.length === 0 ? 0 : Math.ceil(text.length / 4);
}

/** The text of a message's content, parts joined by newlines; non-text parts count as nothing. */
export function messageText(message: ChatMessage): string {
  const content = message.content;
  if (content === undefined || content === null) return '';
  if (typeof content === 'string') return content;
  return content.map((part) => (part.type === 'text' ? part.text : '')).join('\n');
}

/** Estimated prompt tokens of a conversation (content plus a few tokens of framing per message). */
export function estimatePromptTokens(messages: readonly ChatMessage[]): number {
  return messages.reduce((total, message) => total + estimateTokens(messageText(message)) + 4, 0);
}
