import { setTimeout as sleep } from 'node:timers/promises';
import type { ChatMessage } from '../../../contract/chat.js';
import type { ChatDelta, ChatModel, ChatModelRequest, ChatStreamOptions } from './chat-model.js';
import { planToolCalls } from './offline-tool-planner.js';
import { messageText, splitTokens } from './token-count.js';

/** LLM id of the offline built-in model. */
export const OFFLINE_MODEL_ID = 'builtin-offline';
/** Its display name: nobody should mistake it for a real model. */
export const OFFLINE_MODEL_NAME = 'Palaver offline test model (deterministic, not a real LLM)';

const ARGUMENT_FRAGMENT_LENGTH = 8;
const MAX_ECHO_LENGTH = 500;

export interface OfflineModelOptions {
  /** Pause between streamed tokens, to mimic a real model's pacing (default 0: only yield to the event loop). */
  tokenDelayMs?: number;
}

function toolNameOf(messages: readonly ChatMessage[], message: ChatMessage & { role: 'tool' }): string {
  if (message.tool_call_name) return message.tool_call_name;
  for (const candidate of messages) {
    if (candidate.role !== 'assistant') continue;
    const call = candidate.tool_calls?.find((toolCall) => toolCall.id === message.tool_call_id);
    if (call) return call.function.name;
  }
  return 'tool';
}

/** The deterministic answer: a summary of a tool result, or a reflection of the last user message. */
function replyTo(messages: readonly ChatMessage[]): string {
  const last = messages.at(-1);
  if (last?.role === 'tool') {
    return `The ${toolNameOf(messages, last)} tool returned: ${messageText(last).slice(0, MAX_ECHO_LENGTH)}`;
  }
  const lastUser = [...messages].reverse().find((message) => message.role === 'user');
  const text = lastUser ? messageText(lastUser).replace(/\s+/g, ' ').trim() : '';
  if (text === '') return 'Hello! I am the Palaver offline test model.';
  const echoed = text.length > MAX_ECHO_LENGTH ? `${text.slice(0, MAX_ECHO_LENGTH)}…` : text;
  return `You said: "${echoed}". I am the Palaver offline test model, so I can only repeat what I hear.`;
}

function fragments(text: string, length: number): string[] {
  const pieces: string[] = [];
  for (let start = 0; start < text.length; start += length) pieces.push(text.slice(start, start + length));
  return pieces;
}

function promptTokens(messages: readonly ChatMessage[]): number {
  return messages.reduce((total, message) => total + splitTokens(messageText(message)).length + 3, 0);
}

/**
 * The offline built-in model (`builtin-offline`): deterministic, streams token by token, honours
 * `max_tokens`, calls a declared tool when the last user message asks for it (by name or description
 * keywords) with arguments filled from the message, and otherwise repeats the user's message. It is a test
 * double for development, tests and the realtime agent without network, never a real LLM.
 *
 * @example
 * const model = createOfflineChatModel();
 * for await (const delta of model.stream({ messages: [{ role: 'user', content: 'Hi' }], toolChoice: 'none', parallelToolCalls: true }, { signal })) {}
 */
export function createOfflineChatModel(options: OfflineModelOptions = {}): ChatModel {
  const delayMs = options.tokenDelayMs ?? 0;
  const pause = (signal: AbortSignal) => (delayMs > 0 ? sleep(delayMs, undefined, { signal }) : new Promise<void>((resolve) => setImmediate(resolve)));

  return {
    id: OFFLINE_MODEL_ID,
    accepts: { images: false, video: false },
    async *stream(request: ChatModelRequest, { signal }: ChatStreamOptions): AsyncIterable<ChatDelta> {
      const limit = request.maxTokens ?? Number.POSITIVE_INFINITY;
      let produced = 0;
      let truncated = false;
      const calls = planToolCalls(request);

      if (calls.length > 0) {
        for (const [index, call] of calls.entries()) {
          if (produced >= limit) {
            truncated = true;
            break;
          }
          signal.throwIfAborted();
          yield { type: 'tool-call', index, id: call.id, name: call.name, arguments: '' };
          produced += 1;
          for (const fragment of fragments(call.arguments, ARGUMENT_FRAGMENT_LENGTH)) {
            if (produced >= limit) {
              truncated = true;
              break;
            }
            await pause(signal);
            yield { type: 'tool-call', index, arguments: fragment };
            produced += 1;
          }
        }
      } else {
        const tokens = splitTokens(replyTo(request.messages));
        for (const token of tokens) {
          if (produced >= limit) {
            truncated = true;
            break;
          }
          signal.throwIfAborted();
          yield { type: 'text', text: token };
          produced += 1;
          await pause(signal);
        }
      }
      signal.throwIfAborted();
      yield { type: 'finish', reason: truncated ? 'length' : calls.length > 0 ? 'tool_calls' : 'stop' };
      const prompt = promptTokens(request.messages);
      yield { type: 'usage', usage: { prompt_tokens: prompt, completion_tokens: produced, total_tokens: prompt + produced } };
    },
  };
}
