import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '../../src/client/create-client.js';
import { startFakeOpenAiUpstream, type FakeOpenAiUpstream, type ScriptedChunk } from '../../src/testing/fake-openai-upstream.js';
import { startServerProcess, type ServerProcess } from '../support/server-process.js';

/** An answer that starts, then stalls: the stream is still running when the shutdown's grace period ends. */
const stalling = (words: string[]): { kind: 'stream'; chunks: ScriptedChunk[]; delayMs: number; after: 'stall' } => ({
  kind: 'stream',
  chunks: [{ delta: { role: 'assistant', content: '' } }, ...words.map((word) => ({ delta: { content: word } }))],
  delayMs: 10,
  after: 'stall',
});

/** One server-sent event block, and whether the response body ended cleanly (not with a cut socket). */
interface ReadOutcome {
  events: Array<{ event: string | undefined; data: string }>;
  /** `clean`, or the error that ended the body. */
  ended: string;
}

/** Reads a raw SSE response to its end; `firstEvent` resolves once something arrived. */
function readToEnd(response: Response, firstEvent: () => void): Promise<ReadOutcome> {
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  const events: ReadOutcome['events'] = [];
  let buffer = '';
  return (async () => {
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return { events, ended: 'clean' };
        buffer += value;
        let boundary: number;
        while ((boundary = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, boundary);
          buffer = buffer.slice(boundary + 2);
          let event: string | undefined;
          const data: string[] = [];
          for (const line of block.split('\n')) {
            if (line.startsWith('event: ')) event = line.slice(7);
            else if (line.startsWith('data: ')) data.push(line.slice(6));
          }
          events.push({ event, data: data.join('\n') });
          firstEvent();
        }
      }
    } catch (error) {
      // A cut socket: undici reports `terminated` (its cause the socket's close).
      return { events, ended: `failed: ${(error as Error).message} ${String((error as Error).cause ?? '')}` };
    }
  })();
}

describe('SIGTERM with chat completions still streaming after the grace period', () => {
  let upstream: FakeOpenAiUpstream;
  let server: ServerProcess;
  let llm: string;
  beforeAll(async () => {
    upstream = await startFakeOpenAiUpstream();
    server = await startServerProcess();
    const client = createClient({ baseUrl: server.url, apiKey: server.apiKey, maxRetries: 0 });
    llm = (await client.llms.create({ name: 'stalling', description: '', headers: [], model: 'fake-gpt', post_url: upstream.chatUrl })).id;
  }, 60_000);
  afterAll(async () => {
    await server?.kill('SIGKILL');
    await upstream?.close();
  });

  it('each stream ends with an error event saying the server shuts down, then [DONE], and a cleanly ended response; the process exits 0', async () => {
    upstream.enqueue(stalling(['Half', ' an', ' answer']), stalling(['Another', ' half']));
    // A raw SSE client, read to the end of the response body.
    let arrived!: () => void;
    const firstEvent = new Promise<void>((resolve) => (arrived = resolve));
    const response = await fetch(`${server.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': server.apiKey },
      body: JSON.stringify({ model: llm, stream: true, messages: [{ role: 'user', content: 'Tell me everything.' }] }),
    });
    expect(response.status).toBe(200);
    const raw = readToEnd(response, () => arrived());
    await firstEvent;

    // The official client: the stream it iterates ends with the server's error, not a connection failure.
    const openai = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: server.apiKey, maxRetries: 0 });
    const stream = await openai.chat.completions.create({ model: llm, stream: true, messages: [{ role: 'user', content: 'And you?' }] });
    let officialText = '';
    let officialFirst!: () => void;
    const officialStarted = new Promise<void>((resolve) => (officialFirst = resolve));
    const official = (async () => {
      try {
        for await (const chunk of stream) {
          officialText += chunk.choices[0]?.delta.content ?? '';
          if (officialText !== '') officialFirst();
        }
        return 'ended without an error';
      } catch (error) {
        return error;
      }
    })();
    await officialStarted;

    const exit = server.kill('SIGTERM');
    const [outcome, officialOutcome, code] = await Promise.all([raw, official, exit]);

    expect(outcome.ended).toBe('clean');
    const text = outcome.events
      .filter((event) => event.event === undefined && event.data !== '[DONE]')
      .map((event) => (JSON.parse(event.data) as { choices: Array<{ delta: { content?: string } }> }).choices[0]?.delta.content ?? '')
      .join('');
    expect(text).toBe('Half an answer');
    // The last two events: the error, then [DONE].
    expect(outcome.events.slice(-2)).toEqual([
      {
        event: 'error',
        data: JSON.stringify({
          error: { type: 'server_shutdown', code: 'server_shutdown', message: 'the server is shutting down; the completion was cut short' },
        }),
      },
      { event: undefined, data: '[DONE]' },
    ]);

    expect(officialText).toBe('Another half');
    expect(officialOutcome).toBeInstanceOf(OpenAI.APIError);
    expect(officialOutcome).not.toBeInstanceOf(OpenAI.APIConnectionError);
    expect((officialOutcome as InstanceType<typeof OpenAI.APIError>).message).toContain('the server is shutting down');

    // The upstream requests were aborted (not left running), and the process closed inside its own deadline.
    await expect.poll(() => upstream.requests.every((request) => request.abortedAt !== undefined), { timeout: 10_000 }).toBe(true);
    expect(code).toBe(0);
  }, 60_000);
});
