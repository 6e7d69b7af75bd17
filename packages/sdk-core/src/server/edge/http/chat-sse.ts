import type { ChatStreamEvent } from '../../engines/llm/index.js';
import { EventStream } from './event-stream.js';

const DONE = 'data: [DONE]\n\n';

function encode(event: ChatStreamEvent): string {
  return event.type === 'chunk' ? `data: ${JSON.stringify(event.chunk)}\n\n` : `event: error\ndata: ${JSON.stringify(event.error)}\n\n`;
}

/** The gateway turns model failures into an error event; anything else still ends the stream cleanly. */
function failure(): string {
  return encode({ type: 'error', error: { error: { type: 'internal_error', code: null, message: 'the completion failed' } } });
}

/** What a stream still running when the server shuts down ends with (before `[DONE]`). */
const INTERRUPTED = encode({
  type: 'error',
  error: { error: { type: 'server_shutdown', code: 'server_shutdown', message: 'the server is shutting down; the completion was cut short' } },
});

/**
 * A `text/event-stream` answer over a completion's events: one `data:` line per chunk, written as soon
 * as the chunk exists (pull-based, nothing buffered ahead), always ending with `data: [DONE]`. When the
 * client goes away, `onCancel` fires so the upstream request is aborted. A stream the server's shutdown cuts short ends
 * with an `error` event of type `server_shutdown`, then `[DONE]`.
 *
 * @example
 * return chatEventStream(await gateway.stream(principal, body, { signal }), () => controller.abort());
 */
export function chatEventStream(
  events: AsyncIterable<ChatStreamEvent>,
  onCancel: () => void,
  headers: Record<string, string> = {},
): EventStream<ChatStreamEvent> {
  return new EventStream({
    events,
    encode,
    failure,
    last: DONE,
    interrupted: INTERRUPTED,
    onCancel,
    headers: {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache',
      'x-accel-buffering': 'no',
      // Declared so @hono/node-server writes the head at once instead of reading ahead to size the body
      // (when the stream is not written straight to Node, see event-stream.ts).
      'transfer-encoding': 'chunked',
      ...headers,
    },
  });
}
