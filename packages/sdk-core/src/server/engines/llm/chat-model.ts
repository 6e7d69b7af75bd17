import type { ChatParameters, ChatTokenLogprob } from '../../../contract/chat-parameters.js';
import type { ChatCompletionTool, ChatCompletionUsage, ChatMessage, ChatToolChoice, FinishReason } from '../../../contract/chat.js';

/** The token-limit fields a caller can use (OpenAI's older `max_tokens`, its newer `max_completion_tokens`). */
export type TokenLimitField = 'max_tokens' | 'max_completion_tokens';

/** What a provider is asked to complete: the contract's request after model resolution and audio transcription. */
export interface ChatModelRequest {
  messages: readonly ChatMessage[];
  /** The effective limit per choice (the caller's, or less when the human's token budget is nearly used up). */
  maxTokens?: number | undefined;
  /** Which fields carry `maxTokens` upstream: the ones the caller used (`max_tokens` when it used neither). */
  limitFields?: readonly TokenLimitField[] | undefined;
  temperature?: number | null | undefined;
  /** OpenAI's answer-shaping fields as the caller gave them (`contract/chat-parameters.ts`); limits aside. */
  parameters?: Omit<ChatParameters, 'max_completion_tokens'> | undefined;
  /** Metadata to pass on with `store: true` (the caller's, without the platform's own `moderation` key). */
  metadata?: Record<string, unknown> | undefined;
  tools?: readonly ChatCompletionTool[] | undefined;
  /** The effective choice (defaults already applied: `none` without tools, `auto` with tools). */
  toolChoice: ChatToolChoice;
  parallelToolCalls: boolean;
}

/**
 * One increment of a model's answer. Providers yield them as soon as they have them (no buffering), in
 * the order the client must see them; a tool call arrives as several `tool-call` deltas sharing an `index`.
 */
export type ChatDelta =
  | { type: 'text'; text: string; choice?: number | undefined; logprobs?: ChatTokenLogprob[] | undefined }
  | { type: 'refusal'; text: string; choice?: number | undefined; logprobs?: ChatTokenLogprob[] | undefined }
  | {
      type: 'tool-call';
      /** The choice (`n` > 1) it belongs to; absent means 0. */
      choice?: number | undefined;
      index: number;
      /** Present on the first delta of a call. */
      id?: string | undefined;
      /** Present on the first delta of a call. */
      name?: string | undefined;
      /** A fragment of the JSON arguments. */
      arguments?: string | undefined;
    }
  | { type: 'finish'; reason: FinishReason; choice?: number | undefined }
  | { type: 'usage'; usage: ChatCompletionUsage };

export interface ChatStreamOptions {
  /** Aborting it stops the model and releases the upstream connection. */
  signal: AbortSignal;
}

/**
 * A chat model: the gateway's provider interface, also what the realtime agent composes.
 *
 * @example
 * for await (const delta of model.stream(request, { signal })) {
 *   if (delta.type === 'text') process.stdout.write(delta.text);
 * }
 */
export interface ChatModel {
  /** Stable id for logs and metrics (the LLM id it serves). */
  readonly id: string;
  /** What the model accepts; the gateway refuses other parts before calling it. */
  readonly accepts: { images: boolean; video: boolean };
  /**
   * The first field of the request this model cannot honour, with why (`{ field: 'reasoning_effort', reason: ... }`);
   * the gateway refuses such a request with 400 naming the field. Absent: the model takes every field (an upstream
   * judges them itself).
   */
  refusal?(request: ChatModelRequest): { field: string; reason: string } | undefined;
  /**
   * Streams the answer. Errors before the first delta may be retried by the provider (nothing reached the
   * caller yet); errors after it end the iteration with a thrown {@link ChatModelError}.
   */
  stream(request: ChatModelRequest, options: ChatStreamOptions): AsyncIterable<ChatDelta>;
}

/** Why a model failed; `retryable` tells whether trying again could succeed. */
export class ChatModelError extends Error {
  override name = 'ChatModelError';
  constructor(
    message: string,
    readonly details: {
      /** Upstream HTTP status when there was one. */
      status?: number | undefined;
      /** `client`: the request itself is wrong (400 to the caller); `upstream`: the upstream failed. */
      kind: 'client' | 'upstream';
      cause?: unknown;
    },
  ) {
    super(message, { cause: details.cause });
  }
}
