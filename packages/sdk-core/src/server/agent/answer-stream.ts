import type { ChatMessage } from '../../contract/chat.js';
import type { ChatGateway } from '../llm/chat-gateway.js';
import type { Principal } from '../services/auth/principal.js';
import { AsyncQueue } from '../speech/async-queue.js';

/** The part of the LLM gateway the agent uses. */
export type AgentChat = Pick<ChatGateway, 'stream'>;

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
}

/** A streamed answer: its text pieces as they come, and how it ended. */
export interface Answer {
  /** Text pieces; ends when the answer ends, fails or is aborted. */
  pieces: AsyncIterable<string>;
  /** Resolves with the whole text when the stream ends; rejects with what failed it. */
  done: Promise<string>;
  /** Request -> first text piece, ms (once known). */
  readonly firstTokenMs: number | undefined;
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
 * const text = await answer.done;
 */
export function streamAnswer(chat: AgentChat, request: AnswerRequest): Answer {
  const pieces = new AsyncQueue<string>();
  const started = performance.now();
  let firstTokenMs: number | undefined;
  const done = (async () => {
    let text = '';
    try {
      const events = await chat.stream(
        request.principal,
        { model: request.model, messages: request.messages, stream: true, parallel_tool_calls: true, metadata: request.metadata },
        { signal: request.signal },
      );
      for await (const event of events) {
        if (event.type === 'error') throw new AnswerStreamError(event.error.error.message);
        const delta = event.chunk.choices[0]?.delta;
        const piece = (delta?.content ?? '') + (delta?.refusal ?? '');
        if (!piece) continue;
        firstTokenMs ??= performance.now() - started;
        text += piece;
        pieces.push(piece);
      }
      return text;
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
