import { describe, expect, it } from 'vitest';
import { streamChatCompletion } from '../../src/client/chat-stream.js';
import { ConnectionError } from '../../src/index.js';

const browserGlobals = globalThis as unknown as { window?: unknown; document?: unknown };

function sseResponse(text: string): Response {
  return new Response(text, { status: 200, headers: { 'content-type': 'text/event-stream' } });
}

const chunk = {
  id: 'c1',
  object: 'chat.completion.chunk',
  created: 1,
  model: 'm',
  choices: [{ index: 0, delta: { role: 'assistant', content: 'Hel' }, finish_reason: null }],
};

describe('streamChatCompletion guards', () => {
  it('refuses to run outside a browser with a clear message, instead of crashing the process later', async () => {
    const stream = streamChatCompletion({
      baseUrl: 'http://palaver.test',
      usageToken: 't',
      request: { model: 'm', messages: [{ role: 'user', content: 'hi' }] },
    });
    await expect(stream.next()).rejects.toThrow(/runs in browsers/);
  });

  it('a stream cut before [DONE] rejects with ConnectionError after the chunks that arrived', async () => {
    browserGlobals.window = { setTimeout, clearTimeout };
    browserGlobals.document = { addEventListener() {}, removeEventListener() {}, hidden: false };
    try {
      const received: unknown[] = [];
      const fetch = (async () => sseResponse(`data: ${JSON.stringify(chunk)}\n\n`)) as typeof globalThis.fetch;
      const consume = async () => {
        for await (const item of streamChatCompletion({
          baseUrl: 'http://palaver.test',
          usageToken: 't',
          fetch,
          request: { model: 'm', messages: [{ role: 'user', content: 'hi' }] },
        })) {
          received.push(item);
        }
      };
      const error = await consume().catch((caught: unknown) => caught);
      expect(ConnectionError.isInstance(error)).toBe(true);
      expect(received).toHaveLength(1);

      const complete: unknown[] = [];
      const fetchComplete = (async () => sseResponse(`data: ${JSON.stringify(chunk)}\n\ndata: [DONE]\n\n`)) as typeof globalThis.fetch;
      for await (const item of streamChatCompletion({
        baseUrl: 'http://palaver.test',
        usageToken: 't',
        fetch: fetchComplete,
        request: { model: 'm', messages: [{ role: 'user', content: 'hi' }] },
      })) {
        complete.push(item);
      }
      expect(complete).toHaveLength(1);
    } finally {
      delete browserGlobals.window;
      delete browserGlobals.document;
    }
  });
});
