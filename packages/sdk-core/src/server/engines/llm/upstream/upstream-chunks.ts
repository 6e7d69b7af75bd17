import type { IncomingMessage } from 'node:http';
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import type { ChatCompletionChunk as UpstreamChunk } from 'openai/resources/chat/completions';

export type { UpstreamChunk };

/** The longest SSE line kept while waiting for its end; an upstream sending more without a newline is cut off. */
const MAX_EVENT_BYTES = 4 * 1024 * 1024;

/** An error the upstream reported inside its answer (an SSE error event, or `{"error": ...}` as data). */
export class UpstreamReportedError extends Error {
  override name = 'UpstreamReportedError';
}

/** The upstream's own error in a parsed answer (`{"error": "..."}` or `{"error": {"message": "..."}}`), if any. */
function reportedError(parsed: unknown): UpstreamReportedError | undefined {
  const error = (parsed as { error?: unknown } | null | undefined)?.error;
  if (error === undefined || error === null) return undefined;
  const message = (error as { message?: unknown }).message;
  return new UpstreamReportedError(typeof error === 'string' ? error : typeof message === 'string' ? message : JSON.stringify(error));
}

function parsedOrUndefined(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function chunkOf(event: EventSourceMessage): UpstreamChunk {
  if (event.event === 'error')
    throw reportedError(parsedOrUndefined(event.data)) ?? new UpstreamReportedError(event.data || 'the upstream sent an error event');
  let parsed: UpstreamChunk;
  try {
    parsed = JSON.parse(event.data) as UpstreamChunk;
  } catch {
    throw new UpstreamReportedError(`the upstream sent data that is not JSON: ${event.data.slice(0, 200)}`);
  }
  const reported = reportedError(parsed);
  if (reported) throw reported;
  return parsed;
}

/** Parsed chunks held before the reader pauses the upstream's socket (backpressure). */
const HIGH_WATER_CHUNKS = 64;

type Settled = { chunk: UpstreamChunk } | { error: unknown } | { done: true };

/**
 * The chunks of a streamed chat completion (`text/event-stream`), each as soon as its event is complete. Ends
 * at `[DONE]` (the body is still read to its end, so the connection goes back to the pool) or at the end of
 * the body; throws {@link UpstreamReportedError} for an error the upstream reports, and the socket's error
 * when the body is cut. Driven by the body's events, not its async iterator: a stream's chunks cost one
 * settled promise each, and the socket is paused while more than {@link HIGH_WATER_CHUNKS} wait unread.
 */
export function eventStreamChunks(body: IncomingMessage): AsyncIterableIterator<UpstreamChunk> {
  const queue: Settled[] = [];
  let waiting: { resolve: (result: IteratorResult<UpstreamChunk>) => void; reject: (error: unknown) => void } | undefined;
  let finished = false;
  let sawDone = false;

  const settle = (entry: Settled) => {
    if (finished) return;
    if ('done' in entry || 'error' in entry) finished = true;
    const consumer = waiting;
    if (!consumer) {
      queue.push(entry);
      if (queue.length > HIGH_WATER_CHUNKS && !body.isPaused()) body.pause();
      return;
    }
    waiting = undefined;
    deliver(entry, consumer.resolve, consumer.reject);
  };
  const deliver = (entry: Settled, resolve: (result: IteratorResult<UpstreamChunk>) => void, reject: (error: unknown) => void) => {
    if ('chunk' in entry) resolve({ value: entry.chunk, done: false });
    else if ('done' in entry) resolve({ value: undefined, done: true });
    else {
      detach();
      body.destroy();
      reject(entry.error);
    }
  };
  const parser = createParser({
    maxBufferSize: MAX_EVENT_BYTES,
    onEvent: (event) => {
      if (sawDone) return;
      if (event.data === '[DONE]') {
        sawDone = true;
        settle({ done: true });
        return;
      }
      try {
        settle({ chunk: chunkOf(event) });
      } catch (error) {
        settle({ error });
      }
    },
    // Unknown fields and bad `retry` values are ignored, as SSE clients do; an event past the size limit ends the stream.
    onError: (error) => {
      if (error.type === 'max-buffer-size-exceeded')
        settle({ error: new UpstreamReportedError(`the upstream sent an event larger than ${MAX_EVENT_BYTES} bytes`) });
    },
  });
  const onData = (text: string) => {
    if (sawDone || finished) return;
    try {
      parser.feed(text);
    } catch (error) {
      settle({ error });
    }
  };
  const onEnd = () => settle({ done: true });
  const onError = (error: Error) => settle({ error });
  // A body that closes without its end was cut short (a reset connection, an aborted request).
  const onClose = () => {
    if (!body.readableEnded) settle({ error: Object.assign(new Error('aborted'), { code: 'ECONNRESET' }) });
  };
  const detach = () => {
    body.off('data', onData);
    body.off('end', onEnd);
    body.off('error', onError);
    body.off('close', onClose);
  };
  body.setEncoding('utf8');
  body.on('data', onData);
  body.on('end', onEnd);
  body.on('error', onError);
  body.on('close', onClose);

  return {
    [Symbol.asyncIterator]() {
      return this;
    },
    next(): Promise<IteratorResult<UpstreamChunk>> {
      const entry = queue.shift();
      if (entry) {
        if (queue.length <= HIGH_WATER_CHUNKS / 2 && body.isPaused() && !sawDone) body.resume();
        return new Promise((resolve, reject) => deliver(entry, resolve, reject));
      }
      if (finished) return Promise.resolve({ value: undefined, done: true });
      return new Promise((resolve, reject) => (waiting = { resolve, reject }));
    },
    return(): Promise<IteratorResult<UpstreamChunk>> {
      // The caller stopped early: the rest of the answer is not wanted (the request is aborted by the caller).
      if (!finished) {
        finished = true;
        detach();
        body.destroy();
      }
      queue.length = 0;
      return Promise.resolve({ value: undefined, done: true });
    },
  };
}

/**
 * The chunks of an upstream that answered a streamed request with one whole `chat.completion` (JSON), as a
 * stream would have carried them: the message's text, refusal and tool calls, the finish reason, the usage.
 */
export async function* wholeCompletionChunks(body: IncomingMessage): AsyncGenerator<UpstreamChunk> {
  let text = '';
  body.setEncoding('utf8');
  for await (const piece of body) {
    text += piece as string;
    if (text.length > MAX_EVENT_BYTES) throw new UpstreamReportedError(`the upstream's answer is larger than ${MAX_EVENT_BYTES} bytes`);
  }
  let completion: {
    id?: string;
    created?: number;
    model?: string;
    error?: unknown;
    choices?: Array<{
      index?: number;
      finish_reason?: UpstreamChunk.Choice['finish_reason'];
      logprobs?: UpstreamChunk.Choice['logprobs'];
      message?: { content?: string | null; refusal?: string | null; tool_calls?: Array<{ id: string; function: { name: string; arguments: string } }> };
    }>;
    usage?: UpstreamChunk['usage'];
  };
  try {
    completion = JSON.parse(text) as typeof completion;
  } catch {
    throw new UpstreamReportedError(`the upstream's answer is not JSON: ${text.slice(0, 200)}`);
  }
  const reported = reportedError(completion);
  if (reported) throw reported;
  const base = { id: completion.id ?? 'chatcmpl', object: 'chat.completion.chunk' as const, created: completion.created ?? 0, model: completion.model ?? '' };
  const choices: NonNullable<typeof completion.choices> = completion.choices?.length ? completion.choices : [{}];
  yield { ...base, choices: choices.map((choice, position) => wholeChoiceChunk(choice, choice.index ?? position)) };
  if (completion.usage) yield { ...base, choices: [], usage: completion.usage };
}

/** One choice of a whole completion as the chunk that would have streamed it. */
function wholeChoiceChunk(
  choice: {
    finish_reason?: UpstreamChunk.Choice['finish_reason'];
    logprobs?: UpstreamChunk.Choice['logprobs'];
    message?: { content?: string | null; refusal?: string | null; tool_calls?: Array<{ id: string; function: { name: string; arguments: string } }> };
  },
  index: number,
): UpstreamChunk.Choice {
  const message = choice.message ?? {};
  return {
    index,
    delta: {
      role: 'assistant',
      ...(typeof message.content === 'string' ? { content: message.content } : {}),
      ...(typeof message.refusal === 'string' ? { refusal: message.refusal } : {}),
      ...(message.tool_calls?.length
        ? {
            tool_calls: message.tool_calls.map((call, callIndex) => ({
              index: callIndex,
              id: call.id,
              type: 'function' as const,
              function: { name: call.function.name, arguments: call.function.arguments },
            })),
          }
        : {}),
    },
    finish_reason: choice.finish_reason ?? 'stop',
    logprobs: choice.logprobs ?? null,
  };
}
