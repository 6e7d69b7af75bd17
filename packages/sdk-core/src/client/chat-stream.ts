import { fetchEventSource, type EventSourceMessage } from '@microsoft/fetch-event-source';
import type { ChatCompletionChunk, ChatCompletionRequestInput, ChatStreamError } from '../contract/chat.js';
import { ApiError, InternalServerError, ModerationError, UpstreamError, apiErrorFrom } from '../errors/api-error.js';
import { AbortError, ConnectionError } from '../errors/transport-errors.js';

export interface ChatStreamOptions {
  /** Base URL of the platform, e.g. `https://palaver.example.com`. */
  baseUrl: string;
  /** A usage token minted for one human (the browser credential). */
  usageToken?: string;
  /** A server-side API key (sent as `x-api-key`); never ship it to a browser. */
  apiKey?: string;
  humanId?: string;
  /** The completion request; `stream` is forced to true. */
  request: Omit<ChatCompletionRequestInput, 'stream'>;
  signal?: AbortSignal;
  fetch?: typeof globalThis.fetch;
}

class ChunkQueue {
  private readonly items: ChatCompletionChunk[] = [];
  private waiting: (() => void) | undefined;
  ended = false;
  failure: Error | undefined;

  push(item: ChatCompletionChunk): void {
    this.items.push(item);
    this.wake();
  }

  end(failure?: Error): void {
    if (this.ended) return;
    this.ended = true;
    this.failure = failure;
    this.wake();
  }

  private wake(): void {
    const waiting = this.waiting;
    this.waiting = undefined;
    waiting?.();
  }

  async *drain(): AsyncGenerator<ChatCompletionChunk> {
    for (;;) {
      const item = this.items.shift();
      if (item) {
        yield item;
        continue;
      }
      if (this.ended) {
        if (this.failure !== undefined) throw this.failure;
        return;
      }
      await new Promise<void>((resolve) => {
        this.waiting = resolve;
      });
    }
  }
}

/**
 * Streams a chat completion over server-sent events with `@microsoft/fetch-event-source`, for browsers
 * that do not want the `openai` package. Yields each chunk as it arrives; an error event or an error
 * answer rejects with the SDK's error family; breaking out of the loop aborts the request.
 *
 * @example
 * for await (const chunk of streamChatCompletion({ baseUrl, usageToken, request: { model: 'builtin-offline', messages } })) {
 *   output.textContent += chunk.choices[0]?.delta.content ?? '';
 * }
 */
export async function* streamChatCompletion(options: ChatStreamOptions): AsyncGenerator<ChatCompletionChunk> {
  // fetch-event-source touches `document` and `window` when it stops, which would crash a Node process.
  if (typeof document === 'undefined' || typeof window === 'undefined') {
    throw new TypeError('streamChatCompletion runs in browsers; in Node use createOpenAiClient from @palaver/sdk-core/openai');
  }
  let sawDone = false;
  const controller = new AbortController();
  const onAbort = () => controller.abort(options.signal?.reason);
  options.signal?.addEventListener('abort', onAbort, { once: true });
  const queue = new ChunkQueue();
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (options.usageToken) headers.authorization = `Bearer ${options.usageToken}`;
  else if (options.apiKey) headers['x-api-key'] = options.apiKey;
  if (options.humanId) headers['x-human-id'] = options.humanId;

  const finished = fetchEventSource(`${options.baseUrl.replace(/\/+$/, '')}/v1/chat/completions`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ ...options.request, stream: true }),
    signal: controller.signal,
    openWhenHidden: true,
    ...(options.fetch ? { fetch: options.fetch } : {}),
    async onopen(response) {
      if (response.ok && (response.headers.get('content-type') ?? '').startsWith('text/event-stream')) return;
      let type = 'unknown';
      let message = `HTTP ${response.status}`;
      try {
        const body = (await response.json()) as { type?: string; message?: string };
        type = body.type ?? type;
        message = body.message ?? message;
      } catch {
        // not a JSON error body
      }
      throw apiErrorFrom({ status: response.status, type, message, requestId: response.headers.get('x-request-id') ?? undefined });
    },
    onmessage(message: EventSourceMessage) {
      if (message.data === '[DONE]') {
        sawDone = true;
        queue.end();
        return;
      }
      if (message.event === 'error') {
        const { error } = JSON.parse(message.data) as ChatStreamError;
        // A refusal of the answer itself (moderation) is the caller's 400 family; other stream errors are the server's.
        if (error.type === 'moderation_error') throw new ModerationError(error.message, { type: error.type });
        throw error.type === 'upstream_error'
          ? new UpstreamError(error.message, { type: error.type })
          : new InternalServerError(error.message, { type: error.type });
      }
      queue.push(JSON.parse(message.data) as ChatCompletionChunk);
    },
    onclose() {
      // Every stream of the platform ends with [DONE]; a close before it means the stream was cut.
      queue.end(sawDone ? undefined : new ConnectionError('closed', 'The chat stream ended before [DONE]: the connection was cut'));
    },
    onerror(error: unknown) {
      // No automatic reconnection: a completion cannot resume, so the first failure is final.
      throw error;
    },
  });
  finished.then(
    () => queue.end(controller.signal.aborted && !queue.ended ? new AbortError('The chat stream was aborted') : undefined),
    (error: unknown) =>
      queue.end(
        ApiError.isInstance(error)
          ? error
          : new ConnectionError('network', `Chat stream failed: ${(error as Error)?.message ?? String(error)}`, { cause: error }),
      ),
  );
  try {
    yield* queue.drain();
  } finally {
    options.signal?.removeEventListener('abort', onAbort);
    controller.abort();
  }
}
