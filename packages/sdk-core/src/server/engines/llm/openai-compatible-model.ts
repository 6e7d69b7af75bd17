import { setTimeout as sleep } from 'node:timers/promises';
import { ApiError, BadRequestError } from '../../../errors/api-error.js';
import { allowSettingOf, OutboundRefusedError, type OutboundPolicy } from '../../kernel/outbound/index.js';
import type { ChatDelta, ChatModel, ChatModelRequest, ChatStreamOptions } from './chat-model.js';
import { ChatModelError } from './chat-model.js';
import { DEFAULT_RETRY_POLICY, retryAfterMs, retryDelayMs, type RetryPolicy } from './retry-policy.js';
import { toUpstreamBody } from './upstream/upstream-body.js';
import { eventStreamChunks, wholeCompletionChunks, type UpstreamChunk } from './upstream/upstream-chunks.js';
import { errorMessageOf, headersOf, postJson, type UpstreamResponse } from './upstream/upstream-request.js';

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
  /** Whether the upstream knows the `developer` role (OpenAI's API); otherwise those messages are sent as `system`. */
  developerRole?: boolean;
  /** Whether image and video parts are forwarded (default true: the upstream decides). */
  accepts?: { images: boolean; video: boolean };
  /**
   * Which destinations a project's LLM may reach (SSRF): the outbound guard judges the address each new
   * connection resolves to, and connects only to it. Absent for the operator's built-in LLMs.
   */
  addressPolicy?: OutboundPolicy;
  /** Observes retries (logs, tests). */
  onRetry?: (event: { attempt: number; delayMs: number; reason: string }) => void;
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

/** An upstream's refusal before any chunk: an HTTP status >= 400 with the message of its body. */
class UpstreamStatusError extends Error {
  override name = 'UpstreamStatusError';
  constructor(
    message: string,
    readonly status: number,
    readonly headers: Headers,
  ) {
    super(message);
  }
}

function classify(error: unknown, timedOut: boolean, timeoutMs: number, host: string): AttemptFailure {
  if (timedOut) return { retryable: true, message: `no answer within ${timeoutMs} ms`, cause: error };
  if (error instanceof UpstreamStatusError) {
    const status = error.status;
    const retryable = status === 408 || status === 409 || status === 429 || status >= 500;
    return { retryable, status, serverDelayMs: retryAfterMs(error.headers), message: error.message, cause: error };
  }
  // Everything else before the first chunk (refused or reset connections, a body cut short) may succeed on retry.
  const code = (error as { code?: unknown })?.code;
  if (typeof code === 'string' && code !== 'ABORT_ERR')
    return { retryable: true, message: `connection to ${host} failed (${rootCause(error as Error)})`, cause: error };
  return { retryable: true, message: (error as Error)?.message ?? String(error), cause: error };
}

/** The platform's refusal (400, not retried) of a project LLM's destination the outbound guard refused. */
function refusalOf(error: OutboundRefusedError): BadRequestError {
  const separator = error.reason === 'address' || error.reason === 'unresolved' ? ' ' : ': ';
  const setting = allowSettingOf(error, { loopback: 'PALAVER_LLM_ALLOW_LOOPBACK', private: 'PALAVER_LLM_ALLOW_PRIVATE' });
  return new BadRequestError(`model: the LLM's post_url${separator}${error.message}${setting}`, { cause: error });
}

function redact(message: string, secrets: readonly string[]): string {
  let result = message;
  for (const secret of secrets) if (secret.length >= 6) result = result.split(secret).join('[redacted]');
  return result;
}

/** The deltas of one upstream chunk, in the order the client must see them. */
export function deltasOf(chunk: UpstreamChunk): ChatDelta[] {
  const deltas: ChatDelta[] = [];
  for (const choice of chunk.choices ?? []) {
    const index = choice.index ?? 0;
    // Absent for choice 0, so a one-choice answer's deltas stay as they were.
    const at = index === 0 ? {} : { choice: index };
    const delta = choice.delta ?? {};
    const logprobs = choice.logprobs?.content ?? undefined;
    const refusalLogprobs = choice.logprobs?.refusal ?? undefined;
    if (typeof delta.content === 'string' || logprobs?.length) {
      deltas.push({ type: 'text', text: delta.content ?? '', ...at, ...(logprobs ? { logprobs } : {}) });
    }
    if (typeof delta.refusal === 'string')
      deltas.push({ type: 'refusal', text: delta.refusal, ...at, ...(refusalLogprobs ? { logprobs: refusalLogprobs } : {}) });
    for (const call of delta.tool_calls ?? []) {
      deltas.push({
        type: 'tool-call',
        ...at,
        index: call.index,
        id: call.id ?? undefined,
        name: call.function?.name ?? undefined,
        arguments: call.function?.arguments ?? undefined,
      });
    }
    if (choice.finish_reason) deltas.push({ type: 'finish', reason: choice.finish_reason, ...at });
  }
  if (chunk.usage) {
    const { prompt_tokens, completion_tokens, total_tokens } = chunk.usage;
    deltas.push({ type: 'usage', usage: { prompt_tokens, completion_tokens, total_tokens } });
  }
  return deltas;
}

