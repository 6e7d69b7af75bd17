import { setTimeout as sleep } from 'node:timers/promises';
import type OpenAI from 'openai';
import type { ChatCompletionChunk as UpstreamChunk, ChatCompletionCreateParamsStreaming } from 'openai/resources/chat/completions';
import { ApiError } from '../../../errors/api-error.js';
import type { ChatDelta, ChatModel, ChatModelRequest, ChatStreamOptions } from './chat-model.js';
import { ChatModelError } from './chat-model.js';
import { DEFAULT_RETRY_POLICY, retryAfterMs, retryDelayMs, type RetryPolicy } from './retry-policy.js';

type OpenAiModule = typeof import('openai');
let openAiModule: Promise<OpenAiModule> | undefined;
/** Loaded on first use: servers that only use the offline model never load the `openai` package. */
function loadOpenAi(): Promise<OpenAiModule> {
  openAiModule ??= import('openai');
  return openAiModule;
}

export interface OpenAiCompatibleModelOptions {
  /** The platform's LLM id (logs, metrics). */
  id: string;
  /** How errors name the LLM to the caller, e.g. `LLM 'support-bot' (llm_01...)`; default `LLM '<id>'`. */
  label?: string;
  /** Full URL of the upstream chat-completions endpoint; requests go exactly there. */
  url: string;
  /** Upstream model name. */
  model: string;
  /** Headers sent upstream (secrets already resolved), e.g. `Authorization`. */
  headers?: Record<string, string>;
  retry?: Partial<RetryPolicy>;
  /** Longest wait for the response headers and the first chunk of one attempt (default 30 s). */
  firstChunkTimeoutMs?: number;
  /** Longest silence between chunks once streaming (default 60 s); then the stream fails. */
  idleTimeoutMs?: number;
  /** Whether image and video parts are forwarded (default true: the upstream decides). */
  accepts?: { images: boolean; video: boolean };
  /** Called before every attempt, e.g. the SSRF check of the resolved address. */
  beforeAttempt?: (url: URL) => Promise<void>;
  /** Observes retries (logs, tests). */
  onRetry?: (event: { attempt: number; delayMs: number; reason: string }) => void;
  fetch?: typeof globalThis.fetch;
}

/** Why an attempt ended before its first chunk. */
interface AttemptFailure {
  retryable: boolean;
  status?: number | undefined;
  serverDelayMs?: number | undefined;
  message: string;
  cause: unknown;
}

/** The innermost cause of a connection failure, e.g. `ECONNREFUSED 127.0.0.1:9`, `ENOTFOUND example.invalid`. */
function rootCause(error: Error): string {
  let current: unknown = error;
  while (current instanceof Error && current.cause instanceof Error) current = current.cause;
  const root = current as Error & { code?: string };
  return root.code && !root.message.includes(root.code) ? `${root.code}: ${root.message}` : root.message;
}

function classify(error: unknown, module: OpenAiModule, timedOut: boolean, timeoutMs: number, host: string): AttemptFailure {
  if (timedOut) return { retryable: true, message: `no answer within ${timeoutMs} ms`, cause: error };
  if (error instanceof module.APIConnectionError) return { retryable: true, message: `connection to ${host} failed (${rootCause(error)})`, cause: error };
  if (error instanceof module.APIError && typeof error.status === 'number') {
    const status = error.status;
    const retryable = status === 408 || status === 409 || status === 429 || status >= 500;
    return { retryable, status, serverDelayMs: retryAfterMs(error.headers), message: error.message, cause: error };
  }
  // A body cut before the first chunk (a reset) surfaces as a plain error from the stream reader.
  return { retryable: !(error instanceof module.APIError), message: (error as Error)?.message ?? String(error), cause: error };
}

function redact(message: string, secrets: readonly string[]): string {
  let result = message;
  for (const secret of secrets) if (secret.length >= 6) result = result.split(secret).join('[redacted]');
  return result;
}

