import type { ServerResponse } from 'node:http';

/** A `text/event-stream` body: its encoded frames, and what to do when the client goes away. */
interface EventStreamSource {
  frames: AsyncIterator<Uint8Array>;
  onCancel: () => void;
}

const EVENT_STREAM = Symbol('palaver.eventStream');
type TaggedResponse = Response & { [EVENT_STREAM]?: EventStreamSource };

function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/**
 * A streamed response over encoded frames, pulled one at a time (nothing is read ahead of the client).
 * Served through `fetch`, it is an ordinary Response; under Node, {@link writeEventStream} writes the same
 * frames straight to the socket instead (see docs/decisions/0064).
 *
 * @example
 * return eventStreamResponse(frames(), { onCancel: () => controller.abort(), headers: { 'content-type': 'text/event-stream' } });
 */
export function eventStreamResponse(frames: AsyncIterable<Uint8Array>, options: { onCancel: () => void; headers: Record<string, string> }): Response {
  const iterator = frames[Symbol.asyncIterator]();
  let pulls = 0;
  const body = new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        pulls += 1;
        // The head and the first frame leave before the rest is pulled (see writeEventStream).
        if (pulls === 2) await yieldToEventLoop();
        const next = await iterator.next();
        if (next.done) controller.close();
        else controller.enqueue(next.value);
      },
      async cancel() {
        options.onCancel();
        await iterator.return?.();
      },
    },
    { highWaterMark: 0 },
  );
  const response: TaggedResponse = new Response(body, { status: 200, headers: options.headers });
  response[EVENT_STREAM] = { frames: iterator, onCancel: options.onCancel };
  return response;
}

/** The frames behind a response made by {@link eventStreamResponse}, or undefined for any other response. */
export function eventStreamOf(response: Response): EventStreamSource | undefined {
  return (response as TaggedResponse)[EVENT_STREAM];
}

/**
 * Writes an event stream straight to Node's response: the head goes out together with the first frame in
 * one write, then each later frame as it comes (frames produced in the same turn share a write). Going
 * through the web Response costs a separate write for the head and a ReadableStream pipeline; on loopback
 * each write is a system call that delivers the data to the reader, about 0.5 ms on a small VM.
 */
export async function writeEventStream(outgoing: ServerResponse, status: number, headers: Headers, source: EventStreamSource): Promise<void> {
  let closed = false;
  const onClose = () => {
    if (outgoing.writableFinished) return;
    closed = true;
    source.onCancel();
    void source.frames.return?.();
  };
  outgoing.once('close', onClose);
  const head: Record<string, string | string[]> = {};
  headers.forEach((value, name) => {
    if (name === 'set-cookie') head[name] = headers.getSetCookie();
    else if (name !== 'content-length') head[name] = value;
  });
  outgoing.writeHead(status, head);
  try {
    let first = true;
    for (;;) {
      const next = await source.frames.next();
      if (closed) return;
      if (next.done) break;
      const drained = outgoing.write(next.value);
      if (first) {
        first = false;
        // Lets Node uncork the head and the first frame before the next frames are pulled: when they are
        // already buffered, pulling on would run the whole answer in one turn and delay the first frame.
        await yieldToEventLoop();
      } else if (!drained) {
        await new Promise<void>((resolve) => {
          const settle = () => {
            outgoing.off('drain', settle);
            outgoing.off('close', settle);
            resolve();
          };
          outgoing.on('drain', settle);
          outgoing.on('close', settle);
        });
      }
      if (closed) return;
    }
    outgoing.end();
  } catch (error) {
    outgoing.destroy(error as Error);
  } finally {
    outgoing.off('close', onClose);
  }
}