/** Why an attempt's controller is aborted once its stream is over: one error for all (capturing a stack per stream costs). */
const STREAM_CLOSED = new Error('stream closed');

/**
 * An upstream OpenAI-compatible endpoint, reached with Node's HTTP client over kept-alive connections and read
 * as server-sent events (`eventsource-parser`). Chunks are passed on as they arrive. Failures before the first
 * chunk (timeouts, 408/409/429/5xx honouring `Retry-After`, refused or reset connections) are retried with
 * backoff, because nothing reached the caller yet; after the first chunk a failure or a stall ends the stream
 * with a {@link ChatModelError}. Aborting the signal aborts the upstream request. An upstream that answers a
 * streamed request with one JSON completion is read as the stream it stands for.
 *
 * @example
 * const model = createOpenAiCompatibleModel({ id: 'llm_1', url: 'https://api.openai.com/v1/chat/completions', model: 'gpt-4o-mini', headers: { authorization: `Bearer ${key}` } });
 */
export function createOpenAiCompatibleModel(options: OpenAiCompatibleModelOptions): ChatModel {
  const policy = { ...DEFAULT_RETRY_POLICY, ...options.retry };
  const firstChunkTimeoutMs = options.firstChunkTimeoutMs ?? 30_000;
  const idleTimeoutMs = options.idleTimeoutMs ?? 60_000;
  const url = new URL(options.url);
  const headers = options.headers ?? {};
  const secrets = Object.values(headers);
  const label = options.label ?? `LLM '${options.id}'`;

  /** One attempt: the request, its answer's status, and an iterator over its chunks. */
  async function open(body: string, signal: AbortSignal): Promise<AsyncIterator<UpstreamChunk>> {
    let response: UpstreamResponse;
    try {
      response = await postJson(url, headers, body, signal, options.addressPolicy);
    } catch (error) {
      throw error instanceof OutboundRefusedError ? refusalOf(error) : error;
    }
    if (response.status < 200 || response.status >= 300) {
      throw new UpstreamStatusError(await errorMessageOf(response), response.status, headersOf(response));
    }
    const type = response.headers['content-type'] ?? '';
    return type.includes('application/json') ? wholeCompletionChunks(response.body) : eventStreamChunks(response.body);
  }

  return {
    id: options.id,
    accepts: options.accepts ?? { images: true, video: true },
    async *stream(request: ChatModelRequest, { signal }: ChatStreamOptions): AsyncIterable<ChatDelta> {
      const body = JSON.stringify(toUpstreamBody(request, { model: options.model, developerRole: options.developerRole ?? false }));

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
            iterator = await open(body, attemptController.signal);
            first = await iterator.next();
            if (first.done && (timedOut || signal.aborted)) throw new Error('aborted before the first chunk');
            clearTimeout(timer);
            break;
          } catch (error) {
            clearTimeout(timer);
            if (signal.aborted) throw signal.reason;
            // The platform's own refusals (e.g. the SSRF check) are final.
            if (ApiError.isInstance(error) || error instanceof ChatModelError) throw error;
            const failure = classify(error, timedOut, firstChunkTimeoutMs, url.host);
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
        // One timer, restarted per chunk (cheaper than a new timer for every chunk of every stream).
        const armIdle = () => {
          if (idleTimer) idleTimer.refresh();
          else
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
          throw new ChatModelError(redact(`${label}: upstream LLM stream failed: ${(error as Error)?.message ?? String(error)}`, secrets), {
            kind: 'upstream',
            cause: error,
          });
        } finally {
          clearTimeout(idleTimer);
        }
        if (signal.aborted) throw signal.reason;
        if (stalled) throw new ChatModelError(`${label}: upstream LLM stalled: no data for ${idleTimeoutMs} ms`, { kind: 'upstream' });
      } finally {
        signal.removeEventListener('abort', abortAttempt);
        // Releases the upstream connection when the caller stops early (a client disconnect); a request that
        // already ended keeps its socket in the pool.
        attemptController!.abort(STREAM_CLOSED);
      }
    },
  };
}