function toUpstreamBody(model: string, request: ChatModelRequest): ChatCompletionCreateParamsStreaming {
  const hasTools = (request.tools?.length ?? 0) > 0;
  return {
    model,
    // `tool_call_name` is the platform's extension; upstreams may reject unknown message fields.
    messages: request.messages.map((message) => {
      if (message.role !== 'tool') return message;
      const { tool_call_name: _name, ...rest } = message;
      return rest;
    }) as ChatCompletionCreateParamsStreaming['messages'],
    stream: true,
    // Always asked for, so tokens are metered even when the caller did not ask for usage.
    stream_options: { include_usage: true },
    ...(request.maxTokens !== undefined ? { max_tokens: request.maxTokens } : {}),
    ...(request.temperature !== undefined ? { temperature: request.temperature } : {}),
    ...(hasTools
      ? {
          tools: request.tools!.map((tool) => ({
            type: 'function' as const,
            function: {
              name: tool.function.name,
              ...(tool.function.description !== undefined ? { description: tool.function.description } : {}),
              ...(tool.function.parameters !== undefined ? { parameters: tool.function.parameters } : {}),
              ...(tool.function.strict ? { strict: true } : {}),
            },
          })),
          tool_choice: request.toolChoice,
          parallel_tool_calls: request.parallelToolCalls,
        }
      : {}),
  };
}

/** The deltas of one upstream chunk, in the order the client must see them. */
export function deltasOf(chunk: UpstreamChunk): ChatDelta[] {
  const deltas: ChatDelta[] = [];
  const choice = chunk.choices?.find((candidate) => candidate.index === 0) ?? chunk.choices?.[0];
  if (choice) {
    const delta = choice.delta ?? {};
    if (typeof delta.content === 'string') deltas.push({ type: 'text', text: delta.content });
    if (typeof delta.refusal === 'string') deltas.push({ type: 'refusal', text: delta.refusal });
    for (const call of delta.tool_calls ?? []) {
      deltas.push({ type: 'tool-call', index: call.index, id: call.id ?? undefined, name: call.function?.name ?? undefined, arguments: call.function?.arguments ?? undefined });
    }
    if (choice.finish_reason) deltas.push({ type: 'finish', reason: choice.finish_reason });
  }
  if (chunk.usage) {
    const { prompt_tokens, completion_tokens, total_tokens } = chunk.usage;
    deltas.push({ type: 'usage', usage: { prompt_tokens, completion_tokens, total_tokens } });
  }
  return deltas;
}

/**
 * An upstream OpenAI-compatible endpoint reached through the `openai` package. Chunks are passed on as
 * they arrive. Failures before the first chunk (timeouts, 408/409/429/5xx honouring `Retry-After`,
 * connection resets) are retried with backoff, because nothing reached the caller yet; after the first
 * chunk a failure or a stall ends the stream with a {@link ChatModelError}. Aborting the signal aborts
 * the upstream request.
 *
 * @example
 * const model = createOpenAiCompatibleModel({ id: 'llm_1', url: 'https://api.openai.com/v1/chat/completions', model: 'gpt-4o-mini', headers: { authorization: `Bearer ${key}` } });
 */
