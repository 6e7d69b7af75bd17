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
  /**
   * The frame that replaces the rest when the server shuts down before the events ended (then `last`); without it,
   * `failure` of an error saying so.
   */
  interrupted?: string;
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

/**
 * The event streams being written to Node's responses, so that a shutdown ends them with a frame saying so and their
 * last frame (`[DONE]`) instead of cutting their sockets (see `close()` in app/create-server.ts).
 *
 * @example
 * const streams = new OpenEventStreams();
 * void writeEventStream(outgoing, 200, stream, streams);
 * await streams.endAll(); // at shutdown, before the connections are closed
 */
export class OpenEventStreams {
  private readonly open = new Set<() => Promise<void>>();

  /** How many streams are being written. */
  get size(): number {
    return this.open.size;
  }

  /** Tracks a stream until the returned function is called; `end` ends it early. */
  add(end: () => Promise<void>): () => void {
    this.open.add(end);
    return () => this.open.delete(end);
  }

  /**
   * Ends every stream still being written: the work behind its events is cancelled, and its interruption frame and
   * last frame are written after what it had already sent. Resolves once each response was handed to its socket (or
   * the socket closed) and each stream's events finished (their work recorded what it used); a client that stopped
   * reading keeps its response unfinished, so callers bound the wait.
   */
  async endAll(): Promise<void> {
    await Promise.all([...this.open].map((end) => end()));
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

/** Frames held for one write: past this many characters they go out at once, whatever the turn. */
const BATCH_CHARACTERS = 16 * 1024;

/**
 * Writes an event stream straight to Node's response. The head goes out together with the first frame in one
 * write; the frames after it are joined and written once per turn of the event loop (at its check phase, after
 * the I/O that produced them), and the stream's last frame joins the ones before it when the events end in the
 * same turn. A streamed answer whose upstream chunks arrived together therefore costs two writes, not one per frame
 * plus one for the end: each write to a chunked response is four calls into the socket's stream and, on loopback,
 * a system call that delivers the data to the reader (see docs/decisions/0064 and 0076). Each event is encoded as
 * it is pulled, nothing is read ahead of the socket: a full socket stops the pulling until it drains. The headers
 * the middlewares set on `outgoing` go out with the stream's own.
 */
export async function writeEventStream<T>(outgoing: ServerResponse, status: number, stream: EventStream<T>, streams?: OpenEventStreams): Promise<void> {
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

  // Frames pulled but not written yet, and the turn's flush that writes them.
  let held = '';
  let flushing: NodeJS.Immediate | undefined;
  let full: Promise<void> | undefined;
  /** Writes `text`; a full socket makes the loop wait (`full`) before it pulls the next event. */
  const write = (text: string) => {
    if (!outgoing.write(text)) full ??= drained(outgoing).then(() => void (full = undefined));
  };
  const flush = () => {
    flushing = undefined;
    if (held === '' || closed) return;
    write(held);
    held = '';
  };
  // A shutdown ends the stream here: what was held, the interruption and the last frame, then the source is stopped.
  let ending: Promise<void> | undefined;
  const end = () =>
    (ending ??= (async () => {
      if (closed || outgoing.writableEnded) return;
      closed = true;
      if (flushing) clearImmediate(flushing);
      outgoing.off('close', onClose);
      const handedOver = new Promise<void>((resolve) => {
        outgoing.once('finish', resolve);
        outgoing.once('close', resolve);
      });
      outgoing.end(held + (stream.source.interrupted ?? failure(new Error('the server is shutting down'))) + last);
      held = '';
      onCancel();
      // An async generator's return waits for the pull in progress, which the cancellation ends.
      await Promise.all([handedOver, iterator.return?.(undefined).catch(() => undefined)]);
    })());
  const untrack = streams?.add(end);
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
      if (first) {
        // At once: Node sends the head and this frame together when the turn's ticks are done.
        first = false;
        write(frame);
      } else {
        held += frame;
        if (held.length >= BATCH_CHARACTERS) flush();
        else flushing ??= setImmediate(flush);
      }
      if (done) break;
      if (full) await full;
      if (closed) return;
    }
    if (flushing) clearImmediate(flushing);
    outgoing.end(held + last);
  } catch (error) {
    if (flushing) clearImmediate(flushing);
    outgoing.destroy(error as Error);
  } finally {
    outgoing.off('close', onClose);
    untrack?.();
  }
}
