import { createServer, get, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { eventStreamChunks, UpstreamReportedError } from './upstream-chunks.js';

/** A real local server answering with what `write` sends; resolves with the client's response body. */
let server: Server | undefined;
async function answer(write: (response: ServerResponse) => unknown): Promise<IncomingMessage> {
  server = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'text/event-stream' });
    void write(response);
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return new Promise((resolve, reject) => get(`http://127.0.0.1:${port}/`, resolve).once('error', reject));
}

afterEach(async () => {
  server?.closeAllConnections();
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  server = undefined;
});

const chunk = (content: string) =>
  `data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', created: 0, model: 'm', choices: [{ index: 0, delta: { content }, finish_reason: null }] })}\n\n`;
const contents = (chunks: Array<{ choices: Array<{ delta: { content?: string | null } }> }>) => chunks.map((item) => item.choices[0]?.delta.content);

async function collect(body: IncomingMessage): Promise<{ chunks: Array<{ choices: Array<{ delta: { content?: string | null } }> }>; error?: unknown }> {
  const chunks = [];
  try {
    for await (const item of eventStreamChunks(body)) chunks.push(item);
  } catch (error) {
    return { chunks, error };
  }
  return { chunks };
}

describe('eventStreamChunks', () => {
  it('yields the chunks in order, split anywhere, and ends at [DONE] while the body is read to its end', async () => {
    const body = await answer((response) => {
      const text = `${chunk('Hel')}: a comment\nretry: nonsense\nunknown: field\n${chunk('lo')}data: [DONE]\n\n`;
      // Bytes split mid-line and mid-character boundary of the frames.
      for (let index = 0; index < text.length; index += 7) response.write(text.slice(index, index + 7));
      response.end(chunk('after done'));
    });
    const { chunks, error } = await collect(body);
    expect(error).toBeUndefined();
    expect(contents(chunks)).toEqual(['Hel', 'lo']);
    if (!body.readableEnded) await new Promise((resolve) => body.once('end', resolve));
    expect(body.readableEnded).toBe(true);
  });

  it("gives the chunks before an upstream's error event, then its error", async () => {
    const body = await answer((response) => response.end(`${chunk('a')}event: error\ndata: {"error":{"message":"overloaded"}}\n\n`));
    const { chunks, error } = await collect(body);
    expect(contents(chunks)).toEqual(['a']);
    expect(error).toBeInstanceOf(UpstreamReportedError);
    expect((error as Error).message).toBe('overloaded');
  });

  it('fails on data that is not JSON', async () => {
    const body = await answer((response) => response.end('data: {not json\n\n'));
    const { error } = await collect(body);
    expect((error as Error).message).toMatch(/not JSON/);
  });

  it('fails when the body is cut short', async () => {
    const body = await answer(async (response) => {
      response.write(chunk('a'));
      await new Promise((resolve) => setTimeout(resolve, 20));
      response.socket?.destroy();
    });
    const { chunks, error } = await collect(body);
    expect(contents(chunks)).toEqual(['a']);
    expect(error).toBeInstanceOf(Error);
  });

  it('ends without [DONE] at the end of the body', async () => {
    const body = await answer((response) => response.end(chunk('x')));
    const { chunks, error } = await collect(body);
    expect(error).toBeUndefined();
    expect(contents(chunks)).toEqual(['x']);
  });

  it('pauses the socket while many chunks wait unread, and resumes as they are read', async () => {
    const body = await answer((response) => response.end(Array.from({ length: 500 }, (_, index) => chunk(String(index))).join('') + 'data: [DONE]\n\n'));
    const iterator = eventStreamChunks(body);
    const first = await iterator.next();
    expect(first.value.choices[0].delta.content).toBe('0');
    // Let the rest arrive unread.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(body.isPaused()).toBe(true);
    const rest = [];
    for (let next = await iterator.next(); !next.done; next = await iterator.next()) rest.push(next.value);
    expect(rest).toHaveLength(499);
  });

  it('destroys the body when the reader stops early', async () => {
    const body = await answer((response) => response.write(chunk('a')));
    const iterator = eventStreamChunks(body);
    await iterator.next();
    await iterator.return!();
    expect(body.destroyed).toBe(true);
    expect((await iterator.next()).done).toBe(true);
  });

  it('ends the stream with an error past the event size limit', async () => {
    const body = await answer(async (response) => {
      const piece = 'x'.repeat(1024 * 1024);
      response.write('data: ');
      for (let index = 0; index < 5 && !response.destroyed; index += 1) {
        if (!response.write(piece)) await new Promise((resolve) => response.once('drain', resolve));
      }
      response.end();
    });
    const { error } = await collect(body);
    expect(error).toBeInstanceOf(UpstreamReportedError);
    expect((error as Error).message).toMatch(/larger than 4194304 bytes/);
  });
});
