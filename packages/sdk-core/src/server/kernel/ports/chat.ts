import type { ChatCompletionChunk, ChatCompletionRequest, ChatCompletionResponse, ChatStreamError } from '../../../contract/chat.js';
import type { Principal } from '../principal.js';

/** Per-request options of a completion. */
export interface ChatRunOptions {
  /** Aborts the model call (the client went away, the human barged in). */
  signal: AbortSignal;
  /** Origin the `audio_url` of speech output starts with (e.g. `https://api.example.com`); relative when absent. */
  audioBaseUrl?: string | undefined;
}

/** One event of a streamed completion: a chunk, or the error that ends the stream early. */
export type ChatStreamEvent = { type: 'chunk'; chunk: ChatCompletionChunk } | { type: 'error'; error: ChatStreamError };

/**
 * Chat completions as a caller inside the platform sees them (the voice agent, the memory extractor, the app
 * graph runtime): metered and limited as `principal`, cancellable through the signal. The LLM gateway
 * (`engines/llm/chat-gateway.ts`) implements it.
 *
 * @example
 * for await (const event of await chat.stream(principal, { model, messages, stream: true }, { signal })) {
 *   if (event.type === 'chunk') write(event.chunk.choices[0]?.delta.content ?? '');
 * }
 */
export interface ChatPort {
  complete(principal: Principal, request: ChatCompletionRequest, options: ChatRunOptions): Promise<ChatCompletionResponse>;
  stream(principal: Principal, request: ChatCompletionRequest, options: ChatRunOptions): Promise<AsyncIterable<ChatStreamEvent>>;
}
