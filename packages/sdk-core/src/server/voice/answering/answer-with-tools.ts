import type { ChatMessage, ChatMessageToolCall } from '../../../contract/chat.js';
import { AsyncQueue } from '../../kernel/async-queue.js';
import { streamAnswer, type AgentChat, type Answer, type AnswerRequest, type AnswerResult } from './answer-stream.js';

export type AssistantToolCallMessage = Extract<ChatMessage, { role: 'assistant' }> & { tool_calls: ChatMessageToolCall[] };
export type ToolResultMessage = Extract<ChatMessage, { role: 'tool' }>;

/** What a turn does with the model's tool calls. */
export interface ToolRoundHandler {
  /** The model asked for these calls (before they run). */
  requested(calls: ChatMessageToolCall[]): void;
  /** Runs the calls; resolves with one `tool` message per call, in order. Rejects only when `signal` aborts. */
  run(calls: ChatMessageToolCall[], signal: AbortSignal): Promise<ToolResultMessage[]>;
  /** A round is complete: the assistant's calls and their results (the model is asked again next). */
  completed(assistant: AssistantToolCallMessage, results: ToolResultMessage[]): void;
}

export interface ToolAnswerRequest extends AnswerRequest {
  handler: ToolRoundHandler;
  /** Rounds of tool calls allowed; the request after the last one says `tool_choice: none`. */
  maxToolRounds: number;
}

/**
 * An answer that may call tools: each round streams the model's text into one `pieces` queue (so the
 * speech of all rounds is one utterance); when a round ends with tool calls, they run, the assistant's
 * calls and the results are appended to the messages, and the model is asked again, at most
 * `maxToolRounds` times with tools (then with `tool_choice: none`). `done` resolves with all the text and
 * every tool call, or rejects with the first failure (or the abort).
 *
 * @example
 * const answer = answerWithTools(chat, { principal, model, messages, metadata, signal, tools, maxToolRounds: 4, handler });
 * for await (const piece of answer.pieces) speak(piece);
 */
export function answerWithTools(chat: AgentChat, request: ToolAnswerRequest): Answer {
  const pieces = new AsyncQueue<string>();
  const started = performance.now();
  let firstTokenMs: number | undefined;
  const tools = request.tools && request.tools.length > 0 ? request.tools : undefined;
  const done = (async (): Promise<AnswerResult> => {
    let messages = request.messages;
    let text = '';
    const toolCalls: ChatMessageToolCall[] = [];
    try {
      for (let round = 0; ; round += 1) {
        const mayCall = tools !== undefined && round < request.maxToolRounds;
        const answer = streamAnswer(chat, { ...request, messages, tools, toolChoice: tools ? (mayCall ? (request.toolChoice ?? 'auto') : 'none') : undefined });
        // Rounds are one utterance: a space keeps the words of two rounds apart.
        let separator = text !== '' && !/\s$/.test(text) ? ' ' : '';
        for await (const piece of answer.pieces) {
          firstTokenMs ??= performance.now() - started;
          pieces.push(separator + piece);
          separator = '';
        }
        const result = await answer.done;
        if (result.text !== '') text += (text !== '' && !/\s$/.test(text) ? ' ' : '') + result.text;
        const calls = mayCall ? result.toolCalls.filter((call) => call.id && call.function.name) : [];
        if (calls.length === 0) return { text, toolCalls };
        toolCalls.push(...calls);
        request.handler.requested(calls);
        const results = await request.handler.run(calls, request.signal);
        request.signal.throwIfAborted();
        const assistant: AssistantToolCallMessage = { role: 'assistant', content: result.text || null, tool_calls: calls };
        request.handler.completed(assistant, results);
        messages = [...messages, assistant, ...results];
      }
    } finally {
      pieces.end();
    }
  })();
  done.catch(() => undefined);
  return {
    pieces,
    done,
    get firstTokenMs() {
      return firstTokenMs;
    },
  };
}
