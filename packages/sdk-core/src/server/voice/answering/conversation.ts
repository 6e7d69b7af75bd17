import type { ChatMessage } from '../../../contract/chat.js';
import type { ContextMessage } from '../../../contract/contexts.js';

/** Messages kept for the model; older ones are dropped (the context keeps them all). */
export const MAX_HISTORY_MESSAGES = 100;

/** The text of a stored context message (its text parts; images and video are not sent to the voice model). */
function contextText(message: ContextMessage): string {
  return message.content
    .map((part) => (part.type === 'text' ? part.text : ''))
    .join('')
    .trim();
}

/**
 * The conversation as the model sees it: the context's latest messages, then every committed turn.
 * Only user and assistant text is kept from the context (tool exchanges of earlier sessions are not
 * replayed); this session's tool rounds are kept with their calls and results.
 *
 * @example
 * const conversation = new Conversation(config.generative.context.latest_messages);
 * conversation.add('user', 'Hello');
 * const messages = conversation.messages('You are Ada.');
 */
export class Conversation {
  private readonly history: ChatMessage[] = [];
  private changes = 0;

  constructor(initial: readonly ContextMessage[] = []) {
    for (const message of initial) {
      if (message.role !== 'user' && message.role !== 'assistant') continue;
      const text = contextText(message);
      if (text) this.add(message.role, text);
    }
  }

  get length(): number {
    return this.history.length;
  }

  /** Changes with every message added: an answer prepared at one version is stale at another. */
  get version(): number {
    return this.changes;
  }

  add(role: 'user' | 'assistant', content: string): void {
    this.changes += 1;
    this.history.push(role === 'user' ? { role, content } : { role, content });
    this.trim();
  }

  /** A tool round of this session: the assistant's calls, then one `tool` message per call. */
  addToolExchange(assistant: ChatMessage & { role: 'assistant' }, results: ReadonlyArray<ChatMessage & { role: 'tool' }>): void {
    this.changes += 1;
    this.history.push(assistant, ...results);
    this.trim();
  }

  private trim(): void {
    if (this.history.length > MAX_HISTORY_MESSAGES) this.history.splice(0, this.history.length - MAX_HISTORY_MESSAGES);
    // A tool result must follow the assistant message that called it.
    while (this.history[0]?.role === 'tool') this.history.shift();
  }

  /** The request messages: the system prompt, then the history. */
  messages(systemPrompt: string): ChatMessage[] {
    return [{ role: 'system', content: systemPrompt }, ...this.history];
  }
}
