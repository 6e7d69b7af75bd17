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
  if (event.event === 'error') throw reportedError(parsedOrUndefined(event.data)) ?? new UpstreamReportedError(event.data || 'the upstream sent an error event');
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

/**
 * The chunks of a streamed chat completion (`text/event-stream`), each as soon as its event is complete. Ends
 * at `[DONE]` (the body is still read to its end, so the connection goes back to the pool) or at the end of
 * the body; throws {@link UpstreamReportedError} for an error the upstream reports, and the socket's error
 * when the body is cut.
 */
export async function* eventStreamChunks(body: IncomingMessage): AsyncGenerator<UpstreamChunk> {
  const pending: EventSourceMessage[] = [];
  const parser = createParser({ onEvent: (event) => pending.push(event), maxBufferSize: MAX_EVENT_BYTES });
  let done = false;
  body.setEncoding('utf8');
  for await (const text of body) {
    if (done) continue;
    parser.feed(text as string);
    while (pending.length > 0) {
      const event = pending.shift()!;
      if (event.data === '[DONE]') {
        done = true;
        pending.length = 0;
        break;
      }
      yield chunkOf(event);
    }
  }
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
    choices?: Array<{ index?: number; finish_reason?: UpstreamChunk.Choice['finish_reason']; message?: { content?: string | null; refusal?: string | null; tool_calls?: Array<{ id: string; function: { name: string; arguments: string } }> } }>;
    usage?: UpstreamChunk['usage'];
  };
  try {
    completion = JSON.parse(text) as typeof completion;
  } catch {
    throw new UpstreamReportedError(`the upstream's answer is not JSON: ${text.slice(0, 200)}`);
  }
  const reported = reportedError(completion);
  if (reported) throw reported;
  const choice = completion.choices?.[0];
  const message = choice?.message ?? {};
  const base = { id: completion.id ?? 'chatcmpl', object: 'chat.completion.chunk' as const, created: completion.created ?? 0, model: completion.model ?? '' };
  yield {
    ...base,
    choices: [
      {
        index: 0,
        delta: {
          role: 'assistant',
          ...(typeof message.content === 'string' ? { content: message.content } : {}),
          ...(typeof message.refusal === 'string' ? { refusal: message.refusal } : {}),
          ...(message.tool_calls?.length
            ? { tool_calls: message.tool_calls.map((call, index) => ({ index, id: call.id, type: 'function' as const, function: { name: call.function.name, arguments: call.function.arguments } })) }
            : {}),
        },
        finish_reason: choice?.finish_reason ?? 'stop',
        logprobs: null,
      },
    ],
  };
  if (completion.usage) yield { ...base, choices: [], usage: completion.usage };
}
