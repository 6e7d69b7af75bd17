import type { ChatStreamEvent } from '../../engines/llm/chat-gateway.js';
import { eventStreamResponse } from './event-stream.js';

const encoder = new TextEncoder();
const DONE = encoder.encode('data: [DONE]\n\n');

function encode(event: ChatStreamEvent): Uint8Array {
  return event.type === 'chunk'
    ? encoder.encode(`data: ${JSON.stringify(event.chunk)}\n\n`)
    : encoder.encode(`event: error\ndata: ${JSON.stringify(event.error)}\n\n`);
}

/** A completion's events as SSE frames, always ending with `data: [DONE]`. */
async function* frames(events: AsyncIterable<ChatStreamEvent>): AsyncGenerator<Uint8Array> {
  try {
    for await (const event of events) yield encode(event);
  } catch {
    // The gateway turns model failures into an error event; anything else still ends the stream cleanly.
    yield encode({ type: 'error', error: { error: { type: 'internal_error', code: null, message: 'the completion failed' } } });
  }
  yield DONE;
}

/**
 * A `text/event-stream` response over a completion's events: one `data:` line per chunk, written as soon
 * as the chunk exists (pull-based, nothing buffered ahead), always ending with `data: [DONE]`. When the
 * client goes away, `onCancel` fires so the upstream request is aborted.
 *
 * @example
 * return sseResponse(await gateway.stream(principal, body, { signal }), () => controller.abort());
 */
export function sseResponse(events: AsyncIterable<ChatStreamEvent>, onCancel: () => void, headers: Record<string, string> = {}): Response {
  return eventStreamResponse(frames(events), {
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
