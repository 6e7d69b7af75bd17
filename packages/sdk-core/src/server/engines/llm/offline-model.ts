import { setTimeout as sleep } from 'node:timers/promises';
import type { ChatTokenLogprob } from '../../../contract/chat-parameters.js';
import type { ChatMessage } from '../../../contract/chat.js';
import type { ChatDelta, ChatModel, ChatModelRequest, ChatStreamOptions } from './chat-model.js';
import { jsonAnswer } from './offline-json.js';
import { offlineRefusal } from './offline-refusals.js';
import { planToolCalls, type PlannedToolCall } from './offline-tool-planner.js';
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

/** The deterministic reply: a summary of a tool result, or a reflection of the last user message. */
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

/** The answer text: the reply, in the JSON shape asked for, cut before the first stop sequence. */
function answerText(request: ChatModelRequest): string {
  const reply = replyTo(request.messages);
  const text = jsonAnswer(request.parameters?.response_format, reply) ?? reply;
  const stops = request.parameters?.stop;
  const sequences = typeof stops === 'string' ? [stops] : (stops ?? []);
  const cut = Math.min(...sequences.map((sequence) => text.indexOf(sequence)).filter((at) => at >= 0));
  return Number.isFinite(cut) ? text.slice(0, cut) : text;
}

function fragments(text: string, length: number): string[] {
  const pieces: string[] = [];
  for (let start = 0; start < text.length; start += length) pieces.push(text.slice(start, start + length));
  return pieces;
}

function promptTokens(messages: readonly ChatMessage[]): number {
  return messages.reduce((total, message) => total + splitTokens(messageText(message)).length + 3, 0);
}

/** A token's log probability: the deterministic model gives each of its tokens probability 1 and no alternative. */
function certainToken(token: string, alternatives: number): ChatTokenLogprob {
  const bytes = [...new TextEncoder().encode(token)];
  return { token, logprob: 0, bytes, top_logprobs: alternatives > 0 ? [{ token, logprob: 0, bytes }] : [] };
}

type Pause = (signal: AbortSignal) => Promise<void>;

/** One choice's deltas: its tool calls (argument fragments each a token) or its text, token by token, then its finish. */
async function* choiceDeltas(
  request: ChatModelRequest,
  choice: number,
  calls: readonly PlannedToolCall[],
  signal: AbortSignal,
  pause: Pause,
): AsyncGenerator<ChatDelta, number> {
  const limit = request.maxTokens ?? Number.POSITIVE_INFINITY;
  const at = choice === 0 ? {} : { choice };
  let produced = 0;
  let truncated = false;
  if (calls.length > 0) {
    for (const [index, call] of calls.entries()) {
      const pieces = [undefined, ...fragments(call.arguments, ARGUMENT_FRAGMENT_LENGTH)];
      for (const piece of pieces) {
        if ((truncated = produced >= limit)) break;
        if (piece !== undefined) await pause(signal);
        signal.throwIfAborted();
        yield piece === undefined
          ? { type: 'tool-call', ...at, index, id: call.id, name: call.name, arguments: '' }
          : { type: 'tool-call', ...at, index, arguments: piece };
        produced += 1;
      }
      if (truncated) break;
    }
  } else {
    const text = answerText(request);
    const alternatives = request.parameters?.logprobs ? (request.parameters.top_logprobs ?? 0) : undefined;
    for (const token of splitTokens(text)) {
      if ((truncated = produced >= limit)) break;
      signal.throwIfAborted();
      yield { type: 'text', ...at, text: token, ...(alternatives !== undefined ? { logprobs: [certainToken(token, alternatives)] } : {}) };
      produced += 1;
      await pause(signal);
    }
  }
  signal.throwIfAborted();
  yield { type: 'finish', ...at, reason: truncated ? 'length' : calls.length > 0 ? 'tool_calls' : 'stop' };
  return produced;
}

/**
 * The offline built-in model (`builtin-offline`): deterministic, streams token by token (words), and honours what it
 * can of OpenAI's parameters so tests of apps built on it mean something offline: the token limits (per choice),
 * `stop` (the answer ends before the sequence), `n` (that many identical choices, one after another), `response_format`
 * (a JSON object, or a value that validates against the `json_schema`), `logprobs`, tools (it calls a declared tool when
 * the last user message asks for it, by name or description keywords, with arguments filled from the message). The rest
 * it refuses by name (`offline-refusals.ts`). It otherwise repeats the user's message: a test double, never a real LLM.
 *
 * @example
 * const model = createOfflineChatModel();
 * for await (const delta of model.stream({ messages: [{ role: 'user', content: 'Hi' }], toolChoice: 'none', parallelToolCalls: true }, { signal })) {}
 */
export function createOfflineChatModel(options: OfflineModelOptions = {}): ChatModel {
  const delayMs = options.tokenDelayMs ?? 0;
  const pause: Pause = (signal) => (delayMs > 0 ? sleep(delayMs, undefined, { signal }) : new Promise<void>((resolve) => setImmediate(resolve)));

  return {
    id: OFFLINE_MODEL_ID,
    accepts: { images: false, video: false },
    refusal: offlineRefusal,
    async *stream(request: ChatModelRequest, { signal }: ChatStreamOptions): AsyncIterable<ChatDelta> {
      const calls = planToolCalls(request);
      // The answer is built (and a schema it cannot meet refused) before the first token.
      if (calls.length === 0) answerText(request);
      let produced = 0;
      for (let choice = 0; choice < (request.parameters?.n ?? 1); choice += 1) {
        produced += yield* choiceDeltas(request, choice, calls, signal, pause);
      }
      const prompt = promptTokens(request.messages);
      yield { type: 'usage', usage: { prompt_tokens: prompt, completion_tokens: produced, total_tokens: prompt + produced } };
    },
  };
}
