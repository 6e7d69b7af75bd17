import type { ServerResponse } from 'node:http';

/** What a `text/event-stream` body is made of: its events, how each is written, and how it ends. */
export interface EventStreamSource<T> {
  events: AsyncIterable<T>;
  /** The frame of one event (`data: ...\n\n`). */
  encode: (event: T) => string;
  /** The frame that replaces the rest when the events fail (the stream still ends with `last`). */
  failure: (error: unknown) => string;
  /** The frame every stream ends with (`data: [DONE]\n\n`). */
  last: string;
  /** The client went away: stop the work behind the events (the upstream request). */
  onCancel: () => void;
  headers: Record<string, string>;
}

const encoder = new TextEncoder();

function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/**
 * A handler's streamed answer. Under Node, {@link writeEventStream} writes its frames straight to the socket; anywhere
 * else (`server.fetch`) it becomes a web Response through {@link EventStream.toResponse}. No ReadableStream or Response
 * is built on Node's path: they cost as much as the rest of a streamed request's plumbing (see docs/decisions/0064).
 *
 * @example
 * return new EventStream({ events, encode, failure, last: 'data: [DONE]\n\n', onCancel: () => controller.abort(), headers });
 */
export class EventStream<T = unknown> {
  constructor(readonly source: EventStreamSource<T>) {}

  /** The frames, pulled one at a time (nothing is read ahead of the client), failures turned into `failure`. */
  async *frames(): AsyncGenerator<string> {
    const { events, encode, failure, last } = this.source;
    try {
      for await (const event of events) yield encode(event);
    } catch (error) {
      yield failure(error);
    }
    yield last;
  }

  /** The stream as a web Response (for `fetch`-style serving). */
  toResponse(): Response {
    const iterator = this.frames();
    const { onCancel } = this.source;
    let pulls = 0;
    const body = new ReadableStream<Uint8Array>(
      {
        async pull(controller) {
          pulls += 1;
          // The head and the first frame leave before the rest is pulled (see writeEventStream).
          if (pulls === 2) await yieldToEventLoop();
          const next = await iterator.next();
          if (next.done) controller.close();
          else controller.enqueue(encoder.encode(next.value));
        },
        async cancel() {
          onCancel();
          await iterator.return(undefined);
        },
      },
      { highWaterMark: 0 },
    );
    return new Response(body, { status: 200, headers: this.source.headers });
  }
}

/** Resolves when the response drained its buffer or closed. */
function drained(outgoing: ServerResponse): Promise<void> {
  return new Promise<void>((resolve) => {
    const settle = () => {
      outgoing.off('drain', settle);
      outgoing.off('close', settle);
      resolve();
    };
    outgoing.on('drain', settle);
    outgoing.on('close', settle);
  });
}

/**
 * Writes an event stream straight to Node's response: the head goes out together with the first frame in
 * one write, then each later frame as it comes (frames produced in the same turn share a write: Node corks a
 * response's socket until the next tick). Each event is encoded as it is written, with no generator in between;
 * on loopback each write is a system call that delivers the data to the reader, about 0.15-0.5 ms on a small VM.
 * The headers the middlewares set on `outgoing` go out with the stream's own.
 */
export async function writeEventStream<T>(outgoing: ServerResponse, status: number, stream: EventStream<T>): Promise<void> {
  const { events, encode, failure, last, onCancel, headers } = stream.source;
  const iterator = events[Symbol.asyncIterator]();
  let closed = false;
  const onClose = () => {
    if (outgoing.writableFinished) return;
    closed = true;
    onCancel();
    void iterator.return?.(undefined);
  };
  outgoing.once('close', onClose);
  // The stream's length is not known: it goes chunked, whatever a middleware said.
  outgoing.removeHeader('content-length');
  outgoing.writeHead(status, headers);
  try {
    let first = true;
    for (;;) {
      let frame: string;
      let done = false;
      try {
        const next = await iterator.next();
        if (closed) return;
        if (next.done) break;
        frame = encode(next.value);
      } catch (error) {
        if (closed) return;
        frame = failure(error);
        done = true;
      }
      const room = outgoing.write(frame);
      if (done) break;
      if (first) {
        first = false;
        // Lets Node uncork the head and the first frame before the next frames are pulled: when they are
        // already buffered, pulling on would run the whole answer in one turn and delay the first frame.
        await yieldToEventLoop();
      } else if (!room) {
        await drained(outgoing);
      }
      if (closed) return;
    }
    outgoing.end(last);
  } catch (error) {
    outgoing.destroy(error as Error);
  } finally {
    outgoing.off('close', onClose);
  }
}
