import { createServer, get, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { EventStream, writeEventStream } from './event-stream.js';

/** A real local server writing `stream` to each request; `writes` records every `write`/`end` call on the response. */
let server: Server | undefined;
async function serve(stream: () => EventStream<string>): Promise<{ response: IncomingMessage; writes: string[]; written: Promise<void> }> {
  const writes: string[] = [];
  let resolveWritten!: () => void;
  const written = new Promise<void>((resolve) => (resolveWritten = resolve));
  server = createServer((_request, outgoing: ServerResponse) => {
    const write = outgoing.write.bind(outgoing) as (chunk: string) => boolean;
    const end = outgoing.end.bind(outgoing) as (chunk: string) => ServerResponse;
    outgoing.write = ((chunk: string) => (writes.push(chunk), write(chunk))) as typeof outgoing.write;
    outgoing.end = ((chunk: string) => (writes.push(chunk), end(chunk))) as typeof outgoing.end;
    void writeEventStream(outgoing, 200, stream()).then(resolveWritten);
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const response = await new Promise<IncomingMessage>((resolve, reject) => get(`http://127.0.0.1:${port}/`, resolve).once('error', reject));
  return { response, writes, written };
}

afterEach(async () => {
  server?.closeAllConnections();
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  server = undefined;
});

function eventStream(events: AsyncIterable<string>, onCancel: () => void = () => {}): EventStream<string> {
  return new EventStream({
    events,
    encode: (event) => `data: ${event}\n\n`,
    failure: () => 'event: error\ndata: failed\n\n',
    last: 'data: [DONE]\n\n',
    onCancel,
    headers: { 'content-type': 'text/event-stream' },
  });
}

async function readAll(response: IncomingMessage): Promise<string> {
  let text = '';
  for await (const part of response) text += String(part);
  return text;
}

/** Resolves once the response's text so far contains `expected`. */
function received(response: IncomingMessage, expected: string): Promise<void> {
  let text = '';
  return new Promise((resolve) => {
    const onData = (part: Buffer) => {
      text += part.toString();
      if (text.includes(expected)) {
        response.off('data', onData);
        response.pause();
        resolve();
      }
    };
    response.on('data', onData);
  });
}

describe('writeEventStream', () => {
  it('sends the head and the first frame before the next event exists, then the rest', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const { response } = await serve(() =>
      eventStream(
        (async function* events() {
          yield 'one';
          await gate;
          yield 'two';
        })(),
      ),
    );
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/event-stream');
    await received(response, 'data: one\n\n');
    release();
    expect(await readAll(response)).toBe('data: two\n\ndata: [DONE]\n\n');
  });

  it('writes the frames produced in one turn together, and the last frame with them when the events end in that turn', async () => {
    const { response, writes, written } = await serve(() =>
      eventStream(
        (async function* events() {
          yield* ['a', 'b', 'c', 'd'];
        })(),
      ),
    );
    expect(await readAll(response)).toBe('data: a\n\ndata: b\n\ndata: c\n\ndata: d\n\ndata: [DONE]\n\n');
    await written;
    // The first frame at once, the three after it and [DONE] in one write: not one write per frame plus one for the end.
    expect(writes).toEqual(['data: a\n\n', 'data: b\n\ndata: c\n\ndata: d\n\ndata: [DONE]\n\n']);
  });

  it('writes the held frames at the end of the turn when the next event is later', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const { response, writes } = await serve(() =>
      eventStream(
        (async function* events() {
          yield* ['a', 'b', 'c'];
          await gate;
          yield 'd';
        })(),
      ),
    );
    await received(response, 'data: c\n\n');
    expect(writes).toEqual(['data: a\n\n', 'data: b\n\ndata: c\n\n']);
    release();
    expect(await readAll(response)).toBe('data: d\n\ndata: [DONE]\n\n');
  });

  it('a failure becomes the failure frame, and the stream still ends with the last frame', async () => {
    const { response } = await serve(() =>
      eventStream(
        (async function* events() {
          yield 'a';
          throw new Error('upstream broke');
        })(),
      ),
    );
    expect(await readAll(response)).toBe('data: a\n\nevent: error\ndata: failed\n\ndata: [DONE]\n\n');
  });

  it('stops pulling while the client reads nothing, and cancels the events when it goes away', async () => {
    let pulled = 0;
    let cancelled = false;
    let returned = false;
    const frame = 'x'.repeat(32 * 1024);
    const { response } = await serve(() =>
      eventStream(
        (async function* events() {
          try {
            for (;;) {
              pulled += 1;
              // Each event a turn of its own, as an upstream's chunks come.
              await new Promise((resolve) => setImmediate(resolve));
              yield frame;
            }
          } finally {
            returned = true;
          }
        })(),
        () => (cancelled = true),
      ),
    );
    response.pause();
    await new Promise((resolve) => setTimeout(resolve, 300));
    const stalled = pulled;
    await new Promise((resolve) => setTimeout(resolve, 300));
    // Bounded by the sockets' buffers (a few MB at most), not growing while nobody reads.
    expect(pulled).toBe(stalled);
    expect(pulled * frame.length).toBeLessThan(16 * 1024 * 1024);
    response.destroy();
    await expect.poll(() => cancelled && returned).toBe(true);
  });
});
