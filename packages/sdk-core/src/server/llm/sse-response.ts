import type { ChatStreamEvent } from './chat-gateway.js';

const encoder = new TextEncoder();
const DONE = encoder.encode('data: [DONE]\n\n');

function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

function encode(event: ChatStreamEvent): Uint8Array {
  return event.type === 'chunk'
    ? encoder.encode(`data: ${JSON.stringify(event.chunk)}\n\n`)
    : encoder.encode(`event: error\ndata: ${JSON.stringify(event.error)}\n\n`);
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
  const iterator = events[Symbol.asyncIterator]();
  let pulls = 0;
  const body = new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        try {
          // The head and the first chunk leave before the rest is pulled: when the model's deltas are already
          // buffered, pulling on would run the whole answer in one turn of microtasks, and Node writes the
          // corked response only after that turn.
          pulls += 1;
          if (pulls === 2) await yieldToEventLoop();
          const next = await iterator.next();
          if (next.done) {
            controller.enqueue(DONE);
            controller.close();
            return;
          }
          controller.enqueue(encode(next.value));
        } catch {
          // The gateway turns model failures into an error event; anything else still ends the stream cleanly.
          controller.enqueue(encode({ type: 'error', error: { error: { type: 'internal_error', code: null, message: 'the completion failed' } } }));
          controller.enqueue(DONE);
          controller.close();
        }
      },
      async cancel() {
        onCancel();
        await iterator.return?.();
      },
    },
    { highWaterMark: 0 },
  );
  return new Response(body, {
    status: 200,
    headers: {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache',
      'x-accel-buffering': 'no',
      // Declared so @hono/node-server writes the head at once instead of first reading ahead to size the
      // body (which waits a timer turn when the second chunk is not there yet).
      'transfer-encoding': 'chunked',
      ...headers,
    },
  });
}