export function createOpenAiCompatibleModel(options: OpenAiCompatibleModelOptions): ChatModel {
  const policy = { ...DEFAULT_RETRY_POLICY, ...options.retry };
  const firstChunkTimeoutMs = options.firstChunkTimeoutMs ?? 30_000;
  const idleTimeoutMs = options.idleTimeoutMs ?? 60_000;
  const url = new URL(options.url);
  const secrets = Object.values(options.headers ?? {});
  const label = options.label ?? `LLM '${options.id}'`;
  const baseFetch = options.fetch ?? globalThis.fetch;
  let client: OpenAI | undefined;

  async function clientOf(module: OpenAiModule): Promise<OpenAI> {
    client ??= new module.OpenAI({
      // Explicit values so the server's own OPENAI_* environment never leaks into a project's upstream.
      apiKey: 'unused',
      organization: null,
      project: null,
      baseURL: url.origin,
      maxRetries: 0,
      timeout: firstChunkTimeoutMs,
      // The LLM's post_url is the full endpoint; the package would append `/chat/completions` to a base.
      fetch: (_input, init) => baseFetch(url, init),
      defaultHeaders: { authorization: null, ...options.headers },
      // This client only ever runs in the server; the package's browser guard misfires where a DOM is
      // emulated in the same process (component tests, happy-dom).
      dangerouslyAllowBrowser: true,
    });
    return client;
  }

  return {
    id: options.id,
    accepts: options.accepts ?? { images: true, video: true },
    async *stream(request: ChatModelRequest, { signal }: ChatStreamOptions): AsyncIterable<ChatDelta> {
      const module = await loadOpenAi();
      const openai = await clientOf(module);
      const body = toUpstreamBody(options.model, request);

      let attempt = 0;
      let attemptController: AbortController;
      let iterator: AsyncIterator<UpstreamChunk>;
      let first: IteratorResult<UpstreamChunk>;
      const abortAttempt = () => attemptController.abort(signal.reason);
      signal.addEventListener('abort', abortAttempt);
      try {
        for (;;) {
          attempt += 1;
          attemptController = new AbortController();
          if (signal.aborted) throw signal.reason;
          let timedOut = false;
          const timer = setTimeout(() => {
            timedOut = true;
            attemptController.abort(new Error('first chunk timeout'));
          }, firstChunkTimeoutMs);
          try {
            await options.beforeAttempt?.(url);
            const stream = await openai.chat.completions.create(body, { signal: attemptController.signal });
            iterator = stream[Symbol.asyncIterator]();
            first = await iterator.next();
            if (first.done && (timedOut || signal.aborted)) throw new Error('aborted before the first chunk');
            clearTimeout(timer);
            break;
          } catch (error) {
            clearTimeout(timer);
            if (signal.aborted) throw signal.reason;
            // The platform's own refusals (e.g. the SSRF check) are final.
            if (ApiError.isInstance(error) || error instanceof ChatModelError) throw error;
            const failure = classify(error, module, timedOut, firstChunkTimeoutMs, url.host);
            const delayMs = failure.retryable ? retryDelayMs(policy, attempt, failure.serverDelayMs) : undefined;
            if (delayMs === undefined) {
              const message = redact(`${label}: upstream LLM failed after ${attempt} attempt${attempt === 1 ? '' : 's'}: ${failure.message}`, secrets);
              const clientFault = failure.status !== undefined && failure.status >= 400 && failure.status < 500 && !failure.retryable;
              throw new ChatModelError(message, { status: failure.status, kind: clientFault ? 'client' : 'upstream', cause: failure.cause });
            }
            options.onRetry?.({ attempt, delayMs, reason: failure.message });
            await sleep(delayMs, undefined, { signal });
          }
        }

        // Streaming: no retries from here on; a stall or an error ends the stream.
        let stalled = false;
        let idleTimer: NodeJS.Timeout | undefined;
        const armIdle = () => {
          clearTimeout(idleTimer);
          idleTimer = setTimeout(() => {
            stalled = true;
            attemptController.abort(new Error('upstream stalled'));
          }, idleTimeoutMs);
        };
        try {
          let result = first;
          while (!result.done) {
            for (const delta of deltasOf(result.value)) yield delta;
            armIdle();
            result = await iterator.next();
          }
        } catch (error) {
          if (signal.aborted) throw signal.reason;
          if (stalled) throw new ChatModelError(`${label}: upstream LLM stalled: no data for ${idleTimeoutMs} ms`, { kind: 'upstream', cause: error });
          throw new ChatModelError(redact(`${label}: upstream LLM stream failed: ${(error as Error)?.message ?? String(error)}`, secrets), { kind: 'upstream', cause: error });
        } finally {
          clearTimeout(idleTimer);
        }
        // The package ends the iteration quietly when its request is aborted.
        if (signal.aborted) throw signal.reason;
        if (stalled) throw new ChatModelError(`${label}: upstream LLM stalled: no data for ${idleTimeoutMs} ms`, { kind: 'upstream' });
      } finally {
        signal.removeEventListener('abort', abortAttempt);
        // Releases the upstream connection when the caller stops early (a client disconnect).
        attemptController!.abort(new Error('stream closed'));
      }
    },
  };
}
