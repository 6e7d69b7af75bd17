import type { ResponseStreamEvent } from '../../../contract/responses-events.js';
import { EventStream } from './event-stream.js';

function encode(event: ResponseStreamEvent): string {
  return `event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`;
}

/** An `error` event: OpenAI's clients throw its `error` as an API error. */
function errorFrame(type: string, message: string): string {
  return `event: error\ndata: ${JSON.stringify({ type: 'error', code: type, message, error: { type, code: type, message } })}\n\n`;
}

/**
 * A `text/event-stream` answer over a response's typed events: `event: <type>` and `data: <event>` per event, written
 * as soon as each exists (the same writer as chat completions, decision 0064). As OpenAI's, the stream has no
 * `[DONE]`: it ends after the last lifecycle event. A failure of the platform, or its shutdown, ends it with an `error`
 * event. When the client goes away, `onCancel` aborts the model call.
 *
 * @example
 * return responseEventStream(await services.responses.stream(principal, body, { signal }), () => controller.abort());
 */
export function responseEventStream(
  events: AsyncIterable<ResponseStreamEvent>,
  onCancel: () => void,
  headers: Record<string, string> = {},
): EventStream<ResponseStreamEvent> {
  return new EventStream({
    events,
    encode,
    failure: () => errorFrame('internal_error', 'the response failed'),
    last: '',
    interrupted: errorFrame('server_shutdown', 'the server is shutting down; the response was cut short'),
    onCancel,
    headers: {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache',
      'x-accel-buffering': 'no',
      'transfer-encoding': 'chunked',
      ...headers,
    },
  });
}
