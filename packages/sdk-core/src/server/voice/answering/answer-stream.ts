import type { ChatCompletionRequest, ChatCompletionTool, ChatMessage, ChatMessageToolCall, ChatToolChoice } from '../../../contract/chat.js';
import type { ChatPort } from '../../kernel/ports/chat.js';
import type { Principal } from '../../kernel/principal.js';
import { AsyncQueue } from '../../kernel/async-queue.js';

/** The part of the LLM gateway the agent uses. */
export type AgentChat = Pick<ChatPort, 'stream'>;

/** The model's stream ended with an error after it had begun. */
export class AnswerStreamError extends Error {
  override name = 'AnswerStreamError';
}

export interface AnswerRequest {
  principal: Principal;
  model: string;
  messages: ChatMessage[];
  /** Stored with the usage record (e.g. the session id). */
  metadata: Record<string, unknown>;
  signal: AbortSignal;
  /** Functions the model may call (none when absent or empty). */
  tools?: ChatCompletionTool[] | undefined;
  /** Default `auto` with tools. */
  toolChoice?: ChatToolChoice | undefined;
  /** The answer's token limit (`max_completion_tokens`); none when absent. */
  maxTokens?: number | undefined;
  /** Asks for the stream's usage chunk (`stream_options.include_usage`): `AnswerResult.usage`. */
  includeUsage?: boolean | undefined;
}

/** The tokens an answer took, as the model reported them. */
export interface AnswerUsage {
  promptTokens: number;
  completionTokens: number;
}

/** How a streamed answer ended: its text and the tool calls the model asked for (assembled by index). */
export interface AnswerResult {
  text: string;
  toolCalls: ChatMessageToolCall[];
  /** Why the model stopped (`stop`, `length`, `tool_calls`...), when it said. */
  finishReason?: string | undefined;
  /** With `includeUsage`: the tokens of the answer. */
  usage?: AnswerUsage | undefined;
}

/** A streamed answer: its text pieces as they come, and how it ended. */
export interface Answer {
  /** Text pieces; ends when the answer ends, fails or is aborted. */
  pieces: AsyncIterable<string>;
  /** Resolves with the whole text (and any tool calls) when the stream ends; rejects with what failed it. */
  done: Promise<AnswerResult>;
  /** Request -> first text piece, ms (once known). */
  readonly firstTokenMs: number | undefined;
}

/** The gateway request of an answer: streamed, with the tools (if any), the token limit and the usage chunk asked for. */
function chatRequest(request: AnswerRequest): ChatCompletionRequest {
  const tools = request.tools && request.tools.length > 0 ? request.tools : undefined;
  return {
    model: request.model,
    messages: request.messages,
    stream: true,
    parallel_tool_calls: true,
    metadata: request.metadata,
    ...(tools ? { tools, tool_choice: request.toolChoice ?? 'auto' } : {}),
    ...(request.maxTokens !== undefined ? { max_completion_tokens: request.maxTokens } : {}),
    ...(request.includeUsage ? { stream_options: { include_usage: true } } : {}),
  };
}

/**
 * Asks the LLM gateway for an answer and pumps its text into a queue, so the model's stream is read at
 * the model's pace whatever the speech does with it. Errors before the first token (unknown model,
 * `UsageLimitExceededError`) reject `done`; a stream that fails later rejects `done` with
 * {@link AnswerStreamError} after ending `pieces` with the text received so far.
 *
 * @example
 * const answer = streamAnswer(chat, { principal, model: 'builtin-offline', messages, metadata: {}, signal });
 * for await (const piece of answer.pieces) speak(piece);
 * const { text, toolCalls } = await answer.done;
 */
export function streamAnswer(chat: AgentChat, request: AnswerRequest): Answer {
  const pieces = new AsyncQueue<string>();
  const started = performance.now();
  let firstTokenMs: number | undefined;
  const done = (async (): Promise<AnswerResult> => {
    let text = '';
    const calls = new Map<number, { id: string; name: string; arguments: string }>();
    let finishReason: string | undefined;
    let usage: AnswerUsage | undefined;
    try {
      const events = await chat.stream(request.principal, chatRequest(request), { signal: request.signal });
      for await (const event of events) {
        if (event.type === 'error') throw new AnswerStreamError(event.error.error.message);
        if (event.chunk.usage) usage = { promptTokens: event.chunk.usage.prompt_tokens, completionTokens: event.chunk.usage.completion_tokens };
        finishReason = event.chunk.choices[0]?.finish_reason ?? finishReason;
        const delta = event.chunk.choices[0]?.delta;
        for (const call of delta?.tool_calls ?? []) {
          const assembled = calls.get(call.index) ?? { id: '', name: '', arguments: '' };
          if (call.id) assembled.id = call.id;
          if (call.function?.name) assembled.name += call.function.name;
          if (call.function?.arguments) assembled.arguments += call.function.arguments;
          calls.set(call.index, assembled);
        }
        const piece = (delta?.content ?? '') + (delta?.refusal ?? '');
        if (!piece) continue;
        firstTokenMs ??= performance.now() - started;
        text += piece;
        pieces.push(piece);
      }
      const toolCalls = [...calls.entries()]
        .sort(([left], [right]) => left - right)
        .map(([, call]): ChatMessageToolCall => ({ id: call.id, type: 'function', function: { name: call.name, arguments: call.arguments } }));
      return { text, toolCalls, finishReason, usage };
    } finally {
      pieces.end();
    }
  })();
  // Callers may only read `pieces`; the failure is theirs to read from `done`.
  done.catch(() => undefined);
  return {
    pieces,
    done,
    get firstTokenMs() {
      return firstTokenMs;
    },
  };
}
